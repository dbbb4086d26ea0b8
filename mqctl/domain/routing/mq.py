"""IBM MQ publish/subscribe routing: where one publication goes and why a subscriber misses it.

semantics §4 (proxy subscriptions), §5 (publications) and §9 (pinned choices). ``MqPrepared`` indexes a
topology once (cluster index, topic trees, hierarchy, cluster-receiver channels, the subscription index
by proxy pattern, ``PROXYSUB(FORCE)`` objects by topic string) and keeps, per topic and in a bounded
cache, what does not depend on the publisher: the matching subscriptions and the proxy subscriptions
they spread. One question then works in three steps:

1. *Proxy subscriptions.* Every subscription whose proxy pattern matches the topic (and every
   ``PROXYSUB(FORCE)`` object on its chain) is propagated as MQ would: into the cluster its pattern
   resolves to (to every member for DIRECT, to the topic hosts for TOPICHOST), to hierarchy neighbours,
   relayed hierarchy -> cluster and cluster -> hierarchy, never from one cluster into another. The
   result is, per queue manager, which neighbours it holds a matching proxy from, and over what.
2. *The publication* then flows from the publisher along those proxies (through one topic host for
   TOPICHOST, chosen by cluster workload management: ``workload``), best paths first (delivered before
   stored, fewest hops, names), every queue manager forwarding it once, as MQ discards looping copies.
3. *Each matching subscription* is judged by the shared precedence (``ladder``); MQ supplies the
   reachability steps: ``SCOPE``, ``WILDCARD_BLOCKED``, a copy arriving, else the counterfactual flows
   (every scope ALL; an exact subscription on the topic) that tell ``SCOPE``, ``WILDCARD_ABOVE_CLUSTER``
   and ``NO_PATH`` apart.

Failures change statuses, not paths, except that a topic host that is not available is not chosen.

The Spark job's usual question (nothing failed, no ``detail``; no FORCE, SUBSCOPE(QMGR) or
WILDCARD(BLOCK) object in the estate; no hierarchy link at the publisher or in the cluster its topic
resolves to there: ``_Engine._clear_of_hierarchy``) takes a shorter way through steps 1 and 2
(``_Engine.flat``): the publication then goes from the publisher (through the topic host chosen) to the
queue managers that sent it a proxy over that cluster and no further, so each matching subscription's
copy is read off its candidates' (cluster, targets) without gathering holders or running a flow. The
answers are the flow's (``tests/domain/test_routing_detail.py`` compares them with the full answers).
"""

from __future__ import annotations

import heapq
from collections import defaultdict, deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from enum import Enum
from functools import cached_property, partial
from operator import attrgetter, itemgetter
from typing import NamedTuple

from mqctl.domain.explanation import (
    MAX_ALTERNATIVES,
    ConflictNote,
    Explanation,
    Failures,
    Hop,
    ObjectRef,
    Publication,
    Reason,
    Resolved,
    TopicHost,
    Unsupported,
    Via,
    Warning,
    WarningCode,
    own_kind,
)
from mqctl.domain.model import (
    ClRoute,
    Dialect,
    ProxySub,
    Scope,
    SubScope,
    Subscription,
    TopicObject,
    Topology,
    Wildcard,
    WSchema,
)
from mqctl.domain.resolution import (
    ClusterIndex,
    ClusterPoint,
    Conflict,
    Resolution,
    TopicTrees,
    chain_topicstrs,
)
from mqctl.domain.routing.cache import BoundedCache
from mqctl.domain.routing.ladder import Arrival, Ladder, Miss, Plan, Rows, Verdicts, plan_rows
from mqctl.domain.routing.workload import ClusterChannels, HostChoice, choose_host
from mqctl.domain.subindex import SubscriptionIndex
from mqctl.domain.topics import (
    char_matches,
    char_prefix_levels,
    levels,
    matches,
    widen_char_pattern,
)
from mqctl.domain.unsupported import (
    TopichostJoin,
    first_unsupported,
    topichost_joins,
    unsupported_delivery,
)

__all__ = ["MqPrepared", "explain_mq", "route_mq"]

MQ = Dialect.MQ

CHOICES_KEPT = 4096
"""Topic host choices a model keeps (``MqPrepared.choose_host``)."""

_NO_CHOICE = object()

ROUTED_KEPT = 16
"""Answers up to the selectors kept (``MqPrepared.routed``): enough for a topic's keys in many variants."""


VERDICTS_KEPT = 256
"""Message contents whose selector verdicts a model keeps (a replay's keys repeat few property texts)."""


def explain_mq(
    prepared: MqPrepared, publication: Publication, failures: Failures, detail: bool = True
) -> Explanation:
    """Explain one MQ publication: deliveries, misses with their reason, and warnings (semantics §8).

    Everything but the selectors of the subscriptions reached depends on the publisher, the topic and
    the failures only: that part is kept with the topic's facts, so publications that differ only in
    their properties (the Spark job's routing keys of one topic) share it. Without ``detail``, the
    work whose results only a reader needs (``routing.explain``) is not done.
    """
    return prepared.routed(publication, failures, detail).answer(publication, failures, prepared.verdicts)


def route_mq(prepared: MqPrepared, publication: Publication, failures: Failures) -> Rows:
    """``explain_mq(..., detail=False)``'s deliveries and misses as rows, without the explanation."""
    return prepared.routed(publication, failures, False).rows(publication, failures, prepared.verdicts)


@dataclass(slots=True)
class _Routed:
    """The answer for one (publisher, topic, failures) up to the selectors of the subscriptions (the
    reachability steps of the §9 precedence, ``resolved``, warnings, topic hosts): never mutated but
    for ``plan``, made once from the outcomes."""

    resolved: Resolved
    outcomes: list[tuple[Subscription, Arrival | Miss]]
    warnings: list[tuple[WarningCode, str]]
    topic_hosts: list[TopicHost]
    detail: bool
    plan: Plan | None = None
    """``ladder.plan_rows`` of the outcomes, made by the first ``rows`` that can use it."""
    flagged: dict[frozenset[str], Unsupported] = field(default_factory=dict)
    """Hierarchy links (their two ends) IBM does not support for this topic (``_Engine.flagged``): a
    delivery crossing one says so. Empty in every estate without such a link."""

    def answer(self, publication: Publication, failures: Failures, verdicts: Verdicts) -> Explanation:
        """A fresh explanation for ``publication``: only the selector step is run again (the verdicts
        on its message kept in ``verdicts``)."""
        r = self.resolved
        explanation = Explanation(
            publication,
            Resolved(r.node, r.object, r.topicstr, r.cluster, r.clroute),
            warnings=[Warning(code, message) for code, message in self.warnings],
            topic_hosts=list(self.topic_hosts),
        )
        ladder = Ladder(explanation, failures, MQ, self.detail)
        ladder.record(ladder.rows(self.outcomes, verdicts.of(publication.properties, publication.headers)))
        if self.flagged:
            hierarchy = Via.HIERARCHY
            for d in explanation.deliveries:
                hops = ((h.from_node, h.to_node) for h in d.hops if h.via is hierarchy)
                d.unsupported = first_unsupported(hops, self.flagged)
        return explanation

    def rows(self, publication: Publication, failures: Failures, verdicts: Verdicts) -> Rows:
        """``answer``'s deliveries and misses as rows (no explanation made)."""
        explanation = Explanation(publication, self.resolved)  # the ladder reads only its publication
        ladder = Ladder(explanation, failures, MQ, self.detail)
        if self.detail or failures.offline:
            return ladder.rows(self.outcomes, verdicts.of(publication.properties, publication.headers))
        if self.plan is None:
            self.plan = plan_rows(self.outcomes)
        return ladder.planned_rows(self.plan, verdicts.of(publication.properties, publication.headers))


# --- subscriptions ---------------------------------------------------------------------------------


@dataclass(slots=True, eq=False)
class _Sub:
    """A subscription with what routing needs computed once: prefix, wildcard-ness, proxy pattern.
    Never mutated (not ``frozen``: a model makes one per subscription, and a frozen dataclass's
    ``__init__`` sets each field through ``object.__setattr__``, three times as slow)."""

    sub: Subscription
    index: int
    """Its place in ``MqPrepared.subs``."""
    prefix: tuple[str, ...]
    wildcard: bool
    proxy_pattern: str

    def receives(self, topic: str) -> bool:
        if self.sub.wschema == WSchema.CHAR:
            return char_matches(self.sub.topicstr, topic)
        return matches(self.sub.topicstr, topic, MQ)

    @property
    def key(self) -> tuple[str, str]:
        return (self.sub.node, self.sub.name)

    @property
    def label(self) -> str:
        return f"subscription {self.sub.name} ('{self.sub.topicstr}') on {self.sub.node}"


_Shape = tuple[tuple[str, ...], bool, str]
"""What routing reads off a subscription's pattern: fixed prefix, wildcard-ness, proxy pattern."""
_PATTERN = attrgetter("topicstr", "wschema")
_PROXY = itemgetter(2)


class _Subs:
    """``MqPrepared.subs``: the MQ subscriptions by queue manager and name, each made a ``_Sub`` when
    first asked for. A Spark routing task asks for a sixth of the estate's; making all 500,000 up front
    cost each Python worker a second before its first key."""

    __slots__ = ("subs", "shapes", "_made")

    def __init__(self, subs: list[Subscription], shapes: list[_Shape]) -> None:
        self.subs = subs
        self.shapes = shapes
        """Each subscription's ``_shape`` (one tuple per distinct pattern, shared)."""
        self._made: list[_Sub | None] = [None] * len(subs)

    def __len__(self) -> int:
        return len(self.subs)

    def __getitem__(self, index: int) -> _Sub:
        made = self._made[index]
        if made is None:
            made = self._made[index] = _Sub(self.subs[index], index, *self.shapes[index])
        return made

    def __iter__(self) -> Iterator[_Sub]:
        return map(self.__getitem__, range(len(self.subs)))


def _shape(pattern: str, wschema: WSchema) -> _Shape:
    if wschema == WSchema.CHAR:
        return tuple(char_prefix_levels(pattern)), _char_wild(pattern), widen_char_pattern(pattern)
    found = pattern.split("/")  # ``fixed_prefix_levels`` and ``has_wildcards`` in one split
    for i, level in enumerate(found):
        if level == "#" or level == "+":
            return tuple(found[:i]), True, pattern
    return tuple(found), False, pattern


def _point_value(point: ClusterPoint) -> tuple[str, ClRoute, tuple[str, ...], Scope]:
    """A cluster point's value as a tuple (a dict key hashed in C)."""
    return (point.cluster, point.clroute, point.hosts, point.subscope)


def _cap(text: str) -> str:
    """Sentence case for a phrase that starts a sentence."""
    return text[:1].upper() + text[1:]


def _char_wild(pattern: str) -> bool:
    """WSCHEMA(CHAR): an unescaped ``*`` or ``?`` makes the pattern a wildcard."""
    i = 0
    while i < len(pattern):
        if pattern[i] == "%":
            i += 2
            continue
        if pattern[i] in "*?":
            return True
        i += 1
    return False


class _Source(NamedTuple):
    """Something that makes a queue manager send proxy subscriptions: a subscription or a FORCE object.

    (A named tuple: made once per matching subscription and question, so it has to be cheap. It, ``_Held``
    and ``_Grant`` are keys of this module's own dicts and sets, never compared with another kind, so
    they keep the tuple's C equality rather than ``own_kind``'s, which a dict hit would pay for.)"""

    origin: str
    prefix: tuple[str, ...]
    own_qmgr: bool = False
    """The subscription's own SUBSCOPE is QMGR."""


class _Held(NamedTuple):
    """A proxy subscription held at a queue manager: who sent it, over a cluster or the hierarchy."""

    sender: str
    hierarchy: bool
    cluster: str


class _Grant(NamedTuple):
    """Proxies one queue manager sends in one go: the same proxy to each target but the excluded ones.

    A DIRECT cluster sends a proxy to every member: the grant holds the (shared) set of members rather
    than one entry per member, and a publication only asks about the few queue managers it reaches.
    (A named tuple: made once per matching subscription and question in a cluster-only estate.)
    """

    held: _Held
    targets: frozenset[str]
    excluded: frozenset[str] = frozenset()


_Spread = tuple[_Grant, ...]
"""Where one proxy subscription ends up."""

_FURTHER: tuple[str, frozenset[str]] = ("", frozenset())
"""``MqPrepared._into_one_cluster``: the proxy goes further than one cluster (``spread`` it)."""
_Into = tuple[tuple[str, frozenset[str]] | None, tuple[str, frozenset[str]] | None]
"""``MqPrepared._into_one_cluster`` of a subscription without and with scopes."""
_SUB_QMGR = SubScope.QMGR  # read once per holders, not per subscription
_VIA_CLUSTER = Via.CLUSTER
_new_hop = partial(tuple.__new__, Hop)
_new_arrival = partial(tuple.__new__, Arrival)
"""``Hop(...)`` and ``Arrival(...)`` from all their items, without the named tuple's ``__new__`` in Python
(``_Engine._flat_reach`` makes one of each per queue manager reached)."""


class _Holders:
    """The proxy subscriptions held at each queue manager for one topic, gathered when asked.

    ``clustered``: the proxies that went no further than into one cluster (every subscription of a
    cluster-only estate), by (cluster, targets) with their senders, rather than one grant each: a topic
    has many subscriptions from few clusters, and a publication asks only the few queue managers it
    reaches. ``grants``: the others, as spread.
    """

    def __init__(
        self,
        grants: list[_Grant],
        clustered: dict[tuple[str, frozenset[str]], dict[str, None]] | None = None,
    ) -> None:
        self._grants = grants
        self._clustered = clustered or {}
        self._at: dict[str, frozenset[_Held]] = {}

    def with_source(self, spread: _Spread) -> _Holders:
        return _Holders([*self._grants, *spread], self._clustered)

    def get(self, node: str) -> frozenset[_Held]:
        found = self._at.get(node)
        if found is None:
            held = {g.held for g in self._grants if node in g.targets and node not in g.excluded}
            for (cluster, targets), senders in self._clustered.items():
                if node in targets:
                    held.update(_Held(sender, False, cluster) for sender in senders if sender != node)
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


# --- the prepared topology -------------------------------------------------------------------------


class MqPrepared:
    """The MQ side of a topology, indexed once for any number of publications (see the module docstring).

    ``cache_size`` bounds the number of topics whose publisher-independent work is kept.
    """

    def __init__(self, topology: Topology, cache_size: int) -> None:
        self.topology = topology
        self.index = ClusterIndex(topology)
        self.trees = TopicTrees(self.index)
        self.channels = ClusterChannels(topology)
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
        patterns = list(map(_PATTERN, subs))
        shapes = {pattern: _shape(*pattern) for pattern in dict.fromkeys(patterns)}  # estates repeat them
        self.subs = _Subs(subs, list(map(shapes.__getitem__, patterns)))
        self.any_char = any(wschema == WSchema.CHAR for _, wschema in shapes)
        """Some subscription has WSCHEMA(CHAR): else the proxy index's matches are the receivers."""
        self._by_proxy: SubscriptionIndex[int] = SubscriptionIndex(MQ)
        self._by_proxy.add_many(zip(map(_PROXY, self.subs.shapes), range(len(subs)), strict=True))
        self._force: dict[str, list[TopicObject]] = defaultdict(list)
        for obj in topology.topics:
            if obj.proxysub == ProxySub.FORCE and self.is_mq(obj.node):
                self._force[obj.topicstr].append(obj)
        self._admin = frozenset(o.topicstr for o in topology.topics if self.is_mq(o.node))
        """Every topic object's TOPICSTR: a topic resolves alike to the deepest of them above it."""
        self._full = {m.cluster for m in topology.memberships if m.full_repository}
        self.any_subscope_qmgr = any(o.subscope == Scope.QMGR for o in topology.topics)
        """Some topic object has SUBSCOPE(QMGR): else no tree needs asking (``TopicTree.uses``)."""
        self.any_block = any(o.wildcard == Wildcard.BLOCK for o in topology.topics)
        """Some topic object has WILDCARD(BLOCK)."""
        self._choices: dict[tuple[str, tuple[str, ...], str, Failures], HostChoice | None] = {}
        self._into: list[_Into | None] = []
        """Where each subscription's proxy goes when it goes into one cluster only (``holders``; without
        and with scopes), by ``_Sub.index``, once asked: a subscription serves every topic its pattern
        matches, and this depends on its queue manager and pattern only. Made on first use, then kept
        for the model's life (a slot per subscription; the answers shared, ``_into_shared``)."""
        self._into_shared: dict[tuple[str, ClRoute, tuple[str, ...], Scope, bool], _Into] = {}
        self._anchors: dict[tuple[str, ...], tuple[str, ...]] = {}
        """``anchor`` of each prefix asked (at most one per subscription pattern)."""
        self._facts: BoundedCache[str, _TopicFacts] = BoundedCache(cache_size)
        self._spread: BoundedCache[tuple[_Source, bool], _Spread] = BoundedCache(cache_size * 64)
        self._routed: BoundedCache[tuple[str, str, Failures, bool], _Routed] = BoundedCache(
            min(cache_size, ROUTED_KEPT)
        )
        self.verdicts = Verdicts(min(cache_size, VERDICTS_KEPT))
        """Selector verdicts per message content (``ladder.Verdicts``): they depend on nothing else."""

    @cached_property
    def topichost_joins(self) -> dict[frozenset[str], list[TopichostJoin]]:
        """Hierarchy links joining a topic-host routed cluster, by their two ends (MQC018's definition):
        none, at no cost, in an estate without hierarchy links."""
        out: dict[frozenset[str], list[TopichostJoin]] = defaultdict(list)
        if self._neighbours:
            nodes = {n: node for n, node in self.topology.nodes.items() if node.dialect == MQ}
            for join in topichost_joins(nodes, self.index):
                out[frozenset((join.child, join.parent))].append(join)
        return dict(out)

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

    def has_full_repository(self, cluster: str) -> bool:
        return cluster in self._full

    def facts(self, topic: str) -> _TopicFacts:
        return self._facts.get(topic, lambda: _TopicFacts(self, topic))

    def routed(self, publication: Publication, failures: Failures, detail: bool) -> _Routed:
        """The answer up to the selectors for this topic, publisher and failures (with or without
        ``detail``).

        Kept for the last few questions only: publications that differ only in properties come one
        after the other (the Spark job routes its keys sorted by topic, publisher, then properties, in
        every variant), and what a model keeps for long is walked by every full garbage collection.
        """
        key = (publication.topic, publication.from_node, failures, detail)
        return self._routed.get(key, lambda: _Engine(self, publication, failures, detail).run())

    def choose_host(self, node: str, res: Resolution, failures: Failures) -> HostChoice | None:
        """``workload.choose_host``, kept: it depends on the chooser, the hosts, the cluster and the
        failures only, and every topic under one topic-host object asks the same."""
        key = (node, res.hosts, res.cluster, failures)
        found = self._choices.get(key, _NO_CHOICE)
        if found is _NO_CHOICE:
            if len(self._choices) >= CHOICES_KEPT:
                self._choices.clear()
            found = self._choices[key] = choose_host(node, res.hosts, res.cluster, self.channels, failures)
        return found  # type: ignore[return-value]

    def holders(self, candidates: Iterable[_Sub], force: Iterable[_Source], scopes: bool) -> _Holders:
        """Where the proxies of these subscriptions and FORCE objects are held (``spread`` of each; the
        ones that go only into one cluster gathered by cluster and targets)."""
        clustered: dict[tuple[str, frozenset[str]], dict[str, None]] = {}
        others: dict[_Source, None] = {}
        neighbours, qmgr = self._neighbours, _SUB_QMGR
        kept = self.into_slots()
        for s in candidates:
            origin = s.sub.node
            if scopes and s.sub.subscope == qmgr:
                continue  # its proxy never leaves its queue manager (``_propagate``)
            into: tuple[str, frozenset[str]] | None
            if origin in neighbours:
                into = _FURTHER
            else:
                both = kept[s.index]
                if both is None:
                    both = kept[s.index] = self._sub_into(s)
                into = both[scopes]
            if into is _FURTHER:
                others[_Source(origin, s.prefix, False)] = None
            elif into is not None:
                clustered.setdefault(into, {})[origin] = None
        grants = [g for src in [*others, *force] for g in self.spread(src, scopes)]
        return _Holders(grants, clustered)

    def into_slots(self) -> list[_Into | None]:
        """``_into``, its slots made on first use."""
        if not self._into:
            self._into += [None] * len(self.subs)
        return self._into

    def _sub_into(self, s: _Sub) -> _Into:
        """Where ``s``'s proxy goes into one cluster only, without and with scopes (``holders``), for a
        subscription whose queue manager has no hierarchy neighbours: one answer shared by every
        subscription with the same cluster point whose queue manager is (or is not) a member of its
        cluster (such a queue manager is never among the targets that relay)."""
        origin = s.sub.node
        point = self.trees.at(origin).point(self.anchor(s.prefix))
        key = (*_point_value(point), bool(point.cluster) and origin in self.member_set(point.cluster))
        both = self._into_shared.get(key)
        if both is None:
            both = self._into_shared[key] = (
                self._into_one_cluster(origin, point, False),
                self._into_one_cluster(origin, point, True),
            )
        return both

    def _into_one_cluster(
        self, origin: str, point: ClusterPoint, scopes: bool
    ) -> tuple[str, frozenset[str]] | None:
        """From a queue manager without hierarchy neighbours, with this cluster point for the pattern:
        the (cluster, targets) its proxy goes to and no further, ``None`` when it goes nowhere, else
        ``_FURTHER`` (a target relays it on)."""
        cluster = point.cluster
        if not cluster or (scopes and point.subscope == Scope.QMGR):
            return None
        members = self.member_set(cluster)
        if origin not in members:
            return None
        targets = members if point.clroute == ClRoute.DIRECT else self._frozen(point.hosts)
        if not self._neighbours or all(t == origin for t in self.in_hierarchy(targets)):
            return (cluster, targets)
        return _FURTHER

    def spread(self, source: _Source, scopes: bool) -> _Spread:
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
                return (_Grant(_Held(origin, False, cluster), targets, self._alone(origin)),)
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

    def force_sources(self, topic: str) -> list[_Source]:
        """§4.4: FORCE objects on T's chain send proxies from every queue manager whose tree holds them."""
        if not self._force:
            return []  # the usual estate: no FORCE object anywhere, no chain to walk
        out: set[_Source] = set()
        for topicstr in chain_topicstrs(levels(topic, MQ)):
            for obj in self._force.get(topicstr, ()):
                origins = {obj.node, *(self.index.members(obj.cluster) if obj.cluster else ())}
                for origin in origins:
                    entry = self.trees.at(origin).get(obj.topicstr)
                    if entry is not None and entry.proxysub == ProxySub.FORCE:
                        out.add(_Source(origin, tuple(levels(obj.topicstr, MQ))))
        return sorted(out, key=lambda s: (s.origin, s.prefix))


class _TopicFacts:
    """What a topic's routing needs whoever publishes: matching subscriptions, proxy holders."""

    _KEPT = 8
    """Holder maps kept per topic (one per set of offline subscriptions and scope mode asked about)."""

    def __init__(self, prepared: MqPrepared, topic: str) -> None:
        self.prepared = prepared
        self.topic = topic
        self.candidates = list(map(prepared.subs.__getitem__, sorted(prepared._by_proxy.match(topic))))
        """Subscriptions whose proxy pattern matches T (a CHAR pattern's proxy is wider than itself)."""
        char = WSchema.CHAR  # read once: an enum member is a slow attribute to look up per subscription
        self.matching = (
            [s for s in self.candidates if s.sub.wschema != char or s.receives(topic)]
            if prepared.any_char
            else self.candidates
        )
        """Subscriptions that receive T: the index matched a topic-schema pattern exactly already."""
        self.force = prepared.force_sources(topic)
        self.resolves_as = prepared.resolves_as(topic)
        """Where T resolves on every queue manager: the deepest topic object string above it."""
        self._holders: dict[tuple[frozenset[tuple[str, str]], bool], _Holders] = {}

    def holders(self, gone: frozenset[tuple[str, str]], scopes: bool) -> _Holders:
        """Where the proxies for T are held (never mutated by callers)."""
        key = (gone, scopes)
        found = self._holders.get(key)
        if found is None:
            if len(self._holders) >= self._KEPT:
                self._holders.clear()
            live = [s for s in self.candidates if s.key not in gone] if gone else self.candidates
            found = self._holders[key] = self.prepared.holders(live, self.force, scopes)
        return found


# --- proxy propagation (§4) ------------------------------------------------------------------------


class _Kind(Enum):
    """How a proxy subscription or a publication reached a queue manager."""

    ORIGIN = "origin"
    HIERARCHY = "hierarchy"
    CLUSTER = "cluster"
    AT_HOST = "at_host"
    """A publication handed to a topic host by a non-host: the host forwards it into the cluster."""


def _propagate(prepared: MqPrepared, source: _Source, scopes: bool) -> _Spread:
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
    grants: list[_Grant] = []
    over_link: set[tuple[str, str]] = set()
    """Hierarchy proxies granted (from, to): a queue manager sends its neighbour one."""
    queue: deque[tuple[str, str | None, _Kind]] = deque([(origin, None, _Kind.ORIGIN)])
    seen: set[tuple[str, str | None, bool]] = {(origin, None, False)}
    """Receipts relayed: (queue manager, the sender that matters, from a cluster)."""
    neighbours = prepared.neighbours
    while queue:
        node, came_from, kind = queue.popleft()
        res = prepared.trees.at(node).resolve_pattern(source.prefix)
        if scopes and res.subscope == Scope.QMGR:
            continue
        if kind is not _Kind.CLUSTER and res.clustered and prepared.index.is_member(node, res.cluster):
            direct = res.clroute == ClRoute.DIRECT
            targets = prepared.member_set(res.cluster) if direct else frozenset(res.hosts)
            excluded = frozenset(n for n in (node, came_from, origin) if n is not None)
            grants.append(_Grant(_Held(node, False, res.cluster), targets, excluded))
            for target in prepared.in_hierarchy(targets):  # only they can relay it further
                if target in excluded:
                    continue
                around = neighbours(target)
                key = (target, node if node in around else None, True)
                if key not in seen and any(n != node for n in around):
                    seen.add(key)
                    queue.append((target, node, _Kind.CLUSTER))
        for target in neighbours(node):
            if target in (came_from, origin) or (node, target) in over_link:
                continue
            over_link.add((node, target))
            grants.append(_Grant(_Held(node, True, ""), frozenset((target,))))
            key = (target, node, False)
            if key not in seen:
                seen.add(key)
                queue.append((target, node, _Kind.HIERARCHY))
    return tuple(grants)


# --- publication flow (§5) -------------------------------------------------------------------------


@own_kind
class _Arrival(NamedTuple):
    """One way the publication reaches ``node``; ``stored_at`` is where it waits if a hop fails.

    (A named tuple: a flow makes one per queue manager it reaches, so it has to be cheap.)"""

    node: str
    path: tuple[str, ...]
    hops: tuple[Hop, ...]
    kind: _Kind
    stored_at: str | None = None

    @property
    def key(self) -> tuple[bool, int, tuple[str, ...]]:
        """Delivered before stored, then fewest hops, then names."""
        return (self.stored_at is not None, len(self.hops), self.path)


@dataclass(slots=True)
class _Flow:
    """Every arrival of the publication, best first per queue manager, plus what the hosts did."""

    arrivals: dict[str, list[_Arrival]] = field(default_factory=dict)
    host_forwards: dict[str, int] = field(default_factory=dict)
    """Topic hosts handed the publication by a non-host, with how many copies they sent on."""

    def reached(self, node: str) -> bool:
        return node in self.arrivals

    def best(self, node: str) -> _Arrival | None:
        found = self.arrivals.get(node)
        return found[0] if found else None


class _Flower:
    """Runs the publication through the proxies held at each queue manager."""

    def __init__(self, engine: _Engine, holders: _Holders, scopes: bool, forced_host: str | None) -> None:
        self.e = engine
        self.holders = holders
        self.scopes = scopes
        self.forced_host = forced_host

    def run(self) -> _Flow:
        flow = _Flow()
        start = _Arrival(self.e.pub.from_node, (self.e.pub.from_node,), (), _Kind.ORIGIN)
        heap: list[tuple[tuple[bool, int, tuple[str, ...]], int, _Arrival]] = [(start.key, 0, start)]
        counter = 1
        relays = self.e.prepared._neighbours
        while heap:
            _, _, arr = heapq.heappop(heap)
            seen = flow.arrivals.setdefault(arr.node, [])
            seen.append(arr)
            if len(seen) > 1 or (arr.kind is _Kind.CLUSTER and arr.node not in relays):
                continue  # a copy already forwarded; a plain cluster receiver relays nothing (``_forwards``)
            nxt = self._forwards(arr)
            if arr.kind is _Kind.AT_HOST:
                flow.host_forwards[arr.node] = len(nxt)
            for item in nxt:
                heapq.heappush(heap, (item.key, counter, item))
                counter += 1
        return flow

    def _forwards(self, arr: _Arrival) -> list[_Arrival]:
        """Where the queue manager ``arr.node`` sends the copy it got, by its own tree and scopes."""
        if arr.kind is _Kind.CLUSTER and not self.e.prepared.neighbours(arr.node):
            return []  # a plain cluster receiver: nothing to relay (hierarchy proxies are held only at
            # queue managers with hierarchy neighbours), and no tree to build or holders to gather
        relays = arr.node in self.e.prepared._neighbours  # only they hold hierarchy proxies
        held = sorted(h for h in self.holders.get(arr.node) if h.hierarchy) if relays else []
        if arr.kind is _Kind.CLUSTER and not held:
            return []  # a plain cluster receiver: nothing to relay (and no tree to build)
        res = self.e.res_t(arr.node)
        if self.scopes and res.pubscope == Scope.QMGR:
            return []
        out: list[_Arrival] = []
        if arr.kind in (_Kind.ORIGIN, _Kind.HIERARCHY):
            out += self._into_cluster(arr, res)
        elif arr.kind is _Kind.AT_HOST and arr.hops:
            out += self._to_proxies(arr, arr.hops[-1].name)
        for h in held:
            if h.sender not in arr.path:
                name = self.e.prepared.hierarchy_name(arr.node, h.sender)
                out.append(self._extend(arr, h.sender, Via.HIERARCHY, name, _Kind.HIERARCHY))
        return out

    def _into_cluster(self, arr: _Arrival, res: Resolution) -> list[_Arrival]:
        """§5.3 and §9 "publishing into a cluster": T must resolve to a clustered object here."""
        node = arr.node
        if not res.clustered or not self.e.prepared.index.is_member(node, res.cluster):
            return []
        if res.clroute == ClRoute.DIRECT or node in res.hosts:
            return self._to_proxies(arr, res.cluster)
        host = self._host_for(node, res)
        if host is None or host in arr.path:
            return []
        return [self._extend(arr, host, Via.TOPICHOST, res.cluster, _Kind.AT_HOST)]

    def _host_for(self, node: str, res: Resolution) -> str | None:
        """The host workload management chooses for ``node`` (or the forced alternative at the publisher)."""
        if node == self.e.pub.from_node and self.forced_host is not None:
            return self.forced_host
        choice = self.e.host_choice(node, res)
        return choice.chosen if choice is not None else None

    def _to_proxies(self, arr: _Arrival, cluster: str) -> list[_Arrival]:
        """One copy to each member that registered a matching proxy here in ``cluster``."""
        held = self.holders.senders(arr.node, cluster)
        if self.e.hops_can_fail or arr.stored_at is not None:
            return [
                self._extend(arr, sender, Via.CLUSTER, cluster, _Kind.CLUSTER)
                for sender in held
                if sender not in arr.path
            ]
        # ``_extend`` without a failing hop, made inline: one arrival per subscriber's queue manager
        node, path, hops, kind, via = arr.node, arr.path, arr.hops, _Kind.CLUSTER, Via.CLUSTER
        return [
            _Arrival(sender, (*path, sender), (*hops, Hop(node, sender, via, cluster)), kind)
            for sender in held
            if sender not in path
        ]

    def _extend(self, arr: _Arrival, to: str, via: Via, name: str, kind: _Kind) -> _Arrival:
        stored_at = arr.stored_at
        if stored_at is None and self.e.hops_can_fail and self.e.failures.hop_fails(arr.node, to):
            stored_at = arr.node
        return _Arrival(to, (*arr.path, to), (*arr.hops, Hop(arr.node, to, via, name)), kind, stored_at)


def _describe_path(arrival: _Arrival) -> str:
    """``QM1 -> QM2 (cluster CL1)``: nodes with the kind of each hop."""
    parts = [arrival.path[0]]
    for hop in arrival.hops:
        parts.append(f"-> {hop.to_node} ({hop.via} {hop.name})")
    return " ".join(parts)


def _ref(obj: TopicObject) -> ObjectRef:
    return ObjectRef(obj.node, obj.name, obj.topicstr, obj.cluster)


def _note(conflict: Conflict) -> ConflictNote:
    winner = _ref(conflict.winner) if conflict.winner is not None else None
    return ConflictNote(str(conflict.kind), tuple(_ref(o) for o in conflict.objects), winner)


# --- the engine ------------------------------------------------------------------------------------


class _Engine:
    """One question: the publication, the failures, and the flows computed for them (lazily)."""

    def __init__(
        self, prepared: MqPrepared, publication: Publication, failures: Failures, detail: bool = True
    ) -> None:
        self.prepared = prepared
        self.detail = detail
        """False: no warnings, topic hosts, alternatives or sentences (``routing.explain``)."""
        self.pub = publication
        self.topic = publication.topic
        self.failures = failures
        self.facts = prepared.facts(self.topic)
        self.matching = self.facts.matching
        self.gone = (
            frozenset(s.key for s in self.facts.candidates if not s.sub.durable and s.key in failures.offline)
            if failures.offline
            else frozenset()
        )
        """Non-durable subscriptions whose subscriber is offline: they no longer exist, nor their proxies."""
        self.explanation = Explanation(publication, self._resolved())
        self.hops_can_fail = bool(failures.down or failures.links_down)
        self.ladder = Ladder(self.explanation, failures, MQ, detail)
        self._cf_exact: dict[str, _Flow] = {}
        self._choices: dict[str, HostChoice | None] = {}

    # -- shared lookups

    def res_t(self, node: str) -> Resolution:
        """T at ``node``, resolved as the deepest topic string of the estate above it (the same chain)."""
        return self.prepared.trees.resolve(node, self.facts.resolves_as)

    def res_sub(self, sub: _Sub) -> Resolution:
        return self.prepared.trees.at(sub.sub.node).resolve_pattern(sub.prefix)

    def _resolved(self) -> Resolved:
        res = self.res_t(self.pub.from_node)
        obj = res.object
        return Resolved(
            node=self.pub.from_node,
            object=obj.name if obj is not None else None,
            topicstr=obj.topicstr if obj is not None else None,
            cluster=res.cluster or None,
            clroute=str(res.clroute) if res.clustered else None,
        )

    def host_choice(self, node: str, res: Resolution) -> HostChoice | None:
        """The topic host ``node`` sends T to when it publishes or relays into a TOPICHOST cluster."""
        if node not in self._choices:
            self._choices[node] = self.prepared.choose_host(node, res, self.failures)
        return self._choices[node]

    # -- flows

    @cached_property
    def base_holders(self) -> _Holders:
        return self.facts.holders(self.gone, True)

    @cached_property
    def flow(self) -> _Flow:
        return _Flower(self, self.base_holders, True, None).run()

    @cached_property
    def flow_all_scopes(self) -> _Flow:
        """Counterfactual: every PUBSCOPE/SUBSCOPE (objects and subscriptions) ALL."""
        return _Flower(self, self.facts.holders(self.gone, False), False, None).run()

    def flow_with_exact(self, node: str) -> _Flow:
        """Counterfactual: an exact subscription on T at ``node`` besides the real ones."""
        if node not in self._cf_exact:
            exact = self.prepared.spread(_Source(node, tuple(levels(self.topic, MQ))), True)
            self._cf_exact[node] = _Flower(self, self.base_holders.with_source(exact), True, None).run()
        return self._cf_exact[node]

    @cached_property
    def publisher_choice(self) -> HostChoice | None:
        """The publisher's topic host choice, when it is a non-host sending a TOPICHOST topic out (§5.3)."""
        node = self.pub.from_node
        res = self.res_t(node)
        if (
            not res.clustered
            or res.clroute != ClRoute.TOPICHOST
            or node in res.hosts
            or res.pubscope == Scope.QMGR
            or not self.prepared.index.is_member(node, res.cluster)
        ):
            return None
        return self.host_choice(node, res)

    @cached_property
    def alternative_flows(self) -> list[_Flow]:
        """One flow per other host sharing the publications (§9 topic host choice, step 4)."""
        choice = self.publisher_choice
        others = choice.others if choice is not None else ()
        return [_Flower(self, self.base_holders, True, h).run() for h in others]

    # -- the answer

    def run(self) -> _Routed:
        if self.failures.offline or self.failures.down:
            reach = self.ladder.reach
            outcomes = [(s.sub, reach(s.sub, lambda s=s: self._reach(s))) for s in self.matching]  # type: ignore[misc]
        elif self.flat and self._clear_of_hierarchy():
            outcomes = self._flat_reach()
        else:  # ``Ladder.reach``'s first steps read only those failures: straight to reachability
            outcomes = [(s.sub, self._reach(s)) for s in self.matching]
        if self.detail:
            self._for_readers()
        e = self.explanation
        warnings = [(w.code, w.message) for w in e.warnings]
        routed = _Routed(e.resolved, outcomes, warnings, e.topic_hosts, self.detail)
        if self.prepared.topichost_joins:
            routed.flagged = self.flagged()
        return routed

    def flagged(self) -> dict[frozenset[str], Unsupported]:
        """The hierarchy links IBM does not support for this topic (``unsupported.topichost_joins``):
        those joining a cluster to a queue manager outside it where, at the member end, T resolves to a
        topic-host routed object of that cluster."""
        out: dict[frozenset[str], Unsupported] = {}
        for ends, joins in self.prepared.topichost_joins.items():
            for join in joins:
                res = self.res_t(join.inside)
                point = res.cluster_point
                if res.cluster == join.cluster and res.clroute == ClRoute.TOPICHOST and point is not None:
                    out[ends] = unsupported_delivery(join, point.topicstr)
                    break
        return out

    def _for_readers(self) -> None:
        """Topic hosts and warnings (``detail`` only)."""
        if self.failures.node_down(self.pub.from_node):
            self._literal_wildcard()
            return
        choice = self.publisher_choice
        if choice is not None:
            self.explanation.topic_hosts = list(choice.hosts)
        self._warnings()

    @property
    def flat(self) -> bool:
        """The usual question of the Spark job: nothing failed, no FORCE object, no topic object with
        SUBSCOPE(QMGR) or WILDCARD(BLOCK), no ``detail``, and (``_clear_of_hierarchy``) no hierarchy
        link where the publication goes. A copy then goes publisher -> (topic host ->) the queue
        managers that sent it a proxy, and ``_flat_reach`` finds each matching subscription's outcome
        without a flow."""
        prepared, failures = self.prepared, self.failures
        return not (
            self.detail
            or failures.down
            or failures.links_down
            or failures.offline
            or prepared._force
            or prepared.any_subscope_qmgr
            or prepared.any_block
        )

    def _clear_of_hierarchy(self) -> bool:
        """No hierarchy link where a ``flat`` question's publication can go: the publisher has none, and
        neither has any member of the cluster the topic resolves to at the publisher (so no copy leaves
        that cluster, and no proxy is relayed into it from a hierarchy). An estate that mixes clusters
        and hierarchies keeps the flat path for the publications of its cluster-only parts."""
        neighbours = self.prepared._neighbours
        if not neighbours:
            return True
        pub = self.pub.from_node
        if pub in neighbours:
            return False
        cluster = self.res_t(pub).cluster
        return not cluster or not self.prepared.cluster_in_hierarchy(cluster)

    def _flat_reach(self) -> list[tuple[Subscription, Arrival | Miss]]:
        """``_reach`` of every matching subscription in a ``flat`` question: the same outcomes as the flow's
        (``_Flower._forwards``: the publisher sends into its cluster, or to the topic host workload
        management chooses, which sends on), made from the candidates' cluster and targets directly.
        A queue manager's ``Arrival`` is made once for all its subscriptions; a miss is told apart by the
        counterfactual flows as usual (``_no_copy``)."""
        pub = self.pub.from_node
        relay, cluster, before = self._flat_relay()
        made: dict[str, Arrival] = {pub: Arrival((pub,), ()), before.path[-1]: before}
        reached: set[str] = set()
        if relay:
            qmgr, kept, sub_into = _SUB_QMGR, self.prepared.into_slots(), self.prepared._sub_into
            neighbours = self.prepared._neighbours
            for s in self.facts.candidates:  # who sent ``relay`` a proxy over ``cluster`` (``holders``)
                if s.sub.subscope == qmgr:
                    continue  # its proxy never leaves its queue manager
                if s.sub.node in neighbours:
                    continue  # not a member of ``cluster`` (``_clear_of_hierarchy``); ``_sub_into`` is not for it
                both = kept[s.index]
                if both is None:
                    both = kept[s.index] = sub_into(s)
                into = both[1]  # with scopes
                if into is not None and into[0] == cluster and relay in into[1]:
                    reached.add(s.sub.node)
            reached.difference_update(before.path)
        out: list[tuple[Subscription, Arrival | Miss]] = []
        for s in self.matching:
            sub = s.sub
            node = sub.node
            outcome: Arrival | Miss | None
            if sub.subscope == _SUB_QMGR and node != pub:
                outcome = self._reach(s)
            elif (outcome := made.get(node)) is None:
                if node in reached:
                    path, hops = before.path, before.hops
                    hop = _new_hop((path[-1], node, _VIA_CLUSTER, cluster, None))
                    outcome = made[node] = _new_arrival(((*path, node), (*hops, hop), None, (), 0))
                else:
                    outcome = self._no_copy(s)
            out.append((sub, outcome))
        return out

    def _flat_relay(self) -> tuple[str, str, Arrival]:
        """Who sends the publication to the queue managers holding a proxy for it, over which cluster,
        and the copy that reaches it (``("", "", ...)``: nobody: the publication stays where it is)."""
        pub = self.pub.from_node
        start = Arrival((pub,), ())
        res = self.res_t(pub)
        cluster = res.cluster
        if not cluster or res.pubscope == Scope.QMGR or not self.prepared.index.is_member(pub, cluster):
            return "", "", start
        if res.clroute == ClRoute.DIRECT or pub in res.hosts:
            return pub, cluster, start
        choice = self.host_choice(pub, res)
        host = choice.chosen if choice is not None else None
        if host is None or host == pub:
            return "", "", start
        at_host = Arrival((pub, host), (Hop(pub, host, Via.TOPICHOST, cluster),))
        if self.res_t(host).pubscope == Scope.QMGR:
            return "", "", at_host  # the host keeps it
        return host, cluster, at_host

    def _reach(self, s: _Sub) -> Arrival | Miss:
        """MQ's reachability steps of the §9 precedence, in order."""
        node = s.sub.node
        prepared = self.prepared
        remote = node != self.pub.from_node
        if (
            remote
            and (s.sub.subscope == SubScope.QMGR or prepared.any_subscope_qmgr)
            and (why := self._own_scope_qmgr(s))
        ):
            return self._path_miss(s, Reason.SCOPE, why)
        if s.wildcard and prepared.any_block and (blocker := self._blocked(s)):
            return self._path_miss(s, Reason.WILDCARD_BLOCKED, blocker)
        arrival = self.flow.best(node)
        if arrival is None:
            return self._no_copy(s)
        if not self.detail:
            return Arrival(arrival.path, arrival.hops, arrival.stored_at)
        alternatives, more = self._alternatives(node, arrival)
        return Arrival(arrival.path, arrival.hops, arrival.stored_at, alternatives, more)

    def _path_miss(self, s: _Sub, reason: Reason, detail: str) -> Miss:
        """A miss of the reachability steps names a conflict in the subscriber's own tree, if any."""
        if not self.detail:
            return Miss(reason, "")
        found = self.prepared.trees.at(s.sub.node).conflicts_on(self.topic)
        if not found:
            return Miss(reason, detail)
        return Miss(reason, f"{detail} On {s.sub.node}, {found[0].describe()}.", _note(found[0]))

    def _own_scope_qmgr(self, s: _Sub) -> str | None:
        if s.sub.subscope == SubScope.QMGR:
            return (
                f"{_cap(s.label)} has SUBSCOPE(QMGR), so it receives only publications made on "
                f"{s.sub.node}, not this one from {self.pub.from_node}."
            )
        if not self.prepared.any_subscope_qmgr or not self.prepared.trees.at(s.sub.node).uses(
            "subscope", Scope.QMGR
        ):
            return None
        res = self.res_sub(s)
        if res.subscope == Scope.QMGR:
            return (
                f"{_cap(s.label)} resolves to {res.describe()}, whose subscription scope is QMGR, so it "
                f"receives only publications made on {s.sub.node}, not this one from {self.pub.from_node}."
            )
        return None

    def _blocked(self, s: _Sub) -> str | None:
        """§5.5: a WILDCARD(BLOCK) object at or above T's resolution and below the wildcard's fixed part."""
        if (
            not s.wildcard
            or not self.prepared.any_block
            or not self.prepared.trees.at(s.sub.node).uses("wildcard", Wildcard.BLOCK)
        ):
            return None
        depth = len(s.prefix)
        for obj in reversed(self.res_t(s.sub.node).chain):
            if obj.wildcard == Wildcard.BLOCK and len(levels(obj.topicstr, MQ)) > depth:
                return (
                    f"Topic object {obj.name} ('{obj.topicstr}') in the topic tree of {s.sub.node} has "
                    f"WILDCARD(BLOCK), so wildcard {s.label}, whose fixed part lies above it, receives "
                    f"nothing published under '{obj.topicstr}'."
                )
        return None

    def _no_copy(self, s: _Sub) -> Miss:
        """Told apart by the counterfactual flows (needed with or without ``detail``)."""
        node = s.sub.node
        if self.flow_all_scopes.reached(node):
            reason, sentence = Reason.SCOPE, self._scope_detail
        elif self.flow_with_exact(node).reached(node):
            reason, sentence = Reason.WILDCARD_ABOVE_CLUSTER, self._above_cluster_detail
        else:
            reason, sentence = Reason.NO_PATH, self._no_path_detail
        return self._path_miss(s, reason, sentence(s) if self.detail else "")

    def _alternatives(self, node: str, chosen: _Arrival) -> tuple[tuple[tuple[str, ...], ...], int]:
        """Through the other hosts sharing the publications, then other paths that also arrive
        (duplicates): the first ``MAX_ALTERNATIVES``, and how many more."""
        arrivals = self.flow.arrivals.get(node, [])
        if len(arrivals) < 2 and (node == self.pub.from_node or not self.alternative_flows):
            return (), 0  # no other path: the usual case, told without building any list
        out: list[tuple[str, ...]] = []
        if node != self.pub.from_node:
            for flow in self.alternative_flows:
                alt = flow.best(node)
                if alt is not None:
                    out.append(alt.path)
        out += [a.path for a in arrivals[1:]]
        unique = [p for p in dict.fromkeys(out) if p != chosen.path]
        return tuple(unique[:MAX_ALTERNATIVES]), max(0, len(unique) - MAX_ALTERNATIVES)

    # -- sentences

    def _scope_detail(self, s: _Sub) -> str:
        res = self.res_t(self.pub.from_node)
        if res.pubscope == Scope.QMGR:
            return (
                f"Topic '{self.topic}' resolves on {self.pub.from_node} to {res.describe()}, whose "
                f"publication scope is QMGR, so the publication never leaves {self.pub.from_node} for "
                f"{s.label}."
            )
        return (
            f"A publication or subscription scope of QMGR on the way keeps the publication from "
            f"{self.pub.from_node} (or the proxy subscription for it) from crossing to {s.sub.node}, so "
            f"{s.label} gets no copy."
        )

    def _above_cluster_detail(self, s: _Sub) -> str:
        node, pub = s.sub.node, self.pub.from_node
        res, at = self.res_sub(s), self.res_t(node)
        if res.clustered and at.clustered and res.cluster != at.cluster:
            return (
                f"Wildcard {s.label} resolves to {res.describe()}, so its proxy subscriptions go to cluster "
                f"{res.cluster} only, while '{self.topic}' resolves to {at.describe()}: no subscription on "
                f"{node} brings the publication from {pub}."
            )
        return (
            f"Wildcard {s.label} resolves to {res.describe()}, above the clustered point {at.describe()}, "
            f"so no proxy subscription for it leaves {node} and no other subscription there brings the "
            f"publication from {pub}."
        )

    def _no_path_detail(self, s: _Sub) -> str:
        node, pub = s.sub.node, self.pub.from_node
        res = self.res_t(pub)
        own = self.res_sub(s)
        is_member = self.prepared.index.is_member
        if not res.clustered:
            why = f"'{self.topic}' resolves on {pub} to {res.describe()}, which is not clustered"
        elif not is_member(pub, res.cluster):
            why = (
                f"'{self.topic}' resolves on {pub} to {res.describe()}, but {pub} is not a member of cluster "
                f"{res.cluster}, so its clustered topic reaches nobody"
            )
        elif not is_member(node, res.cluster):
            why = f"{node} is not a member of {res.cluster}, the cluster of '{self.topic}' on {pub}"
        elif own.clustered and not is_member(node, own.cluster):
            why = (
                f"{s.label} resolves to {own.describe()}, but {node} is not a member of cluster "
                f"{own.cluster}, so no proxy subscription for it leaves {node}"
            )
        else:
            why = f"no proxy subscription from {node} for '{self.topic}' reaches {pub} in {res.cluster}"
        return (
            f"No cluster or hierarchy path carries the publication from {pub} to {s.label}: {why}, "
            f"and {self._hierarchy_there(node, res.cluster if res.clustered else '')}."
        )

    def _hierarchy_group(self, node: str) -> tuple[set[str], set[str]]:
        """The queue managers hierarchy links join to ``node`` (itself included), and those links."""
        prepared = self.prepared
        seen, todo, links = {node}, [node], set()
        while todo:
            at = todo.pop()
            for other in prepared.neighbours(at):
                links.add(prepared.hierarchy_name(at, other))
                if other not in seen:
                    seen.add(other)
                    todo.append(other)
        return seen, links

    def _hierarchy_there(self, node: str, cluster: str) -> str:
        """The hierarchy links around ``node`` and where they end (a NO_PATH sentence's last clause);
        when the subscriber has none but the publisher has, where the publisher's lead and why the
        publication goes no further from there."""
        prepared = self.prepared
        seen, links = self._hierarchy_group(node)
        pub = self.pub.from_node
        if not links and prepared.neighbours(pub):
            return self._hierarchy_from(pub, node)
        if not links:
            return "no hierarchy link leads there either"
        ends = sorted(seen - {node})
        text = (
            f"the hierarchy links there ({', '.join(sorted(links))}) lead from {node} to "
            f"{', '.join(ends[:-1]) + ' and ' + ends[-1] if len(ends) > 1 else ends[0]} only"
        )
        if cluster and not any(prepared.index.is_member(n, cluster) for n in seen):
            text += f", none of them a member of cluster {cluster}"
        return text

    def _hierarchy_from(self, pub: str, node: str) -> str:
        """Where the hierarchy links from the publisher lead, and at each queue manager there, why the
        publication does not go on into a cluster of ``node``'s: T resolves there to no cluster, to a
        cluster ``node`` is not a member of, or to one no proxy from ``node`` reaches it in."""
        seen, links = self._hierarchy_group(pub)
        is_member = self.prepared.index.is_member
        reasons: list[str] = []
        for relay in sorted(seen - {pub}):
            res = self.res_t(relay)
            if not res.clustered or not is_member(relay, res.cluster):
                reasons.append(
                    f"on {relay} '{self.topic}' resolves to {res.describe()}, which is not clustered"
                )
            elif not is_member(node, res.cluster):
                theirs = sorted(self.prepared.index.clusters_of(node))
                reasons.append(
                    f"on {relay} '{self.topic}' resolves to {res.describe()}, and {node} is not a member of "
                    f"cluster {res.cluster}" + (f" (it is in {', '.join(theirs)})" if theirs else "")
                )
            else:
                reasons.append(
                    f"on {relay} '{self.topic}' resolves to {res.describe()}, but no proxy subscription from "
                    f"{node} for it reaches {relay} in {res.cluster}"
                )
        shown = "; ".join(reasons[:3]) + (f"; and {len(reasons) - 3} more" if len(reasons) > 3 else "")
        return f"the hierarchy links from {pub} ({', '.join(sorted(links))}) go no further: {shown}"

    # -- warnings

    def _warnings(self) -> None:
        self._literal_wildcard()
        self._order_not_preserved()
        self._no_subscribers_at_host()
        self._duplicates()
        self._conflicts()
        self._no_full_repository()

    def _literal_wildcard(self) -> None:
        if any(lv in ("#", "+") for lv in levels(self.topic, MQ)):
            self.explanation.warn(
                WarningCode.LITERAL_WILDCARD,
                f"The publication topic '{self.topic}' contains a whole-level '#' or '+', which MQ treats as "
                "an ordinary character in a topic string, not as a wildcard.",
            )

    def _order_not_preserved(self) -> None:
        choice = self.publisher_choice
        if choice is not None and len(choice.sharing) >= 2:
            res = self.res_t(self.pub.from_node)
            self.explanation.warn(
                WarningCode.ORDER_NOT_PRESERVED,
                f"{self.pub.from_node} sends each publication on '{self.topic}' to one of the topic hosts "
                f"{', '.join(sorted(choice.sharing))} of cluster {res.cluster} in turn (in proportion to "
                "their CLWLWGHT), so the order of messages is not preserved across them.",
            )

    def _no_subscribers_at_host(self) -> None:
        for host, forwarded in sorted(self.flow.host_forwards.items()):
            has_local = any(s.sub.node == host for s in self.matching)
            if forwarded == 0 and not has_local:
                self.explanation.warn(
                    WarningCode.NO_SUBSCRIBERS_AT_HOST,
                    f"The publication on '{self.topic}' is sent to topic host {host} although no "
                    "subscription there or elsewhere wants it: topic host routing always forwards to a host.",
                )

    def _duplicates(self) -> None:
        """One warning naming every queue manager the publication reaches along two or more paths, and
        the loops that make them (§4.3: a hierarchy link beside a cluster that already joins its ends)."""
        twice = [
            (node, arrivals) for node, arrivals in sorted(self.flow.arrivals.items()) if len(arrivals) > 1
        ]
        if twice:
            node, arrivals = twice[0]
            example = " and ".join(_describe_path(a) for a in arrivals[:2])
            self.explanation.warn(
                WarningCode.DUPLICATES_POSSIBLE,
                f"{self._loops(twice)}The publication can reach {', '.join(n for n, _ in twice)} along more "
                f"than one path (for {node}: {example}); MQ discards looping copies, but subscribers can see "
                "duplicates.",
            )

    def _loops(self, twice: list[tuple[str, list[_Arrival]]]) -> str:
        """``The hierarchy link B->A lies beside cluster C1, which already joins A and B (a loop, §4.3). ``
        for each such link on the paths of the queue managers reached twice (``''``: none)."""
        hops = [h for _, arrivals in twice for a in arrivals for h in a.hops]
        clusters = sorted({h.name for h in hops if h.via is not Via.HIERARCHY})
        is_member = self.prepared.index.is_member
        loops = sorted(
            {
                (h.name, cluster, *sorted((h.from_node, h.to_node)))
                for h in hops
                if h.via is Via.HIERARCHY
                for cluster in clusters
                if is_member(h.from_node, cluster) and is_member(h.to_node, cluster)
            }
        )
        return "".join(
            f"The hierarchy link {link} lies beside cluster {cluster}, which already joins {a} and {b}: a "
            "loop (semantics §4.3). "
            for link, cluster, a, b in loops
        )

    def _touched(self) -> list[str]:
        """Queue managers the publication reaches, through any host it may be sent to."""
        touched = set(self.flow.arrivals)
        for flow in self.alternative_flows:
            touched |= set(flow.arrivals)
        return sorted(n for n in touched if self.prepared.is_mq(n))

    def _conflicts(self) -> None:
        seen: dict[str, list[str]] = defaultdict(list)
        for node in self._touched():
            for conflict in self.prepared.trees.at(node).conflicts_on(self.topic):
                seen[conflict.describe()].append(node)
        for text, nodes in sorted(seen.items()):
            where = ", ".join(nodes)
            self.explanation.warn(WarningCode.CONFLICT, f"On {where}, {text}.")

    def _no_full_repository(self) -> None:
        """§9: a cluster the publication is published into or travels through, without a full repository."""
        clusters: set[str] = set()
        res = self.res_t(self.pub.from_node)
        if res.clustered and self.prepared.index.is_member(self.pub.from_node, res.cluster):
            clusters.add(res.cluster)
        for flow in (self.flow, *self.alternative_flows):
            for arrivals in flow.arrivals.values():
                clusters.update(h.name for a in arrivals for h in a.hops if h.via is not Via.HIERARCHY)
        for cluster in sorted(c for c in clusters if not self.prepared.has_full_repository(c)):
            self.explanation.warn(
                WarningCode.NO_FULL_REPOSITORY,
                f"Cluster {cluster} has no full repository in the model; explain routes as if it had one (a "
                "model is often part of an estate), but without one MQ would not pass on its clustered "
                "topics and proxy subscriptions.",
            )
