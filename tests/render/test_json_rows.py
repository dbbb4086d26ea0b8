"""A display's ``-o json`` written by orjson is byte for byte what ``json.dumps(rows, indent=2,
ensure_ascii=False)`` gives (issue 24: the JSON shapes are a contract; only the writer changed)."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stdout
from typing import Any

import sqlalchemy
from hypothesis import given
from hypothesis import strategies as st

from mqctl.render import console
from mqctl.render.console import emit_rows
from mqctl.store import tables

TEXT = st.text(max_size=12) | st.sampled_from(["", "/a/b", "代码", "é", 'q"uote\\', "\x00\x1f\x7f\u2028\x85"])
SCALAR = TEXT | st.none() | st.booleans() | st.integers(min_value=-(2**63), max_value=2**64 - 1)
VALUE = st.recursive(
    SCALAR,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TEXT, inner, max_size=3),
    max_leaves=8,
)
ROW = st.dictionaries(TEXT, VALUE, max_size=6)


def written(rows: list[dict[str, Any]], few: int = 0) -> str:
    """What ``emit_rows`` writes into a text stream; up to ``few`` rows by its own writer, more through
    orjson (0: orjson whatever the number)."""
    buf = io.StringIO()
    saved = console.FEW_ROWS
    console.FEW_ROWS = few
    try:
        with redirect_stdout(buf):
            emit_rows(rows)
    finally:
        console.FEW_ROWS = saved
    return buf.getvalue()


def written_bytes(rows: list[dict[str, Any]], encoding: str = "utf-8") -> bytes:
    """What ``emit_rows`` writes into a text stream over bytes (as a pipe's), in ``encoding``, after a line
    already written as text (it must come first)."""
    raw = io.BytesIO()
    stream = io.TextIOWrapper(raw, encoding=encoding, errors="backslashreplace")
    saved = console.FEW_ROWS
    console.FEW_ROWS = 0
    try:
        with redirect_stdout(stream):
            print("first")
            emit_rows(rows)
            print("last")
    finally:
        console.FEW_ROWS = saved
    stream.flush()
    return raw.getvalue()


def expected(rows: list[dict[str, Any]]) -> str:
    """json.dumps's text, what a terminal acts on escaped (issue 33: ``safe_text.json_text``)."""
    from mqctl.render.safe_text import json_text

    return json_text(json.dumps(rows, indent=2, ensure_ascii=False)) + "\n"


@given(st.lists(ROW, max_size=5))
def test_rows_are_the_bytes_of_json_dumps(rows: list[dict[str, Any]]) -> None:
    assert written(rows) == expected(rows)


@given(st.lists(ROW, max_size=5))
def test_a_few_rows_are_the_same_bytes_without_orjson(rows: list[dict[str, Any]]) -> None:
    """Up to ``FEW_ROWS`` rows are written without importing orjson: the same bytes."""
    assert written(rows, few=5) == expected(rows)


@given(st.lists(ROW, max_size=5), st.sampled_from(["utf-8", "UTF8", "latin-1", "ascii"]))
def test_rows_under_a_text_stream_are_its_bytes(rows: list[dict[str, Any]], encoding: str) -> None:
    """Into a UTF-8 stream orjson's bytes go under the text layer: the bytes its text would give, in
    order with what the stream already holds; into any other encoding, the text goes through it."""
    text = "first\n" + expected(rows) + "last\n"
    assert written_bytes(rows, encoding) == text.encode(encoding, "backslashreplace")


def test_a_refused_chunk_under_a_text_stream_keeps_its_place() -> None:
    """A chunk orjson refuses is written as text between chunks written as bytes: the order holds."""
    rows: list[dict[str, Any]] = [{"name": "A"}, {"name": "B", "seq": 2**70}, {"name": "代码 C"}]
    saved = console.ROWS_CHUNK
    console.ROWS_CHUNK = 1
    try:
        assert written_bytes(rows) == ("first\n" + expected(rows) + "last\n").encode()
    finally:
        console.ROWS_CHUNK = saved


@given(st.lists(ROW, min_size=1, max_size=9), st.integers(min_value=1, max_value=4))
def test_rows_in_chunks_are_one_json_list(rows: list[dict[str, Any]], chunk: int) -> None:
    """However many chunks the rows are written in, the list is one document, as json.dumps writes it."""
    saved = console.ROWS_CHUNK
    console.ROWS_CHUNK = chunk
    try:
        assert written(rows) == expected(rows)
    finally:
        console.ROWS_CHUNK = saved


def test_what_orjson_refuses_is_written_by_the_standard_rules() -> None:
    """A lone surrogate, an integer beyond 64 bits, a key that is not text: json.dumps's bytes still (the
    chunk holding one goes through the standard library's rules, the others through orjson)."""
    rows: list[dict[str, Any]] = [
        {"name": "A", "seq": 1},
        {"name": "bad \ud800 text", "seq": 2},
        {"name": "B", "seq": 2**70},
        {"name": "C", "props": {1: "one"}},
        {"name": "D", "seq": 4},
    ]
    saved = console.ROWS_CHUNK
    console.ROWS_CHUNK = 2
    try:
        assert written(rows) == expected(rows)
    finally:
        console.ROWS_CHUNK = saved
    assert written([]) == "[]\n"


def test_the_store_has_no_floating_point_column() -> None:
    """orjson writes a float's exponent unlike Python (1e16 is "1e16", not "1e+16"): ``emit_rows`` relies
    on the read models' rows holding none, which holds while no column of the store is one."""
    floats = [
        f"{table.name}.{column.name}"
        for table in tables.metadata.sorted_tables
        for column in table.columns
        if isinstance(column.type, sqlalchemy.Float | sqlalchemy.Numeric)
    ]
    assert floats == []
