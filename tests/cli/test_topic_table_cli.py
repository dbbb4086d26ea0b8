"""`display topic` and `display tree` show what an administrator looks for (issue 37): the MQSC
attributes that are not their defaults, every one with `--all`, no CLROUTE for a topic in no cluster,
no topic hosts for a DIRECT topic; `-o json` keeps its documented keys."""

from __future__ import annotations

from collections.abc import Callable

from tests.cli.test_views_cli import MQ_TOPIC_KEYS
from tests.conftest import Result
from tests.helpers import ok

Cli = Callable[..., Result]


def line_of(text: str, name: str) -> str:
    return next(line for line in text.splitlines() if f" {name} " in line)


def cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("│").split("│")]


def header(text: str) -> list[str]:
    line = next(line for line in text.splitlines() if "NAME" in line)
    return [c.strip() for c in line.strip().strip("┃").split("┃")]


def estate(cli: Cli) -> None:
    ok(cli("define", "qmgr", "US1", "--cluster", "US", "--full-repository", "US"))
    ok(cli("define", "qmgr", "US2", "--cluster", "US"))
    ok(cli("define", "topic", "PRICES", "--qmgr", "US2", "--topicstr", "/Prices", "--cluster", "US"))
    ok(cli("define", "topic", "PLAIN", "--qmgr", "US1", "--topicstr", "/Plain"))


def test_the_table_shows_the_attributes_that_differ_from_their_defaults(cli: Cli) -> None:
    estate(cli)
    ok(cli("define", "topic", "LOCAL", "--qmgr", "US1", "--topicstr", "/Local", "--pubscope", "qmgr"))
    ok(cli("alter", "topic", "LOCAL", "--qmgr", "US1", "--subscope", "qmgr", "--proxysub", "force"))
    ok(cli("alter", "topic", "LOCAL", "--qmgr", "US1", "--pub", "disabled", "--sub", "enabled"))
    ok(cli("alter", "topic", "LOCAL", "--qmgr", "US1", "--descr", "Local 'EU' prices"))
    table = ok(cli("display", "topic")).stdout
    assert header(table) == ["QMGR", "NAME", "TOPICSTR", "CLUSTER", "CLROUTE", "ATTRIBUTES", "PROPERTIES"]
    local = cells(line_of(table, "LOCAL"))
    assert local[5] == (
        "PUBSCOPE(QMGR) SUBSCOPE(QMGR) PROXYSUB(FORCE) PUB(DISABLED) SUB(ENABLED) DESCR('Local ''EU'' prices')"
    )
    # no cluster: no CLROUTE (DIRECT means nothing there); a clustered topic keeps its CLROUTE
    assert local[3] == "" and local[4] == ""
    assert cells(line_of(table, "PLAIN"))[3:6] == ["", "", ""]
    assert cells(line_of(table, "PRICES"))[3:5] == ["US", "DIRECT"]
    # a topic that keeps every default shows no ATTRIBUTES column at all
    assert "ATTRIBUTES" not in header(ok(cli("display", "topic", "P*")).stdout)


def test_all_shows_every_attribute_in_a_column_of_its_own(cli: Cli) -> None:
    estate(cli)
    every = ok(cli("display", "topic", "--all")).stdout
    assert header(every) == [
        "QMGR",
        "NAME",
        "TOPICSTR",
        "CLUSTER",
        "CLROUTE",
        "WILDCARD",
        "PUBSCOPE",
        "SUBSCOPE",
        "PROXYSUB",
        "PUB",
        "SUB",
        "DESCR",
        "PROPERTIES",
    ]
    plain = cells(line_of(every, "PLAIN"))
    assert plain[4:11] == ["DIRECT", "PASSTHRU", "ASPARENT", "ASPARENT", "FIRSTUSE", "ASPARENT", "ASPARENT"]


def test_json_keeps_its_keys_and_stored_values(cli: Cli) -> None:
    estate(cli)
    ok(cli("alter", "topic", "PLAIN", "--qmgr", "US1", "--pubscope", "qmgr"))
    for args in ((), ("--all",)):
        rows = ok(cli("display", "topic", "PLAIN", *args, "-o", "json")).json()
        assert isinstance(rows, list)
        [row] = rows
        assert list(row) == MQ_TOPIC_KEYS
        assert row["clroute"] == "DIRECT" and row["pubscope"] == "QMGR"  # the stored values, as documented


def test_display_tree_names_topic_hosts_only_for_a_topichost_topic(cli: Cli) -> None:
    estate(cli)
    tree = ok(cli("display", "tree", "--qmgr", "US1")).stdout
    assert "cluster US CLROUTE(DIRECT) from PRICES" in tree
    assert "hosts" not in tree
    rates = ("define", "topic", "RATES", "--qmgr", "US2", "--topicstr", "/Rates", "--cluster", "US")
    ok(cli(*rates, "--clroute", "topichost"))
    tree = ok(cli("display", "tree", "--qmgr", "US1")).stdout
    assert "cluster US CLROUTE(TOPICHOST) from RATES, hosts US2" in tree
