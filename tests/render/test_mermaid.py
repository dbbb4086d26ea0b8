"""`graph` and `explain` pictures as Mermaid, read back with a checker built from Mermaid's flowchart
grammar (tests/render/mermaid_grammar.py): every identifier and label is one Mermaid reads as meant,
and the picture read back is the diagram drawn."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mqctl.render.diagram import Diagram, Shape, legend_entries, wrap
from mqctl.render.graph import topology_diagram
from mqctl.render.journey import journey_diagram
from mqctl.render.mermaid import _SAFE, escape, write_mermaid
from tests.domain import ems_builders as ems
from tests.domain import mq_builders as mq
from tests.render import topologies
from tests.render.mermaid_grammar import MermaidError, decode, parse


def read_back(diagram: Diagram) -> None:
    """The Mermaid text parses, and shows exactly the boxes, arrows and groups of the diagram."""
    chart = parse(write_mermaid(diagram))
    by_id = {ident: tuple(lines) for ident, lines in chart.nodes.items()}
    assert sorted(by_id.values()) == sorted(tuple(b.lines) for b in diagram.boxes.values())
    drawn = sorted((by_id[t], by_id[h], tuple(lines), d) for t, h, lines, d, _ in chart.edges)
    boxes = diagram.boxes
    wanted = sorted(
        (tuple(boxes[a.tail].lines), tuple(boxes[a.head].lines), tuple(a.lines), a.directed)
        for a in diagram.arrows
    )
    assert drawn == wanted
    groups = sorted(
        (tuple(label), tuple(sorted(by_id[m] for m in members))) for label, members in chart.groups.values()
    )
    want_groups = sorted(
        ((g.label,), tuple(sorted(tuple(boxes[m].lines) for m in g.members if m in boxes)))
        for g in diagram.groups
    )
    assert groups == want_groups
    broken = {i for i, a in enumerate(diagram.arrows) if a.down}
    assert set(chart.link_styles) == broken
    assert all(dotted for (*_, dotted), a in zip(chart.edges, diagram.arrows, strict=True) if a.down)
    legend = legend_entries(diagram)  # every picture carries one: its shapes, marks and lines
    assert [text for text, _ in chart.legend] == [e.text for e in legend]
    assert [classes for _, classes in chart.legend] == [[str(e.mark)] if e.mark else [] for e in legend]
    assert chart.notes == [wrap(c, 60) for c in diagram.captions]


def test_the_checker_refuses_what_mermaid_would_misread() -> None:
    for bad in ('"a"b"', '"a#b"', '"a/b"', '"a>b"', '"a|b"', '"a;b"', '"#bogus;"'):
        with pytest.raises(MermaidError):
            decode(bad)
    for text in ('flowchart LR\n  end["x"]', 'flowchart LR\n  o_1["x"]', 'flowchart LR\n  a["x"] --> b'):
        with pytest.raises(MermaidError):
            parse(text)
    assert decode('"a#35;b<br/>#47;#quot;"') == ["a#b", '/"']


def test_escape_writes_every_special_character_as_an_entity() -> None:
    assert escape('/USA/#"x">') == "#47;USA#47;#35;#34;x#34;#62;"
    assert escape("Zürich-1 (a=b)") == "Zürich-1 (a=b)"


@given(st.text(st.characters(blacklist_categories=("Cs",)), max_size=20))
def test_escape_is_the_character_by_character_rule(text: str) -> None:
    """Safe characters and letters and digits beyond ASCII as they are, any other as ``#<code>;``."""
    assert escape(text) == "".join(
        c if c in _SAFE or (c.isalnum() and not c.isascii()) else f"#{ord(c)};" for c in text
    )


def test_demo_topology_graph() -> None:
    """Reference 000 Figure 5: one cluster group, full repositories and topic hosts marked."""
    diagram = topology_diagram(topologies.demo())
    read_back(diagram)
    chart = parse(write_mermaid(diagram))
    ((label, members),) = chart.groups.values()
    assert label == ["cluster USA"]
    assert sorted(chart.nodes[m][0] for m in members) == [f"QM{i}" for i in range(1, 7)]
    assert sorted(chart.nodes[i][0] for i in chart.classes["fullrepo"]) == ["QM1", "QM2"]
    assert sorted(chart.nodes[i][0] for i in chart.classes["host"]) == ["QM3", "QM4"]
    assert "cluster topic ALABAMA '/USA/Alabama' (USA, TOPICHOST)" in chart.nodes[chart.node_named("QM3")]


def test_overlapping_clusters_and_a_hierarchy() -> None:
    """Reference 001: QM3, in both clusters, is drawn outside them as a gateway joined to each; the
    hierarchy link is drawn."""
    diagram = topology_diagram(topologies.overlap())
    read_back(diagram)
    chart = parse(write_mermaid(diagram))
    groups = {
        label[0]: sorted(chart.nodes[m][0] for m in members) for label, members in chart.groups.values()
    }
    assert groups == {
        "cluster CLUSTER1": ["CLUSTER1", "QM1", "QM2"],
        "cluster CLUSTER2": ["CLUSTER2", "QM4", "QM5"],
    }
    assert sorted((chart.nodes[t][0], chart.nodes[h][0], lines) for t, h, lines, *_ in chart.edges) == [
        ("QM3", "CLUSTER1", ["member of CLUSTER1"]),
        ("QM3", "CLUSTER2", ["member of CLUSTER2"]),
        ("QM6", "QM5", ["hierarchy: parent"]),
    ]
    assert [chart.nodes[i][0] for i in chart.classes["gateway"]] == ["QM3"]


def test_topic_narrows_to_what_matters() -> None:
    """--topic: the cluster the topic resolves in, its hosts, the subscribers and the hierarchy relays."""
    t = topologies.overlap()
    tennis = topology_diagram(t, topic="/Sport/Tennis")
    read_back(tennis)
    names = {b.lines[0] for b in tennis.boxes.values() if b.shape is not Shape.CLUSTER}
    assert names == {"QM3", "QM4", "QM5", "QM6", "sub TENNIS"}
    assert "resolves to TC, cluster CLUSTER2 (DIRECT)" in tennis.boxes["QM5"].lines
    assert "topic host" in tennis.boxes["QM4"].lines
    football = topology_diagram(t, topic="/Sport/Football", clusters=["CLUSTER1"])
    assert {b.lines[0] for b in football.boxes.values() if b.shape is not Shape.CLUSTER} == {
        "QM1",
        "QM2",
        "QM3",
        "sub FOOTBALL",
    }


def test_ems_routes_with_zones_selectors_and_definers() -> None:
    diagram = topology_diagram(ems.orders())
    read_back(diagram)
    usa = next(a for a in diagram.arrows if {a.tail, a.head} == {"ORD", "USA"})
    assert not usa.directed and usa.lines[:2] == ["zone default_mhop_zone (mhop)", "active-active"]
    assert "ORD outgoing orders: country='USA'" in usa.lines
    assert "USA incoming orders: amount > 0 AND currency IN ('USD', 'CAD')" in usa.lines
    chain = topology_diagram(ems.chain())
    mb = next(a for a in chain.arrows if {a.tail, a.head} == {"M", "B"})
    assert (mb.tail, mb.head, mb.directed) == ("B", "M", True)
    assert "route M defined on B only (active-passive)" in mb.lines
    only_t2 = topology_diagram(ems.chain(t1_global_on="AM"), topic="T1")
    routes = [(a.tail, a.head) for a in only_t2.arrows if not a.head.startswith("sub:")]
    assert routes == [("A", "M")]  # T1 is not global on B


def test_names_that_need_escaping_read_back_exactly() -> None:
    t = topologies.awkward()
    for diagram in (
        topology_diagram(t),
        topology_diagram(t, topic=topologies.AWKWARD_TOPIC),
        topology_diagram(t, topic='/a#b/"c">d/e'),
    ):
        read_back(diagram)
    shown = topology_diagram(t, topic=topologies.AWKWARD_TOPIC)
    assert {b.lines[0] for b in shown.boxes.values()} >= {
        *topologies.AWKWARD_SERVERS[:3],
        'sub sub "q" #1 <b>|x;%\\',
    }


def test_explain_journey_with_a_host_down() -> None:
    """Reference 000 with QM3 down: QM3 drawn down, the way through QM4, the misses with their reasons."""
    t = topologies.demo()
    result = mq.ask(t, "QM6", "/USA/Alabama/Mobile", down=["QM3"], properties=ems.props(amount=250))
    from mqctl.domain.explanation import Failures

    diagram = journey_diagram(result, Failures(down=frozenset({"QM3"})), t)
    read_back(diagram)
    chart = parse(write_mermaid(diagram))
    assert [chart.nodes[i][0] for i in chart.classes["down"]] == ["QM3"]
    assert [chart.nodes[i][0] for i in chart.classes["publisher"]] == ["QM6"]
    hops = {(chart.nodes[t][0], chart.nodes[h][0], tuple(lines)) for t, h, lines, d, _ in chart.edges if d}
    assert ("QM6", "QM4", ("topichost USA",)) in hops and ("QM4", "QM5", ("cluster USA",)) in hops
    missed = chart.nodes[chart.node_named("sub EVERYTHING")]
    assert missed[1:] == ["not delivered: WILDCARD_ABOVE_CLUSTER [1]"]  # the code inside, nothing more
    (note,) = [
        n for n in chart.notes if n[0].startswith("[1] sub EVERYTHING on QM1: WILDCARD_ABOVE_CLUSTER.")
    ]
    assert "above the clustered point" in " ".join(note)  # the sentence beside the picture


def test_explain_pictures_mark_down_in_words_and_broken_lines_with_a_legend() -> None:
    """Issue 37: a node down says DOWN (dashed border), a hop to it and a link down are broken lines that
    say "down", not colour alone; the legend says what each mark and line means."""
    t = topologies.demo()
    from mqctl.domain.explanation import Failures

    failures = Failures(down=frozenset({"QM3", "QM4"}), links_down=frozenset({frozenset({"QM1", "QM2"})}))
    result = mq.ask(t, "QM6", "/USA/Alabama/Mobile", down=["QM3", "QM4"], links=[("QM1", "QM2")],
                    properties=ems.props(amount=250))  # fmt: skip
    chart = parse(write_mermaid(journey_diagram(result, failures, t)))
    named = {i: lines[0] for i, lines in chart.nodes.items()}
    for host in ("QM3", "QM4"):
        assert chart.nodes[chart.node_named(host)][-1] == "DOWN"
    assert sorted(named[i] for i in chart.classes["down"]) == ["QM3", "QM4"]
    broken = {
        (named[a], named[b], tuple(lines), dotted)
        for i, (a, b, lines, _, dotted) in enumerate(chart.edges)
        if i in chart.link_styles
    }
    assert ("QM1", "QM2", ("link down",), True) in broken
    assert ("QM6", "QM3", ("topichost USA", "QM3 down"), True) in broken
    legend = dict(chart.legend)
    assert legend["DOWN: node down (dashed border)"] == ["down"]
    assert "broken line marked down: the link, or the node beyond it, is down" in legend
    assert legend["stored for later"] == ["stored"]
    (label, members) = next(iter(chart.groups.values()))
    assert label == ["cluster USA"] and {"QM3", "QM4", "QM6"} <= {named[m] for m in members}


def test_explain_pictures_group_by_cluster_and_label_the_hierarchy_the_way_it_goes() -> None:
    """Issue 37: FR1, FR2, GW in group "cluster EU", LEGACY outside; the hop GW -> LEGACY is labelled
    "hierarchy GW->LEGACY (parent to child)", and marked unsupported (MQC018) with its sentence beside."""
    t = mq.topo(
        [mq.qm(n) for n in ("FR1", "FR2", "GW")],
        mq.qm("LEGACY", parent="GW"),
        mq.cluster("EU", "FR1", "FR2", "GW"),
        mq.hosted("EU", "PRICES.EU", "/Prices/EU", "FR2"),
        mq.sub("LEGACY", "OLDFEED", "/Prices/EU/#"),
        mq.sub("FR1", "PARIS", "/Prices/EU/Paris"),
    )
    diagram = journey_diagram(mq.ask(t, "FR1", "/Prices/EU/Paris"), None, t)
    read_back(diagram)
    chart = parse(write_mermaid(diagram))
    named = {i: lines[0] for i, lines in chart.nodes.items()}
    ((label, members),) = chart.groups.values()
    assert label == ["cluster EU"]
    assert sorted(named[m] for m in members) == ["FR1", "FR2", "GW", "sub PARIS"]
    edges = {(named[a], named[b]): lines for a, b, lines, _, _ in chart.edges}
    assert edges[("GW", "LEGACY")] == ["hierarchy GW->LEGACY (parent to child)", "unsupported path (MQC018)"]
    assert chart.nodes[chart.node_named("sub OLDFEED")][1:] == ["delivered", "unsupported path (MQC018) [1]"]
    assert " ".join(chart.notes[0]).startswith("[1] sub OLDFEED on LEGACY: IBM does not support this path")


def test_explain_journey_stored_and_link_down() -> None:
    """Every host down: stored at the publisher, said as "stored at QM6 for S on QM5"; a link down is drawn."""
    t = topologies.demo()
    from mqctl.domain.explanation import Failures

    failures = Failures(down=frozenset({"QM3", "QM4"}), links_down=frozenset({frozenset({"QM1", "QM2"})}))
    result = mq.ask(t, "QM6", "/USA/Alabama/Mobile", down=["QM3", "QM4"], links=[("QM1", "QM2")],
                    properties=ems.props(amount=250))  # fmt: skip
    diagram = journey_diagram(result, failures, t)
    read_back(diagram)
    sub = diagram.boxes["sub:QM5:MOBILE.ORDERS"]
    assert "stored at QM6 for MOBILE.ORDERS on QM5" in sub.lines
    assert "stores messages for MOBILE.ORDERS on QM5" in diagram.boxes["QM6"].lines
    broken = [(a.tail, a.head, a.lines) for a in diagram.arrows if a.down]
    assert ("QM1", "QM2", ["link down"]) in broken
    assert any(a.tail == "QM6" and a.head == "QM3" for a in diagram.arrows if a.down)


def test_explain_journey_ems_names_the_active_passive_route() -> None:
    t = ems.chain()
    result = ems.explain(t, "A", "T1")
    diagram = journey_diagram(result, None, t)
    read_back(diagram)
    lines = {tuple(a.lines) for a in diagram.arrows}
    assert ("route M (active-active)",) in lines
    assert ("route M defined on B only (active-passive)",) in lines


def test_explain_journey_with_awkward_names() -> None:
    t = topologies.awkward()
    servers = topologies.AWKWARD_SERVERS
    from mqctl.domain.explanation import Failures

    delivered = ems.explain(t, servers[0], topologies.AWKWARD_TOPIC, a='x"y', b=3)
    assert [d.subscription for d in delivered.deliveries] == ['sub "q" #1 <b>|x;%\\']
    read_back(journey_diagram(delivered, None, t))
    stored = ems.explain(t, servers[0], topologies.AWKWARD_TOPIC, links_down=[servers[1:3]], a='x"y', b=3)
    assert stored.deliveries[0].stored_at == servers[1]
    read_back(journey_diagram(stored, Failures(links_down=frozenset({frozenset(servers[1:3])})), t))
    read_back(journey_diagram(mq.ask(t, "QM/1", '/a#b/"c">d/e'), None, t))
