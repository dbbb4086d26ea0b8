"""A display piped to another program loads only what it needs (issue 24: the small commands' time is
mostly mqctl's start): no Rich for a plain table or tree, no Alembic for a read, none of the Spark, Arrow
or interactive-prompt modules."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.conftest import run_cli

NOT_LOADED = ("rich", "alembic", "pyspark", "pyarrow", "prompt_toolkit")
PROBE = (
    "import atexit, sys\n"
    "atexit.register(lambda: sys.stderr.write('\\nMODULES ' + ' '.join(sorted(sys.modules)) + '\\n'))\n"
    "from mqctl.cli.main import run\n"
    "sys.argv = ['mqctl', *sys.argv[1:]]\n"
    "run()\n"
)


@pytest.mark.parametrize(
    "args",
    [
        ["display", "sub", "*", "--qmgr", "QM1"],
        ["display", "topic", "*"],
        ["display", "topic", "*", "-o", "json"],
        ["display", "tree", "--qmgr", "QM1"],
        ["graph"],
    ],
)
def test_a_piped_display_loads_no_rich_alembic_or_spark(sqlite_url: str, args: list[str]) -> None:
    for command in (
        ["define", "qmgr", "QM1", "--cluster", "CL1"],
        ["define", "topic", "SPORT", "--qmgr", "QM1", "--topicstr", "/Sport", "--cluster", "CL1"],
        ["define", "sub", "FOOT", "--qmgr", "QM1", "--topicstr", "/Sport/#"],
    ):
        assert run_cli(command, db=sqlite_url).exit_code == 0
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "TTY_COMPATIBLE")}
    proc = subprocess.run(
        [sys.executable, "-c", PROBE, "--db", sqlite_url, *args], capture_output=True, text=True, env=env
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout  # the display itself, into a pipe
    loaded = proc.stderr.rsplit("MODULES ", 1)[1].split()
    assert [m for m in loaded if m.split(".")[0] in NOT_LOADED] == []


OBJECT_MODULES = ("mqobjects", "nodes", "observed", "routes", "topic_tree", "topics", "formats", "snapshot")


@pytest.mark.parametrize(
    ("args", "module"),
    [
        (["display", "sub", "*"], "topics"),
        (["display", "tree", "--qmgr", "QM1"], "topic_tree"),
        (["display", "qmgr", "*"], "nodes"),
        (["delete", "namelist", "NL", "--qmgr", "QM1"], "mqobjects"),
    ],
)
def test_an_object_command_imports_its_own_module_only(sqlite_url: str, args: list[str], module: str) -> None:
    """`mqctl display sub` imports and builds the commands of subscriptions, not those of every object
    type of `display` (cli.apps.ObjectVerb)."""
    assert run_cli(["define", "qmgr", "QM1"], db=sqlite_url).exit_code == 0
    proc = subprocess.run(
        [sys.executable, "-c", PROBE, "--db", sqlite_url, *args], capture_output=True, text=True
    )
    loaded = proc.stderr.rsplit("MODULES ", 1)[1].split()
    assert [m for m in OBJECT_MODULES if f"mqctl.cli.{m}" in loaded] == [module], proc.stderr
