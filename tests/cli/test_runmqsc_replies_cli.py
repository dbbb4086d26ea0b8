"""The runmqsc door answers in MQ's own words (issue 37): no attribute MQ does not have, the message
code of the command run, a summary that does not contradict itself, singular counts, and the nearest
verb for a mistyped one."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from tests.conftest import Result
from tests.helpers import ok

Cli = Callable[..., Result]


def test_display_qmgr_shows_no_clusters_attribute(cli: Cli) -> None:
    ok(cli("define", "qmgr", "QM1", "--cluster", "CL1", "--full-repository", "CL1"))
    shown = ok(cli("runmqsc", "QM1", stdin="DISPLAY QMGR\n")).stdout
    assert "QMNAME(QM1)" in shown and "REPOS(CL1)" in shown
    assert "CLUSTERS(" not in shown  # MQ has no such attribute; DISPLAY CLUSQMGR names the clusters
    assert "CLUSTER(CL1)" in ok(cli("runmqsc", "QM1", stdin="DISPLAY CLUSQMGR(*)\n")).stdout


def test_delete_sub_answers_with_the_delete_message(cli: Cli) -> None:
    ok(cli("define", "qmgr", "QM1"))
    ok(cli("define", "sub", "S1", "--qmgr", "QM1", "--topicstr", "/a/#"))
    shown = ok(cli("runmqsc", "QM1", stdin="DELETE SUB(S1)\n")).stdout
    assert "AMQ8097I: IBM MQ subscription deleted." in shown
    assert "AMQ8096I" not in shown  # the code of DISPLAY SUB's "subscription inquired"


def test_a_rejected_script_does_not_say_its_valid_commands_were_processed(cli: Cli) -> None:
    ok(cli("define", "qmgr", "QM1"))
    script = "DEFINE TOPIC(A) TOPICSTR('/a')\nDEFINE TOPIC(B) TOPICSTR('/b')\nDEFINE TOPIC(C) BOGUS(1)\n"
    rejected = cli("runmqsc", "QM1", stdin=script)
    assert rejected.exit_code == 2
    out = rejected.stdout
    assert "One command has a syntax error." in out
    assert "2 valid MQSC commands could not be processed." in out  # A and B, valid, not applied
    assert "All valid MQSC commands were processed." not in out
    assert "The script is rejected: no command was applied" in out
    applied = cli("runmqsc", "QM1", "--continue", stdin=script)
    assert applied.exit_code == 1
    assert "All valid MQSC commands were processed." in applied.stdout
    assert "The script is rejected" not in applied.stdout


def test_one_command_is_counted_in_the_singular(cli: Cli, tmp_path: Path) -> None:
    ok(cli("define", "qmgr", "QM1"))
    one = ok(cli("runmqsc", "QM1", stdin="DEFINE QLOCAL(Q1)\n")).stdout
    assert "One MQSC command read." in one  # runmqsc's own words
    assert "1 command not modelled by mqctl and skipped;" in one
    assert "1 commands" not in one and "1 MQSC commands" not in one
    script = tmp_path / "QM2.mqsc"
    script.write_text("DEFINE TOPIC(T) TOPICSTR('/t') NPMSGDLV(ALL)\n")
    imported = ok(cli("import", "mqsc", str(script))).stdout
    assert "QM2: 1 command read from" in imported and "1 attribute not modelled" in imported
    assert "1 queue manager imported, 1 command read." in imported


def test_a_mistyped_verb_or_object_type_names_the_nearest(cli: Cli) -> None:
    ok(cli("define", "qmgr", "QM1"))
    verb = cli("runmqsc", "QM1", stdin="DEFIN TOPIC(T) TOPICSTR('/t')\n")
    assert verb.exit_code == 2
    assert "unknown command 'DEFIN'; did you mean DEFINE?" in verb.stdout
    assert "unknown command 'DEFIN'; did you mean DEFINE?" in verb.stderr
    noun = cli("runmqsc", "QM1", stdin="DEFINE TOPC(T) TOPICSTR('/t')\n")
    assert "unknown object type 'TOPC' after DEFINE; did you mean TOPIC?" in noun.stderr
    keyword = cli("runmqsc", "QM1", stdin="DEFINE TOPIC(T) TOPICSTR('/t') CLUSTR(EU)\n")
    assert "unknown parameter CLUSTR for DEFINE TOPIC; did you mean CLUSTER?" in keyword.stderr
    far = cli("runmqsc", "QM1", stdin="XYZZY TOPIC(T)\n")
    assert "unknown command 'XYZZY'; expected one of ALTER," in far.stderr  # nothing near: the list
