"""Topic trees share, per set of clusters, the conflict detection and the kept definitions (a routing
model builds thousands of trees): every tree equals one built the direct way (semantics §3, §9)."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from mqctl.domain.model import Dialect, Enablement, Scope, Topology
from mqctl.domain.resolution import ClusterIndex, TopicTree, _recency, find_conflicts
from mqctl.domain.topics import levels
from mqctl.domain.tree_view import effective_json, effective_many
from tests.domain.test_routing_model import mq_topologies


def direct_tree(index: ClusterIndex, qmgr: str) -> tuple[dict[str, object], list[str]]:
    """The tree as §3 and §9 describe it, with nothing shared."""
    mine = index.clusters_of(qmgr)
    # a definition for a cluster Q is not a member of is Q's alone: plain, it wins at Q (issue 37)
    plain = sorted((o for o in index.local(qmgr) if o.cluster not in mine), key=_recency)
    strs, names = {o.topicstr for o in plain}, {o.name for o in plain}
    own = [o for o in index.local(qmgr) if o.cluster in mine]
    remote = [o for c in sorted(index.clusters_of(qmgr)) for o in index.clustered(c) if o.node != qmgr]
    clustered = [o for o in [*own, *remote] if o.topicstr not in strs and o.name not in names]
    conflicts = find_conflicts(clustered)
    losers = {(o.node, o.name) for c in conflicts for o in c.losers}
    entries: dict[str, object] = {}
    for obj in sorted(clustered, key=lambda o: (o.node == qmgr, *_recency(o))):
        if (obj.node, obj.name) not in losers:
            entries[obj.topicstr] = obj
    for obj in plain:
        entries[obj.topicstr] = obj
    return entries, [c.describe() for c in conflicts]


@settings(max_examples=200, deadline=None)
@given(mq_topologies())
def test_shared_trees_equal_direct_ones(topology: Topology) -> None:
    index = ClusterIndex(topology)
    for qmgr in sorted(topology.nodes):
        tree = TopicTree.for_node(index, qmgr)
        entries, conflicts = direct_tree(index, qmgr)
        assert tree.entries == entries
        assert [c.describe() for c in tree.conflicts] == conflicts


EXTRA_STRINGS = (
    "",
    "/",
    "/Sport",
    "/Sport/Foot/x",
    "/News/+/#",
    "Sport",
    "//a",
    "/a//b",
    "Sport/",
    "/Sport//",
)


def varied(
    topology: Topology, extra: list[str], data: st.DataObject, scopes: bool = False
) -> tuple[ClusterIndex, list[str]]:
    """The topology's objects with drawn PUB and SUB (or PUBSCOPE and SUBSCOPE), its index, and the
    strings to resolve: every object's TOPICSTR, one level below each, and ``extra``."""
    enablement = st.sampled_from(list(Enablement))
    scope = st.sampled_from(list(Scope))
    topology.topics = [
        replace(o, pub=data.draw(enablement), pubscope=data.draw(scope), subscope=data.draw(scope))
        if scopes
        else replace(o, pub=data.draw(enablement), sub=data.draw(enablement))
        for o in topology.topics
    ]
    strings = [o.topicstr for o in topology.topics]
    return ClusterIndex(topology), [*strings, *(f"{s}/below" for s in strings), *extra]


@settings(max_examples=200, deadline=None)
@given(mq_topologies(), st.lists(st.sampled_from(EXTRA_STRINGS), max_size=4), st.data())
def test_resolving_many_at_once_equals_resolving_each(
    topology: Topology, extra: list[str], data: st.DataObject
) -> None:
    """``display topic '*'`` resolves every object's TOPICSTR in one pass per tree: each answer is the
    one ``resolve`` gives (object, chain, cluster point, hosts, every inherited attribute)."""
    index, strings = varied(topology, extra, data)
    for qmgr in sorted(topology.nodes):
        tree = TopicTree.for_node(index, qmgr)
        assert tree.resolve_many(strings) == [tree.resolve(s) for s in strings]


@settings(max_examples=200, deadline=None)
@given(mq_topologies(), st.lists(st.sampled_from(EXTRA_STRINGS), max_size=4), st.data())
def test_effective_values_of_many_equal_those_of_each_resolution(
    topology: Topology, extra: list[str], data: st.DataObject
) -> None:
    """``display topic -o json``'s ``effective`` values, made for every object at once without a
    ``Resolution`` each, are those of each string's own resolution."""
    index, strings = varied(topology, extra, data, scopes=True)
    for qmgr in sorted(topology.nodes):
        tree = TopicTree.for_node(index, qmgr)
        assert effective_many(tree, strings) == [effective_json(tree.resolve(s)) for s in strings]


@settings(max_examples=300, deadline=None)
@given(mq_topologies(), st.lists(st.sampled_from(EXTRA_STRINGS), max_size=4), st.data())
def test_resolutions_shared_among_fellow_members_are_each_ones_own(
    topology: Topology, extra: list[str], data: st.DataObject
) -> None:
    """Fellow members of the same clusters share a topic's resolution (a replay resolves each key's topic
    at its publisher): every queue manager still gets its own, as its own tree alone gives it, its plain
    objects and its own clustered ones on the chain included, whichever member asked first."""
    index, strings = varied(topology, extra, data)
    qmgrs = data.draw(st.permutations(sorted(topology.nodes)))
    for qmgr in qmgrs:
        tree = TopicTree.for_node(index, qmgr)
        for s in strings:
            assert tree.resolve(s) == tree.resolve_levels(levels(s, Dialect.MQ))
