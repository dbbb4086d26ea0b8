"""Issue 37, "Pictures", through the real CLI, the Mermaid and DOT read back (tests/render/mermaid_grammar.py,
pydot): on the EU estate of tests/cli/test_answers_cli.py with the topic host FR2 down, what is down is
said in words and drawn broken, every picture carries a legend, explain groups queue managers by cluster,
the hierarchy hop GW -> LEGACY is labelled the way it goes, a reason is short inside its shape with its
sentence beside, and the explain tree says the host it goes to is down."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pydot
import pytest

from tests.cli.test_answers_cli import EU, load, write
from tests.conftest import Result
from tests.helpers import ok
from tests.render.mermaid_grammar import parse
from tests.render.test_dot import unquote

Cli = Callable[..., Result]
QUESTION = ["explain", "--from", "FR1", "--topic", "/Prices/EU/Paris", "--down", "FR2"]
pytestmark = pytest.mark.filterwarnings("ignore::pyparsing.warnings.PyparsingDeprecationWarning")
"""pydot 4.0 still calls pyparsing's camelCase names, which pyparsing 3.3 deprecates."""


def estate(cli: Cli, tmp_path: Path) -> None:
    scripts = dict(EU)
    scripts["FR3"] = (  # a wildcard above the cluster point: a miss
        "DEFINE CHANNEL(EU.FR3) CHLTYPE(CLUSRCVR) CONNAME('fr3(1414)') CLUSTER(EU)\n"
        "DEFINE SUB(MISSES) TOPICSTR('/Prices/#') DEST(Q)\n"
    )
    load(cli, write(tmp_path / "eu", scripts))


def test_the_tree_says_the_topic_host_it_goes_to_is_down(cli: Cli, tmp_path: Path) -> None:
    estate(cli, tmp_path)
    text = ok(cli(*QUESTION)).stdout
    assert "-> FR2  via topichost EU  DOWN" in text
    assert "-> LEGACY  via hierarchy GW->LEGACY (parent to child)" in text


def test_mermaid_marks_down_keeps_reasons_short_groups_clusters_and_has_a_legend(
    cli: Cli, tmp_path: Path
) -> None:
    estate(cli, tmp_path)
    chart = parse(ok(cli(*QUESTION, "-o", "mermaid")).stdout)
    named = {i: lines[0] for i, lines in chart.nodes.items()}
    assert (
        chart.nodes[chart.node_named("FR2")][-1] == "DOWN"
        and chart.node_named("FR2") in chart.classes["down"]
    )
    edges = {
        (named[a], named[b]): (lines, dotted, i) for i, (a, b, lines, _, dotted) in enumerate(chart.edges)
    }
    lines, dotted, index = edges[("FR1", "FR2")]
    assert lines == ["topichost EU", "FR2 down"] and dotted and index in chart.link_styles
    assert edges[("GW", "LEGACY")][0] == [
        "hierarchy GW->LEGACY (parent to child)",
        "unsupported path (MQC018)",
    ]
    ((label, members),) = chart.groups.values()
    assert label == ["cluster EU"] and {"FR1", "FR2", "GW"} <= {named[m] for m in members}
    assert "LEGACY" not in {named[m] for m in members}
    missed = chart.nodes[chart.node_named("sub MISSES")]
    assert len(missed) == 2 and missed[1].startswith("not delivered: ") and missed[1].endswith("]")
    number = missed[1].rsplit(" ", 1)[1]
    assert any(note[0].startswith(f"{number} sub MISSES on FR3: ") for note in chart.notes)
    legend = dict(chart.legend)
    assert legend["DOWN: node down (dashed border)"] == ["down"] and legend["publisher"] == ["publisher"]
    assert "broken line marked down: the link, or the node beyond it, is down" in legend


def test_dot_marks_down_groups_clusters_and_has_a_legend(cli: Cli, tmp_path: Path) -> None:
    estate(cli, tmp_path)
    (graph,) = pydot.graph_from_dot_data(ok(cli(*QUESTION, "-o", "dot")).stdout)
    groups = {unquote(s.get("label"))[0]: s for s in graph.get_subgraphs()}
    assert {"cluster EU", "Legend", "Notes"} <= set(groups)
    nodes = {
        n.get_name(): n for n in [*graph.get_nodes(), *(n for s in groups.values() for n in s.get_nodes())]
    }
    first = {name: unquote(n.get("label"))[0] for name, n in nodes.items() if n.get("label")}
    (fr2,) = [n for name, n in nodes.items() if first.get(name) == "FR2"]
    assert unquote(fr2.get("label")) == ["FR2", "DOWN"] and "dashed" in fr2.get("style")
    assert "FR2" in {first[n.get_name()] for n in groups["cluster EU"].get_nodes()}
    (hop,) = [
        e for e in graph.get_edges() if (first[e.get_source()], first[e.get_destination()]) == ("FR1", "FR2")
    ]
    assert hop.get("style") == "dashed" and unquote(hop.get("label")) == ["topichost EU", "FR2 down"]
    legend = [unquote(n.get("label"))[0] for n in groups["Legend"].get_nodes()]
    assert "DOWN: node down (dashed border)" in legend and "topic host" not in legend
