"""What the rules share about one topology, each index built once on first use (a few passes in all).

The MQ side is the resolution module's own view (``ClusterIndex``, ``TopicTrees``), so a rule and
``explain`` see the same topic trees; the EMS side groups routes into links between two servers, the way
semantics §6 counts them (a route defined on both servers is one active-active link).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any, TypeVar, cast

from mqctl.domain.ems_topics import EmsTopicIndex
from mqctl.domain.model import Dialect, Membership, Node, Route, Subscription, TopicObject, Topology, WSchema
from mqctl.domain.resolution import ClusterIndex, TopicTrees
from mqctl.domain.subindex import SubscriptionIndex
from mqctl.domain.topics import widen_char_pattern

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Link:
    """Two EMS servers joined by one route (active-passive) or by a route on each (active-active)."""

    servers: tuple[str, str]
    """In name order."""
    definitions: dict[str, Route]
    """Defining server -> its route towards the other one."""

    @property
    def active_active(self) -> bool:
        return len(self.definitions) == 2

    def routes(self) -> list[Route]:
        return [self.definitions[s] for s in sorted(self.definitions)]

    def zones(self) -> frozenset[str]:
        return frozenset(r.zone_name for r in self.definitions.values())

    def other(self, server: str) -> str:
        return self.servers[1] if server == self.servers[0] else self.servers[0]


def components(neighbours: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """Groups of names joined by edges (each group sorted, groups by their first name)."""
    seen: set[str] = set()
    out: list[list[str]] = []
    for start in sorted(neighbours):
        if start in seen:
            continue
        group, todo = [start], [start]
        seen.add(start)
        while todo:
            for nxt in neighbours.get(todo.pop(), ()):
                if nxt not in seen:
                    seen.add(nxt)
                    group.append(nxt)
                    todo.append(nxt)
        out.append(sorted(group))
    return out


class Facts:
    """The indexes of one topology that several rules need; nothing is computed until asked for."""

    def __init__(self, topology: Topology) -> None:
        self.topology = topology
        self._memo: dict[Hashable, Any] = {}

    def memo(self, key: Hashable, build: Callable[[], T]) -> T:
        """What a rule module derives once and shares between its rules (keyed by the module)."""
        if key not in self._memo:
            self._memo[key] = build()
        return cast(T, self._memo[key])

    # -- nodes

    def is_mq(self, name: str) -> bool:
        """As the engine counts it: a name known only from a membership or an object is a queue manager."""
        node = self.topology.nodes.get(name)
        return node is None or node.dialect is Dialect.MQ

    @cached_property
    def mq_nodes(self) -> dict[str, Node]:
        return {n: node for n, node in self.topology.nodes.items() if node.dialect is Dialect.MQ}

    @cached_property
    def ems_servers(self) -> dict[str, Node]:
        return {n: node for n, node in self.topology.nodes.items() if node.dialect is Dialect.EMS}

    # -- MQ clusters and topic trees

    @cached_property
    def clusters(self) -> ClusterIndex:
        return ClusterIndex(self.topology)

    @cached_property
    def trees(self) -> TopicTrees:
        return TopicTrees(self.clusters)

    @cached_property
    def memberships(self) -> dict[str, list[Membership]]:
        """Cluster -> its memberships, by queue manager name."""
        out: dict[str, list[Membership]] = defaultdict(list)
        for m in sorted(self.topology.memberships, key=lambda m: (m.cluster, m.node)):
            out[m.cluster].append(m)
        return dict(out)

    def full_repositories(self, cluster: str) -> list[str]:
        return [m.node for m in self.memberships.get(cluster, ()) if m.full_repository]

    @cached_property
    def mq_topics(self) -> list[TopicObject]:
        """Topic objects of queue managers, in model order."""
        return [t for t in self.topology.topics if self.is_mq(t.node)]

    @cached_property
    def overlap_groups(self) -> dict[frozenset[str], list[str]]:
        """Sets of two or more clusters -> the queue managers that are members of exactly those clusters.

        Queue managers with the same clusters see the same clustered objects, so what depends only on
        those objects is worked out once per set, not once per queue manager.
        """
        out: dict[frozenset[str], list[str]] = defaultdict(list)
        by_node: dict[str, set[str]] = defaultdict(set)
        for m in self.topology.memberships:
            by_node[m.node].add(m.cluster)
        for node in sorted(by_node):
            if len(by_node[node]) > 1 and self.is_mq(node):
                out[frozenset(by_node[node])].append(node)
        return dict(out)

    def clustered_in(self, clusters: frozenset[str]) -> list[TopicObject]:
        """The clustered definitions every member of these clusters is told about (semantics §3)."""
        return [o for c in sorted(clusters) for o in self.clusters.clustered(c)]

    @cached_property
    def subscriptions_by_node(self) -> dict[str, list[Subscription]]:
        out: dict[str, list[Subscription]] = defaultdict(list)
        for sub in self.topology.subscriptions:
            out[sub.node].append(sub)
        return dict(out)

    @cached_property
    def mq_subscription_index(self) -> SubscriptionIndex[int]:
        """MQ subscriptions by the pattern their proxies carry (WSCHEMA(CHAR) ones widened, semantics §2).

        Built only when a probe needs every subscription a topic could reach.
        """
        index: SubscriptionIndex[int] = SubscriptionIndex(Dialect.MQ)
        index.add_many(
            (widen_char_pattern(sub.topicstr) if sub.wschema is WSchema.CHAR else sub.topicstr, i)
            for i, sub in enumerate(self.topology.subscriptions)
            if sub.topicstr and self.is_mq(sub.node)
        )
        return index

    def mq_subscriptions_for(self, topic: str) -> list[Subscription]:
        """Every MQ subscription whose proxy could match ``topic`` (a superset of those that match)."""
        subs = self.topology.subscriptions
        return [subs[i] for i in sorted(self.mq_subscription_index.match(topic))]

    @cached_property
    def hierarchy_neighbours(self) -> dict[str, list[str]]:
        """Queue manager -> its parent and children that are queue managers of the model."""
        out: dict[str, set[str]] = defaultdict(set)
        for node in self.mq_nodes.values():
            if node.parent and node.parent in self.mq_nodes and node.parent != node.name:
                out[node.name].add(node.parent)
                out[node.parent].add(node.name)
        return {name: sorted(found) for name, found in out.items()}

    def hierarchy_group(self, qmgr: str) -> list[str]:
        """The queue managers joined to this one by hierarchy links, itself included."""
        groups = self.memo("hierarchy_groups", lambda: components(self.hierarchy_neighbours))
        by_member = self.memo("hierarchy_group_of", lambda: {n: g for g in groups for n in g})
        return by_member.get(qmgr, [qmgr])

    # -- EMS

    @cached_property
    def ems_definitions(self) -> list[TopicObject]:
        return [t for t in self.topology.topics if t.node in self.ems_servers]

    @cached_property
    def ems_topics(self) -> EmsTopicIndex:
        return EmsTopicIndex(self.ems_definitions)

    @cached_property
    def global_definitions(self) -> dict[str, list[TopicObject]]:
        """Server -> its definitions carrying ``global``."""
        out: dict[str, list[TopicObject]] = defaultdict(list)
        for definition in self.ems_definitions:
            if definition.is_global:
                out[definition.node].append(definition)
        return dict(out)

    @cached_property
    def ems_routes(self) -> list[Route]:
        """Routes between two servers that are not MQ queue managers (the engine's network)."""
        return [
            r
            for r in self.topology.routes
            if r.node != r.peer and r.node not in self.mq_nodes and r.peer not in self.mq_nodes
        ]

    @cached_property
    def links(self) -> dict[tuple[str, str], Link]:
        """(server, server) in name order -> the link; the same route twice counts as its latest."""
        held: dict[tuple[str, str], dict[str, Route]] = defaultdict(dict)
        for route in self.ems_routes:
            a, b = sorted((route.node, route.peer))
            defs = held[(a, b)]
            if route.node not in defs or defs[route.node].seq < route.seq:
                defs[route.node] = route
        return {pair: Link(pair, defs) for pair, defs in sorted(held.items())}

    @cached_property
    def route_neighbours(self) -> dict[str, list[str]]:
        """Server -> the servers it shares a link with."""
        out: dict[str, list[str]] = defaultdict(list)
        for a, b in self.links:
            out[a].append(b)
            out[b].append(a)
        return {server: sorted(found) for server, found in out.items()}

    @cached_property
    def configured_servers(self) -> frozenset[str]:
        """EMS servers the model holds some configuration of: a topic, a route or a subscription."""
        own: set[str] = {t.node for t in self.ems_definitions}
        own.update(r.node for r in self.ems_routes)
        own.update(n for n in self.subscriptions_by_node if n in self.ems_servers)
        return frozenset(own)

    @cached_property
    def ems_subscriptions(self) -> list[Subscription]:
        """Subscribers on EMS servers; route durables (a peer's stored interest) are not subscribers."""
        return [
            s
            for n in sorted(self.ems_servers)
            for s in self.subscriptions_by_node.get(n, ())
            if not s.is_route_durable
        ]
