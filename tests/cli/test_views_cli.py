"""What an administrator sees (issue 12, wave 2), through the real entry point on SQLite and PostgreSQL:
EMS rows with EMS attributes only, whole values in piped tables, hints where a user is likely wrong, and
`--link-down` naming only links the model has (docs/cli.md)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.conftest import Result, run_cli
from tests.helpers import ok

Cli = Callable[..., Result]

QMGR_KEYS = ["name", "dialect", "psmode", "psclus", "descr", "parent", "clusters", "repos", "seq"]
SERVER_KEYS = ["name", "dialect", "descr", "routes", "seq"]
MQ_TOPIC_KEYS = [
    "name",
    "qmgr",
    "topicstr",
    "cluster",
    "clroute",
    "wildcard",
    "pubscope",
    "subscope",
    "proxysub",
    "pub",
    "sub",
    "descr",
    "properties",
    "dialect",
    "seq",
    "effective",
]
EMS_TOPIC_KEYS = ["name", "qmgr", "topicstr", "properties", "dialect", "seq"]
MQ_SUB_KEYS = [
    "name",
    "qmgr",
    "topicstr",
    "selector",
    "subscope",
    "wschema",
    "dest",
    "destqmgr",
    "topicobj",
    "subtype",
    "subid",
    "durable",
    "properties",
    "dialect",
    "seq",
]
EMS_SUB_KEYS = ["name", "qmgr", "topicstr", "selector", "durable", "properties", "dialect", "seq"]


def rows(cli: Cli, *args: str) -> dict[str, dict]:
    """`display … -o json` keyed by (node) name, for the rows of both dialects."""
    return {f"{r.get('qmgr', '')}/{r['name']}": r for r in ok(cli("display", *args, "-o", "json")).json()}


def header(table: str) -> list[str]:
    """The column names of a Rich table printed by `display`."""
    line = next(line for line in table.splitlines() if line.startswith("┃"))
    return [cell.strip() for cell in line.strip("┃").split("┃")]


def mixed_estate(cli: Cli) -> None:
    ok(cli("define", "qmgr", "QM1", "--cluster", "CL1", "--full-repository", "CL1"))
    ok(cli("define", "topic", "SPORT", "--qmgr", "QM1", "--topicstr", "/Sport", "--cluster", "CL1"))
    ok(cli("define", "sub", "FOOT", "--qmgr", "QM1", "--topicstr", "/Sport/#"))
    ok(cli("define", "qmgr", "E1", "--dialect", "ems", "--descr", "Paris"))
    ok(cli("define", "route", "E2", "--qmgr", "E1", "--url", "tcp://e2:7222"))
    ok(cli("define", "topic", "orders.>", "--qmgr", "E1", "--prop", "global,maxbytes=64MB"))
    ok(cli("define", "sub", "ORDERS", "--qmgr", "E1", "--topicstr", "orders.*", "--selector", "n > 1"))


def test_ems_rows_carry_ems_attributes_only_and_mq_rows_keep_their_shape(cli: Cli) -> None:
    mixed_estate(cli)
    nodes = rows(cli, "qmgr")
    assert list(nodes["/QM1"]) == QMGR_KEYS
    assert nodes["/E1"] == nodes["/E1"] | {"dialect": "ems", "descr": "Paris", "routes": ["E2"]}
    assert list(nodes["/E1"]) == SERVER_KEYS and list(nodes["/E2"]) == SERVER_KEYS  # E2: a peer, no routes
    topics = rows(cli, "topic")
    assert list(topics["QM1/SPORT"]) == MQ_TOPIC_KEYS
    assert list(topics["E1/orders.>"]) == EMS_TOPIC_KEYS
    assert topics["E1/orders.>"]["properties"] == {"global": None, "maxbytes": "64MB"}
    subs = rows(cli, "sub")
    assert list(subs["QM1/FOOT"]) == MQ_SUB_KEYS
    assert list(subs["E1/ORDERS"]) == EMS_SUB_KEYS
    assert subs["E1/ORDERS"]["selector"] == "n > 1" and subs["E1/ORDERS"]["durable"] is False


def test_tables_show_the_columns_of_the_rows_shown(cli: Cli) -> None:
    """EMS rows alone: no MQ column; MQ rows alone: exactly the columns of before; both: both."""
    mixed_estate(cli)
    assert header(ok(cli("display", "qmgr", "E*")).stdout) == ["NAME", "DIALECT", "ROUTES", "DESCR"]
    mq_nodes = ["NAME", "DIALECT", "CLUSTERS", "REPOS", "PARENT", "PSMODE", "DESCR"]
    assert header(ok(cli("display", "qmgr", "QM*")).stdout) == mq_nodes
    assert header(ok(cli("display", "qmgr")).stdout) == mq_nodes[:-1] + ["ROUTES", "DESCR"]
    assert header(ok(cli("display", "topic", "--server", "E1")).stdout) == [
        "QMGR",
        "NAME",
        "TOPICSTR",
        "PROPERTIES",
    ]
    assert header(ok(cli("display", "topic", "-m", "QM1")).stdout) == [
        "QMGR",
        "NAME",
        "TOPICSTR",
        "CLUSTER",
        "CLROUTE",
        "PROPERTIES",
    ]  # SPORT keeps every default: no ATTRIBUTES column (issue 37)
    ems_subs = ["QMGR", "NAME", "TOPICSTR", "SELECTOR", "DURABLE"]
    assert header(ok(cli("display", "sub", "--server", "E1")).stdout) == ems_subs
    both = ok(cli("display", "sub")).stdout
    assert header(both) == ems_subs + ["SUBSCOPE"]
    ems_line = next(line for line in both.splitlines() if "ORDERS" in line)
    assert "ALL" not in ems_line  # the EMS row leaves the SUBSCOPE cell blank


def test_piped_tables_keep_whole_values(cli: Cli) -> None:
    """Output that is not a terminal is never cut to a width (the fixture sets COLUMNS=200)."""
    topicstr = "/" + "/".join(f"level{i:03d}" for i in range(40))  # 360 characters
    descr = "a description of sixty-four characters, to be shown whole: ....."
    ok(cli("define", "qmgr", "QM1"))
    ok(cli("define", "topic", "LONG", "--qmgr", "QM1", "--topicstr", topicstr, "--descr", descr))
    shown = ok(cli("display", "topic", "LONG")).stdout
    assert any(topicstr in line for line in shown.splitlines())
    ok(cli("define", "qmgr", "QM2", "--descr", descr))
    assert any(descr in line for line in ok(cli("display", "qmgr", "QM2")).stdout.splitlines())


def test_delete_of_an_unknown_qmgr_says_it_does_not_exist(cli: Cli) -> None:
    ok(cli("define", "qmgr", "QM1"))
    result = cli("delete", "qmgr", "NOPE")
    assert result.exit_code == 2
    assert result.stderr == "mqctl: error: node NOPE: does not exist\n"


# -- hints -------------------------------------------------------------------------------------------


def hints(result: Result) -> list[str]:
    return [line for line in result.stderr.splitlines() if line.startswith("mqctl: hint: ")]


@pytest.mark.parametrize(
    ("args", "code", "hinted"),
    [
        (["foo.*", "foo.a"], 1, True),  # '*' is literal in MQ: no match, and a hint why
        (["orders.>", "orders.eu.fx"], 1, True),
        (["foo.*", "foo.*"], 0, True),  # matches literally, still most likely meant for EMS
        (["foo.*", "foo.a", "--dialect", "ems"], 0, False),
        (["/foo/*", "/foo/a"], 1, False),  # has '/': an MQ topic string
        (["foo.a*", "foo.ab"], 1, False),  # not an EMS pattern either
        (["/a/+", "/a/b"], 0, False),
    ],
)
def test_topic_match_hints_at_an_ems_pattern_in_the_mq_dialect(
    args: list[str], code: int, hinted: bool
) -> None:
    result = run_cli(["topic", "match", *args])
    assert result.exit_code == code
    assert result.stdout == ("match\n" if code == 0 else "no match\n")
    assert len(hints(result)) == (1 if hinted else 0), result.stderr
    if hinted:
        assert repr(args[0]) in hints(result)[0] and "--dialect ems" in hints(result)[0]


def test_explain_hints_at_a_missing_leading_slash(cli: Cli) -> None:
    ok(cli("define", "qmgr", "QM1", "--cluster", "CL1"))
    ok(cli("define", "qmgr", "QM2", "--cluster", "CL1"))
    ok(cli("define", "topic", "USA", "--qmgr", "QM2", "--topicstr", "/USA", "--cluster", "CL1"))
    ok(cli("define", "sub", "ALL.USA", "--qmgr", "QM2", "--topicstr", "/USA/#"))
    # QM1 has no object of its own, but sees the clustered /USA: the topic most likely meant '/USA/Texas'
    result = ok(cli("explain", "--from", "QM1", "--topic", "USA/Texas", "-o", "json"))
    assert result.json()["deliveries"] == []  # JSON untouched on stdout; the hint is on stderr
    assert len(hints(result)) == 1 and "did you mean '/USA/Texas'?" in hints(result)[0]
    assert hints(ok(cli("explain", "--from", "QM1", "--topic", "/USA/Texas"))) == []
    ok(cli("define", "qmgr", "QM3"))
    assert hints(ok(cli("explain", "--from", "QM3", "--topic", "USA/Texas"))) == []  # sees nothing
    ok(cli("define", "sub", "EVERYTHING", "--qmgr", "QM1", "--topicstr", "#"))
    assert hints(ok(cli("explain", "--from", "QM1", "--topic", "USA/Texas"))) == []  # not every one has '/'


# -- --link-down names a link of the model -------------------------------------------------------------


def link_estate(cli: Cli) -> None:
    ok(cli("define", "qmgr", "QM1", "--cluster", "CL1", "--full-repository", "CL1"))
    ok(cli("define", "qmgr", "QM2", "--cluster", "CL1"))
    ok(cli("define", "qmgr", "QM3"))
    ok(cli("define", "qmgr", "QM4", "--parent", "QM1"))
    ok(cli("define", "qmgr", "E1", "--dialect", "ems"))
    ok(cli("define", "route", "E2", "--qmgr", "E1", "--url", "tcp://e2:7222"))
    ok(cli("define", "qmgr", "E3", "--dialect", "ems"))


LINKED = ["QM1:QM2", "QM2:QM1", "QM4:QM1", "QM1:QM4", "E1:E2", "E2:E1"]
NOT_LINKED = [
    ("QM1:QM1", "a link joins two different nodes"),
    ("QM1:QM3", "no link joins QM1 and QM3"),  # QM3 is in no cluster
    ("QM2:QM4", "no link joins QM2 and QM4"),  # QM4 is QM1's child, not QM2's
    ("E1:E3", "no link joins E1 and E3"),
    ("E2:E3", "no link joins E2 and E3"),
    ("QM1:E1", "no link joins E1 and QM1"),
]


@pytest.mark.parametrize("publisher", [("QM1", "/a"), ("E1", "orders.eu")], ids=["mq", "ems"])
def test_link_down_must_name_a_link_of_the_model(cli: Cli, publisher: tuple[str, str]) -> None:
    """A cluster in common, a hierarchy parent and child, or an EMS route defined on either server: in the
    question of either dialect. Anything else is bad input: exit 2, one line naming --link-down."""
    link_estate(cli)
    question = ["explain", "--from", publisher[0], "--topic", publisher[1]]
    for link in LINKED:
        ok(cli(*question, "--link-down", link))
    for link, message in NOT_LINKED:
        result = cli(*question, "--link-down", link)
        assert result.exit_code == 2 and result.stdout == "", (link, result.stdout)
        lines = result.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith("mqctl: error: "), result.stderr
        assert "--link-down" in lines[0] and message in lines[0], lines[0]
