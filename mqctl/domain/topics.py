"""Topic strings and patterns of both dialects (SEMANTICS §2), and the algebra over them.

Everything here is pure and cached: the same handful of patterns is matched, compared and indexed over
and over while a topology is validated or explained, so parsing happens once per pattern.

A pattern is modelled as a sequence of level tokens: a literal level, ``_ONE`` (exactly one level: MQ
``+``, EMS ``*``) or ``_STAR`` (zero or more levels: MQ ``#``). EMS ``>`` (one or more trailing levels)
is ``_ONE`` followed by ``_STAR``. Subset and intersection are then questions about regular languages
over levels, answered exactly by an automaton product (see ``is_subset``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import lru_cache

from mqctl.domain.errors import InputError
from mqctl.domain.model import Dialect

__all__ = [
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

# Whole-level wildcards per dialect: (one level, many levels).
_MQ_ONE, _MQ_MANY = "+", "#"
_EMS_ONE, _EMS_MANY = "*", ">"

# Level tokens: a literal level is a str; wildcards are ints so they can never collide with a level.
_ONE = 1
_STAR = 2
_Token = str | int
_Tokens = tuple[_Token, ...]


class TopicSyntaxError(InputError):
    """A topic string or pattern breaks a rule of SEMANTICS §2.

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
    return topic.split(SEPARATORS[dialect])


def _check_not_empty(topic: str) -> None:
    if topic == "":
        raise TopicSyntaxError("a topic string must not be empty", 1, topic=topic)


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
    _tokens(pattern, dialect)


@lru_cache(maxsize=65536)
def _tokens(pattern: str, dialect: Dialect) -> _Tokens:
    """Parse and validate once; every other operation works on these tokens."""
    _check_not_empty(pattern)
    if dialect == Dialect.MQ:
        return tuple(_ONE if lv == _MQ_ONE else _STAR if lv == _MQ_MANY else lv for lv in pattern.split("/"))
    elements = _check_ems_elements(pattern)
    out: list[_Token] = []
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


def has_wildcards(pattern: str, dialect: Dialect) -> bool:
    """True when some whole level is a wildcard (MQ ``#``/``+``, EMS ``*``/``>``); ``USA#`` is literal."""
    wild = (_MQ_ONE, _MQ_MANY) if dialect == Dialect.MQ else (_EMS_ONE, _EMS_MANY)
    return any(lv in wild for lv in pattern.split(SEPARATORS[dialect]))


def looks_like_ems_pattern(pattern: str) -> bool:
    """A pattern without '/' whose whole '.'-elements include EMS wildcards (``foo.*``, ``orders.>``): in the
    MQ dialect its '*' and '>' are literal characters, which is rarely what its author meant."""
    if "/" in pattern or not has_wildcards(pattern, Dialect.EMS):
        return False
    try:
        _tokens(pattern, Dialect.EMS)
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
    wild = (_MQ_ONE, _MQ_MANY) if dialect == Dialect.MQ else (_EMS_ONE, _EMS_MANY)
    out: list[str] = []
    for lv in pattern.split(SEPARATORS[dialect]):
        if lv in wild:
            break
        out.append(lv)
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
    sep = SEPARATORS[dialect]
    keys = [""]
    acc = ""
    for lv in topic.split(sep):
        acc = acc + lv + sep
        keys.append(acc)
    return keys


def topic_level_prefixes(topic: str, dialect: Dialect) -> list[str]:
    """Topic strings of every level-prefix with at least one level, shortest first (TOPICSTR candidates)."""
    sep = SEPARATORS[dialect]
    parts = topic.split(sep)
    return [sep.join(parts[: i + 1]) for i in range(len(parts))]


class CompiledPattern:
    """A pattern parsed once, for matching many topics.

    Literal patterns compare strings; wildcard patterns use a regular expression over ``topic + sep``
    (every level then ends with the separator, which makes ``#`` = "zero or more ``level/``").
    """

    __slots__ = ("pattern", "dialect", "literal", "_sep", "_regex")

    def __init__(self, pattern: str, dialect: Dialect) -> None:
        tokens = _tokens(pattern, dialect)
        self.pattern = pattern
        self.dialect = dialect
        self._sep = SEPARATORS[dialect]
        self.literal = all(isinstance(t, str) for t in tokens)
        self._regex: re.Pattern[str] | None = None
        if not self.literal:
            sep = re.escape(self._sep)
            level = f"[^{sep}]*{sep}"
            parts = [
                level if t == _ONE else f"(?:{level})*" if t == _STAR else re.escape(str(t)) + sep
                for t in tokens
            ]
            self._regex = re.compile("".join(parts), re.DOTALL)

    def matches(self, topic: str) -> bool:
        """Does this pattern match the concrete ``topic``? (The topic itself is not validated.)"""
        if self._regex is None:
            return topic == self.pattern
        return self._regex.fullmatch(topic + self._sep) is not None

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
# NFA of a token sequence: state i = "tokens[:i] consumed"; a _STAR state loops on any level and has an
# epsilon move to i + 1. The alphabet that matters is the literals of both patterns plus one "other"
# level (None) standing for every level neither pattern names: they all behave identically.

_States = frozenset[int]


def _closure(tokens: _Tokens, states: set[int]) -> _States:
    todo = list(states)
    while todo:
        i = todo.pop()
        if i < len(tokens) and tokens[i] == _STAR and i + 1 not in states:
            states.add(i + 1)
            todo.append(i + 1)
    return frozenset(states)


def _step(tokens: _Tokens, states: _States, symbol: str | None) -> _States:
    n = len(tokens)
    nxt: set[int] = set()
    for i in states:
        if i < n:
            t = tokens[i]
            if t == _STAR:
                nxt.add(i)
            elif t == _ONE or (symbol is not None and t == symbol):
                nxt.add(i + 1)
    return _closure(tokens, nxt) if nxt else frozenset()


def _alphabet(a: _Tokens, b: _Tokens) -> list[str | None]:
    lits = sorted({t for t in a + b if isinstance(t, str)})
    return [*lits, None]


@lru_cache(maxsize=16384)
def _subset(p: _Tokens, q: _Tokens) -> bool:
    np_, nq = len(p), len(q)
    alphabet = _alphabet(p, q)
    start = (_closure(p, {0}), _closure(q, {0}), False)
    seen = {start}
    todo = [start]
    while todo:
        sp, sq, nonempty = todo.pop()
        # A topic has at least one level, so the empty word never counts as a counterexample.
        if nonempty and np_ in sp and nq not in sq:
            return False
        for symbol in alphabet:
            tp = _step(p, sp, symbol)
            if not tp:
                continue
            state = (tp, _step(q, sq, symbol), True)
            if state not in seen:
                seen.add(state)
                todo.append(state)
    return True


@lru_cache(maxsize=16384)
def _intersects(p: _Tokens, q: _Tokens) -> bool:
    np_, nq = len(p), len(q)
    alphabet = _alphabet(p, q)
    start = (_closure(p, {0}), _closure(q, {0}), False)
    seen = {start}
    todo = [start]
    while todo:
        sp, sq, nonempty = todo.pop()
        if nonempty and np_ in sp and nq in sq:
            return True
        for symbol in alphabet:
            tp = _step(p, sp, symbol)
            tq = _step(q, sq, symbol) if tp else frozenset()
            if tp and tq:
                state = (tp, tq, True)
                if state not in seen:
                    seen.add(state)
                    todo.append(state)
    return False


def is_subset(p: str, q: str, dialect: Dialect) -> bool:
    """Is every concrete topic matched by ``p`` also matched by ``q``? Exact, also with several ``#``."""
    return _subset(_tokens(p, dialect), _tokens(q, dialect))


def intersects(p: str, q: str, dialect: Dialect) -> bool:
    """Is some concrete topic matched by both ``p`` and ``q``? Exact, also with several ``#``."""
    return _intersects(_tokens(p, dialect), _tokens(q, dialect))


# --- MQ character wildcard schema (SUB WSCHEMA(CHAR)) --------------------------------------------------


def _char_scan(pattern: str) -> tuple[str, bool]:
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
def _char_regex(pattern: str) -> re.Pattern[str]:
    parts: list[str] = []
    i = 0
    n = len(pattern)
    while i < n:
        c = pattern[i]
        if c == "%" and i + 1 < n:
            parts.append(re.escape(pattern[i + 1]))
            i += 2
            continue
        parts.append(".*" if c == "*" else "." if c == "?" else re.escape(c))
        i += 1
    return re.compile("".join(parts), re.DOTALL)


def char_matches(pattern: str, topic: str) -> bool:
    """WSCHEMA(CHAR): ``*`` any characters (``/`` included), ``?`` one character, ``%`` escapes the next.

    The pattern is matched against the whole topic string, not level by level. A trailing lone ``%``
    is taken literally.
    """
    return _char_regex(pattern).fullmatch(topic) is not None


def char_prefix_levels(pattern: str) -> list[str]:
    """The ``/`` levels wholly before the first unescaped ``*``/``?``: where a CHAR subscription resolves.

    ``/a/b*`` -> ``["", "a"]``; a pattern without wildcards gives all its (unescaped) levels.
    """
    text, wild = _char_scan(pattern)
    if not wild:
        return text.split("/")
    cut = text.rfind("/")
    return text[:cut].split("/") if cut >= 0 else []


def widen_char_pattern(pattern: str) -> str:
    """Topic-schema proxy for a CHAR pattern: its prefix levels plus ``#`` (§2, "widened ... to ``#``").

    ``/a/b*`` -> ``/a/#``; ``*`` -> ``#``; a pattern without wildcards widens to itself, unescaped.
    """
    text, wild = _char_scan(pattern)
    if not wild:
        return text
    prefix = char_prefix_levels(pattern)
    return "/".join([*prefix, _MQ_MANY])
