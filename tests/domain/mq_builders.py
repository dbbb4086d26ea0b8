"""Small builders for MQ topologies in routing and resolution tests (no fixtures: plain functions)."""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterable
from typing import Any

from mqctl.domain.explanation import Delivery, Explanation, Failures, NotDelivered, Publication
from mqctl.domain.model import (
    ClRoute,
    Membership,
    Node,
    Subscription,
    TopicObject,
    Topology,
)
from mqctl.domain.routing import explain

_seq = itertools.count(1)


def qm(name: str, parent: str | None = None) -> Node:
    return Node(name, parent=parent, seq=next(_seq))


def cluster(name: str, *members: str) -> list[Membership]:
    return [Membership(m, name, full_repository=i < 2, seq=next(_seq)) for i, m in enumerate(members)]


def topic(node: str, name: str, topicstr: str, cluster: str = "", **kw: Any) -> TopicObject:
    """A topic object; ``seq`` grows with every call unless given, so later = more recent."""
    kw.setdefault("seq", next(_seq))
    return TopicObject(node, name, topicstr, cluster=cluster, **kw)


def hosted(cluster_name: str, name: str, topicstr: str, *hosts: str, **kw: Any) -> list[TopicObject]:
    """The same TOPICHOST object defined alike on several hosts."""
    return [topic(h, name, topicstr, cluster_name, clroute=ClRoute.TOPICHOST, **kw) for h in hosts]


def sub(node: str, name: str, topicstr: str, **kw: Any) -> Subscription:
    kw.setdefault("seq", next(_seq))
    return Subscription(node, name, topicstr, **kw)


def topo(*parts: object | Iterable[object]) -> Topology:
    """Flatten lists so that ``cluster(...)`` and ``hosted(...)`` can be passed as they come."""
    t = Topology()
    for part in parts:
        if isinstance(part, list | tuple):
            t.add(*part)
        else:
            t.add(part)
    return t


def ask(
    t: Topology,
    from_node: str,
    topic_string: str,
    *,
    down: Iterable[str] = (),
    links: Iterable[tuple[str, str]] = (),
    offline: Iterable[tuple[str, str]] = (),
    properties: dict[str, Any] | None = None,
) -> Explanation:
    failures = Failures(
        down=frozenset(down),
        links_down=frozenset(frozenset(link) for link in links),
        offline=frozenset(offline),
    )
    return explain(t, Publication(from_node, topic_string, properties or {}), failures)


def got(e: Explanation, node: str, name: str) -> Delivery:
    """The delivery of subscription ``name`` on ``node``; fails the test if it was not delivered."""
    for d in e.deliveries:
        if (d.node, d.subscription) == (node, name):
            return d
    raise AssertionError(f"{node}/{name} not delivered: {json.dumps(e.to_json()['not_delivered'], indent=1)}")


def missed(e: Explanation, node: str, name: str) -> NotDelivered:
    for n in e.not_delivered:
        if (n.node, n.subscription) == (node, name):
            return n
    raise AssertionError(f"{node}/{name} not among not_delivered: {json.dumps(e.to_json(), indent=1)}")


def codes(e: Explanation) -> list[str]:
    return [str(w.code) for w in e.warnings]


def hops(d: Delivery) -> list[tuple[str, str, str, str]]:
    return [(h.from_node, h.to_node, str(h.via), h.name) for h in d.hops]


def with_relay_loop(t: Topology, members: list[str], outsider: str | None, child_first: bool) -> Topology:
    """Issue 38's shape added to a generated estate: the first two ``members`` (of one cluster) joined by a
    hierarchy link too, and ``outsider`` (not a member) linked to the third, when none of them has a
    parent yet and no link would close a cycle of parents. Nodes are replaced, never mutated."""
    from dataclasses import replace

    def ancestors(name: str) -> set[str]:
        seen: set[str] = set()
        node = t.nodes.get(name)
        while node is not None and node.parent and node.parent not in seen:
            seen.add(node.parent)
            node = t.nodes.get(node.parent)
        return seen

    pairs = [(members[0], members[1])] if len(members) >= 2 else []
    if outsider is not None and len(members) >= 3:
        pairs.append((members[2], outsider))
    for a, b in pairs:
        child, parent = (a, b) if child_first else (b, a)
        node = t.nodes.get(child)
        if node is None or node.parent or child in ancestors(parent) or child == parent:
            continue
        t.nodes[child] = replace(node, parent=parent)
    return t
