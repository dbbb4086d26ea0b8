"""EMS topic property resolution (semantics §2, §6, §9 "Property specificity").

A concrete EMS topic takes its properties from every definition on the server whose pattern matches it:
flags (``global``, ``secure``, ...) by union, each valued property (``maxbytes``, ``maxmsgs``, ...) from
the most specific definition that sets it. Specificity compares patterns element by element: a literal
element beats ``*``, which beats ``>``; two equally specific definitions (the same pattern defined twice)
go to the most recent (highest ``seq``). ``maxbytes=0``/``maxmsgs=0`` mean "no limit", so a zero does
not count as setting the property and a less specific non-zero limit still applies.

Used by the EMS routing engine, the validator and the importers; pure, no I/O.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Sequence

from mqctl.domain.model import Dialect, TopicObject
from mqctl.domain.topics import matches

__all__ = [
    "LIMIT_PROPERTIES",
    "EmsTopicIndex",
    "definitions_for",
    "effective_properties",
    "is_global",
    "is_unset_value",
    "most_specific",
    "specificity",
    "storage_bounded",
]

LIMIT_PROPERTIES = ("maxbytes", "maxmsgs")
"""The properties that bound what a server stores for a topic (reference 003, "maxbytes")."""

_LITERAL, _ONE, _MANY = 2, 1, 0
_ZERO = re.compile(r"0+\s*(?:[kmg]b?)?", re.IGNORECASE)
"""Matched against the stripped value: blanks around it cost nothing (no backtracking over them)."""


def specificity(definition: TopicObject) -> tuple[tuple[int, ...], int]:
    """Sort key, higher = more specific: element ranks (literal > ``*`` > ``>``), then the sequence.

    Two patterns that match the same concrete topic agree on their literal elements, so comparing the
    rank tuples element by element is exactly the rule of §9; equal tuples mean the same pattern.
    """
    ranks = tuple(
        _ONE if element == "*" else _MANY if element == ">" else _LITERAL
        for element in definition.topicstr.split(".")
    )
    return ranks, definition.seq


def definitions_for(definitions: Iterable[TopicObject], server: str, topic: str) -> list[TopicObject]:
    """The definitions on ``server`` whose pattern matches concrete ``topic``, most specific first."""
    found = [d for d in definitions if d.node == server and matches(d.topicstr, topic, Dialect.EMS)]
    found.sort(key=specificity, reverse=True)
    return found


def is_unset_value(name: str, value: str | None) -> bool:
    """A limit of zero means unlimited in EMS, i.e. the same as not setting it."""
    return name in LIMIT_PROPERTIES and value is not None and _ZERO.fullmatch(value.strip()) is not None


def effective_properties(matching: Sequence[TopicObject]) -> dict[str, str | None]:
    """Merge the properties of definitions that all match one topic (any order).

    Flags map to ``None``; a name that is valued on some definition is treated as valued, taken from the
    most specific definition that gives it a (non-zero, for limits) value.
    """
    ordered = sorted(matching, key=specificity, reverse=True)
    valued: dict[str, str] = {}
    flags: set[str] = set()
    for definition in ordered:
        for name, value in definition.properties.items():
            if value is None:
                flags.add(name)
            elif name not in valued and not is_unset_value(name, value):
                valued[name] = value
    out: dict[str, str | None] = {name: None for name in sorted(flags - valued.keys())}
    out.update(valued)
    return out


def most_specific(matching: Sequence[TopicObject]) -> TopicObject | None:
    """The definition that names the topic most closely (``resolved.object`` in explain)."""
    return max(matching, key=specificity, default=None)


def is_global(definitions: Iterable[TopicObject], topic: str, server: str) -> bool:
    """Topic is global on the server: some matching definition carries the ``global`` flag (§6)."""
    return any(d.is_global for d in definitions_for(definitions, server, topic))


def storage_bounded(properties: dict[str, str | None]) -> bool:
    """``maxbytes`` or ``maxmsgs`` limits what the server stores for the topic (0 counts as unset)."""
    return any(properties.get(name) is not None for name in LIMIT_PROPERTIES)


class EmsTopicIndex:
    """Definitions grouped by server, for asking many questions about many servers and topics.

    Each server's list is scanned only when asked about, and answers are cached per (server, topic).
    """

    def __init__(self, definitions: Iterable[TopicObject]) -> None:
        self._by_server: dict[str, list[TopicObject]] = defaultdict(list)
        for definition in definitions:
            self._by_server[definition.node].append(definition)
        self._cache: dict[tuple[str, str], list[TopicObject]] = {}

    def matching(self, server: str, topic: str) -> list[TopicObject]:
        """The definitions on ``server`` matching ``topic``, most specific first."""
        key = (server, topic)
        found = self._cache.get(key)
        if found is None:
            found = definitions_for(self._by_server.get(server, ()), server, topic)
            self._cache[key] = found
        return found

    def properties(self, server: str, topic: str) -> dict[str, str | None]:
        return effective_properties(self.matching(server, topic))

    def is_global(self, server: str, topic: str) -> bool:
        return any(d.is_global for d in self.matching(server, topic))

    def most_specific(self, server: str, topic: str) -> TopicObject | None:
        found = self.matching(server, topic)
        return found[0] if found else None

    def storage_bounded(self, server: str, topic: str) -> bool:
        return storage_bounded(self.properties(server, topic))
