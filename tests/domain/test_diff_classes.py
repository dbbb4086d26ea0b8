"""Publishers the change cannot tell apart are routed once (``mqctl.domain.diff.publishers``): the diff
must be exactly the one that routes every publisher, entry for entry (paths, hosts, probe counts).

Checked on every publisher and topic of the estate (``test_diff.universe``) for the estates and changes
of ``test_diff`` and for generated MQ estates (clusters, topic hosts, hierarchy links, scopes, CHAR
patterns, selectors), against routing every publisher and against ``explain`` on both sides.
"""

from __future__ import annotations

import copy
import dataclasses

from hypothesis import given, settings
from hypothesis import strategies as st

from mqctl.domain.diff import derive, diff_objects, route_diff
from mqctl.domain.diff.probes import Probe
from mqctl.domain.diff.routing import RouteStats, RoutingChange, answer
from mqctl.domain.model import ClRoute, Dialect, Membership, Scope, SubScope, Topology, Wildcard, WSchema
from mqctl.domain.routing import RoutingModel
from tests.domain import mq_builders as mq
from tests.domain.test_diff import CHANGES, ESTATES, clroute_flip, universe
from tests.render import topologies

TOPICS = ["/S", "/S/a", "/S/a/b", "/S/c"]
PATTERNS = ["/S/#", "/S/a/#", "/S/a", "/S/a/b", "/S/+/b", "/S/c", "#", "/S/a/b/x", "/S/c/+"]


@st.composite
def mq_estates(draw: st.DrawFn) -> Topology:
    """Up to ten queue managers in one or two clusters, a few hierarchy links, topic objects on a small
    tree (some hosted alike on several members), subscriptions of every kind on some of them."""
    n = draw(st.integers(4, 10))
    names = [f"Q{i}" for i in range(n)]
    parts: list[object] = []
    for i, name in enumerate(names):
        parent = draw(st.sampled_from([None] * 8 + names[:i])) if i else None
        parts.append(mq.qm(name, parent=parent))
    clusters = ["A"] + (["B"] if draw(st.booleans()) else [])
    for cluster in clusters:
        members = draw(st.just(names) | st.lists(st.sampled_from(names), min_size=2, max_size=n, unique=True))
        parts += [Membership(m, cluster, full_repository=draw(st.booleans())) for m in members]
    if draw(st.integers(0, 2)) == 0:  # issue 38: a hierarchy link beside a cluster, interest relayed into it
        inside = [m.node for m in parts if isinstance(m, Membership) and m.cluster == "A"]
        outsiders = [n for n in names if n not in inside]
        loop = (draw(st.permutations(inside)), draw(st.sampled_from(outsiders)) if outsiders else None)
    else:
        loop = None
    for k in range(draw(st.integers(1, 5))):
        topicstr = draw(st.sampled_from(TOPICS))
        cluster = draw(st.sampled_from(["", *clusters]))
        attrs = {
            "clroute": draw(st.sampled_from([ClRoute.DIRECT, ClRoute.TOPICHOST])),
            "pubscope": draw(st.sampled_from([Scope.ASPARENT, Scope.ASPARENT, Scope.QMGR])),
            "subscope": draw(st.sampled_from([Scope.ASPARENT, Scope.ASPARENT, Scope.QMGR])),
            "wildcard": draw(st.sampled_from([Wildcard.PASSTHRU, Wildcard.PASSTHRU, Wildcard.BLOCK])),
        }
        for host in draw(st.lists(st.sampled_from(names), min_size=1, max_size=2, unique=True)):
            parts.append(mq.topic(host, f"T{k}", topicstr, cluster, **attrs))
    for k in range(draw(st.integers(1, 12))):
        char = draw(st.integers(0, 5)) == 0
        parts.append(
            mq.sub(
                draw(st.sampled_from(names)),
                f"SUB{k}",
                draw(st.sampled_from(["/S/a*", "/S*b"])) if char else draw(st.sampled_from(PATTERNS)),
                wschema=WSchema.CHAR if char else WSchema.TOPIC,
                selector=draw(st.sampled_from([None, None, "amount > 10"])),
                subscope=draw(st.sampled_from([SubScope.ALL, SubScope.ALL, SubScope.QMGR])),
                durable=draw(st.booleans()),
            )
        )
    estate = mq.topo(*parts)
    return estate if loop is None else mq.with_relay_loop(estate, *loop, draw(st.booleans()))


def changed(before: Topology, after: Topology, probes: list[Probe]) -> set[tuple[str, str]]:
    """The subscriptions whose outcome (status, path, topic host, reason) from ``explain`` on the whole
    models differs for some probe (``test_diff.changed_subscriptions`` does not read the host)."""
    old, new = RoutingModel(before), RoutingModel(after)
    out: set[tuple[str, str]] = set()
    for probe in probes:
        a, b = answer(old, probe), answer(new, probe)
        out |= {key for key in a.keys() | b.keys() if a.get(key) != b.get(key)}
    return out


def _both_ways(before: Topology, after: Topology, dialect: Dialect) -> RouteStats:
    probes = universe(before, after, dialect)
    stats = RouteStats()
    by_class = route_diff(before, after, probes, stats=stats)
    every = route_diff(before, after, probes, classes=False)
    assert all(not c.alike for c in every)
    assert _ordered([e for c in by_class for e in c.for_each_publisher()]) == _ordered(every)
    assert {(c.node, c.subscription) for c in by_class} == changed(before, after, probes)
    return stats


def _ordered(changes: list[RoutingChange]) -> list[RoutingChange]:
    return sorted(changes, key=lambda c: (c.probe.sort_key(), c.node, c.subscription, c.change))


@settings(max_examples=40, deadline=None)
@given(estate=mq_estates(), which=st.integers(0, 50), pick=st.integers(0, 50))
def test_routing_a_representative_per_class_is_routing_every_publisher(
    estate: Topology, which: int, pick: int
) -> None:
    """Any estate, any change of ``test_diff``: the same answers as routing every publisher."""
    after = CHANGES[Dialect.MQ][which % len(CHANGES[Dialect.MQ])](copy.deepcopy(estate), pick)
    if after is not None:
        _both_ways(estate, after, Dialect.MQ)


@settings(max_examples=20, deadline=None)
@given(dialect=st.sampled_from([Dialect.MQ, Dialect.EMS]), which=st.integers(0, 50), pick=st.integers(0, 50))
def test_on_the_diff_estates_too(dialect: Dialect, which: int, pick: int) -> None:
    """The estates and changes of ``test_diff`` (EMS publishers are each routed: no class there)."""
    before = ESTATES[dialect][which % len(ESTATES[dialect])]()
    after = CHANGES[dialect][(which // 3) % len(CHANGES[dialect])](copy.deepcopy(before), pick)
    if after is not None:
        stats = _both_ways(before, after, dialect)
        if dialect is Dialect.EMS:
            assert stats.represented == 0


def test_classes_form_and_members_with_subscriptions_are_answered_locally() -> None:
    """Not vacuous: on the demo, QM1, QM2, QM5 and QM6 (members of USA hosting nothing) are alike for
    /USA/Alabama; QM2 holds no subscription and stands for the others, whose own are answered from
    themselves. The counts add up to the probes."""
    before = topologies.demo()
    after = clroute_flip(copy.deepcopy(before), 0)
    assert after is not None
    stats = _both_ways(before, after, Dialect.MQ)
    assert stats.classes and stats.represented and stats.local
    derived = derive(before, after, diff_objects(before, after))
    counted = RouteStats()
    route_diff(before, after, derived.probes, stats=counted)
    assert counted.engine + counted.judged + counted.represented == len(derived.probes)


def _cluster_of_five() -> Topology:
    """Q0 hosts /S for cluster A; Q0 and Q2 are its full repositories; Q1 and Q3 subscribe, Q4 does not:
    Q1, Q3 and Q4 are one class, Q4 (quiet) its representative."""
    return mq.topo(
        [mq.qm(f"Q{i}") for i in range(5)],
        mq.cluster("A", "Q0", "Q2", "Q1", "Q3", "Q4"),
        mq.topic("Q0", "T", "/S", "A"),
        mq.topic("Q0", "TA", "/S/a"),
        mq.sub("Q1", "S1", "/S/#"),
        mq.sub("Q3", "S3", "/S/a"),
    )


def test_a_member_gets_the_representatives_answer_for_the_subscriptions_of_others() -> None:
    """After the flip, Q4's publications reach S1 and S3 through host Q0: so do Q1's for S3 and Q3's
    for S1, each from its own name; the representative chosen has no subscription of its own (one with
    one would not show how its subscription is reached from the others)."""
    before = _cluster_of_five()
    after = clroute_flip(copy.deepcopy(before), 0)
    assert after is not None
    stats = _both_ways(before, after, Dialect.MQ)
    assert stats.classes and stats.represented and stats.local
    changes = route_diff(before, after, universe(before, after, Dialect.MQ))
    each = [e for c in changes for e in c.for_each_publisher()]
    assert ("Q1", ("Q1", "Q0", "Q3")) in {(c.probe.publisher, c.after.path) for c in each if c.after}
    assert any(c.alike for c in changes), "the class shows as one entry standing for its publishers"


def test_a_members_own_subscriptions_are_answered_from_itself() -> None:
    """WILDCARD(BLOCK) under /S/a: S1 (/S/#) is blocked there wherever the publication comes from, its
    own queue manager Q1 included, which no path of the representative shows."""
    before = _cluster_of_five()
    after = copy.deepcopy(before)
    after.topics = [
        dataclasses.replace(t, wildcard=Wildcard.BLOCK, cluster="A") if t.name == "TA" else t
        for t in after.topics
    ]
    _both_ways(before, after, Dialect.MQ)
    changes = route_diff(before, after, universe(before, after, Dialect.MQ))
    assert any(c.probe.publisher == "Q1" == c.node and c.subscription == "S1" for c in changes)
    assert all("Q1" not in c.alike for c in changes if c.node == "Q1"), "its own: from itself only"


def test_a_publisher_with_a_hierarchy_link_is_a_class_of_its_own() -> None:
    """Q5, a hierarchy child of Q4, subscribes: Q4 relays the publications of the others to it, and its
    own go straight down; renaming Q4's first hop would not give the others' paths."""
    before = _cluster_of_five().add(mq.qm("Q5", parent="Q4"), mq.sub("Q5", "S5", "/S/#"))
    after = clroute_flip(copy.deepcopy(before), 0)
    assert after is not None
    _both_ways(before, after, Dialect.MQ)
    each = [
        e
        for c in route_diff(before, after, universe(before, after, Dialect.MQ))
        for e in c.for_each_publisher()
    ]
    assert ("Q1", ("Q1", "Q0", "Q4", "Q5")) in {(c.probe.publisher, c.after.path) for c in each if c.after}


def _relayed_back() -> Topology:
    """Found by Hypothesis: Q0..Q6 in clusters A and B, Q6 a hierarchy child of Q0; /S/a clustered
    (DIRECT) in A from Q0, /S defined twice on Q0, unclustered; Q1 subscribes to /S/a/#, Q0 to /S/a* in
    WSCHEMA(CHAR) (its proxy, /S/#, resolves above the clustered point and goes into no cluster)."""
    names = [f"Q{i}" for i in range(7)]
    return mq.topo(
        [mq.qm(n) for n in names[:6]],
        mq.qm("Q6", parent="Q0"),
        mq.cluster("A", *names),
        mq.cluster("B", *names),
        mq.topic("Q0", "T0", "/S"),
        mq.topic("Q0", "T1", "/S/a", "A"),
        mq.topic("Q0", "T2", "/S"),
        mq.sub("Q1", "SUB0", "/S/a/#", durable=False),
        mq.sub("Q0", "SUB1", "/S/a*", wschema=WSchema.CHAR, durable=False),
    )


def test_a_subscriber_whose_proxy_a_hierarchy_relays_back_is_a_class_of_its_own() -> None:
    """Q0 and Q6 each push Q1's proxy for /S/a/# back into A, to every member but its origin Q1 (§4.3):
    Q2 publishing /S/a reaches Q0, where SUB1 rides on it; Q1 does not, WILDCARD_ABOVE_CLUSTER. After
    the flip to TOPICHOST both go through host Q0: SUB1 changes host for Q2 but is gained for Q1, which
    Q2's answer cannot stand for."""
    before = _relayed_back()
    after = clroute_flip(copy.deepcopy(before), 0)
    assert after is not None
    _both_ways(before, after, Dialect.MQ)
    each = {
        (e.probe.publisher, e.probe.topic): e
        for c in route_diff(before, after, universe(before, after, Dialect.MQ))
        for e in c.for_each_publisher()
        if (e.node, e.subscription) == ("Q0", "SUB1")
    }
    q1, q2 = each[("Q1", "/S/a")], each[("Q2", "/S/a")]
    assert q1.change == "gained" and q1.before is not None
    assert q1.before.reason == "WILDCARD_ABOVE_CLUSTER"
    assert q2.change == "host" and q2.before is not None and q2.before.path == ("Q2", "Q0")
