"""tibemsadmin's summary does not contradict itself (issue 37): a rejected script's valid changes are
counted as not applied, not as processed above "no command was applied" (as the runmqsc door counts
them); its `show` commands did run; with --continue the valid changes are processed and applied."""

from __future__ import annotations

from collections.abc import Callable

from tests.conftest import Result
from tests.helpers import dump_store

Cli = Callable[..., Result]

SCRIPT = "create topic a.b global\ncreate topic c.d\nshow topics\ncreate topic a.b\n"
"""Two valid changes, a show, and a topic that exists already (refused)."""


def test_a_rejected_script_does_not_count_its_valid_changes_as_processed(cli: Cli, store_url: str) -> None:
    assert cli("define", "qmgr", "E1", "--dialect", "ems").exit_code == 0
    before = dump_store(store_url)
    rejected = cli("tibemsadmin", "E1", stdin=SCRIPT)
    assert rejected.exit_code == 2 and dump_store(store_url) == before
    lines = rejected.stdout.splitlines()
    assert "4 commands read, 1 processed, 2 valid but not applied, 0 not modelled, 1 failed." in lines
    assert lines[-1].startswith("The script is rejected: no command was applied")
    assert "4 commands read, 3 processed, 0 not modelled, 1 failed." not in lines  # today's contradiction
    kept = cli("tibemsadmin", "E1", "--continue", stdin=SCRIPT)
    assert kept.exit_code == 1
    assert "4 commands read, 3 processed, 0 not modelled, 1 failed." in kept.stdout.splitlines()
    assert "rejected" not in kept.stdout and "not applied" not in kept.stdout


def test_one_command_is_counted_in_the_singular(cli: Cli) -> None:
    assert cli("define", "qmgr", "E1", "--dialect", "ems").exit_code == 0
    one = cli("tibemsadmin", "E1", stdin="show topics\n")
    assert one.exit_code == 0, one.stderr
    assert "1 command read, 1 processed, 0 not modelled, 0 failed." in one.stdout.splitlines()
