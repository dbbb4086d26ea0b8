"""Write an EMS server's model back as ``topics.conf``, ``routes.conf`` and ``durables.conf``.

Order and unknown properties are kept, so reading the written files gives the same model.
"""

from __future__ import annotations

from mqctl.domain.model import NodeState
from mqctl.formats.ems.props import format_props


def write_topics_conf(state: NodeState) -> str:
    width = max((len(t.name) for t in state.topics.values()), default=0) + 2
    lines = ["# topic-name  properties (written by mqctl)"]
    for topic in state.topics.values():
        props = format_props(topic.properties)
        lines.append(f"{topic.name.ljust(width)}{props}".rstrip())
    return "\n".join(lines) + "\n"


def write_routes_conf(state: NodeState) -> str:
    blocks: list[str] = []
    for route in state.routes.values():
        lines = [
            f"[{route.peer}]",
            f"  url = {route.url}",
            f"  zone_name = {route.zone_name}",
            f"  zone_type = {route.zone_type.value}",
        ]
        lines += [f"  {key} = {value}" for key, value in route.properties.items()]
        for sel in state.route_selectors:
            if sel.peer == route.peer:
                lines.append(f'  {sel.direction.value}_topic={sel.topic} selector="{sel.selector}"')
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks) + ("\n" if blocks else "")


def write_durables_conf(state: NodeState) -> str:
    lines = []
    for sub in state.subscriptions.values():
        if not sub.durable:
            continue
        extras = " ".join(key if value is None else f"{key}={value}" for key, value in sub.properties.items())
        selector = f' selector="{sub.selector}"' if sub.selector else ""
        lines.append(f"{sub.topicstr}  {sub.name}  {extras}{selector}".rstrip())
    return "\n".join(lines) + ("\n" if lines else "")
