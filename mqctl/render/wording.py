"""Phrases the pictures and the explain tree share, so that both say the same thing the same way."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from mqctl.domain.explanation import Delivery, Explanation, Hop, Via
from mqctl.domain.model import Route

__all__ = [
    "NO_SUBSCRIBER",
    "UNSUPPORTED",
    "and_list",
    "delivery_status",
    "hop_links",
    "hop_phrase",
    "route_links",
    "unreached_host_hops",
]

Links = dict[frozenset[str], dict[str, Route]]


def and_list(items: Sequence[str]) -> str:
    """``["A", "B", "C"]`` -> ``"A, B and C"``."""
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"


def route_links(routes: Iterable[Route]) -> Links:
    """The route connections between two servers: pair -> definer -> its route (the most recent).

    A pair defined on both servers is active-active; on one only, active-passive (semantics §6).
    """
    links: Links = {}
    for route in routes:
        if route.node == route.peer:
            continue
        held = links.setdefault(frozenset((route.node, route.peer)), {})
        if route.node not in held or held[route.node].seq < route.seq:
            held[route.node] = route
    return links


def hop_links(result: Explanation, routes: Iterable[Route]) -> Links:
    """``route_links`` of the routes the explanation's delivery hops cross, whichever way: a meshed EMS
    network has tens of thousands of routes, and a view names only the few it shows."""
    shown = {(h.from_node, h.to_node) for d in result.deliveries for h in d.hops}
    shown |= {(b, a) for a, b in shown}
    return route_links(r for r in routes if (r.node, r.peer) in shown)


def hop_phrase(hop: Hop, links: Links | None = None) -> str:
    """``topichost USA``, ``hierarchy QM2->QM1 (child to parent)`` in the direction the publication goes
    (the hop's name is always ``CHILD->PARENT``); a route hop says who defines it when it is known:
    ``route B defined on A only (active-passive)``."""
    if hop.via is Via.HIERARCHY:
        up = hop.name == f"{hop.from_node}->{hop.to_node}"
        return f"hierarchy {hop.from_node}->{hop.to_node} ({'child to parent' if up else 'parent to child'})"
    if hop.via is not Via.ROUTE or links is None:
        return f"{hop.via} {hop.name}"
    definers = sorted(links.get(frozenset((hop.from_node, hop.to_node)), {}))
    if len(definers) == 1:
        return f"route {hop.name} defined on {definers[0]} only (active-passive)"
    if len(definers) == 2:
        return f"route {hop.name} (active-active)"
    return f"route {hop.name}"


def delivery_status(delivery: Delivery) -> str:
    """``delivered to S4 on QM4`` or ``stored at QM5 for S4 on QM4``."""
    if delivery.stored_at is None:
        return f"delivered to {delivery.subscription} on {delivery.node}"
    return f"stored at {delivery.stored_at} for {delivery.subscription} on {delivery.node}"


UNSUPPORTED = "unsupported path"
"""What the tree and the pictures say of a delivery whose path IBM does not support (``Delivery.unsupported``)."""

NO_SUBSCRIBER = "reaches no subscriber"
"""What the tree and the pictures say of a hop to a topic host that no delivery goes on from."""


def unreached_host_hops(result: Explanation) -> list[Hop]:
    """The hops from the publisher to the topic hosts it sends the publication to (its chosen hosts)
    that no delivery's path starts with: they carry the publication, but nobody downstream receives it.
    The one condition the tree and the pictures share, so that they cannot disagree."""
    pub = result.publication
    first = {d.hops[0].to_node for d in result.deliveries if d.hops}
    return [
        Hop(pub.from_node, h.node, Via.TOPICHOST, result.resolved.cluster or "")
        for h in result.topic_hosts
        if h.chosen and h.node != pub.from_node and h.node not in first
    ]
