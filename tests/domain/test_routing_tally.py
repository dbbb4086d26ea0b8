"""``routing.tally``: the sums the Spark job writes are ``route``'s rows summed, whatever the engine kept."""

from __future__ import annotations

from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from mqctl.domain.explanation import Failures, Publication
from mqctl.domain.messages import JmsValue
from mqctl.domain.model import ClRoute, Membership, Node, Subscription, TopicObject, Topology
from mqctl.domain.routing import RoutingModel, Rows, Tally, route, tally
from mqctl.domain.routing.totals import links_taken
from tests.domain.test_routing_model import (
    AMOUNTS,
    PATTERNS,
    QMS,
    TOPICS,
    TOPICSTRS,
    mq_topologies,
    questions,
)


def summed_rows(asked: list[tuple[Publication, Failures, int, int]], topology: Topology) -> dict[str, Any]:
    """Each publication routed alone on the topology (``route``), its rows summed by hand."""
    delivered: Counter[Any] = Counter()
    missed: Counter[Any] = Counter()
    links: Counter[Any] = Counter()
    published: Counter[str] = Counter()
    for publication, failures, messages, size in asked:
        rows: Rows = route(topology, publication, failures)
        published[publication.from_node] += messages
        for sub, arrival, stored_at in rows.delivered:
            delivered[(sub.name, sub.node, stored_at, len(arrival.hops)), "m"] += messages
            delivered[(sub.name, sub.node, stored_at, len(arrival.hops)), "b"] += size
        for sub, miss in rows.missed:
            missed[(sub.name, sub.node, miss.reason), "m"] += messages
            missed[(sub.name, sub.node, miss.reason), "b"] += size
        for link in links_taken((a.hops, at) for _, a, at in rows.delivered):
            links[link, "m"] += messages
            links[link, "b"] += size
    return {
        "delivered": _pairs(delivered),
        "missed": _pairs(missed),
        "links": _pairs(links),
        "published": dict(published),
    }


def _pairs(counter: Counter[Any]) -> dict[Any, list[int]]:
    out: dict[Any, list[int]] = {}
    for (row, measure), value in counter.items():
        out.setdefault(row, [0, 0])[0 if measure == "m" else 1] += value
    return out


def tallied(tallies: Tally) -> dict[str, Any]:
    return {
        "delivered": dict(tallies.delivered),
        "missed": dict(tallies.missed),
        "links": dict(tallies.links),
        "published": dict(tallies.published),
    }


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_a_tally_is_the_route_rows_of_each_publication_summed(data: Any) -> None:
    """A stream of publications through one model (a tiny cache, so kept plans are dropped and made
    again; prepared or not), some sharing a topic and publisher with other properties, some under
    failures or with subscribers offline: the tally is what summing each one's ``route`` rows gives,
    whether it is read once at the end or part way too."""
    topology = data.draw(mq_topologies())
    names = sorted(topology.nodes)
    subs = [(s.node, s.name) for s in topology.subscriptions]
    asked: list[tuple[Publication, Failures, int, int]] = []
    for node, topic, failures in data.draw(st.lists(questions(names, subs), min_size=1, max_size=5)):
        for failed in (failures, Failures()):
            for _ in range(data.draw(st.integers(1, 3))):
                amount = data.draw(st.sampled_from(AMOUNTS))
                properties = {} if amount is None else {"amount": JmsValue("int", amount)}
                messages, size = data.draw(st.integers(1, 5)), data.draw(st.integers(0, 1000))
                asked.append((Publication(node, topic, properties), failed, messages, size))
    model = RoutingModel(topology, cache_size=data.draw(st.sampled_from([1, 2, 16])))
    if data.draw(st.booleans()):
        model.prepare()
    tallies = Tally()
    read_at = data.draw(st.integers(0, len(asked)))
    for i, (publication, failures, messages, size) in enumerate(asked):
        if i == read_at:
            assert tallied(tallies) == summed_rows(asked[:i], topology)
        tally(model, publication, failures, tallies, messages, size)
    assert tallied(tallies) == summed_rows(asked, topology)
    first, second = Tally(), Tally()  # the Spark job's per-key tallies are merged into the batch's
    for i, (publication, failures, messages, size) in enumerate(asked):
        tally(model, publication, failures, first if i < read_at else second, messages, size)
    if data.draw(st.booleans()):
        tallied(second)  # read before it is merged: its plans' rows spread already, none pending
    first.merge(second)
    assert tallied(first) == tallied(tallies)


@st.composite
def cluster_estates(draw: st.DrawFn) -> Topology:
    """Clusters only, no FORCE, SUBSCOPE(QMGR) or WILDCARD(BLOCK) object and no hierarchy: the engine's
    flat path, where a copy relayed into the cluster is left as columns (``mq._Engine._flat_reach``)."""
    names = QMS[: draw(st.integers(2, 6))]
    t = Topology()
    for i, name in enumerate(names):
        t.add(Node(name, seq=i))
    seq = 100
    for cluster in ("CL1", "CL2")[: draw(st.integers(1, 2))]:
        for name in draw(st.sets(st.sampled_from(names), min_size=1)):
            seq += 1
            t.add(Membership(name, cluster, full_repository=True, seq=seq))
    for i in range(draw(st.integers(1, 5))):
        seq += 1
        t.add(
            TopicObject(
                draw(st.sampled_from(names)),
                f"T{i}",
                draw(st.sampled_from(TOPICSTRS)),
                cluster=draw(st.sampled_from(["", "CL1", "CL2"])),
                clroute=draw(st.sampled_from(list(ClRoute))),
                seq=seq,
            )
        )
    for i in range(draw(st.integers(1, 10))):
        seq += 1
        selector = draw(st.sampled_from([None, "amount > 10", "amount > 90", "missing = 1"]))
        t.add(
            Subscription(
                draw(st.sampled_from(names)),
                f"S{i}",
                draw(st.sampled_from(PATTERNS)),
                selector=selector,
                seq=seq,
            )
        )
    return t


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_a_tally_of_copies_relayed_into_a_cluster_is_their_route_rows_summed(data: Any) -> None:
    """Where the flat path leaves copies as columns, a tally still sums what ``route`` gives each
    publication: quiet subscriptions and ones with selectors on the same queue managers, DIRECT and
    topic-host clusters, keys of a topic and publisher one after another."""
    topology = data.draw(cluster_estates())
    names = sorted(topology.nodes)
    asked = []
    for _ in range(data.draw(st.integers(1, 6))):
        node, topic = data.draw(st.sampled_from(names)), data.draw(st.sampled_from(TOPICS))
        for amount in data.draw(st.lists(st.sampled_from(AMOUNTS), min_size=1, max_size=3)):
            properties = {} if amount is None else {"amount": JmsValue("int", amount)}
            asked.append((Publication(node, topic, properties), Failures(), data.draw(st.integers(1, 4)), 10))
    model = RoutingModel(topology).prepare()
    tallies = Tally()
    for publication, failures, messages, size in asked:
        tally(model, publication, failures, tallies, messages, size)
    assert tallied(tallies) == summed_rows(asked, topology)
