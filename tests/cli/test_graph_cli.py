"""The pictures and the administrator's views through the real entry point: `graph`, `explain -o
mermaid|dot`, `display tree`, and the runmqsc/tibemsadmin/export answers of issue 12."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date, timedelta

import pydot
import pytest

from tests.cli.test_explain_cli import define_figure5, store_topology
from tests.conftest import Result
from tests.domain import ems_builders as ems
from tests.helpers import ok, refused
from tests.render import topologies
from tests.render.mermaid_grammar import parse

Cli = Callable[..., Result]
pytestmark = pytest.mark.filterwarnings("ignore::pyparsing.warnings.PyparsingDeprecationWarning")


def test_graph_draws_the_demo_topology(cli: Cli) -> None:
    define_figure5(cli)
    chart = parse(ok(cli("graph")).stdout)
    ((label, members),) = chart.groups.values()
    assert label == ["cluster USA"] and len(members) == 6
    assert sorted(chart.nodes[i][0] for i in chart.classes["host"]) == ["QM3", "QM4"]
    (dot,) = pydot.graph_from_dot_data(ok(cli("graph", "-o", "dot")).stdout)
    assert len(dot.get_subgraphs()[0].get_nodes()) == 6
    data = ok(cli("graph", "--topic", "/USA/Alaska/Juneau", "-o", "json")).json()
    assert isinstance(data, dict)
    assert set(data) == {"title", "groups", "boxes", "arrows", "notes", "captions", "legend"}
    legend = {e["text"]: e["mark"] for e in data["legend"]}  # issue 37: every picture carries one
    assert legend["topic host"] == "host" and legend["full repository (thick border)"] == "fullrepo"
    subs = sorted(b["lines"][0] for b in data["boxes"] if b["shape"] == "subscription")
    assert subs == ["sub ALL.USA", "sub EVERYTHING", "sub JUNEAU"]
    qm4 = next(b for b in data["boxes"] if b["key"] == "QM4")
    assert qm4["marks"] == ["host"] and "resolves to ALASKA, cluster USA (TOPICHOST)" in qm4["lines"]
    narrow = ok(cli("graph", "--node", "QM1", "--node", "QM2", "-o", "json")).json()
    assert isinstance(narrow, dict) and [b["key"] for b in narrow["boxes"]] == ["QM1", "QM2"]


def test_graph_refuses_what_it_cannot_draw(cli: Cli) -> None:
    ok(cli("define", "qmgr", "QM1", "--cluster", "USA"))
    refused(cli("graph", "--cluster", "NOPE"), "cluster NOPE", "--cluster")
    refused(cli("graph", "--node", "NOPE"), "NOPE", "--node")
    refused(cli("graph", "--topic", ""), "--topic", "empty")
    wrong = cli("graph", "-o", "png")
    assert wrong.exit_code == 2 and "'png' is not one of 'mermaid', 'dot', 'json'" in wrong.stderr


def test_explain_as_a_diagram(cli: Cli, store_url: str) -> None:
    store_topology(store_url, topologies.demo())
    args = ["explain", "--from", "QM6", "--topic", "/USA/Alabama/Mobile", "--prop", "amount=250"]
    chart = parse(ok(cli(*args, "--down", "QM3", "--down", "QM4", "-o", "mermaid")).stdout)
    assert sorted(chart.nodes[i][0] for i in chart.classes["down"]) == ["QM3", "QM4"]
    stored = sorted(chart.nodes[i][0] for i in chart.classes["stored"])
    assert stored == ["QM6", "sub LOCAL.MOBILE", "sub MOBILE.ORDERS"]
    assert "stored at QM6 for MOBILE.ORDERS on QM5" in chart.nodes[chart.node_named("sub MOBILE.ORDERS")]
    assert len(chart.link_styles) == 1  # the hop QM6 -> QM3 the publication waits before
    (dot,) = pydot.graph_from_dot_data(ok(cli(*args, "-o", "dot")).stdout)
    labels = [e.get("label") for e in dot.get_edges() if e.get("label")]
    assert '"topichost USA"' in labels and '"cluster USA"' in labels


def test_explain_names_the_route_and_who_defines_it(cli: Cli, store_url: str) -> None:
    store_topology(store_url, ems.chain())
    text = ok(cli("explain", "--from", "A", "--topic", "T1")).stdout
    assert "-> M  via route M (active-active)" in text
    assert "-> B  via route M defined on B only (active-passive)" in text


def test_display_tree(cli: Cli, store_url: str) -> None:
    store_topology(store_url, topologies.demo())
    text = ok(cli("display", "tree", "--qmgr", "QM5")).stdout
    assert "Topic tree of QM5 (clusters: USA)" in text and "SYSTEM.BASE.TOPIC (root)" in text
    assert "'/USA/Alabama'  ALABAMA (clustered in USA, defined on QM3, QM4)" in text
    assert "cluster USA CLROUTE(TOPICHOST) from ALABAMA, hosts QM3, QM4" in text
    assert "sub MOBILE.ORDERS '/USA/Alabama/#' durable, selector amount > 100" in text
    data = ok(cli("display", "tree", "--qmgr", "QM1", "--topic", "/USA", "-o", "json")).json()
    assert isinstance(data, dict) and data["qmgr"] == "QM1" and data["clusters"] == ["USA"]
    assert [n["topicstr"] for n in data["nodes"]] == ["", "/USA", "/USA/Alabama", "/USA/Alaska"]
    (everything,) = data["nodes"][1]["subscriptions"]
    assert everything["name"] == "EVERYTHING" and "wildcard above the clustered points" in everything["note"]
    ok(cli("define", "qmgr", "EMS1", "--dialect", "ems"))
    refused(cli("display", "tree", "--qmgr", "EMS1"), "server EMS1", "EMS server")
    refused(cli("display", "tree", "--qmgr", "NOPE"), "--qmgr: no such queue manager NOPE")


def test_runmqsc_answers_like_runmqsc(cli: Cli) -> None:
    """Errors on standard input name <stdin>:LINE:COL; a rejected script shows no change as made."""
    script = "DEFINE TOPIC(X) TOPICSTR('/x') CLUSTER(CL)\nDEFINE TOPIC(Y) TOPICSTR(/y) BOGUS(1)\n"
    result = cli("runmqsc", "QM1", "--create", stdin=script)
    assert result.exit_code == 2
    assert result.stderr.startswith("mqctl: error: <stdin>:2:30: unknown parameter BOGUS")
    assert "created" not in result.stdout and "No commands have a syntax error." not in result.stdout
    assert "The script is rejected: no command was applied" in result.stdout
    shown = ok(cli("runmqsc", "QM1", "--create", stdin=script.splitlines()[0] + "\nDIS TCLUSTER(*)\n")).stdout
    assert "TYPE(CLUSTER)" in shown and "CLUSQMGR(QM1)" in shown and "CLSTATE(PENDING)" in shown
    bad = cli("tibemsadmin", "EMS1", "--create", stdin="create topic a\ncreate topic a\n")
    assert bad.exit_code == 2 and "<stdin>:2:14: Topic 'a' already exists" in bad.stderr


def test_tibemsadmin_reports_unknown_topic_properties(cli: Cli) -> None:
    result = ok(cli("tibemsadmin", "EMS1", "--create", stdin="create topic a globl\nshow topic a\n"))
    assert result.stderr == (
        "mqctl: warning: <stdin>:1: topic property 'globl' is not one EMS documents: kept, not modelled\n"
    )
    assert " Properties:            globl" in result.stdout


def test_export_mqsc_header_carries_the_export_date(cli: Cli) -> None:
    ok(cli("define", "qmgr", "QM1"))
    before = date.today()
    dump = ok(cli("export", "mqsc", "QM1")).stdout
    day = re.search(r"^\* Script generated on (\d{4}-\d{2}-\d{2})   at \d{2}\.\d{2}\.\d{2}$", dump, re.M)
    assert day is not None and day.group(1) in {before.isoformat(), (before + timedelta(days=1)).isoformat()}
