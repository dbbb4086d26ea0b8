"""Where a subscription sits in its node's topic space and what it receives, whatever its wildcard schema.

An MQ subscription with ``WSCHEMA(CHAR)`` matches by characters and resolves by the levels before its
first character wildcard; every other subscription matches by levels in its node's dialect (semantics
§2, §3). Views that list or draw subscriptions ask here instead of re-deciding per schema.
"""

from __future__ import annotations

import re

from mqctl.domain.model import Dialect, Subscription, WSchema
from mqctl.domain.topics import char_matches, char_prefix_levels, char_scan, fixed_prefix_levels, matches
from mqctl.domain.topics import has_wildcards as topic_has_wildcards

__all__ = ["has_wildcards", "prefix_levels", "receives"]


def prefix_levels(sub: Subscription) -> list[str]:
    """The MQ levels before the first wildcard: where the subscription resolves in the topic tree."""
    if sub.wschema == WSchema.CHAR:
        return char_prefix_levels(sub.topicstr)
    return fixed_prefix_levels(sub.topicstr, Dialect.MQ)


_SPECIAL = {"char": re.compile(r"[*?%]"), Dialect.MQ: re.compile(r"[#+]"), Dialect.EMS: re.compile(r"[*>]")}
"""Characters that may make a pattern more than its literal text, per schema."""


def receives(sub: Subscription, topic: str, dialect: Dialect) -> bool:
    """The subscription's pattern matches concrete ``topic`` (``dialect`` is its node's).

    The text before the first character that could be a wildcard is literal (for MQ's topic schema, up
    to that level: ``#`` may stand for no level), so ``topic`` must start with it: most subscriptions of a large estate are answered by that test alone, without compiling
    their pattern (a pattern with no such character matches its own text only).
    """
    char = dialect is Dialect.MQ and sub.wschema == WSchema.CHAR
    special = _SPECIAL["char" if char else dialect].search(sub.topicstr)
    if special is None:
        return topic == sub.topicstr
    literal = special.start()
    if dialect is Dialect.MQ and not char:
        # up to the level separator before it: a '#' level also matches no level ('a/#' receives 'a')
        literal = max(sub.topicstr.rfind("/", 0, literal), 0)
    if not topic.startswith(sub.topicstr[:literal]):
        return False
    return char_matches(sub.topicstr, topic) if char else matches(sub.topicstr, topic, dialect)


def has_wildcards(sub: Subscription, dialect: Dialect) -> bool:
    """The pattern holds a wildcard of its schema (a whole-level one, or a CHAR ``*``/``?``)."""
    if dialect is Dialect.MQ and sub.wschema == WSchema.CHAR:
        return char_scan(sub.topicstr)[1]
    return topic_has_wildcards(sub.topicstr, dialect)
