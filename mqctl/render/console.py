"""Rich consoles and the display tables: rows (dicts) in, a table for people or JSON for programs out."""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from mqctl.render.safe_text import json_text

if TYPE_CHECKING:
    from rich.console import Console


def console() -> Console:
    """Rich output; when stdout is not a terminal (a pipe, a file) tables are never cut to a width."""
    from rich.console import Console

    if sys.stdout.isatty():
        return Console(highlight=False)
    return Console(highlight=False, width=1_000_000)


def plain_output() -> bool:
    """Whether what Rich prints on stdout is plain text (a pipe or a file: no terminal, no colour).

    Told without importing Rich when stdout is no terminal and nothing Rich reads could make it act as
    one (``FORCE_COLOR``, ``TTY_COMPATIBLE``, IDLE, Jupyter): a piped display then never loads Rich.
    Otherwise Rich's own console answers."""
    environ = os.environ
    if not (
        "FORCE_COLOR" in environ
        or "TTY_COMPATIBLE" in environ
        or "idlelib" in sys.modules
        or "IPython" in sys.modules
        or _isatty()
    ):
        return True
    out = console()
    return not out.is_terminal and out.color_system is None


def _isatty() -> bool:
    """stdout is a terminal, as Rich asks it (a stream without ``isatty``, or closed, is not)."""
    isatty = getattr(sys.stdout, "isatty", None)
    try:
        return False if isatty is None else bool(isatty())
    except ValueError:
        return False


def err_console() -> Console:
    from rich.console import Console

    return Console(stderr=True, highlight=False)


def emit_json(data: Any) -> None:
    """``data`` as indented JSON. A list is written item by item (the bytes ``json.dumps`` would give): a
    display of 50,000 rows never becomes one string of tens of megabytes."""
    if not isinstance(data, list) or not data:
        sys.stdout.write(json_text(json.dumps(data, indent=2, ensure_ascii=False)) + "\n")
        return
    write = sys.stdout.write
    chunk: list[str] = []
    for i, item in enumerate(data):
        chunk.append("[\n  " if i == 0 else ",\n  ")
        _indented(item, "  ", chunk)
        if len(chunk) >= 8192:
            write("".join(chunk))
            chunk.clear()
    chunk.append("\n]\n")
    write("".join(chunk))


_encode = json.encoder.encode_basestring  # the C encoder of json.dumps(..., ensure_ascii=False)


def _quote(text: str) -> str:
    """A JSON string as ``json.dumps(..., ensure_ascii=False)`` writes it, what a terminal would act on
    escaped (``safe_text.json_text``)."""
    quoted = _encode(text)
    return quoted if quoted.isascii() and "\x7f" not in quoted else json_text(quoted)


_ACTIVE_UTF8 = re.compile(rb"\x7f|\xc2[\x80-\x9f]|\xd8\x9c|\xe2\x80[\x8e\x8f\xa8-\xae]|\xe2\x81[\xa6-\xa9]")
"""In UTF-8, what ``json_text`` escapes (DEL, C1, bidirectional controls, separators): orjson writes them
raw."""


def _may_act(data: bytes) -> bool:
    """Whether ``data`` holds a lead byte of what ``_ACTIVE_UTF8`` finds: substring searches (memchr, 0.02 s
    over 33 MB) before the regular expression (0.4 s)."""
    return any(lead in data for lead in (b"\x7f", b"\xc2", b"\xd8\x9c", b"\xe2\x80", b"\xe2\x81"))


def _indented(value: Any, indent: str, out: list[str]) -> None:
    """Append what ``json.dumps(value, indent=2, ensure_ascii=False)`` gives at nesting ``indent``: the
    rows' strings, None, booleans, integers, lists and maps directly (the standard encoder's indented
    mode is pure Python); anything else through ``json.dumps`` itself."""
    if isinstance(value, str):
        out.append(_quote(value))
    elif value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif type(value) is int:
        out.append(int.__repr__(value))
    elif isinstance(value, dict) and (not value or set(map(type, value)) == {str}):
        if not value:
            out.append("{}")
            return
        inner = indent + "  "
        sep = "{\n" + inner
        for key, item in value.items():
            # a text or null value is appended here, not through a call (most of a display's values)
            if type(item) is str:
                out.append(sep + _quote(key) + ": " + _quote(item))
            elif item is None:
                out.append(sep + _quote(key) + ": null")
            else:
                out.append(sep + _quote(key) + ": ")
                _indented(item, inner, out)
            sep = ",\n" + inner
        out.append("\n" + indent + "}")
    elif isinstance(value, list):
        if not value:
            out.append("[]")
            return
        inner = indent + "  "
        sep = "[\n" + inner
        for item in value:
            if type(item) is str:
                out.append(sep + _quote(item))
            else:
                out.append(sep)
                _indented(item, inner, out)
            sep = ",\n" + inner
        out.append("\n" + indent + "]")
    else:
        out.append(json_text(json.dumps(value, indent=2, ensure_ascii=False)).replace("\n", "\n" + indent))


ROWS_CHUNK = 4096
"""Rows serialised at once by ``emit_rows``: a display of 500,000 rows is never one string."""


FEW_ROWS = 500
"""Up to this many rows ``emit_rows`` writes them itself, by the standard library's rules: importing
orjson costs more (~10-20 ms of CPU) than writing a few hundred rows in Python (~10 us each), and
``display sub --qmgr QM -o json`` is a hundred."""


def emit_rows(rows: Sequence[dict[str, Any]]) -> None:
    """Display rows as ``emit_json`` writes them (``json.dumps(rows, indent=2, ensure_ascii=False)``),
    serialised by orjson: the standard library indents in pure Python, ~0.7 s for the 35 MB of
    ``display topic '*' -o json`` over an estate, orjson in C in a tenth of that.

    Only for the read models' rows: text, integers, booleans, null, and lists and maps of them (the store
    has no floating-point column, and orjson writes floats' exponents unlike Python). On those orjson gives
    the standard library's bytes (its escapes are the same; ``tests/render/test_json_rows.py``). What it
    refuses (text with a lone surrogate, an integer beyond 64 bits, a key that is not text) is written by
    the standard library's rules, a chunk at a time."""
    if not rows:
        sys.stdout.write("[]\n")
        return
    if len(rows) <= FEW_ROWS:
        sys.stdout.write(_indented_text(rows) + "\n")
        return
    import orjson

    text_write, binary = sys.stdout.write, _utf8_buffer(sys.stdout)
    dumps, indent2 = orjson.dumps, orjson.OPT_INDENT_2
    sep = "[\n"
    for start in range(0, len(rows), ROWS_CHUNK):
        chunk = rows[start : start + ROWS_CHUNK]
        try:
            data = dumps(chunk, option=indent2)
        except TypeError:  # orjson.JSONEncodeError is a TypeError
            text_write(sep + _indented_text(chunk)[2:-2])
        else:
            if _may_act(data) and _ACTIVE_UTF8.search(data):  # rare: escaped as json_text does
                data = json_text(data.decode()).encode()
            # "[\n  row,\n  row\n]" without its brackets: rows indented once
            if binary is None:
                text_write(sep + data[2:-2].decode())
            else:
                sys.stdout.flush()  # what the text layer holds goes first
                binary.write(sep.encode())
                binary.write(memoryview(data)[2:-2])
        sep = ",\n"
    text_write("\n]\n")


def _utf8_buffer(stream: Any) -> Any:
    """The binary stream under ``stream`` when writing UTF-8 bytes there gives the bytes that writing
    their text to ``stream`` would (a UTF-8 text stream without newline translation), else None.

    orjson gives UTF-8: written under the text layer, 35 MB of ``display topic '*' -o json`` are neither
    decoded nor encoded again (~0.03 s). Whatever the encoding's error handler, valid UTF-8 text (all
    that orjson writes) encodes the same."""
    binary = getattr(stream, "buffer", None)
    encoding = getattr(stream, "encoding", None)
    if binary is None or not isinstance(encoding, str) or os.linesep != "\n":
        return None
    import codecs

    try:
        name = codecs.lookup(encoding).name
    except LookupError:
        return None
    return binary if name == "utf-8" else None


def _indented_text(data: Sequence[Any]) -> str:
    """``json.dumps(data, indent=2, ensure_ascii=False)`` for a non-empty list (by ``_indented``)."""
    out: list[str] = []
    for i, item in enumerate(data):
        out.append("[\n  " if i == 0 else ",\n  ")
        _indented(item, "  ", out)
    out.append("\n]")
    return "".join(out)


def show_table(title: str, columns: Sequence[str], rows: Sequence[dict[str, Any]], as_json: bool) -> None:
    """Rows as JSON, or as a table of ``columns``; a column that no row has (an MQ attribute when only EMS
    rows are shown, an EMS one when only MQ rows are) is left out. A row without a column's key shows a
    blank cell there."""
    if as_json:
        emit_rows(rows)
        return
    if rows:
        columns = [col for col in columns if any(col in row for row in rows)]
    show_cells(title, columns, [row_cells(row, columns) for row in rows])


def show_tuples(title: str, columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
    """The table ``show_table`` prints for the same rows given as tuples of ``columns``' values, None
    where a row has no such column (a blank cell; a column no row has is left out): what a read model
    that builds no dict per row gives (``display topic``'s table over an estate is 50,000 rows)."""
    keep = list(range(len(columns)))
    if rows:
        keep = [i for i in keep if any(row[i] is not None for row in rows)]
    if len(keep) < len(columns):
        rows = [[row[i] for i in keep] for row in rows]
    cells = [[v if type(v) is str else cell(v) for v in row] for row in rows]
    show_cells(title, [columns[i] for i in keep], cells)


def show_cells(title: str, columns: Sequence[str], cells: list[list[str]]) -> None:
    """A table of text cells under ``columns``: written directly into a pipe or a file when that gives
    Rich's bytes (``plain_table``), else printed by Rich. An empty table is a negative answer: its line
    on stderr."""
    if plain_output():
        text = plain_table(title, columns, cells)
        if text is not None:
            sys.stdout.write(text)
            if not cells:
                sys.stderr.write(f"no {title.lower()} match\n")
            return
    from rich.table import Table

    from mqctl.render.safe_text import text as cell_text

    out = console()
    table = Table(title=cell_text(title), title_justify="left")
    for col in columns:
        table.add_column(cell_text(col.upper()))
    for row in cells:  # Text: a value is never read as markup, its controls shown escaped
        table.add_row(*(cell_text(v) for v in row))
    out.print(table)
    if not cells:
        sys.stderr.write(f"no {title.lower()} match\n")


_ACTIVE = "\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ud800-\udfff"
"""What ``safe_text.safe`` escapes beyond C0 (a table holding any goes through it)."""
_NOT_PLAIN = re.compile(rf"[\[\]\x01-\x1f{_ACTIVE}]|^\s|\s$|\x00\s|\s\x00")
"""Over the values joined by NUL: what Rich could read as markup, control characters, and a value's edge
spaces. A table holding any of these is left to Rich (as is one holding an emoji code, ``:smile:``).
``all_plain`` answers the same in parts (one alternation over megabytes costs 0.1 s)."""

_MARKUP_OR_CONTROL = re.compile(rf"[\[\]\x01-\x1f{_ACTIVE}]")
_EDGE_SPACE = re.compile(r"\x00\s|\s\x00")

_EMOJI_LIKE = re.compile(r":\S*?:")
"""What Rich's emoji codes look like (``:smile:``); only text that has one is checked against Rich's list."""


def all_plain(values: list[str]) -> bool:
    """Whether Rich would print every value as it is: none matches ``_NOT_PLAIN`` once joined, told by a
    character class and substring searches (C loops over the 3 MB of a display of an estate), and none
    holds an emoji code."""
    joined = "\x00".join(values)
    if joined.count("\x00") != len(values) - 1 or _MARKUP_OR_CONTROL.search(joined):
        return False
    if joined[:1].isspace() or joined[-1:].isspace():
        return False
    if joined.isascii():  # no control character is left: an ASCII white space is the space itself
        if "\x00 " in joined or " \x00" in joined:
            return False
    elif _EDGE_SPACE.search(joined):
        return False
    if not _EMOJI_LIKE.search(joined):
        return True
    from rich.emoji import Emoji

    return all(Emoji.replace(v) == v for v in values if ":" in v)


def plain_table(title: str, columns: Sequence[str], cells: list[list[str]]) -> str | None:
    """The bytes Rich prints for this table on a console of unlimited width (a pipe, a file), built
    directly: Rich measures and renders every cell through its layout engine, minutes for 50,000 rows.
    None when a cell holds what Rich would interpret (markup, emoji codes, control characters) or the
    title is wider than the table: those go through Rich."""
    headers = [col.upper() for col in columns]
    values = [v for row in cells for v in row if v]
    if not all_plain([title, *headers, *values]):
        return None
    ascii_only = "".join([title, *headers, *values]).isascii()
    cell_len: Callable[[str], int] = len  # an ASCII character is one cell (Rich's measure is not loaded)
    if not ascii_only:
        from rich.cells import cell_len as rich_cell_len

        cell_len = rich_cell_len
    by_column = list(zip(*cells, strict=True)) if cells else [() for _ in headers]
    widths = [
        max([cell_len(head), *map(cell_len, col)]) for head, col in zip(headers, by_column, strict=True)
    ]
    total = sum(widths) + 3 * len(widths) + 1
    if cell_len(title) > total:
        return None
    # an ASCII row is one %-formatting (C speed; %s pads by code points, which are cells in ASCII)
    row_format = "│ " + " │ ".join(f"%-{w}s" for w in widths) + " │\n" if ascii_only else ""

    def line(values: Sequence[str], bar: str) -> str:
        if ascii_only:
            parts = [v.ljust(w) for v, w in zip(values, widths, strict=True)]
        else:
            parts = [v + " " * (w - cell_len(v)) for v, w in zip(values, widths, strict=True)]
        return bar + " " + f" {bar} ".join(parts) + " " + bar + "\n"

    def rule(left: str, mid: str, right: str, fill: str) -> str:
        return left + mid.join(fill * (w + 2) for w in widths) + right + "\n"

    out = [
        title + " " * (total - cell_len(title)) + "\n",
        rule("┏", "┳", "┓", "━"),
        line(headers, "┃"),
        rule("┡", "╇", "┩", "━"),
    ]
    if ascii_only:
        out.extend(row_format % tuple(row) for row in cells)
    else:
        out.extend(line(row, "│") for row in cells)
    out.append(rule("└", "┴", "┘", "─"))
    return "".join(out)


def row_cells(row: dict[str, Any], columns: Sequence[str]) -> list[str]:
    """A row's cells in ``columns`` (a text value is its own cell: most are)."""
    return [v if type(v) is str else cell(v) for v in map(row.get, columns)]


def cell(value: Any) -> str:
    """One table cell: blank for None, YES/NO, lists and property maps on one line."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "YES" if value else "NO"
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    if isinstance(value, dict):
        return ", ".join(k if v is None else f"{k}={v}" for k, v in value.items())
    return str(value)
