"""`graph` draws every cluster as itself: read the Mermaid and DOT text back and, for every cluster, the
queue managers drawn in it or joined to it are exactly the model's members (reference 001's overlapping
clusters, and a three-cluster estate with gateways)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable

import pydot
import pytest

from mqctl.domain.model import Topology
from mqctl.domain.resolution import ClusterIndex
from mqctl.render.dot import write_dot
from mqctl.render.graph import topology_diagram
from mqctl.render.mermaid import write_mermaid
from tests.render import topologies
from tests.render.mermaid_grammar import parse
from tests.render.test_dot import unquote

pytestmark = pytest.mark.filterwarnings("ignore::pyparsing.warnings.PyparsingDeprecationWarning")

Drawn = dict[str, set[str]]


def model_members(topology: Topology) -> Drawn:
    out: Drawn = defaultdict(set)
    for m in topology.memberships:
        out[m.cluster].add(m.node)
    return dict(out)


def mermaid_members(text: str) -> tuple[Drawn, set[str]]:
    """Cluster -> the boxes inside its subgraph or joined to its anchor (the ``((…))`` shape), and the
    boxes marked as gateways."""
    chart = parse(text)
    out: Drawn = {}
    for label, members in chart.groups.values():
        (title,) = label
        cluster = title.removeprefix("cluster ")
        anchors = [m for m in members if chart.shapes[m] == "(("]
        inside = {chart.nodes[m][0] for m in members if m not in anchors}
        joined = {
            chart.nodes[t if h in anchors else h][0]
            for t, h, lines, directed, _ in chart.edges
            if (h in anchors or t in anchors) and not directed and lines == [f"member of {cluster}"]
        }
        out[cluster] = inside | joined
    gateways = {chart.nodes[i][0] for i in chart.classes.get("gateway", [])}
    return out, gateways


def dot_members(text: str) -> tuple[Drawn, set[str]]:
    (graph,) = pydot.graph_from_dot_data(text)
    first = {}
    anchors = set()
    out: Drawn = {}
    for node in graph.get_nodes() + [n for s in graph.get_subgraphs() for n in s.get_nodes()]:
        if node.get("label"):
            first[node.get_name()] = unquote(node.get("label"))[0]
    for sub in graph.get_subgraphs():
        if sub.get_name() in ("cluster_mqctl_legend", "cluster_mqctl_notes"):
            continue  # beside the picture, not a cluster of it
        cluster = unquote(sub.get("label"))[0].removeprefix("cluster ")
        inside = set()
        for node in sub.get_nodes():
            if node.get("shape") == "circle":
                anchors.add(node.get_name())
                for edge in graph.get_edges():
                    if edge.get_destination() == node.get_name() and edge.get("dir") == "none":
                        assert unquote(edge.get("label")) == [f"member of {cluster}"]
                        inside.add(first[edge.get_source()])
            else:
                inside.add(first[node.get_name()])
        out[cluster] = inside
    pictured = [s for s in graph.get_subgraphs() if s.get_name() != "cluster_mqctl_legend"]
    gateways = {
        first[n.get_name()]
        for n in graph.get_nodes() + [n for s in pictured for n in s.get_nodes()]
        if n.get("peripheries") == "2"
    }
    return out, gateways


READERS: dict[str, tuple[Callable[..., str], Callable[[str], tuple[Drawn, set[str]]]]] = {
    "mermaid": (write_mermaid, mermaid_members),
    "dot": (write_dot, dot_members),
}
TOPOLOGIES = {"reference 001": topologies.overlap, "three clusters": topologies.three_clusters}


@pytest.mark.parametrize("fmt", sorted(READERS))
@pytest.mark.parametrize("name", sorted(TOPOLOGIES))
def test_every_cluster_is_drawn_with_exactly_its_members(fmt: str, name: str) -> None:
    topology = TOPOLOGIES[name]()
    write, read = READERS[fmt]
    drawn, gateways = read(write(topology_diagram(topology)))
    assert drawn == model_members(topology)
    index = ClusterIndex(topology)
    assert gateways == {n for n in topology.nodes if len(index.clusters_of(n)) > 1}


@pytest.mark.parametrize("fmt", sorted(READERS))
def test_asked_clusters_only_make_gateways_of_what_they_share(fmt: str) -> None:
    topology = topologies.three_clusters()
    write, read = READERS[fmt]
    drawn, gateways = read(write(topology_diagram(topology, clusters=["EU", "US"])))
    members = model_members(topology)
    assert drawn == {"EU": members["EU"], "US": members["US"]}
    assert gateways == {"GW"}  # TK3 is in EU and ASIA, but ASIA is not drawn


def test_every_clustered_topic_is_drawn_where_it_is_hosted() -> None:
    diagram = topology_diagram(topologies.three_clusters())
    lines = {key: box.lines for key, box in diagram.boxes.items()}
    assert "cluster topic PRICES '/Prices' (EU, DIRECT)" in lines["FR1"]
    assert "cluster topic SPORT '/Sport' (ASIA, DIRECT)" in lines["GW"]
    assert "cluster topic LOST '/Lost' (GHOST, DIRECT), not a member of GHOST" in lines["TK1"]
    assert "gateway of clusters ASIA, BRIDGE, EU and US" in lines["GW"]
