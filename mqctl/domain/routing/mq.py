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

The module holds the prepared topology and the engine; its parts live beside it: ``mq_subs`` (what
routing reads off a subscription's pattern), ``mq_proxies`` (step 1 and the per-topic facts: the first
part of ``MqPrepared``) and ``mq_flow`` (step 2).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from functools import cached_property, partial

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
)
from mqctl.domain.model import (
    ClRoute,
    Dialect,
    Scope,
    SubScope,
    Subscription,
    TopicObject,
    Topology,
    Wildcard,
)
from mqctl.domain.resolution import Conflict, Resolution
from mqctl.domain.routing.cache import BoundedCache
from mqctl.domain.routing.ladder import Arrival, Ladder, Miss, Rows, Verdicts, judge
from mqctl.domain.routing.mq_flow import Flow, FlowArrival, Flower, describe_path
from mqctl.domain.routing.mq_proxies import Holders, ProxyIndex, Source
from mqctl.domain.routing.mq_subs import Sub
from mqctl.domain.routing.totals import Tally, TallyPlan
from mqctl.domain.routing.workload import ClusterChannels, HostChoice, choose_host
from mqctl.domain.topics import levels
from mqctl.domain.unsupported import (
    TopichostJoin,
    first_unsupported,
    topichost_joins,
    unsupported_delivery,
)

__all__ = ["MqPrepared", "explain_mq", "tally_mq", "route_mq"]

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


def tally_mq(
    prepared: MqPrepared, publication: Publication, failures: Failures, tally: Tally, messages: int, size: int
) -> None:
    """``route_mq``'s rows added to ``tally`` (``routing.totals``)."""
    routed = prepared.routed(publication, failures, False)
    routed.tally(tally, publication, failures, prepared.verdicts, messages, size)


@dataclass(slots=True)
class _Routed:
    """The answer for one (publisher, topic, failures) up to the selectors of the subscriptions (the
    reachability steps of the §9 precedence, ``resolved``, warnings, topic hosts): never mutated but
    for what is made once from the outcomes when first asked (``tally_plan``, ``arrived``)."""

    resolved: Resolved
    outcomes: list[tuple[Subscription, Arrival | Miss | None]]
    """Each matching subscription's outcome; None (with ``relayed``) for a copy relayed on over one hop."""
    warnings: list[tuple[WarningCode, str]]
    topic_hosts: list[TopicHost]
    detail: bool
    flagged: dict[frozenset[str], Unsupported] = field(default_factory=dict)
    """Hierarchy links (their two ends) IBM does not support for this topic (``_Engine.flagged``): a
    delivery crossing one says so. Empty in every estate without such a link."""
    tally_plan: TallyPlan | None = None
    """``tally``'s layout of the outcomes, made by the first ``tally`` that can use it."""
    relayed: tuple[Arrival, str, Via] | None = None
    """The flat path's (``before``, ``cluster``, ``via``): an outcome None is a copy that ``before``'s last
    queue manager sends on over ``cluster`` to the subscription's own (``_Engine._flat_reach``), left as
    columns for ``tally``; ``decided`` makes its ``Arrival`` for the readers that need one."""
    arrived: list[tuple[Subscription, Arrival | Miss]] | None = None

    @property
    def decided(self) -> list[tuple[Subscription, Arrival | Miss]]:
        """The outcomes, each relayed copy's ``Arrival`` made (one per queue manager, once)."""
        if self.relayed is None:
            return self.outcomes  # type: ignore[return-value]
        if self.arrived is None:
            self.arrived = _arrivals(self.outcomes, *self.relayed)
        return self.arrived

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
        ladder.record(ladder.rows(self.decided, verdicts.of(publication.properties, publication.headers)))
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
        return ladder.rows(self.decided, verdicts.of(publication.properties, publication.headers))

    def tally(
        self,
        tally: Tally,
        publication: Publication,
        failures: Failures,
        verdicts: Verdicts,
        messages: int,
        size: int,
    ) -> None:
        """``rows`` added to ``tally``: without ``detail`` and offline subscribers, through the
        ``TallyPlan`` made once for every publication that shares the outcomes (only the selectors of
        the subscriptions reached are judged per publication)."""
        known = verdicts.of(publication.properties, publication.headers)
        if self.detail or failures.offline:
            tally.add(publication.from_node, self.rows(publication, failures, verdicts), messages, size)
            return
        if self.tally_plan is None:
            self.tally_plan = TallyPlan(self.outcomes, self.relayed)
        self.tally_plan.add(tally, publication.from_node, judge(publication, known), messages, size)


def _arrivals(
    outcomes: list[tuple[Subscription, Arrival | Miss | None]], before: Arrival, cluster: str, via: Via
) -> list[tuple[Subscription, Arrival | Miss]]:
    """``outcomes`` with each relayed copy (None) made an ``Arrival``: ``before`` and one more hop over
    ``cluster`` to the subscription's queue manager, one per queue manager."""
    made: dict[str, Arrival] = {}
    path, hops = before.path, before.hops
    last = path[-1]
    out: list[tuple[Subscription, Arrival | Miss]] = []
    for sub, outcome in outcomes:
        if outcome is None:
            node = sub.node
            outcome = made.get(node)
            if outcome is None:
                hop = _new_hop((last, node, via, cluster, None))
                outcome = made[node] = _new_arrival(((*path, node), (*hops, hop), None, (), 0))
        out.append((sub, outcome))
    return out


def _cap(text: str) -> str:
    """Sentence case for a phrase that starts a sentence."""
    return text[:1].upper() + text[1:]


_SUB_QMGR = SubScope.QMGR  # read once per question, not per subscription
_VIA_CLUSTER = Via.CLUSTER
_new_hop = partial(tuple.__new__, Hop)
_new_arrival = partial(tuple.__new__, Arrival)
"""``Hop(...)`` and ``Arrival(...)`` from all their items, without the named tuple's ``__new__`` in Python
(``_Engine._flat_reach`` makes one of each per queue manager reached)."""


# --- the prepared topology -------------------------------------------------------------------------


class MqPrepared(ProxyIndex):
    """The MQ side of a topology, indexed once for any number of publications (see the module docstring):
    ``ProxyIndex``'s indexes, plus the cluster channels and the caches of the answers.

    ``cache_size`` bounds the number of topics whose publisher-independent work is kept.
    """

    def __init__(self, topology: Topology, cache_size: int) -> None:
        super().__init__(topology, cache_size)
        self.channels = ClusterChannels(topology)
        self._full = {m.cluster for m in topology.memberships if m.full_repository}
        self.any_subscope_qmgr = any(o.subscope == Scope.QMGR for o in topology.topics)
        """Some topic object has SUBSCOPE(QMGR): else no tree needs asking (``TopicTree.uses``)."""
        self.any_block = any(o.wildcard == Wildcard.BLOCK for o in topology.topics)
        """Some topic object has WILDCARD(BLOCK)."""
        self._choices: dict[tuple[str, tuple[str, ...], str, Failures], HostChoice | None] = {}
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

    def has_full_repository(self, cluster: str) -> bool:
        return cluster in self._full

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
        self.gone = (
            frozenset(s.key for s in self.facts.candidates if not s.sub.durable and s.key in failures.offline)
            if failures.offline
            else frozenset()
        )
        """Non-durable subscriptions whose subscriber is offline: they no longer exist, nor their proxies."""
        self.explanation = Explanation(publication, self._resolved())
        self.hops_can_fail = bool(failures.down or failures.links_down)
        self.ladder = Ladder(self.explanation, failures, MQ, detail)
        self._cf_exact: dict[str, Flow] = {}
        self._choices: dict[str, HostChoice | None] = {}

    # -- shared lookups

    def res_t(self, node: str) -> Resolution:
        """T at ``node``, resolved as the deepest topic string of the estate above it (the same chain)."""
        return self.prepared.trees.resolve(node, self.facts.resolves_as)

    def res_sub(self, sub: Sub) -> Resolution:
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
    def base_holders(self) -> Holders:
        return self.facts.holders(self.gone, True)

    @cached_property
    def flow(self) -> Flow:
        return Flower(self, self.base_holders, True, None).run()

    @cached_property
    def flow_all_scopes(self) -> Flow:
        """Counterfactual: every PUBSCOPE/SUBSCOPE (objects and subscriptions) ALL."""
        return Flower(self, self.facts.holders(self.gone, False), False, None).run()

    def flow_with_exact(self, node: str) -> Flow:
        """Counterfactual: an exact subscription on T at ``node`` besides the real ones."""
        if node not in self._cf_exact:
            exact = self.prepared.spread(Source(node, tuple(levels(self.topic, MQ))), True)
            self._cf_exact[node] = Flower(self, self.base_holders.with_source(exact), True, None).run()
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
    def alternative_flows(self) -> list[Flow]:
        """One flow per other host sharing the publications (§9 topic host choice, step 4)."""
        choice = self.publisher_choice
        others = choice.others if choice is not None else ()
        return [Flower(self, self.base_holders, True, h).run() for h in others]

    # -- the answer

    def run(self) -> _Routed:
        relayed: tuple[Arrival, str, Via] | None = None
        outcomes: list[tuple[Subscription, Arrival | Miss | None]]
        if self.failures.offline or self.failures.down:
            reach = self.ladder.reach
            outcomes = [(s.sub, reach(s.sub, lambda s=s: self._reach(s))) for s in self.facts.matching]  # type: ignore[misc]
        elif self.flat and self._clear_of_hierarchy():
            outcomes, relayed = self._flat_reach()
        else:  # ``Ladder.reach``'s first steps read only those failures: straight to reachability
            outcomes = [(s.sub, self._reach(s)) for s in self.facts.matching]
        if self.detail:
            self._for_readers()
        e = self.explanation
        warnings = [(w.code, w.message) for w in e.warnings]
        routed = _Routed(e.resolved, outcomes, warnings, e.topic_hosts, self.detail, relayed=relayed)
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

    def _flat_reach(
        self,
    ) -> tuple[list[tuple[Subscription, Arrival | Miss | None]], tuple[Arrival, str, Via] | None]:
        """``_reach`` of every matching subscription in a ``flat`` question: the same outcomes as the flow's
        (``Flower._forwards``: the publisher sends into its cluster, or to the topic host workload
        management chooses, which sends on), made from the candidates' cluster and targets directly.
        A queue manager's ``Arrival`` is made once for all its subscriptions; a miss is told apart by the
        counterfactual flows as usual (``_no_copy``). A copy the relay sends on over ``cluster`` is left
        None, with (``before``, ``cluster``, ``via``): ``_Routed.decided`` makes its ``Arrival`` for a
        reader, ``TallyPlan`` reads its row and link without one."""
        pub = self.pub.from_node
        relay, cluster, before = self._flat_relay()
        made: dict[str, Arrival] = {pub: Arrival((pub,), ()), before.path[-1]: before}
        reached: set[str] = set()
        prepared = self.prepared
        subs, made_subs = prepared.subs.subs, prepared.subs  # columns read by place; a ``Sub`` made if needed
        if relay:
            qmgr, kept = _SUB_QMGR, prepared.into_slots()
            neighbours = prepared._neighbours
            for i in self.facts.ids:  # who sent ``relay`` a proxy over ``cluster`` (``holders``)
                sub = subs[i]
                if sub.subscope == qmgr:
                    continue  # its proxy never leaves its queue manager
                node = sub.node
                if node in neighbours:
                    continue  # not a member of ``cluster`` (``_clear_of_hierarchy``); ``_sub_into`` is not for it
                both = kept[i]
                if both is None:
                    both = kept[i] = prepared._sub_into(made_subs[i])
                into = both[1]  # with scopes
                if into is not None and into[0] == cluster and relay in into[1]:
                    reached.add(node)
            reached.difference_update(before.path)
        out: list[tuple[Subscription, Arrival | Miss | None]] = []
        for i in self.facts.matching_ids:
            sub = subs[i]
            node = sub.node
            outcome: Arrival | Miss | None
            if sub.subscope == _SUB_QMGR and node != pub:
                outcome = self._reach(made_subs[i])
            elif (outcome := made.get(node)) is None and node not in reached:
                outcome = self._no_copy(made_subs[i])
            out.append((sub, outcome))
        return out, (before, cluster, _VIA_CLUSTER)

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

    def _reach(self, s: Sub) -> Arrival | Miss:
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

    def _path_miss(self, s: Sub, reason: Reason, detail: str) -> Miss:
        """A miss of the reachability steps names a conflict in the subscriber's own tree, if any."""
        if not self.detail:
            return Miss(reason, "")
        found = self.prepared.trees.at(s.sub.node).conflicts_on(self.topic)
        if not found:
            return Miss(reason, detail)
        return Miss(reason, f"{detail} On {s.sub.node}, {found[0].describe()}.", _note(found[0]))

    def _own_scope_qmgr(self, s: Sub) -> str | None:
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

    def _blocked(self, s: Sub) -> str | None:
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

    def _no_copy(self, s: Sub) -> Miss:
        """Told apart by the counterfactual flows (needed with or without ``detail``)."""
        node = s.sub.node
        if self.flow_all_scopes.reached(node):
            reason, sentence = Reason.SCOPE, self._scope_detail
        elif self.flow_with_exact(node).reached(node):
            reason, sentence = Reason.WILDCARD_ABOVE_CLUSTER, self._above_cluster_detail
        else:
            reason, sentence = Reason.NO_PATH, self._no_path_detail
        return self._path_miss(s, reason, sentence(s) if self.detail else "")

    def _alternatives(self, node: str, chosen: FlowArrival) -> tuple[tuple[tuple[str, ...], ...], int]:
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

    def _scope_detail(self, s: Sub) -> str:
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

    def _above_cluster_detail(self, s: Sub) -> str:
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

    def _no_path_detail(self, s: Sub) -> str:
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
            has_local = any(s.sub.node == host for s in self.facts.matching)
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
            example = " and ".join(describe_path(a) for a in arrivals[:2])
            self.explanation.warn(
                WarningCode.DUPLICATES_POSSIBLE,
                f"{self._loops(twice)}The publication can reach {', '.join(n for n, _ in twice)} along more "
                f"than one path (for {node}: {example}); MQ discards looping copies, but subscribers can see "
                "duplicates.",
            )

    def _loops(self, twice: list[tuple[str, list[FlowArrival]]]) -> str:
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
