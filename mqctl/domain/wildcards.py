"""Wildcard patterns matched in time linear in the subject, whatever the pattern: never backtracking.

Topic patterns (MQ ``#``/``+``, EMS ``>``/``*``), WSCHEMA(CHAR) patterns (``*``/``?``) and selector LIKE
patterns (``%``/``_``) are all sequences of three kinds of token: a literal symbol, ``ONE`` (exactly one
symbol) and ``MANY`` (any run of symbols, none included). The symbols are topic levels for topic
patterns and characters for the other two. Python's ``re`` backtracks on several ``MANY``: matching
``#/#/#/#/#/#/#/#/z`` against a 40-level topic took 43 s, ``LIKE '%a%a%a%a%a%a%a%b'`` against 100
characters minutes.

``GlobNfa`` simulates the pattern's automaton instead: the set of pattern positions reachable after the
symbols read so far is one integer used as a bit set, advanced by a few integer operations per symbol.
The cost is O(len(subject) × len(pattern) / 64) machine words, for any pattern.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence

__all__ = ["MANY", "ONE", "GlobNfa", "Token", "char_matcher", "collapse"]

ONE = 1
MANY = 2
Token = str | int
"""A literal symbol (a str: a level or one character), ``ONE`` or ``MANY`` (ints never equal a str)."""


def collapse(tokens: Iterable[Token]) -> tuple[Token, ...]:
    """Merge runs of ``MANY``: ``#/#`` matches exactly what ``#`` matches, and the simulation needs at
    most one ``MANY`` in a row to take its empty move in one step."""
    out: list[Token] = []
    for t in tokens:
        if t == MANY and out and out[-1] == MANY:
            continue
        out.append(t)
    return tuple(out)


class GlobNfa:
    """The automaton of a token sequence: position ``i`` means "``tokens[:i]`` matched".

    ``_literal[s]`` holds the bit of every position whose token is the literal ``s``; ``_one`` those of
    ``ONE`` and ``_many`` those of ``MANY``. Reading a symbol moves each reachable position past a
    matching literal or ``ONE`` (shift left by one) and keeps each ``MANY`` position (its self-loop);
    the empty move of a ``MANY`` (skip it) is one more shift, since runs of ``MANY`` are collapsed.
    """

    __slots__ = ("_literal", "_one", "_many", "_accept", "_start")

    def __init__(self, tokens: Sequence[Token]) -> None:
        tokens = collapse(tokens)
        literal: dict[str, int] = {}
        one = many = 0
        for i, t in enumerate(tokens):
            bit = 1 << i
            if t == ONE:
                one |= bit
            elif t == MANY:
                many |= bit
            else:
                assert isinstance(t, str)
                literal[t] = literal.get(t, 0) | bit
        self._literal = literal
        self._one = one
        self._many = many
        self._accept = 1 << len(tokens)
        self._start = 1 | (many & 1) << 1

    @property
    def start(self) -> int:
        """The positions reachable before any symbol is read."""
        return self._start

    def step(self, states: int, symbol: str | None) -> int:
        """The positions reachable from ``states`` by reading ``symbol`` (None: a symbol no literal of
        the pattern equals)."""
        many = self._many
        states = ((states & (self._one | self._literal.get(symbol, 0))) << 1) | (states & many)  # type: ignore[arg-type]
        return states | (states & many) << 1

    def accepts(self, states: int) -> bool:
        """Do ``states`` include the end of the pattern?"""
        return bool(states & self._accept)

    def matches(self, symbols: Iterable[str]) -> bool:
        """Does the whole sequence of ``symbols`` match the whole pattern?"""
        states = self._start
        literal, one, many = self._literal, self._one, self._many
        for symbol in symbols:
            states = ((states & (one | literal.get(symbol, 0))) << 1) | (states & many)
            if not states:
                return False
            states |= (states & many) << 1
        return bool(states & self._accept)


def char_matcher(tokens: Sequence[Token]) -> Callable[[str], bool]:
    """A function telling whether a whole string matches character-level ``tokens``.

    With at most one ``MANY`` a regular expression is used (it runs in C, and with a single ``.*`` it
    can only backtrack over one split point: O(length × pattern)); with more, the ``GlobNfa``.
    """
    tokens = collapse(tokens)
    if sum(1 for t in tokens if t == MANY) > 1:
        return GlobNfa(tokens).matches
    parts = [".*" if t == MANY else "." if t == ONE else re.escape(str(t)) for t in tokens]
    fullmatch = re.compile("".join(parts), re.DOTALL).fullmatch
    return lambda text: fullmatch(text) is not None
