"""MQSC lexing and parsing: runmqsc line rules, inserts, case folding, abbreviations."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mqctl.domain.errors import InputError
from mqctl.domain.model import Node, NodeState, Subscription, TopicObject
from mqctl.formats.mqsc import (
    BadCommand,
    Command,
    SkippedInsert,
    apply_mqsc,
    dump_header_qmgr,
    parse_mqsc,
    write_mqsc,
)
from mqctl.formats.mqsc.lexer import LITERAL_MARKER


def only_command(text: str, **kw: object) -> Command:
    items = parse_mqsc(text, **kw)  # type: ignore[arg-type]
    assert len(items) == 1, items
    item = items[0]
    assert isinstance(item, Command), item
    return item


def value(cmd: Command, keyword: str) -> str:
    values = cmd.params[keyword].values
    assert values is not None
    return values[0].text


def test_plus_continues_from_first_nonblank_character() -> None:
    cmd = only_command("DEFINE TOPIC(T) +\n      TOPICSTR('a/b') +\n   DESCR('x')\n")
    assert value(cmd, "TOPICSTR") == "a/b"
    assert value(cmd, "DESCR") == "x"


def test_minus_continues_from_column_one_keeping_blanks() -> None:
    cmd = only_command("DEFINE TOPIC(T) TOPICSTR('a/b') DESCR('Fr-\n  ed')\n")
    assert value(cmd, "DESCR") == "Fr  ed"


def test_plus_inside_quotes_drops_leading_blanks() -> None:
    cmd = only_command("DEFINE TOPIC(T) TOPICSTR('a/b') DESCR('Fr+\n      ed')\n")
    assert value(cmd, "DESCR") == "Fred"


def test_plus_in_the_middle_of_a_list_value() -> None:
    cmd = only_command("ALTER NAMELIST(NL) +\n NAMES(A.B+\n ,C.D,E)\n")
    values = cmd.params["NAMES"].values
    assert values is not None
    assert [v.text for v in values] == ["A.B", "C.D", "E"]


def test_final_plus_is_the_continuation_after_an_insert() -> None:
    cmd = only_command(
        "DEFINE SERVICE(S) +\n   STARTARG(+QMNAME+)          +\n   CONTROL(QMGR)\n", inserts={"QMNAME": "qm1"}
    )
    assert value(cmd, "STARTARG") == "QM1"
    assert value(cmd, "CONTROL") == "QMGR"


def test_comments_and_blank_lines_inside_a_continued_command_are_dropped() -> None:
    cmd = only_command("DEFINE TOPIC(T) +\n* a comment +\n\n   TOPICSTR('a')\n")
    assert value(cmd, "TOPICSTR") == "a"


def test_commented_out_continued_block_is_ignored() -> None:
    text = "*DEFINE SERVICE(X)     +\n*       CONTROL(QMGR) +\n*       DESCR('x')\nDEFINE TOPIC(T) TOPICSTR('a')\n"
    assert only_command(text).noun == "TOPIC"


def test_semicolon_ends_a_command_after_a_continuation() -> None:
    items = parse_mqsc("DEFINE TOPIC(T) TOPICSTR('a') +\n;\nDEFINE TOPIC(U) TOPICSTR('b')\n")
    assert [type(i) for i in items] == [Command, Command]


def test_end_stops_the_input_and_no_final_newline() -> None:
    items = parse_mqsc("define ql(queue1)\nend\nDEFINE TOPIC(X) TOPICSTR('a')")
    assert len(items) == 1
    assert isinstance(items[0], Command) and items[0].name is not None and items[0].name.text == "QUEUE1"
    assert isinstance(parse_mqsc("DEFINE TOPIC(T) TOPICSTR('a')")[0], Command)


@pytest.mark.parametrize(
    ("typed", "verb", "noun"),
    [
        ("DEF TOPIC(T)", "DEFINE", "TOPIC"),
        ("def sub(S)", "DEFINE", "SUB"),
        ("DEFINE SUBSCRIPTION(S)", "DEFINE", "SUB"),
        ("ALT NL(N)", "ALTER", "NAMELIST"),
        ("DEL CHL(C)", "DELETE", "CHANNEL"),
        ("DIS QL(Q)", "DISPLAY", "QLOCAL"),
        ("dis qmgr", "DISPLAY", "QMGR"),
        ("STA CHL(C)", "START", "CHANNEL"),
        ("REF SECURITY(*)", "REFRESH", "SECURITY"),
    ],
)
def test_abbreviations(typed: str, verb: str, noun: str) -> None:
    cmd = only_command(typed)
    assert (cmd.verb, cmd.noun) == (verb, noun)


def test_unquoted_values_fold_to_upper_case_quoted_kept() -> None:
    cmd = only_command("define topic(sports) topicstr('Sport/Scores') descr(lower) cluster('Mixed')")
    assert cmd.name is not None and cmd.name.text == "SPORTS"
    assert value(cmd, "TOPICSTR") == "Sport/Scores"
    assert value(cmd, "DESCR") == "LOWER"
    assert value(cmd, "CLUSTER") == "Mixed"


def test_doubled_quote_and_blank_before_paren() -> None:
    cmd = only_command("DEFINE TOPIC ('T') DESCR ('it''s') TOPICSTR ( 'a' )")
    assert cmd.name is not None and cmd.name.text == "T"
    assert value(cmd, "DESCR") == "it's"


def test_nested_parentheses_stay_in_the_value() -> None:
    cmd = only_command("DEFINE CHANNEL(C) CHLTYPE(CLUSRCVR) CONNAME(host(1414))")
    assert value(cmd, "CONNAME") == "HOST(1414)"


def test_keyword_only_parameters() -> None:
    cmd = only_command("DEFINE QLOCAL(Q) SHARE NOTRIGGER REPLACE")
    assert cmd.params["SHARE"].values is None and "REPLACE" in cmd.params


def test_insert_in_quotes_and_missing_insert_skips() -> None:
    cmd = only_command(
        "DEFINE CHANNEL('+AUTOCL+_+QMNAME+') CHLTYPE(clusrcvr)", inserts={"AUTOCL": "uc", "QMNAME": "Q1"}
    )
    assert cmd.name is not None and cmd.name.text == "uc_Q1"
    items = parse_mqsc(
        "DEFINE CHANNEL(X.+QMNAME+) CHLTYPE(CLUSRCVR) CLUSTER(+AUTOCL+)", inserts={"QMNAME": "Q1"}
    )
    assert isinstance(items[0], SkippedInsert) and items[0].missing == ("AUTOCL",)


@pytest.mark.parametrize(
    ("text", "line", "column", "words"),
    [
        ("DEFINE TOPIC(T) DESCR('abc)\n", 1, 23, "closing"),
        ("DEFINE TOPIC(T) +\n  TOPICSTR('a') +\n", 2, 17, "continu"),
        ("DEFINE TOPIC(T) TOPICSTR('a') TOPICSTR('b')", 1, 31, "repeated"),
        ("DEFINE TOPIC(T) TOPICSTR('a') REPLACE NOREPLACE", 1, 39, "NOREPLACE"),
        ("FROB TOPIC(T)", 1, 1, "unknown command"),
        ("DEFINE WIDGET(T)", 1, 8, "unknown object type"),
        ("DEFINE TOPIC(T) TOPICSTR()", 1, 25, "expected a value"),
        ("DEFINE TOPIC(T) TOPICSTR('a'", 1, 25, "no matching"),
        ("DEFINE TOPIC(T) 'x'", 1, 17, "expected a parameter keyword"),
        ("DEFINE", 1, 7, "expected an object type"),
        ("\n\n   DEFINE TOPIC(A,B)", 3, 19, "one TOPIC name"),
    ],
)
def test_syntax_errors_have_line_and_column(text: str, line: int, column: int, words: str) -> None:
    items = parse_mqsc(text, file="x.mqsc")
    bad = [i for i in items if isinstance(i, BadCommand)]
    assert len(bad) == 1, items
    err = bad[0].error
    assert (err.file, err.line, err.column) == ("x.mqsc", line, column), err.one_line()
    assert words in err.message


# -- quoted strings: positions and size ----------------------------------------------------------------
@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="ab' ", max_size=30))
def test_every_character_of_a_quoted_value_knows_its_column(content: str) -> None:
    # A '' pair is one quote standing at the first of the two (what errors inside values point at).
    quoted = content.replace("'", "''")
    cmd = only_command(f"DEFINE TOPIC(T) DESCR('{quoted}')")
    descr = cmd.params["DESCR"].values
    assert descr is not None and descr[0].text == content
    start = len("DEFINE TOPIC(T) DESCR('") + 1
    expected, col = [], start
    for ch in content:
        expected.append((1, col))
        col += 2 if ch == "'" else 1
    assert list(descr[0].content) == expected
    assert [descr[0].content[k] for k in range(len(content))] == expected
    if content:
        assert descr[0].content[-1] == expected[-1]


def test_an_unclosed_string_after_a_doubled_quote_points_at_its_opening_quote() -> None:
    err = parse_mqsc("DEFINE TOPIC(T) DESCR('it''s)\n", file="x.mqsc")[0]
    assert isinstance(err, BadCommand) and (err.error.line, err.error.column) == (1, 23)


def test_a_megabyte_value_parses_into_one_value() -> None:
    # Issue 13: a 1 MB quoted value took 313 MB while parsing (a backtracking entry per character).
    big = "x''" * 350_000
    cmd = only_command(f"DEFINE TOPIC(T) DESCR('{big}') TOPICSTR('a')")
    assert value(cmd, "DESCR") == big.replace("''", "'")
    assert value(cmd, "TOPICSTR") == "a"


# -- exports cannot be injected: what is written reads back as written ---------------------------------
def _state_with(texts: list[str]) -> NodeState:
    st = NodeState(node=Node(name="RT"))
    for i, text in enumerate(texts):
        st.topics[f"T{i}"] = TopicObject(node="RT", name=f"T{i}", topicstr=text, descr=text)
        selector = "a = '" + text.replace("'", "''") + "'"
        st.subscriptions[text] = Subscription(node="RT", name=text, topicstr=text, selector=selector)
    return st


def _read_back(dump: str) -> NodeState:
    st = NodeState(node=Node(name="RT"))
    counter = itertools.count(1)
    run = apply_mqsc(
        st, dump, file="dump.mqsc", inserts={"QMNAME": "RT", "FOO": "zz"}, next_seq=lambda: next(counter)
    )
    assert run.error_count == 0 and run.skipped == 0, [e.one_line() for e in run.errors]
    return st


_TRICKY = st.text(alphabet="aB +-*;'(),%#/?_=QMNAEFO\"", min_size=1, max_size=30).filter(
    lambda s: s == s.strip()
)


@settings(max_examples=100, deadline=None)
@given(st.lists(_TRICKY, min_size=1, max_size=4, unique=True))
def test_exported_text_reads_back_unchanged(texts: list[str]) -> None:
    texts = [*texts, "X+QMNAME+Y", "A+FOO+B", "+MISSING+"]  # issue 13: came back 'XRTY', vanished
    st = _state_with(texts)
    again = _read_back(write_mqsc(st))
    assert {t.name: (t.topicstr, t.descr) for t in again.topics.values()} == {
        t.name: (t.topicstr, t.descr) for t in st.topics.values()
    }
    assert {s.name: (s.topicstr, s.selector) for s in again.subscriptions.values()} == {
        s.name: (s.topicstr, s.selector) for s in st.subscriptions.values()
    }


def test_the_literal_marker_is_what_keeps_inserts_out_of_an_export() -> None:
    dump = write_mqsc(_state_with(["X+QMNAME+Y"]))
    assert LITERAL_MARKER in dump.splitlines()[:10]
    without = dump.replace(LITERAL_MARKER + "\n", "")
    assert _read_back(without).topics["T0"].descr == "XRTY"  # a script without the marker has inserts
    assert _read_back(dump).topics["T0"].descr == "X+QMNAME+Y"


def test_a_line_break_in_a_value_is_refused_not_written() -> None:
    st = _state_with(["ok"])
    st.topics["T0"].descr = "x')\nDELETE TOPIC('T0"
    with pytest.raises(InputError, match="line break") as info:
        write_mqsc(st)
    assert info.value.obj == "topic T0"


# -- the dmpmqcfg header --------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["QM 1", "QM!", "", "x" * 49])
def test_a_header_naming_a_queue_manager_mq_would_refuse_is_an_error_at_its_line(name: str) -> None:
    text = f"* Script generated on 2026-11-22\n* Queue manager name: {name}\nDEFINE TOPIC(T) TOPICSTR('a')\n"
    with pytest.raises(InputError) as info:
        dump_header_qmgr(text, file="dump.mqsc")
    assert (info.value.file, info.value.line, info.value.column) == ("dump.mqsc", 2, 22)


def test_only_the_leading_comments_are_the_header() -> None:
    assert dump_header_qmgr("\n* Queue manager name: QM1\nDEFINE TOPIC(T)\n") == "QM1"
    assert dump_header_qmgr("DEFINE TOPIC(T)\n* Queue manager name: QM1\n") is None
