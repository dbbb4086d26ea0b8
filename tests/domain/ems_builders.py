"""Small builders for EMS topologies in tests, and the shapes of the reference examples.

The shapes mirror ``shared/corpus/ems`` (chain, orders-central, regions) but are written out here so the
routing tests do not depend on the importers.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from typing import Any

from mqctl.domain.explanation import Explanation, Failures, Publication
from mqctl.domain.messages import JmsValue
from mqctl.domain.model import (
    Dialect,
    Direction,
    Node,
    Route,
    RouteSelector,
    Subscription,
    TopicObject,
    Topology,
    ZoneType,
)
from mqctl.domain.routing import explain as explain_any

_seq = itertools.count(1)


def server(name: str) -> Node:
    return Node(name=name, dialect=Dialect.EMS, seq=next(_seq))


def topic(node: str, pattern: str, *flags: str, **valued: str) -> TopicObject:
    """``topic("A", "T1", "global", maxbytes="1MB")`` is the topics.conf line ``T1 global,maxbytes=1MB``."""
    props: dict[str, str | None] = {flag: None for flag in flags}
    props.update(valued)
    return TopicObject(node=node, name=pattern, topicstr=pattern, properties=props, seq=next(_seq))


def route(node: str, peer: str, zone: str = "default_mhop_zone", zone_type: str = "mhop") -> Route:
    return Route(node=node, peer=peer, zone_name=zone, zone_type=ZoneType(zone_type), seq=next(_seq))


def both(a: str, b: str, zone: str = "default_mhop_zone", zone_type: str = "mhop") -> list[Route]:
    """An active-active pair: the route defined on both servers."""
    return [route(a, b, zone, zone_type), route(b, a, zone, zone_type)]


def outgoing(node: str, peer: str, pattern: str, selector: str) -> RouteSelector:
    return RouteSelector(node, peer, Direction.OUTGOING, pattern, selector, seq=next(_seq))


def incoming(node: str, peer: str, pattern: str, selector: str) -> RouteSelector:
    return RouteSelector(node, peer, Direction.INCOMING, pattern, selector, seq=next(_seq))


def sub(
    node: str, name: str, pattern: str, *, durable: bool = False, selector: str | None = None
) -> Subscription:
    return Subscription(
        node=node, name=name, topicstr=pattern, durable=durable, selector=selector, seq=next(_seq)
    )


def build(*parts: object | Iterable[object]) -> Topology:
    """A topology from objects and lists of objects."""
    topology = Topology()
    for part in parts:
        if isinstance(part, list | tuple):
            topology.extend(part)
        else:
            topology.add(part)
    return topology


def props(**values: Any) -> dict[str, JmsValue]:
    """Typed message properties: str -> string, bool -> boolean, int -> int, float -> double."""
    out: dict[str, JmsValue] = {}
    for name, value in values.items():
        if isinstance(value, bool):
            out[name] = JmsValue("boolean", value)
        elif isinstance(value, int):
            out[name] = JmsValue("int", value)
        elif isinstance(value, float):
            out[name] = JmsValue("double", value)
        else:
            out[name] = JmsValue("string", value)
    return out


def explain(
    topology: Topology,
    publisher: str,
    topic_name: str,
    *,
    down: Iterable[str] = (),
    links_down: Iterable[tuple[str, str]] = (),
    offline: Iterable[tuple[str, str]] = (),
    **properties: Any,
) -> Explanation:
    """Ask ``routing.explain`` with typed properties (see ``props``)."""
    failures = Failures(
        down=frozenset(down),
        links_down=frozenset(frozenset(pair) for pair in links_down),
        offline=frozenset(offline),
    )
    publication = Publication(from_node=publisher, topic=topic_name, properties=props(**properties))
    return explain_any(topology, publication, failures)


def chain(mb: str = "B", t1_global_on: str = "AMB") -> Topology:
    """Reference 003 Figure 37: A–M–B, T1 global, durable subscribers on B (corpus ``chain``).

    A–M is active-active. ``mb`` says where the M–B route is defined: ``"B"`` (the corpus: active-passive
    on B), ``"M"`` (active-passive on M) or ``"MB"`` (active-active).
    """
    parts: list[object] = [server("A"), server("M"), server("B"), *both("A", "M")]
    parts += [route(definer, "M" if definer == "B" else "B") for definer in mb]
    for name in "AMB":
        parts.append(topic(name, "T1", *(["global"] if name in t1_global_on else [])))
        parts.append(topic(name, "T2"))
        parts.append(topic(name, "$TMP$.>", maxbytes="1MB"))
    parts += [sub("B", "reports", "T1", durable=True), sub("B", "audit", "T1", durable=True)]
    return build(parts)


def orders() -> Topology:
    """Reference 002 Figure 38 (corpus ``orders-central``): ORD routes ``orders`` to the regions.

    Every route is active-active; ORD holds the outgoing selectors, USA adds an incoming one.
    """
    regions = ("CANADA", "MEXICO", "USA")
    parts: list[object] = [server("ORD"), *(server(r) for r in regions)]
    for name in ("ORD", *regions):
        parts += [
            topic(name, ">"),
            topic(name, "orders", "global", maxbytes="64MB", maxmsgs="100000"),
            topic(name, "orders.audit", "global", "secure"),
        ]
    for region, country in zip(regions, ("Canada", "Mexico", "USA"), strict=True):
        parts += both("ORD", region)
        parts.append(outgoing("ORD", region, "orders", f"country='{country}'"))
        parts.append(sub(region, f"BILLING-{region[:2]}", "orders", durable=True))
    parts.append(outgoing("ORD", "USA", "orders.audit", "amount >= 10000"))
    parts.append(incoming("USA", "ORD", "orders", "amount > 0 AND currency IN ('USD', 'CAD')"))
    return build(parts)


def regions(*, tk2_tk3: bool = True, ny3: bool = False) -> Topology:
    """The EMS docs' Tokyo/New York/Paris example (corpus ``regions``).

    One-hop zones TOKYO (TK1, TK2, TK3 meshed) and NEWYORK (NY1–NY2); the hubs TK1, NY1 and PA1 are
    joined by the multi-hop zone WO. ``tk2_tk3=False`` drops the TK2–TK3 route; ``ny3`` adds NY3 behind
    NY2 in NEWYORK.
    """
    names = ["TK1", "TK2", "TK3", "NY1", "NY2", "PA1"] + (["NY3"] if ny3 else [])
    parts: list[object] = [server(n) for n in names]
    for name in names:
        parts += [
            topic(name, ">"),
            topic(name, "market.>", "global", maxbytes="1GB"),
            topic(name, "market.fx.*", "global"),
        ]
    parts += both("TK1", "TK2", "TOKYO", "1hop") + both("TK1", "TK3", "TOKYO", "1hop")
    if tk2_tk3:
        parts += both("TK2", "TK3", "TOKYO", "1hop")
    parts += both("NY1", "NY2", "NEWYORK", "1hop")
    if ny3:
        parts += both("NY2", "NY3", "NEWYORK", "1hop")
    parts += both("TK1", "NY1", "WO", "mhop") + both("NY1", "PA1", "WO", "mhop")
    parts += [sub(n, f"ticker-{n}", "market.fx.*") for n in names]
    return build(parts)
