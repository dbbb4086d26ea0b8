"""EMS routes (a ``routes.conf`` section, or tibemsadmin ``create route``).

A route is named after its peer server and needs a URL; its zone is fixed when it is created
(tibemsadmin refuses to change ``zone_name``/``zone_type`` afterwards). Every value is one line of
routes.conf, so nothing in it may change that file's structure. Deleting a route deletes its selectors:
they are properties of the route (semantics §9), at every door.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from mqctl.domain.errors import InputError
from mqctl.domain.model import Dialect, NodeState, Route, RouteSelector
from mqctl.domain.names import check_node_name
from mqctl.domain.objects.edit import changed, refuse_existing, require
from mqctl.domain.objects.text import check_ems_token, check_ems_value
from mqctl.domain.valid_text import check_definition_text

RESERVED_KEYS = ("url", "zone_name", "zone_type", "selector", "incoming_topic", "outgoing_topic")
"""Keys routes.conf reads itself: a free route property of one of these names (or beginning like a
selector line) would be read back as that."""


def is_reserved_key(key: str) -> bool:
    return key in RESERVED_KEYS or key.startswith(("incoming_topic", "outgoing_topic"))


def label(route: Route) -> str:
    return f"route {route.peer}"


def check(route: Route) -> None:
    obj = label(route)
    check_definition_text(route, obj)
    check_node_name(route.peer, Dialect.EMS)
    if route.peer == route.node:
        raise InputError("a server cannot route to itself", obj=obj)
    if not route.url.strip():
        raise InputError("is required, e.g. tcp://host:7222", obj=obj, attribute="url")
    check_ems_value(route.url, obj, "url")
    if not route.zone_name:
        raise InputError("is empty", obj=obj, attribute="zone_name")
    check_ems_value(route.zone_name, obj, "zone_name")
    for key, value in route.properties.items():
        check_ems_token(key, obj, "property")
        if is_reserved_key(key):
            raise InputError("is not a free route property", obj=obj, attribute=key)
        check_ems_value(value, obj, key)


def check_change(old: Route, new: Route) -> None:
    obj = label(old)
    if new.zone_name != old.zone_name:
        raise InputError("cannot be changed after the route is created", obj=obj, attribute="zone_name")
    if new.zone_type is not old.zone_type:
        raise InputError("cannot be changed after the route is created", obj=obj, attribute="zone_type")
    check(new)


def check_peer(route: Route, peer_dialect: Dialect | None) -> None:
    """The peer is an EMS server (None: not defined yet; it is created as one)."""
    if peer_dialect is Dialect.MQ:
        raise InputError(
            f"route peer {route.peer} is an MQ queue manager, not an EMS server", obj=label(route)
        )


def define(state: NodeState, route: Route, *, replace: bool, seq: int, peer_dialect: Dialect | None) -> bool:
    """``create route`` / a routes.conf section / ``define route``; a redefined route keeps its selectors.
    ``peer_dialect``: the peer's dialect in the model (None: unknown, the door creates it as an EMS server).
    True: replaced."""
    old = state.routes.get(route.peer)
    refuse_existing(old, replace, label(route))
    check(route)
    check_peer(route, peer_dialect)
    state.routes[route.peer] = dataclasses.replace(route, seq=seq)
    return old is not None


def alter(state: NodeState, peer: str, changes: Mapping[str, Any], *, seq: int) -> Route:
    old = require(state.routes, peer, f"route {peer}", state.node.name)
    new = changed(old, changes, seq)
    check_change(old, new)
    state.routes[peer] = new
    return new


def delete(state: NodeState, peer: str) -> list[RouteSelector]:
    """Delete the route and its selectors; returns the selectors deleted with it."""
    require(state.routes, peer, f"route {peer}", state.node.name)
    del state.routes[peer]
    gone = [s for s in state.route_selectors if s.peer == peer]
    state.route_selectors = [s for s in state.route_selectors if s.peer != peer]
    return gone
