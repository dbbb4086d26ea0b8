"""`explain -o mermaid|dot` draw the hop to a topic host that reaches no subscriber, as the tree shows it
(issue 25): a non-host publisher sends a TOPICHOST topic to its chosen host even when nobody downstream
subscribes, so the picture shows that hop, dashed, to a grey host marked "reaches no subscriber"."""

from __future__ import annotations

from collections.abc import Callable

import pydot
import pytest

from tests.conftest import Result
from tests.helpers import ok
from tests.render.mermaid_grammar import Flowchart, parse
from tests.render.test_dot import unquote

Cli = Callable[..., Result]
QUESTION = ["explain", "--from", "QM1", "--topic", "/T/x"]
MARK = "reaches no subscriber"
pytestmark = pytest.mark.filterwarnings("ignore::pyparsing.warnings.PyparsingDeprecationWarning")
"""pydot 4.0 still calls pyparsing's camelCase names, which pyparsing 3.3 deprecates."""


def _cluster(cli: Cli) -> None:
    """QM1, QM2 and QM3 in cluster CL; only QM2 hosts /T (TOPICHOST); nobody subscribes."""
    for qm in ("QM1", "QM2", "QM3"):
        ok(cli("define", "qmgr", qm))
        ok(cli("define", "channel", f"CL.{qm}", "--qmgr", qm, "--chltype", "clusrcvr", "--cluster", "CL"))
    topic = ["define", "topic", "T", "--qmgr", "QM2", "--topicstr", "/T", "--cluster", "CL"]
    ok(cli(*topic, "--clroute", "topichost"))


def _mermaid(cli: Cli) -> tuple[Flowchart, dict[str, str]]:
    chart = parse(ok(cli(*QUESTION, "-o", "mermaid")).stdout)
    return chart, {ident: lines[0] for ident, lines in chart.nodes.items()}


def _mermaid_host(cli: Cli) -> tuple[list[str], bool, list[tuple[str, bool]]]:
    """QM2's label lines, whether it is styled as missed, and the QM1 -> QM2 edges as (label, dotted)."""
    chart, first = _mermaid(cli)
    host = chart.node_named("QM2")
    edges = [
        ("\n".join(lines), dotted)
        for tail, head, lines, directed, dotted in chart.edges
        if (first[tail], first[head]) == ("QM1", "QM2") and directed
    ]
    return chart.nodes[host], host in chart.classes.get("missed", []), edges


def _dot_host(cli: Cli) -> tuple[list[str], str | None, list[tuple[str, str | None]]]:
    """QM2's label lines, its fill colour, and the QM1 -> QM2 edges as (label, style)."""
    (graph,) = pydot.graph_from_dot_data(ok(cli(*QUESTION, "-o", "dot")).stdout)
    nodes = [*graph.get_nodes(), *(n for s in graph.get_subgraphs() for n in s.get_nodes())]  # in groups too
    labels = {
        n.get_name(): unquote(n.get("label")) for n in nodes if n.get_name() not in ("graph", "node", "edge")
    }
    (host,) = [n for n in nodes if n.get_name() in labels and labels[n.get_name()][0] == "QM2"]
    edges = [
        ("\n".join(unquote(e.get("label"))), e.get("style"))
        for e in graph.get_edges()
        if (labels[e.get_source()][0], labels[e.get_destination()][0]) == ("QM1", "QM2")
    ]
    return labels[host.get_name()], host.get("fillcolor"), edges


def test_the_pictures_draw_the_hop_to_a_host_that_reaches_no_subscriber(cli: Cli) -> None:
    _cluster(cli)
    assert f"-> QM2  via topichost CL  {MARK}" in ok(cli(*QUESTION)).stdout  # the tree
    lines, missed, edges = _mermaid_host(cli)
    assert lines == ["QM2", MARK] and missed and edges == [("topichost CL", True)]
    lines, fill, dot_edges = _dot_host(cli)
    assert lines == ["QM2", MARK] and fill == '"#f5f5f5"' and dot_edges == [("topichost CL", "dashed")]


def test_a_subscriber_on_the_publisher_alone_leaves_the_hop_marked(cli: Cli) -> None:
    _cluster(cli)
    ok(cli("define", "sub", "LOCAL", "--qmgr", "QM1", "--topicstr", "/T/#"))
    chart, first = _mermaid(cli)
    assert chart.nodes[chart.node_named("sub LOCAL")] == ["sub LOCAL", "delivered"]
    lines, missed, edges = _mermaid_host(cli)
    assert lines == ["QM2", MARK] and missed and edges == [("topichost CL", True)]
    lines, fill, dot_edges = _dot_host(cli)
    assert lines == ["QM2", MARK] and fill == '"#f5f5f5"' and dot_edges == [("topichost CL", "dashed")]


def test_a_subscriber_behind_the_host_changes_nothing(cli: Cli) -> None:
    _cluster(cli)
    ok(cli("define", "sub", "FAR", "--qmgr", "QM3", "--topicstr", "/T/#"))
    assert MARK not in ok(cli(*QUESTION)).stdout
    for fmt in ("mermaid", "dot"):
        assert MARK not in ok(cli(*QUESTION, "-o", fmt)).stdout, fmt
    lines, missed, edges = _mermaid_host(cli)
    assert lines == ["QM2"] and not missed and edges == [("topichost CL", False)]
    lines, fill, dot_edges = _dot_host(cli)
    assert lines == ["QM2"] and fill is None and dot_edges == [("topichost CL", None)]
