"""The MQ rules of docs/rules.md on small models: each finds its case and stays quiet once it is fixed."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from mqctl.domain.model import Channel as Chl
from mqctl.domain.model import (
    ChannelType,
    ClRoute,
    Dialect,
    Membership,
    Node,
    Scope,
    Topology,
    Wildcard,
    WSchema,
)
from mqctl.domain.topics import fixed_prefix_levels, has_wildcards
from mqctl.domain.validation import Finding, choose_rules, validate
from mqctl.domain.validation.mq_namespace import _wild_level
from tests.domain.mq_builders import cluster, hosted, qm, sub, topic, topo


def found(t: Topology, code: str) -> list[Finding]:
    """Findings of one rule (only that rule runs, as `--select CODE` does)."""
    return validate(t, choose_rules([code]))


def overlap(*extra: object) -> Topology:
    """Reference 001 Figure 1: CL1 = QM1, QM2, QM3 and CL2 = QM3, QM4, QM5; QM3 is in both."""
    return topo(
        *(qm(f"QM{i}") for i in range(1, 6)),
        cluster("CL1", "QM1", "QM2", "QM3"),
        [Membership("QM3", "CL2"), *cluster("CL2", "QM4", "QM5")],
        *extra,
    )


# -- namespace across clusters ------------------------------------------------------------------------


def test_namespace_conflict_same_topicstr_seen_on_the_overlap_only() -> None:
    t = overlap(topic("QM1", "TB", "/Sport", "CL1"), topic("QM4", "TC", "/Sport", "CL2"))
    [f] = found(t, "NAMESPACE_CONFLICT")
    assert f.rule.id == "MQC001" and f.severity == "error"
    assert f.message.startswith("On QM3, ") and "share a topic string" in f.message
    assert f.objects == ("topic TB on QM1", "topic TC on QM4", "cluster CL1", "cluster CL2")
    assert f.nodes == ("QM1", "QM3", "QM4")
    fixed = overlap(topic("QM1", "TB", "/Sport/Football", "CL1"), topic("QM4", "TC", "/Sport/Tennis", "CL2"))
    assert found(fixed, "NAMESPACE_CONFLICT") == []


def test_namespace_conflict_same_name_and_hidden_by_a_local_object() -> None:
    same_name = [topic("QM1", "SPORT", "/Football", "CL1"), topic("QM4", "SPORT", "/Tennis", "CL2")]
    [f] = found(overlap(*same_name), "NAMESPACE_CONFLICT")
    assert "share a name" in f.message
    # a local object of that name on the overlap queue manager hides both clustered ones (semantics §9)
    assert found(overlap(*same_name, topic("QM3", "SPORT", "/Local")), "NAMESPACE_CONFLICT") == []


def test_attribute_conflict_names_the_attribute() -> None:
    t = topo(
        qm("QM1"),
        qm("QM2"),
        cluster("CL1", "QM1", "QM2"),
        topic("QM1", "T", "/a", "CL1", clroute=ClRoute.DIRECT),
        topic("QM2", "T", "/a", "CL1", clroute=ClRoute.TOPICHOST),
    )
    [f] = found(t, "ATTRIBUTE_CONFLICT")
    assert f.rule.code == "ATTRIBUTE_CONFLICT" and "differ in CLROUTE" in f.message
    assert f.objects[:2] == ("topic T on QM1", "topic T on QM2")
    t.topics[1].clroute = ClRoute.DIRECT
    assert found(t, "ATTRIBUTE_CONFLICT") == []


def test_local_shadows_cluster() -> None:
    t = overlap(topic("QM1", "TB", "/Sport", "CL1"), topic("QM2", "LOCAL", "/Sport"))
    [f] = found(t, "LOCAL_SHADOWS_CLUSTER")
    assert f.objects == ("topic LOCAL on QM2", "topic TB on QM1")
    assert "hides clustered TB" in f.message
    assert (
        found(
            overlap(topic("QM1", "TB", "/Sport", "CL1"), topic("QM2", "LOCAL", "/Other")),
            "LOCAL_SHADOWS_CLUSTER",
        )
        == []
    )


def test_nested_cluster_topics() -> None:
    t = overlap(topic("QM1", "SPORT", "/Sport", "CL1"), topic("QM4", "TENNIS", "/Sport/Tennis", "CL2"))
    [f] = found(t, "NESTED_CLUSTER_TOPICS")
    assert f.message.startswith("On QM3, clustered topic SPORT ('/Sport', cluster CL1")
    assert "lies above TENNIS" in f.message
    t = overlap(topic("QM1", "SPORT", "/Sport", "CL1"), topic("QM4", "TENNIS", "/Tennis", "CL2"))
    assert found(t, "NESTED_CLUSTER_TOPICS") == []


def test_conflict_affects_subscribers_names_the_publisher_missed() -> None:
    conflict = [topic("QM1", "TB", "/Sport", "CL1"), topic("QM4", "TC", "/Sport", "CL2")]
    t = overlap(*conflict, sub("QM3", "FANS", "/Sport/#"), sub("QM3", "NEWS", "/News"))
    [f] = found(t, "CONFLICT_AFFECTS_SUBSCRIBERS")
    # TC is the most recent, so QM3 routes by it (CL2) and misses what QM1 publishes by TB (CL1)
    assert f.message.startswith("On QM3, subscription(s) FANS ('/Sport/#') receive nothing published under")
    assert (
        "on QM1" in f.message
        and "uses only TC" in f.message
        and "explain from QM1 reports NO_PATH" in f.message
    )
    assert f.objects == ("sub FANS on QM3", "topic TB on QM1", "topic TC on QM4")
    t = overlap(*conflict, sub("QM3", "NEWS", "/News"))
    assert found(t, "CONFLICT_AFFECTS_SUBSCRIBERS") == []


# -- clusters and repositories ------------------------------------------------------------------------


def test_full_repositories() -> None:
    none = topo(qm("QM1"), qm("QM2"), Membership("QM1", "CL1"), Membership("QM2", "CL1"))
    [f] = found(none, "NO_FULL_REPOSITORY")
    assert f.objects == ("cluster CL1",) and f.nodes == ("QM1", "QM2")
    assert found(none, "FULL_REPOSITORY_COUNT") == []
    one = topo(qm("QM1"), qm("QM2"), Membership("QM1", "CL1", True), Membership("QM2", "CL1"))
    assert found(one, "NO_FULL_REPOSITORY") == []
    [f] = found(one, "FULL_REPOSITORY_COUNT")
    assert "1 full repository (QM1)" in f.message
    assert found(topo(qm("QM1"), qm("QM2"), cluster("CL1", "QM1", "QM2")), "FULL_REPOSITORY_COUNT") == []
    three = topo(*(qm(f"Q{i}") for i in range(3)), *(Membership(f"Q{i}", "CL1", True) for i in range(3)))
    [f] = found(three, "FULL_REPOSITORY_COUNT")
    assert "more than the two" in f.message


def test_unknown_cluster_for_a_topic_and_a_cluster_sender() -> None:
    t = topo(
        qm("QM1"),
        cluster("CL1", "QM1"),
        topic("QM1", "T", "/a", "CL9"),
        Chl("QM1", "TO.CL8", ChannelType.CLUSSDR, cluster="CL8"),
    )
    findings = found(t, "UNKNOWN_CLUSTER")
    assert [f.objects for f in findings] == [
        ("channel TO.CL8 on QM1", "cluster CL8"),
        ("topic T on QM1", "cluster CL9"),
    ]
    [f] = found(t, "TOPIC_HOST_NOT_MEMBER")  # QM1 is not a member of CL9 either
    assert f.objects == ("topic T on QM1", "cluster CL9")
    t.topics[0].cluster = "CL1"
    t.channels[0].cluster = "CL1"
    assert found(t, "UNKNOWN_CLUSTER") == []


def test_topic_host_not_member() -> None:
    t = topo(qm("QM1"), qm("QM9"), cluster("CL1", "QM1"), topic("QM9", "T", "/a", "CL1"))
    [f] = found(t, "TOPIC_HOST_NOT_MEMBER")
    assert "QM9 is not a member of CL1" in f.message
    t.memberships.append(Membership("QM9", "CL1"))
    assert found(t, "TOPIC_HOST_NOT_MEMBER") == []


def test_clroute_without_cluster() -> None:
    t = topo(qm("QM1"), topic("QM1", "T", "/a", clroute=ClRoute.TOPICHOST))
    [f] = found(t, "CLROUTE_WITHOUT_CLUSTER")
    assert f.objects == ("topic T on QM1",)
    t.topics[0].clroute = ClRoute.DIRECT
    assert found(t, "CLROUTE_WITHOUT_CLUSTER") == []


def test_topicstr_wildcard_character() -> None:
    t = topo(qm("QM1"), topic("QM1", "T", "/Sport/#"), topic("QM1", "U", "/a+b"), topic("QM1", "V", "/Sport"))
    findings = found(t, "TOPICSTR_WILDCARD_CHARACTER")
    assert [f.objects for f in findings] == [("topic T on QM1",), ("topic U on QM1",)]
    assert "contains '#'" in findings[0].message


def members(n: int) -> Topology:
    """CL1: QM1, QM2 (the full repositories), QM3 … QMn."""
    return topo(
        *(qm(f"QM{i}") for i in range(1, n + 1)), cluster("CL1", *(f"QM{i}" for i in range(1, n + 1)))
    )


def test_topic_host_rules() -> None:
    t = members(5)
    t.add(*hosted("CL1", "PRICES", "/Prices", "QM1"))
    [f] = found(t, "TOPIC_HOST_ON_FULL_REPOSITORY")
    assert "hosted on QM1, a full repository of CL1" in f.message
    [f] = found(t, "SINGLE_TOPIC_HOST")
    assert f.severity == "info" and "one host, QM1" in f.message
    assert found(t, "ORDER_NOT_PRESERVED") == []
    t = members(5)
    t.add(*hosted("CL1", "PRICES", "/Prices", "QM3", "QM4"))
    assert found(t, "TOPIC_HOST_ON_FULL_REPOSITORY") == []
    assert found(t, "SINGLE_TOPIC_HOST") == []
    [f] = found(t, "ORDER_NOT_PRESERVED")
    assert "hosts QM3 and QM4" in f.message and f.severity == "info"
    direct = members(5)
    direct.add(topic("QM3", "PRICES", "/Prices", "CL1"), topic("QM4", "PRICES", "/Prices", "CL1"))
    assert found(direct, "ORDER_NOT_PRESERVED") == [] and found(direct, "SINGLE_TOPIC_HOST") == []


def test_order_is_kept_when_every_member_hosts_the_topic() -> None:
    t = members(2)
    t.add(*hosted("CL1", "PRICES", "/Prices", "QM1", "QM2"))
    assert found(t, "ORDER_NOT_PRESERVED") == []


def test_pubsub_disabled() -> None:
    t = members(3)
    t.add(topic("QM3", "T", "/a", "CL1"))
    t.nodes["QM2"] = replace(t.nodes["QM2"], psclus="DISABLED")
    t.nodes["QM3"] = replace(t.nodes["QM3"], psmode="DISABLED")
    findings = found(t, "PUBSUB_DISABLED")
    assert [f.nodes[0] for f in findings] == ["QM2", "QM3"]
    assert "PSCLUS(DISABLED)" in findings[0].message and "PSMODE(DISABLED)" in findings[1].message
    quiet = members(3)  # nothing clustered: PSCLUS(DISABLED) breaks nothing
    quiet.nodes["QM2"] = replace(quiet.nodes["QM2"], psclus="DISABLED")
    assert found(quiet, "PUBSUB_DISABLED") == []


# -- wildcards above clustered branches -------------------------------------------------------------------


def test_wildcard_above_cluster_on_one_cluster() -> None:
    t = members(3)
    t.add(topic("QM1", "FOOTBALL", "/Sport/Football", "CL1"), sub("QM3", "ALL", "/Sport/#"))
    [f] = found(t, "WILDCARD_ABOVE_CLUSTER")
    assert (
        "resolves at the root of the topic tree, above the clustered branch(es) '/Sport/Football':"
        in f.message
    )
    assert "('/Sport/Football/#')" in f.message
    assert f.objects == ("sub ALL on QM3", "topic FOOTBALL on QM1")
    t.subscriptions = [sub("QM3", "FOOTBALL", "/Sport/Football/#")]
    assert found(t, "WILDCARD_ABOVE_CLUSTER") == []


def test_wildcard_above_cluster_names_clusters_on_an_overlap() -> None:
    """Reference 001: '/Sport/#' on QM3 misses both clusters' branches; one cluster point at '/Sport'
    in CL1 still leaves CL2's '/Sport/Tennis' missed."""
    branches = [topic("QM1", "TB", "/Sport/Football", "CL1"), topic("QM4", "TC", "/Sport/Tennis", "CL2")]
    t = overlap(*branches, sub("QM3", "SPORT", "/Sport/#"))
    [f] = found(t, "WILDCARD_ABOVE_CLUSTER")
    assert "'/Sport/Football' (cluster CL1) and '/Sport/Tennis' (cluster CL2)" in f.message
    t = overlap(*branches, topic("QM1", "S", "/Sport", "CL1"), sub("QM3", "SPORT", "/Sport/#"))
    [f] = found(t, "WILDCARD_ABOVE_CLUSTER")
    assert "'/Sport/Tennis' (cluster CL2)" in f.message and "Football" not in f.message


def test_wildcard_above_a_blocked_or_unmatched_branch_is_not_reported() -> None:
    t = members(3)
    t.add(topic("QM1", "F", "/Sport/Football", "CL1", wildcard=Wildcard.BLOCK), sub("QM3", "ALL", "/Sport/#"))
    assert found(t, "WILDCARD_ABOVE_CLUSTER") == []
    t = members(3)
    t.add(topic("QM1", "F", "/Sport/Football", "CL1"), sub("QM3", "R", "/Sport/+/Results/#"))
    [f] = found(t, "WILDCARD_ABOVE_CLUSTER")  # '/Sport/+/Results' can match below /Sport/Football
    t.subscriptions = [sub("QM3", "R", "/News/+")]
    assert found(t, "WILDCARD_ABOVE_CLUSTER") == []


def test_wildcard_above_cluster_with_a_character_schema_subscription() -> None:
    t = members(3)
    t.add(topic("QM1", "F", "/Sport/Football", "CL1"), sub("QM3", "C", "/Sport/*", wschema=WSchema.CHAR))
    [f] = found(t, "WILDCARD_ABOVE_CLUSTER")
    assert "'/Sport/Football/#'" in f.message


# -- hierarchies -----------------------------------------------------------------------------------------


def test_hierarchy_cycle_and_unknown_parent() -> None:
    t = topo(
        qm("QM1", parent="QM2"), qm("QM2", parent="QM3"), qm("QM3", parent="QM1"), qm("QM4", parent="QMX")
    )
    [f] = found(t, "HIERARCHY_CYCLE")
    assert "QM1 -> QM2 -> QM3 -> QM1" in f.message and f.nodes == ("QM1", "QM2", "QM3")
    [f] = found(t, "UNKNOWN_PARENT")
    assert f.objects == ("qmgr QM4",) and "PARENT(QMX)" in f.message
    t.nodes["QM3"] = replace(t.nodes["QM3"], parent=None, descr="top of the hierarchy")
    t.add(Node("QMX", parent=None))
    # QMX exists only by name (as mqctl creates a PARENT on first reference): still unknown
    [f] = found(t, "UNKNOWN_PARENT")
    assert "knows only by that name" in f.message
    t.nodes["QMX"] = replace(t.nodes["QMX"], descr="regional hub")
    assert found(t, "HIERARCHY_CYCLE") == [] and found(t, "UNKNOWN_PARENT") == []


def test_a_parent_that_is_an_ems_server_is_unknown() -> None:
    from tests.domain.ems_builders import server

    [f] = found(topo(qm("QM1", parent="E1"), server("E1")), "UNKNOWN_PARENT")
    assert "an EMS server" in f.message


def test_hierarchy_with_topichost() -> None:
    t = members(3)
    t.add(qm("QM9", parent="QM3"), *hosted("CL1", "T", "/a", "QM3"))
    [f] = found(t, "HIERARCHY_WITH_TOPICHOST")
    assert "QM9->QM3 joins QM3, a member of cluster CL1, with QM9" in f.message
    t.topics[0].clroute = ClRoute.DIRECT
    assert found(t, "HIERARCHY_WITH_TOPICHOST") == []


def test_pubsub_loop_is_confirmed_by_the_engine() -> None:
    t = members(3)
    t.add(topic("QM1", "T", "/a", "CL1"))
    t.nodes["QM3"] = replace(t.nodes["QM3"], parent="QM2")
    [f] = found(t, "PUBSUB_LOOP")
    assert "joined both by cluster CL1 and by the hierarchy links QM3->QM2" in f.message
    assert "along two paths" in f.message
    t.topics[0].pubscope = Scope.QMGR  # publications stay on QM1: the engine finds no second path
    assert found(t, "PUBSUB_LOOP") == []
    t.topics.clear()  # nothing clustered yet: the loop stands for the first topic clustered in CL1
    [f] = found(t, "PUBSUB_LOOP")
    assert "a publication on any topic clustered in CL1 will reach them along two paths" in f.message
    t.nodes["QM3"] = replace(t.nodes["QM3"], parent=None)
    assert found(t, "PUBSUB_LOOP") == []


# -- sources -----------------------------------------------------------------------------------------------


def test_findings_point_at_the_file_and_line_of_their_first_object() -> None:
    t = topo(
        qm("QM1"),
        topic("QM1", "T", "/Sport/#", source_file="mq/QM1.mqsc", source_line=7),
        topic("QM1", "U", "/x+"),
    )
    first, second = found(t, "TOPICSTR_WILDCARD_CHARACTER")
    assert first.to_json()["source"] == {"file": "mq/QM1.mqsc", "line": 7}
    assert second.to_json()["source"] is None
    conflict = overlap(
        topic("QM1", "TB", "/Sport", "CL1", source_file="QM1.mqsc", source_line=3),
        topic("QM4", "TC", "/Sport", "CL2", source_file="QM4.mqsc", source_line=9),
    )
    [f] = found(conflict, "NAMESPACE_CONFLICT")
    assert [(s.file, s.line) for s in f.sources] == [("QM1.mqsc", 3), ("QM4.mqsc", 9)]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["a", "b", "#", "+", "a#", "+b", ""]), min_size=1, max_size=6))
def test_the_fixed_prefix_is_cut_as_topics_splits_it(parts: list[str]) -> None:
    """WILDCARD_ABOVE_CLUSTER cuts the fixed prefix with a regular expression (it sees every
    subscription); it must agree with ``topics.fixed_prefix_levels`` (semantics §3)."""
    pattern = "/".join(parts)
    found = _wild_level(pattern)
    assert (found is not None) == has_wildcards(pattern, Dialect.MQ)
    if found is not None:
        assert pattern[: found.start()] == "/".join(fixed_prefix_levels(pattern, Dialect.MQ))
