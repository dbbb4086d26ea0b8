"""Route each probe on both models with the same engine and say, per subscription, what changed.

Per probe and subscription the answer is: received (delivered, or stored for later) with its path and
topic host, missed with a reason, or not concerned (its pattern does not match, or it does not exist on
that side). A change is ``gained``, ``lost``, ``status`` (delivered <-> stored), ``host`` (another topic
host), ``path`` (other hops) or ``reason`` (missed on both sides, for another reason).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from mqctl.domain.diff.probes import Probe
from mqctl.domain.explanation import Explanation, Publication, Via
from mqctl.domain.messages import Message
from mqctl.domain.model import Topology
from mqctl.domain.routing import RoutingModel, explain

CHANGES = ("lost", "gained", "status", "host", "path", "reason")


@dataclass(frozen=True, slots=True)
class Outcome:
    status: str
    """``delivered``, ``stored`` or ``not_delivered``."""
    path: tuple[str, ...] = ()
    host: str | None = None
    reason: str | None = None

    @property
    def receives(self) -> bool:
        return self.status != "not_delivered"

    def to_json(self) -> dict[str, Any]:
        return {"status": self.status, "path": list(self.path), "host": self.host, "reason": self.reason}

    def text(self) -> str:
        if not self.receives:
            return f"not delivered ({self.reason})"
        via = f" via host {self.host}" if self.host else ""
        return f"{self.status} {' -> '.join(self.path)}{via}"


@dataclass(frozen=True, slots=True)
class RoutingChange:
    subscription: str
    node: str
    change: str
    probe: Probe
    before: Outcome | None
    after: Outcome | None
    probes: int = 1
    """How many probes from this publisher on this topic (other properties) gave this same change."""

    def to_json(self) -> dict[str, Any]:
        return {
            "subscription": self.subscription,
            "node": self.node,
            "change": self.change,
            "publisher": self.probe.publisher,
            "topic": self.probe.topic,
            "properties": {k: v.value for k, v in self.probe.properties},
            "before": None if self.before is None else self.before.to_json(),
            "after": None if self.after is None else self.after.to_json(),
            "probes": self.probes,
        }


def outcomes(answer: Explanation) -> dict[tuple[str, str], Outcome]:
    """(node, subscription) -> what the publication does for it."""
    out: dict[tuple[str, str], Outcome] = {}
    for d in answer.deliveries:
        host = next((h.to_node for h in d.hops if h.via is Via.TOPICHOST), None)
        out[(d.node, d.subscription)] = Outcome(str(d.status), tuple(d.path), host)
    for n in answer.not_delivered:
        out.setdefault((n.node, n.subscription), Outcome("not_delivered", reason=str(n.reason)))
    return out


def classify(before: Outcome | None, after: Outcome | None) -> str | None:
    """The change from one answer to the other, or None when the subscription's answer is the same."""
    if before == after:
        return None
    got_before = before is not None and before.receives
    got_after = after is not None and after.receives
    if got_before and not got_after:
        return "lost"
    if got_after and not got_before:
        return "gained"
    if not got_before:
        return "reason"
    assert before is not None and after is not None
    if before.status != after.status:
        return "status"
    if before.host != after.host:
        return "host"
    return "path" if before.path != after.path else None


def answer(model: RoutingModel, probe: Probe) -> dict[tuple[str, str], Outcome]:
    """The probe's answer on one side: nothing when the publisher does not exist there."""
    if probe.publisher not in model.topology.nodes:
        return {}
    properties = dict(probe.properties)
    headers = dict(Message.create(properties, {}).headers)
    return outcomes(
        explain(model, Publication(probe.publisher, probe.topic, properties, headers), detail=False)
    )


def route_diff(
    before: Topology,
    after: Topology,
    probes: Iterable[Probe],
    *,
    progress: Callable[[int], None] | None = None,
) -> list[RoutingChange]:
    """Every (probe, subscription) whose answer differs between the two models.

    Both models are prepared on the slice of the estate the probes' publishers are joined to, on
    either side (``reachable``): on an estate of many clusters a change concerns one or two, and
    preparing the engine for the whole is most of the cost."""
    probes = list(probes)
    nodes = reachable((before, after), {p.publisher for p in probes})
    old, new = RoutingModel(sliced(before, nodes)), RoutingModel(sliced(after, nodes))
    found: dict[tuple[Any, ...], RoutingChange] = {}
    for i, probe in enumerate(probes):
        a, b = answer(old, probe), answer(new, probe)
        if a == b:  # the usual probe: nothing changed for anyone (compared in C, no key sorted)
            if progress is not None:
                progress(i + 1)
            continue
        differ = [k for k, v in a.items() if b.get(k) != v] + [k for k in b.keys() - a.keys()]
        for key in sorted(differ):
            was, now = a.get(key), b.get(key)
            kind = classify(was, now)
            if kind is None:
                continue
            # probes that differ only in their properties and change the answer alike: one entry
            same = (key, kind, probe.publisher, probe.topic, was, now)
            first = found.get(same)
            if first is None:
                found[same] = RoutingChange(key[1], key[0], kind, probe, was, now)
            else:
                found[same] = dataclasses.replace(first, probes=first.probes + 1)
        if progress is not None:
            progress(i + 1)
    return list(found.values())


def reachable(sides: Iterable[Topology], start: Iterable[str]) -> set[str]:
    """The nodes a publication made at ``start`` can travel to on any of ``sides``, and more: those
    joined by a cluster membership (MQ, §4), a hierarchy relation (§4.3) or a route (EMS), whatever
    their attributes say. Nothing else carries a publication (semantics §4, §7)."""
    links: dict[str, set[str]] = {}
    clusters: dict[str, set[str]] = {}

    def join(a: str, b: str) -> None:
        links.setdefault(a, set()).add(b)
        links.setdefault(b, set()).add(a)

    for topology in sides:
        for m in topology.memberships:
            clusters.setdefault(m.cluster, set()).add(m.node)
            join(m.node, "\0cluster " + m.cluster)  # a cluster is a node of this graph
        for node in topology.nodes.values():
            if node.parent:
                join(node.name, node.parent)
        for route in topology.routes:
            join(route.node, route.peer)
    found: set[str] = set()
    todo = list(start)
    while todo:
        name = todo.pop()
        if name not in found:
            found.add(name)
            todo += links.get(name, ())
    return {n for n in found if not n.startswith("\0")}


def sliced(topology: Topology, nodes: set[str]) -> Topology:
    """The part of ``topology`` defined on ``nodes`` (the whole, as it is, when that is every node)."""
    if all(n in nodes for n in topology.nodes):
        return topology
    return Topology(
        nodes={n: node for n, node in topology.nodes.items() if n in nodes},
        memberships=[m for m in topology.memberships if m.node in nodes],
        topics=[o for o in topology.topics if o.node in nodes],
        subscriptions=[s for s in topology.subscriptions if s.node in nodes],
        routes=[r for r in topology.routes if r.node in nodes],
        route_selectors=[r for r in topology.route_selectors if r.node in nodes],
        channels=[c for c in topology.channels if c.node in nodes],
        namelists=[n for n in topology.namelists if n.node in nodes],
    )


def by_subscription(changes: Iterable[RoutingChange]) -> dict[tuple[str, str], list[RoutingChange]]:
    """(node, subscription) -> its changes, in probe order."""
    out: dict[tuple[str, str], list[RoutingChange]] = {}
    for c in changes:
        out.setdefault((c.node, c.subscription), []).append(c)
    return dict(sorted(out.items()))
