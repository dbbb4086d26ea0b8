"""Moved to ``mqctl.domain.objects`` (one module per object kind: what the product accepts and what a
define, alter or delete does). Kept as a re-export so older imports work; "rules" now names validate's
catalogue (``mqctl.domain.validation``)."""

from mqctl.domain.objects import (
    channels,
    check_definition,
    clusters,
    ems_definitions,
    namelists,
    nodes,
    route_selectors,
    routes,
    subscriptions,
    text,
    topic_objects,
)

__all__ = [
    "channels",
    "check_definition",
    "clusters",
    "ems_definitions",
    "namelists",
    "nodes",
    "route_selectors",
    "routes",
    "subscriptions",
    "text",
    "topic_objects",
]
