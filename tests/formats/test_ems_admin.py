"""tibemsadmin scripts applied to an EMS server's NodeState."""

from __future__ import annotations

import copy
import itertools

import pytest

from mqctl.domain.model import Dialect, Direction, Node, NodeState, Subscription, ZoneType
from mqctl.formats.ems import AdminRun, apply_tibemsadmin


def empty() -> NodeState:
    return NodeState(node=Node(name="ORD", dialect=Dialect.EMS))


def run(text: str, state: NodeState | None = None, *, keep_going: bool = False) -> tuple[NodeState, AdminRun]:
    st = state if state is not None else empty()
    counter = itertools.count(1)
    result = apply_tibemsadmin(
        st, text, file="a.txt", next_seq=lambda: next(counter), continue_on_error=keep_going
    )
    return st, result


def ok(text: str, state: NodeState | None = None) -> NodeState:
    st, result = run(text, state)
    assert not result.errors, [e.one_line() for e in result.errors]
    return st


def test_topic_commands() -> None:
    st = ok(
        "# comment\n\ncreate topic orders global,maxbytes=64MB\nCREATE TOPIC orders.> secure\n"
        "addprop topic orders maxmsgs=1000\nremoveprop topic orders maxbytes\n"
    )
    assert st.topics["orders"].properties == {"global": None, "maxmsgs": "1000"}
    ok("setprop topic orders exclusive", st)
    assert st.topics["orders"].properties == {"exclusive": None}
    ok("delete topic orders.>", st)
    assert list(st.topics) == ["orders"]


def test_route_commands_and_selectors() -> None:
    st, result = run(
        "create route CANADA url=tcp://canada:7222 zone_name=Z zone_type=1hop ssl_identity=x.pem\n"
        "setprop route CANADA outgoing_topic=orders selector=\"country='Canada'\"\n"
        'addprop route CANADA incoming_topic=orders.> selector="amount > 0" topic_prefetch=5\n'
        "create route USA url=tcp://usa:7222\n"
        "show routes\nshow topics\nconnect tcp://x:7222\n"
    )
    assert not result.errors
    assert result.peers_referenced == {"CANADA", "USA"}
    route = st.routes["CANADA"]
    assert (route.url, route.zone_name, route.zone_type) == ("tcp://canada:7222", "Z", ZoneType.ONE_HOP)
    assert route.properties == {"topic_prefetch": "5"}
    assert [(s.direction, s.topic, s.selector) for s in st.route_selectors] == [
        (Direction.OUTGOING, "orders", "country='Canada'"),
        (Direction.INCOMING, "orders.>", "amount > 0"),
    ]
    assert result.not_modelled == 1
    assert any(line.startswith("  CANADA") and "tcp://canada:7222" in line for line in result.lines)
    ok("removeprop route CANADA outgoing_topic=orders\ndelete route USA", st)
    assert [s.topic for s in st.route_selectors] == ["orders.>"] and list(st.routes) == ["CANADA"]


BROKEN = [
    ("create topic a..b", 1, 16),
    ("create topic a global\ncreate topic a", 2, 14),
    ("delete topic nope", 1, 14),
    ("create topic a maxbytes=big", 1, 25),
    ("create topic a\nremoveprop topic a secure", 2, 20),
    ("create topic", 1, 13),
    ("create route P", 1, 15),
    ("create route P url=tcp://p:1 zone_type=3hop", 1, 40),
    ('create route P url=tcp://p:1 outgoing_topic=orders selector="a <> "', 1, 67),
    ("create route P url=tcp://p:1 outgoing_topic=orders", 1, 51),
    ('create route P url=tcp://p:1 selector="a = 1"', 1, 30),
    ("create route P url=tcp://p:1\nsetprop route P zone_name=OTHER", 2, 17),
    ("create route ORD url=tcp://self:1", 1, 14),
    ("create route A.B url=tcp://p:1", 1, 14),
    ("setprop route NOPE url=tcp://p:1", 1, 15),
    ('create topic a\ncreate topic b "x', 2, 16),
]


@pytest.mark.parametrize(("text", "line", "column"), BROKEN)
def test_broken_scripts_report_position_and_change_nothing(text: str, line: int, column: int) -> None:
    st = ok("create topic base global\ncreate route BASE url=tcp://b:1")
    before = copy.deepcopy(st)
    _, result = run(text, st)
    err = result.first_error
    assert err is not None and not result.applied
    assert (err.file, err.line, err.column) == ("a.txt", line, column), err.one_line()
    assert st == before


def test_continue_on_error_applies_valid_commands() -> None:
    st, result = run("create topic a\ncreate topic a\ncreate topic b", keep_going=True)
    assert result.applied and result.failed == 1 and list(st.topics) == ["a", "b"]


def test_show_routes_lists_selectors_and_show_route_one_route() -> None:
    st = ok(
        "create route CANADA url=tcp://canada:7222 zone_name=Z zone_type=1hop ssl_identity=x.pem\n"
        "setprop route CANADA outgoing_topic=orders selector=\"country='Canada'\" ssl_identity=x.pem\n"
        'addprop route CANADA incoming_topic=orders.> selector="amount > 0"\n'
    )
    _, result = run("show routes\nshow route CANADA", st)
    lines = result.lines
    at = lines.index("Command: show routes")
    assert lines[at + 2].startswith("  CANADA  A  -       tcp://canada:7222")
    assert lines[at + 3].strip() == "outgoing_topic=orders selector=\"country='Canada'\""
    assert lines[at + 4].strip() == 'incoming_topic=orders.> selector="amount > 0"'
    detail = lines[lines.index("Command: show route CANADA") + 1 :]
    assert detail[:4] == [
        " Route:      CANADA",
        " Type:       active (defined on this server)",
        " URL:        tcp://canada:7222",
        " Zone:       Z (1hop)",
    ]
    assert "ssl_identity=x.pem" in detail[5]
    _, missing = run("show route NOPE", st)
    assert missing.first_error is not None and "Route 'NOPE' does not exist" in missing.first_error.message


def test_show_topic_shows_what_a_name_takes_from_every_matching_definition() -> None:
    st = ok("create topic orders.> global,maxbytes=64MB\ncreate topic orders.us trace,maxbytes=1MB")
    st.subscriptions["s1"] = Subscription("ORD", "s1", "orders.*", durable=True)
    st.subscriptions["s2"] = Subscription("ORD", "s2", "orders.us", durable=False)
    _, result = run("show topic orders.us\nshow topic orders.mx\nshow topic orders.>", st)
    text = "\n".join(result.lines)
    assert " Type:                  static\n Properties:            *global,trace,maxbytes=1MB" in text
    assert " Topic:                 orders.mx\n Type:                  dynamic\n" in text
    assert " Properties:            *global,*maxbytes=64MB" in text
    assert " Subscriptions:         1\n Durable Subscriptions: 1" in text
    _, missing = run("show topic other", st)
    assert missing.first_error is not None and "Topic 'other' does not exist" in missing.first_error.message


def test_unknown_topic_properties_are_kept_and_reported_once() -> None:
    st, result = run("create topic a globl,trace\naddprop topic a globl,flavour=x\ncreate topic b globl")
    assert st.topics["a"].properties == {"globl": None, "trace": None, "flavour": "x"}
    assert result.warnings == [
        "a.txt:1: topic property 'globl' is not one EMS documents: kept, not modelled",
        "a.txt:2: topic property 'flavour' is not one EMS documents: kept, not modelled",
    ]
    assert run("create topic c global,maxBytes=1MB,overflowPolicy=discardOld")[1].warnings == []


def test_a_rejected_script_echoes_no_change_as_made() -> None:
    _, result = run("create topic a\ncreate topic a")
    assert not result.applied and "Topic 'a' has been created" not in result.lines
    assert result.lines[1] == "mqctl: valid, but not applied: the script is rejected."
    assert result.lines[-1].startswith("The script is rejected: no command was applied")
