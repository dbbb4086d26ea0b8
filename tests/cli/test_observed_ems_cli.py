"""EMS captures through the real CLI: a saved tibemsadmin session of ``show routes`` and ``show durables``
read by ``import display`` (issue 22), routes and durables kept as observations, ``reconcile`` naming a
route of the model that the server shows not connected (MQR012).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result
from tests.helpers import dump_store, ok

Cli = Callable[..., Result]

HEAD = """TIBCO Enterprise Message Service Administration Tool.
Copyright 1997-2021 by TIBCO Software Inc.
All rights reserved.

Connected to: tcp://e1:7222
Type 'help' for commands help, 'exit' to exit:
"""
INFO = (
    "tcp://e1:7222> info\n Server:                   E1 (version: 8.6.0 V4)\n Hostname:                 e1\n"
)
ROUTES = """tcp://e1:7222> show routes
  Route  T ConnID URL                Zone               T
  E2     A 5      tcp://e2:7222      default_mhop_zone  m
  E3     A 7      tcp://e3:7222      z1                 1
"""
DURABLES = """tcp://e1:7222> show durables
  Topic Name      Durable                   Shared  User      Msgs    Size
 *orders.>        E2                        N       E2        0       0.0 Kb
  orders.new      CLIENT1:sub1              N       offline   3       1.2 Kb
"""
QUEUES = """tcp://e1:7222> show queues
  Queue Name  SNFGXIBCT  Pre  Rcvrs     Msgs    Size
  sample      ---------    5*     0        0     0.0 Kb
tcp://e1:7222> exit
"""
SESSION = HEAD + INFO + ROUTES + DURABLES + QUEUES


def model(cli: Cli) -> None:
    for server in ("E1", "E2", "E3"):
        ok(cli("define", "qmgr", server, "--dialect", "ems"))
    for peer in ("E2", "E3"):
        ok(cli("define", "route", peer, "--qmgr", "E1", "--url", f"tcp://{peer.lower()}:7222"))


def test_session_round_trip_routes_and_durables_observed_nothing_to_reconcile(
    cli: Cli, tmp_path: Path
) -> None:
    model(cli)
    session = tmp_path / "e1.txt"
    session.write_text("# captured 2026-11-26T03:00:00Z\n" + SESSION)
    summary = ok(cli("import", "display", str(session), "-o", "json")).json()
    assert summary == [
        {
            "qmgr": "E1",
            "files": [str(session)],
            "captured_at": "2026-11-26T03:00:00+00:00",
            "commands": ["ROUTE", "DURABLE"],
            "in_model": True,
            "subscriptions": {},
            "topics": 0,
            "qmgr_attributes": 0,
            "observations": {"DURABLE": 2, "ROUTE": 2},
            "not_read": {"show queues": 1},
            "not_imported": {},
            "skipped_lines": 0,
            "kept": True,
        }
    ]
    (capture,) = ok(cli("display", "observed", "--qmgr", "E1", "-o", "json")).json()
    seen = {(o["kind"], o["name"]): o for o in capture["observations"]}
    assert sorted(seen) == [
        ("DURABLE", "orders.>:E2"),
        ("DURABLE", "orders.new:CLIENT1:sub1"),
        ("ROUTE", "E2"),
        ("ROUTE", "E3"),
    ]
    e3 = seen[("ROUTE", "E3")]
    assert e3["line"] == 14  # the capture-time comment, the banner (6), info (3), prompt, header, E2
    assert e3["attributes"] == {
        "ROUTE": "E3",
        "TYPE": "ACTIVE",
        "CONNID": "7",
        "CONNECTED": "YES",
        "URL": "tcp://e3:7222",
        "ZONE": "z1",
        "ZONETYPE": "1HOP",
    }
    routed = seen[("DURABLE", "orders.>:E2")]["attributes"]
    assert (routed["DYNAMIC"], routed["ROUTED"], routed["SHARED"]) == ("YES", "YES", "NO")
    offline = seen[("DURABLE", "orders.new:CLIENT1:sub1")]["attributes"]
    assert (offline["DYNAMIC"], offline["ONLINE"], offline["MSGS"], offline["SIZE"]) == (
        "NO",
        "NO",
        "3",
        "1.2 Kb",
    )
    # durables are observations only: the model's subscriptions are those of durables.conf
    subs = cli("display", "sub", "--qmgr", "E1", "-o", "json")
    assert (subs.exit_code, subs.json()) == (1, [])  # no match: exit 1
    assert ok(cli("reconcile", "-o", "json", "--fail-on", "info")).json()["findings"] == []


def test_a_route_of_the_model_not_connected_is_named(cli: Cli, tmp_path: Path) -> None:
    model(cli)
    session = tmp_path / "e1.txt"
    session.write_text(HEAD + ROUTES.replace("E3     A 7 ", "E3     A - ") + DURABLES)
    ok(cli("import", "display", str(session), "--qmgr", "E1"))
    shown = ok(cli("display", "observed", "-o", "json")).json()[0]["observations"]
    assert [o["attributes"]["CONNECTED"] for o in shown if o["kind"] == "ROUTE"] == ["YES", "NO"]
    result = cli("reconcile", "-o", "json", "--fail-on", "warning")
    assert result.exit_code == 1, (result.stdout, result.stderr)
    (finding,) = result.json()["findings"]
    assert (finding["id"], finding["code"], finding["severity"]) == (
        "MQR012",
        "ROUTE_NOT_CONNECTED",
        "warning",
    )
    assert finding["objects"] == ["route E3 on E1"] and finding["nodes"] == ["E1", "E3"]
    assert finding["source"] == {"file": str(session), "line": 10}
    assert ok(cli("reconcile", "-o", "json")).json()["findings"] == [finding]  # below --fail-on error


@pytest.mark.parametrize(
    ("name", "text", "args", "where"),
    [
        ("route columns", HEAD + ROUTES.replace("z1                 1", "z1"), ["--qmgr", "E1"], ":10:40:"),
        ("route type", HEAD + ROUTES.replace("E3     A", "E3     Q"), ["--qmgr", "E1"], ":10:10:"),
        ("connid", HEAD + ROUTES.replace("A 7 ", "A x "), ["--qmgr", "E1"], ":10:12:"),
        ("msgs", HEAD + DURABLES.replace("offline   3", "offline   many"), ["--qmgr", "E1"], ":10:63:"),
        (
            "no header",
            HEAD + "tcp://e1:7222> show routes\n  E2 A 5 tcp://e2:7222 z m\n",
            ["--qmgr", "E1"],
            ":8:3:",
        ),
        ("wrong server", HEAD + INFO.replace("E1 (", "E9 (") + ROUTES, ["--qmgr", "E1"], ":8:28:"),
        ("no server", HEAD + ROUTES, [], ":1:1:"),
        ("nothing read", HEAD + QUEUES, ["--qmgr", "E1"], ":7:1:"),  # its first command
    ],
)
def test_bad_session_is_one_line_exit_2_store_unchanged(
    cli: Cli, store_url: str, tmp_path: Path, name: str, text: str, args: list[str], where: str
) -> None:
    model(cli)
    good = tmp_path / "good.txt"
    good.write_text(SESSION)
    bad = tmp_path / "bad.txt"
    bad.write_text(text)
    before = dump_store(store_url)
    result = cli("import", "display", str(good), str(bad), *args)
    assert result.exit_code == 2, (name, result.stdout, result.stderr)
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert f"{bad}{where}" in result.stderr, result.stderr
    assert dump_store(store_url) == before


def test_a_session_of_a_queue_manager_of_the_model_is_refused(cli: Cli, tmp_path: Path) -> None:
    ok(cli("define", "qmgr", "QM1"))
    session = tmp_path / "s.txt"
    session.write_text(HEAD + ROUTES)
    result = cli("import", "display", str(session), "--qmgr", "QM1")
    assert result.exit_code == 2 and "server QM1" in result.stderr, result.stderr


SCRIPT_RUN = """TIBCO Enterprise Message Service Administration Tool.
Copyright 2003-2023 by Cloud Software Group, Inc.
All rights reserved.

Version 10.2.1 V2 2023-01-10

Connected to: tcp://e1:7222
Command: info
 Server:                   E1 (version: 10.2.1 V2)
 Hostname:                 e1
Command: show routes
  Route  T ConnID URL                Zone               T
  E2     A 5      tcp://e2:7222      default_mhop_zone  m
  E3     A -      tcp://e3:7222      default_mhop_zone  m
Command: show durables
  Topic Name      Durable                   Shared  User       Msgs    Size
 *orders.>        E2                        N       E2         0       0.0 Kb
  orders.new      CLIENT1:sub1              N       <offline>  3       1.2 Kb
  prices.>        PRICES:all                Y       shared     0       0.0 Kb
  audit.>         AUDIT:sub                 N       *ldapuser  0       0.0 Kb
"""


def test_script_run_offline_user_and_unconnected_route(cli: Cli, store_url: str, tmp_path: Path) -> None:
    """``tibemsadmin -script`` output (``Command:`` lines, EMS 10's ``<offline>``) is read as a session."""
    model(cli)
    run = tmp_path / "e1.log"
    run.write_text("# captured 2026-11-26T03:00:00Z\n" + SCRIPT_RUN)
    (summary,) = ok(cli("import", "display", str(run), "-o", "json")).json()
    assert summary["qmgr"] == "E1" and summary["commands"] == ["ROUTE", "DURABLE"]
    assert (
        summary["observations"] == {"DURABLE": 4, "ROUTE": 2} and summary["not_read"] == {}
    )  # info names the server
    (capture,) = ok(cli("display", "observed", "--qmgr", "E1", "-o", "json")).json()
    seen = {o["name"]: o["attributes"] for o in capture["observations"]}
    assert seen["orders.new:CLIENT1:sub1"]["ONLINE"] == "NO"
    assert seen["orders.new:CLIENT1:sub1"]["USER"] == "<offline>"
    assert seen["orders.>:E2"]["ONLINE"] == "YES" and seen["orders.>:E2"]["ROUTED"] == "YES"
    assert seen["prices.>:PRICES:all"]["ONLINE"] == "SHARED"
    assert (seen["audit.>:AUDIT:sub"]["USER"], seen["audit.>:AUDIT:sub"]["EXTERNAL_USER"]) == (
        "ldapuser",
        "YES",
    )
    assert seen["E3"]["CONNECTED"] == "NO" and seen["E2"]["CONNECTED"] == "YES"
    result = cli("reconcile", "-o", "json")
    codes = [(f["code"], f["nodes"]) for f in result.json()["findings"]]
    assert ("ROUTE_NOT_CONNECTED", ["E1", "E3"]) in codes


def test_not_a_session_names_the_forms_of_both_products(cli: Cli, store_url: str, tmp_path: Path) -> None:
    ok(cli("define", "qmgr", "E1", "--dialect", "ems"))
    before = dump_store(store_url)
    run = tmp_path / "e1.log"
    run.write_text(SCRIPT_RUN.split("Command: show routes")[0] + "Command: show queues\n")
    result = cli("import", "display", str(run), "--qmgr", "E1")
    assert result.exit_code == 2 and result.stderr.count("\n") == 1, result.stderr
    for form in ("runmqsc", "runCommandJSON", "tcp://host:7222> show routes", "Command: show routes"):
        assert form in result.stderr
    assert dump_store(store_url) == before
