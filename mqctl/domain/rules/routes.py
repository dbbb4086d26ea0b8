"""EMS routes (a ``routes.conf`` section, or tibemsadmin ``create route``).

A route is named after its peer server and needs a URL; its zone is fixed when it is created
(tibemsadmin refuses to change ``zone_name``/``zone_type`` afterwards). Every value is one line of
routes.conf, so nothing in it may change that file's structure.
"""

from __future__ import annotations

from mqctl.domain.errors import InputError
from mqctl.domain.model import Dialect, Route
from mqctl.domain.names import check_node_name
from mqctl.domain.rules.text import check_ems_token, check_ems_value
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
