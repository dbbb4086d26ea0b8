"""MQSC lexing and parsing: runmqsc line rules, inserts, case folding, abbreviations."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mqctl.formats.mqsc import BadCommand, Command, SkippedInsert, parse_mqsc


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
