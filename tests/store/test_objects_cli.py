"""Every object type round-trips define -> display -o json -> alter -> delete, on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.conftest import Result
from tests.helpers import dump_store, ok

Cli = Callable[..., Result]


def one(cli: Cli, *args: str) -> dict:
    data = ok(cli(*args, "-o", "json")).json()
    assert isinstance(data, list) and len(data) == 1, data
    return data[0]


def test_qmgr_round_trip(cli: Cli) -> None:
    ok(cli("define", "qmgr", "QM1", "--cluster", "CL1", "--full-repository", "CL1", "--descr", "hub"))
    item = one(cli, "display", "qmgr", "QM1")
    assert item["name"] == "QM1" and item["dialect"] == "mq"
    assert item["clusters"] == ["CL1"] and item["repos"] == ["CL1"] and item["descr"] == "hub"
    ok(cli("define", "qmgr", "QM2"))
    ok(cli("alter", "qmgr", "QM1", "--parent", "QM2", "--psmode", "compat", "--cluster", "CL2"))
    item = one(cli, "display", "qmgr", "QM1")
    assert item["parent"] == "QM2" and item["psmode"] == "COMPAT" and item["clusters"] == ["CL1", "CL2"]
    # the cluster was created on first reference
    assert one(cli, "display", "cluster", "CL2")["members"] == ["QM1"]
    ok(cli("delete", "qmgr", "QM1", "--cascade"))
    assert cli("display", "qmgr", "QM1", "-o", "json").exit_code == 1


def test_ems_server_and_default_non_durable(cli: Cli) -> None:
    ok(cli("define", "qmgr", "EMSA", "--dialect", "ems"))
    assert one(cli, "display", "qmgr", "EMSA")["dialect"] == "ems"
    ok(cli("define", "sub", "S1", "--qmgr", "EMSA", "--topicstr", "orders.>"))
    assert one(cli, "display", "sub", "S1", "--qmgr", "EMSA")["durable"] is False
    ok(cli("define", "qmgr", "QM1"))
    ok(cli("define", "sub", "S1", "--qmgr", "QM1", "--topicstr", "/a/#"))
    assert one(cli, "display", "sub", "S1", "--qmgr", "QM1")["durable"] is True


def test_topic_round_trip(cli: Cli) -> None:
    ok(cli("define", "qmgr", "QM2", "--cluster", "CL1"))
    ok(
        cli(
            "define",
            "topic",
            "T1",
            "--qmgr",
            "QM2",
            "--topicstr",
            "/USA/Alabama",
            "--cluster",
            "CL1",
            "--clroute",
            "topichost",
        )
    )
    item = one(cli, "display", "topic", "T*", "--qmgr", "QM2")
    assert item == item | {
        "name": "T1",
        "qmgr": "QM2",
        "topicstr": "/USA/Alabama",
        "cluster": "CL1",
        "clroute": "TOPICHOST",
        "wildcard": "PASSTHRU",
        "pubscope": "ASPARENT",
        "subscope": "ASPARENT",
        "proxysub": "FIRSTUSE",
        "pub": "ASPARENT",
        "sub": "ASPARENT",
    }
    ok(cli("alter", "topic", "T1", "--qmgr", "QM2", "--wildcard", "block"))
    after = one(cli, "display", "topic", "T1", "--qmgr", "QM2")
    assert after["wildcard"] == "BLOCK" and after["seq"] > item["seq"]
    ok(cli("delete", "topic", "T1", "--qmgr", "QM2"))
    assert cli("display", "topic", "T1", "--qmgr", "QM2").exit_code == 1


def test_ems_topic_with_literal_star_name(cli: Cli) -> None:
    ok(cli("define", "qmgr", "NY1", "--dialect", "ems"))
    ok(cli("define", "topic", "market.fx.*", "--qmgr", "NY1", "--prop", "global"))
    ok(cli("define", "topic", "market.fx.eur", "--qmgr", "NY1", "--prop", "global,maxbytes=1GB"))
    assert len(ok(cli("display", "topic", "market.fx.*", "-o", "json")).json()) == 2
    item = one(cli, "display", "topic", "market.fx.*", "--exact")
    assert item["topicstr"] == "market.fx.*" and item["properties"] == {"global": None}
    ok(cli("alter", "topic", "market.fx.*", "--qmgr", "NY1", "--prop", "maxmsgs=10"))
    assert one(cli, "display", "topic", "market.fx.*", "--exact")["properties"] == {
        "global": None,
        "maxmsgs": "10",
    }
    ok(cli("delete", "topic", "market.fx.*", "--qmgr", "NY1"))
    assert one(cli, "display", "topic", "market.*")["name"] == "market.fx.eur"


def test_sub_round_trip(cli: Cli) -> None:
    ok(cli("define", "qmgr", "QM4"))
    ok(
        cli(
            "define",
            "sub",
            "S1",
            "--qmgr",
            "QM4",
            "--topicstr",
            "/USA/Alabama/#",
            "--selector",
            "state = 'AL'",
            "--durable",
        )
    )
    item = one(cli, "display", "sub", "S1", "--qmgr", "QM4")
    assert item == item | {
        "name": "S1",
        "qmgr": "QM4",
        "topicstr": "/USA/Alabama/#",
        "selector": "state = 'AL'",
        "durable": True,
        "subscope": "ALL",
        "wschema": "TOPIC",
    }
    ok(cli("alter", "sub", "S1", "--qmgr", "QM4", "--dest", "Q1", "--destqmgr", "QM9"))
    item = one(cli, "display", "sub", "S1", "--qmgr", "QM4")
    assert (item["dest"], item["destqmgr"], item["selector"]) == ("Q1", "QM9", "state = 'AL'")
    # what MQ fixes at DEFINE SUB cannot be altered, as runmqsc refuses it
    refused = cli("alter", "sub", "S1", "--qmgr", "QM4", "--subscope", "qmgr")
    assert (
        refused.exit_code == 2
        and "SUBSCOPE" in refused.stderr
        and "delete it and define it again" in refused.stderr
    )
    ok(cli("delete", "sub", "S1", "--qmgr", "QM4"))
    assert cli("display", "sub", "S1").exit_code == 1


def test_sub_with_topicobj_composes_topicstr(cli: Cli) -> None:
    ok(cli("define", "qmgr", "QM1"))
    ok(cli("define", "topic", "SPORT", "--qmgr", "QM1", "--topicstr", "/Sport"))
    ok(cli("define", "sub", "S1", "--qmgr", "QM1", "--topicobj", "SPORT", "--topicstr", "Football/#"))
    assert one(cli, "display", "sub", "S1")["topicstr"] == "/Sport/Football/#"
    ok(cli("define", "sub", "S2", "--qmgr", "QM1", "--topicobj", "SPORT"))  # TOPICSTR from the object
    assert one(cli, "display", "sub", "S2")["topicstr"] == "/Sport"
    ok(cli("delete", "topic", "SPORT", "--qmgr", "QM1"))  # as MQ: the subscriptions keep their string
    assert one(cli, "display", "sub", "S1")["topicstr"] == "/Sport/Football/#"
    assert one(cli, "display", "sub", "S2")["topicstr"] == "/Sport"
    refused = cli("define", "sub", "S3", "--qmgr", "QM1", "--topicobj", "SPORT")
    assert refused.exit_code == 2 and "TOPICOBJ" in refused.stderr
    refused = cli("define", "sub", "S3", "--qmgr", "QM1")
    assert refused.exit_code == 2 and "TOPICSTR" in refused.stderr


def test_namelist_channel_membership_round_trip(cli: Cli) -> None:
    ok(cli("define", "qmgr", "QM1"))
    ok(cli("define", "namelist", "NL1", "--qmgr", "QM1", "--names", "CLA,CLB"))
    assert one(cli, "display", "namelist", "NL1")["names"] == ["CLA", "CLB"]
    ok(
        cli(
            "define",
            "channel",
            "TO.QM1",
            "--qmgr",
            "QM1",
            "--chltype",
            "clusrcvr",
            "--clusnl",
            "NL1",
            "--conname",
            "qm1(1414)",
        )
    )
    ch = one(cli, "display", "channel", "TO.QM1")
    assert ch["chltype"] == "CLUSRCVR" and ch["clusnl"] == "NL1" and ch["conname"] == "qm1(1414)"
    # a CLUSRCVR channel makes its queue manager a member of its clusters
    assert one(cli, "display", "qmgr", "QM1")["clusters"] == ["CLA", "CLB"]
    ok(cli("alter", "channel", "TO.QM1", "--qmgr", "QM1", "--conname", "qm1b(1414)"))
    assert one(cli, "display", "channel", "TO.QM1")["conname"] == "qm1b(1414)"
    ok(cli("alter", "namelist", "NL1", "--qmgr", "QM1", "--names", "CLA", "--descr", "x"))
    assert one(cli, "display", "namelist", "NL1")["names"] == ["CLA"]
    # as MQ: a namelist a channel names is deleted; the channel stays and gives no membership
    gone = ok(cli("delete", "namelist", "NL1", "--qmgr", "QM1"))
    assert "channel TO.QM1: namelist NL1 is not defined now" in gone.stderr
    assert one(cli, "display", "qmgr", "QM1")["clusters"] == []
    assert one(cli, "display", "channel", "TO.QM1")["clusnl"] == "NL1"
    ok(cli("define", "namelist", "NL1", "--qmgr", "QM1", "--names", "CLA"))
    assert one(cli, "display", "qmgr", "QM1")["clusters"] == ["CLA"]
    ok(cli("delete", "channel", "TO.QM1", "--qmgr", "QM1"))
    # the memberships the channel gave end with it (as runmqsc's DELETE CHANNEL does)
    assert one(cli, "display", "qmgr", "QM1")["clusters"] == []
    ok(cli("delete", "namelist", "NL1", "--qmgr", "QM1"))
    # memberships as objects; a script's channel changes never drop them
    ok(cli("define", "membership", "--qmgr", "QM1", "--cluster", "CLA"))
    ok(cli("alter", "membership", "--qmgr", "QM1", "--cluster", "CLA", "--full-repository"))
    assert one(cli, "display", "membership", "--qmgr", "QM1", "--cluster", "CLA")["full_repository"] is True
    ok(cli("define", "channel", "TO.QM1.B", "--qmgr", "QM1", "--chltype", "clusrcvr", "--cluster", "CLB"))
    ok(cli("delete", "channel", "TO.QM1.B", "--qmgr", "QM1"))
    assert one(cli, "display", "qmgr", "QM1")["clusters"] == ["CLA"]
    ok(cli("delete", "membership", "--qmgr", "QM1", "--cluster", "CLA"))
    ok(cli("define", "membership", "--qmgr", "QM1", "--cluster", "CLC"))
    assert [m["cluster"] for m in ok(cli("display", "membership", "-o", "json")).json()] == ["CLC"]


def test_cluster_round_trip_and_dependents(cli: Cli) -> None:
    ok(cli("define", "cluster", "CL9", "--descr", "nine"))
    assert one(cli, "display", "cluster", "CL9")["descr"] == "nine"
    ok(cli("alter", "cluster", "CL9", "--descr", "neun"))
    assert one(cli, "display", "cluster", "CL9")["descr"] == "neun"
    ok(cli("define", "qmgr", "QM1", "--cluster", "CL9"))
    failed = cli("delete", "cluster", "CL9")
    assert failed.exit_code == 2 and "member QM1" in failed.stderr
    ok(cli("delete", "cluster", "CL9", "--cascade"))
    assert one(cli, "display", "qmgr", "QM1")["clusters"] == []


def test_route_and_route_selector_round_trip(cli: Cli) -> None:
    ok(cli("define", "qmgr", "ORD", "--dialect", "ems"))
    ok(
        cli(
            "define",
            "route",
            "USA",
            "--qmgr",
            "ORD",
            "--url",
            "tcp://usa:7222",
            "--prop",
            "ssl_identity=/x.pem",
        )
    )
    route = one(cli, "display", "route", "USA", "--qmgr", "ORD")
    assert route == route | {
        "name": "USA",
        "url": "tcp://usa:7222",
        "zone_name": "default_mhop_zone",
        "zone_type": "mhop",
        "properties": {"ssl_identity": "/x.pem"},
    }
    # the unknown peer was created as an EMS server
    assert one(cli, "display", "qmgr", "USA")["dialect"] == "ems"
    ok(
        cli(
            "define",
            "route-selector",
            "--qmgr",
            "ORD",
            "--route",
            "USA",
            "--direction",
            "outgoing",
            "--topic",
            "orders",
            "--selector",
            "country='USA'",
        )
    )
    sel = one(cli, "display", "route-selector", "--qmgr", "ORD")
    assert sel == sel | {
        "route": "USA",
        "direction": "outgoing",
        "topic": "orders",
        "selector": "country='USA'",
    }
    ok(
        cli(
            "alter",
            "route-selector",
            "--qmgr",
            "ORD",
            "--route",
            "USA",
            "--direction",
            "outgoing",
            "--topic",
            "orders",
            "--selector",
            "country='US'",
        )
    )
    assert one(cli, "display", "route-selector")["selector"] == "country='US'"
    # a route's zone is fixed when it is created, as tibemsadmin says; the URL is not
    refused = cli("alter", "route", "USA", "--qmgr", "ORD", "--zone-name", "WO", "--zone-type", "1hop")
    assert refused.exit_code == 2 and "cannot be changed after the route is created" in refused.stderr
    ok(cli("alter", "route", "USA", "--qmgr", "ORD", "--url", "tcp://usa2:7222"))
    route = one(cli, "display", "route", "USA")
    assert route["url"] == "tcp://usa2:7222" and route["selectors"][0]["selector"] == "country='US'"
    ok(
        cli(
            "delete",
            "route-selector",
            "--qmgr",
            "ORD",
            "--route",
            "USA",
            "--direction",
            "outgoing",
            "--topic",
            "orders",
        )
    )
    assert one(cli, "display", "route", "USA")["selectors"] == []
    sel = ["--qmgr", "ORD", "--route", "USA", "--direction", "incoming", "--topic", "orders.>"]
    ok(cli("define", "route-selector", *sel, "--selector", "a > 1"))
    # as EMS: a route's selectors are its properties, and go with it
    ok(cli("delete", "route", "USA", "--qmgr", "ORD"))
    assert cli("display", "route-selector").exit_code == 1
    assert cli("display", "route").exit_code == 1


def test_define_existing_needs_replace(cli: Cli) -> None:
    ok(cli("define", "qmgr", "QM1"))
    ok(cli("define", "topic", "T1", "--qmgr", "QM1", "--topicstr", "/a"))
    failed = cli("define", "topic", "T1", "--qmgr", "QM1", "--topicstr", "/b")
    assert failed.exit_code == 2 and "already defined" in failed.stderr
    ok(cli("define", "topic", "T1", "--qmgr", "QM1", "--topicstr", "/b", "--replace"))
    assert one(cli, "display", "topic", "T1")["topicstr"] == "/b"


BAD_INPUTS = [
    (("define", "qmgr", "QM-1"), "qmgr QM-1"),
    (("define", "qmgr", "Q" * 49), "49 characters"),
    (("define", "qmgr", "EMS.A", "--dialect", "ems"), "server EMS.A"),
    (("define", "qmgr", "QM9", "--psmode", "sometimes"), "PSMODE"),
    (("define", "topic", "T-1", "--qmgr", "QM1", "--topicstr", "/a"), "topic T-1"),
    (("define", "topic", "T2", "--qmgr", "QM1", "--topicstr", "/a", "--clroute", "anywhere"), "CLROUTE"),
    (("define", "topic", "T2", "--qmgr", "QM1", "--topicstr", "/a", "--wildcard", "maybe"), "WILDCARD"),
    (("define", "topic", "T2", "--qmgr", "NOPE", "--topicstr", "/a"), "NOPE"),
    (("define", "topic", "T2", "--qmgr", "QM1"), "TOPICSTR"),
    (("define", "topic", "a.*b", "--qmgr", "EMS1"), "topic a.*b TOPICSTR"),
    (("define", "topic", "a.>.b", "--qmgr", "EMS1"), "topic a.>.b TOPICSTR"),
    (
        ("define", "sub", "S2", "--qmgr", "QM1", "--topicstr", "/a", "--selector", "a = = 1"),
        "sub S2 SELECTOR",
    ),
    (("define", "sub", "S2", "--qmgr", "QM1", "--topicstr", "/a", "--subscope", "world"), "SUBSCOPE"),
    (("define", "sub", "S2", "--qmgr", "EMS1", "--topicstr", "foo.>.x"), "sub S2 TOPICSTR"),
    (("define", "namelist", "NL-1", "--qmgr", "QM1"), "namelist NL-1"),
    (("define", "channel", "C1", "--qmgr", "QM1", "--chltype", "sdr", "--cluster", "X"), "CHLTYPE"),
    (
        (
            "define",
            "channel",
            "C1",
            "--qmgr",
            "QM1",
            "--chltype",
            "clusrcvr",
            "--cluster",
            "A",
            "--clusnl",
            "B",
        ),
        "CLUSNL",
    ),
    (("define", "channel", "C1", "--qmgr", "QM1", "--chltype", "clusrcvr", "--clwlrank", "10"), "CLWLRANK"),
    (("define", "channel", "C1", "--qmgr", "QM1", "--chltype", "clusrcvr", "--clwlwght", "0"), "CLWLWGHT"),
    (("define", "route", "M", "--qmgr", "QM1"), "qmgr QM1"),
    (("define", "route", "M.X", "--qmgr", "EMS1"), "server M.X"),
    (("define", "route", "M", "--qmgr", "EMS1", "--zone-type", "2hop"), "zone_type"),
    (
        (
            "define",
            "route-selector",
            "--qmgr",
            "EMS1",
            "--route",
            "NOPE",
            "--direction",
            "outgoing",
            "--topic",
            "a",
            "--selector",
            "x=1",
        ),
        "NOPE",
    ),
    (("define", "cluster", "CL-1"), "cluster CL-1"),
    (("define", "membership", "--qmgr", "QM1", "--cluster", "CL 2"), "cluster CL 2"),
    (("define", "membership", "--qmgr", "EMS1", "--cluster", "CL2"), "server EMS1"),
    (("define", "membership", "--qmgr", "QM1", "--cluster", "CL1"), "already a member"),
    (("alter", "topic", "MISSING", "--qmgr", "QM1", "--wildcard", "block"), "topic MISSING"),
    (("alter", "qmgr", "QM1", "--parent", "QM1"), "PARENT"),
    (("delete", "sub", "MISSING", "--qmgr", "QM1"), "sub MISSING"),
    (("delete", "qmgr", "QM1"), "qmgr QM1"),
]


@pytest.mark.parametrize(
    ("args", "named"), BAD_INPUTS, ids=[" ".join(a[:3]) + f" #{i}" for i, (a, _) in enumerate(BAD_INPUTS)]
)
def test_bad_input_is_one_line_exit_2_store_unchanged(
    cli: Cli, store_url: str, args: tuple[str, ...], named: str
) -> None:
    ok(cli("define", "qmgr", "QM1", "--cluster", "CL1"))
    ok(cli("define", "qmgr", "EMS1", "--dialect", "ems"))
    ok(cli("define", "topic", "T1", "--qmgr", "QM1", "--topicstr", "/a", "--cluster", "CL1"))
    ok(cli("define", "sub", "S1", "--qmgr", "QM1", "--topicstr", "/a/#"))
    before = dump_store(store_url)
    result = cli(*args)
    assert result.exit_code == 2, (result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("mqctl: error: "), result.stderr
    assert named in lines[0]
    assert "Traceback" not in result.stderr
    assert dump_store(store_url) == before


def test_display_topic_shows_effective_values_through_the_topic_tree(cli: Cli) -> None:
    """semantics §3: ASPARENT takes the next object up; a blank CLUSTER inherits, and CLROUTE comes from
    the cluster point — here a clustered object defined on another member of the cluster."""
    ok(cli("define", "qmgr", "QM1", "--cluster", "CL1"))
    ok(cli("define", "qmgr", "QM2", "--cluster", "CL1"))
    ok(
        cli(
            "define",
            "topic",
            "SPORT",
            "--qmgr",
            "QM2",
            "--topicstr",
            "/Sport",
            "--cluster",
            "CL1",
            "--clroute",
            "topichost",
            "--pubscope",
            "qmgr",
        )
    )
    ok(cli("define", "topic", "FOOT", "--qmgr", "QM1", "--topicstr", "/Sport/Football", "--subscope", "qmgr"))
    item = one(cli, "display", "topic", "FOOT")
    assert item["pubscope"] == "ASPARENT" and item["cluster"] == ""  # stored values stay as stored
    assert item["effective"] == {
        "object": "FOOT",
        "cluster": "CL1",
        "cluster_point": "SPORT",
        "clroute": "TOPICHOST",
        "hosts": ["QM2"],
        "pubscope": "QMGR",
        "subscope": "QMGR",
        "pub": "ENABLED",
        "sub": "ENABLED",
        "wildcard": "PASSTHRU",
        "proxysub": "FIRSTUSE",
    }
    ok(cli("define", "qmgr", "E1", "--dialect", "ems"))
    ok(cli("define", "topic", "orders", "--qmgr", "E1", "--prop", "global"))
    assert "effective" not in one(cli, "display", "topic", "orders")
