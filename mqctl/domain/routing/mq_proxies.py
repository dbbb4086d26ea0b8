"""IBM MQ proxy subscriptions (semantics §4): where each subscription's (and each ``PROXYSUB(FORCE)``
object's) proxy is held, for one topic.

``ProxyIndex`` is the part of ``MqPrepared`` (``mqctl.domain.routing.mq``) that indexes a topology for
this: hierarchy neighbours, cluster members, the subscriptions by proxy pattern, FORCE objects, and, per
topic and in a bounded cache, ``TopicFacts`` (the matching subscriptions and their ``Holders``). A proxy
that goes no further than into one cluster is one ``Grant`` made at once; any other is propagated
(``_propagate``) and kept.
"""

from __future__ import annotations

from collections import defaultdict, deque
from collections.abc import Iterable
from enum import Enum
from functools import cached_property
from operator import attrgetter
from typing import NamedTuple

from mqctl.domain.model import ClRoute, Dialect, ProxySub, Scope, SubScope, TopicObject, Topology, WSchema
from mqctl.domain.resolution import ClusterIndex, ClusterPoint, TopicTree, TopicTrees, chain_topicstrs
from mqctl.domain.routing.cache import BoundedCache
from mqctl.domain.routing.mq_subs import Sub, Subs
from mqctl.domain.subindex import SubscriptionIndex
from mqctl.domain.topics import levels

__all__ = [
    "FURTHER",
    "Grant",
    "Held",
    "Holders",
    "Into",
    "Kind",
    "ProxyIndex",
    "Source",
    "Spread",
    "TopicFacts",
]

MQ = Dialect.MQ


def _point_value(point: ClusterPoint) -> tuple[str, ClRoute, tuple[str, ...], Scope]:
    """A cluster point's value as a tuple (a dict key hashed in C)."""
    return (point.cluster, point.clroute, point.hosts, point.subscope)


class Source(NamedTuple):
    """Something that makes a queue manager send proxy subscriptions: a subscription or a FORCE object.

    (A named tuple: made once per matching subscription and question, so it has to be cheap. It, ``Held``
    and ``Grant`` are keys of this module's own dicts and sets, never compared with another kind, so
    they keep the tuple's C equality rather than ``own_kind``'s, which a dict hit would pay for.)"""

    origin: str
    prefix: tuple[str, ...]
    own_qmgr: bool = False
    """The subscription's own SUBSCOPE is QMGR."""


class Held(NamedTuple):
    """A proxy subscription held at a queue manager: who sent it, over a cluster or the hierarchy."""

    sender: str
    hierarchy: bool
    cluster: str


class Grant(NamedTuple):
    """Proxies one queue manager sends in one go: the same proxy to each target but the excluded ones.

    A DIRECT cluster sends a proxy to every member: the grant holds the (shared) set of members rather
    than one entry per member, and a publication only asks about the few queue managers it reaches.
    (A named tuple: made once per matching subscription and question in a cluster-only estate.)
    """

    held: Held
    targets: frozenset[str]
    excluded: frozenset[str] = frozenset()


Spread = tuple[Grant, ...]
"""Where one proxy subscription ends up."""

FURTHER: tuple[str, frozenset[str]] = ("", frozenset())
"""``ProxyIndex._into_one_cluster``: the proxy goes further than one cluster (``spread`` it)."""
Into = tuple[tuple[str, frozenset[str]] | None, tuple[str, frozenset[str]] | None]
"""``ProxyIndex._into_one_cluster`` of a subscription without and with scopes."""
_SUB_QMGR = SubScope.QMGR  # read once per holders, not per subscription


class Holders:
    """The proxy subscriptions held at each queue manager for one topic, gathered when asked.

    ``clustered``: the proxies that went no further than into one cluster (every subscription of a
    cluster-only estate), by (cluster, targets) with their senders, rather than one grant each: a topic
    has many subscriptions from few clusters, and a publication asks only the few queue managers it
    reaches. ``grants``: the others, as spread.
    """

    def __init__(
        self,
        grants: list[Grant],
        clustered: dict[tuple[str, frozenset[str]], dict[str, None]] | None = None,
    ) -> None:
        self._grants = grants
        self._clustered = clustered or {}
        self._at: dict[str, frozenset[Held]] = {}

    def with_source(self, spread: Spread) -> Holders:
        return Holders([*self._grants, *spread], self._clustered)

    def get(self, node: str) -> frozenset[Held]:
        found = self._at.get(node)
        if found is None:
            held = {g.held for g in self._grants if node in g.targets and node not in g.excluded}
            for (cluster, targets), senders in self._clustered.items():
                if node in targets:
                    held.update(Held(sender, False, cluster) for sender in senders if sender != node)
            found = self._at[node] = frozenset(held)
        return found

    def senders(self, node: str, cluster: str) -> list[str]:
        """Who ``node`` holds a proxy from over ``cluster``, by name (``get`` without the proxies made)."""
        found = {
            g.held.sender
            for g in self._grants
            if not g.held.hierarchy
            and g.held.cluster == cluster
            and node in g.targets
            and node not in g.excluded
        }
        for (into, targets), senders in self._clustered.items():
            if into == cluster and node in targets:
                found.update(senders)
        found.discard(node)  # a queue manager holds no proxy of its own (no grant gives it one either)
        return sorted(found)


class Kind(Enum):
    """How a proxy subscription or a publication reached a queue manager."""

    ORIGIN = "origin"
    HIERARCHY = "hierarchy"
    CLUSTER = "cluster"
    AT_HOST = "at_host"
    """A publication handed to a topic host by a non-host: the host forwards it into the cluster."""


class ProxyIndex:
    """A topology indexed for proxy propagation: ``MqPrepared``'s first part (see the module docstring).

    ``cache_size`` bounds the number of topics whose facts are kept.
    """

    def __init__(self, topology: Topology, cache_size: int) -> None:
        self.topology = topology
        self.index = ClusterIndex(topology)
        self.trees = TopicTrees(self.index)
        neighbours: dict[str, set[str]] = defaultdict(set)
        for node in topology.nodes.values():
            if node.parent and node.dialect == MQ:
                neighbours[node.name].add(node.parent)
                neighbours[node.parent].add(node.name)
        self._neighbours = {name: tuple(sorted(found)) for name, found in neighbours.items()}
        self._members: dict[str, frozenset[str]] = {}
        self._hierarchy_clusters: dict[str, bool] = {}
        self._frozensets: dict[tuple[str, ...], frozenset[str]] = {}
        self._singletons: dict[str, frozenset[str]] = {}
        ems = {name for name, node in topology.nodes.items() if node.dialect != MQ}  # see is_mq
        subs = sorted(
            (s for s in topology.subscriptions if s.node not in ems), key=attrgetter("node", "name")
        )
        self.subs = Subs.of(subs)
        self.any_char = self.subs.any_char
        """Some subscription has WSCHEMA(CHAR): else the proxy index's matches are the receivers."""
        self._by_proxy: SubscriptionIndex[int] = SubscriptionIndex(MQ)
        self._by_proxy.add_many(zip(self.subs.proxy_patterns(), range(len(subs)), strict=True))
        self._force: dict[str, list[TopicObject]] = defaultdict(list)
        for obj in topology.topics:
            if obj.proxysub == ProxySub.FORCE and self.is_mq(obj.node):
                self._force[obj.topicstr].append(obj)
        self._admin = frozenset(o.topicstr for o in topology.topics if self.is_mq(o.node))
        """Every topic object's TOPICSTR: a topic resolves alike to the deepest of them above it."""
        self._into: list[Into | None] = []
        """Where each subscription's proxy goes when it goes into one cluster only (``holders``; without
        and with scopes), by ``Sub.index``, once asked: a subscription serves every topic its pattern
        matches, and this depends on its queue manager and pattern only. Made on first use, then kept
        for the model's life (a slot per subscription; the answers shared, ``_into_shared``)."""
        self._into_shared: dict[tuple[str, ClRoute, tuple[str, ...], Scope, bool], Into] = {}
        self._into_by_place: dict[tuple[frozenset[str] | str, tuple[str, ...]], Into] = {}
        """``_sub_into`` by (``TopicTree.point_group``, anchor): the fellow members of a cluster whose own
        objects lie off the pattern's chain share one answer (a queue manager is a member of the point's
        cluster exactly when it is among theirs), found without working out a point per queue manager."""
        self._anchors: dict[tuple[str, ...], tuple[str, ...]] = {}
        """``anchor`` of each prefix asked (at most one per subscription pattern)."""
        self._facts: BoundedCache[str, TopicFacts] = BoundedCache(cache_size)
        self._spread: BoundedCache[tuple[Source, bool], Spread] = BoundedCache(cache_size * 64)

    def is_mq(self, name: str) -> bool:
        """A name known only from a membership or a subscription is taken to be a queue manager."""
        node = self.topology.nodes.get(name)
        return node is None or node.dialect == MQ

    def neighbours(self, name: str) -> tuple[str, ...]:
        return self._neighbours.get(name, ())

    def hierarchy_name(self, a: str, b: str) -> str:
        """``CHILD->PARENT`` whichever way the message goes."""
        node = self.topology.nodes.get(a)
        return f"{a}->{b}" if node is not None and node.parent == b else f"{b}->{a}"

    def _frozen(self, names: tuple[str, ...]) -> frozenset[str]:
        """One shared frozenset per tuple of names (topic hosts, an origin): a model keeps proxies for
        many topics, and every object it keeps is one more for each collection of the garbage collector
        to walk."""
        found = self._frozensets.get(names)
        if found is None:
            found = self._frozensets[names] = frozenset(names)
        return found

    def _alone(self, name: str) -> frozenset[str]:
        """``_frozen((name,))``, asked for by name: one per proxy spread, so without making a tuple."""
        found = self._singletons.get(name)
        if found is None:
            found = self._singletons[name] = self._frozen((name,))
        return found

    def cluster_in_hierarchy(self, cluster: str) -> bool:
        """Some member of ``cluster`` has hierarchy neighbours (kept per cluster)."""
        found = self._hierarchy_clusters.get(cluster)
        if found is None:
            found = self._hierarchy_clusters[cluster] = bool(self.in_hierarchy(self.member_set(cluster)))
        return found

    def member_set(self, cluster: str) -> frozenset[str]:
        found = self._members.get(cluster)
        if found is None:
            found = self._members[cluster] = frozenset(self.index.members(cluster))
        return found

    def in_hierarchy(self, targets: frozenset[str]) -> list[str]:
        """The queue managers among ``targets`` that have hierarchy neighbours, by name."""
        if not self._neighbours:
            return []
        if len(self._neighbours) < len(targets):
            return sorted(n for n in self._neighbours if n in targets)
        return sorted(n for n in targets if n in self._neighbours)

    def facts(self, topic: str) -> TopicFacts:
        return self._facts.get(topic, lambda: TopicFacts(self, topic))

    def holders(self, candidates: Iterable[Sub], force: Iterable[Source], scopes: bool) -> Holders:
        """Where the proxies of these subscriptions and FORCE objects are held (``spread`` of each; the
        ones that go only into one cluster gathered by cluster and targets)."""
        clustered: dict[tuple[str, frozenset[str]], dict[str, None]] = {}
        others: dict[Source, None] = {}
        neighbours, qmgr = self._neighbours, _SUB_QMGR
        kept = self.into_slots()
        for s in candidates:
            origin = s.sub.node
            if scopes and s.sub.subscope == qmgr:
                continue  # its proxy never leaves its queue manager (``_propagate``)
            into: tuple[str, frozenset[str]] | None
            if origin in neighbours:
                into = FURTHER
            else:
                both = kept[s.index]
                if both is None:
                    both = kept[s.index] = self._sub_into(s)
                into = both[scopes]
            if into is FURTHER:
                others[Source(origin, s.prefix, False)] = None
            elif into is not None:
                clustered.setdefault(into, {})[origin] = None
        grants = [g for src in [*others, *force] for g in self.spread(src, scopes)]
        return Holders(grants, clustered)

    def into_slots(self) -> list[Into | None]:
        """``_into``, its slots made on first use."""
        if not self._into:
            self._into += [None] * len(self.subs)
        return self._into

    def fill_into(self) -> None:
        """Every slot of ``_into`` at once, column-wise (``RoutingModel.prepare``: a model that routes
        many publications, as a Spark worker does, asks for most of them, and one pass costs less than
        finding them one by one as keys come). Queue manager by queue manager (the subscriptions are
        sorted by it): the anchors of its patterns, their ``TopicTree.point_groups``, one answer per
        (group, anchor). Subscriptions whose queue manager has hierarchy neighbours keep ``None``:
        their proxies are spread, not granted."""
        kept = self.into_slots()
        subs, shapes = self.subs.subs, self.subs.shapes
        anchors: dict[int, tuple[str, ...]] = {}  # by the shape's identity: one shape per distinct pattern
        anchor, places = self.anchor, self._into_by_place
        start = 0
        while start < len(subs):
            node = subs[start].node
            end = start
            while end < len(subs) and subs[end].node == node:
                end += 1
            if node not in self._neighbours:
                ats = []
                for shape in shapes[start:end]:
                    at = anchors.get(id(shape))
                    if at is None:
                        at = anchors[id(shape)] = anchor(shape[0])
                    ats.append(at)
                tree = self.trees.at(node)
                for i, group, at in zip(range(start, end), tree.point_groups(ats), ats, strict=True):
                    both = places.get((group, at))
                    kept[i] = both if both is not None else self._into_of(node, tree, group, at)
            start = end

    def _sub_into(self, s: Sub) -> Into:
        """Where ``s``'s proxy goes into one cluster only, without and with scopes (``holders``), for a
        subscription whose queue manager has no hierarchy neighbours: one answer shared by every
        subscription with the same cluster point whose queue manager is (or is not) a member of its
        cluster (such a queue manager is never among the targets that relay)."""
        origin = s.sub.node
        anchor = self.anchor(s.prefix)
        tree = self.trees.at(origin)
        group = tree.point_group(anchor)
        both = self._into_by_place.get((group, anchor))
        return both if both is not None else self._into_of(origin, tree, group, anchor)

    def _into_of(
        self, origin: str, tree: TopicTree, group: frozenset[str] | str, anchor: tuple[str, ...]
    ) -> Into:
        """``_sub_into`` worked out, and kept for its place (``group``, ``anchor``)."""
        point = tree.point(anchor)
        key = (*_point_value(point), bool(point.cluster) and origin in self.member_set(point.cluster))
        both = self._into_shared.get(key)
        if both is None:
            both = self._into_shared[key] = (
                self._into_one_cluster(origin, point, False),
                self._into_one_cluster(origin, point, True),
            )
        self._into_by_place[(group, anchor)] = both
        return both

    def _into_one_cluster(
        self, origin: str, point: ClusterPoint, scopes: bool
    ) -> tuple[str, frozenset[str]] | None:
        """From a queue manager without hierarchy neighbours, with this cluster point for the pattern:
        the (cluster, targets) its proxy goes to and no further, ``None`` when it goes nowhere, else
        ``FURTHER`` (a target relays it on)."""
        cluster = point.cluster
        if not cluster or (scopes and point.subscope == Scope.QMGR):
            return None
        members = self.member_set(cluster)
        if origin not in members:
            return None
        targets = members if point.clroute == ClRoute.DIRECT else self._frozen(point.hosts)
        if not self._neighbours or all(t == origin for t in self.in_hierarchy(targets)):
            return (cluster, targets)
        return FURTHER

    def spread(self, source: Source, scopes: bool) -> Spread:
        """Where one proxy subscription ends up.

        From a queue manager without hierarchy neighbours, into a cluster none of whose receivers has
        any either (every queue manager of a cluster-only estate), the proxy goes no further than one
        grant, which the resolution at the origin decides: made at once. Otherwise propagated and kept
        (many topics share the same subscriptions).
        """
        origin, prefix, own_qmgr = source
        if origin not in self._neighbours and not (scopes and own_qmgr):
            point = self.trees.at(origin).point(prefix)
            cluster = point.cluster
            if not cluster or (scopes and point.subscope == Scope.QMGR):
                return ()
            members = self.member_set(cluster)
            if origin not in members:
                return ()
            targets = members if point.clroute == ClRoute.DIRECT else self._frozen(point.hosts)
            if not self._neighbours or all(t == origin for t in self.in_hierarchy(targets)):
                return (Grant(Held(origin, False, cluster), targets, self._alone(origin)),)
        return self._spread.get((source, scopes), lambda: _propagate(self, source, scopes))

    def anchor(self, prefix: tuple[str, ...]) -> tuple[str, ...]:
        """The levels of the deepest topic-object string at or above ``prefix`` (``resolves_as`` for
        levels). Every tree holds only such strings, so a pattern's prefix resolves everywhere as its
        anchor does; the patterns under one object share it, so their cluster point is found in the
        index's cache (``TopicTree.point``) instead of being worked out once per distinct pattern."""
        found = self._anchors.get(prefix)
        if found is None:
            held = not prefix or "/".join(prefix) in self._admin
            found = self._anchors[prefix] = prefix if held else self.anchor(prefix[:-1])
        return found

    def resolves_as(self, topic: str) -> str:
        """The deepest TOPICSTR of any topic object on T's chain (``''``: none): every tree holds only
        such strings, so T resolves there as that string does, and topics under it share resolutions."""
        chain = chain_topicstrs(levels(topic, MQ))
        return next((s for s in reversed(chain) if s in self._admin), "")

    def force_sources(self, topic: str) -> list[Source]:
        """§4.4: FORCE objects on T's chain send proxies from every queue manager whose tree holds them."""
        if not self._force:
            return []  # the usual estate: no FORCE object anywhere, no chain to walk
        out: set[Source] = set()
        for topicstr in chain_topicstrs(levels(topic, MQ)):
            for obj in self._force.get(topicstr, ()):
                origins = {obj.node, *(self.index.members(obj.cluster) if obj.cluster else ())}
                for origin in origins:
                    entry = self.trees.at(origin).get(obj.topicstr)
                    if entry is not None and entry.proxysub == ProxySub.FORCE:
                        out.add(Source(origin, tuple(levels(obj.topicstr, MQ))))
        return sorted(out, key=lambda s: (s.origin, s.prefix))


class TopicFacts:
    """What a topic's routing needs whoever publishes: matching subscriptions, proxy holders."""

    _KEPT = 8
    """Holder maps kept per topic (one per set of offline subscriptions and scope mode asked about)."""

    def __init__(self, prepared: ProxyIndex, topic: str) -> None:
        self.prepared = prepared
        self.topic = topic
        self.ids = sorted(prepared._by_proxy.match(topic))
        """The places in ``prepared.subs`` of the subscriptions whose proxy pattern matches T (a CHAR
        pattern's proxy is wider than itself): the flat path reads their columns without making a
        ``Sub`` of each (``mq._Engine._flat_reach``)."""
        self.matching_ids = self.ids
        """Those of the subscriptions that receive T: the index matched a topic-schema pattern exactly."""
        if prepared.any_char:
            char = WSchema.CHAR  # read once: an enum member is a slow attribute to look up per subscription
            self.matching_ids = [
                s.index for s in self.candidates if s.sub.wschema != char or s.receives(topic)
            ]
        self.force = prepared.force_sources(topic)
        self.resolves_as = prepared.resolves_as(topic)
        """Where T resolves on every queue manager: the deepest topic object string above it."""
        self._holders: dict[tuple[frozenset[tuple[str, str]], bool], Holders] = {}

    @cached_property
    def candidates(self) -> list[Sub]:
        """The subscriptions of ``ids``."""
        return self.prepared.subs.many(self.ids)

    @cached_property
    def matching(self) -> list[Sub]:
        """The subscriptions of ``matching_ids``."""
        return (
            self.candidates if self.matching_ids is self.ids else self.prepared.subs.many(self.matching_ids)
        )

    def holders(self, gone: frozenset[tuple[str, str]], scopes: bool) -> Holders:
        """Where the proxies for T are held (never mutated by callers)."""
        key = (gone, scopes)
        found = self._holders.get(key)
        if found is None:
            if len(self._holders) >= self._KEPT:
                self._holders.clear()
            live = [s for s in self.candidates if s.key not in gone] if gone else self.candidates
            found = self._holders[key] = self.prepared.holders(live, self.force, scopes)
        return found


def _propagate(prepared: ProxyIndex, source: Source, scopes: bool) -> Spread:
    """Spread one proxy subscription as §4.3 says, for DIRECT and TOPICHOST clusters alike.

    A queue manager treats what it holds from its own subscription or over the hierarchy as local: rule
    1 (into the cluster its pattern resolves to there) and rule 3 (to every hierarchy neighbour); what
    it holds from a cluster goes to its hierarchy neighbours only. Never back to the queue manager it
    came from, never back to the origin, never from one cluster into another.

    A queue manager relays each receipt once per (way, sender that matters): a hierarchy receipt per
    neighbour it came from, a cluster receipt once, or once more per hierarchy neighbour it came from.
    So a hierarchy link beside a cluster that already joins its two ends (a loop, §4.3) carries the
    proxy both ways: each end passes the copy it got from the cluster over the link, and pushes the one
    it got over the link into the cluster (to the others). Depends on the source (origin, fixed
    prefix, own scope) and the topology, not on the topic.
    """
    if scopes and source.own_qmgr:
        return ()
    origin = source.origin
    grants: list[Grant] = []
    over_link: set[tuple[str, str]] = set()
    """Hierarchy proxies granted (from, to): a queue manager sends its neighbour one."""
    queue: deque[tuple[str, str | None, Kind]] = deque([(origin, None, Kind.ORIGIN)])
    seen: set[tuple[str, str | None, bool]] = {(origin, None, False)}
    """Receipts relayed: (queue manager, the sender that matters, from a cluster)."""
    neighbours = prepared.neighbours
    while queue:
        node, came_from, kind = queue.popleft()
        res = prepared.trees.at(node).resolve_pattern(source.prefix)
        if scopes and res.subscope == Scope.QMGR:
            continue
        if kind is not Kind.CLUSTER and res.clustered and prepared.index.is_member(node, res.cluster):
            direct = res.clroute == ClRoute.DIRECT
            targets = prepared.member_set(res.cluster) if direct else frozenset(res.hosts)
            excluded = frozenset(n for n in (node, came_from, origin) if n is not None)
            grants.append(Grant(Held(node, False, res.cluster), targets, excluded))
            for target in prepared.in_hierarchy(targets):  # only they can relay it further
                if target in excluded:
                    continue
                around = neighbours(target)
                key = (target, node if node in around else None, True)
                if key not in seen and any(n != node for n in around):
                    seen.add(key)
                    queue.append((target, node, Kind.CLUSTER))
        for target in neighbours(node):
            if target in (came_from, origin) or (node, target) in over_link:
                continue
            over_link.add((node, target))
            grants.append(Grant(Held(node, True, ""), frozenset((target,))))
            key = (target, node, False)
            if key not in seen:
                seen.add(key)
                queue.append((target, node, Kind.HIERARCHY))
    return tuple(grants)
