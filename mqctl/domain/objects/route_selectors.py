"""Route selectors: ``incoming_topic=T selector="..."`` / ``outgoing_topic=T`` on a route.

The selector is written between double quotes in routes.conf, so it cannot hold one itself.
"""

from __future__ import annotations

import dataclasses

from mqctl.domain.errors import InputError
from mqctl.domain.model import NodeState, RouteSelector
from mqctl.domain.objects.edit import AlreadyDefined, NotDefined
from mqctl.domain.objects.ems_definitions import check_pattern
from mqctl.domain.objects.subscriptions import check_selector
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


Key = tuple[str, str, str]
"""(peer, direction, topic): what names a selector on its node."""


def key(rs: RouteSelector) -> Key:
    return (rs.peer, str(rs.direction), rs.topic)


def _index(state: NodeState, wanted: Key) -> int | None:
    return next((i for i, rs in enumerate(state.route_selectors) if key(rs) == wanted), None)


def define(state: NodeState, rs: RouteSelector, *, replace: bool, seq: int) -> bool:
    """A selector on a route of the node, with its own definition sequence. True: replaced."""
    check_route_exists(rs, rs.peer in state.routes)
    at = _index(state, key(rs))
    if at is not None and not replace:
        raise AlreadyDefined("is already defined", obj=label(rs))
    check(rs)
    new = dataclasses.replace(rs, seq=seq)
    if at is None:
        state.route_selectors.append(new)
    else:
        state.route_selectors[at] = new
    return at is not None


def _require(state: NodeState, wanted: Key) -> int:
    if wanted[0] not in state.routes:
        raise NotDefined(
            f"route {wanted[0]} is not defined on {state.node.name}", obj=f"route selector {wanted[2]}"
        )
    at = _index(state, wanted)
    if at is None:
        raise NotDefined(
            f"does not exist on {state.node.name}", obj=f"route {wanted[0]} {wanted[1]}_topic={wanted[2]}"
        )
    return at


def alter(state: NodeState, wanted: Key, selector: str | None, *, seq: int) -> RouteSelector:
    at = _require(state, wanted)
    old = state.route_selectors[at]
    new = dataclasses.replace(old, selector=old.selector if selector is None else selector, seq=seq)
    check(new)
    state.route_selectors[at] = new
    return new


def delete(state: NodeState, wanted: Key) -> RouteSelector:
    return state.route_selectors.pop(_require(state, wanted))
