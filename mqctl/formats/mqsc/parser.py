"""MQSC parser: logical commands -> ``Command`` values (verb, object type, name, parameters).

Pure and total: ``parse_mqsc`` never raises for bad input; each item says what it is (a command, a
command skipped for a missing insert, or a command with a syntax error carrying its ``InputError``).
Unquoted names and values are folded to upper case, quoted ones kept as typed.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import NamedTuple

from mqctl.domain.errors import InputError, clip
from mqctl.domain.suggest import did_you_mean
from mqctl.formats.mqsc.lexer import (
    LPAREN,
    RPAREN,
    STRING,
    WORD,
    Content,
    Logical,
    Pos,
    Token,
    Undoubled,
    apply_inserts,
    has_literal_marker,
    split_commands,
    tokenize,
)
from mqctl.formats.mqsc.vocabulary import NOUNS, STRICT_VERBS, VERBS


class Value(NamedTuple):
    """One value between parentheses (a named tuple: immutable, and cheap to build by the hundred thousand)."""

    text: str
    quoted: bool
    pos: Pos
    content: Content
    """Position of each character of ``text`` (for errors inside the value, such as a topic string)."""

    def at(self, index: int) -> Pos:
        """File position of character ``index`` (0-based) of the value; past the end, just after it."""
        if 0 <= index < len(self.content):
            return self.content[index]
        if index >= len(self.content) and self.content:
            line, col = self.content[-1]
            return (line, col + index - len(self.content) + 1)
        return self.pos


class Param(NamedTuple):
    """One parameter: ``KEYWORD`` or ``KEYWORD(values)``."""

    keyword: str
    values: tuple[Value, ...] | None
    """None for a keyword-only parameter (REPLACE, SHARE, ...)."""
    pos: Pos


@dataclass(frozen=True, slots=True)
class Command:
    verb: str
    noun: str
    name: Value | None
    params: dict[str, Param]
    number: int
    lines: tuple[str, ...]
    line: int
    pos: Pos

    @property
    def name_pos(self) -> Pos:
        """Where the object name stands (the command start when there is none)."""
        return self.name.pos if self.name is not None else self.pos


@dataclass(frozen=True, slots=True)
class SkippedInsert:
    """A command holding ``+NAME+`` inserts with no value: skipped with a warning, as the brief asks."""

    number: int
    lines: tuple[str, ...]
    line: int
    missing: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class BadCommand:
    """A command that does not parse."""

    number: int
    lines: tuple[str, ...]
    line: int
    error: InputError


ParsedItem = Command | SkippedInsert | BadCommand

WORD_CUTOFF = 0.75
"""How close a mistyped verb or object type must be to be named (``DEFIN``: DEFINE, 0.91; ``server`` is no
RVERIFY, 0.62): a command of another language is not a typing mistake."""
_new = tuple.__new__
"""Builds a ``Value``/``Param`` from a tuple at C speed (their generated ``__new__`` is Python code)."""


def parse_mqsc(
    text: str, *, file: str | None = None, inserts: Mapping[str, str] | None = None
) -> list[ParsedItem]:
    """Parse a whole script. ``END`` stops it (the END itself is not an item)."""
    return list(iter_mqsc(text, file=file, inserts=inserts))


def iter_mqsc(
    text: str, *, file: str | None = None, inserts: Mapping[str, str] | None = None
) -> Iterator[ParsedItem]:
    """``parse_mqsc`` one command at a time, so that applying can follow parsing (and report progress).

    A script whose header holds ``LITERAL_MARKER`` (mqctl's exports) has no inserts: ``+NAME+`` is text.
    """
    literal = has_literal_marker(text)
    for number, logical in enumerate(split_commands(text, file=file), start=1):
        if logical.error is not None:
            yield BadCommand(number, logical.lines, logical.line, logical.error)
            continue
        resolved, missing = (logical, []) if literal else apply_inserts(logical, inserts or {})
        if missing:
            yield SkippedInsert(number, logical.lines, logical.line, tuple(dict.fromkeys(missing)))
            continue
        try:
            command = parse_command(resolved, number=number, file=file)
        except InputError as err:
            yield BadCommand(number, logical.lines, logical.line, err)
            continue
        if command.verb == "END":
            return
        yield command


def parse_command(logical: Logical, *, number: int, file: str | None = None) -> Command:
    """Parse one logical command; raises ``InputError`` with the file position of the mistake."""
    command = simple_command(logical, number)
    if command is not None:
        return command
    return _Parser(tokenize(logical, file=file), logical, number, file).command()


_PARAM = re.compile(
    r"([ \t,]*)(?:([^ \t,()']+)(?:([ \t,]*\([ \t,]*)(?:('[^']*+(?:''[^']*+)*+')|([^ \t,()']+))([ \t,]*\)))?|([()']))"
)
"""Blanks/commas, then a keyword with at most one value in parentheses (a quoted string or a word), or
one character that starts anything else (a ``(``, ``)`` or ``'`` where a keyword should be). The pieces
are the lexer's (``lexer._TOKEN``): its matches are contiguous too, so positions are running sums."""


def simple_command(logical: Logical, number: int) -> Command | None:
    """The command when every parameter has at most one value and nothing is wrong, else None: the
    ``_Parser`` then reads it (and finds the error). Why: one match per parameter instead of four
    tokens, so the statements of a large import are parsed in about half the time; equal results
    (``tests/formats/test_mqsc_simple.py``)."""
    text = logical.text
    items = _PARAM.findall(text)
    if len(items) < 2:
        return None
    spans = logical.spans
    line, base = (spans[0][1], spans[0][2] - spans[0][0]) if len(spans) == 1 else (0, 0)
    pos = logical.pos if len(spans) != 1 else None
    i = 0
    verb = noun = ""
    first: Pos = (0, 0)
    name: Value | None = None
    params: dict[str, Param] = {}
    new = _new
    for k, (sep, word, opening, string, bare, closing, other) in enumerate(items):
        if other:
            return None
        i += len(sep)
        at = pos(i) if pos else (line, base + i)
        i += len(word)
        value: Value | None = None
        if opening:
            i += len(opening)
            vat = pos(i) if pos else (line, base + i)
            if bare:
                end = i + len(bare)
                value = new(Value, (bare.upper(), False, vat, Content(logical, range(i, end))))
            else:
                end = i + len(string)
                inner = string[1:-1]
                if "''" not in inner:
                    value = new(Value, (inner, True, vat, Content(logical, range(i + 1, end - 1))))
                else:
                    undoubled = Undoubled(text, i + 1, end - 1)
                    value = new(Value, (inner.replace("''", "'"), True, vat, Content(logical, undoubled)))
            i = end + len(closing)
        keyword = word.upper()
        if k > 1:
            if keyword in params:
                return None
            params[keyword] = new(Param, (keyword, None if value is None else (value,), at))
        elif k == 1:
            noun = NOUNS.get(keyword) or ("" if verb in STRICT_VERBS else keyword)
            if not noun:
                return None
            name = value
        else:
            verb = VERBS.get(keyword, "")
            if verb in ("", "END") or value is not None:
                return None
            first = at
    if "REPLACE" in params and "NOREPLACE" in params:
        return None
    return Command(verb, noun, name, params, number, logical.lines, logical.line, first)


class _Parser:
    def __init__(self, tokens: list[Token], logical: Logical, number: int, file: str | None) -> None:
        self.tokens = tokens
        self.logical = logical
        self.number = number
        self.file = file
        self.i = 0

    def error(self, message: str, pos: Pos) -> InputError:
        return InputError(message, file=self.file, line=pos[0], column=pos[1])

    def peek(self) -> Token | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def end_pos(self) -> Pos:
        return self.logical.pos(len(self.logical.text))

    def command(self) -> Command:
        first = self.peek()
        if first is None or first.kind is not WORD:
            pos = first.pos if first else self.end_pos()
            raise self.error("expected an MQSC command such as DEFINE, ALTER, DELETE or DISPLAY", pos)
        verb = VERBS.get(first.text.upper())
        if verb is None:
            verbs = sorted(set(VERBS.values()))
            hint = (
                did_you_mean(first.text, verbs, cutoff=WORD_CUTOFF) or f"; expected one of {', '.join(verbs)}"
            )
            raise self.error(f"unknown command {clip(first.text, 16)!r}{hint}", first.pos)
        self.i += 1
        if verb == "END":
            return Command("END", "", None, {}, self.number, self.logical.lines, self.logical.line, first.pos)
        noun_tok = self.peek()
        if noun_tok is None or noun_tok.kind is not WORD:
            raise self.error(
                f"expected an object type after {verb} (TOPIC, SUB, NAMELIST, CHANNEL, QMGR, ...)",
                noun_tok.pos if noun_tok else self.end_pos(),
            )
        self.i += 1
        noun = NOUNS.get(noun_tok.text.upper())
        if noun is None:
            if verb in STRICT_VERBS:
                hint = did_you_mean(noun_tok.text, set(NOUNS.values()), cutoff=WORD_CUTOFF) or (
                    "; expected TOPIC, SUB, NAMELIST, CHANNEL, QMGR, QLOCAL, ..."
                )
                raise self.error(
                    f"unknown object type {clip(noun_tok.text, 16)!r} after {verb}{hint}", noun_tok.pos
                )
            noun = noun_tok.text.upper()
        name: Value | None = None
        nxt = self.peek()
        if nxt is not None and nxt.kind is LPAREN:
            values = self.values(nxt, noun)
            if len(values) != 1:
                raise self.error(f"expected one {noun} name between the parentheses", values[1].pos)
            name = values[0]
        params: dict[str, Param] = {}
        tokens, n = self.tokens, len(self.tokens)
        while self.i < n:
            tok = tokens[self.i]
            if tok.kind is not WORD:
                raise self.error(f"expected a parameter keyword, found {tok.text!r}", tok.pos)
            self.i += 1
            keyword = tok.text.upper()
            vals: tuple[Value, ...] | None = None
            if self.i < n and tokens[self.i].kind is LPAREN:
                vals = tuple(self.values(tokens[self.i], keyword))
            if keyword in params:
                raise self.error(f"parameter {keyword} is repeated; give each parameter once", tok.pos)
            params[keyword] = _new(Param, (keyword, vals, tok.pos))
        if "REPLACE" in params and "NOREPLACE" in params:
            raise self.error("REPLACE and NOREPLACE cannot both be given", params["NOREPLACE"].pos)
        return Command(
            verb, noun, name, params, self.number, self.logical.lines, self.logical.line, first.pos
        )

    def values(self, lparen: Token, keyword: str) -> list[Value]:
        """Values between ``(`` and its ``)``; nested parentheses (``CONNAME(h(1414))``) stay in the value."""
        self.i += 1
        tokens, n = self.tokens, len(self.tokens)
        values: list[Value] = []
        while True:
            if self.i >= n:
                raise self.error(f"{keyword}: the '(' here has no matching ')'; expected ')'", lparen.pos)
            tok = tokens[self.i]
            self.i += 1
            kind = tok.kind
            if kind is RPAREN:
                break
            if kind is LPAREN:
                if not values:
                    raise self.error(f"{keyword}: unexpected '('; expected a value", tok.pos)
                values[-1] = self.nested(values[-1], tok, keyword)
                continue
            if kind is STRING:
                values.append(_new(Value, (tok.text, True, tok.pos, Content(tok.logical, tok.indices))))
            else:
                values.append(
                    _new(Value, (tok.text.upper(), False, tok.pos, Content(tok.logical, tok.indices)))
                )
        if not values:
            raise self.error(f"{keyword}: expected a value between the parentheses", lparen.pos)
        return values

    def nested(self, value: Value, lparen: Token, keyword: str) -> Value:
        text = [value.text, "("]
        indices = [*value.content.indices, *lparen.content.indices]
        depth = 1
        while depth:
            tok = self.peek()
            if tok is None:
                raise self.error(f"{keyword}: the '(' here has no matching ')'; expected ')'", lparen.pos)
            self.i += 1
            depth += {LPAREN: 1, RPAREN: -1}.get(tok.kind, 0)
            piece = tok.text if tok.kind is not WORD else tok.text.upper()
            text.append(piece)
            indices.extend(tok.content.indices)
        return Value("".join(text), value.quoted, value.pos, Content(self.logical, tuple(indices)))


def echo(number: int, lines: tuple[str, ...]) -> list[str]:
    """runmqsc's echo of a command: its number, then each continuation line under it."""
    out = [f"{number:>6} : {lines[0].strip()}"] if lines else [f"{number:>6} : "]
    out.extend(f"       : {line.strip()}" for line in lines[1:])
    return out
