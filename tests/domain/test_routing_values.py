"""Routing's value types equal only a value of their own kind (a plain named tuple equals any tuple)."""

from __future__ import annotations

from mqctl.domain.explanation import Hop, Via
from mqctl.domain.routing.ems_network import Link
from mqctl.domain.routing.ladder import Arrival


def test_a_hop_equals_only_a_hop() -> None:
    hop = Hop("QM1", "QM2", Via.CLUSTER, "CL1")
    same = Hop("QM1", "QM2", Via.CLUSTER, "CL1")
    as_tuple = ("QM1", "QM2", Via.CLUSTER, "CL1", None)
    assert hop == same and not hop != same and hash(hop) == hash(same)  # noqa: SIM202
    assert hop != as_tuple and as_tuple != hop and not hop == as_tuple  # noqa: SIM201
    assert hop != Hop("QM1", "QM2", Via.CLUSTER, "CL2")
    assert {hop: 1}.get(as_tuple) is None and {as_tuple: 1}.get(hop) is None
    assert hop < Hop("QM1", "QM3", Via.CLUSTER, "CL1")  # ordering (sorting paths) is the tuple's


def test_arrivals_and_links_equal_only_their_own_kind() -> None:
    hop = Hop("QM1", "QM2", Via.CLUSTER, "CL1")
    arrival = Arrival(("QM1", "QM2"), (hop,))
    assert arrival == Arrival(("QM1", "QM2"), (hop,))
    assert arrival != (("QM1", "QM2"), (hop,), None, (), 0)
    assert arrival != Arrival(("QM1", "QM2"), (("QM1", "QM2", Via.CLUSTER, "CL1", None),))
    link = Link({}, frozenset())
    assert link == Link({}, frozenset()) and link != ({}, frozenset())
