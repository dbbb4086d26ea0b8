"""MQSC lexer: file text -> logical commands (runmqsc line rules) -> tokens that remember their position.

Line rules, as IBM documents them for runmqsc input files ("MQSC input file syntax", "Building command
scripts"):

- each command starts on a new line; blank lines and lines with ``*`` in column 1 are ignored, also in
  the middle of a continued command ("the command continues with the next line that is not a comment
  line or blank line");
- if the last non-blank character of a line is ``+`` the command continues with the first non-blank
  character of the next line; if it is ``-`` it continues with column 1 of the next line (blanks
  kept); either may stand inside a quoted string; blanks before the ``+``/``-`` are kept;
- a final ``;`` (outside quotes) ends the command even after a continued line;
- ``END`` on its own ends the input.

Every character of a logical command keeps the (line, column) it came from, so that errors found
later (by the parser or a domain check) point into the file.
"""

from __future__ import annotations

import re
from array import array
from bisect import bisect_right
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import NamedTuple

from mqctl.domain.errors import InputError

Pos = tuple[int, int]
"""(line, column), both 1-based."""

INSERT = re.compile(r"\+([A-Za-z][A-Za-z0-9_]*)\+")


Span = tuple[int, int, int, int]
"""(first index in the text, line, column, step): the characters from that index up to the next span's
stand at (line, column + step * k); step 0 for an inserted value, whose characters all point at the insert."""


@dataclass(frozen=True, slots=True)
class Logical:
    """One command reassembled from its physical lines."""

    text: str
    spans: tuple[Span, ...]
    """Where the characters of ``text`` come from, a run per physical line or insert (see ``Span``).
    Runs, not one tuple per character: a large import would otherwise allocate ~100 bytes per character."""
    lines: tuple[str, ...]
    """The physical lines it came from (comments excluded), for the runmqsc-style echo."""
    line: int
    error: InputError | None = None
    """Set when the command could not be assembled (continued past the end of the file)."""

    def pos(self, index: int) -> Pos:
        """Position of character ``index``; past the end, just after the last character."""
        n = len(self.text)
        if n == 0 or not self.spans:
            return (self.line, 1)
        if index >= n:
            line, col = self.pos(n - 1)
            return (line, col + 1)
        spans = self.spans
        if len(spans) == 1:
            start, line, col, step = spans[0]
        else:
            k = bisect_right(spans, index, key=_span_start) - 1
            start, line, col, step = spans[max(k, 0)]
        return (line, col + step * (index - start))

    @property
    def positions(self) -> tuple[Pos, ...]:
        """One position per character of ``text`` (materialised: for errors and tests, not hot paths)."""
        return tuple(self.pos(i) for i in range(len(self.text)))

    def spans_between(self, begin: int, end: int, at: int) -> list[Span]:
        """The spans of characters ``begin..end-1``, re-based to start at index ``at`` of a new text."""
        if begin >= end:
            return []
        out: list[Span] = []
        for k, (start, line, col, step) in enumerate(self.spans):
            stop = self.spans[k + 1][0] if k + 1 < len(self.spans) else len(self.text)
            lo, hi = max(start, begin), min(stop, end)
            if lo < hi:
                out.append((at + lo - begin, line, col + step * (lo - start), step))
        return out


def _span_start(span: Span) -> int:
    return span[0]


class Content:
    """Positions of the characters of a token or value, computed on demand from its command's spans.

    Behaves as a read-only sequence of ``Pos`` (``len``, indexing, iteration, equality); only error
    messages ever read it, so nothing per character is built while parsing.
    """

    __slots__ = ("indices", "logical")

    def __init__(self, logical: Logical, indices: Sequence[int]) -> None:
        self.logical = logical
        self.indices = indices
        """Indices into ``logical.text``."""

    def __len__(self) -> int:
        return len(self.indices)

    def __getitem__(self, k: int) -> Pos:
        return self.logical.pos(self.indices[k])

    def __iter__(self) -> Iterator[Pos]:
        return (self.logical.pos(i) for i in self.indices)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Content):
            return tuple(self) == tuple(other)
        if isinstance(other, tuple):
            return tuple(self) == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return repr(tuple(self))


LITERAL_MARKER = "* mqctl: literal text, +NAME+ is not an insert in this file"
"""A header comment (mqctl's exports write it) that turns insert expansion off for the whole file, so that
``X+QMNAME+Y`` in an exported DESCR, TOPICSTR, selector or name reads back as written. Real runmqsc
sees a comment."""


def header_comments(text: str) -> Iterator[tuple[int, str]]:
    """The leading comment lines of a script (blank lines skipped) with their numbers: its header."""
    start = number = 0
    while start < len(text):
        end = text.find("\n", start)
        end = len(text) if end < 0 else end
        number += 1
        line = text[start:end].rstrip("\r")
        start = end + 1
        if line.startswith("*"):
            yield number, line
        elif line.strip():
            return


def has_literal_marker(text: str) -> bool:
    """Does the header hold ``LITERAL_MARKER`` (any case, blanks around it ignored)?"""
    marker = LITERAL_MARKER.casefold()
    return any(line.strip().casefold() == marker for _, line in header_comments(text))


def split_commands(text: str, *, file: str | None = None) -> list[Logical]:
    """Split a script into logical commands; stops after ``END``. Never raises: see ``Logical.error``."""
    out: list[Logical] = []
    chars: list[str] = []
    spans: list[Span] = []
    length = 0
    phys: list[str] = []
    start = 0
    pending: str | None = None
    pending_pos: Pos = (0, 0)
    for number, raw in enumerate(text.splitlines(), start=1):
        whole = raw.rstrip()
        if not whole or raw[0] == "*":
            continue
        if pending is None:
            if whole[-1] in "dD" and whole.strip().upper() == "END":
                out.append(Logical("END", ((0, number, raw.index(raw.strip()[0]) + 1, 1),), (raw,), number))
                return out
            if whole[-1] not in "+-;":  # a command on one line, the usual case: what the rules below give
                out.append(Logical(whole, ((0, number, 1, 1),), (raw,), number))
                continue
            start = number
        offset = len(raw) - len(raw.lstrip()) if pending == "+" else 0
        body = raw[offset:]
        stripped = body.rstrip()
        last = stripped[-1] if stripped else ""
        cont: str | None = None
        segment = body
        if last in "+-":
            cont = last
            segment = stripped[:-1]
            pending_pos = (number, offset + len(stripped))
        elif last == ";" and _quotes_balanced("".join(chars), stripped[:-1]):
            segment = stripped[:-1]
        else:
            segment = stripped
        if segment:
            chars.append(segment)
            spans.append((length, number, offset + 1, 1))
            length += len(segment)
        phys.append(raw)
        pending = cont
        if cont is None:
            out.append(Logical("".join(chars), tuple(spans), tuple(phys), start))
            chars, spans, phys, length = [], [], [], 0
    if pending is not None:
        err = InputError(
            f"the last command ends with the continuation character {pending!r} but the file ends; "
            "expected another line (remove the trailing continuation character)",
            file=file,
            line=pending_pos[0],
            column=pending_pos[1],
        )
        out.append(Logical("".join(chars), tuple(spans), tuple(phys), start, error=err))
    return out


def _quotes_balanced(before: str, segment: str) -> bool:
    return (before.count("'") + segment.count("'")) % 2 == 0


def apply_inserts(logical: Logical, inserts: Mapping[str, str]) -> tuple[Logical, list[str]]:
    """Replace every ``+NAME+`` by its value; returns the new command and the names that have no value.

    Lookup is exact first, then upper case (``+qmname+`` finds ``QMNAME``). Inserted characters take
    the position of the insert's first ``+``, so errors in an inserted value point at the insert.
    Inserts are recognised inside quoted strings too (``CHANNEL('+AUTOCL+_+QMNAME+')``), so a literal
    ``+WORD+`` in a string counts as an insert — except in a script whose header holds
    ``LITERAL_MARKER`` (mqctl's exports), which the parser does not pass through here at all.
    """
    if "+" not in logical.text:
        return logical, []
    missing: list[str] = []
    chars: list[str] = []
    spans: list[Span] = []
    length = 0
    last = 0
    replaced = False
    for m in INSERT.finditer(logical.text):
        name = m.group(1)
        value = inserts.get(name, inserts.get(name.upper()))
        if value is None:
            missing.append(name)
            continue
        replaced = True
        chars.append(logical.text[last : m.start()])
        spans.extend(logical.spans_between(last, m.start(), length))
        length += m.start() - last
        if value:
            line, col = logical.pos(m.start())
            chars.append(value)
            spans.append((length, line, col, 0))
            length += len(value)
        last = m.end()
    if not replaced:  # a '+' that is no insert (a TOPICSTR's wildcard): the command as it was
        return logical, missing
    chars.append(logical.text[last:])
    spans.extend(logical.spans_between(last, len(logical.text), length))
    new = Logical("".join(chars), tuple(spans), logical.lines, logical.line, logical.error)
    return new, missing


class Kind(Enum):
    WORD = "word"
    STRING = "string"
    LPAREN = "("
    RPAREN = ")"


WORD, STRING, LPAREN, RPAREN = Kind.WORD, Kind.STRING, Kind.LPAREN, Kind.RPAREN
"""The kinds as module constants: reading a member through its enum class is a metaclass lookup (about
ten times a global's), and the lexer and parser test kinds several times per token."""


class Token(NamedTuple):
    """A named tuple rather than a frozen dataclass, positions computed on demand: an import builds a
    dozen tokens per statement and reads the position of few of them."""

    kind: Kind
    text: str
    """Words as typed (not yet folded); strings with the quotes removed and '' undoubled."""
    pos: Pos
    indices: Sequence[int]
    """Index in the command text of each character of ``text`` (a ``range``, or ``Undoubled``)."""
    logical: Logical

    @property
    def content(self) -> Content:
        """Position of each character of ``text`` in the file."""
        return Content(self.logical, self.indices)


_new_token = tuple.__new__
"""Builds a ``Token`` from a tuple at C speed (the generated ``Token.__new__`` is Python code)."""

_TOKEN = re.compile(r"([ \t,]*)(?:(\()|(\))|('[^']*+(?:''[^']*+)*+')|([^ \t,()']+)|('))")
"""Blanks/commas before a token, then: ( | ) | a quoted string ('' inside) | a word | a quote that is
never closed. Every token group is non-empty when it matches, so ``findall`` tells which one did, and
the matches are contiguous (trailing blanks aside), so positions are running sums of their lengths.

The string's repetitions are possessive (``*+``): a quoted string can be read only one way, and a plain
``'(?:[^']|'')*'`` makes ``re`` keep a backtracking entry per character (a 1 MB value cost 313 MB,
20 MB cost 4.9 GB)."""


class Undoubled(Sequence[int]):
    """Indices of the characters of a quoted string holding ``''`` pairs: every index of ``text`` from
    ``start`` to ``stop`` except the second quote of each pair (a pair stands at its first quote).

    Computed only when asked (errors are rare): parsing a value costs nothing per character.
    """

    __slots__ = ("text", "start", "stop", "_kept_before")

    def __init__(self, text: str, start: int, stop: int) -> None:
        self.text, self.start, self.stop = text, start, stop
        self._kept_before: array[int] | None = None

    def _seconds(self) -> Iterator[int]:
        """Positions of the second quote of each pair, in order."""
        at = self.text.find("''", self.start, self.stop)
        while at >= 0:
            yield at + 1
            at = self.text.find("''", at + 2, self.stop)

    def _table(self) -> array[int]:
        """For the j-th skipped position q_j: how many kept indices precede it (q_j - start - j)."""
        if self._kept_before is None:
            self._kept_before = array("q", (q - self.start - j for j, q in enumerate(self._seconds())))
        return self._kept_before

    def __len__(self) -> int:
        return self.stop - self.start - len(self._table())

    def __getitem__(self, k: int) -> int:  # type: ignore[override]
        size = len(self)
        if k < 0:
            k += size
        if not 0 <= k < size:
            raise IndexError(k)
        return self.start + k + bisect_right(self._table(), k)

    def __iter__(self) -> Iterator[int]:
        at = self.start
        for second in self._seconds():
            yield from range(at, second)
            at = second + 1
        yield from range(at, self.stop)


def tokenize(logical: Logical, *, file: str | None = None) -> list[Token]:
    """Tokens of one command: blanks and commas separate; quoted strings keep blanks and case.

    One ``findall`` and no per-character work (positions are running sums of the match lengths,
    characters are kept as index ranges): this runs once per statement of an import.
    """
    text = logical.text
    tokens: list[Token] = []
    append = tokens.append
    new = _new_token
    spans = logical.spans
    # one physical line (the usual case): a position is (line, base + index), computed inline
    line, base = (spans[0][1], spans[0][2] - spans[0][0]) if len(spans) == 1 else (0, 0)
    pos = logical.pos if len(spans) != 1 else None
    i = 0
    for sep, lparen, rparen, string, word, quote in _TOKEN.findall(text):
        i += len(sep)
        at = pos(i) if pos else (line, base + i)
        if word:
            end = i + len(word)
            append(new(Token, (WORD, word, at, range(i, end), logical)))
            i = end
        elif string:
            end = i + len(string)
            inner = string[1:-1]
            if "''" not in inner:
                append(new(Token, (STRING, inner, at, range(i + 1, end - 1), logical)))
            else:
                indices = Undoubled(text, i + 1, end - 1)
                append(new(Token, (STRING, inner.replace("''", "'"), at, indices, logical)))
            i = end
        elif quote:
            raise InputError(
                "unbalanced quotes: the string that starts here has no closing quote; "
                "expected a closing ' (write '' for a quote inside a string)",
                file=file,
                line=at[0],
                column=at[1],
            )
        else:
            append(new(Token, (LPAREN if lparen else RPAREN, lparen or rparen, at, (i,), logical)))
            i += 1
    return tokens
