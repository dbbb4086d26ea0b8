"""Captures as administrators save them, through the real CLI (issue 31): every runmqsc run of a file,
several queue managers in one file, non-captures refused with the earlier capture intact, folders with
notes and scripts, captures kept by their own time (issue 33)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result, run_cli
from tests.formats.test_display_reader import _run, must_gather
from tests.helpers import dump_store, ok, refused

Cli = Callable[..., Result]

CLUSQMGRS = (
    "AMQ8441I: Display Cluster Queue Manager details.\n   CLUSQMGR(QM1)                           CLUSTER(C1)\n"
    "AMQ8441I: Display Cluster Queue Manager details.\n   CLUSQMGR(QM2)                           CLUSTER(C1)"
)


def test_must_gather_file_reads_all_seven_runs(cli: Cli, tmp_path: Path) -> None:
    ok(cli("define", "qmgr", "QM1"))
    capture = tmp_path / "QM1.txt"
    capture.write_text(must_gather())
    (summary,) = ok(cli("import", "display", str(capture), "-o", "json")).json()
    assert summary["commands"] == [
        "QMGR",
        "SUB",
        "PROXY",
        "TOPIC",
        "TCLUSTER",
        "CLUSQMGR",
        "PUBSUB",
        "CHSTATUS",
    ]
    assert summary["captured_at"] == "2026-11-26T03:00:00+00:00"
    assert summary["skipped_lines"] == 27 and summary["kept"] is True
    assert summary["subscriptions"] == {"ADMIN": 1} and summary["topics"] == 1
    assert summary["observations"] == {"CHSTATUS": 1, "CLUSQMGR": 1, "PUBSUB": 1, "TCLUSTER": 1}
    text = ok(cli("import", "display", str(capture))).stdout
    assert "27 line(s) outside runmqsc's runs skipped" in text


def test_two_queue_managers_in_one_file_are_two_captures(cli: Cli, tmp_path: Path) -> None:
    capture = tmp_path / "all.txt"
    capture.write_text(must_gather("QM1") + must_gather("QM2"))
    summary = ok(cli("import", "display", str(capture), "-o", "json")).json()
    assert [s["qmgr"] for s in summary] == ["QM1", "QM2"]
    kept = ok(cli("display", "observed", "-o", "json")).json()
    assert [(c["qmgr"], len(c["observations"])) for c in kept] == [("QM1", 4), ("QM2", 4)]


def test_a_non_capture_is_refused_and_the_earlier_capture_stays(
    cli: Cli, store_url: str, tmp_path: Path
) -> None:
    ok(cli("define", "qmgr", "QM1"))
    good = tmp_path / "good.txt"
    good.write_text("# captured 2026-11-26T03:00:00Z\n" + _run("QM1", [("DISPLAY CLUSQMGR(*)", CLUSQMGRS)]))
    ok(cli("import", "display", str(good)))
    before = dump_store(store_url)
    setup = tmp_path / "QM1.txt"
    setup.write_text(
        _run(
            "QM1",
            [
                ("DEFINE QLOCAL(A)", "AMQ8006I: IBM MQ queue created."),
                (
                    "SET AUTHREC PROFILE(A) OBJTYPE(QUEUE) PRINCIPAL('app') AUTHADD(PUT)",
                    "AMQ8862I: IBM MQ authority record set.",
                ),
                ("REFRESH SECURITY", "AMQ8560I: IBM MQ security cache refreshed."),
            ],
        )
    )
    assert f"{setup}:2:33: 3 commands, none of them DISPLAY" in refused(cli("import", "display", str(setup)))
    rest = tmp_path / "define.json"
    rest.write_text(
        json.dumps(
            {
                "qmgr": "QM1",
                "request": {
                    "type": "runCommandJSON",
                    "command": "define",
                    "qualifier": "qlocal",
                    "name": "A",
                },
                "response": {
                    "commandResponse": [{"completionCode": 0, "reasonCode": 0}],
                    "overallCompletionCode": 0,
                },
            }
        )
    )
    assert "not a capture" in refused(cli("import", "display", str(rest)))
    # in a folder, such a file fails the command as a whole (one transaction)
    folder = tmp_path / "caps"
    folder.mkdir()
    (folder / "QM2.txt").write_text(must_gather("QM2"))
    (folder / "QM1.txt").write_text(setup.read_text())
    assert "none of them DISPLAY" in refused(cli("import", "display", str(folder)))
    assert dump_store(store_url) == before
    (kept,) = ok(cli("display", "observed", "-o", "json")).json()
    assert [o["name"] for o in kept["observations"]] == ["QM1", "QM2"]


def test_folder_skips_notes_and_scripts_by_name_and_says_so(cli: Cli, tmp_path: Path) -> None:
    folder = tmp_path / "caps"
    folder.mkdir()
    (folder / "QM1.txt").write_text(must_gather("QM1"))
    (folder / "README.md").write_text("# How these were taken\nrunmqsc QM1 < display.mqsc\n")
    (folder / "capture.sh").write_text("#!/bin/sh\nrunmqsc QM1 < display.mqsc > QM1.txt\n")
    (folder / "display.mqsc").write_text("DISPLAY QMGR ALL\n")
    result = ok(cli("import", "display", str(folder), "-o", "json"))
    assert [s["qmgr"] for s in result.json()] == ["QM1"]
    assert "skipped, not captures by their name" in result.stderr
    for name in ("README.md", "capture.sh", "display.mqsc"):
        assert name in result.stderr
    # a skipped file's name is input: shown through the one sanitiser, its controls escaped
    (folder / "notes\x1b[2J.md").write_text("x\n")
    shown = ok(cli("import", "display", str(folder), "-o", "json")).stderr
    assert "notes\\x1b[2J.md" in shown and "\x1b" not in shown
    # a script named on its own is read, and refused with what it is
    script = refused(cli("import", "display", str(folder / "display.mqsc"), "--qmgr", "QM1"))
    assert "MQSC script" in script and "import mqsc" in script


def test_an_older_capture_does_not_replace_a_newer_one(cli: Cli, store_url: str, tmp_path: Path) -> None:
    ok(cli("define", "qmgr", "QM1"))
    newer = tmp_path / "newer.txt"
    newer.write_text("# captured 2026-11-26T03:00:00Z\n" + _run("QM1", [("DISPLAY CLUSQMGR(*)", CLUSQMGRS)]))
    older = tmp_path / "older.txt"
    older.write_text(newer.read_text().replace("T03:", "T01:").replace("CLUSQMGR(QM2)", "CLUSQMGR(QM9)"))
    ok(cli("import", "display", str(newer)))
    before = dump_store(store_url)
    (summary,) = ok(cli("import", "display", str(older), "-o", "json")).json()
    assert summary["kept"] is False
    assert "not kept: the store holds a newer capture" in ok(cli("import", "display", str(older))).stdout
    assert dump_store(store_url) == before
    (kept,) = ok(cli("display", "observed", "-o", "json")).json()
    assert kept["captured_at"] == "2026-11-26T03:00:00+00:00"


def test_a_refused_import_creates_no_store(tmp_path: Path) -> None:
    bad = tmp_path / "QM1.txt"
    bad.write_text(_run("QM1", [("DEFINE QLOCAL(A)", "AMQ8006I: IBM MQ queue created.")]))
    db = tmp_path / "new" / "store.db"
    result = run_cli(["import", "display", str(bad)], db=f"sqlite:///{db}")
    refused(result)
    assert not db.exists() and not db.parent.exists()


def test_display_observed_keeps_a_channels_type_conname_xmitq_and_deftype(cli: Cli, tmp_path: Path) -> None:
    """Issue 37: what an incident looks at first, in the table and in ``-o json``."""
    capture = tmp_path / "QM1.txt"
    capture.write_text(
        _run(
            "QM1",
            [
                (
                    "DISPLAY CLUSQMGR(*) ALL",
                    "AMQ8441I: Display Cluster Queue Manager details.\n"
                    "   CLUSQMGR(QM2)                           CHANNEL(C1.QM2)\n"
                    "   CLUSTER(C1)                             CONNAME(qm2.example(1414))\n"
                    "   DEFTYPE(CLUSSDRA)                       QMTYPE(REPOS)\n"
                    "   STATUS(RUNNING)                         XMITQ(SYSTEM.CLUSTER.TRANSMIT.QUEUE)",
                ),
                (
                    "DISPLAY CHSTATUS(*) ALL",
                    "AMQ8417I: Display Channel Status details.\n"
                    "   CHANNEL(C1.QM2)                         CHLTYPE(CLUSSDR)\n"
                    "   CONNAME(10.1.1.2(1414))                 CURRENT\n"
                    "   RQMNAME( )                              STATUS(RETRYING)\n"
                    "   SUBSTATE( )                             XMITQ(SYSTEM.CLUSTER.TRANSMIT.QUEUE)",
                ),
            ],
        )
    )
    ok(cli("import", "display", str(capture)))
    (kept,) = ok(cli("display", "observed", "-o", "json")).json()
    qmgr, channel = kept["observations"]
    assert (qmgr["attributes"]["DEFTYPE"], qmgr["attributes"]["QMTYPE"]) == ("CLUSSDRA", "REPOS")
    assert qmgr["attributes"]["CONNAME"] == "qm2.example(1414)"
    attrs = channel["attributes"]
    assert (attrs["CHLTYPE"], attrs["CONNAME"], attrs["XMITQ"]) == (
        "CLUSSDR",
        "10.1.1.2(1414)",
        "SYSTEM.CLUSTER.TRANSMIT.QUEUE",
    )
    table = ok(cli("display", "observed")).stdout
    flat = " ".join(table.split())
    for shown in ("CHLTYPE(CLUSSDR)", "CONNAME(10.1.1.2(1414))", "XMITQ(SYSTEM.CLUSTER", "DEFTYPE(CLUSSDRA)"):
        assert shown.replace(" ", "") in flat.replace(" ", ""), table
    assert "QMTYPE(REPOS)" in flat.replace(" ", "") and "RQMNAME()" in flat.replace(" ", "")


REST_SUB = {
    "type": "runCommandJSON",
    "command": "display",
    "qualifier": "sub",
    "parameters": {"subtype": "all"},
}


def _rest(**changes: object) -> str:
    exchange: dict[str, object] = {
        "qmgr": "QM1",
        "request": dict(REST_SUB),
        "response": {"commandResponse": []},
    }
    exchange.update(changes)
    return json.dumps(exchange)


@pytest.mark.parametrize(
    ("name", "text", "where", "says"),
    [
        (
            "5000 digits",
            _rest().replace("[]", '[{"parameters": {"sub": ' + "9" * 5000 + "}}]"),
            ":1:",
            "too long",
        ),
        ("deep nesting", "[" * 5000 + "]" * 5000, ":1:33:", "nested more than"),
        (
            "parameters not an object",
            _rest(request={**REST_SUB, "parameters": ["subtype", "all"]}),
            ":1:",
            "request.parameters is a list",
        ),
        ("captured line", "# captured 0001-01-01T00:00:00+05:00\n" + must_gather(), ":1:12:", "out of range"),
        (
            "tibemsadmin session",
            "# captured 0001-01-01T00:00:00+05:00\ntcp://e1:7222> show routes\n",
            ":1:12:",
            "out of range",
        ),
        ("rest time", _rest(captured_at="0001-01-01T00:00:00+05:00"), ":1:", "out of range"),
    ],
)
def test_the_capture_doors_bounds_are_exit_2_one_line(
    cli: Cli, store_url: str, tmp_path: Path, name: str, text: str, where: str, says: str
) -> None:
    ok(cli("define", "qmgr", "QM1"))
    before = dump_store(store_url)
    bad = tmp_path / "bad.txt"
    bad.write_text(text)
    stderr = refused(cli("import", "display", str(bad), "--qmgr", "QM1"))
    assert f"{bad}{where}" in stderr and says in stderr, (name, stderr)
    assert dump_store(store_url) == before


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["reconcile", "--max-age", "999999999999d"], "longer than 100 years"),
        (["reconcile", "--max-age", "9" * 5000], "longer than 100 years"),
        (["import", "display", "--at", "0001-01-01T00:00:00+05:00", "x.txt"], "out of range"),
    ],
)
def test_options_out_of_range_are_exit_2_one_line(cli: Cli, args: list[str], says: str) -> None:
    assert says in refused(cli(*args))
