"""Fuzzing ``mqctl import display`` through the real CLI (issue 33): runmqsc output (runs, interactive
transcripts), REST runCommandJSON answers and tibemsadmin sessions (interactive and ``-script``),
mutated the way files get broken. Never an exit 4 nor a traceback; a refusal is one line naming the file
and leaves the store's bytes as they were."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.cli.test_observed_ems_cli import SCRIPT_RUN, SESSION
from tests.conftest import STORES, run_cli
from tests.formats.test_display_reader import INTERACTIVE, OUTPUT, must_gather
from tests.fuzz.mutations import fuzz_settings, mutated

RUNMQSC = [must_gather(), INTERACTIVE, OUTPUT, must_gather("QM1") + must_gather("QM2")]
REST = [
    json.dumps(
        [
            {
                "qmgr": "QM1",
                "captured_at": "2026-11-26T03:00:00Z",
                "request": {
                    "type": "runCommandJSON",
                    "command": "display",
                    "qualifier": q,
                    "name": "*",
                    "parameters": p,
                },
                "response": {
                    "commandResponse": [{"completionCode": 0, "reasonCode": 0, "parameters": item}],
                    "overallCompletionCode": 0,
                    "overallReasonCode": 0,
                },
            }
            for q, p, item in (
                (
                    "sub",
                    {"subtype": "all"},
                    {"sub": "S1", "topicstr": "/a/#", "subtype": "ADMIN", "durable": "yes"},
                ),
                (
                    "chstatus",
                    {},
                    {"channel": "TO.QM2", "chltype": "CLUSSDR", "rqmname": "", "status": "RETRYING"},
                ),
                ("pubsub", {"type": "all"}, {"qmname": "QM1", "type": "LOCAL", "status": "ACTIVE"}),
            )
        ],
        indent=2,
    )
]
EMS = ["# captured 2026-11-26T03:00:00Z\n" + SESSION, SCRIPT_RUN]


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> str:
    """One SQLite store for the module, holding the queue manager and the server the seeds name."""
    url = STORES.sqlite.fresh(tmp_path_factory.mktemp("fuzz") / "store.db")
    for args in (["define", "qmgr", "QM1"], ["define", "qmgr", "E1", "--dialect", "ems"]):
        assert run_cli(args, db=url).exit_code == 0
    return url


def _store_bytes(url: str) -> dict[str, bytes]:
    path = Path(url.removeprefix("sqlite:///"))
    return {p.name: p.read_bytes() for p in (path, path.with_name(path.name + "-wal")) if p.exists()}


def _import(store: str, tmp_path: Path, text: str) -> None:
    capture = tmp_path / "capture.txt"
    capture.write_text(text, encoding="utf-8", errors="surrogatepass")
    before = _store_bytes(store)
    result = run_cli(["import", "display", str(capture), "-o", "json"], db=store)
    assert result.exit_code in (0, 2), (result.exit_code, result.stderr)
    assert "Traceback" not in result.stderr
    if result.exit_code == 2:
        assert result.stderr.count("\n") == 1 and str(capture) in result.stderr, result.stderr
        assert _store_bytes(store) == before
    else:
        json.loads(result.stdout)


@fuzz_settings
@given(text=mutated(RUNMQSC))
def test_runmqsc_captures(store: str, tmp_path_factory: pytest.TempPathFactory, text: str) -> None:
    _import(store, tmp_path_factory.mktemp("cap"), text)


@fuzz_settings
@given(text=mutated(REST) | st.sampled_from(["[" * 3000, '{"commandResponse": ' + "9" * 5000 + "}"]))
def test_rest_answers(store: str, tmp_path_factory: pytest.TempPathFactory, text: str) -> None:
    _import(store, tmp_path_factory.mktemp("cap"), text)


@fuzz_settings
@given(text=mutated(EMS))
def test_tibemsadmin_sessions(store: str, tmp_path_factory: pytest.TempPathFactory, text: str) -> None:
    _import(store, tmp_path_factory.mktemp("cap"), text)
