"""IBM MQ routing's view of a subscription: its fixed prefix, wildcard-ness and proxy pattern, worked
out once per distinct pattern (``Sub``), and the estate's subscriptions made ``Sub`` on demand (``Subs``).
Part of the MQ engine (``mqctl.domain.routing.mq``)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from operator import attrgetter, itemgetter

from mqctl.domain.model import Dialect, Subscription, WSchema
from mqctl.domain.topics import char_matches, char_prefix_levels, matches, widen_char_pattern

__all__ = ["Shape", "Sub", "Subs"]

MQ = Dialect.MQ


@dataclass(slots=True, eq=False)
class Sub:
    """A subscription with what routing needs computed once: prefix, wildcard-ness, proxy pattern.
    Never mutated (not ``frozen``: a model makes one per subscription, and a frozen dataclass's
    ``__init__`` sets each field through ``object.__setattr__``, three times as slow)."""

    sub: Subscription
    index: int
    """Its place in ``MqPrepared.subs``."""
    prefix: tuple[str, ...]
    wildcard: bool
    proxy_pattern: str

    def receives(self, topic: str) -> bool:
        if self.sub.wschema == WSchema.CHAR:
            return char_matches(self.sub.topicstr, topic)
        return matches(self.sub.topicstr, topic, MQ)

    @property
    def key(self) -> tuple[str, str]:
        return (self.sub.node, self.sub.name)

    @property
    def label(self) -> str:
        return f"subscription {self.sub.name} ('{self.sub.topicstr}') on {self.sub.node}"


Shape = tuple[tuple[str, ...], bool, str]
"""What routing reads off a subscription's pattern: fixed prefix, wildcard-ness, proxy pattern."""
_PATTERN = attrgetter("topicstr", "wschema")
_PROXY = itemgetter(2)


class Subs:
    """``MqPrepared.subs``: the MQ subscriptions by queue manager and name, each made a ``Sub`` when
    first asked for. A Spark routing task asks for a sixth of the estate's; making all 500,000 up front
    cost each Python worker a second before its first key."""

    __slots__ = ("subs", "shapes", "any_char", "_made")

    def __init__(self, subs: list[Subscription], shapes: list[Shape], any_char: bool) -> None:
        self.subs = subs
        self.shapes = shapes
        """Each subscription's ``_shape`` (one tuple per distinct pattern, shared)."""
        self.any_char = any_char
        """Some subscription has WSCHEMA(CHAR): else the proxy index's matches are the receivers."""
        self._made: list[Sub | None] = [None] * len(subs)

    @classmethod
    def of(cls, subs: list[Subscription]) -> Subs:
        """``subs`` (sorted by queue manager and name) with their shapes, each worked out once per
        distinct pattern (estates repeat them)."""
        patterns = list(map(_PATTERN, subs))
        shapes = {pattern: _shape(*pattern) for pattern in dict.fromkeys(patterns)}
        any_char = any(wschema == WSchema.CHAR for _, wschema in shapes)
        return cls(subs, list(map(shapes.__getitem__, patterns)), any_char)

    def proxy_patterns(self) -> Iterator[str]:
        """Each subscription's proxy pattern, in order (``SubscriptionIndex.add_many``'s keys)."""
        return map(_PROXY, self.shapes)

    def __len__(self) -> int:
        return len(self.subs)

    def __getitem__(self, index: int) -> Sub:
        made = self._made[index]
        if made is None:
            made = self._made[index] = Sub(self.subs[index], index, *self.shapes[index])
        return made

    def many(self, indexes: list[int]) -> list[Sub]:
        """``[self[i] for i in indexes]``, those made already without a call each (a topic's dozens)."""
        made = self._made
        found = [made[i] for i in indexes]
        if None in found:
            found = [s if s is not None else self[i] for s, i in zip(found, indexes, strict=True)]
        return found  # type: ignore[return-value]

    def __iter__(self) -> Iterator[Sub]:
        return map(self.__getitem__, range(len(self.subs)))


def _shape(pattern: str, wschema: WSchema) -> Shape:
    if wschema == WSchema.CHAR:
        return tuple(char_prefix_levels(pattern)), _char_wild(pattern), widen_char_pattern(pattern)
    found = pattern.split("/")  # ``fixed_prefix_levels`` and ``has_wildcards`` in one split
    for i, level in enumerate(found):
        if level == "#" or level == "+":
            return tuple(found[:i]), True, pattern
    return tuple(found), False, pattern


def _char_wild(pattern: str) -> bool:
    """WSCHEMA(CHAR): an unescaped ``*`` or ``?`` makes the pattern a wildcard."""
    i = 0
    while i < len(pattern):
        if pattern[i] == "%":
            i += 2
            continue
        if pattern[i] in "*?":
            return True
        i += 1
    return False
