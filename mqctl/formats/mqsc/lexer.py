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
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from itertools import repeat

from mqctl.domain.errors import InputError

Pos = tuple[int, int]
"""(line, column), both 1-based."""

_INSERT = re.compile(r"\+([A-Za-z][A-Za-z0-9_]*)\+")


@dataclass(frozen=True, slots=True)
class Logical:
    """One command reassembled from its physical lines."""

    text: str
    positions: tuple[Pos, ...]
    """One position per character of ``text``."""
    lines: tuple[str, ...]
    """The physical lines it came from (comments excluded), for the runmqsc-style echo."""
    line: int
    error: InputError | None = None
    """Set when the command could not be assembled (continued past the end of the file)."""

    def pos(self, index: int) -> Pos:
        """Position of character ``index``; past the end, just after the last character."""
        if not self.positions:
            return (self.line, 1)
        if index < len(self.positions):
            return self.positions[index]
        line, col = self.positions[-1]
        return (line, col + 1)


def split_commands(text: str, *, file: str | None = None) -> list[Logical]:
    """Split a script into logical commands; stops after ``END``. Never raises: see ``Logical.error``."""
    out: list[Logical] = []
    chars: list[str] = []
    poss: list[Pos] = []
    phys: list[str] = []
    start = 0
    pending: str | None = None
    pending_pos: Pos = (0, 0)
    for number, raw in enumerate(text.splitlines(), start=1):
        if raw.startswith("*") or not raw.strip():
            continue
        if pending is None and raw.strip().upper() == "END":
            out.append(
                Logical(
                    "END",
                    tuple((number, raw.index(raw.strip()[0]) + 1 + k) for k in range(3)),
                    (raw,),
                    number,
                )
            )
            return out
        if pending is None:
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
        chars.append(segment)
        # zip/range build the per-character positions at C speed (this is the import hot path)
        poss.extend(zip(repeat(number), range(offset + 1, offset + 1 + len(segment))))
        phys.append(raw)
        pending = cont
        if cont is None:
            out.append(Logical("".join(chars), tuple(poss), tuple(phys), start))
            chars, poss, phys = [], [], []
    if pending is not None:
        err = InputError(
            f"the last command ends with the continuation character {pending!r} but the file ends; "
            "expected another line (remove the trailing continuation character)",
            file=file,
            line=pending_pos[0],
            column=pending_pos[1],
        )
        out.append(Logical("".join(chars), tuple(poss), tuple(phys), start, error=err))
    return out


def _quotes_balanced(before: str, segment: str) -> bool:
    return (before.count("'") + segment.count("'")) % 2 == 0


def insert_names(logical: Logical) -> list[str]:
    """The ``+NAME+`` insert variables a command uses, in order."""
    return [m.group(1) for m in _INSERT.finditer(logical.text)]


def apply_inserts(logical: Logical, inserts: Mapping[str, str]) -> tuple[Logical, list[str]]:
    """Replace every ``+NAME+`` by its value; returns the new command and the names that have no value.

    Lookup is exact first, then upper case (``+qmname+`` finds ``QMNAME``). Inserted characters take
    the position of the insert's first ``+``, so errors in an inserted value point at the insert.
    Inserts are recognised inside quoted strings too (``CHANNEL('+AUTOCL+_+QMNAME+')``), so a literal
    ``+WORD+`` in a string counts as an insert.
    """
    if "+" not in logical.text:
        return logical, []
    missing: list[str] = []
    chars: list[str] = []
    poss: list[Pos] = []
    last = 0
    for m in _INSERT.finditer(logical.text):
        name = m.group(1)
        value = inserts.get(name, inserts.get(name.upper()))
        if value is None:
            missing.append(name)
            continue
        chars.extend(logical.text[last : m.start()])
        poss.extend(logical.positions[last : m.start()])
        chars.extend(value)
        poss.extend([logical.pos(m.start())] * len(value))
        last = m.end()
    chars.extend(logical.text[last:])
    poss.extend(logical.positions[last:])
    new = Logical("".join(chars), tuple(poss), logical.lines, logical.line, logical.error)
    return new, missing


class Kind(Enum):
    WORD = "word"
    STRING = "string"
    LPAREN = "("
    RPAREN = ")"


@dataclass(frozen=True, slots=True)
class Token:
    kind: Kind
    text: str
    """Words as typed (not yet folded); strings with the quotes removed and '' undoubled."""
    pos: Pos
    content: tuple[Pos, ...]
    """Position of each character of ``text`` in the file."""


_SEPARATORS = " \t,"
_STOP = " \t,()'"
_WORD_END = re.compile(r"[ \t,()']")


def tokenize(logical: Logical, *, file: str | None = None) -> list[Token]:
    """Tokens of one command: blanks and commas separate; quoted strings keep blanks and case.

    Words and strings are found with ``str.find``/regex and their positions sliced from
    ``logical.positions`` (one entry per character of ``text``), not walked character by character:
    this runs once per statement of an import.
    """
    text = logical.text
    positions = logical.positions
    tokens: list[Token] = []
    i = 0
    n = len(text)
    while i < n:
        c = text[i]
        if c in _SEPARATORS:
            i += 1
        elif c in "()":
            pos = positions[i]
            tokens.append(Token(Kind.LPAREN if c == "(" else Kind.RPAREN, c, pos, (pos,)))
            i += 1
        elif c == "'":
            start = i
            i += 1
            chars: list[str] = []
            poss: list[Pos] = []
            while True:
                j = text.find("'", i)
                if j < 0:
                    line, col = logical.pos(start)
                    raise InputError(
                        "unbalanced quotes: the string that starts here has no closing quote; "
                        "expected a closing ' (write '' for a quote inside a string)",
                        file=file,
                        line=line,
                        column=col,
                    )
                if j + 1 < n and text[j + 1] == "'":
                    # '' is one quote, placed at the first of the two
                    chars.append(text[i : j + 1])
                    poss.extend(positions[i : j + 1])
                    i = j + 2
                    continue
                chars.append(text[i:j])
                poss.extend(positions[i:j])
                i = j + 1
                break
            tokens.append(Token(Kind.STRING, "".join(chars), positions[start], tuple(poss)))
        else:
            m = _WORD_END.search(text, i)
            end = m.start() if m else n
            tokens.append(Token(Kind.WORD, text[i:end], positions[i], positions[i:end]))
            i = end
    return tokens
