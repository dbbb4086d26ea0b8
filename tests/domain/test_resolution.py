"""The MQ topic tree at a queue manager and resolution in it.

semantics §3, §9 "Definitions" and "Cluster point"; references 001 and 004.
"""

from __future__ import annotations

from mqctl.domain.model import ClRoute, Dialect, Enablement, ProxySub, Scope, Wildcard
from mqctl.domain.resolution import (
    ROOT_NAME,
    ConflictKind,
    TopicTree,
    TopicTrees,
    chain_topicstrs,
    find_conflicts,
)
from mqctl.domain.topics import fixed_prefix_levels
from tests.domain.mq_builders import cluster, hosted, qm, topic, topo


def test_root_defaults_when_nothing_resolves() -> None:
    """§3: no object -> SYSTEM.BASE.TOPIC defaults (not clustered, DIRECT, PASSTHRU, scopes ALL, FIRSTUSE)."""
    res = TopicTree.for_node(topo(qm("QM1")), "QM1").resolve("/a/b")
    assert res.object is None and res.object_name == ROOT_NAME and res.chain == ()
    assert (res.cluster, res.clroute, res.wildcard, res.proxysub) == (
        "",
        ClRoute.DIRECT,
        Wildcard.PASSTHRU,
        ProxySub.FIRSTUSE,
    )
    assert (res.pubscope, res.subscope, res.pub, res.sub) == (
        Scope.ALL,
        Scope.ALL,
        Enablement.ENABLED,
        Enablement.ENABLED,
    )


def test_longest_level_prefix_wins_and_partial_level_does_not_count() -> None:
    """§3: resolving object = longest level-prefix of T; '/USA/Ala' is no prefix of '/USA/Alabama'."""
    t = topo(
        qm("QM1"),
        topic("QM1", "USA", "/USA"),
        topic("QM1", "ALA", "/USA/Ala"),
        topic("QM1", "AL", "/USA/Alabama"),
    )
    tree = TopicTree.for_node(t, "QM1")
    assert tree.resolve("/USA/Alabama/Mobile").object_name == "AL"
    assert tree.resolve("/USA/Alabama").object_name == "AL"
    assert tree.resolve("/USA/Alaska").object_name == "USA"
    assert [o.name for o in tree.resolve("/USA/Alabama/Mobile").chain] == ["USA", "AL"]
    assert tree.resolve("USA/Alabama").object is None  # '/USA' and 'USA' differ (§2)


def test_tree_holds_local_and_clustered_of_member_clusters_only() -> None:
    """§3 + reference 001: the tree at Q = local objects + clustered objects of every cluster Q is in."""
    t = topo(
        [qm(n) for n in ("QM1", "QM2", "QM3", "QM4")],
        cluster("CL1", "QM1", "QM2", "QM3"),
        cluster("CL2", "QM3", "QM4"),
        topic("QM1", "FOOTBALL", "/Sport/Football", "CL1"),
        topic("QM4", "TENNIS", "/Sport/Tennis", "CL2"),
        topic("QM4", "LOCAL", "/Local"),
    )
    trees = TopicTrees(t)
    assert set(trees.at("QM3").entries) == {"/Sport/Football", "/Sport/Tennis"}
    assert set(trees.at("QM2").entries) == {"/Sport/Football"}
    assert trees.resolve("QM2", "/Local/x").object is None
    assert trees.resolve("QM3", "/Sport/Tennis/Final").cluster == "CL2"


def test_clustered_object_on_a_non_member_reaches_nobody() -> None:
    """§9 Definitions: a clustered object defined on a queue manager outside its cluster reaches nobody."""
    t = topo(qm("QM1"), qm("QMX"), cluster("CL1", "QM1"), topic("QMX", "T", "/t", "CL1"))
    assert TopicTree.for_node(t, "QM1").resolve("/t").object is None


def test_local_hides_clustered_by_topicstr_and_by_name() -> None:
    """§9 Definitions: a local object hides a clustered object with the same TOPICSTR or the same name."""
    t = topo(
        qm("QM1"),
        qm("QM2"),
        cluster("CL1", "QM1", "QM2"),
        topic("QM2", "SPORT", "/Sport", "CL1"),
        topic("QM2", "NEWS", "/News", "CL1"),
        topic("QM1", "MYSPORT", "/Sport"),
        topic("QM1", "NEWS", "/Elsewhere"),
    )
    tree = TopicTree.for_node(t, "QM1")
    assert tree.resolve("/Sport/x").object_name == "MYSPORT" and not tree.resolve("/Sport/x").clustered
    assert tree.resolve("/News/x").object is None
    assert TopicTree.for_node(t, "QM2").resolve("/News/x").cluster == "CL1"


def test_asparent_takes_next_object_up() -> None:
    """§3: ASPARENT attributes take the value of the next object up; the root's is ALL / ENABLED."""
    t = topo(
        qm("QM1"),
        topic("QM1", "A", "/a", pubscope=Scope.QMGR, sub=Enablement.DISABLED),
        topic("QM1", "AB", "/a/b", subscope=Scope.QMGR),
        topic("QM1", "ABC", "/a/b/c", pubscope=Scope.ALL),
    )
    tree = TopicTree.for_node(t, "QM1")
    res = tree.resolve("/a/b/x")
    assert (res.pubscope, res.subscope, res.sub, res.pub) == (
        Scope.QMGR,
        Scope.QMGR,
        Enablement.DISABLED,
        Enablement.ENABLED,
    )
    assert tree.resolve("/a/b/c").pubscope is Scope.ALL


def test_blank_cluster_inherits_and_cluster_point_gives_clroute_and_hosts() -> None:
    """§3, §9 Cluster point: blank CLUSTER inherits; CLROUTE and hosts come from the object naming it."""
    t = topo(
        [qm(n) for n in ("QM1", "QM2", "QM3")],
        cluster("CL1", "QM1", "QM2", "QM3"),
        hosted("CL1", "USA", "/USA", "QM2", "QM3"),
        topic("QM1", "LOCALAL", "/USA/Alabama", clroute=ClRoute.DIRECT, wildcard=Wildcard.BLOCK),
    )
    res = TopicTree.for_node(t, "QM1").resolve("/USA/Alabama/Mobile")
    assert res.object_name == "LOCALAL"
    assert res.cluster == "CL1" and res.cluster_point is not None and res.cluster_point.name == "USA"
    assert res.clroute is ClRoute.TOPICHOST and res.hosts == ("QM2", "QM3")
    assert res.wildcard is Wildcard.BLOCK  # WILDCARD is the resolving object's own (not inherited)
    assert TopicTree.for_node(t, "QM1").resolve("/USA/Texas").wildcard is Wildcard.PASSTHRU


def test_wildcard_and_proxysub_are_not_inherited() -> None:
    """§9 Cluster point: WILDCARD and PROXYSUB are not inherited (MQ has no ASPARENT for them)."""
    t = topo(
        qm("QM1"),
        topic("QM1", "A", "/a", wildcard=Wildcard.BLOCK, proxysub=ProxySub.FORCE),
        topic("QM1", "AB", "/a/b"),
    )
    res = TopicTree.for_node(t, "QM1").resolve("/a/b/c")
    assert (res.wildcard, res.proxysub) == (Wildcard.PASSTHRU, ProxySub.FIRSTUSE)


def test_wildcard_subscription_resolves_by_fixed_prefix() -> None:
    """§3: '/Sport/#' resolves at '/Sport'; '/USA/Alabama/+' at '/USA/Alabama'."""
    t = topo(
        qm("QM1"),
        topic("QM1", "SPORT", "/Sport"),
        topic("QM1", "AL", "/USA/Alabama"),
        topic("QM1", "F", "/Sport/F"),
    )
    tree = TopicTree.for_node(t, "QM1")
    assert tree.resolve_pattern(fixed_prefix_levels("/Sport/#", Dialect.MQ)).object_name == "SPORT"
    assert tree.resolve_pattern(fixed_prefix_levels("/USA/Alabama/+", Dialect.MQ)).object_name == "AL"
    assert tree.resolve_pattern(fixed_prefix_levels("#", Dialect.MQ)).object is None


def test_conflict_same_topicstr_in_two_clusters_most_recent_wins() -> None:
    """Reference 001, §3: one TOPICSTR clustered in two clusters conflicts at the overlap; latest used."""
    older = topic("QM1", "SPORT1", "/Sport", "CL1")
    newer = topic("QM4", "SPORT2", "/Sport", "CL2")
    t = topo(
        [qm(n) for n in ("QM1", "QM3", "QM4")],
        cluster("CL1", "QM1", "QM3"),
        cluster("CL2", "QM3", "QM4"),
        older,
        newer,
    )
    tree = TopicTree.for_node(t, "QM3")
    assert tree.resolve("/Sport/x").object_name == "SPORT2"
    [c] = tree.conflicts_on("/Sport/x")
    assert c.kind is ConflictKind.SAME_TOPICSTR and c.winner is newer and c.losers == (older,)
    assert "nondeterministic" in c.describe()
    assert TopicTree.for_node(t, "QM1").conflicts == []  # QM1 sees only CL1


def test_conflict_same_name_in_two_clusters() -> None:
    """Reference 001: differently placed clustered topics with the same name conflict at the overlap."""
    a = topic("QM1", "SPORT", "/SportA", "CL1")
    b = topic("QM4", "SPORT", "/SportB", "CL2")
    t = topo(
        [qm(n) for n in ("QM1", "QM3", "QM4")],
        cluster("CL1", "QM1", "QM3"),
        cluster("CL2", "QM3", "QM4"),
        a,
        b,
    )
    tree = TopicTree.for_node(t, "QM3")
    assert [c.kind for c in tree.conflicts] == [ConflictKind.SAME_NAME]
    assert tree.resolve("/SportA/x").object is None and tree.resolve("/SportB/x").object_name == "SPORT"


def test_conflict_in_one_cluster_needs_different_attributes() -> None:
    """§3: in one cluster, same name/TOPICSTR conflicts only when attributes differ; alike hosts are fine."""
    alike = hosted("CL1", "T", "/t", "QM1", "QM2")
    assert find_conflicts(alike) == []
    differ = [topic("QM1", "T", "/t", "CL1"), topic("QM2", "T", "/t", "CL1", wildcard=Wildcard.BLOCK)]
    [c] = find_conflicts(differ)
    assert c.kind is ConflictKind.DIFFERENT_ATTRIBUTES and c.winner is differ[1]


def test_interference_above_and_below() -> None:
    """§3: a clustered object above/below one of another cluster interferes (a warning, both kept)."""
    t = topo(
        [qm(n) for n in ("QM1", "QM3", "QM4")],
        cluster("CL1", "QM1", "QM3"),
        cluster("CL2", "QM3", "QM4"),
        topic("QM1", "SPORT", "/Sport", "CL1"),
        topic("QM4", "TENNIS", "/Sport/Tennis", "CL2"),
    )
    tree = TopicTree.for_node(t, "QM3")
    [c] = tree.conflicts_on("/Sport/Tennis/Final")
    assert c.kind is ConflictKind.INTERFERENCE and c.winner is None
    assert tree.conflicts_on("/Sport/Golf") == []
    assert len(tree.interferences()) == 1


def test_chain_topicstrs() -> None:
    """§2: a leading '/' makes an empty first level; the root and that level share ''."""
    assert chain_topicstrs(["", "USA", "Alabama"]) == ["", "/USA", "/USA/Alabama"]
    assert chain_topicstrs(["USA"]) == ["", "USA"]


def test_conflicts_on_reports_a_name_conflict_with_one_side_on_the_chain() -> None:
    """§9 Warnings: a conflicting pair lies on T's chain when either of its objects does."""
    t = topo(
        [qm(n) for n in ("QM1", "QM3", "QM4")],
        cluster("CL1", "QM1", "QM3"),
        cluster("CL2", "QM3", "QM4"),
        topic("QM1", "NEWS", "/News", "CL1"),
        topic("QM4", "NEWS", "/Other", "CL2"),
    )
    tree = TopicTree.for_node(t, "QM3")
    assert [c.kind for c in tree.conflicts_on("/News/x")] == [ConflictKind.SAME_NAME]
    assert [c.kind for c in tree.conflicts_on("/Other/x")] == [ConflictKind.SAME_NAME]
    assert tree.conflicts_on("/Elsewhere") == []


def test_own_clustered_definition_is_subject_to_most_recent_rule() -> None:
    """§3 (reference 001 "using only the most recent clustered topic definition"), also at a defining host."""
    own = topic("QM3", "SPORT1", "/Sport", "CL1")
    newer = topic("QM4", "SPORT2", "/Sport", "CL2")
    t = topo([qm(n) for n in ("QM3", "QM4")], cluster("CL1", "QM3"), cluster("CL2", "QM3", "QM4"), own, newer)
    tree = TopicTree.for_node(t, "QM3")
    assert tree.resolve("/Sport").object is newer
    alike = topo(
        [qm(n) for n in ("QM1", "QM2")], cluster("CL1", "QM1", "QM2"), hosted("CL1", "T", "/t", "QM2", "QM1")
    )
    kept = TopicTree.for_node(alike, "QM1").resolve("/t").object
    assert kept is not None and kept.node == "QM1"  # its own, among alike ones
