"""Reconcile predicts only the proxies held at the captured queue managers, on the slice of the estate
joined to them (clusters and hierarchy relations, §4): it must predict exactly what the whole does."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from mqctl.domain.model import Membership, Node, Subscription, Topology
from mqctl.domain.observed import predict_proxies, reaching
from tests.domain.test_routing_model import mq_topologies


def _as_tuples(found: dict) -> dict:
    return {key: (p.cluster, sorted(p.subscriptions), p.forced_by) for key, p in sorted(found.items())}


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_prediction_for_some_holders_equals_the_whole_restricted(data: st.DataObject) -> None:
    topology = data.draw(mq_topologies())
    holders = frozenset(data.draw(st.sets(st.sampled_from(sorted(topology.nodes)), min_size=1)))
    whole = {k: v for k, v in predict_proxies(topology).items() if k[0] in holders}
    assert _as_tuples(predict_proxies(topology, holders)) == _as_tuples(whole)


def test_the_slice_leaves_out_what_cannot_reach_the_holders() -> None:
    topology = Topology().add(
        Node("A"), Node("B"), Node("C", parent="B"), Node("D"), Node("E"),
        Membership("A", "CL1"), Membership("B", "CL1"), Membership("D", "CL2"), Membership("E", "CL2"),
        Subscription("C", "S1", "/x/#"), Subscription("E", "S2", "/x/#"),
    )  # fmt: skip
    part = reaching(topology, ["A"])
    assert sorted(part.nodes) == ["A", "B", "C"]
    assert [s.name for s in part.subscriptions] == ["S1"]
    assert reaching(topology, ["A", "D"]) is topology
