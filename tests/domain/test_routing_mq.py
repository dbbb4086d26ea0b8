"""The MQ routing engine (semantics §4, §5, §8, §9; references 000, 001 and 004).

Every test builds its topology in Python with ``mq_builders`` and asks ``routing.explain``.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mqctl.domain.explanation import Explanation, Failures, Publication, Reason, Status
from mqctl.domain.messages import JmsValue
from mqctl.domain.model import (
    Channel,
    ClRoute,
    Dialect,
    Membership,
    Namelist,
    Node,
    ProxySub,
    Scope,
    SubScope,
    Subscription,
    Topology,
    Wildcard,
    WSchema,
)
from mqctl.domain.routing import explain
from mqctl.domain.topics import matches, topic_level_prefixes
from tests.domain.mq_builders import ask, cluster, codes, got, hops, hosted, missed, qm, sub, topic, topo

QMS = ("QM1", "QM2", "QM3", "QM4", "QM5")


def _qms(*names: str) -> list[Node]:
    return [qm(n) for n in names]


# --- direct routing -------------------------------------------------------------------------------------------


def direct_sport() -> Topology:
    return topo(
        _qms(*QMS[:4]),
        cluster("CL1", *QMS[:4]),
        topic("QM1", "SPORT", "/Sport", "CL1"),
        sub("QM2", "S2", "/Sport/Football"),
        sub("QM3", "S3", "/Sport/#"),
        sub("QM3", "OTHER", "/Sport/Tennis"),
    )


def test_direct_routing_one_hop_to_each_member_with_a_proxy() -> None:
    """§4.1 DIRECT + §5.3 DIRECT (reference 004): one copy straight to each member with a matching proxy."""
    e = ask(direct_sport(), "QM4", "/Sport/Football")
    assert e.resolved.to_json() == {
        "node": "QM4",
        "object": "SPORT",
        "topicstr": "/Sport",
        "cluster": "CL1",
        "clroute": "DIRECT",
    }
    d2, d3 = got(e, "QM2", "S2"), got(e, "QM3", "S3")
    assert d2.path == ["QM4", "QM2"] and hops(d2) == [("QM4", "QM2", "cluster", "CL1")]
    assert d3.path == ["QM4", "QM3"] and d2.status is Status.DELIVERED and d2.alternatives == []
    assert [(d.node, d.subscription) for d in e.deliveries] == [("QM2", "S2"), ("QM3", "S3")]
    assert e.not_delivered == [] and e.warnings == []


def test_local_delivery_has_path_of_publisher_only() -> None:
    """§5.1: local subscriptions at the publisher receive it; path [publisher], no hops."""
    e = ask(direct_sport(), "QM2", "/Sport/Football")
    d = got(e, "QM2", "S2")
    assert d.path == ["QM2"] and d.hops == [] and d.stored_at is None


def test_root_resolution_is_null_object() -> None:
    """§3 root defaults; `resolved.object` is null at the root and nothing is clustered."""
    e = ask(direct_sport(), "QM4", "/News/x")
    assert e.resolved.to_json() == {
        "node": "QM4",
        "object": None,
        "topicstr": None,
        "cluster": None,
        "clroute": None,
    }


# --- topic host routing (reference 000) ------------------------------------------------------------------------


def host_cluster(*hosts: str, subs: tuple[Subscription, ...] = ()) -> Topology:
    return topo(_qms(*QMS), cluster("CL1", *QMS), hosted("CL1", "T1", "/USA/Alabama", *hosts), *subs)


def test_topic_host_single_host() -> None:
    """Reference 000 Figure 4 + §5.3 TOPICHOST: publisher -> host (topichost) -> subscriber (cluster)."""
    e = ask(host_cluster("QM2", subs=(sub("QM4", "S", "/USA/Alabama/Mobile"),)), "QM1", "/USA/Alabama/Mobile")
    d = got(e, "QM4", "S")
    assert d.path == ["QM1", "QM2", "QM4"] and d.alternatives == []
    assert hops(d) == [("QM1", "QM2", "topichost", "CL1"), ("QM2", "QM4", "cluster", "CL1")]
    assert e.resolved.clroute == "TOPICHOST" and codes(e) == []


def test_topic_host_several_hosts_alternatives_and_order() -> None:
    """Reference 000 Figures 6-8 + §9: path via the first host by name, others alternatives, ORDER_NOT_PRESERVED."""
    e = ask(host_cluster("QM3", "QM2", subs=(sub("QM4", "S", "/USA/Alabama/#"),)), "QM1", "/USA/Alabama")
    d = got(e, "QM4", "S")
    assert d.path == ["QM1", "QM2", "QM4"] and d.alternatives == [["QM1", "QM3", "QM4"]]
    assert codes(e) == ["ORDER_NOT_PRESERVED"]
    assert "QM2, QM3" in e.warnings[0].message


def test_topic_host_down_host_skipped() -> None:
    """§5.6: a topic host that is down is skipped; one host left: no alternatives, order kept."""
    t = host_cluster("QM2", "QM3", subs=(sub("QM4", "S", "/USA/Alabama/Mobile"),))
    e = ask(t, "QM1", "/USA/Alabama/Mobile", down=["QM2"])
    d = got(e, "QM4", "S")
    assert d.path == ["QM1", "QM3", "QM4"] and d.status is Status.DELIVERED and d.alternatives == []
    assert codes(e) == []
    e = ask(t, "QM1", "/USA/Alabama/Mobile", links=[("QM1", "QM2")])
    assert got(e, "QM4", "S").path == ["QM1", "QM3", "QM4"]


def test_topic_host_all_hosts_down_stored_at_publisher() -> None:
    """§5.6 + §9: no host available -> path through the first host by name, stored at the publisher."""
    t = host_cluster("QM3", "QM2", subs=(sub("QM4", "S", "/USA/Alabama/Mobile", durable=False),))
    e = ask(t, "QM1", "/USA/Alabama/Mobile", down=["QM2", "QM3"])
    d = got(e, "QM4", "S")
    assert (d.status, d.stored_at, d.path, d.alternatives) == (
        Status.STORED,
        "QM1",
        ["QM1", "QM2", "QM4"],
        [],
    )


def test_topic_host_sent_even_without_subscribers() -> None:
    """Reference 000 ("forwarded ... even if there are no subscribers") + §5.3: NO_SUBSCRIBERS_AT_HOST."""
    e = ask(host_cluster("QM2"), "QM1", "/USA/Alabama/Mobile")
    assert codes(e) == ["NO_SUBSCRIBERS_AT_HOST"] and "QM2" in e.warnings[0].message
    local = host_cluster("QM2", subs=(sub("QM1", "L", "/USA/Alabama/Mobile"),))
    e = ask(local, "QM1", "/USA/Alabama/Mobile")
    assert got(e, "QM1", "L").path == ["QM1"] and codes(e) == ["NO_SUBSCRIBERS_AT_HOST"]


def test_publisher_on_a_host_acts_as_host() -> None:
    """Reference 000 (publishers local to a topic host) + §5.3: the host publisher sends straight on."""
    t = host_cluster("QM2", "QM3", subs=(sub("QM4", "S", "/USA/Alabama/Mobile"),))
    e = ask(t, "QM3", "/USA/Alabama/Mobile")
    d = got(e, "QM4", "S")
    assert d.path == ["QM3", "QM4"] and hops(d) == [("QM3", "QM4", "cluster", "CL1")] and d.alternatives == []
    assert codes(e) == []


def test_subscriber_on_the_single_host_no_extra_hop() -> None:
    """§9 Topic host with a subscriber on a host: one host -> no extra hop."""
    e = ask(host_cluster("QM2", subs=(sub("QM2", "S", "/USA/Alabama/Mobile"),)), "QM1", "/USA/Alabama/Mobile")
    d = got(e, "QM2", "S")
    assert d.path == ["QM1", "QM2"] and hops(d) == [("QM1", "QM2", "topichost", "CL1")]
    assert codes(e) == []


def test_subscriber_on_one_of_several_hosts() -> None:
    """§9 + reference 000 ("only a proportion ... avoid the additional hop"): own host is an alternative."""
    t = host_cluster("QM2", "QM3", subs=(sub("QM3", "S", "/USA/Alabama/Mobile"),))
    d = got(ask(t, "QM1", "/USA/Alabama/Mobile"), "QM3", "S")
    assert d.path == ["QM1", "QM2", "QM3"] and d.alternatives == [["QM1", "QM3"]]
    assert hops(d) == [("QM1", "QM2", "topichost", "CL1"), ("QM2", "QM3", "cluster", "CL1")]


def test_tree_divided_across_hosts() -> None:
    """Reference 000 Figure 5: /USA/Alabama via the host of T1, /USA/Alaska via the host of T2."""
    t = topo(
        _qms(*QMS),
        cluster("CL1", *QMS),
        topic("QM2", "T1", "/USA/Alabama", "CL1", clroute=ClRoute.TOPICHOST),
        topic("QM3", "T2", "/USA/Alaska", "CL1", clroute=ClRoute.TOPICHOST),
        sub("QM4", "MOBILE", "/USA/Alabama/Mobile"),
        sub("QM4", "JUNEAU", "/USA/Alaska/Juneau"),
        sub("QM5", "ALL", "/USA/#"),
    )
    assert got(ask(t, "QM1", "/USA/Alabama/Mobile"), "QM4", "MOBILE").path == ["QM1", "QM2", "QM4"]
    e = ask(t, "QM1", "/USA/Alaska/Juneau")
    assert got(e, "QM4", "JUNEAU").path == ["QM1", "QM3", "QM4"]
    assert missed(e, "QM5", "ALL").reason is Reason.WILDCARD_ABOVE_CLUSTER  # "cannot span ... branches"


# --- overlapping clusters (reference 001) ------------------------------------------------------------------------


def overlap(*extra: object) -> Topology:
    return topo(
        _qms(*QMS),
        cluster("CL1", "QM1", "QM2", "QM3"),
        cluster("CL2", "QM3", "QM4", "QM5"),
        topic("QM1", "Football", "/Sport/Football", "CL1"),
        topic("QM4", "Tennis", "/Sport/Tennis", "CL2"),
        *extra,
    )


def test_overlap_wildcard_on_overlap_misses_remote_publications() -> None:
    """Reference 001: '/Sport/#' on QM3 is clustered in neither cluster -> misses remote publications."""
    t = overlap(
        sub("QM3", "W", "/Sport/#"), sub("QM2", "F2", "/Sport/Football"), sub("QM5", "F5", "/Sport/Football")
    )
    e = ask(t, "QM1", "/Sport/Football")
    w = missed(e, "QM3", "W")
    assert w.reason is Reason.WILDCARD_ABOVE_CLUSTER and "QM3" in w.detail and "Football" in w.detail
    assert got(e, "QM2", "F2").path == ["QM1", "QM2"]
    f5 = missed(e, "QM5", "F5")  # no routing between overlapping clusters
    assert f5.reason is Reason.NO_PATH and "CL1" in f5.detail
    assert missed(ask(t, "QM4", "/Sport/Tennis"), "QM3", "W").reason is Reason.WILDCARD_ABOVE_CLUSTER
    assert got(ask(t, "QM3", "/Sport/Tennis"), "QM3", "W").path == ["QM3"]  # local publications arrive


def test_overlap_exact_subscriptions_on_overlap_receive_from_both() -> None:
    """Reference 001 Figure 1: QM3 in the overlap subscribes to both clusters with two subscriptions."""
    t = overlap(sub("QM3", "F", "/Sport/Football"), sub("QM3", "T", "/Sport/Tennis"))
    assert got(ask(t, "QM1", "/Sport/Football"), "QM3", "F").path == ["QM1", "QM3"]
    assert got(ask(t, "QM5", "/Sport/Tennis"), "QM3", "T").path == ["QM5", "QM3"]


def test_overlap_sport_clustered_in_one_cluster_still_misses_other() -> None:
    """Reference 001: a clustered '/Sport' in CL1 only -> '/Sport/Tennis' from QM4 still missed."""
    t = overlap(topic("QM1", "SPORT", "/Sport", "CL1"), sub("QM3", "W", "/Sport/#"))
    got_it = ask(t, "QM2", "/Sport/Football")
    assert got(got_it, "QM3", "W").path == ["QM2", "QM3"]
    assert missed(ask(t, "QM4", "/Sport/Tennis"), "QM3", "W").reason is Reason.WILDCARD_ABOVE_CLUSTER
    e = ask(t, "QM3", "/Sport/Tennis")  # QM3 sees /Sport (CL1) above /Sport/Tennis (CL2): interference
    assert "CONFLICT" in codes(e)
    assert any("Tennis" in w.message and "SPORT" in w.message for w in e.warnings)


def test_conflict_same_topicstr_two_clusters() -> None:
    """Reference 001 + §9 Warnings: same TOPICSTR in both clusters -> most recent used, CONFLICT warned."""
    t = topo(
        _qms("QM1", "QM3", "QM4"),
        cluster("CL1", "QM1", "QM3"),
        cluster("CL2", "QM3", "QM4"),
        topic("QM1", "SPORT1", "/Sport", "CL1"),
        topic("QM4", "SPORT2", "/Sport", "CL2"),
        sub("QM1", "S1", "/Sport/x"),
        sub("QM4", "S4", "/Sport/x"),
    )
    e = ask(t, "QM3", "/Sport/x")
    assert e.resolved.object == "SPORT2" and e.resolved.cluster == "CL2"
    assert got(e, "QM4", "S4").path == ["QM3", "QM4"]
    assert missed(e, "QM1", "S1").reason is Reason.NO_PATH
    assert codes(e) == ["CONFLICT"] and "SPORT1" in e.warnings[0].message and "QM3" in e.warnings[0].message
    assert codes(ask(t, "QM4", "/Sport/x")) == []  # QM4 sees CL2 only and the copy touches nobody else


def test_conflict_same_name_and_different_attributes() -> None:
    """§3: same name in two clusters, and one cluster with disagreeing definitions, warn CONFLICT."""
    t = topo(
        _qms("QM1", "QM2", "QM3", "QM4"),
        cluster("CL1", "QM1", "QM2", "QM3"),
        cluster("CL2", "QM3", "QM4"),
        topic("QM1", "NEWS", "/News", "CL1"),
        topic("QM4", "NEWS", "/Other", "CL2"),
    )
    assert codes(ask(t, "QM3", "/News/x")) == ["CONFLICT"]
    assert codes(ask(t, "QM2", "/News/x")) == []  # QM2 sees CL1 only
    t = topo(
        _qms("QM1", "QM2"),
        cluster("CL1", "QM1", "QM2"),
        topic("QM1", "T", "/t", "CL1", clroute=ClRoute.TOPICHOST),
        topic("QM2", "T", "/t", "CL1", clroute=ClRoute.TOPICHOST, wildcard=Wildcard.BLOCK),
    )
    e = ask(t, "QM1", "/t")
    assert codes(e) == ["CONFLICT"] and "disagree" in e.warnings[0].message


# --- hierarchies ----------------------------------------------------------------------------------------------------


def joined_clusters() -> Topology:
    return topo(
        qm("A1"),
        qm("A2"),
        qm("B1", parent="A2"),
        qm("B2"),
        cluster("CLA", "A1", "A2"),
        cluster("CLB", "B1", "B2"),
        topic("A1", "NEWSA", "/News", "CLA"),
        topic("B2", "NEWSB", "/News", "CLB"),
        sub("B2", "S", "/News/x"),
        sub("A1", "SA", "/News/#"),
    )


def test_hierarchy_joins_two_direct_clusters() -> None:
    """Reference 001 ("link ... using a publish/subscribe hierarchy") + §4.3: proxies relayed both ways."""
    e = ask(joined_clusters(), "A1", "/News/x")
    d = got(e, "B2", "S")
    assert d.path == ["A1", "A2", "B1", "B2"]
    assert hops(d) == [
        ("A1", "A2", "cluster", "CLA"),
        ("A2", "B1", "hierarchy", "B1->A2"),
        ("B1", "B2", "cluster", "CLB"),
    ]
    back = got(ask(joined_clusters(), "B2", "/News/x"), "A1", "SA")
    assert back.path == ["B2", "B1", "A2", "A1"]
    assert hops(back)[1] == ("B1", "A2", "hierarchy", "B1->A2")  # child first whatever the direction


def test_hierarchy_multi_hop_never_back() -> None:
    """§4.3 + §5.4: hierarchy forwarding is multi-hop, both ways, never back."""
    t = topo(qm("ROOT"), qm("MID", parent="ROOT"), qm("LEAF", parent="MID"), qm("SIB", parent="ROOT"))
    t.add(sub("LEAF", "L", "/a/#"), sub("SIB", "S", "/a/b"), sub("MID", "M", "/a/b"))
    e = ask(t, "SIB", "/a/b")
    assert got(e, "LEAF", "L").path == ["SIB", "ROOT", "MID", "LEAF"]
    assert hops(got(e, "LEAF", "L"))[0] == ("SIB", "ROOT", "hierarchy", "SIB->ROOT")
    assert got(e, "MID", "M").path == ["SIB", "ROOT", "MID"]
    assert got(e, "SIB", "S").path == ["SIB"] and codes(e) == []


def test_hierarchy_beside_cluster_duplicates_possible() -> None:
    """§4.3: a hierarchy link beside a cluster that already joins the queue managers -> DUPLICATES_POSSIBLE."""
    t = topo(
        qm("QM1"),
        qm("QM2", parent="QM1"),
        cluster("CL1", "QM1", "QM2"),
        topic("QM1", "T", "/t", "CL1"),
        sub("QM2", "S", "/t"),
    )
    e = ask(t, "QM1", "/t")
    d = got(e, "QM2", "S")
    assert d.path == ["QM1", "QM2"] and hops(d)[0][2] == "cluster" and d.alternatives == []
    assert codes(e) == ["DUPLICATES_POSSIBLE"]


def relay_loop(clroute: ClRoute = ClRoute.DIRECT, *extra: object) -> Topology:
    """Issue 38: QM0 -> QM1 (hierarchy, QM1 PARENT(QM0)); QM1, QM2, QM3 in C1 (T2 '/a' on QM1); QM3
    PARENT(QM2), a hierarchy link beside C1. S5 ('/a/d/3/#') on QM0, S0 ('/#') on QM3."""
    return topo(
        qm("QM0"),
        qm("QM1", parent="QM0"),
        qm("QM2"),
        qm("QM3", parent="QM2"),
        cluster("C1", "QM1", "QM2", "QM3"),
        topic("QM1", "T2", "/a", "C1", clroute=clroute),
        sub("QM0", "S5", "/a/d/3/#"),
        sub("QM3", "S0", "/#"),
        *extra,
    )


def test_interest_relayed_around_a_loop_beside_a_direct_cluster() -> None:
    """Issue 38, §4.3: S5's proxy reaches QM1 over the hierarchy and goes into C1 (QM1 treats it as
    local); QM2 and QM3 pass the copy they got from C1 over their link, and push the one they got over
    the link into C1, to QM1 only (never back to the neighbour it came from). QM1 then sends QM3 a copy,
    on which S0 ('/#') rides (§5.5), and the loop is named."""
    e = ask(relay_loop(), "QM1", "/a/d/3")
    d = got(e, "QM3", "S0")
    assert d.path == ["QM1", "QM3"] and hops(d) == [("QM1", "QM3", "cluster", "C1")]
    assert d.alternatives == [["QM1", "QM2", "QM3"]]
    assert got(e, "QM0", "S5").path == ["QM1", "QM0"]
    assert codes(e) == ["DUPLICATES_POSSIBLE"]
    assert e.warnings[0].message.startswith(
        "The hierarchy link QM3->QM2 lies beside cluster C1, which already joins QM2 and QM3: a loop"
    )


def test_interest_relayed_around_the_loop_beside_a_topic_host_cluster() -> None:
    """Issue 38's TOPICHOST twin (QM3 a host too): S5's proxy goes from QM1 to the other host QM3, which
    passes it over the link to QM2, which pushes it into C1 to the host QM1 (not back to QM3). QM1 acts
    as host: QM1 -> QM2 -> QM3; no second path, so no loop warning."""
    t = relay_loop(ClRoute.TOPICHOST, topic("QM3", "T2", "/a", "C1", clroute=ClRoute.TOPICHOST))
    e = ask(t, "QM1", "/a/d/3")
    d = got(e, "QM3", "S0")
    assert d.path == ["QM1", "QM2", "QM3"] and d.alternatives == []
    assert hops(d) == [("QM1", "QM2", "cluster", "C1"), ("QM2", "QM3", "hierarchy", "QM3->QM2")]
    assert "DUPLICATES_POSSIBLE" not in codes(e)


def test_a_subscope_qmgr_relay_stops_the_interest_around_the_loop() -> None:
    """Issue 38 with QM2 a SUBSCOPE(QMGR) relay ('/a/d' on QM2, §9 Scopes apply at every relay): QM2
    neither passes nor pushes S5's proxy, so QM1 holds none from QM3 and S0 gets no copy (SCOPE: one
    would arrive were every scope ALL); no loop warning."""
    e = ask(relay_loop(ClRoute.DIRECT, topic("QM2", "LOCAL", "/a/d", subscope=Scope.QMGR)), "QM1", "/a/d/3")
    assert missed(e, "QM3", "S0").reason is Reason.SCOPE
    assert got(e, "QM0", "S5").path == ["QM1", "QM0"]
    assert "DUPLICATES_POSSIBLE" not in codes(e)


@st.composite
def loop_estates(draw: st.DrawFn) -> tuple[Topology, str, str, str]:
    """Issue 38's shape at random: a DIRECT cluster C1 of 3 to 6 members ('/a' clustered on one of
    them), a hierarchy link (either way) between two members X and Y, and an outsider O linked (either
    way) to a third member R, O subscribing under '/a'; '/#' on X and Y. Returns the estate, X, Y, R."""
    members = [f"M{i}" for i in range(draw(st.integers(3, 6)))]
    x, y, r = draw(st.permutations(members))[:3]
    parents: dict[str, str] = {}
    for a, b in ((x, y), (r, "O")):
        child, parent = (a, b) if draw(st.booleans()) else (b, a)
        parents[child] = parent
    return (
        topo(
            [qm(n, parent=parents.get(n)) for n in [*members, "O"]],
            cluster("C1", *members),
            topic(draw(st.sampled_from(members)), "T", "/a", "C1"),
            sub("O", "SO", draw(st.sampled_from(["/a/#", "/a/d/#", "/a/d"]))),
            sub(x, "WX", "/#"),
            sub(y, "WY", "/#"),
        ),
        x,
        y,
        r,
    )


@settings(max_examples=60, deadline=None)
@given(loop_estates(), st.data())
def test_interest_relayed_into_a_loop_reaches_both_ends(
    case: tuple[Topology, str, str, str], data: st.DataObject
) -> None:
    """§4.3 on issue 38's shape: O's proxy, pushed into C1 by R, reaches X and Y from the cluster; each
    passes it over their link and pushes what it got over the link into C1. So every member holds a
    proxy from X and from Y, and the '/#' subscriptions there ride on it (§5.5) whoever publishes in
    C1; a publisher other than X and Y reaches both along two paths (the loop, named)."""
    t, x, y, r = case
    publisher = data.draw(st.sampled_from(sorted(m.node for m in t.memberships)))
    e = ask(t, publisher, "/a/d")
    for node, name in ((x, "WX"), (y, "WY")):
        assert got(e, node, name).status is Status.DELIVERED
    assert got(e, "O", "SO").path[-2:] == [r, "O"]
    looping = [w.message for w in e.warnings if str(w.code) == "DUPLICATES_POSSIBLE"]
    if publisher not in (x, y):
        link = next(
            f"{n.name}->{n.parent}" for n in t.nodes.values() if n.parent and {n.name, n.parent} == {x, y}
        )
        assert len(looping) == 1 and f"The hierarchy link {link} lies beside cluster C1" in looping[0]


def test_proxy_from_one_cluster_never_pushed_into_another() -> None:
    """§9 Scopes: an overlap queue manager does not push a proxy received from CL2 into CL1."""
    t = topo(
        _qms("QM1", "QM3", "QM4"),
        cluster("CL1", "QM1", "QM3"),
        cluster("CL2", "QM3", "QM4"),
        topic("QM1", "A", "/a", "CL1"),
        topic("QM4", "AB", "/a/b", "CL2"),
        sub("QM4", "S", "/a/b"),
    )
    assert missed(ask(t, "QM1", "/a/b"), "QM4", "S").reason is Reason.NO_PATH


# --- wildcards above the clustered point (reference 004) --------------------------------------------------------


def football(*extra: object, block: bool = False) -> Topology:
    wildcard = Wildcard.BLOCK if block else Wildcard.PASSTHRU
    return topo(
        _qms("QM1", "QM2"),
        cluster("CL1", "QM1", "QM2"),
        topic("QM1", "FOOTBALL", "/Sport/Football", "CL1", wildcard=wildcard),
        sub("QM2", "W", "/Sport/#"),
        *extra,
    )


def test_wildcard_above_cluster_missed() -> None:
    """Reference 004 "Wildcard subscriptions": no proxy sent, so no publications from other members."""
    e = ask(football(), "QM1", "/Sport/Football")
    nd = missed(e, "QM2", "W")
    assert nd.reason is Reason.WILDCARD_ABOVE_CLUSTER and "FOOTBALL" in nd.detail


def test_wildcard_above_cluster_rides_on_other_subscription() -> None:
    """Reference 004: another subscription at/below the cluster topic brings the proxy; the wildcard rides."""
    e = ask(football(sub("QM2", "E", "/Sport/Football")), "QM1", "/Sport/Football")
    assert got(e, "QM2", "W").path == ["QM1", "QM2"] and got(e, "QM2", "E").path == ["QM1", "QM2"]


def test_wildcard_block_remote_and_local() -> None:
    """Reference 004 + §5.5: WILDCARD(BLOCK) keeps the higher wildcard out, local or remote publications."""
    t = football(sub("QM2", "E", "/Sport/Football"), sub("QM2", "F", "/Sport/Football/#"), block=True)
    e = ask(t, "QM1", "/Sport/Football")
    assert missed(e, "QM2", "W").reason is Reason.WILDCARD_BLOCKED
    got(e, "QM2", "E")
    got(e, "QM2", "F")  # fixed prefix at the object, not above it
    local = ask(t, "QM2", "/Sport/Football/Goal")
    blocked = missed(local, "QM2", "W")
    assert blocked.reason is Reason.WILDCARD_BLOCKED and "FOOTBALL" in blocked.detail


def test_proxysub_force_sends_proxies_without_subscriptions() -> None:
    """§4.4: PROXYSUB(FORCE) on the clustered object sends proxies for O/#: the higher wildcard receives."""
    t = topo(
        _qms("QM1", "QM2"),
        cluster("CL1", "QM1", "QM2"),
        topic("QM1", "FOOTBALL", "/Sport/Football", "CL1", proxysub=ProxySub.FORCE),
        sub("QM2", "W", "/Sport/#"),
    )
    assert got(ask(t, "QM1", "/Sport/Football/Goal"), "QM2", "W").path == ["QM1", "QM2"]


# --- scopes -----------------------------------------------------------------------------------------------------------


def scoped(*extra: object) -> Topology:
    return topo(
        _qms("QM1", "QM2"), cluster("CL1", "QM1", "QM2"), topic("QM2", "SPORT", "/Sport", "CL1"), *extra
    )


def test_pubscope_qmgr_on_object_nothing_leaves() -> None:
    """§5.2: effective PUBSCOPE(QMGR) at the publisher -> only local subscribers; remote ones SCOPE."""
    t = scoped(
        topic("QM1", "LOC", "/Sport/Football", pubscope=Scope.QMGR),
        sub("QM1", "L", "/Sport/Football"),
        sub("QM2", "R", "/Sport/Football"),
    )
    e = ask(t, "QM1", "/Sport/Football")
    assert got(e, "QM1", "L").path == ["QM1"]
    r = missed(e, "QM2", "R")
    assert r.reason is Reason.SCOPE and "LOC" in r.detail and "QM1" in r.detail
    assert e.resolved.cluster == "CL1"  # blank cluster inherited from SPORT


def test_pubscope_asparent_inherited_from_local_parent() -> None:
    """§3 ASPARENT: PUBSCOPE comes from the next object up in the publisher's own tree."""
    t = scoped(
        topic("QM1", "LOCSPORT", "/Sport/Local", pubscope=Scope.QMGR), sub("QM2", "R", "/Sport/Local/x")
    )
    t.add(topic("QM2", "X", "/Sport/Local/x", "CL1"))
    e = ask(t, "QM1", "/Sport/Local/x")
    assert missed(e, "QM2", "R").reason is Reason.SCOPE
    assert e.resolved.object == "X"


def test_subscope_qmgr_on_subscription_and_on_object() -> None:
    """§3 (effective subscription scope) + §9 precedence: SUBSCOPE(QMGR) -> SCOPE for remote, local fine."""
    t = scoped(
        sub("QM2", "OWN", "/Sport/Football", subscope=SubScope.QMGR),
        topic("QM2", "TENNIS", "/Sport/Tennis", subscope=Scope.QMGR),
        sub("QM2", "OBJ", "/Sport/Tennis"),
    )
    own = missed(ask(t, "QM1", "/Sport/Football"), "QM2", "OWN")
    assert own.reason is Reason.SCOPE and "SUBSCOPE(QMGR)" in own.detail
    obj = missed(ask(t, "QM1", "/Sport/Tennis"), "QM2", "OBJ")
    assert obj.reason is Reason.SCOPE and "TENNIS" in obj.detail
    assert got(ask(t, "QM2", "/Sport/Football"), "QM2", "OWN").path == ["QM2"]


def test_subscope_qmgr_stops_riders_too() -> None:
    """§9 precedence: no copy arrives, but one would with every scope ALL -> SCOPE (not WILDCARD_ABOVE)."""
    t = football(sub("QM2", "E", "/Sport/Football", subscope=SubScope.QMGR))
    assert missed(ask(t, "QM1", "/Sport/Football"), "QM2", "W").reason is Reason.SCOPE


def test_local_object_over_clustered() -> None:
    """§3 + reference 004 ("the local topic takes precedence"): the publisher's local object unclusters T."""
    t = scoped(topic("QM1", "MINE", "/Sport"), sub("QM2", "R", "/Sport/x"))
    e = ask(t, "QM1", "/Sport/x")
    assert e.resolved.to_json()["object"] == "MINE" and e.resolved.cluster is None
    nd = missed(e, "QM2", "R")
    assert nd.reason is Reason.NO_PATH and "not clustered" in nd.detail


# --- failures ---------------------------------------------------------------------------------------------------------


def failing() -> Topology:
    return topo(
        qm("QM1"),
        qm("QM2"),
        qm("QM3", parent="QM2"),
        cluster("CL1", "QM1", "QM2"),
        topic("QM1", "T", "/t", "CL1"),
        sub("QM2", "D", "/t"),
        sub("QM2", "N", "/t", durable=False),
        sub("QM3", "D3", "/t"),
        sub("QM3", "N3", "/t", durable=False),
        sub("QM1", "L", "/t", durable=False),
    )


def test_down_subscriber_node() -> None:
    """§5.6 + §9 Failures: durable -> stored at the last available node; non-durable -> DOWN."""
    e = ask(failing(), "QM1", "/t", down=["QM2"])
    d = got(e, "QM2", "D")
    assert (d.status, d.stored_at, d.path) == (Status.STORED, "QM1", ["QM1", "QM2"])
    assert missed(e, "QM2", "N").reason is Reason.DOWN
    d3 = got(e, "QM3", "D3")  # behind the down relay
    assert (d3.status, d3.stored_at, d3.path) == (Status.STORED, "QM1", ["QM1", "QM2", "QM3"])
    assert got(e, "QM3", "N3").stored_at == "QM1"  # its own node is up
    assert got(e, "QM1", "L").status is Status.DELIVERED


def test_link_down_is_far_node_down_for_what_lies_behind() -> None:
    """§9 Failures: a link down behaves like the far node down for what lies behind it."""
    e = ask(failing(), "QM1", "/t", links=[("QM2", "QM3")])
    assert got(e, "QM2", "D").status is Status.DELIVERED
    d3 = got(e, "QM3", "D3")
    assert (d3.status, d3.stored_at) == (Status.STORED, "QM2")
    assert hops(d3)[1] == ("QM2", "QM3", "hierarchy", "QM3->QM2")


def test_offline_subscribers() -> None:
    """§9 Subscriptions: --offline non-durable -> SUBSCRIBER_OFFLINE; durable -> stored at its own node."""
    e = ask(failing(), "QM1", "/t", offline=[("QM2", "D"), ("QM2", "N")])
    d = got(e, "QM2", "D")
    assert (d.status, d.stored_at, d.path) == (Status.STORED, "QM2", ["QM1", "QM2"])
    assert missed(e, "QM2", "N").reason is Reason.SUBSCRIBER_OFFLINE


def test_down_publisher() -> None:
    """§9 Failures: a down publisher -> every matching subscription DOWN (offline non-durable first)."""
    e = ask(failing(), "QM1", "/t", down=["QM1"], offline=[("QM3", "N3")])
    assert e.deliveries == []
    reasons = {(n.node, n.subscription): n.reason for n in e.not_delivered}
    assert reasons.pop(("QM3", "N3")) is Reason.SUBSCRIBER_OFFLINE
    assert set(reasons.values()) == {Reason.DOWN} and len(reasons) == 4
    assert "QM1" in missed(e, "QM2", "D").detail


# --- reason precedence and selectors ------------------------------------------------------------------------------


def test_reason_precedence() -> None:
    """§9 Reason precedence MQ: OFFLINE > DOWN > SCOPE > WILDCARD_BLOCKED > (arrives) SELECTOR_FALSE."""
    t = football(
        sub("QM2", "ALLBAD", "/Sport/#", durable=False, subscope=SubScope.QMGR),
        sub("QM2", "SCOPEBLOCK", "/Sport/#", subscope=SubScope.QMGR),
        sub("QM2", "E", "/Sport/Football"),
        block=True,
    )
    e = ask(t, "QM1", "/Sport/Football", offline=[("QM2", "ALLBAD")])
    assert missed(e, "QM2", "ALLBAD").reason is Reason.SUBSCRIBER_OFFLINE
    assert missed(e, "QM2", "SCOPEBLOCK").reason is Reason.SCOPE
    assert missed(e, "QM2", "W").reason is Reason.WILDCARD_BLOCKED
    e = ask(t, "QM1", "/Sport/Football", down=["QM2"])
    assert missed(e, "QM2", "ALLBAD").reason is Reason.DOWN
    assert missed(e, "QM2", "SCOPEBLOCK").reason is Reason.SCOPE
    assert missed(ask(t, "QM2", "/Sport/Football"), "QM2", "SCOPEBLOCK").reason is Reason.WILDCARD_BLOCKED


def test_selector_false_only_when_a_copy_arrives() -> None:
    """§7 + §9 precedence: only TRUE selects; SELECTOR_FALSE only when a copy arrives, else the path reason."""
    t = direct_sport()
    t.add(sub("QM2", "RED", "/Sport/Football", selector="colour = 'red'"))
    t.add(sub("QM2", "UNK", "/Sport/Football", selector="missing > 1"))
    t.add(sub("QM4", "FAR", "/Sport/Football", selector="colour = 'blue'"))
    t.add(sub("QM5", "NOPATH", "/Sport/Football", selector="colour = 'blue'"))
    e = ask(t, "QM4", "/Sport/Football", properties={"colour": JmsValue("string", "red")})
    assert got(e, "QM2", "RED").path == ["QM4", "QM2"]
    assert missed(e, "QM2", "UNK").reason is Reason.SELECTOR_FALSE
    assert missed(e, "QM4", "FAR").reason is Reason.SELECTOR_FALSE
    assert missed(e, "QM5", "NOPATH").reason is Reason.NO_PATH


# --- misc ------------------------------------------------------------------------------------------------------------


def test_literal_wildcard_warning_and_char_subscription() -> None:
    """§2 + §9 Not routed on: '#' in a publication topic is literal (LITERAL_WILDCARD); CHAR subs match chars."""
    t = direct_sport()
    t.add(sub("QM2", "CH", "/Sport/F*", wschema=WSchema.CHAR), sub("QM2", "LIT", "/Sport/#"))
    e = ask(t, "QM4", "/Sport/#")
    assert "LITERAL_WILDCARD" in codes(e)
    assert got(e, "QM2", "LIT").path == ["QM4", "QM2"]  # the '/Sport/#' pattern matches the literal level
    e = ask(t, "QM4", "/Sport/Football/Goal")
    assert got(e, "QM2", "CH").path == ["QM4", "QM2"] and "LITERAL_WILDCARD" not in codes(e)


def test_ems_subscriptions_ignored() -> None:
    """§9 Messages: an EMS subscription never matches an MQ publication."""
    t = direct_sport()
    t.add(Node("EMS1", dialect=Dialect.EMS), Subscription("EMS1", "E", "/Sport/Football"))
    e = ask(t, "QM4", "/Sport/Football")
    assert "EMS1" not in {d.node for d in e.deliveries} | {n.node for n in e.not_delivered}


def _shuffled(t: Topology, seed: int) -> Topology:
    rnd = random.Random(seed)
    memberships, topics, subs = list(t.memberships), list(t.topics), list(t.subscriptions)
    nodes = list(t.nodes.values())
    for lst in (memberships, topics, subs, nodes):
        rnd.shuffle(lst)
    return Topology(
        nodes={n.name: n for n in nodes}, memberships=memberships, topics=topics, subscriptions=subs
    )


SCENARIOS = [
    (direct_sport, "QM4", "/Sport/Football", Failures()),
    (
        lambda: host_cluster("QM3", "QM2", subs=(sub("QM3", "S", "/USA/#"), sub("QM4", "S", "/USA/Alabama"))),
        "QM1",
        "/USA/Alabama",
        Failures(),
    ),
    (joined_clusters, "A1", "/News/x", Failures(down=frozenset({"B1"}))),
    (
        lambda: overlap(topic("QM1", "SPORT", "/Sport", "CL1"), sub("QM3", "W", "/Sport/#")),
        "QM3",
        "/Sport/Tennis",
        Failures(),
    ),
    (failing, "QM1", "/t", Failures(down=frozenset({"QM2"}))),
]


@pytest.mark.parametrize("index", range(len(SCENARIOS)))
def test_same_question_same_answer(index: int) -> None:
    """§9 (determinism): the same question gives the same JSON, whatever the order of the model."""
    build, node, topic_string, failures = SCENARIOS[index]
    t = build()
    first = json.dumps(explain(t, Publication(node, topic_string), failures).to_json(), sort_keys=True)
    for seed in range(3):
        again = explain(_shuffled(t, seed), Publication(node, topic_string), failures).to_json()
        assert json.dumps(again, sort_keys=True) == first


def _slice(t: Topology, node: str, topic_string: str, failures: Failures) -> Topology:
    """The store's slice contract: publisher, failure nodes, hierarchy nodes, prefix topics, matching subs."""
    prefixes = {"", *topic_level_prefixes(topic_string, Dialect.MQ)}
    topics = [o for o in t.topics if o.topicstr in prefixes]
    names = {o.name for o in topics}
    topics += [o for o in t.topics if o.name in names and o not in topics]
    subs = [
        s
        for s in t.subscriptions
        if s.wschema is WSchema.TOPIC and matches(s.topicstr, topic_string, Dialect.MQ)
    ]
    keep = {node, *failures.down} | {n.name for n in t.nodes.values() if n.parent}
    keep |= {n.parent for n in t.nodes.values() if n.parent} | {s.node for s in subs}
    clusters = {o.cluster for o in topics if o.cluster} | {m.cluster for m in t.memberships if m.node in keep}
    memberships = [m for m in t.memberships if m.cluster in clusters or m.node in keep]
    nodes = {k: v for k, v in t.nodes.items() if k in keep}
    return Topology(nodes=nodes, memberships=memberships, topics=topics, subscriptions=subs)


def _noise(t: Topology) -> Topology:
    """Unrelated objects a whole store would hold beside the scenario."""
    t.add(qm("QX1"), qm("QX2"), *cluster("CLX", "QX1", "QX2", "QM1"), topic("QX1", "OTHER", "/Other", "CLX"))
    t.add(
        sub("QX2", "O", "/Other/#"),
        sub("QM2", "NOMATCH", "/Nope"),
        topic("QM2", "DEEP", "/Sport/Football/Goal/x"),
    )
    return t


@pytest.mark.parametrize("index", range(len(SCENARIOS)))
def test_slice_gives_same_answer_as_whole(index: int) -> None:
    """Slice contract (routing docstring): the store's slice must give the same JSON as the whole topology."""
    build, node, topic_string, failures = SCENARIOS[index]
    whole = _noise(build())
    sliced = _slice(whole, node, topic_string, failures)
    assert len(sliced.topics) < len(whole.topics)
    a = explain(whole, Publication(node, topic_string), failures).to_json()
    b = explain(sliced, Publication(node, topic_string), failures).to_json()
    assert json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def test_no_mutation_of_topology() -> None:
    """The engine reads the topology and never changes it."""
    t = joined_clusters()
    before = repr(t)
    ask(t, "A1", "/News/x", down=["B1"])
    assert repr(t) == before


def test_scopes_apply_at_every_relay() -> None:
    """§9 Scopes: a hierarchy relay applies its own tree's PUBSCOPE / SUBSCOPE to what it forwards."""
    chain = (qm("ROOT"), qm("MID", parent="ROOT"), qm("LEAF", parent="MID"))
    t = topo(
        chain, topic("MID", "A", "/a", pubscope=Scope.QMGR), sub("LEAF", "L", "/a/b"), sub("MID", "M", "/a/b")
    )
    e = ask(t, "ROOT", "/a/b")
    assert got(e, "MID", "M").path == ["ROOT", "MID"]
    assert missed(e, "LEAF", "L").reason is Reason.SCOPE
    t = topo(
        chain, topic("MID", "A", "/a", subscope=Scope.QMGR), sub("LEAF", "L", "/a/b"), sub("MID", "M", "/a/b")
    )
    e = ask(t, "ROOT", "/a/b")
    assert missed(e, "LEAF", "L").reason is Reason.SCOPE
    assert missed(e, "MID", "M").reason is Reason.SCOPE


# --- topic host choice: cluster workload management (semantics §9 "Topic host choice") ----------------


def receiver(node: str, cluster_name: str = "CL1", **clwl: int) -> Channel:
    """The cluster-receiver channel of ``node`` with CLWLRANK/CLWLPRTY/CLWLWGHT as ``rank``/``prty``/``wght``."""
    return Channel(
        node,
        f"{cluster_name}.{node}",
        cluster=cluster_name,
        clwlrank=clwl.get("rank", 0),
        clwlprty=clwl.get("prty", 0),
        clwlwght=clwl.get("wght", 50),
    )


def hosts_table(e: Explanation) -> dict[str, tuple[int, int, int, bool, float, bool]]:
    return {h["node"]: tuple(v for k, v in h.items() if k != "node") for h in e.to_json()["topic_hosts"]}  # type: ignore[misc]


def test_topic_host_rank_before_availability() -> None:
    """§9 step 1: the highest CLWLRANK is kept first; none of it available -> stored at the publisher,
    never a lower rank."""
    t = host_cluster("QM2", "QM3", "QM4", subs=(sub("QM5", "S", "/USA/Alabama/Mobile"),))
    t.add(receiver("QM3", rank=3), receiver("QM4", rank=3))
    e = ask(t, "QM1", "/USA/Alabama/Mobile", down=["QM3", "QM4"])
    d = got(e, "QM5", "S")
    assert (d.status, d.stored_at, d.path, d.alternatives) == (
        Status.STORED,
        "QM1",
        ["QM1", "QM3", "QM5"],
        [],
    )
    assert hosts_table(e) == {
        "QM2": (0, 0, 50, True, 0.0, False),
        "QM3": (3, 0, 50, False, 0.0, True),
        "QM4": (3, 0, 50, False, 0.0, False),
    }
    assert "ORDER_NOT_PRESERVED" not in codes(e)
    up = ask(t, "QM1", "/USA/Alabama/Mobile", down=["QM3"])
    assert got(up, "QM5", "S").path == ["QM1", "QM4", "QM5"] and got(up, "QM5", "S").alternatives == []


def test_topic_host_priority_among_available_then_weights() -> None:
    """§9 steps 2-4: the highest CLWLPRTY among available hosts; the largest CLWLWGHT takes the path, the
    others of that step are alternatives, each with its share of the publications."""
    t = host_cluster("QM2", "QM3", "QM4", subs=(sub("QM5", "S", "/USA/Alabama/#"),))
    t.add(receiver("QM2", prty=9), receiver("QM3", prty=5, wght=30), receiver("QM4", prty=5, wght=70))
    e = ask(t, "QM1", "/USA/Alabama/Mobile", down=["QM2"])
    d = got(e, "QM5", "S")
    assert d.path == ["QM1", "QM4", "QM5"] and d.alternatives == [["QM1", "QM3", "QM5"]]
    table = hosts_table(e)
    assert table["QM2"] == (0, 9, 50, False, 0.0, False)
    assert table["QM3"][4] == pytest.approx(0.3) and table["QM4"][4] == pytest.approx(0.7)
    assert table["QM4"][5] is True and table["QM3"][5] is False
    assert codes(e) == ["ORDER_NOT_PRESERVED"] and "QM3, QM4" in e.warnings[0].message
    e = ask(t, "QM1", "/USA/Alabama/Mobile")  # QM2 up: its priority wins alone, order kept
    assert got(e, "QM5", "S").path == ["QM1", "QM2", "QM5"] and got(e, "QM5", "S").alternatives == []
    assert "ORDER_NOT_PRESERVED" not in codes(e)
    assert hosts_table(e)["QM2"] == (0, 9, 50, True, 1.0, True)


def test_topic_host_weight_ties_go_by_name_and_namelist_channels_count() -> None:
    """§9 Topic host choice: a channel's cluster may come from its CLUSNL namelist (defined on that host);
    equal weights: the first by name; no channel in the cluster: the defaults 0/0/50."""
    t = host_cluster("QM2", "QM3", subs=(sub("QM5", "S", "/USA/Alabama/Mobile"),))
    t.add(Namelist("QM3", "CLUSTERS", ("CLX", "CL1")))
    t.add(Channel("QM3", "TO.QM3", clusnl="CLUSTERS", clwlwght=90), receiver("QM2", "CLX", wght=99))
    e = ask(t, "QM1", "/USA/Alabama/Mobile")
    assert got(e, "QM5", "S").path == ["QM1", "QM3", "QM5"]
    assert hosts_table(e)["QM2"][:3] == (0, 0, 50)  # its channel is in CLX, not CL1
    assert hosts_table(e)["QM3"][:3] == (0, 0, 90)
    t.add(receiver("QM2", wght=90))
    assert got(ask(t, "QM1", "/USA/Alabama/Mobile"), "QM5", "S").path == ["QM1", "QM2", "QM5"]


def test_topic_hosts_empty_unless_a_non_host_publisher_chooses() -> None:
    """docs/cli.md: ``topic_hosts`` lists the hosts a non-host member chooses among; else it is empty."""
    t = host_cluster("QM2", "QM3", subs=(sub("QM5", "S", "/USA/Alabama/Mobile"),))
    assert [h["node"] for h in ask(t, "QM1", "/USA/Alabama/Mobile").to_json()["topic_hosts"]] == [
        "QM2",
        "QM3",
    ]
    assert ask(t, "QM2", "/USA/Alabama/Mobile").to_json()["topic_hosts"] == []  # a host publishes itself
    assert ask(t, "QM1", "/USA/Texas").to_json()["topic_hosts"] == []  # not clustered there
    assert ask(t, "QM1", "/USA/Alabama/Mobile", down=["QM1"]).to_json()["topic_hosts"] == []  # nothing sent
    assert ask(direct_sport(), "QM4", "/Sport/Football").to_json()["topic_hosts"] == []


def test_more_alternatives_counts_hosts_beyond_eight() -> None:
    """§9: at most 8 alternatives; ``more_alternatives`` counts the other hosts sharing the publications."""
    hosts = [f"H{i}" for i in range(10)]
    t = topo(
        _qms("P", "S", *hosts),
        cluster("CL1", "P", "S", *hosts),
        hosted("CL1", "T", "/t", *hosts),
        sub("S", "SUB", "/t"),
    )
    d = got(ask(t, "P", "/t"), "S", "SUB")
    assert d.path == ["P", "H0", "S"]
    assert d.alternatives == [["P", h, "S"] for h in hosts[1:9]] and d.more_alternatives == 1


# --- smaller gaps ------------------------------------------------------------------------------------------


def test_cluster_without_full_repository_warns() -> None:
    """§9: a cluster with no full repository in the model routes as if it had one, with a warning."""
    t = topo(
        _qms("QM1", "QM2"),
        Membership("QM1", "CL1"),
        Membership("QM2", "CL1"),
        topic("QM1", "T", "/t", "CL1"),
        sub("QM2", "S", "/t"),
    )
    e = ask(t, "QM1", "/t")
    assert got(e, "QM2", "S").path == ["QM1", "QM2"]
    assert codes(e) == ["NO_FULL_REPOSITORY"] and "CL1" in e.warnings[0].message
    assert codes(ask(direct_sport(), "QM4", "/Sport/Football")) == []


def test_conflict_on_the_subscribers_queue_manager_is_named_whoever_publishes() -> None:
    """§3 + §9: QM3 sees /Sport in CL1 and in CL2 and uses the most recent (CL2), so its subscription's
    proxy goes to CL2 only: a publication from QM1 (CL1), which never touches QM3, misses it, and the miss
    names the conflict."""
    t = topo(
        _qms("QM1", "QM3", "QM4"),
        cluster("CL1", "QM1", "QM3"),
        cluster("CL2", "QM3", "QM4"),
        topic("QM1", "SPORT1", "/Sport", "CL1"),
        topic("QM4", "SPORT2", "/Sport", "CL2"),
        sub("QM3", "S3", "/Sport/x"),
    )
    e = ask(t, "QM1", "/Sport/x")
    miss = missed(e, "QM3", "S3")
    assert miss.reason is Reason.NO_PATH
    assert "On QM3, clustered topic objects of different clusters share a topic string" in miss.detail
    assert miss.to_json()["conflict"] == {
        "kind": "SAME_TOPICSTR",
        "objects": [
            {"node": "QM1", "name": "SPORT1", "topicstr": "/Sport", "cluster": "CL1"},
            {"node": "QM4", "name": "SPORT2", "topicstr": "/Sport", "cluster": "CL2"},
        ],
        "winner": {"node": "QM4", "name": "SPORT2", "topicstr": "/Sport", "cluster": "CL2"},
    }
    assert codes(e) == []  # the publication touches no queue manager with the conflict
    assert got(ask(t, "QM4", "/Sport/x"), "QM3", "S3").path == ["QM4", "QM3"]


def test_no_conflict_field_is_null() -> None:
    miss = missed(ask(football(), "QM1", "/Sport/Football"), "QM2", "W")
    assert miss.to_json()["conflict"] is None


def test_clustered_topic_on_a_queue_manager_outside_its_cluster() -> None:
    """§9 Definitions: a clustered object on a non-member reaches nobody; explain says the host is not a
    member rather than that no proxy reaches it."""
    t = topo(
        _qms("QM1", "QM2", "QM3"),
        cluster("CL1", "QM2", "QM3"),
        topic("QM1", "T", "/t", "CL1"),
        sub("QM2", "S", "/t/x"),
    )
    e = ask(t, "QM1", "/t/x")
    miss = missed(e, "QM2", "S")
    assert miss.reason is Reason.NO_PATH
    assert "QM1 is not a member of cluster CL1" in miss.detail and "no proxy" not in miss.detail


def test_selector_verdicts_are_worded_alike_in_both_dialects() -> None:
    """One precedence ladder: SELECTOR_FALSE says FALSE and UNKNOWN the same way for MQ and EMS."""
    from tests.domain import ems_builders as ems

    mq_topo = direct_sport()
    mq_topo.add(
        sub("QM2", "F", "/Sport/Football", selector="p = 2"),
        sub("QM2", "U", "/Sport/Football", selector="q = 1"),
    )
    mq_e = ask(mq_topo, "QM4", "/Sport/Football", properties={"p": JmsValue("int", 1)})
    ems_topo = ems.chain("MB")
    ems_topo.add(ems.sub("B", "F", "T1", selector="p = 2"), ems.sub("B", "U", "T1", selector="q = 1"))
    ems_e = ems.explain(ems_topo, "A", "T1", p=1)
    for name in ("F", "U"):
        mq_detail = next(n.detail for n in mq_e.not_delivered if n.subscription == name)
        ems_detail = next(n.detail for n in ems_e.not_delivered if n.subscription == name)
        assert mq_detail.replace("QM2", "X") == ems_detail.replace("B", "X")
    assert "is false" in next(n.detail for n in mq_e.not_delivered if n.subscription == "F")
    assert "is unknown" in next(n.detail for n in mq_e.not_delivered if n.subscription == "U")
