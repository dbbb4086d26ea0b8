"""``explain(..., detail=False)`` (the Spark job's call) answers exactly what ``explain`` answers, less what
only a reader needs: the full JSON with warnings, topic hosts, alternatives, detail sentences and conflict
notes blanked is the lean JSON, byte for byte, in MQ and EMS, with and without failures, whatever the
same model was asked before.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mqctl.domain.explanation import Failures, Publication
from mqctl.domain.messages import JmsValue
from mqctl.domain.model import ProxySub, Scope, SubScope, Topology, Wildcard
from mqctl.domain.routing import RoutingModel, explain
from tests.domain import ems_builders as ems
from tests.domain import mq_builders as mb
from tests.domain import test_routing_mq as mq_cases
from tests.domain.test_routing_ems_exact import TOPIC, networks
from tests.domain.test_routing_model import AMOUNTS, TOPICS, mq_topologies, questions


def blanked(full: dict[str, Any]) -> dict[str, Any]:
    """The full answer with what ``detail=False`` leaves out made empty, as documented."""
    out = json.loads(json.dumps(full))
    out["warnings"] = []
    out["topic_hosts"] = []
    for d in out["deliveries"]:
        d["alternatives"] = []
        d["more_alternatives"] = 0
    for n in out["not_delivered"]:
        n["detail"] = ""
        n["conflict"] = None
    return out


def check(model: RoutingModel | Topology, publication: Publication, failures: Failures) -> dict[str, Any]:
    """Lean after full and full after lean (a model keeps the last answers), against a fresh topology."""
    topology = model.topology if isinstance(model, RoutingModel) else model
    full = explain(model, publication, failures).to_json()
    lean = explain(model, publication, failures, detail=False).to_json()
    assert lean == blanked(full)
    assert json.dumps(explain(model, publication, failures).to_json()) == json.dumps(full)
    assert json.dumps(full) == json.dumps(explain(topology, publication, failures).to_json())
    return full


def amount(value: int | None) -> dict[str, JmsValue]:
    return {} if value is None else {"amount": JmsValue("int", value)}


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_lean_mq_answers_are_the_full_ones_blanked(data: st.DataObject) -> None:
    topology = data.draw(mq_topologies())
    names = sorted(topology.nodes)
    subs = [(s.node, s.name) for s in topology.subscriptions]
    model = RoutingModel(topology, cache_size=data.draw(st.sampled_from([1, 16])))
    for node, topic, failures in data.draw(st.lists(questions(names, subs), min_size=1, max_size=4)):
        for value in data.draw(st.lists(st.sampled_from(AMOUNTS), min_size=1, max_size=2)):
            check(model, Publication(node, topic, amount(value)), failures)
            check(model, Publication(node, data.draw(st.sampled_from(TOPICS)), amount(value)), Failures())


def cluster_only(topology: Topology) -> Topology:
    """The same estate without hierarchy links, FORCE objects, SUBSCOPE(QMGR) or WILDCARD(BLOCK) topic
    objects: the shape of the Spark benchmark's estate, where the engine answers without a flow."""
    out = Topology()
    out.extend(replace(node, parent=None) for node in topology.nodes.values())
    out.extend([*topology.memberships, *topology.channels, *topology.subscriptions])
    out.extend(
        replace(
            obj,
            proxysub=ProxySub.FIRSTUSE,
            subscope=Scope.ASPARENT,
            wildcard=Wildcard.PASSTHRU if obj.wildcard == Wildcard.BLOCK else obj.wildcard,
        )
        for obj in topology.topics
    )
    return out


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_lean_answers_in_cluster_only_estates_are_the_full_ones_blanked(data: st.DataObject) -> None:
    """The Spark job's usual question (nothing failed) in a cluster-only estate, publisher and topic
    anywhere, with the publication's own subscriptions, topic hosts and scopes of every kind."""
    topology = cluster_only(data.draw(mq_topologies()))
    model = RoutingModel(topology, cache_size=data.draw(st.sampled_from([1, 16])))
    names = sorted(topology.nodes)
    for node, topic in data.draw(
        st.lists(st.tuples(st.sampled_from(names), st.sampled_from(TOPICS)), min_size=1, max_size=6)
    ):
        for value in (None, 50):
            check(model, Publication(node, topic, amount(value)), Failures())


@settings(max_examples=150, deadline=None)
@given(networks(), st.sampled_from([1, 2, None]))
def test_lean_ems_answers_are_the_full_ones_blanked(case: tuple[Topology, Failures], p: int | None) -> None:
    topology, failures = case
    properties = ems.props(p=p) if p is not None else {}
    model = RoutingModel(topology)
    for question in (failures, Failures()):
        check(model, Publication("S0", TOPIC, properties), question)


def test_lean_scenarios_are_the_full_ones_blanked() -> None:
    """The hand-made MQ scenarios (every reason, warnings, topic hosts, alternatives, conflicts) and
    the EMS reference shapes."""
    m = mq_cases
    more = [
        (lambda: m.football(m.sub("QM2", "E", "/Sport/Football"), block=True), "QM1", "/Sport/Football"),
        (lambda: m.football(m.sub("QM2", "E", "/Sport/Football", subscope=SubScope.QMGR)), "QM1", "/Sport/Football"),
        (lambda: m.overlap(m.sub("QM3", "W", "/Sport/#"), m.sub("QM5", "F5", "/Sport/Football")), "QM1", "/Sport/Football"),
        (lambda: m.overlap(m.topic("QM1", "SPORT", "/Sport", "CL1"), m.sub("QM3", "W", "/Sport/#")), "QM3", "/Sport/Tennis"),
        (lambda: m.scoped(m.topic("QM1", "MINE", "/Sport"), m.sub("QM2", "R", "/Sport/x")), "QM1", "/Sport/x"),
        (lambda: m.scoped(m.topic("QM1", "LOC", "/Sport/x", pubscope=Scope.QMGR), m.sub("QM2", "R", "/Sport/x")), "QM1", "/Sport/x"),
        (lambda: m.topo(m._qms("QM1", "QM3", "QM4"), m.cluster("CL1", "QM1", "QM3"), m.cluster("CL2", "QM3", "QM4"),
                        m.topic("QM1", "SPORT1", "/Sport", "CL1"), m.topic("QM4", "SPORT2", "/Sport", "CL2"),
                        m.sub("QM3", "S3", "/Sport/x")), "QM1", "/Sport/x"),
    ]  # fmt: skip
    seen: set[str] = set()
    for build, node, topic, failures in [*m.SCENARIOS, *((b, n, t, Failures()) for b, n, t in more)]:
        model = RoutingModel(build())
        for question in (failures, Failures()):
            for value in (None, 50):
                full = check(model, Publication(node, topic, amount(value)), question)
                seen |= {n["reason"] for n in full["not_delivered"]}
                seen |= {"warnings"} if full["warnings"] else set()
                seen |= {"topic_hosts"} if full["topic_hosts"] else set()
                seen |= {"conflict"} if any(n["conflict"] for n in full["not_delivered"]) else set()
                seen |= {"alternatives"} if any(d["alternatives"] for d in full["deliveries"]) else set()
    reasons = {"SCOPE", "WILDCARD_BLOCKED", "WILDCARD_ABOVE_CLUSTER", "NO_PATH", "DOWN"}
    assert reasons | {"warnings", "topic_hosts", "conflict", "alternatives"} <= seen, seen
    for topology, asked in (
        (ems.chain("B"), [("A", "T1", Failures(down=frozenset({"B"}))), ("B", "T1", Failures())]),
        (ems.regions(ny3=True), [("TK2", "market.fx.eur", Failures()), ("NY3", "market.fx.eur", Failures())]),
        (ems.orders(), [("ORD", "orders", Failures()), ("USA", "orders.audit", Failures())]),
    ):  # fmt: skip
        model = RoutingModel(topology)
        for node, topic, failures in asked:
            check(model, Publication(node, topic), failures)


def test_a_wildcard_whose_proxy_goes_to_another_host_of_the_same_cluster_gets_no_copy() -> None:
    """Cluster-only, nothing failed: the topic resolves to a DIRECT object of CL1 at the publisher, while
    QM2's wildcard resolves higher up, to a TOPICHOST object of the same cluster: its proxy goes to the
    host QM3 only, so QM1 holds none for it and its copy goes only to QM4 (whose exact subscription sent
    QM1 a proxy). The lean answer is the full one blanked, from every publisher."""
    topology = mb.topo(
        [mb.qm(n) for n in ("QM1", "QM2", "QM3", "QM4")],
        mb.cluster("CL1", "QM1", "QM2", "QM3", "QM4"),
        mb.hosted("CL1", "SPORT", "/Sport", "QM3"),
        mb.topic("QM1", "FOOTBALL", "/Sport/Football", "CL1"),
        mb.sub("QM2", "W", "/Sport/#"),
        mb.sub("QM4", "F4", "/Sport/Football", selector="amount > 10"),
    )
    model = RoutingModel(topology)
    for node in ("QM1", "QM2", "QM3", "QM4"):
        for value in (None, 50):
            check(model, Publication(node, "/Sport/Football", amount(value)), Failures())
    lean = explain(model, Publication("QM1", "/Sport/Football", amount(50)), detail=False)
    assert [(d.node, d.subscription) for d in lean.deliveries] == [("QM4", "F4")]
    assert [(n.node, n.subscription) for n in lean.not_delivered] == [("QM2", "W")]


def test_an_estate_with_a_hierarchy_elsewhere_answers_lean_as_full() -> None:
    """Reference 001's overlap with QM6 a hierarchy child of QM5: CL1's members have no hierarchy link,
    CL2's member QM5 has one. The Spark job's question from CL1 takes the short path, from CL2 or the
    hierarchy the general flow; each lean answer is the full one blanked. QM6's subscriptions are
    reached from CL2 through their parent only, never from CL1."""
    topology = mq_cases.overlap(
        mb.qm("QM6", parent="QM5"),
        mb.sub("QM2", "F2", "/Sport/Football"),
        mb.sub("QM3", "F3", "/Sport/Football"),
        mb.sub("QM3", "T3", "/Sport/Tennis"),
        mb.sub("QM6", "F6", "/Sport/Football"),
        mb.sub("QM6", "T6", "/Sport/Tennis", selector="amount > 10"),
    )
    model = RoutingModel(topology)
    for node in sorted(topology.nodes):
        for topic in ("/Sport/Football", "/Sport/Tennis"):
            for value in (None, 50):
                check(model, Publication(node, topic, amount(value)), Failures())
    football = explain(model, Publication("QM1", "/Sport/Football", amount(50)), detail=False)
    assert [(d.node, d.subscription) for d in football.deliveries] == [("QM2", "F2"), ("QM3", "F3")]
    tennis = explain(model, Publication("QM4", "/Sport/Tennis", amount(50)), detail=False)
    assert [(d.node, d.subscription) for d in tennis.deliveries] == [("QM3", "T3"), ("QM6", "T6")]


@pytest.mark.parametrize("own_qmgr", [False, True])
def test_subscriptions_sharing_a_pattern_whose_proxies_go_different_ways(own_qmgr: bool) -> None:
    """One pattern on five queue managers, its proxies going different ways (the flat path reads each
    subscription's): into CL1 from QM2 and QM4, nowhere from QM3 (its plain '/Sport' hides CL1's),
    into CL2 from QM5, and (``own_qmgr``) not at all from QM6's SUBSCOPE(QMGR) subscription. Cluster-only, nothing failed: the lean answer is the full one blanked, from every
    publisher, and a copy from QM1 reaches QM2 and QM4 only."""
    topology = mb.topo(
        [mb.qm(n) for n in ("QM1", "QM2", "QM3", "QM4", "QM5", "QM6")],
        mb.cluster("CL1", "QM1", "QM2", "QM3", "QM4"),
        mb.cluster("CL2", "QM5", "QM6"),
        mb.topic("QM1", "SPORT", "/Sport", "CL1"),
        mb.topic("QM5", "SPORT2", "/Sport", "CL2"),
        mb.topic("QM3", "LOCAL", "/Sport"),
        *(mb.sub(n, f"W{n[-1]}", "/Sport/#") for n in ("QM2", "QM3", "QM4", "QM5")),
        *([mb.sub("QM6", "W6", "/Sport/#", subscope=SubScope.QMGR)] if own_qmgr else []),
    )
    model = RoutingModel(topology)
    for node in sorted(topology.nodes):
        for topic in ("/Sport/Football", "/Sport"):
            check(model, Publication(node, topic), Failures())
    lean = explain(model, Publication("QM1", "/Sport/Football"), detail=False)
    assert [(d.node, d.subscription) for d in lean.deliveries] == [("QM2", "W2"), ("QM4", "W4")]
    missed = [("QM3", "W3"), ("QM5", "W5"), *([("QM6", "W6")] if own_qmgr else [])]
    assert [(n.node, n.subscription) for n in lean.not_delivered] == missed
    from_cl2 = explain(model, Publication("QM6", "/Sport/Football"), detail=False)
    assert [(d.node, d.subscription) for d in from_cl2.deliveries] == [
        ("QM5", "W5"),
        *([("QM6", "W6")] if own_qmgr else []),
    ]
