"""One queue manager's single topic tree (reference 001; semantics §3, §9) as `display tree` shows it."""

from __future__ import annotations

import pytest

from mqctl.domain.errors import InputError
from mqctl.domain.model import ClRoute, Scope, Wildcard
from mqctl.domain.tree_view import SetAsideReason, TreeView, tree_view
from tests.domain import ems_builders as ems
from tests.domain import mq_builders as mq
from tests.render import topologies


def at(view: TreeView, topicstr: str):  # type: ignore[no-untyped-def]
    (node,) = [n for n in view.nodes if n.topicstr == topicstr]
    return node


def test_overlap_qm3_sees_both_clusters_and_the_wildcard_above_them() -> None:
    """Reference 001: QM3 holds TB (CLUSTER1) and TC (CLUSTER2); '/Sport/#' resolves above both."""
    t = topologies.overlap()
    t.add(mq.sub("QM3", "ALL.SPORT", "/Sport/#"), mq.sub("QM3", "FOOT", "/Sport/Football"))
    view = tree_view(t, "QM3")
    assert view.clusters == ("CLUSTER1", "CLUSTER2")
    assert [(n.topicstr, n.parent, n.depth) for n in view.nodes] == [
        ("", None, 0),
        ("/Sport", "", 1),
        ("/Sport/Football", "/Sport", 2),
        ("/Sport/Tennis", "/Sport", 2),
    ]
    football, tennis = at(view, "/Sport/Football"), at(view, "/Sport/Tennis")
    assert (football.object.name, football.defined_on, football.resolution.cluster) == (
        "TB",
        ("QM1",),
        "CLUSTER1",
    )
    assert (tennis.object.name, tennis.resolution.cluster) == ("TC", "CLUSTER2")
    (wild,) = at(view, "/Sport").subscriptions
    assert wild.subscription.name == "ALL.SPORT" and at(view, "/Sport").object is None
    assert wild.note is not None and "'/Sport/Football' (CLUSTER1), '/Sport/Tennis' (CLUSTER2)" in wild.note
    (exact,) = football.subscriptions
    assert exact.subscription.name == "FOOT" and exact.note is None


def test_a_local_object_hides_clustered_ones_of_the_same_topicstr_or_name() -> None:
    t = mq.topo(
        mq.qm("QM1"), mq.qm("QM2"), mq.cluster("CL", "QM1", "QM2"),
        mq.topic("QM2", "NEWS", "/News", "CL"),
        mq.topic("QM2", "SPORT", "/Sport", "CL"),
        mq.topic("QM1", "MYNEWS", "/News", subscope=Scope.QMGR),
        mq.topic("QM1", "SPORT", "/Games"),
    )  # fmt: skip
    view = tree_view(t, "QM1")
    (hidden,) = at(view, "/News").set_aside
    assert (hidden.object.name, hidden.reason, hidden.winner.name) == (
        "NEWS",
        SetAsideReason.HIDDEN_BY_LOCAL,
        "MYNEWS",
    )
    assert "same TOPICSTR" in hidden.detail
    assert at(view, "/News").object.name == "MYNEWS" and at(view, "/News").resolution.subscope is Scope.QMGR
    (by_name,) = at(view, "/Sport").set_aside
    assert (
        by_name.winner.name == "SPORT"
        and by_name.winner.topicstr == "/Games"
        and "same name" in by_name.detail
    )
    assert at(view, "/Sport").object is None and not at(view, "/Sport").resolution.clustered


def test_conflicting_clustered_definitions_keep_the_most_recent() -> None:
    """Reference 001: two clusters define '/Sport' on a queue manager in both: only the most recent is used."""
    t = mq.topo(
        [mq.qm(n) for n in ("QM1", "QM3", "QM4")],
        mq.cluster("CL1", "QM1", "QM3"), mq.cluster("CL2", "QM4", "QM3"),
        mq.topic("QM1", "OLD", "/Sport", "CL1"),
        mq.topic("QM4", "NEW", "/Sport", "CL2"),
    )  # fmt: skip
    sport = at(tree_view(t, "QM3"), "/Sport")
    assert sport.object.name == "NEW" and sport.resolution.cluster == "CL2"
    (aside,) = sport.set_aside
    assert (aside.object.name, aside.reason, aside.winner.name) == ("OLD", SetAsideReason.CONFLICT, "NEW")
    assert [str(c.kind) for c in sport.conflicts] == ["SAME_TOPICSTR"]
    assert at(tree_view(t, "QM1"), "/Sport").set_aside == []  # QM1 is in CL1 only: no conflict there


def test_effective_attributes_inherit_and_interference_is_shown_below() -> None:
    t = mq.topo(
        [mq.qm(n) for n in ("QM1", "QM2")],
        mq.cluster("CL1", "QM1", "QM2"), mq.cluster("CL2", "QM2", "QM1"),
        mq.topic("QM1", "TOP", "/A", "CL1", clroute=ClRoute.TOPICHOST, pubscope=Scope.QMGR),
        mq.topic("QM1", "MID", "/A/B", wildcard=Wildcard.BLOCK),
        mq.topic("QM2", "LOW", "/A/B/C", "CL2"),
    )  # fmt: skip
    view = tree_view(t, "QM1")
    mid = at(view, "/A/B")
    assert (mid.resolution.cluster, mid.resolution.cluster_point.name, mid.resolution.clroute) == (
        "CL1", "TOP", ClRoute.TOPICHOST,
    )  # fmt: skip
    assert (mid.resolution.pubscope, mid.resolution.wildcard) == (Scope.QMGR, Wildcard.BLOCK)
    assert mid.resolution.hosts == ("QM1",)
    (interference,) = at(view, "/A/B/C").conflicts
    assert str(interference.kind) == "INTERFERENCE" and at(view, "/A").conflicts == []


def test_alike_definitions_on_several_hosts_are_one_object_with_its_hosts() -> None:
    view = tree_view(topologies.demo(), "QM5")
    alabama = at(view, "/USA/Alabama")
    assert alabama.defined_on == ("QM3", "QM4") and alabama.set_aside == [] and alabama.conflicts == []
    assert [s.subscription.name for s in alabama.subscriptions] == ["MOBILE.ORDERS"]
    assert [s.subscription.name for s in at(view, "/USA/Alabama/Mobile").subscriptions] == ["LOCAL.MOBILE"]


def test_a_branch_keeps_the_objects_above_it() -> None:
    view = tree_view(topologies.demo(), "QM6", "/USA/Alaska/Juneau/x")
    assert [n.topicstr for n in view.nodes] == [
        "", "/USA", "/USA/Alaska", "/USA/Alaska/Juneau", "/USA/Alaska/Juneau/x",
    ]  # fmt: skip
    assert [s.subscription.name for s in view.nodes[1].subscriptions] == ["ALL.USA"]
    assert view.nodes[-1].object is None and view.nodes[-1].resolution.object_name == "ALASKA"
    data = view.to_json()
    assert data["topic"] == "/USA/Alaska/Juneau/x"
    assert [n["topicstr"] for n in data["nodes"]] == [n.topicstr for n in view.nodes]
    assert set(data["nodes"][1]) == {
        "topicstr", "parent", "depth", "object", "effective", "set_aside", "conflicts", "subscriptions",
    }  # fmt: skip
    assert data["nodes"][2]["effective"]["hosts"] == ["QM4"]
    assert data["nodes"][3]["subscriptions"][0]["name"] == "JUNEAU"


def test_only_a_known_queue_manager_has_a_tree() -> None:
    with pytest.raises(InputError, match="no such queue manager"):
        tree_view(topologies.demo(), "NOPE")
    with pytest.raises(InputError, match="EMS server"):
        tree_view(ems.orders(), "ORD")


def test_effective_values_are_every_resolved_attribute_in_resolutions_order() -> None:
    """``effective`` (display topic, display tree -o json) names what a resolution makes effective, in
    ``Resolution``'s order: a field added there shows up here or this fails."""
    from mqctl.domain.tree_view import EFFECTIVE_KEYS, effective_json

    view = tree_view(topologies.overlap(), "QM3")
    for node in view.nodes:
        assert tuple(effective_json(node.resolution)) == EFFECTIVE_KEYS
    football = effective_json(at(view, "/Sport/Football").resolution)
    assert (football["cluster"], football["pubscope"], football["clroute"]) == ("CLUSTER1", "ALL", "DIRECT")
