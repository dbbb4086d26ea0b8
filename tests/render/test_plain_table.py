"""The display tables written directly for a pipe are byte for byte what Rich prints there (issue 24: the
text format stays the same, only faster)."""

from __future__ import annotations

import io

from hypothesis import given
from hypothesis import strategies as st
from rich.emoji import Emoji

from mqctl.render.console import _NOT_PLAIN, all_plain, plain_table


def rich_table(title: str, columns: list[str], cells: list[list[str]]) -> str:
    from rich.console import Console
    from rich.table import Table

    buf = io.StringIO()
    table = Table(title=title, title_justify="left")
    for col in columns:
        table.add_column(col.upper())
    for row in cells:
        table.add_row(*row)
    Console(file=buf, highlight=False, width=1_000_000).print(table)
    return buf.getvalue()


def test_a_display_table_is_what_rich_prints() -> None:
    columns = ["qmgr", "name", "topicstr", "cluster", "properties"]
    cells = [
        ["QM1", "SPORT", "/Sport", "CL1", ""],
        ["QM10", "代码", "/Ünï/代码 x", "", "global, maxbytes=64MB"],
        ["E1", "orders.>", "orders.>", "", "url=tcp://e2:7222"],
    ]
    text = plain_table("Topics", columns, cells)
    assert text is not None and text == rich_table("Topics", columns, cells)
    assert plain_table("Topics", columns, []) == rich_table("Topics", columns, [])


def test_what_rich_would_interpret_is_left_to_rich() -> None:
    for value in ("[bold]x", "a:smile:b", "tab\there", "new\nline", " lead", "trail "):
        assert plain_table("Topics", ["name"], [[value]]) is None
    assert plain_table("Subscriptions", ["n"], [["a"]]) is None  # the title would wrap


CHARS = st.characters(blacklist_categories=("Cs",), blacklist_characters="[]:")
VALUES = st.text(CHARS, max_size=12) | st.sampled_from(["", "YES", "/a/b", "代码", "é", "a b", "x=1, y"])


@given(
    columns=st.lists(
        st.sampled_from(["qmgr", "name", "topicstr", "cluster", "wildcard"]), min_size=1, max_size=5
    ),
    data=st.data(),
)
def test_plain_table_equals_rich_whenever_it_answers(columns: list[str], data: st.DataObject) -> None:
    cells = data.draw(st.lists(st.lists(VALUES, min_size=len(columns), max_size=len(columns)), max_size=6))
    text = plain_table("Topics", columns, cells)
    if text is not None:
        assert text == rich_table("Topics", columns, cells)


EDGES = st.text(st.sampled_from(" \t\n\x00\x1f\x7f\x85\xa0\u2003[]:a代"), max_size=4)


@given(st.lists(st.text(CHARS, max_size=6) | EDGES, min_size=1, max_size=6))
def test_the_quick_check_is_the_one_regular_expression(values: list[str]) -> None:
    """``all_plain`` answers in parts what one regular expression over the joined values answers."""
    joined = "\x00".join(values)
    expected = (
        joined.count("\x00") == len(values) - 1
        and _NOT_PLAIN.search(joined) is None
        and all(Emoji.replace(v) == v for v in values)
    )
    assert all_plain(values) == expected
