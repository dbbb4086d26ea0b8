"""Layouts of real, public captures that the door misread (issue 31's held-out set), each rebuilt here
with other names and values: only the layout quirk is kept. Through the real CLI, SQLite and PostgreSQL.

- a terminal log that opens with the shell prompt ``[user@host dir]$ runmqsc QM`` (taken for JSON);
- an interactive session copied before ``end`` (no counts), with ``DIS CHS`` for CHSTATUS;
- answer fragments copied from a page or a monitoring agent (no banner, no counts, no severity letter,
  items on one line or not indented), read with ``--qmgr``;
- another program's output between a run's banner and its first command (a must-gather script);
- a session ended with ``quit`` holding no DISPLAY, and a ``tibemsadmin -script`` run of other commands:
  not captures, refused saying what they hold.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result
from tests.helpers import dump_store, ok, refused

Cli = Callable[..., Result]

STATUS = """AMQ8417I: Display Channel Status details.
   CHANNEL(EU.TO.GW)                       CHLTYPE(CLUSSDR)
   CONNAME(gw.example(1414))               CURRENT
   RQMNAME(GW)
   STATUS(RUNNING)                         SUBSTATE(MQGET)
"""
TERMINAL_LOG = (
    "[ops@box7 logs]$ runmqsc EU\n"
    "5724-H72 (C) Copyright IBM Corp. 1994, 2023.\n"
    "Starting MQSC for queue manager EU.\n\n\n"
    "DIS CHS(EU.TO.GW) STATUS\n"
    "     1 : DIS CHS(EU.TO.GW) STATUS\n" + STATUS + "\n"
)


def test_a_terminal_log_of_a_session_not_yet_ended_is_read(cli: Cli, tmp_path: Path) -> None:
    """Opening ``[`` is a shell prompt, not JSON; a session copied before ``end`` has no counts;
    ``DIS CHS`` is DISPLAY CHSTATUS (not counted as a command not read)."""
    ok(cli("define", "qmgr", "EU"))
    log = tmp_path / "eu.log"
    log.write_text(TERMINAL_LOG)
    (summary,) = ok(cli("import", "display", str(log), "-o", "json")).json()
    assert (summary["qmgr"], summary["commands"], summary["observations"]) == (
        "EU",
        ["CHSTATUS"],
        {"CHSTATUS": 1},
    )
    assert summary["not_read"] == {} and summary["skipped_lines"] == 1
    (capture,) = ok(cli("display", "observed", "--qmgr", "EU", "-o", "json")).json()
    assert capture["observations"][0]["attributes"]["RQMNAME"] == "GW"


def test_a_piped_run_without_its_counts_is_still_cut_short(cli: Cli, tmp_path: Path) -> None:
    """The same answer echoed by a run fed from a file or a pipe: runmqsc always prints the counts there."""
    ok(cli("define", "qmgr", "EU"))
    piped = tmp_path / "eu.txt"
    piped.write_text(TERMINAL_LOG.replace("DIS CHS(EU.TO.GW) STATUS\n     1", "     1"))
    assert "cut short" in refused(cli("import", "display", str(piped)))


FRAGMENTS = {
    "one-line items, no severity letter": (
        "AMQ8441: Display Cluster Queue Manager details.\n"
        "   CLUSQMGR(NA)   CHANNEL(C9.NA)   CLUSTER(C9)\n"
        "AMQ8441: Display Cluster Queue Manager details.\n"
        "   CLUSQMGR(SA)   CHANNEL(C9.SA)   CLUSTER(C9)   CONNAME(sa.example(1515))  \n",
        {"CLUSQMGR": 2},
        0,
    ),
    "typed with + continuations, not indented": (
        "DISPLAY TOPIC(PRICES) +\nTOPICSTR +\nDEFPRTY\nResult:\n\n"
        "AMQ8633: Display topic details.\n"
        "TOPIC(PRICES)                                               TYPE(LOCAL)\n"
        "TOPICSTR(prices)                                            DEFPRTY(ASPARENT)\n",
        {},
        1,
    ),
}


@pytest.mark.parametrize("name", sorted(FRAGMENTS))
def test_an_answer_fragment_is_read_with_qmgr(cli: Cli, tmp_path: Path, name: str) -> None:
    """Answers copied from a page or a monitoring agent's section: no banner, so no counts to expect."""
    text, observations, topics = FRAGMENTS[name]
    ok(cli("define", "qmgr", "NA"))
    fragment = tmp_path / "na.txt"
    fragment.write_text(text)
    assert "give --qmgr" in refused(cli("import", "display", str(fragment)))
    (summary,) = ok(cli("import", "display", str(fragment), "--qmgr", "NA", "-o", "json")).json()
    assert summary["observations"] == observations and summary["topics"] == topics
    if observations:
        (capture,) = ok(cli("display", "observed", "--qmgr", "NA", "-o", "json")).json()
        assert capture["observations"][1]["attributes"]["CONNAME"] == "sa.example(1515)"


def test_another_programs_output_before_a_runs_first_command_is_skipped(cli: Cli, tmp_path: Path) -> None:
    """A must-gather script whose ``dspmqver`` lines landed inside the first run, before its command."""
    ok(cli("define", "qmgr", "EU"))
    banner = "5724-H72 (C) Copyright IBM Corp. 1994, 2025.\nStarting MQSC for queue manager EU.\n\n"
    gather = (
        "Queue manager:\n" + banner + "Product details\nName:        Messaging\nVersion:     9.9.9.9\n"
        "InstPath:    C:\\Program Files\\Messaging\n\n"
        "     1 : DISPLAY QMGR ALL\nAMQ8408I: Display Queue Manager details.\n"
        "   QMNAME(EU)                              PSMODE(ENABLED)\n"
        "One MQSC command read.\nNo commands have a syntax error.\nAll valid MQSC commands were processed.\n"
        "\nChannel status:\n"
        + banner
        + "\n     1 : DISPLAY CHSTATUS(*) ALL\n"
        + STATUS
        + "One MQSC command read.\n"
    )
    capture = tmp_path / "eu.txt"
    capture.write_text(gather)
    (summary,) = ok(cli("import", "display", str(capture), "-o", "json")).json()
    assert summary["commands"] == ["QMGR", "CHSTATUS"] and summary["observations"] == {"CHSTATUS": 1}
    assert summary["skipped_lines"] == 6  # two headings, four lines of product details
    after = gather.replace("PSMODE(ENABLED)\n", "PSMODE(ENABLED)\nName:        Messaging\n", 1)
    capture.write_text(after)  # after the first command such a line is no answer: refused, as before
    assert ":13:1:" in refused(cli("import", "display", str(capture)))


def test_a_session_ended_with_quit_holding_no_display_is_refused(
    cli: Cli, store_url: str, tmp_path: Path
) -> None:
    ok(cli("define", "qmgr", "EU"))
    good = tmp_path / "good.log"
    good.write_text(TERMINAL_LOG)
    ok(cli("import", "display", str(good)))
    before = dump_store(store_url)
    session = tmp_path / "eu.log"
    session.write_text(
        "[ops@box7 logs]$ runmqsc EU\nStarting MQSC for queue manager EU.\n\n"
        "alter channel(EU.TO.GW) chltype(clussdr) descr('x')\n"
        "     1 : alter channel(EU.TO.GW) chltype(clussdr) descr('x')\n"
        "AMQ8016I: IBM MQ channel changed.\n"
        "refresh qmgr type(configev) object(channel)\n"
        "     2 : refresh qmgr type(configev) object(channel)\n"
        "AMQ8724I: Refresh IBM MQ Queue Manager accepted.\nquit\n"
    )
    assert "2 commands, none of them DISPLAY: not a capture" in refused(
        cli("import", "display", str(session))
    )
    assert dump_store(store_url) == before


def test_a_script_run_of_other_commands_says_what_it_holds(cli: Cli, store_url: str, tmp_path: Path) -> None:
    """``tibemsadmin -script`` output of ``show topics`` alone: not a capture, said before the missing
    server name (which would send the user after the wrong problem)."""
    ok(cli("define", "qmgr", "E5", "--dialect", "ems"))
    before = dump_store(store_url)
    run = tmp_path / "e5.log"
    run.write_text(
        "\nTIBCO Enterprise Message Service Administration Tool.\nAll rights reserved.\n\n"
        "Connected to: tcp://e5:7222\nCommand: show topics\n"
        "  Topic Name                        SNFGEIBCTM  Subs  Durs     Msgs    Size\n"
        "  ticks                             ----------     2     1        0     0.0 Kb\n"
    )
    said = refused(cli("import", "display", str(run)))
    assert f"{run}:6:1: 1 command (show topics), none of them 'show routes' nor 'show durables'" in said
    assert dump_store(store_url) == before


def test_runmqsc_in_another_language_is_read_with_qmgr(cli: Cli, tmp_path: Path) -> None:
    """runmqsc prints its banner, messages and counts in the system's language: the counts are known by
    MQSC and a number, the banner is not (``--qmgr``). The lines after the counts are skipped."""
    ok(cli("define", "qmgr", "OSAKA"))
    text = (
        "     1 : dis chs(*)\n"
        "AMQ8417: チャネル状況の内容を表示します。\n"
        "   CHANNEL(TO.KOBE)                        CHLTYPE(CLUSSDR)\n"
        "   RQMNAME(KOBE)                           STATUS(RUNNING)\n"
        "MQSC コマンドを 1 つ読み取りました。\n"
        "構文エラーがあるコマンドはありません。\n"
    )
    capture = tmp_path / "osaka.txt"
    capture.write_text(text, encoding="utf-8")
    (summary,) = ok(cli("import", "display", str(capture), "--qmgr", "OSAKA", "-o", "json")).json()
    assert summary["observations"] == {"CHSTATUS": 1} and summary["skipped_lines"] == 1
    capture.write_text(text.replace("MQSC コマンドを 1 つ読み取りました。\n", ""), encoding="utf-8")
    assert ":5:1:" in refused(cli("import", "display", str(capture), "--qmgr", "OSAKA"))
