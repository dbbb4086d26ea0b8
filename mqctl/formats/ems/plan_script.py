"""A plan's edits as tibemsadmin commands, one per line, as tibemsadmin and ``mqctl tibemsadmin``
apply them. Durable subscriptions are not something the tibemsadmin door applies: they are written
as comments saying what to do (the door skips comments)."""

from __future__ import annotations

from mqctl.domain.errors import InputError
from mqctl.domain.model import NodeState, Route, RouteSelector, Subscription, TopicObject
from mqctl.domain.objects.edits import Define, Delete, Edit, Kind
from mqctl.domain.plan.edits import selector_peer
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


def admin_commands(edits: list[Edit], before: NodeState, after: NodeState) -> list[str]:
    """``before``/``after``: the server before and after the edits (a route's properties and a durable's
    topic are read there). A route created or altered is one ``create``/``setprop route`` line with its
    selectors: the ``Define``/``Delete`` of its selectors that follow its own edit are in that line."""
    out: list[str] = []
    i = 0
    while i < len(edits):
        edit = edits[i]
        i += 1
        kind = edit.kind
        if kind is Kind.NODE:
            out.append(
                f"# server {after.node.name}: its own attributes are set in tibemsd.conf, not by tibemsadmin"
            )
        elif kind is Kind.TOPIC:
            if isinstance(edit, Delete):
                out.append(f"delete topic {edit.key}")
            elif isinstance(edit, Define):
                assert isinstance(edit.obj, TopicObject)
                out.append(f"create topic {edit.obj.name} {format_props(edit.obj.properties)}".rstrip())
            else:
                props = format_props(after.topics[str(edit.key)].properties)
                out.append(f"setprop topic {edit.key} {props}".rstrip())
        elif kind is Kind.ROUTE:
            if isinstance(edit, Delete):
                out.append(f"delete route {edit.key}")
                continue
            peer = edit.obj.peer if isinstance(edit, Define) else str(edit.key)  # type: ignore[attr-defined]
            route = after.routes[peer]
            selectors: list[RouteSelector] = []
            while i < len(edits) and selector_peer(edits[i]) == peer:
                following = edits[i]
                if isinstance(following, Define) and isinstance(following.obj, RouteSelector):
                    selectors.append(following.obj)
                i += 1
            verb = "create" if isinstance(edit, Define) else "setprop"
            words = [verb, "route", peer, *_route_props(route, creating=verb == "create")]
            words += [_selector(rs) for rs in selectors]
            out.append(" ".join(words))
        elif kind is Kind.ROUTE_SELECTOR:
            if isinstance(edit, Define):
                assert isinstance(edit.obj, RouteSelector)
                out.append(f"addprop route {edit.obj.peer} {_selector(edit.obj)}")
            elif isinstance(edit.key, tuple):
                peer, direction, topic = edit.key
                out.append(f"removeprop route {peer} {direction}_topic={topic}")
        elif kind is Kind.SUB:
            sub = edit.obj if isinstance(edit, Define) else before.subscriptions.get(str(edit.key))
            what = "create" if isinstance(edit, Define) else "delete"
            on = f" on {sub.topicstr}" if isinstance(sub, Subscription) else ""
            name = sub.name if isinstance(sub, Subscription) else str(getattr(edit, "key", ""))
            out.append(f"# {what} durable {name}{on} (a subscriber's own; not applied by this script)")
    return out


def admin_checks(edits: list[Edit]) -> list[str]:
    out: list[str] = []
    for edit in edits:
        kind = edit.kind
        if kind is Kind.TOPIC:
            name = edit.obj.name if isinstance(edit, Define) else edit.key  # type: ignore[attr-defined]
            out.append(f"show topic {name}")
        elif kind in (Kind.ROUTE, Kind.ROUTE_SELECTOR):
            peer = selector_peer(edit) or (edit.obj.peer if isinstance(edit, Define) else edit.key)  # type: ignore[attr-defined]
            out.append(f"show route {peer}")
        elif kind is Kind.SUB:
            out.append("show durables")
    return list(dict.fromkeys(out))
