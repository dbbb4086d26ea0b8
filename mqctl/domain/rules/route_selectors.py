"""Route selectors: ``incoming_topic=T selector="..."`` / ``outgoing_topic=T`` on a route.

The selector is written between double quotes in routes.conf, so it cannot hold one itself.
"""

from __future__ import annotations

from mqctl.domain.errors import InputError
from mqctl.domain.model import RouteSelector
from mqctl.domain.rules.ems_definitions import check_pattern
from mqctl.domain.rules.subscriptions import check_selector
from mqctl.domain.valid_text import check_definition_text


def label(rs: RouteSelector) -> str:
    return f"route {rs.peer} {rs.direction}_topic={rs.topic}"


def check(rs: RouteSelector) -> None:
    obj = label(rs)
    check_definition_text(rs, obj)
    check_pattern(rs.topic, obj, "topic")
    if not rs.selector.strip():
        raise InputError("is empty", obj=obj, attribute="selector")
    check_selector(rs.selector, obj, "selector", ems=True)


def check_route_exists(rs: RouteSelector, exists: bool) -> None:
    if not exists:
        raise InputError(f"route {rs.peer} is not defined on {rs.node}", obj=f"route selector {rs.topic}")
