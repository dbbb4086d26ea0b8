"""A prepared ``RoutingModel`` answers exactly as ``explain`` on the topology, whatever it was asked before
(its caches are keyed by topic and must never leak one question's state into another's).
"""

from __future__ import annotations

import json
import pickle
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from mqctl.domain.explanation import Failures, Publication
from mqctl.domain.messages import JmsValue
from mqctl.domain.model import (
    Channel,
    ClRoute,
    Membership,
    Node,
    ProxySub,
    Scope,
    SubScope,
    Subscription,
    TopicObject,
    Topology,
    Wildcard,
    WSchema,
)
from mqctl.domain.routing import RoutingModel, Rows, explain, route
from tests.domain import ems_builders as ems
from tests.domain import mq_builders as mb
from tests.domain import test_routing_mq as mq_cases

QMS = ["QM0", "QM1", "QM2", "QM3", "QM4", "QM5"]
TOPICSTRS = ["/a", "/a/b", "/a/b/c", "/c", "/c/d"]
PATTERNS = ["/a/#", "/a/b", "/a/b/x", "/a/+/x", "#", "/c/d/x", "/c/#", "/a/b/c/x"]
TOPICS = ["/a/b/x", "/a/x", "/c/d/x", "/a/b/c/x", "/a/b", "/c/d"]


def answer(model: RoutingModel | Topology, question: tuple[str, str, Failures]) -> str:
    node, topic, failures = question
    publication = Publication(node, topic, {"amount": JmsValue("int", 50)})
    return json.dumps(explain(model, publication, failures).to_json(), sort_keys=True)


@st.composite
def mq_topologies(draw: st.DrawFn) -> Topology:
    n = draw(st.integers(2, 6))
    names = QMS[:n]
    t = Topology()
    for i, name in enumerate(names):
        parent = draw(st.sampled_from([None, None, *names[:i]])) if i else None
        t.add(Node(name, parent=parent, seq=i))
    seq = 100
    for cluster in ("CL1", "CL2")[: draw(st.integers(1, 2))]:
        for name in draw(st.sets(st.sampled_from(names), min_size=1)):
            seq += 1
            t.add(Membership(name, cluster, full_repository=draw(st.booleans()), seq=seq))
            if draw(st.booleans()):
                t.add(Channel(name, f"{cluster}.{name}", cluster=cluster, clwlrank=draw(st.integers(0, 2)),
                              clwlprty=draw(st.integers(0, 2)), clwlwght=draw(st.sampled_from([1, 50, 99]))))  # fmt: skip
    if draw(st.integers(0, 2)) == 0:  # issue 38: a hierarchy link beside a cluster, interest relayed into it
        members = sorted({m.node for m in t.memberships if m.cluster == "CL1"})
        outsiders = [n for n in names if n not in members]
        members = draw(st.permutations(members))
        outsider = draw(st.sampled_from(outsiders)) if outsiders else None
        mb.with_relay_loop(t, members, outsider, draw(st.booleans()))
    for i in range(draw(st.integers(0, 6))):
        seq += 1
        t.add(
            TopicObject(
                draw(st.sampled_from(names)),
                f"T{i}",
                draw(st.sampled_from(TOPICSTRS)),
                cluster=draw(st.sampled_from(["", "CL1", "CL2"])),
                clroute=draw(st.sampled_from(list(ClRoute))),
                wildcard=draw(st.sampled_from(list(Wildcard))),
                pubscope=draw(st.sampled_from(list(Scope))),
                subscope=draw(st.sampled_from([Scope.ASPARENT, Scope.ASPARENT, Scope.QMGR])),
                proxysub=draw(st.sampled_from([ProxySub.FIRSTUSE, ProxySub.FIRSTUSE, ProxySub.FORCE])),
                seq=seq,
            )
        )
    for i in range(draw(st.integers(0, 8))):
        seq += 1
        char = draw(st.integers(0, 7)) == 0
        t.add(
            Subscription(
                draw(st.sampled_from(names)),
                f"S{i}",
                "/a/b*" if char else draw(st.sampled_from(PATTERNS)),
                selector=draw(st.sampled_from([None, None, "amount > 10", "amount > 90", "missing = 1"])),
                durable=draw(st.booleans()),
                subscope=draw(st.sampled_from([SubScope.ALL, SubScope.ALL, SubScope.QMGR])),
                wschema=WSchema.CHAR if char else WSchema.TOPIC,
                seq=seq,
            )
        )
    return t


@st.composite
def questions(draw: st.DrawFn, names: list[str], subs: list[tuple[str, str]]) -> tuple[str, str, Failures]:
    down = draw(st.sets(st.sampled_from(names), max_size=2))
    offline = draw(st.sets(st.sampled_from(subs), max_size=2)) if subs else set()
    links = draw(st.sets(st.tuples(st.sampled_from(names), st.sampled_from(names)), max_size=1))
    failures = Failures(
        frozenset(down), frozenset(frozenset(p) for p in links if p[0] != p[1]), frozenset(offline)
    )
    return draw(st.sampled_from(names)), draw(st.sampled_from(TOPICS)), failures


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_model_reused_answers_like_explain_on_the_topology(data: st.DataObject) -> None:
    """One model with a tiny cache (so entries are evicted and rebuilt), many questions in a row: each
    publication also asked with no failure and with every non-durable subscriber offline."""
    topology = data.draw(mq_topologies())
    names = sorted(topology.nodes)
    subs = [(s.node, s.name) for s in topology.subscriptions]
    gone = frozenset((s.node, s.name) for s in topology.subscriptions if not s.durable)
    asked: list[tuple[str, str, Failures]] = []
    for node, topic, failures in data.draw(st.lists(questions(names, subs), min_size=1, max_size=6)):
        asked += [(node, topic, failures), (node, topic, Failures()), (node, topic, Failures(offline=gone))]
    model = RoutingModel(topology, cache_size=2)
    if data.draw(st.booleans()):
        model.prepare()  # built at once, as the Spark worker builds it
    for question in asked + asked[::-1]:
        assert answer(model, question) == answer(topology, question)


def rows_as_json(rows: Rows) -> dict[str, Any]:
    """``route``'s rows in the shape of ``explain(..., detail=False)``'s deliveries and misses."""
    return {
        "deliveries": [
            [sub.name, sub.node, "delivered" if stored_at is None else "stored", stored_at, list(arrival.path),
             [h.to_json() for h in arrival.hops]]
            for sub, arrival, stored_at in rows.delivered
        ],
        "not_delivered": [[sub.name, sub.node, str(miss.reason)] for sub, miss in rows.missed],
    }  # fmt: skip


def explained_as_json(model: RoutingModel, publication: Publication, failures: Failures) -> dict[str, Any]:
    e = explain(model, publication, failures, detail=False)
    return {
        "deliveries": [
            [d.subscription, d.node, str(d.status), d.stored_at, d.path, [h.to_json() for h in d.hops]]
            for d in e.deliveries
        ],
        "not_delivered": [[n.subscription, n.node, str(n.reason)] for n in e.not_delivered],
    }


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_route_rows_are_explains_deliveries_and_misses(data: st.DataObject) -> None:
    """The Spark job sums ``route``'s rows: they are ``explain(..., detail=False)``'s deliveries and
    misses, in its order, whatever failed and whatever the selectors say."""
    topology = data.draw(mq_topologies())
    names = sorted(topology.nodes)
    subs = [(s.node, s.name) for s in topology.subscriptions]
    model = RoutingModel(topology, cache_size=2)
    if data.draw(st.booleans()):
        model.prepare()
    for node, topic, failures in data.draw(st.lists(questions(names, subs), min_size=1, max_size=4)):
        amount = data.draw(st.sampled_from(AMOUNTS))
        publication = Publication(node, topic, {} if amount is None else {"amount": JmsValue("int", amount)})
        assert rows_as_json(route(model, publication, failures)) == explained_as_json(
            model, publication, failures
        )


def test_route_rows_on_ems_are_explains_deliveries_and_misses() -> None:
    """The same for EMS publications, through the reference shapes (gaps, stored copies, refusals)."""
    for topology, questions_ in (
        (ems.chain("B"), [("A", "T1", Failures(down=frozenset({"B"}))), ("A", "T1", Failures()), ("B", "T1", Failures())]),
        (ems.regions(ny3=True), [("TK2", "market.fx.eur", Failures()), ("NY3", "market.fx.eur", Failures())]),
        (ems.orders(), [("ORD", "orders", Failures()), ("USA", "orders.audit", Failures())]),
    ):  # fmt: skip
        model = RoutingModel(topology).prepare()
        for node, topic, failures in questions_:
            for amount in AMOUNTS:
                properties = {} if amount is None else {"amount": JmsValue("int", amount)}
                publication = Publication(node, topic, properties)
                got = rows_as_json(route(model, publication, failures))
                assert got == explained_as_json(model, publication, failures)


def test_existing_scenarios_through_one_model() -> None:
    """The MQ scenarios of test_routing_mq and the EMS reference shapes, through shared models."""
    for build, node, topic, failures in mq_cases.SCENARIOS:
        topology = build()
        model = RoutingModel(topology)
        for question in [(node, topic, failures), (node, topic, Failures()), (node, topic, failures)]:
            assert answer(model, question) == answer(topology, question)
    for topology, questions_ in (
        (ems.chain("B"), [("A", "T1", Failures(down=frozenset({"B"}))), ("A", "T1", Failures()), ("B", "T1", Failures())]),
        (ems.regions(ny3=True), [("TK2", "market.fx.eur", Failures()), ("NY3", "market.fx.eur", Failures())]),
        (ems.orders(), [("ORD", "orders", Failures()), ("USA", "orders.audit", Failures())]),
    ):  # fmt: skip
        model = RoutingModel(topology, cache_size=1)
        for question in questions_ + questions_:
            assert answer(model, question) == answer(topology, question)


def test_model_pickles_as_its_topology_and_answers_alike() -> None:
    """A Spark executor receives a pickled model: it carries the topology and rebuilds its indexes."""
    topology = mq_cases.host_cluster("QM2", "QM3", subs=(mq_cases.sub("QM4", "S", "/USA/Alabama/#"),))
    model = RoutingModel(topology, cache_size=16)
    question: tuple[str, str, Failures] = ("QM1", "/USA/Alabama/Mobile", Failures())
    first = answer(model, question)
    copy: Any = pickle.loads(pickle.dumps(model))
    assert isinstance(copy, RoutingModel) and copy.cache_size == 16
    assert "mq" not in vars(copy)  # indexes are rebuilt on first use, not shipped
    assert answer(copy, question) == first == answer(topology, question)


def test_prepare_builds_the_halves_the_nodes_need_and_answers_alike() -> None:
    """``prepare`` (the Spark worker's, before it freezes the model) builds what first use would."""
    topology = mq_cases.host_cluster("QM2", "QM3", subs=(mq_cases.sub("QM4", "S", "/USA/Alabama/#"),))
    model = RoutingModel(topology).prepare()
    assert "mq" in vars(model) and "ems" not in vars(model)
    question: tuple[str, str, Failures] = ("QM1", "/USA/Alabama/Mobile", Failures())
    assert answer(model, question) == answer(topology, question)
    ems_only = RoutingModel(ems.orders()).prepare()
    assert "ems" in vars(ems_only) and "mq" not in vars(ems_only)


AMOUNTS = [None, 5, 50, 95]


def answer_with(
    model: RoutingModel | Topology, node: str, topic: str, failures: Failures, amount: int | None
) -> str:
    properties = {} if amount is None else {"amount": JmsValue("int", amount)}
    return json.dumps(
        explain(model, Publication(node, topic, properties), failures).to_json(), sort_keys=True
    )


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_publications_differing_in_properties_share_a_topic_yet_answer_alike(data: st.DataObject) -> None:
    """A model keeps a topic's answer up to the selectors per publisher and failures: the same topic
    from several publishers, under several failures, with properties that make selectors true, false
    and unknown, in any order, answers as a fresh ``explain`` does."""
    topology = data.draw(mq_topologies())
    names = sorted(topology.nodes)
    subs = [(s.node, s.name) for s in topology.subscriptions]
    topic = data.draw(st.sampled_from(TOPICS))
    asked = [
        (node, failures, data.draw(st.sampled_from(AMOUNTS)))
        for node, _, failures in data.draw(st.lists(questions(names, subs), min_size=1, max_size=4))
        for _ in range(2)
    ]
    model = RoutingModel(topology, cache_size=data.draw(st.sampled_from([1, 16])))
    for node, failures, amount in asked + asked[::-1]:
        assert answer_with(model, node, topic, failures, amount) == answer_with(
            topology, node, topic, failures, amount
        )


def test_fellow_members_share_cluster_points_unless_a_plain_object_lies_on_the_chain() -> None:
    """Members of the same clusters share where a subscription's prefix is clustered, except a member
    whose own plain object on the prefix's chain changes it (here: SUBSCOPE(QMGR) under the cluster
    point keeps its proxy home). Asked in either order, through one model, as on the topology."""
    topology = Topology()
    for i, name in enumerate(["QM0", "QM1", "QM2"]):
        topology.add(Node(name, seq=i))
        topology.add(Membership(name, "CL1", full_repository=i == 0, seq=10 + i))
    topology.add(TopicObject("QM0", "A", "/a", cluster="CL1", clroute=ClRoute.TOPICHOST, seq=20))
    topology.add(TopicObject("QM2", "B", "/a/b", subscope=Scope.QMGR, seq=21))
    topology.add(Subscription("QM1", "S1", "/a/b/#", seq=30))
    topology.add(Subscription("QM2", "S2", "/a/b/#", seq=31))
    for order in (["QM1", "QM2", "QM0"], ["QM2", "QM0", "QM1"]):
        model = RoutingModel(topology)
        for node in order:
            for amount in (None, 50):
                got = answer_with(model, node, "/a/b/x", Failures(), amount)
                assert got == answer_with(topology, node, "/a/b/x", Failures(), amount)
    fresh = json.loads(answer_with(topology, "QM0", "/a/b/x", Failures(), None))
    assert [d["subscription"] for d in fresh["deliveries"]] == ["S1"]
    assert [(n["subscription"], n["reason"]) for n in fresh["not_delivered"]] == [("S2", "SCOPE")]
    # S2's proxy stays on QM2: from QM1 the host QM0 has nobody to forward to (QM1's own S1 excepted)
    fresh = json.loads(answer_with(topology, "QM1", "/a/b/x", Failures(), None))
    assert [w["code"] for w in fresh["warnings"]] == ["NO_SUBSCRIBERS_AT_HOST"]


ORDERS = [
    {},
    {
        "country": JmsValue("string", "USA"),
        "amount": JmsValue("int", 5),
        "currency": JmsValue("string", "USD"),
    },
    {"country": JmsValue("string", "Canada"), "amount": JmsValue("int", 20000)},
    {
        "country": JmsValue("string", "USA"),
        "amount": JmsValue("int", 20000),
        "currency": JmsValue("string", "EUR"),
    },
    {"country": JmsValue("string", "Mexico"), "amount": JmsValue("int", 50)},
]


def test_one_model_answers_ems_questions_in_a_stream_as_each_alone() -> None:
    """Path searches kept per publisher and hop rules, and hops per route selector text: the reference
    shapes' questions asked of one model, each after the others, answer as each asked alone."""
    for topology, questions_ in (
        (ems.chain("B"), [("A", "T1", Failures(down=frozenset({"B"}))), ("A", "T1", Failures()), ("B", "T1", Failures())]),
        (ems.regions(ny3=True), [("TK2", "market.fx.eur", Failures()), ("NY3", "market.fx.eur", Failures())]),
        (ems.orders(), [("ORD", "orders", Failures()), ("USA", "orders.audit", Failures()), ("ORD", "orders.audit", Failures())]),
    ):  # fmt: skip
        model = RoutingModel(topology)
        for node, topic, failures in questions_ + questions_[::-1]:
            for properties in [*ORDERS, *ORDERS[::-1]]:
                publication = Publication(node, topic, properties)
                alone = explain(topology, publication, failures, detail=False).to_json()
                assert explain(model, publication, failures, detail=False).to_json() == alone
