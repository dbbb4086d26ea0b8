"""The global options travel with the invocation (issue 35): ``--db`` is the root callback's
``ctx.obj``, read by the command that runs under it, not a global that outlives the run."""

from __future__ import annotations

from pathlib import Path

import click
import pytest

from mqctl.cli.common import Invocation, store_url
from tests.conftest import run_cli

SECRET_URL = "postgresql+psycopg://admin:s3cret@127.0.0.1:1/none"


def test_runs_in_one_process_each_use_their_own_store(tmp_path: Path) -> None:
    first, second = str(tmp_path / "first.db"), str(tmp_path / "second.db")
    assert run_cli(["define", "qmgr", "QMA"], db=first).exit_code == 0
    assert run_cli(["define", "qmgr", "QMB"], db=second).exit_code == 0
    for db, name in ((first, "QMA"), (second, "QMB")):
        shown = run_cli(["display", "qmgr", "*", "-o", "json"], db=db)
        assert [node["name"] for node in shown.json()] == [name], shown.stderr  # type: ignore[union-attr]


def test_the_command_reads_the_store_of_its_invocation(tmp_path: Path) -> None:
    path = tmp_path / "x.db"
    with click.Context(click.Command("probe"), obj=Invocation(db=str(path))):
        assert store_url() == f"sqlite:///{path}"


def test_no_invocation_is_a_bug_not_the_default_store() -> None:
    with pytest.raises(RuntimeError):
        store_url()  # no click context at all
    with click.Context(click.Command("probe")), pytest.raises(RuntimeError, match="no mqctl invocation"):
        store_url()  # a context that did not come through the root callback


@pytest.mark.parametrize("flag", ["--debug", "--DEBUG"])
def test_debug_in_any_case_shows_the_traceback_without_the_password(flag: str) -> None:
    result = run_cli([flag, "--db", SECRET_URL, "display", "qmgr"])
    assert result.exit_code == 3
    assert "Traceback" in result.stderr and "s3cret" not in result.stderr + result.stdout


def test_without_debug_one_line_and_no_traceback() -> None:
    result = run_cli(["display", "qmgr"], db=SECRET_URL)
    assert result.exit_code == 3
    assert "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()) == 1
