"""What mqctl prints of untrusted input never acts on a terminal, a log viewer or a parser (issue 33):
captured values with ANSI CSI, OSC, C1, bidirectional and line-separator characters and Rich markup,
through `import display`, `display observed` and `reconcile` (every output), error lines repeating
ESC, BEL and NUL, and a 200,001-character name."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest

from tests.conftest import Result, run_cli

Cli = Callable[..., Result]

HOSTILE = "\x1b[31mred\x1b]0;title\x07\x9b2J\x85\u2028X\u202eY\u2066[bold]b[/]"
RAW_CONTROL = re.compile(
    "[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ud800-\udfff]"
)
"""What no output may hold raw (a line break aside)."""

ESTATE = {
    "QM1.mqsc": "DEFINE CHANNEL(CL1.QM1) CHLTYPE(CLUSRCVR) CLUSTER(CL1) CONNAME('qm1(1414)')\n"
    "ALTER QMGR REPOS(CL1)\nDEFINE SUB(S1) TOPICSTR('/A/#') DEST(Q)\n",
    "QM2.mqsc": "DEFINE CHANNEL(CL1.QM2) CHLTYPE(CLUSRCVR) CLUSTER(CL1) CONNAME('qm2(1414)')\n"
    "ALTER QMGR REPOS(CL1)\nDEFINE TOPIC(T) TOPICSTR('/A') CLUSTER(CL1)\n",
}


def capture(value: str) -> str:
    """runmqsc DISPLAY CHSTATUS output of QM1 whose channel to QM2 is in a state named ``value``."""
    return (
        "Starting MQSC for queue manager QM1.\n"
        "     1 : DISPLAY CHSTATUS(*)\n"
        "AMQ8417I: Display Channel Status details.\n"
        "   CHANNEL(CL1.QM2)                        CHLTYPE(CLUSSDR)\n"
        f"   CONNAME(qm2(1414){value})              CURRENT\n"
        f"   RQMNAME(QM2)                            STATUS(retrying{value})\n"
        "1 MQSC commands read.\n"
    )


def clean(result: Result) -> Result:
    assert result.exit_code in (0, 1), (result.exit_code, result.stderr)
    assert "Traceback" not in result.stdout + result.stderr
    found = RAW_CONTROL.search(result.stdout + result.stderr)
    assert found is None, (found, result.stdout[:2000])
    return result


@pytest.fixture
def hostile_store(cli: Cli, tmp_path: Path) -> Cli:
    mq = tmp_path / "mq"
    mq.mkdir()
    for name, text in ESTATE.items():
        (mq / name).write_text(text)
    assert cli("import", "mqsc", str(mq)).exit_code == 0
    path = tmp_path / "QM1.txt"
    path.write_text(capture(HOSTILE), encoding="utf-8")
    clean(cli("import", "display", str(path), "--at", "2026-11-26T03:00:00Z"))
    return cli


def test_display_observed_shows_captured_values_escaped(hostile_store: Cli) -> None:
    table = clean(hostile_store("display", "observed")).stdout
    assert "retrying\\x1b[31mred\\x1b]0;title\\x07\\x9b2J\\x85\\u2028X\\u202eY\\u2066[bold]b[/]" in table
    rows = clean(hostile_store("display", "observed", "-o", "json")).json()
    assert isinstance(rows, list)
    assert rows[0]["observations"][0]["attributes"]["STATUS"] == "retrying" + HOSTILE  # the same value


def test_reconcile_every_output_escapes_and_keeps_case(hostile_store: Cli) -> None:
    text = clean(hostile_store("reconcile")).stdout
    assert "is retrying\\x1b[31mred\\x1b]0;title" in text  # not upper-cased: m stays m
    assert "[bold]b[/]" in text
    found = clean(hostile_store("reconcile", "-o", "json")).json()
    assert isinstance(found, dict)
    assert any(HOSTILE in f["message"] for f in found["findings"])
    sarif = clean(hostile_store("reconcile", "-o", "sarif")).json()
    assert isinstance(sarif, dict)
    junit = clean(hostile_store("reconcile", "-o", "junit")).stdout
    root = ET.fromstring(junit.encode())  # well-formed XML
    assert "retrying\\x1b[31mred" in ET.tostring(root, encoding="unicode")


def test_markup_in_a_value_is_shown_as_it_is(cli: Cli) -> None:
    assert cli("define", "qmgr", "QM1").exit_code == 0
    for i, topic in enumerate(("/CHANNEL([/])", "/[bold]x", "/[/]")):
        assert cli("define", "sub", f"S{i}", "--qmgr", "QM1", "--topicstr", topic).exit_code == 0
    table = clean(cli("display", "sub", "*", "--qmgr", "QM1")).stdout
    assert "/CHANNEL([/])" in table and "/[bold]x" in table and "/[/]" in table


def test_error_lines_never_repeat_controls(tmp_path: Path) -> None:
    script = tmp_path / "QM1.mqsc"
    script.write_bytes(b"\x00\x1b[2J\x07\x1b]0;x\x07FOO BAR\n")
    result = run_cli(["validate", "--file", str(script)])
    assert result.exit_code in (1, 2)
    assert RAW_CONTROL.search(result.stdout + result.stderr) is None, result.stderr
    result = run_cli(["define", "qmgr", "QM\x1b[2J\x07\x9b1m\u2028"])
    assert result.exit_code == 2 and len(result.stderr.splitlines()) == 1
    assert RAW_CONTROL.search(result.stderr) is None, result.stderr


def test_a_huge_name_is_cut_with_its_length(cli: Cli) -> None:
    result = cli("define", "qmgr", "Q" * 200_001)
    assert result.exit_code == 2
    line = result.stderr
    assert len(line) < 2000 and "(200001 characters)" in line, line[:300]


def test_json_writers_escape_what_a_terminal_acts_on() -> None:
    import contextlib
    import io

    from mqctl.render.console import emit_json, emit_rows

    value = "a\x85b\u2028c\u202ed\x7fe\udcff"
    for write in (emit_json, emit_rows):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            write([{"name": value}] * 3)
        assert RAW_CONTROL.search(out.getvalue()) is None
        assert json.loads(out.getvalue())[0]["name"] == value
