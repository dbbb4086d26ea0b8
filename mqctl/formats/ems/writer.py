"""Write an EMS server's model back as ``topics.conf``, ``routes.conf`` and ``durables.conf``.

Order and unknown properties are kept, so reading the written files gives the same model. Values are
written in the one quoting the line formats have (double quotes around a value holding a blank or a
comma); a value those formats cannot hold at all — a line break, a double quote, a name with a blank
or a leading ``#`` (``mqctl.domain.file_values``) — is refused with an ``InputError``, so no value can
add a line, a route or an object to the files.
"""

from __future__ import annotations

from mqctl.domain.errors import InputError
from mqctl.domain.file_values import check_ems_name, check_ems_value
from mqctl.domain.model import NodeState
from mqctl.domain.objects.routes import RESERVED_KEYS, is_reserved_key
from mqctl.formats.ems.props import format_props

ROUTE_KEYS = RESERVED_KEYS


def _checked_props(props: dict[str, str | None], what: str) -> dict[str, str | None]:
    for key, value in props.items():
        check_ems_name(key, f"{what} property {key}")
        if value is not None:
            check_ems_value(value, f"{what} property {key}")
    return props


def write_topics_conf(state: NodeState) -> str:
    width = max((len(t.name) for t in state.topics.values()), default=0) + 2
    lines = ["# topic-name  properties (written by mqctl)"]
    for topic in state.topics.values():
        what = f"topic {topic.name}"
        check_ems_name(topic.name, what)
        props = format_props(_checked_props(topic.properties, what))
        lines.append(f"{topic.name.ljust(width)}{props}".rstrip())
    return "\n".join(lines) + "\n"


def write_routes_conf(state: NodeState) -> str:
    blocks: list[str] = []
    for route in state.routes.values():
        what = f"route {route.peer}"
        check_ems_name(route.peer, what)
        check_ems_value(route.url, f"{what} url")
        check_ems_value(route.zone_name, f"{what} zone_name")
        lines = [
            f"[{route.peer}]",
            f"  url = {route.url}",
            f"  zone_name = {route.zone_name}",
            f"  zone_type = {route.zone_type.value}",
        ]
        for key, value in route.properties.items():
            check_ems_name(key, f"{what} property {key}")
            if is_reserved_key(key):
                raise InputError(f"a route property cannot be named {key}", obj=f"{what} property {key}")
            check_ems_value(value, f"{what} property {key}")
            lines.append(f"  {key} = {value}")
        for sel in state.route_selectors:
            if sel.peer == route.peer:
                check_ems_name(sel.topic, f"{what} {sel.direction.value}_topic")
                check_ems_value(sel.selector, f"{what} selector on {sel.topic}")
                lines.append(f'  {sel.direction.value}_topic={sel.topic} selector="{sel.selector}"')
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks) + ("\n" if blocks else "")


def write_durables_conf(state: NodeState) -> str:
    lines = []
    for sub in state.subscriptions.values():
        if not sub.durable:
            continue
        what = f"durable {sub.name}"
        check_ems_name(sub.topicstr, f"{what} topic")
        check_ems_name(sub.name, what)
        extras = format_props(_checked_props(sub.properties, what), separator=" ")
        selector = ""
        if sub.selector:
            check_ems_value(sub.selector, f"{what} selector")
            selector = f' selector="{sub.selector}"'
        lines.append(f"{sub.topicstr}  {sub.name}  {extras}{selector}".rstrip())
    return "\n".join(lines) + ("\n" if lines else "")
