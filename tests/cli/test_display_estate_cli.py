"""Displays over many queue managers (issue 24): the whole-estate path gives what the per-queue-manager one
gives, and ``-o json`` written item by item is byte for byte what ``json.dumps`` gives."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from contextlib import redirect_stdout
from typing import Any

import pytest

from mqctl.domain.model import Scope
from mqctl.render.console import emit_json, show_table
from mqctl.render.safe_text import json_text
from mqctl.services.display import FEW_QMGRS
from mqctl.services.views import TOPIC_TABLE, TOPIC_TABLE_ALL
from tests.conftest import Result
from tests.helpers import ok

Cli = Callable[..., Result]

# CL1 and CL2 overlap on QM3; QM2 hides a clustered /Sport behind its own plain one; QM4 and QM5 define
# /News in CL2 with different attributes (a conflict); QM6 is in no cluster (its own objects only).
SCRIPTS = {
    "QM1": [
        "ALTER QMGR PSMODE(ENABLED)",
        "DEFINE TOPIC(SPORT) TOPICSTR('/Sport') CLUSTER(CL1) PUB(DISABLED)",
        "DEFINE TOPIC(FOOT) TOPICSTR('/Sport/Foot')",
    ],
    "QM2": [
        "DEFINE TOPIC(SPORT2) TOPICSTR('/Sport') SUBSCOPE(QMGR)",
        "DEFINE TOPIC(RUGBY) TOPICSTR('/Sport/Rugby')",
    ],
    "QM3": ["DEFINE TOPIC(TENNIS) TOPICSTR('/Sport/Tennis')", "DEFINE TOPIC(NEWSX) TOPICSTR('/News/X')"],
    "QM4": ["DEFINE TOPIC(NEWS) TOPICSTR('/News') CLUSTER(CL2) PUBSCOPE(QMGR)"],
    "QM5": [
        "DEFINE TOPIC(NEWS) TOPICSTR('/News') CLUSTER(CL2) CLROUTE(TOPICHOST)",
        "DEFINE TOPIC(W) TOPICSTR('/W')",
    ],
    "QM6": ["DEFINE TOPIC(SOLO) TOPICSTR('/Sport/Solo') SUB(DISABLED)"],
}
CLUSTERS = {"QM1": ["CL1"], "QM2": ["CL1"], "QM3": ["CL1", "CL2"], "QM4": ["CL2"], "QM5": ["CL2"]}


def estate(cli: Cli) -> None:
    for qmgr, lines in SCRIPTS.items():
        ok(cli("define", "qmgr", qmgr, *(arg for c in CLUSTERS.get(qmgr, []) for arg in ("--cluster", c))))
        ok(cli("runmqsc", qmgr, stdin="\n".join(lines) + "\n"))
    ok(cli("define", "sub", "FOOT", "--qmgr", "QM1", "--topicstr", "/Sport/#", "--selector", "n > 1"))
    ok(cli("define", "sub", "ÜNÏ", "--qmgr", "QM3", "--topicstr", "/News/代码"))


def test_estate_display_resolves_as_each_queue_manager_alone(cli: Cli) -> None:
    """More than FEW_QMGRS queue managers shown: the trees come from the whole topic layer read once; each
    row's ``effective`` values are those shown when its queue manager is displayed alone (its own slice)."""
    estate(cli)
    whole = ok(cli("display", "topic", "*", "-o", "json")).json()
    assert isinstance(whole, list)
    assert len({r["qmgr"] for r in whole}) > FEW_QMGRS
    alone = [
        r for qmgr in SCRIPTS for r in ok(cli("display", "topic", "*", "--qmgr", qmgr, "-o", "json")).json()
    ]
    assert sorted(whole, key=lambda r: (r["qmgr"], r["name"])) == sorted(
        alone, key=lambda r: (r["qmgr"], r["name"])
    )
    by = {(r["qmgr"], r["name"]): r["effective"] for r in whole}
    assert by[("QM1", "FOOT")]["cluster"] == "CL1" and by[("QM1", "FOOT")]["pub"] == "DISABLED"
    rugby = by[("QM2", "RUGBY")]  # QM2's plain /Sport hides the clustered one
    assert rugby["cluster"] == "" and rugby["subscope"] == "QMGR" and rugby["pub"] == "ENABLED"
    assert by[("QM6", "SOLO")]["sub"] == "DISABLED"


def test_streamed_json_is_the_bytes_of_json_dumps(cli: Cli) -> None:
    """The streamed ``-o json`` of a display is exactly ``json.dumps(rows, indent=2, ensure_ascii=False)``."""
    estate(cli)
    ok(cli("define", "topic", "UNI", "--qmgr", "QM6", "--topicstr", "/Ünï/代码", "--descr", 'a "q"\tb'))
    for args in (("topic", "*"), ("sub", "*"), ("qmgr", "*")):
        out = ok(cli("display", *args, "-o", "json")).stdout
        assert out == json.dumps(json.loads(out), indent=2, ensure_ascii=False) + "\n"


@pytest.mark.parametrize("args", [("*",), ("*", "--qmgr", "QM2"), ("S*",), ("NEWS",)])
def test_json_through_orjson_is_the_json_of_the_standard_library(
    cli: Cli, args: tuple[str, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``display topic -o json`` written by orjson (rows past ``FEW_ROWS``, in chunks) gives the bytes of
    the standard library's writer: the rows' enumerations (members of the domain's, made from the topic
    objects) and inherited ``effective`` values written alike, over several queue managers, ASPARENT
    values, a conflict and text to escape."""
    from mqctl.render import console

    estate(cli)
    ok(cli("define", "topic", "UNI", "--qmgr", "QM6", "--topicstr", "/Ünï/代码", "--descr", 'a "q"\tb'))
    ok(cli("alter", "topic", "FOOT", "--qmgr", "QM1", "--pubscope", "ASPARENT", "--sub", "ASPARENT"))
    standard = ok(cli("display", "topic", *args, "-o", "json")).stdout  # a few rows: no orjson
    monkeypatch.setattr(console, "FEW_ROWS", 0)
    monkeypatch.setattr(console, "ROWS_CHUNK", 2)
    assert ok(cli("display", "topic", *args, "-o", "json")).stdout == standard
    assert standard == json.dumps(json.loads(standard), indent=2, ensure_ascii=False) + "\n"


@pytest.mark.parametrize(
    "data",
    [
        [],
        [{}],
        [[]],
        [1, "two", None, True, False, 2.5, -0.0, 10**20, "\u2028\x00\x7f"],
        [{"n": 1, "f": 1e-7, "t": (1, "a"), "k": {"1": [None, {}], "x": [[], [[]]]}}],
        [{"a": [], "b": {}, "c": [1, {"d": 'é\n"x"'}], "e": {"f": None}}, {"g": "代码"}],
        [{"name": f"T{i}", "props": {"k": i}} for i in range(1500)],
        [{1: "an integer key", "s": ["a", None, True, ["b"]], "e": Scope.ALL, "l": [Scope.QMGR, "x"]}],
        {"not": ["a", "list"]},
        "scalar",
    ],
)
def test_emit_json_streams_the_bytes_of_json_dumps(data: Any) -> None:
    buf = io.StringIO()
    with redirect_stdout(buf):
        emit_json(data)
    # json.dumps's bytes, but for what a terminal would act on (U+2028, DEL, C1, bidi), escaped as
    # \uXXXX by the output sanitiser: the same JSON value either way
    assert buf.getvalue() == json_text(json.dumps(data, indent=2, ensure_ascii=False)) + "\n"
    assert json.loads(buf.getvalue()) == json.loads(json.dumps(data))


def test_tree_from_its_slice_is_the_tree_of_the_whole_model(cli: Cli, store_url: str) -> None:
    """``display tree`` reads only Q's slice of the store; the tree is the one the whole model gives."""
    from mqctl.domain.tree_view import tree_view
    from mqctl.store.engine import open_store
    from mqctl.store.topology import load_topology

    estate(cli)
    engine = open_store(store_url)
    try:
        with engine.connect() as conn:
            whole = load_topology(conn)
    finally:
        engine.dispose()
    for qmgr in SCRIPTS:
        for branch in ((), ("--topic", "/Sport")):
            shown = ok(cli("display", "tree", "--qmgr", qmgr, *branch, "-o", "json")).json()
            expected = tree_view(whole, qmgr, branch[1] if branch else None).to_json()
            assert shown == json.loads(json.dumps(expected))


@pytest.mark.parametrize(
    "args",
    [
        ("*",),
        ("S*",),
        ("SPORT",),
        ("*", "--qmgr", "QM2"),
        ("*", "--server", "E1"),
        ("orders.*", "--exact"),
        ("NOSUCH",),
    ],
)
def test_the_topic_table_is_the_table_of_the_json_rows(cli: Cli, args: tuple[str, ...]) -> None:
    """``display topic``'s table reads only its columns (``ReadModels.topic_table``): it is the table
    ``show_table`` makes of the rows ``-o json`` shows, MQ and EMS, blank clusters and properties."""
    estate(cli)
    ok(cli("define", "qmgr", "E1", "--dialect", "ems"))
    ok(cli("define", "topic", "orders.*", "--server", "E1", "--prop", "global", "--prop", "maxbytes=1GB"))
    ok(cli("define", "topic", "prices.>", "--server", "E1"))
    table = cli("display", "topic", *args)
    every = cli("display", "topic", *args, "--all")
    rows = cli("display", "topic", *args, "-o", "json")
    assert table.exit_code == every.exit_code == rows.exit_code
    shown = rows.json()
    assert isinstance(shown, list)
    buf = io.StringIO()
    with redirect_stdout(buf):
        show_table("Topics", TOPIC_TABLE, [table_row(row) for row in shown], as_json=False)
    assert table.stdout == buf.getvalue()
    buf = io.StringIO()
    with redirect_stdout(buf):
        show_table("Topics", TOPIC_TABLE_ALL, shown, as_json=False)
    assert every.stdout == buf.getvalue()


SHOWN = ("wildcard", "pubscope", "subscope", "proxysub", "pub", "sub", "descr")
DEFAULTS = {
    "wildcard": "PASSTHRU",
    "pubscope": "ASPARENT",
    "subscope": "ASPARENT",
    "proxysub": "FIRSTUSE",
    "pub": "ASPARENT",
    "sub": "ASPARENT",
    "descr": "",
}


def table_row(row: dict[str, Any]) -> dict[str, Any]:
    """A JSON row as the table shows it (issue 37): CLROUTE blank for DIRECT in no cluster, the
    attributes that are not their default in one ATTRIBUTES cell, as MQSC writes them."""
    if row["dialect"] != "mq":
        return row
    settings = [
        f"{key.upper()}('{row[key]}')" if key == "descr" else f"{key.upper()}({row[key]})"
        for key in SHOWN
        if row[key] != DEFAULTS[key]
    ]
    clroute = row["clroute"] if row["cluster"] or row["clroute"] != "DIRECT" else ""
    out = {k: v for k, v in row.items() if k not in SHOWN} | {"clroute": clroute}
    return out | ({"attributes": " ".join(settings)} if settings else {})


def test_graph_reads_only_what_it_draws_and_draws_the_whole_models_picture(cli: Cli, store_url: str) -> None:
    """``graph`` without ``--topic`` reads the nodes, links and clustered topic objects only; its picture
    is the one the whole model gives, in every format and with the filters."""
    from mqctl.render.graph import topology_diagram
    from mqctl.render.mermaid import write_mermaid
    from mqctl.store.engine import open_store
    from mqctl.store.topology import load_topology

    estate(cli)
    ok(cli("define", "qmgr", "QM7", "--parent", "QM1"))
    ok(cli("define", "qmgr", "E1", "--dialect", "ems"))
    ok(cli("define", "route", "E2", "--qmgr", "E1", "--url", "tcp://e2:7222"))
    engine = open_store(store_url)
    try:
        with engine.connect() as conn:
            whole = load_topology(conn)
    finally:
        engine.dispose()
    for filters in ((), ("--cluster", "CL2"), ("--node", "QM6", "--node", "E1")):
        shown = ok(cli("graph", *filters)).stdout
        clusters = [v for k, v in zip(filters[::2], filters[1::2], strict=True) if k == "--cluster"]
        nodes = [v for k, v in zip(filters[::2], filters[1::2], strict=True) if k == "--node"]
        assert shown == write_mermaid(topology_diagram(whole, clusters=clusters, nodes=nodes))
