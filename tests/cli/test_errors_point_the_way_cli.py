"""Errors that point the way (issue 37): a mistyped node or cluster names the nearest, a file given to
the wrong door says what it looks like and which door takes it, a flag given a value says which flags
there are, a missing diff side is named as the side. Each is one line on stderr, exit 2, nothing changed.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result
from tests.helpers import dump_store, ok, refused

Cli = Callable[..., Result]


def estate(cli: Cli) -> None:
    ok(cli("define", "qmgr", "FR1", "--cluster", "EU", "--full-repository", "EU"))
    ok(cli("define", "qmgr", "GW", "--cluster", "EU"))


def test_a_mistyped_node_or_cluster_names_the_nearest(cli: Cli) -> None:
    estate(cli)
    refused(cli("explain", "--from", "FR9", "--topic", "/a"), "FR9 --from: no such node; did you mean FR1?")
    refused(
        cli("graph", "--cluster", "EUROPE"), "cluster EUROPE --cluster: no such cluster", "did you mean EU?"
    )
    refused(
        cli("graph", "--node", "FR2"), "FR2 --node: no such queue manager or EMS server; did you mean FR1?"
    )
    # nothing near: no guess
    line = refused(cli("graph", "--cluster", "ASIA"), "no such cluster")
    assert "did you mean" not in line


def test_display_proxies_and_capture_kit_name_the_nearest_queue_manager(cli: Cli, tmp_path: Path) -> None:
    estate(cli)
    refused(
        cli("display", "proxies", "--qmgr", "FR9"), "FR9 --qmgr: no such queue manager; did you mean FR1?"
    )
    refused(
        cli("capture-kit", "--out", str(tmp_path / "kit"), "--qmgr", "GW1"),
        "GW1 --qmgr: no such queue manager or EMS server; did you mean GW?",
    )
    assert not (tmp_path / "kit").exists()
    line = refused(cli("display", "proxies", "--qmgr", "ASIA"), "ASIA --qmgr: no such queue manager")
    assert "did you mean" not in line


@pytest.mark.parametrize(
    ("command", "what"),
    [
        ("topic", "queue manager"),
        ("sub", "queue manager"),
        ("namelist", "queue manager"),
        ("channel", "queue manager"),
        ("membership", "queue manager"),
        ("route", "EMS server"),
        ("route-selector", "EMS server"),
        ("observed", "queue manager"),
        ("tree", "queue manager"),
    ],
)
def test_a_display_filtered_by_a_mistyped_node_names_the_nearest(cli: Cli, command: str, what: str) -> None:
    estate(cli)
    ok(cli("define", "qmgr", "EMS1", "--dialect", "ems"))
    near, name, option = ("EMS1", "EMS2", "--server") if what == "EMS server" else ("FR1", "FR9", "--qmgr")
    refused(cli("display", command, "--qmgr", name), f"{option}: no such {what} {name}; did you mean {near}?")
    # nothing near: no guess
    line = refused(cli("display", command, "--qmgr", "ASIA"), f"{option}: no such {what} ASIA")
    assert "did you mean" not in line


def test_display_observed_names_the_nearest_captured_queue_manager(cli: Cli, tmp_path: Path) -> None:
    """A capture is kept of a queue manager the model may not have: its name is one the filter takes."""
    estate(cli)
    capture = tmp_path / "NEWYORK.txt"
    capture.write_text(
        "     1 : DISPLAY PUBSUB ALL\n"
        "AMQ8723I: Display pub/sub status details.\n"
        "   QMNAME(NEWYORK)                         TYPE(LOCAL)\n"
        "   STATUS(ACTIVE)                          SUBCOUNT(0)\n"
    )
    ok(cli("import", "display", str(capture), "--qmgr", "NEWYORK"))
    refused(
        cli("display", "observed", "--qmgr", "NEWYROK"),
        "--qmgr: no such queue manager NEWYROK; did you mean NEWYORK?",
    )


def test_an_empty_node_name_says_a_name_is_needed(cli: Cli) -> None:
    estate(cli)
    for option in ("--down", "--from"):
        args = ["--from", "FR1", "--topic", "/a", f"{option}="]
        line = refused(cli("explain", *args), f"mqctl: error: {option} needs a node name")
        assert "no such node" not in line


def test_a_flag_given_a_value_names_its_command_and_its_other_flag(cli: Cli, store_url: str) -> None:
    estate(cli)
    before = dump_store(store_url)
    refused(
        cli("define", "sub", "S", "--qmgr", "FR1", "--topicstr", "/a", "--durable=no"),
        "mqctl: error: define sub: option --durable takes no value; give --durable or --non-durable",
    )
    assert dump_store(store_url) == before


def test_a_missing_diff_side_is_named_as_the_side(cli: Cli, tmp_path: Path) -> None:
    here = tmp_path / "QM1.mqsc"
    here.write_text("DEFINE TOPIC(T) TOPICSTR('/t')\n")
    gone = tmp_path / "nosuch.mqsc"
    line = refused(cli("diff", str(gone), str(here)), f"BEFORE {gone}: no such file or folder")
    assert "--file" not in line
    refused(cli("diff", str(here), str(gone)), f"AFTER {gone}: no such file or folder")


TOPICS_CONF = "# topics\norders.>  global,maxbytes=64MB\nprices.*\n"
ROUTES_CONF = '[E2]\nurl = tcp://e2:7222\noutgoing_topic=orders.> selector="n > 1"\n'
TIBEMSD_CONF = "server = E1\ntopics = topics.conf\n"
MQSC = "* QM2\nDEFINE TOPIC(T) TOPICSTR('/t')\n"


@pytest.mark.parametrize(
    ("args", "name", "text", "hint"),
    [
        (
            ("import", "ems", "--tibemsd"),
            "topics.conf",
            TOPICS_CONF,
            "this looks like an EMS topics.conf: use import ems --topics",
        ),
        (
            ("import", "ems", "--tibemsd"),
            "us2.mqsc",
            MQSC,
            "this is an MQSC script: use runmqsc or import mqsc",
        ),
        (
            ("import", "mqsc"),
            "routes.conf",
            ROUTES_CONF,
            "this is an EMS routes.conf: use import ems --routes",
        ),
        (
            ("import", "mqsc"),
            "tibemsd.conf",
            TIBEMSD_CONF,
            "this looks like an EMS tibemsd.conf: use import ems --tibemsd",
        ),
        (("import", "mqsc"), "topics.txt", TOPICS_CONF, "this looks like an EMS topics.conf"),
        (("import", "display"), "us2.mqsc", MQSC, "this is an MQSC script: use runmqsc or import mqsc"),
        (("import", "display"), "routes.conf", ROUTES_CONF, "this is an EMS routes.conf"),
    ],
)
def test_a_file_given_to_the_wrong_door_says_what_it_looks_like(
    cli: Cli, store_url: str, tmp_path: Path, args: tuple[str, ...], name: str, text: str, hint: str
) -> None:
    estate(cli)
    before = dump_store(store_url)
    path = tmp_path / name
    path.write_text(text)
    refused(cli(*args, str(path)), f"{path}:", hint)
    assert dump_store(store_url) == before


def test_a_file_of_the_right_door_gets_no_hint(cli: Cli, tmp_path: Path) -> None:
    """An MQSC script with an MQSC mistake: the mistake alone, no talk of other doors."""
    path = tmp_path / "QM1.mqsc"
    path.write_text("DEFINE TOPIC(T) TOPICSTR('/t') CLROUTE(SIDEWAYS)\n")
    line = refused(cli("import", "mqsc", str(path)), "CLROUTE")
    assert "this is" not in line and "looks like" not in line
