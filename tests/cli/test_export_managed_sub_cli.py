"""`export mqsc` writes a subscription without DEST as a queue manager takes it (issue 37): IBM's DEFINE
SUB defaults DESTCLAS to PROVIDED, which needs a DEST queue; a subscription whose queue the queue manager
manages is `DESTCLAS(MANAGED)` with no DEST, as mqctl's own DISPLAY SUB shows it. The export reads back
into the same model, with nothing counted as not modelled."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from tests.conftest import Result, run_cli
from tests.helpers import ok

Cli = Callable[..., Result]


def block(script: str, name: str) -> str:
    found = re.search(rf"DEFINE SUB\('{name}'\)(?:.*\+\n)*.*REPLACE", script)
    assert found is not None, script
    return found.group(0)


def test_a_managed_subscription_is_exported_with_destclas_managed(cli: Cli, tmp_path: Path) -> None:
    ok(cli("define", "qmgr", "QM1"))
    ok(cli("define", "sub", "MANAGED", "--qmgr", "QM1", "--topicstr", "/a/#", "--selector", "x > 1"))
    ok(
        cli(
            "define",
            "sub",
            "PROVIDED",
            "--qmgr",
            "QM1",
            "--topicstr",
            "/b",
            "--dest",
            "Q1",
            "--destqmgr",
            "QM2",
        )
    )
    script = ok(cli("export", "mqsc", "QM1")).stdout
    managed = block(script, "MANAGED")
    assert "DESTCLAS(MANAGED)" in managed
    assert "DEST(" not in managed and "DESTQMGR(" not in managed  # no DEST(' ') DESTQMGR(' ')
    provided = block(script, "PROVIDED")
    assert "DEST('Q1')" in provided and "DESTQMGR('QM2')" in provided and "DESTCLAS" not in provided
    # DISPLAY SUB says the same
    shown = ok(cli("runmqsc", "QM1", stdin="DISPLAY SUB(MANAGED) ALL\nDISPLAY SUB(PROVIDED) ALL\n")).stdout
    assert shown.count("DESTCLAS(MANAGED)") == 1 and shown.count("DESTCLAS(PROVIDED)") == 1
    # read back into another store: the same subscriptions, nothing counted as not modelled
    path = tmp_path / "QM1.mqsc"
    path.write_text(script)
    other = f"sqlite:///{tmp_path / 'other.db'}"
    again = run_cli(["runmqsc", "QM1", "--create", str(path)], db=other)
    assert again.exit_code == 0, again.stderr
    assert "0 attributes not modelled and ignored." in again.stdout and "Not modelled" not in again.stdout

    def subs(result: Result) -> list[dict[str, object]]:
        rows = result.json()
        assert isinstance(rows, list)
        return [{k: v for k, v in r.items() if k != "seq"} for r in rows]

    here = subs(ok(cli("display", "sub", "--qmgr", "QM1", "-o", "json")))
    there = subs(run_cli(["display", "sub", "--qmgr", "QM1", "-o", "json"], db=other))
    assert here == there


def test_destclas_that_contradicts_dest_is_counted_as_not_modelled(cli: Cli) -> None:
    ok(cli("define", "qmgr", "QM1"))
    script = "DEFINE SUB(S) TOPICSTR('/a') DEST(Q1) DESTCLAS(MANAGED)\nDEFINE SUB(T) TOPICSTR('/b') DESTCLAS(MANAGED)\n"
    shown = ok(cli("runmqsc", "QM1", stdin=script)).stdout
    assert "Not modelled: DESTCLAS on SUB (1)." in shown
