"""Publishers the change cannot tell apart: one of them routed, the others' answers derived from it.

A change to one topic object concerns the members of its cluster: hundreds of publishers whose answers
differ only in their own name. The MQ engine (semantics §4, §5, §9; ``mqctl.domain.routing.mq``) reads
about the publisher P of a topic T, besides the subscriptions of other queue managers:

- T's resolution at P (the objects of its chain, cluster, CLROUTE, topic hosts, PUBSCOPE/SUBSCOPE,
  PUB/SUB, WILDCARD, PROXYSUB): whether and how P publishes into a cluster;
- P's cluster memberships: which proxy subscriptions P holds, so whom P sends the publication to;
- P's own subscriptions that could match T, when a member of one of P's clusters has hierarchy
  neighbours: such a relay pushes P's proxy back into the cluster to every member but its origin P
  (§4.3, ``routing.mq_proxies._propagate``), so P holds fewer proxies than a quiet publisher and
  misses what rides on them (such a P is a class of its own);
- P's hierarchy links and whether P hosts an object on T's chain: then P relays publications or
  holds proxies others do not (such a P is a class of its own);
- the topic host P chooses: with P not a host, the hosts' channels decide (``workload``), not P;
- P's own matching subscriptions, delivered locally.

So two MQ publishers with the same ``signature`` on both sides, neither linked nor hosting, get the same
answer for every subscription of a third queue manager, up to the first node of the path
(``RoutingChange.for_each_publisher``; ``routing.route_diff`` also checks that no changed answer of the
representative passes through a member).
The representative R of a class holds no subscription that could match T (``quiet``), so R's answer
names none of its own; a member P's own subscriptions are answered by routing P on a model of the same
slice holding P's subscriptions only (``local``): a local subscription gets the publication at P itself,
whatever the others subscribe to. Failures are not part of a diff, so none is read here. EMS servers are
left to the engine one by one (routes and route selectors read the message on the way).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from mqctl.domain.model import Dialect, Subscription, Topology, WSchema
from mqctl.domain.resolution import TopicTrees, chain_topicstrs
from mqctl.domain.subindex import SubscriptionIndex
from mqctl.domain.topics import TopicSyntaxError, levels, widen_char_pattern

MQ = Dialect.MQ


@dataclass(frozen=True, slots=True)
class PublisherClass:
    """Publishers of one topic with one set of probes whose answers derive from ``representative``'s."""

    representative: str
    members: tuple[str, ...]
    """The others, derived from the representative's answer and their own subscriptions (``local``)."""


class _Side:
    """What one side says about each publisher, indexed once."""

    def __init__(self, topology: Topology) -> None:
        self.topology = topology
        self._trees: TopicTrees | None = None
        self.linked = {n.name for n in topology.nodes.values() if n.parent} | {
            n.parent for n in topology.nodes.values() if n.parent
        }
        # the clusters of each node; whether it is a full repository is not read by routing (semantics §9:
        # the engine routes as if every cluster had one; only a warning of ``explain`` says otherwise)
        self.memberships: dict[str, set[str]] = {}
        for m in topology.memberships:
            self.memberships.setdefault(m.node, set()).add(m.cluster)
        self.relayed = {c for n in self.linked for c in self.memberships.get(n, ())}
        """Clusters with a member that has hierarchy neighbours: it relays proxies back into them."""
        self.defines: dict[str, set[str]] = {}
        for obj in topology.topics:
            self.defines.setdefault(obj.node, set()).add(obj.topicstr)
        # every pattern a subscription of a node could match T by: its own and, for WSCHEMA(CHAR), the
        # wider one its proxy subscriptions use (the engine's candidates are among these)
        self._subs: SubscriptionIndex[str] = SubscriptionIndex(MQ)
        self.unindexed: set[str] = set()
        """Nodes with a pattern the index cannot read: never quiet."""
        self.subscriptions: dict[str, list[Subscription]] = {}
        for s in topology.subscriptions:
            self.subscriptions.setdefault(s.node, []).append(s)
            patterns = [s.topicstr]
            if s.wschema == WSchema.CHAR:
                patterns.append(widen_char_pattern(s.topicstr))
            for pattern in patterns:
                try:
                    self._subs.add(pattern, s.node)
                except (TopicSyntaxError, ValueError):  # a pattern it cannot read: that node is never quiet
                    self.unindexed.add(s.node)
        self._subscribed: dict[str, set[str]] = {}

    def subscribed(self, topic: str) -> set[str]:
        """Nodes holding a subscription that could match ``topic``."""
        found = self._subscribed.get(topic)
        if found is None:
            try:
                found = set(self._subs.match(topic)) | self.unindexed
            except (TopicSyntaxError, ValueError):  # a topic it cannot read: nobody is quiet
                found = set(self.topology.nodes) | self.unindexed
            self._subscribed[topic] = found
        return found

    @property
    def trees(self) -> TopicTrees:
        if self._trees is None:
            self._trees = TopicTrees(self.topology)
        return self._trees

    def signature(self, name: str, topic: str, chain: set[str]) -> Hashable | None:
        """What the engine reads about ``name`` publishing ``topic`` on this side; None: a class of its own."""
        node = self.topology.nodes.get(name)
        if node is None:
            return ("absent",)
        if node.dialect is not MQ or name in self.linked or self.defines.get(name, set()) & chain:
            return None
        if self.memberships.get(name, set()) & self.relayed and name in self.subscribed(topic):
            return None  # not sent back its own relayed proxies: it holds fewer than a quiet publisher
        res = self.trees.resolve(name, topic)
        return (
            node.psmode,
            node.psclus,
            frozenset(self.memberships.get(name, ())),
            tuple((o.node, o.name, o.topicstr) for o in res.chain),
            res.cluster,
            res.clroute,
            res.hosts,
            res.pubscope,
            res.subscope,
            res.pub,
            res.sub,
            res.wildcard,
            res.proxysub,
        )


class Publishers:
    """Classes of publishers per topic over the two sides of a diff (see the module docstring)."""

    def __init__(self, before: Topology, after: Topology) -> None:
        self.sides = (_Side(before), _Side(after))
        self._local: dict[tuple[int, str], Topology] = {}

    def quiet(self, name: str, topic: str) -> bool:
        """No subscription of ``name`` could match ``topic``, on either side."""
        return all(name not in side.subscribed(topic) for side in self.sides)

    def partition(self, topic: str, names: Sequence[str]) -> list[PublisherClass]:
        """``names`` (publishing ``topic`` with the same probes) by class; a publisher that no quiet one
        can stand for is a class of its own."""
        try:
            chain = set(chain_topicstrs(levels(topic, MQ)))
        except (TopicSyntaxError, ValueError):
            return [PublisherClass(n, ()) for n in names]
        by: dict[Hashable, list[str]] = {}
        alone: list[str] = []
        for name in names:
            signature = tuple(side.signature(name, topic, chain) for side in self.sides)
            if None in signature:
                alone.append(name)
            else:
                by.setdefault(signature, []).append(name)
        out = [PublisherClass(n, ()) for n in alone]
        for members in by.values():
            quiet = [n for n in members if self.quiet(n, topic)]
            if not quiet or len(members) == 1:
                out += [PublisherClass(n, ()) for n in members]
                continue
            representative = min(quiet)
            out.append(PublisherClass(representative, tuple(n for n in members if n != representative)))
        return out

    def local(self, side: int, name: str) -> Topology:
        """The side's topology with ``name``'s subscriptions only: how it answers its own subscriptions."""
        found = self._local.get((side, name))
        if found is None:
            t = self.sides[side].topology
            found = self._local[(side, name)] = Topology(
                nodes=t.nodes,
                memberships=t.memberships,
                topics=t.topics,
                subscriptions=self.sides[side].subscriptions.get(name, []),
                routes=t.routes,
                route_selectors=t.route_selectors,
                channels=t.channels,
                namelists=t.namelists,
            )
        return found
