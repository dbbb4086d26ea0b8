"""A plan's edits as tibemsadmin commands, one per line, as tibemsadmin and ``mqctl tibemsadmin``
apply them. Durable subscriptions are not something the tibemsadmin door applies: they are written
as comments saying what to do (the door skips comments)."""

from __future__ import annotations

from mqctl.domain.errors import InputError
from mqctl.domain.model import Node, Route, RouteSelector, Subscription, TopicObject
from mqctl.domain.plan.edits import Edit
from mqctl.formats.ems.props import format_props


def _value(text: str, what: str) -> str:
    if '"' in text or "\n" in text or "\r" in text:
        raise InputError(
            "cannot be written in a tibemsadmin command (a double quote or a line break)", obj=what
        )
    return text


def _selector(rs: RouteSelector) -> str:
    return f'{rs.direction}_topic={rs.topic} selector="{_value(rs.selector, f"route {rs.peer} selector")}"'


def _route_props(route: Route, *, creating: bool) -> list[str]:
    out = [f"url={route.url}"] if route.url else []
    if creating:
        out += [f"zone_name={route.zone_name}", f"zone_type={route.zone_type}"]
    if route.properties:
        out.append(format_props(dict(route.properties), separator=" "))
    return out


def admin_commands(edits: list[Edit]) -> list[str]:
    out: list[str] = []
    for edit in edits:
        obj = edit.obj
        if isinstance(obj, Node):
            out.append(f"# server {obj.name}: its own attributes are set in tibemsd.conf, not by tibemsadmin")
        elif isinstance(obj, TopicObject):
            props = format_props(obj.properties)
            if edit.verb == "delete":
                out.append(f"delete topic {obj.name}")
            elif edit.verb == "define":
                out.append(f"create topic {obj.name} {props}".rstrip())
            else:
                out.append(f"setprop topic {obj.name} {props}".rstrip())
        elif isinstance(obj, Route):
            if edit.verb == "delete":
                out.append(f"delete route {obj.peer}")
                continue
            verb = "create" if edit.verb == "define" else "setprop"
            words = [verb, "route", obj.peer, *_route_props(obj, creating=verb == "create")]
            words += [_selector(rs) for rs in edit.selectors]
            out.append(" ".join(words))
        elif isinstance(obj, RouteSelector):
            if edit.verb == "delete":
                out.append(f"removeprop route {obj.peer} {obj.direction}_topic={obj.topic}")
            else:
                out.append(f"addprop route {obj.peer} {_selector(obj)}")
        elif isinstance(obj, Subscription):
            what = "delete" if edit.verb == "delete" else "create"
            out.append(
                f"# {what} durable {obj.name} on {obj.topicstr} (a subscriber's own; not applied by this script)"
            )
    return out


def admin_checks(edits: list[Edit]) -> list[str]:
    out: list[str] = []
    for edit in edits:
        obj = edit.obj
        if isinstance(obj, TopicObject):
            out.append(f"show topic {obj.name}")
        elif isinstance(obj, Route | RouteSelector):
            out.append(f"show route {obj.peer}")
        elif isinstance(obj, Subscription):
            out.append("show durables")
    return list(dict.fromkeys(out))
