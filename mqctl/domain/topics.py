"""Topic strings and patterns of both dialects (semantics §2), and the algebra over them.

Everything here is pure and cached: the same handful of patterns is matched, compared and indexed over
and over while a topology is validated or explained, so parsing happens once per pattern.

A pattern is modelled as a sequence of level tokens: a literal level, ``_ONE`` (exactly one level: MQ
``+``, EMS ``*``) or ``_STAR`` (zero or more levels: MQ ``#``). EMS ``>`` (one or more trailing levels)
is ``_ONE`` followed by ``_STAR``. Subset and intersection are then questions about regular languages
over levels, answered exactly by an automaton product (see ``is_subset``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache

from mqctl.domain.errors import InputError
from mqctl.domain.model import Dialect
from mqctl.domain.valid_text import not_text
from mqctl.domain.wildcards import MANY, ONE, GlobNfa, Token, char_matcher

__all__ = [
    "MAX_TOPIC_LENGTH",
    "SEPARATORS",
    "CompiledPattern",
    "TopicSyntaxError",
    "char_matches",
    "char_prefix_levels",
    "compile_pattern",
    "fixed_prefix_levels",
    "has_wildcards",
    "intersects",
    "is_subset",
    "levels",
    "looks_like_ems_pattern",
    "matches",
    "misses_leading_slash",
    "pattern_prefix_key",
    "prefix_key",
    "topic_level_prefixes",
    "topic_prefix_keys",
    "validate_pattern",
    "validate_topic",
    "widen_char_pattern",
]

SEPARATORS: dict[Dialect, str] = {Dialect.MQ: "/", Dialect.EMS: "."}

MAX_TOPIC_LENGTH = 10240
"""MQ's limit on a topic string (MQ_TOPIC_STR_LENGTH), applied to both dialects: checked before a topic
is split, so that a 100,000-level string is refused at once rather than split, indexed and matched."""

_MQ = Dialect.MQ  # a module constant: reading an enum member off its class costs a Python call

# Whole-level wildcards per dialect: (one level, many levels).
_MQ_ONE, _MQ_MANY = "+", "#"
_EMS_ONE, _EMS_MANY = "*", ">"

# Level tokens: a literal level is a str; wildcards are ints so they can never collide with a level.
_ONE = ONE
_STAR = MANY
_Tokens = tuple[Token, ...]


class TopicSyntaxError(InputError):
    """A topic string or pattern breaks a rule of semantics §2.

    ``position`` is the 1-based character column inside the topic string (not the file), so a parser
    that knows where the string starts can add the two; ``rule`` is the short text of the rule broken.
    """

    def __init__(
        self,
        rule: str,
        position: int,
        *,
        topic: str | None = None,
        obj: str | None = None,
        attribute: str | None = None,
        file: str | None = None,
        line: int | None = None,
        column: int | None = None,
    ) -> None:
        super().__init__(
            f"{rule} (column {position})", obj=obj, attribute=attribute, file=file, line=line, column=column
        )
        self.rule = rule
        self.position = position
        self.topic = topic


def levels(topic: str, dialect: Dialect) -> list[str]:
    """Split on the dialect's separator; a leading separator makes an empty first level (§2)."""
    _check_length(topic)
    return topic.split(SEPARATORS[dialect])


def _check_length(topic: str) -> None:
    if len(topic) > MAX_TOPIC_LENGTH:
        raise TopicSyntaxError(
            f"a topic string is at most {MAX_TOPIC_LENGTH} characters long, this one has {len(topic)}",
            MAX_TOPIC_LENGTH + 1,
            topic=topic[:40] + "...",
        )


def _check_not_empty(topic: str) -> None:
    if topic == "":
        raise TopicSyntaxError("a topic string must not be empty", 1, topic=topic)
    _check_length(topic)
    if not topic.isascii():
        found = not_text(topic)
        if found is not None:
            raise TopicSyntaxError(
                f"a topic string must be valid text: {found[1]}", found[0] + 1, topic=topic
            )


def _check_ems_elements(topic: str) -> list[str]:
    """Reject empty EMS elements; return the elements. Positions point at the offending '.'."""
    elements = topic.split(".")
    offset = 0
    for element in elements:
        if element == "":
            column = offset + 1 if offset < len(topic) else len(topic)
            raise TopicSyntaxError("an EMS topic must not have an empty element", column, topic=topic)
        offset += len(element) + 1
    return elements


def validate_topic(topic: str, dialect: Dialect) -> None:
    """Check a concrete publication topic or an MQ ``TOPICSTR``.

    MQ treats ``#``, ``+`` and ``*`` literally there (validate merely warns), so only the empty string
    is wrong; EMS publications must be concrete (§2), so any ``*`` or ``>`` is an error.
    """
    _check_not_empty(topic)
    if dialect == Dialect.EMS:
        _check_ems_elements(topic)
        for index, char in enumerate(topic):
            if char in "*>":
                raise TopicSyntaxError(
                    f"'{char}' is a wildcard, not allowed in a concrete EMS topic", index + 1, topic=topic
                )


def validate_pattern(pattern: str, dialect: Dialect) -> None:
    """Check a subscription pattern or EMS topic definition.

    On MQ a ``#``/``+`` that is not a whole level is simply literal, so nothing but the empty string
    fails; EMS refuses partial wildcards (``foo.a*``) and a ``>`` that is not last.
    """
    if dialect is _MQ and pattern.isascii() and 0 < len(pattern) <= MAX_TOPIC_LENGTH:
        return  # all an MQ pattern can break (see _check_not_empty): checked without parsing or caching
    level_tokens(pattern, dialect)


@lru_cache(maxsize=65536)
def level_tokens(pattern: str, dialect: Dialect) -> _Tokens:
    """Parse and validate once; every other operation works on these tokens."""
    _check_not_empty(pattern)
    if dialect == _MQ:
        return tuple(_ONE if lv == _MQ_ONE else _STAR if lv == _MQ_MANY else lv for lv in pattern.split("/"))
    elements = _check_ems_elements(pattern)
    out: list[Token] = []
    offset = 0
    last = len(elements) - 1
    for index, element in enumerate(elements):
        if element == _EMS_ONE:
            out.append(_ONE)
        elif element == _EMS_MANY:
            if index != last:
                raise TopicSyntaxError("'>' must be the last element", offset + 1, topic=pattern)
            out.extend((_ONE, _STAR))
        else:
            for pos, char in enumerate(element):
                if char in "*>":
                    raise TopicSyntaxError(
                        f"'{char}' must be a whole element", offset + pos + 1, topic=pattern
                    )
            out.append(element)
        offset += len(element) + 1
    return tuple(out)


def _wild(pattern: str, dialect: Dialect) -> tuple[str, ...]:
    """The dialect's whole-level wildcards, or () when no such character occurs at all (most patterns:
    then nothing needs splitting)."""
    wild = (_MQ_ONE, _MQ_MANY) if dialect == _MQ else (_EMS_ONE, _EMS_MANY)
    return wild if wild[0] in pattern or wild[1] in pattern else ()


def has_wildcards(pattern: str, dialect: Dialect) -> bool:
    """True when some whole level is a wildcard (MQ ``#``/``+``, EMS ``*``/``>``); ``USA#`` is literal."""
    wild = _wild(pattern, dialect)
    return bool(wild) and any(lv in wild for lv in pattern.split(SEPARATORS[dialect]))


def looks_like_ems_pattern(pattern: str) -> bool:
    """A pattern without '/' whose whole '.'-elements include EMS wildcards (``foo.*``, ``orders.>``): in the
    MQ dialect its '*' and '>' are literal characters, which is rarely what its author meant."""
    if "/" in pattern or not has_wildcards(pattern, Dialect.EMS):
        return False
    try:
        level_tokens(pattern, Dialect.EMS)
    except TopicSyntaxError:
        return False
    return True


def misses_leading_slash(topic: str, known: Iterable[str]) -> bool:
    """An MQ topic without the leading '/' that every known topic string has (some at least): '/USA' and
    'USA' differ (§2), so such a topic most likely meets none of them."""
    seen = False
    for other in known:
        if not other.startswith("/"):
            return False
        seen = True
    return seen and not topic.startswith("/")


def fixed_prefix_levels(pattern: str, dialect: Dialect) -> list[str]:
    """The levels before the first wildcard level (all levels if none): where a pattern resolves (§3)."""
    out = pattern.split(SEPARATORS[dialect])
    wild = _wild(pattern, dialect)
    if wild:
        for i, lv in enumerate(out):
            if lv in wild:
                return out[:i]
    return out


def prefix_key(prefix_levels: Sequence[str], dialect: Dialect) -> str:
    """Encode a level list as one indexable string: each level followed by the separator.

    The trailing separator keeps ``[""]`` ("/") apart from ``[]`` ("") and ``["a"]`` apart from
    ``["a", ""]`` — a plain join could not.
    """
    if not prefix_levels:
        return ""
    sep = SEPARATORS[dialect]
    return sep.join(prefix_levels) + sep


def pattern_prefix_key(pattern: str, dialect: Dialect) -> str:
    """``prefix_key`` of the fixed prefix; for WSCHEMA(CHAR) use ``char_prefix_levels`` instead."""
    return prefix_key(fixed_prefix_levels(pattern, dialect), dialect)


def topic_prefix_keys(topic: str, dialect: Dialect) -> list[str]:
    """``prefix_key`` of every level-prefix of ``topic``, zero levels first, all levels last.

    A pattern can only match ``topic`` if its ``pattern_prefix_key`` is one of these, so a store can
    index patterns by that key and fetch candidates with an ``IN`` list.
    """
    _check_length(topic)
    sep = SEPARATORS[dialect]
    keys = [""]
    acc = ""
    for lv in topic.split(sep):
        acc = acc + lv + sep
        keys.append(acc)
    return keys


def topic_level_prefixes(topic: str, dialect: Dialect) -> list[str]:
    """Topic strings of every level-prefix with at least one level, shortest first (TOPICSTR candidates)."""
    _check_length(topic)
    sep = SEPARATORS[dialect]
    parts = topic.split(sep)
    return [sep.join(parts[: i + 1]) for i in range(len(parts))]


class CompiledPattern:
    """A pattern parsed once, for matching many topics.

    Literal patterns compare strings. A pattern with at most one ``#`` uses a regular expression over
    ``topic + sep`` (every level then ends with the separator, which makes ``#`` = "zero or more
    ``level/``"; with one such group the expression backtracks over one split point only). Several
    ``#`` would make ``re`` backtrack exponentially, so those patterns run as a ``GlobNfa`` over the
    levels: linear in the topic whatever the pattern.
    """

    __slots__ = ("pattern", "dialect", "literal", "_sep", "_regex", "_nfa")

    def __init__(self, pattern: str, dialect: Dialect) -> None:
        tokens = level_tokens(pattern, dialect)
        self.pattern = pattern
        self.dialect = dialect
        self._sep = SEPARATORS[dialect]
        self.literal = all(isinstance(t, str) for t in tokens)
        self._regex: re.Pattern[str] | None = None
        self._nfa: GlobNfa | None = None
        if self.literal:
            return
        if tokens.count(_STAR) > 1:
            self._nfa = GlobNfa(tokens)
            return
        sep = re.escape(self._sep)
        level = f"[^{sep}]*{sep}"
        parts = [
            level if t == _ONE else f"(?:{level})*" if t == _STAR else re.escape(str(t)) + sep for t in tokens
        ]
        self._regex = re.compile("".join(parts), re.DOTALL)

    def matches(self, topic: str) -> bool:
        """Does this pattern match the concrete ``topic``? (The topic itself is not validated.)"""
        if self._regex is not None:
            return self._regex.fullmatch(topic + self._sep) is not None
        if self._nfa is not None:
            return self._nfa.matches(topic.split(self._sep))
        return topic == self.pattern

    def __repr__(self) -> str:
        return f"CompiledPattern({self.pattern!r}, {self.dialect.value!r})"


@lru_cache(maxsize=65536)
def compile_pattern(pattern: str, dialect: Dialect) -> CompiledPattern:
    """Parse (and validate: raises ``TopicSyntaxError``) once; cached, so calling it again is cheap."""
    return CompiledPattern(pattern, dialect)


def matches(pattern: str, topic: str, dialect: Dialect) -> bool:
    """Does subscription ``pattern`` match concrete ``topic``? A bad pattern raises ``TopicSyntaxError``."""
    return compile_pattern(pattern, dialect).matches(topic)


# --- subset and intersection -------------------------------------------------------------------------
#
# Both are searches over pairs of automaton states (each a ``GlobNfa`` bit set). The alphabet that
# matters is the literals of both patterns plus one "other" level (None) standing for every level
# neither pattern names: they all behave identically.

_MAX_PRODUCT_STEPS = 100_000
"""Subset and intersection determinise the patterns, which is exponential in the worst case
(``#/a/+/+/.../+``: 2^n states): past this many steps (states times symbols tried) the comparison is
refused with an InputError, not left to run for minutes. Real patterns need a few hundred."""


def _too_complex(p: _Tokens, q: _Tokens) -> InputError:
    return InputError(
        f"comparing these two patterns ({len(p)} and {len(q)} levels) needs more than "
        f"{_MAX_PRODUCT_STEPS:,} automaton steps; simplify them",
        obj="topic patterns",
    )


def _alphabet(a: _Tokens, b: _Tokens) -> list[str | None]:
    lits = sorted({t for t in a + b if isinstance(t, str)})
    return [*lits, None]


def _search(p: _Tokens, q: _Tokens, *, want_q: bool) -> bool:
    """Is there a non-empty level sequence that ``p`` accepts and that ``q`` accepts (``want_q``) or
    rejects (not ``want_q``)? A topic has at least one level, so the empty sequence never counts."""
    a, b = GlobNfa(p), GlobNfa(q)
    alphabet = _alphabet(p, q)
    start = (a.start, b.start, False)
    seen = {start}
    todo = [start]
    steps = 0
    while todo:
        sp, sq, nonempty = todo.pop()
        if nonempty and a.accepts(sp) and b.accepts(sq) is want_q:
            return True
        for symbol in alphabet:
            tp = a.step(sp, symbol)
            if not tp:
                continue
            tq = b.step(sq, symbol)
            if want_q and not tq:
                continue
            state = (tp, tq, True)
            if state not in seen:
                seen.add(state)
                todo.append(state)
        steps += len(alphabet)
        if steps > _MAX_PRODUCT_STEPS:
            raise _too_complex(p, q)
    return False


def _literal(tokens: _Tokens) -> list[str] | None:
    """The levels of a pattern without wildcards (it matches that one topic), else None."""
    return None if any(isinstance(t, int) for t in tokens) else [str(t) for t in tokens]


@lru_cache(maxsize=16384)
def _subset(p: _Tokens, q: _Tokens) -> bool:
    # A literal pattern is one topic; a pattern with a wildcard matches infinitely many.
    levels_p, levels_q = _literal(p), _literal(q)
    if levels_p is not None:
        return GlobNfa(q).matches(levels_p)
    if levels_q is not None:
        return False
    return not _search(p, q, want_q=False)


@lru_cache(maxsize=16384)
def _intersects(p: _Tokens, q: _Tokens) -> bool:
    levels_p, levels_q = _literal(p), _literal(q)
    if levels_p is not None:
        return GlobNfa(q).matches(levels_p)
    if levels_q is not None:
        return GlobNfa(p).matches(levels_q)
    return _search(p, q, want_q=True)


def is_subset(p: str, q: str, dialect: Dialect) -> bool:
    """Is every concrete topic matched by ``p`` also matched by ``q``? Exact, also with several ``#``.

    ``InputError`` when answering would take more than ``_MAX_PRODUCT_STEPS`` steps."""
    return _subset(level_tokens(p, dialect), level_tokens(q, dialect))


def intersects(p: str, q: str, dialect: Dialect) -> bool:
    """Is some concrete topic matched by both ``p`` and ``q``? Exact, also with several ``#``.

    ``InputError`` when answering would take more than ``_MAX_PRODUCT_STEPS`` steps."""
    return _intersects(level_tokens(p, dialect), level_tokens(q, dialect))


# --- MQ character wildcard schema (SUB WSCHEMA(CHAR)) --------------------------------------------------


def char_scan(pattern: str) -> tuple[str, bool]:
    """Unescaped text before the first unescaped ``*``/``?``, and whether such a wildcard exists."""
    out: list[str] = []
    i = 0
    n = len(pattern)
    while i < n:
        c = pattern[i]
        if c == "%" and i + 1 < n:
            out.append(pattern[i + 1])
            i += 2
            continue
        if c in "*?":
            return "".join(out), True
        out.append(c)
        i += 1
    return "".join(out), False


@lru_cache(maxsize=16384)
def _char_matcher(pattern: str) -> Callable[[str], bool]:
    tokens: list[Token] = []
    i = 0
    n = len(pattern)
    while i < n:
        c = pattern[i]
        if c == "%" and i + 1 < n:
            tokens.append(pattern[i + 1])
            i += 2
            continue
        tokens.append(MANY if c == "*" else ONE if c == "?" else c)
        i += 1
    return char_matcher(tokens)


def char_matches(pattern: str, topic: str) -> bool:
    """WSCHEMA(CHAR): ``*`` any characters (``/`` included), ``?`` one character, ``%`` escapes the next.

    The pattern is matched against the whole topic string, not level by level. A trailing lone ``%``
    is taken literally. Linear in the topic whatever the number of ``*`` (see ``wildcards``).
    """
    return _char_matcher(pattern)(topic)


def char_prefix_levels(pattern: str) -> list[str]:
    """The ``/`` levels wholly before the first unescaped ``*``/``?``: where a CHAR subscription resolves.

    ``/a/b*`` -> ``["", "a"]``; a pattern without wildcards gives all its (unescaped) levels.
    """
    text, wild = char_scan(pattern)
    if not wild:
        return text.split("/")
    cut = text.rfind("/")
    return text[:cut].split("/") if cut >= 0 else []


def widen_char_pattern(pattern: str) -> str:
    """Topic-schema proxy for a CHAR pattern: its prefix levels plus ``#`` (§2, "widened ... to ``#``").

    ``/a/b*`` -> ``/a/#``; ``*`` -> ``#``; a pattern without wildcards widens to itself, unescaped.
    """
    text, wild = char_scan(pattern)
    if not wild:
        return text
    prefix = char_prefix_levels(pattern)
    return "/".join([*prefix, _MQ_MANY])
