"""`mqctl display proxies` and the runmqsc door's `DIS SUB(*) SUBTYPE(PROXY)`: the proxy subscriptions the
model predicts a queue manager holds, in DISPLAY SUB's layout, equal to those reconcile predicts (issue 31).

The property: on random models built through the CLI, each queue manager's `display proxies` is exactly
reconcile's prediction for it — laid out as a capture and imported, reconcile finds no proxy missing and
none unexplained; and the door's DISPLAY gives the same blocks.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from tests.cli.test_observed_cli import DEMO, load
from tests.conftest import Result, run_cli
from tests.helpers import ok
from tests.store.test_door_properties import _build, _fresh, mq_commands

Cli = Callable[..., Result]
PROXY_CODES = {"PROXY_MISSING", "FORCED_PROXY_MISSING", "PROXY_UNEXPLAINED"}


def capture(qmgr: str, answer: str) -> str:
    """runmqsc output of a DISPLAY SUB(*) SUBTYPE(PROXY) ALL whose answer is ``answer`` (and a DISPLAY QMGR,
    so that the run holds an answer even when there is no proxy)."""
    lines = [
        f"Starting MQSC for queue manager {qmgr}.",
        "",
        "     1 : DISPLAY QMGR QMNAME",
        "AMQ8408I: Display Queue Manager details.",
        f"   QMNAME({qmgr})",
        "     2 : DISPLAY SUB(*) SUBTYPE(PROXY) ALL",
        *([answer.rstrip("\n")] if answer.strip() else []),
        "2 MQSC commands read.",
        "No commands have a syntax error.",
        "All valid MQSC commands were processed.",
    ]
    return "\n".join(lines) + "\n"


def door_blocks(stdout: str) -> str:
    """The DISPLAY answer of a one-command runmqsc run: its lines between the echo and the summary."""
    lines = stdout.splitlines()
    end = lines.index(":")
    return "\n".join(lines[1:end]) + "\n"


def test_demo_proxies_in_display_sub_layout_and_json(cli: Cli) -> None:
    load(cli, DEMO)
    shown = ok(cli("display", "proxies", "--qmgr", "QM4"))
    assert re.findall(r"SUB\((SYSTEM[^)]*)\)", shown.stdout) == [
        "SYSTEM.PROXY.QM5 USA /USA/Alabama/#",
        "SYSTEM.PROXY.QM5 USA /USA/Alabama/Mobile",
        "SYSTEM.PROXY.QM6 USA /USA/Alaska/Juneau",
    ]
    assert shown.stdout.count("AMQ8096I: IBM MQ subscription inquired.") == 3
    assert "   SUBTYPE(PROXY)                          SUBUSER(QM5)" in shown.stdout
    rows = ok(cli("display", "proxies", "--qmgr", "QM4", "-o", "json")).json()
    assert rows[0] == {
        "qmgr": "QM4",
        "sub": "SYSTEM.PROXY.QM5 USA /USA/Alabama/#",
        "topicstr": "/USA/Alabama/#",
        "destqmgr": "QM5",
        "via": "cluster",
        "cluster": "USA",
        "subscriptions": [{"qmgr": "QM5", "name": "MOBILE.ORDERS"}],
        "forced_by": "",
    }
    # the runmqsc door answers the same blocks
    door = ok(cli("runmqsc", "QM4", stdin="DIS SUB(*) SUBTYPE(PROXY)\n"))
    assert door_blocks(door.stdout) == shown.stdout
    # QM1 holds none (EVERYTHING is a wildcard above the clustered points): a negative answer, and the
    # door's answer is runmqsc's "not found", not "not modelled"
    none = cli("display", "proxies", "--qmgr", "QM1")
    assert none.exit_code == 1 and none.stdout == "" and "no proxy subscription" in none.stderr
    as_json = cli("display", "proxies", "--qmgr", "QM1", "-o", "json")
    assert as_json.exit_code == 1 and as_json.json() == []
    empty = ok(cli("runmqsc", "QM1", stdin="DIS SUB(*) SUBTYPE(PROXY)\n"))
    assert (
        "AMQ8147E: IBM MQ object * not found." in empty.stdout and "0 commands not modelled" in empty.stdout
    )


def test_unknown_or_ems_node_is_a_usage_error(cli: Cli) -> None:
    ok(cli("define", "qmgr", "E1", "--dialect", "ems"))
    for name, words in (("NOPE", "NOPE --qmgr: no such queue manager"), ("E1", "EMS server")):
        result = cli("display", "proxies", "--qmgr", name)
        assert result.exit_code == 2 and words in result.stderr
        assert len(result.stderr.strip().splitlines()) == 1


def test_door_sees_the_script_so_far(cli: Cli) -> None:
    """A PARENT set earlier in the same script brings the parent's subscriptions as hierarchy proxies."""
    load(cli, DEMO)
    ok(cli("define", "qmgr", "QM9"))
    ok(cli("define", "sub", "FAR", "--qmgr", "QM9", "--topicstr", "/far/#"))
    script = (
        "DIS SUB(*) SUBTYPE(PROXY) WHERE(DESTQMGR EQ QM9)\n"
        "ALTER QMGR PARENT(QM9)\n"
        "DIS SUB(*) SUBTYPE(PROXY) WHERE(DESTQMGR EQ QM9)\n"
    )
    door = ok(cli("runmqsc", "QM4", stdin=script))
    assert re.findall(r"SUB\((SYSTEM\.PROXY[^)]*)\)", door.stdout) == ["SYSTEM.PROXY.QM9 HIERARCHY /far/#"]
    assert door.stdout.index("SYSTEM.PROXY.QM9") > door.stdout.index("ALTER QMGR PARENT(QM9)")


def _proxy_findings(url: str, folder: Path, qmgrs: list[str], drop: str | None = None) -> list[dict]:
    for qmgr in qmgrs:
        shown = run_cli(["display", "proxies", "--qmgr", qmgr], db=url)
        assert shown.exit_code in (0, 1), shown.stderr
        blocks = shown.stdout
        if drop is not None and qmgr == drop and blocks:
            first_end = blocks.index("AMQ8096I", 1) if blocks.count("AMQ8096I") > 1 else len(blocks)
            blocks = blocks[first_end:]
        (folder / f"{qmgr}.txt").write_text(capture(qmgr, blocks), encoding="utf-8")
    done = run_cli(["import", "display", *(str(folder / f"{q}.txt") for q in qmgrs)], db=url)
    assert done.exit_code == 0, done.stderr
    result = run_cli(["reconcile", "-o", "json"], db=url)
    assert result.exit_code in (0, 1), result.stderr
    findings = result.json()["findings"]  # type: ignore[index]
    return [f for f in findings if f["code"] in PROXY_CODES]


def test_demo_capture_of_the_prediction_reconciles_and_one_dropped_is_named(
    cli: Cli, store_url: str, tmp_path: Path
) -> None:
    load(cli, DEMO)
    qmgrs = [f"QM{i}" for i in range(1, 7)]
    assert _proxy_findings(store_url, tmp_path, qmgrs) == []
    missing = _proxy_findings(store_url, tmp_path, qmgrs, drop="QM4")
    assert [(f["code"], f["pattern"], f["nodes"]) for f in missing] == [
        ("PROXY_MISSING", "/USA/Alabama/#", ["QM4", "QM5"])
    ]


PROPERTY = settings(
    max_examples=10,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    derandomize=True,
)


@pytest.mark.slow
@given(commands=mq_commands())
@PROPERTY
def test_display_proxies_equals_what_reconcile_predicts(
    store_url: str, tmp_path_factory: pytest.TempPathFactory, commands: list[list[str]]
) -> None:
    from mqctl.domain.observed import predict_proxies
    from mqctl.store.session import unit_of_work
    from mqctl.store.topology import load_topology

    tmp = tmp_path_factory.mktemp("proxies")
    url = _fresh(store_url, tmp, "model")
    _build(url, commands)
    qmgrs = sorted({c[2] for c in commands if c[:2] == ["define", "qmgr"]})
    with unit_of_work(url, write=False) as store:
        predicted = predict_proxies(load_topology(store.conn))
    for qmgr in qmgrs:
        rows = run_cli(["display", "proxies", "--qmgr", qmgr, "-o", "json"], db=url)
        assert rows.exit_code in (0, 1), rows.stderr
        shown = {(r["qmgr"], r["topicstr"], r["destqmgr"]) for r in rows.json()}  # type: ignore[union-attr]
        assert shown == {k for k in predicted if k[0] == qmgr}
    assert _proxy_findings(url, tmp, qmgrs) == []
