"""The MQ topic namespace across clusters: conflicts, shadows, nesting, and the subscriptions they hurt.

Conflicts are those of ``resolution.find_conflicts`` / ``find_interferences`` (semantics §3, reference
001), seen at each queue manager through its own topic tree: a queue manager sees the clustered objects
of every cluster it belongs to, and its own plain objects hide clustered ones of the same TOPICSTR or
name (§9). Queue managers in the same clusters see the same clustered objects, so conflicts are found
once per set of clusters and then checked against each queue manager's own objects.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from mqctl.domain.explanation import Publication, Reason
from mqctl.domain.model import Dialect, Scope, SubScope, Subscription, TopicObject, Wildcard, WSchema
from mqctl.domain.resolution import (
    Conflict,
    ConflictKind,
    chain_topicstrs,
    differing_attributes,
    find_conflicts,
    find_interferences,
)
from mqctl.domain.topics import (
    char_prefix_levels,
    fixed_prefix_levels,
    has_wildcards,
    intersects,
    levels,
    widen_char_pattern,
)
from mqctl.domain.validation import probe
from mqctl.domain.validation.catalogue import BY_CODE
from mqctl.domain.validation.facts import Facts
from mqctl.domain.validation.findings import ClusterRef, Finding, finding, listing

MQ = Dialect.MQ
ACROSS_CLUSTERS = (ConflictKind.SAME_TOPICSTR, ConflictKind.SAME_NAME)


@dataclass(frozen=True, slots=True)
class Seen:
    """A conflict and the queue managers whose topic trees hold it."""

    conflict: Conflict
    qmgrs: tuple[str, ...]


def _plain_keys(facts: Facts, qmgr: str) -> tuple[set[str], set[str]]:
    """TOPICSTRs and names of the queue manager's own non-clustered objects: these hide clustered ones."""
    plain = facts.clusters.plain(qmgr)
    return {o.topicstr for o in plain}, {o.name for o in plain}


def _visible(facts: Facts, qmgr: str, objects: Sequence[TopicObject]) -> list[TopicObject]:
    strs, names = _plain_keys(facts, qmgr)
    return [o for o in objects if o.topicstr not in strs and o.name not in names]


def _gather(found: Iterable[tuple[Conflict, str]]) -> list[Seen]:
    by_key: dict[tuple[object, ...], tuple[Conflict, list[str]]] = {}
    for conflict, qmgr in found:
        key = (conflict.kind, tuple((o.node, o.name) for o in conflict.objects))
        by_key.setdefault(key, (conflict, []))[1].append(qmgr)
    return [Seen(c, tuple(sorted(set(q)))) for c, q in by_key.values()]


def namespace_conflicts(facts: Facts) -> list[Seen]:
    """Conflicts between clusters, on the queue managers that are members of both (reference 001)."""

    def build() -> list[Seen]:
        found: list[tuple[Conflict, str]] = []
        for clusters, qmgrs in facts.overlap_groups.items():
            shared = [c for c in find_conflicts(facts.clustered_in(clusters)) if c.kind in ACROSS_CLUSTERS]
            for conflict in shared:
                for qmgr in qmgrs:
                    visible = _visible(facts, qmgr, conflict.objects)
                    if len(visible) == len(conflict.objects):
                        found.append((conflict, qmgr))
                    else:
                        found += [(c, qmgr) for c in find_conflicts(visible) if c.kind in ACROSS_CLUSTERS]
        return _gather(found)

    return facts.memo("namespace_conflicts", build)


def namespace_conflict(facts: Facts) -> Iterator[Finding]:
    for seen in namespace_conflicts(facts):
        yield finding(
            BY_CODE["NAMESPACE_CONFLICT"],
            f"On {listing(seen.qmgrs)}, {seen.conflict.describe()}.",
            [
                *seen.conflict.objects,
                *(ClusterRef(c) for c in sorted({o.cluster for o in seen.conflict.objects})),
            ],
            nodes=seen.qmgrs,
        )


def attribute_conflict(facts: Facts) -> Iterator[Finding]:
    for cluster in sorted(facts.memberships):
        for conflict in find_conflicts(facts.clusters.clustered(cluster)):
            if conflict.kind is not ConflictKind.DIFFERENT_ATTRIBUTES:
                continue
            attrs = differing_attributes(conflict.objects)
            yield finding(
                BY_CODE["ATTRIBUTE_CONFLICT"],
                f"In cluster {cluster}, {conflict.describe()} (they differ in {listing(attrs)}).",
                [*conflict.objects, ClusterRef(cluster)],
            )


def local_shadows_cluster(facts: Facts) -> Iterator[Finding]:
    by_str: dict[str, dict[str, list[TopicObject]]] = {}
    by_name: dict[str, dict[str, list[TopicObject]]] = {}
    for cluster in facts.memberships:
        by_str[cluster], by_name[cluster] = defaultdict(list), defaultdict(list)
        for obj in facts.clusters.clustered(cluster):
            by_str[cluster][obj.topicstr].append(obj)
            by_name[cluster][obj.name].append(obj)
    for qmgr in sorted({m.node for m in facts.topology.memberships}):
        clusters = sorted(facts.clusters.clusters_of(qmgr))
        for local in facts.clusters.plain(qmgr):
            same = [
                o
                for c in clusters
                for o in (*by_str[c].get(local.topicstr, ()), *by_name[c].get(local.name, ()))
                if o.node != qmgr
            ]
            if same:
                hidden = sorted(
                    {(o.node, o.name): o for o in same}.values(), key=lambda o: (o.cluster, o.node, o.name)
                )
                what = listing(f"{o.name} ('{o.topicstr}', cluster {o.cluster}, on {o.node})" for o in hidden)
                alone = (
                    f" (its cluster {local.cluster} is not one of {qmgr}'s, so it is local to {qmgr})"
                    if local.cluster
                    else ""
                )
                yield finding(
                    BY_CODE["LOCAL_SHADOWS_CLUSTER"],
                    f"Local topic object {local.name} ('{local.topicstr}') on {qmgr}{alone} hides clustered "
                    f"{what}, so on {qmgr} that branch is not clustered.",
                    [local, *hidden],
                )


def nested_cluster_topics(facts: Facts) -> Iterator[Finding]:
    found: list[tuple[Conflict, str]] = []
    for clusters, qmgrs in facts.overlap_groups.items():
        for interference in find_interferences(facts.clustered_in(clusters)):
            for qmgr in qmgrs:
                if len(_visible(facts, qmgr, interference.objects)) == 2:
                    found.append((interference, qmgr))
    for seen in _gather(found):
        above, below = seen.conflict.objects
        yield finding(
            BY_CODE["NESTED_CLUSTER_TOPICS"],
            f"On {listing(seen.qmgrs)}, clustered topic {above.name} ('{above.topicstr}', cluster "
            f"{above.cluster}, on {above.node}) lies above {below.name} ('{below.topicstr}', cluster "
            f"{below.cluster}, on {below.node}): subscriptions there resolve to one cluster point only.",
            [above, below, ClusterRef(above.cluster), ClusterRef(below.cluster)],
            nodes=seen.qmgrs,
        )


# --- what the conflicts do to subscriptions ---------------------------------------------------------


def _under(prefix: Sequence[str], topicstr: str) -> bool:
    """The levels ``prefix`` lie at or below the TOPICSTR (level by level)."""
    top = levels(topicstr, MQ)
    return len(prefix) >= len(top) and list(prefix[: len(top)]) == top


def _prefix(sub: Subscription) -> list[str]:
    if sub.wschema is WSchema.CHAR:
        return char_prefix_levels(sub.topicstr)
    return fixed_prefix_levels(sub.topicstr, MQ)


def conflict_affects_subscribers(facts: Facts) -> Iterator[Finding]:
    """Asked of the engine: publications under each dropped definition, from its own queue manager.

    A queue manager seeing the conflict routes by the definition it kept; a member of the other
    cluster still publishes by its own definition. The engine is given every subscription the topic
    could reach (wildcards ride on the copies others bring, semantics §5.5); a subscription on a queue
    manager seeing the conflict, at or below the dropped branch, that it leaves without a copy is named
    with the publisher it misses.
    """
    for seen in namespace_conflicts(facts):
        winner = seen.conflict.winner
        publishers = {
            (o.cluster, o.topicstr): o for o in sorted(seen.conflict.losers, key=lambda o: o.node)[::-1]
        }
        for loser in publishers.values():
            missed = _missed(facts, loser, seen.qmgrs)
            for qmgr in seen.qmgrs:
                if missed.get(qmgr):
                    yield _affected(qmgr, winner, loser, missed[qmgr])


Missed = list[tuple[Subscription, Reason]]
"""Subscriptions that get no copy, each with the reason explain gives."""


def _missed(facts: Facts, loser: TopicObject, qmgrs: Sequence[str]) -> dict[str, Missed]:
    """Queue manager -> its subscriptions under the loser's branch that get no copy of its publications.

    The engine is given the subscriptions on the topic of these queue managers and of the queue
    managers joined to them by hierarchy links: only those bring copies to them (a wildcard rides on
    the copies its own queue manager's subscriptions, or a hierarchy relay, bring: semantics §5.5).
    """
    by_topic: dict[str, list[Subscription]] = defaultdict(list)
    for qmgr in qmgrs:
        for sub in facts.subscriptions_by_node.get(qmgr, ()):
            topic = probe.example_topic(sub.topicstr, MQ) if sub.wschema is WSchema.TOPIC else None
            if topic is not None and _under(_prefix(sub), loser.topicstr):
                by_topic[topic].append(sub)
    near = {n for q in qmgrs for n in facts.hierarchy_group(q)}
    out: dict[str, Missed] = defaultdict(list)
    for topic, wanting in sorted(by_topic.items()):
        subs = [s for s in facts.mq_subscriptions_for(topic) if s.node in near]
        answer = probe.ask(probe.mq_slice(facts.topology, subs, topic), Publication(loser.node, topic))
        reasons = {(n.node, n.subscription): n.reason for n in answer.not_delivered}
        for sub in wanting:
            reason = reasons.get((sub.node, sub.name))
            if reason is not None and reason is not Reason.SELECTOR_FALSE:
                out[sub.node].append((sub, reason))
    return {qmgr: sorted(subs, key=lambda pair: pair[0].name) for qmgr, subs in out.items()}


def _affected(qmgr: str, winner: TopicObject | None, loser: TopicObject, missed: Missed) -> Finding:
    kept = f"{winner.name} (cluster {winner.cluster}, on {winner.node})" if winner else "another definition"
    names = listing(f"{s.name} ('{s.topicstr}')" for s, _ in missed)
    reasons = listing(sorted({str(r) for _, r in missed}))
    return finding(
        BY_CODE["CONFLICT_AFFECTS_SUBSCRIBERS"],
        f"On {qmgr}, subscription(s) {names} receive nothing published under '{loser.topicstr}' on "
        f"{loser.node}: {qmgr} uses only {kept} of the conflicting definitions, while {loser.node} publishes "
        f"by {loser.name} (cluster {loser.cluster}); explain from {loser.node} reports {reasons}.",
        [*(s for s, _ in missed), loser, *([winner] if winner else [])],
        nodes=[qmgr],
    )


# --- wildcard subscriptions above clustered branches -------------------------------------------------


def _below_index(facts: Facts, clusters: frozenset[str]) -> dict[str, list[TopicObject]]:
    """TOPICSTR -> clustered objects of these clusters strictly below it ('' is the root)."""

    def build() -> dict[str, list[TopicObject]]:
        out: dict[str, list[TopicObject]] = defaultdict(list)
        for obj in facts.clustered_in(clusters):
            for above in chain_topicstrs(levels(obj.topicstr, MQ))[:-1]:
                out[above].append(obj)
        return dict(out)

    return facts.memo(("below", clusters), build)


_wild_level = re.compile(r"(?:^|/)[#+](?=/|$)").search
"""The first whole-level wildcard of a topic-schema pattern: what comes before it is the fixed prefix
(the same as joining ``topics.fixed_prefix_levels``)."""


def _char_fixed_prefix(sub: Subscription) -> str | None:
    """A WSCHEMA(CHAR) subscription's prefix, judged by its proxy (widened to '#' at its first
    wildcard, semantics §2); None when it has no wildcard."""
    if not has_wildcards(widen_char_pattern(sub.topicstr), MQ):
        return None
    return "/".join(char_prefix_levels(sub.topicstr))


def wildcard_above_cluster(facts: Facts) -> Iterator[Finding]:
    """Resolution of the subscription's fixed prefix at its queue manager (§3, §4.2), as explain does it.

    A branch counts when it is clustered in a cluster the queue manager belongs to, is visible in its
    tree, differs from the cluster the subscription resolves to, can hold topics the subscription
    matches, and is not WILDCARD(BLOCK) (which withholds the branch from wildcards on purpose).
    """
    for qmgr, subs in sorted(facts.subscriptions_by_node.items()):
        clusters = facts.clusters.clusters_of(qmgr)
        if not clusters or not facts.is_mq(qmgr):
            continue
        below = _below_index(facts, clusters)
        for sub in subs:  # every subscription of the model: the fixed prefix is cut, not split
            if sub.subscope is SubScope.QMGR:
                continue  # it asked for this queue manager's publications only: it misses nothing remote
            text = sub.topicstr
            if sub.wschema is WSchema.CHAR:
                prefix = _char_fixed_prefix(sub)
            elif ("#" in text or "+" in text) and (found := _wild_level(text)) is not None:
                prefix = text[: found.start()]
            else:
                continue
            candidates = None if prefix is None else below.get(prefix)
            if prefix is not None and candidates:
                branches = _missed_branches(facts, qmgr, sub, prefix, candidates)
                if branches:
                    yield _above_cluster(facts, qmgr, sub, prefix, branches)


def _missed_branches(
    facts: Facts, qmgr: str, sub: Subscription, prefix: str, candidates: list[TopicObject]
) -> list[TopicObject]:
    tree = facts.trees.at(qmgr)
    res = tree.resolve(prefix)
    if res.subscope is Scope.QMGR:
        return []  # its effective scope is QMGR (§3): local publications only, by its own choice
    kept: dict[str, TopicObject] = {}
    for obj in sorted(candidates, key=lambda o: (o.topicstr, o.cluster)):
        entry = tree.entries.get(obj.topicstr)
        if entry is None or entry.cluster != obj.cluster or obj.cluster == res.cluster:
            continue
        if entry.wildcard is Wildcard.BLOCK or obj.topicstr in kept:
            continue
        if any(above in kept for above in chain_topicstrs(levels(obj.topicstr, MQ))[:-1]):
            continue  # below a branch already named
        if sub.wschema is WSchema.TOPIC and not intersects(sub.topicstr, f"{obj.topicstr}/#", MQ):
            continue
        kept[obj.topicstr] = entry
    return list(kept.values())


def _above_cluster(
    facts: Facts, qmgr: str, sub: Subscription, prefix: str, branches: list[TopicObject]
) -> Finding:
    res = facts.trees.at(qmgr).resolve(prefix)
    overlap = len(facts.clusters.clusters_of(qmgr)) > 1
    named = listing(f"'{b.topicstr}'" + (f" (cluster {b.cluster})" if overlap else "") for b in branches)
    where = "at the root of the topic tree" if res.object is None else f"to {res.describe()}"
    suggestions = listing(f"'{_per_branch(sub, b)}'" for b in branches)
    return finding(
        BY_CODE["WILDCARD_ABOVE_CLUSTER"],
        f"Wildcard subscription {sub.name} ('{sub.topicstr}') on {qmgr} resolves {where}, above the clustered "
        f"branch(es) {named}: no proxy subscription for them leaves {qmgr}, so it misses their publications "
        f"from other queue managers; subscribe to each branch instead ({suggestions}).",
        [sub, *branches],
    )


def _per_branch(sub: Subscription, branch: TopicObject) -> str:
    """What to subscribe to instead, for one branch: the branch and below, or the branch itself."""
    if sub.wschema is WSchema.TOPIC and not intersects(sub.topicstr, f"{branch.topicstr}/+/#", MQ):
        return branch.topicstr
    return f"{branch.topicstr}/#"
