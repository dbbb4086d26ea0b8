"""IBM MQ publication flow (semantics §5): the publication run from its publisher along the proxies held
at each queue manager (``Holders``), best paths first, every queue manager forwarding it once. Part of
the MQ engine (``mqctl.domain.routing.mq``), whose ``_Engine`` is the ``Question`` a ``Flower`` asks."""

from __future__ import annotations

import heapq
from dataclasses import dataclass, field
from typing import NamedTuple, Protocol

from mqctl.domain.explanation import Failures, Hop, Publication, Via, own_kind
from mqctl.domain.model import ClRoute, Scope
from mqctl.domain.resolution import Resolution
from mqctl.domain.routing.mq_proxies import Holders, Kind, ProxyIndex
from mqctl.domain.routing.workload import HostChoice

__all__ = ["Flow", "FlowArrival", "Flower", "Question", "describe_path"]


class Question(Protocol):
    """What a flow reads of the question it runs for (``mq._Engine``)."""

    @property
    def prepared(self) -> ProxyIndex: ...

    @property
    def pub(self) -> Publication: ...

    @property
    def failures(self) -> Failures: ...

    @property
    def hops_can_fail(self) -> bool: ...

    def res_t(self, node: str) -> Resolution: ...

    def host_choice(self, node: str, res: Resolution) -> HostChoice | None: ...


@own_kind
class FlowArrival(NamedTuple):
    """One way the publication reaches ``node``; ``stored_at`` is where it waits if a hop fails.

    (A named tuple: a flow makes one per queue manager it reaches, so it has to be cheap.)"""

    node: str
    path: tuple[str, ...]
    hops: tuple[Hop, ...]
    kind: Kind
    stored_at: str | None = None

    @property
    def key(self) -> tuple[bool, int, tuple[str, ...]]:
        """Delivered before stored, then fewest hops, then names."""
        return (self.stored_at is not None, len(self.hops), self.path)


@dataclass(slots=True)
class Flow:
    """Every arrival of the publication, best first per queue manager, plus what the hosts did."""

    arrivals: dict[str, list[FlowArrival]] = field(default_factory=dict)
    host_forwards: dict[str, int] = field(default_factory=dict)
    """Topic hosts handed the publication by a non-host, with how many copies they sent on."""

    def reached(self, node: str) -> bool:
        return node in self.arrivals

    def best(self, node: str) -> FlowArrival | None:
        found = self.arrivals.get(node)
        return found[0] if found else None


class Flower:
    """Runs the publication through the proxies held at each queue manager."""

    def __init__(self, engine: Question, holders: Holders, scopes: bool, forced_host: str | None) -> None:
        self.e = engine
        self.holders = holders
        self.scopes = scopes
        self.forced_host = forced_host

    def run(self) -> Flow:
        flow = Flow()
        start = FlowArrival(self.e.pub.from_node, (self.e.pub.from_node,), (), Kind.ORIGIN)
        heap: list[tuple[tuple[bool, int, tuple[str, ...]], int, FlowArrival]] = [(start.key, 0, start)]
        counter = 1
        relays = self.e.prepared._neighbours
        while heap:
            _, _, arr = heapq.heappop(heap)
            seen = flow.arrivals.setdefault(arr.node, [])
            seen.append(arr)
            if len(seen) > 1 or (arr.kind is Kind.CLUSTER and arr.node not in relays):
                continue  # a copy already forwarded; a plain cluster receiver relays nothing (``_forwards``)
            nxt = self._forwards(arr)
            if arr.kind is Kind.AT_HOST:
                flow.host_forwards[arr.node] = len(nxt)
            for item in nxt:
                heapq.heappush(heap, (item.key, counter, item))
                counter += 1
        return flow

    def _forwards(self, arr: FlowArrival) -> list[FlowArrival]:
        """Where the queue manager ``arr.node`` sends the copy it got, by its own tree and scopes."""
        if arr.kind is Kind.CLUSTER and not self.e.prepared.neighbours(arr.node):
            return []  # a plain cluster receiver: nothing to relay (hierarchy proxies are held only at
            # queue managers with hierarchy neighbours), and no tree to build or holders to gather
        relays = arr.node in self.e.prepared._neighbours  # only they hold hierarchy proxies
        held = sorted(h for h in self.holders.get(arr.node) if h.hierarchy) if relays else []
        if arr.kind is Kind.CLUSTER and not held:
            return []  # a plain cluster receiver: nothing to relay (and no tree to build)
        res = self.e.res_t(arr.node)
        if self.scopes and res.pubscope == Scope.QMGR:
            return []
        out: list[FlowArrival] = []
        if arr.kind in (Kind.ORIGIN, Kind.HIERARCHY):
            out += self._into_cluster(arr, res)
        elif arr.kind is Kind.AT_HOST and arr.hops:
            out += self._to_proxies(arr, arr.hops[-1].name)
        for h in held:
            if h.sender not in arr.path:
                name = self.e.prepared.hierarchy_name(arr.node, h.sender)
                out.append(self._extend(arr, h.sender, Via.HIERARCHY, name, Kind.HIERARCHY))
        return out

    def _into_cluster(self, arr: FlowArrival, res: Resolution) -> list[FlowArrival]:
        """§5.3 and §9 "publishing into a cluster": T must resolve to a clustered object here."""
        node = arr.node
        if not res.clustered or not self.e.prepared.index.is_member(node, res.cluster):
            return []
        if res.clroute == ClRoute.DIRECT or node in res.hosts:
            return self._to_proxies(arr, res.cluster)
        host = self._host_for(node, res)
        if host is None or host in arr.path:
            return []
        return [self._extend(arr, host, Via.TOPICHOST, res.cluster, Kind.AT_HOST)]

    def _host_for(self, node: str, res: Resolution) -> str | None:
        """The host workload management chooses for ``node`` (or the forced alternative at the publisher)."""
        if node == self.e.pub.from_node and self.forced_host is not None:
            return self.forced_host
        choice = self.e.host_choice(node, res)
        return choice.chosen if choice is not None else None

    def _to_proxies(self, arr: FlowArrival, cluster: str) -> list[FlowArrival]:
        """One copy to each member that registered a matching proxy here in ``cluster``."""
        held = self.holders.senders(arr.node, cluster)
        if self.e.hops_can_fail or arr.stored_at is not None:
            return [
                self._extend(arr, sender, Via.CLUSTER, cluster, Kind.CLUSTER)
                for sender in held
                if sender not in arr.path
            ]
        # ``_extend`` without a failing hop, made inline: one arrival per subscriber's queue manager
        node, path, hops, kind, via = arr.node, arr.path, arr.hops, Kind.CLUSTER, Via.CLUSTER
        return [
            FlowArrival(sender, (*path, sender), (*hops, Hop(node, sender, via, cluster)), kind)
            for sender in held
            if sender not in path
        ]

    def _extend(self, arr: FlowArrival, to: str, via: Via, name: str, kind: Kind) -> FlowArrival:
        stored_at = arr.stored_at
        if stored_at is None and self.e.hops_can_fail and self.e.failures.hop_fails(arr.node, to):
            stored_at = arr.node
        return FlowArrival(to, (*arr.path, to), (*arr.hops, Hop(arr.node, to, via, name)), kind, stored_at)


def describe_path(arrival: FlowArrival) -> str:
    """``QM1 -> QM2 (cluster CL1)``: nodes with the kind of each hop."""
    parts = [arrival.path[0]]
    for hop in arrival.hops:
        parts.append(f"-> {hop.to_node} ({hop.via} {hop.name})")
    return " ".join(parts)
