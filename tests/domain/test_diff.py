"""Issue 23: the diff names exactly the subscriptions whose answer changed, and no other.

Estates of both dialects, each changed by exactly one generated change (a CLROUTE flip, WILDCARD(BLOCK),
a PUBSCOPE/SUBSCOPE change, a membership or hierarchy link removed, a topic host added, an EMS route
selector narrowed, a route removed, a DESCR): the probes derived from the change, routed on both models,
must name the same subscriptions as routing *every* publisher on *every* topic of the estate (and a level
below it) with the boundary values of every selector, through ``explain`` on both sides.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mqctl.domain.diff import derive, diff_objects, route_diff
from mqctl.domain.diff.probes import Probe, boundary_values
from mqctl.domain.explanation import Publication
from mqctl.domain.messages import Message
from mqctl.domain.model import ClRoute, Dialect, Scope, Topology, Wildcard
from mqctl.domain.routing import RoutingModel, explain
from mqctl.domain.validation.probe import example_topic
from tests.domain import ems_builders as ems
from tests.render import topologies

Change = Callable[[Topology, int], Topology | None]
ESTATES: dict[Dialect, list[Callable[[], Topology]]] = {
    Dialect.MQ: [topologies.demo, topologies.overlap],
    Dialect.EMS: [ems.orders, ems.regions, ems.chain],
}


def _pick(items: list, i: int):  # type: ignore[no-untyped-def]
    return items[i % len(items)] if items else None


def _topic_attr(**changes: object) -> Change:
    def change(t: Topology, i: int) -> Topology | None:
        target = _pick([x for x in t.topics if t.nodes[x.node].dialect is Dialect.MQ], i)
        if target is None:
            return None
        t.topics = [dataclasses.replace(x, **changes) if x is target else x for x in t.topics]
        return t

    return change


def clroute_flip(t: Topology, i: int) -> Topology | None:
    target = _pick([x for x in t.topics if x.cluster], i)
    if target is None:
        return None
    flipped = ClRoute.DIRECT if target.clroute is ClRoute.TOPICHOST else ClRoute.TOPICHOST
    t.topics = [dataclasses.replace(x, clroute=flipped) if x is target else x for x in t.topics]
    return t


def membership_removed(t: Topology, i: int) -> Topology | None:
    target = _pick(t.memberships, i)
    if target is None:
        return None
    t.memberships = [m for m in t.memberships if m is not target]
    return t


def hierarchy_link_removed(t: Topology, i: int) -> Topology | None:
    target = _pick([n for n in t.nodes.values() if n.parent], i)
    if target is None:
        return None
    t.nodes[target.name] = dataclasses.replace(target, parent=None)
    return t


def topic_host_added(t: Topology, i: int) -> Topology | None:
    clustered = [x for x in t.topics if x.cluster]
    target = _pick(clustered, i)
    if target is None:
        return None
    having = {x.node for x in clustered if x.name == target.name}
    members = sorted(m.node for m in t.memberships if m.cluster == target.cluster and m.node not in having)
    host = _pick(members, i // 3)
    if host is None:
        return None
    t.topics.append(dataclasses.replace(target, node=host, clroute=ClRoute.TOPICHOST, seq=target.seq + 1000))
    return t


def selector_narrowed(t: Topology, i: int) -> Topology | None:
    target = _pick(t.route_selectors, i)
    if target is None:
        return None
    narrowed = dataclasses.replace(target, selector=f"({target.selector}) AND amount > 100")
    t.route_selectors = [narrowed if rs is target else rs for rs in t.route_selectors]
    return t


def route_removed(t: Topology, i: int) -> Topology | None:
    target = _pick(t.routes, i)
    if target is None:
        return None
    t.routes = [r for r in t.routes if r is not target]
    t.route_selectors = [  # a route's selectors are properties of the route (EMS)
        rs for rs in t.route_selectors if (rs.node, rs.peer) != (target.node, target.peer)
    ]
    return t


def global_removed(t: Topology, i: int) -> Topology | None:
    target = _pick([x for x in t.topics if "global" in x.properties], i)
    if target is None:
        return None
    props = {k: v for k, v in target.properties.items() if k != "global"}
    t.topics = [dataclasses.replace(x, properties=props) if x is target else x for x in t.topics]
    return t


def descr(t: Topology, i: int) -> Topology | None:
    target = _pick(t.topics, i)
    if target is None:
        return None
    t.topics = [dataclasses.replace(x, descr="changed") if x is target else x for x in t.topics]
    return t


CHANGES: dict[Dialect, list[Change]] = {
    Dialect.MQ: [
        clroute_flip,
        _topic_attr(wildcard=Wildcard.BLOCK),
        _topic_attr(pubscope=Scope.QMGR),
        _topic_attr(subscope=Scope.QMGR),
        membership_removed,
        hierarchy_link_removed,
        topic_host_added,
        descr,
    ],
    Dialect.EMS: [selector_narrowed, route_removed, global_removed, descr],
}


def universe(before: Topology, after: Topology, dialect: Dialect) -> list[Probe]:
    """Every publisher, on every topic the estate names and a level below each, with the boundary values
    of every selector: the ground truth the derived probes are checked against."""
    sep = "/" if dialect is Dialect.MQ else "."
    topics: set[str] = set()
    selectors: list[str] = []
    for side in (before, after):
        patterns = [x.topicstr for x in side.topics] + [s.topicstr for s in side.subscriptions]
        patterns += [rs.topic for rs in side.route_selectors]
        for p in patterns:
            e = example_topic(p, dialect)
            if e is not None:
                topics |= {e, e + sep + "x"}
        selectors += [s.selector for s in side.subscriptions if s.selector]
        selectors += [rs.selector for rs in side.route_selectors]
    publishers = sorted(
        {n for side in (before, after) for n, node in side.nodes.items() if node.dialect is dialect}
    )
    sets = boundary_values(selectors, limit=10**6)
    return [Probe(p, t, props) for t in sorted(topics) for p in publishers for props in sets]


def explained(model: RoutingModel, probe: Probe) -> dict[tuple[str, str], tuple[object, ...]]:
    """(node, subscription) -> what ``explain`` says of it: (status, path) or (reason,)."""
    if probe.publisher not in model.topology.nodes:
        return {}
    props = dict(probe.properties)
    headers = dict(Message.create(props, {}).headers)
    answer = explain(model, Publication(probe.publisher, probe.topic, props, headers), detail=False)
    out: dict[tuple[str, str], tuple[object, ...]] = {
        (n.node, n.subscription): (str(n.reason),) for n in answer.not_delivered
    }
    out.update({(d.node, d.subscription): (str(d.status), tuple(d.path)) for d in answer.deliveries})
    return out


def changed_subscriptions(before: Topology, after: Topology, probes: list[Probe]) -> set[tuple[str, str]]:
    """The subscriptions whose answer from ``explain`` differs between the two models for some probe."""
    old, new = RoutingModel(before), RoutingModel(after)
    out: set[tuple[str, str]] = set()
    for probe in probes:
        a, b = explained(old, probe), explained(new, probe)
        out |= {key for key in a.keys() | b.keys() if a.get(key) != b.get(key)}
    return out


@settings(max_examples=40, deadline=None)
@given(dialect=st.sampled_from([Dialect.MQ, Dialect.EMS]), which=st.integers(0, 50), pick=st.integers(0, 50))
def test_the_diff_names_exactly_the_subscriptions_whose_answer_changed(
    dialect: Dialect, which: int, pick: int
) -> None:
    estate = ESTATES[dialect][which % len(ESTATES[dialect])]
    change = CHANGES[dialect][(which // 3) % len(CHANGES[dialect])]
    before = estate()
    after = change(copy.deepcopy(before), pick)
    if after is None:
        return
    changes = diff_objects(before, after)
    assert changes, "a generated change changes an object"
    probes = derive(before, after, changes)
    assert probes.exhaustive
    named = {(c.node, c.subscription) for c in route_diff(before, after, probes.probes)}
    assert named == changed_subscriptions(before, after, universe(before, after, dialect))
    if change is descr:
        assert named == set() and probes.probes == []


@pytest.mark.parametrize("dialect", [Dialect.MQ, Dialect.EMS])
def test_each_change_kind_changes_routing_somewhere(dialect: Dialect) -> None:
    """The generated changes are not idle: each kind changes some answer in some estate (else the property
    above would prove nothing about it)."""
    for change in CHANGES[dialect]:
        if change is descr:
            continue
        found = False
        for estate in ESTATES[dialect]:
            for pick in range(8):
                before = estate()
                after = change(copy.deepcopy(before), pick)
                if after is not None and route_diff(
                    before, after, derive(before, after, diff_objects(before, after)).probes
                ):
                    found = True
        assert found, getattr(change, "__name__", change)


def test_object_diff_speaks_mqsc_and_ems() -> None:
    before = topologies.demo()
    after = clroute_flip(copy.deepcopy(before), 0)
    assert after is not None
    [change] = diff_objects(before, after)
    assert (change.kind, change.node, change.name, change.change) == ("topic", "QM3", "ALABAMA", "changed")
    assert [a.text() for a in change.attributes] == ["CLROUTE(TOPICHOST) -> CLROUTE(DIRECT)"]
    before = ems.orders()
    after = selector_narrowed(copy.deepcopy(before), 0)
    assert after is not None
    [change] = diff_objects(before, after)
    assert (
        change.kind == "route-selector"
        and change.attributes[0].after == "selector=(country='Canada') AND amount > 100"
    )


def test_capped_probes_say_they_sampled() -> None:
    before = topologies.demo()
    after = membership_removed(copy.deepcopy(before), 2)
    assert after is not None
    full = derive(before, after, diff_objects(before, after))
    capped = derive(before, after, diff_objects(before, after), max_probes=5)
    assert full.exhaustive and not capped.exhaustive and len(capped.probes) == 5
    assert capped.derived == full.derived and "sampled" in capped.how


def _with_far_part(topology: Topology, dialect: Dialect) -> Topology:
    """The estate beside a part no publication of it reaches: two queue managers of another cluster, or
    two EMS servers routed to each other only, each subscribing to everything."""
    from tests.domain import mq_builders as mq

    if dialect is Dialect.MQ:
        far: list[object] = [mq.qm("FAR1"), mq.qm("FAR2"), *mq.cluster("FARCL", "FAR1", "FAR2")]
        far += [mq.sub("FAR2", "FAR.ALL", "#"), mq.topic("FAR1", "FAR.T", "/", cluster="FARCL")]
    else:
        far = [
            ems.server("far1"),
            ems.server("far2"),
            *ems.both("far1", "far2"),
            ems.sub("far2", "far.all", ">"),
        ]
    return topology.add(*far)


@settings(max_examples=30, deadline=None)
@given(dialect=st.sampled_from([Dialect.MQ, Dialect.EMS]), which=st.integers(0, 50), pick=st.integers(0, 50))
def test_routing_on_the_slice_the_change_reaches_names_the_same(
    dialect: Dialect, which: int, pick: int
) -> None:
    """The models are prepared on the part of the estate the probes' publishers are joined to: a part
    they cannot reach changes nothing in what the diff names, wherever the change is."""
    from mqctl.domain.diff.routing import reachable

    estate = ESTATES[dialect][which % len(ESTATES[dialect])]
    change = CHANGES[dialect][(which // 3) % len(CHANGES[dialect])]
    before = _with_far_part(estate(), dialect)
    after = change(copy.deepcopy(before), pick)
    if after is None:
        return
    probes = derive(before, after, diff_objects(before, after))
    named = {(c.node, c.subscription) for c in route_diff(before, after, probes.probes)}
    assert named == changed_subscriptions(before, after, universe(before, after, dialect))
    publishers = {p.publisher for p in probes.probes}
    far = {"FAR1", "FAR2"} if dialect is Dialect.MQ else {"far1", "far2"}
    if publishers and not publishers & far:
        assert not reachable((before, after), publishers) & far
