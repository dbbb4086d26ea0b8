"""`graph` and `explain` pictures as Graphviz DOT, read back with pydot's DOT parser: the text is valid
DOT, and the graph it describes is the diagram drawn (labels, arrows, cluster groups), escapes included."""

from __future__ import annotations

import re
from collections.abc import Callable

import pydot
import pytest

from mqctl.domain.explanation import Failures
from mqctl.render.diagram import Diagram, legend_entries, wrap
from mqctl.render.dot import _FILLS, write_dot
from mqctl.render.graph import topology_diagram
from mqctl.render.journey import journey_diagram
from tests.domain import ems_builders as ems
from tests.domain import mq_builders as mq
from tests.render import topologies

_ESCAPE = re.compile(r"\\(.)", re.S)
pytestmark = pytest.mark.filterwarnings("ignore::pyparsing.warnings.PyparsingDeprecationWarning")
"""pydot 4.0 still calls pyparsing's camelCase names, which pyparsing 3.3 deprecates."""


def unquote(value: str) -> list[str]:
    """A quoted DOT label -> its lines (``\\n`` ends a line, ``\\"`` and ``\\\\`` stand for themselves)."""
    assert value.startswith('"') and value.endswith('"'), value
    return _ESCAPE.sub(lambda m: "\n" if m.group(1) == "n" else m.group(1), value[1:-1]).split("\n")


def read_back(diagram: Diagram) -> pydot.Dot:
    text = write_dot(diagram)
    (graph,) = pydot.graph_from_dot_data(text)
    labels: dict[str, tuple[str, ...]] = {}
    groups = []
    legend: list[tuple[str, str | None]] = []
    notes: list[list[str]] = []
    for sub in graph.get_subgraphs():
        assert sub.get_name().startswith("cluster_")
        if sub.get_name() in ("cluster_mqctl_legend", "cluster_mqctl_notes"):  # beside the picture
            for node in sub.get_nodes():
                lines = unquote(node.get("label"))
                if sub.get_name() == "cluster_mqctl_notes":
                    notes.append(lines)
                else:
                    (line,) = lines
                    legend.append((line, node.get("fillcolor")))
            continue
        members = []
        for node in sub.get_nodes():
            labels[node.get_name()] = tuple(unquote(node.get("label")))
            members.append(labels[node.get_name()])
        groups.append((tuple(unquote(sub.get("label"))), tuple(sorted(members))))
    (settings,) = graph.get_node("graph")
    assert unquote(settings.get("label")) == [diagram.title]
    for node in graph.get_nodes():
        if node.get_name() not in ("graph", "node", "edge"):
            labels[node.get_name()] = tuple(unquote(node.get("label")))
    assert sorted(labels.values()) == sorted(tuple(b.lines) for b in diagram.boxes.values())
    boxes = diagram.boxes
    drawn = sorted(
        (
            labels[e.get_source()],
            labels[e.get_destination()],
            tuple(unquote(e.get("label"))) if e.get("label") else (),
            e.get("dir") != "none",
            e.get("color") is not None,
        )
        for e in graph.get_edges()
    )
    wanted = sorted(
        (tuple(boxes[a.tail].lines), tuple(boxes[a.head].lines), tuple(a.lines), a.directed, a.down)
        for a in diagram.arrows
    )
    assert drawn == wanted
    want_groups = sorted(
        ((g.label,), tuple(sorted(tuple(boxes[m].lines) for m in g.members if m in boxes)))
        for g in diagram.groups
    )
    assert sorted(groups) == want_groups
    entries = legend_entries(diagram)  # every picture carries one: its shapes, marks and lines
    assert [text for text, _ in legend] == [e.text for e in entries]
    assert all((fill is not None) == (e.mark in _FILLS) for (_, fill), e in zip(legend, entries, strict=True))
    assert notes == [wrap(c, 60) for c in diagram.captions]
    for e in graph.get_edges():  # a link down is broken, and says so
        if e.get("color") is not None:
            assert e.get("style") == "dashed" and "down" in " ".join(unquote(e.get("label")))
    return graph


def _awkward_journeys() -> list[Diagram]:
    t = topologies.awkward()
    s = topologies.AWKWARD_SERVERS
    link = frozenset(s[1:3])
    stored = ems.explain(t, s[0], topologies.AWKWARD_TOPIC, links_down=[tuple(link)], a='x"y', b=3)
    return [
        journey_diagram(ems.explain(t, s[0], topologies.AWKWARD_TOPIC, a='x"y', b=3), None, t),
        journey_diagram(stored, Failures(links_down=frozenset({link})), t),
    ]


CASES: dict[str, Callable[[], list[Diagram]]] = {
    "demo": lambda: [
        topology_diagram(topologies.demo()),
        topology_diagram(topologies.demo(), topic="/USA/Alaska/x"),
    ],
    "overlap": lambda: [
        topology_diagram(topologies.overlap()),
        topology_diagram(topologies.overlap(), nodes=["QM6"]),
    ],
    "ems": lambda: [topology_diagram(ems.orders()), topology_diagram(ems.regions(), topic="market.fx.eur")],
    "awkward": lambda: [
        topology_diagram(topologies.awkward()),
        topology_diagram(topologies.awkward(), topic=topologies.AWKWARD_TOPIC),
        *_awkward_journeys(),
    ],
    "demo journey": lambda: [
        journey_diagram(
            mq.ask(topologies.demo(), "QM6", "/USA/Alabama/Mobile", down=["QM3", "QM4"]),
            Failures(down=frozenset({"QM3", "QM4"})),
            topologies.demo(),
        )
    ],
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_dot_reads_back_as_drawn(case: str) -> None:
    for diagram in CASES[case]():
        read_back(diagram)


def test_marks_become_graphviz_styles() -> None:
    graph = read_back(topology_diagram(topologies.demo()))
    qm1 = next(n for s in graph.get_subgraphs() for n in s.get_nodes() if unquote(n.get("label"))[0] == "QM1")
    assert qm1.get("penwidth") == "3"
    result = mq.ask(topologies.demo(), "QM6", "/USA/Alabama/Mobile", down=["QM3", "QM4"])
    journey = read_back(journey_diagram(result, Failures(down=frozenset({"QM3", "QM4"})), topologies.demo()))
    nodes = [*journey.get_nodes(), *(n for s in journey.get_subgraphs() for n in s.get_nodes())]
    qm3 = next(n for n in nodes if n.get("label") and unquote(n.get("label"))[0] == "QM3")
    assert qm3.get("fillcolor") == '"#fdecea"' and "filled" in qm3.get("style")
    # issue 37: down in words and by a broken border, not by colour alone; inside its cluster's group
    assert unquote(qm3.get("label")) == ["QM3", "DOWN"] and "dashed" in qm3.get("style")
    (usa,) = [s for s in journey.get_subgraphs() if unquote(s.get("label")) == ["cluster USA"]]
    assert "QM3" in {unquote(n.get("label"))[0] for n in usa.get_nodes()}
    (legend,) = [s for s in journey.get_subgraphs() if unquote(s.get("label")) == ["Legend"]]
    down = next(
        n for n in legend.get_nodes() if unquote(n.get("label")) == ["DOWN: node down (dashed border)"]
    )
    assert down.get("fillcolor") == '"#fdecea"' and "dashed" in down.get("style")
