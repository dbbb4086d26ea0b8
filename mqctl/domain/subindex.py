"""Which subscriptions match a topic, without scanning them all.

Literal patterns (most of them, in practice) sit in one dict keyed by the topic string. Wildcard
patterns live in a tree keyed by level, where the ``+``/``*`` child and the ``#`` child sit beside the
literal children (as in NATS' sublist or mosquitto), so a lookup costs the depth of the topic and the
few wildcard branches it touches, not the number of subscriptions.

Memory is the constraint at a million patterns, so nodes use ``__slots__``, the first literal child is
held inline (most nodes have exactly one), a dict is made only for the second, levels are interned,
and a pattern with a single value stores that value directly instead of a list.

Building is per distinct pattern: ``add_many`` groups the pairs by pattern first, so a pattern that many
subscriptions share is parsed and walked once (estates repeat patterns heavily).
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence
from typing import Any, Generic, TypeVar

from mqctl.domain.model import Dialect
from mqctl.domain.topics import SEPARATORS, level_tokens
from mqctl.domain.wildcards import MANY, ONE

__all__ = ["SubscriptionIndex"]

V = TypeVar("V")

_NO: Any = object()  # "no value here" (None could be a legitimate value)
_FEW = 8  # values on one pattern compared one by one; more are de-duplicated by hashing
_parse = level_tokens.__wrapped__  # uncached: a million one-off patterns would only churn the shared cache


class _Bag(list[Any]):
    """Several values on one pattern; a distinct type so a list *value* is never mistaken for it."""

    __slots__ = ()


def _put(cur: Any, value: Any) -> tuple[Any, bool]:
    """Add ``value`` to a slot holding nothing, one value or a ``_Bag``; report whether it was new."""
    if cur is _NO:
        return value, True
    if type(cur) is _Bag:
        if value in cur:
            return cur, False
        cur.append(value)
        return cur, True
    if cur is value or cur == value:
        return cur, False
    return _Bag((cur, value)), True


def _take(cur: Any, value: Any) -> tuple[Any, bool]:
    """Remove ``value`` from a slot; report whether it was there."""
    if cur is _NO:
        return cur, False
    if type(cur) is _Bag:
        for i, item in enumerate(cur):
            if item is value or item == value:
                del cur[i]
                return (cur[0] if len(cur) == 1 else cur), True
        return cur, False
    if cur is value or cur == value:
        return _NO, True
    return cur, False


class _Node:
    """One level of wildcard patterns.

    ``k``/``c``: first literal child (level, node); ``d``: further literal children; ``p``: the
    one-level wildcard child; ``h``: a ``#`` that is followed by more levels (its node loops on any
    level); ``tail``: values of patterns ending in ``#`` right here (match any remaining levels, zero
    included); ``v``: values of patterns ending exactly here; ``loop``: this node is such a ``#``.
    """

    __slots__ = ("k", "c", "d", "p", "h", "tail", "v", "loop")

    def __init__(self, loop: bool = False) -> None:
        self.k: str | None = None
        self.c: _Node | None = None
        self.d: dict[str, _Node] | None = None
        self.p: _Node | None = None
        self.h: _Node | None = None
        self.tail: Any = _NO
        self.v: Any = _NO
        self.loop = loop

    def child(self, level: str) -> _Node | None:
        if self.k == level:
            return self.c
        return self.d.get(level) if self.d is not None else None

    def empty(self) -> bool:
        return self.c is None and self.p is None and self.h is None and self.tail is _NO and self.v is _NO


def _emit(out: list[Any], cur: Any) -> None:
    if type(cur) is _Bag:
        out.extend(cur)
    else:
        out.append(cur)


class SubscriptionIndex(Generic[V]):
    """Patterns of one dialect mapped to values; ``match(topic)`` returns the values of every match.

    Entries are a set of (pattern, value) pairs: adding the same pair twice keeps one. Values are
    compared with ``==`` (they need not be hashable); a pattern's values are a short list, so a pattern
    carrying thousands of values makes ``add``/``discard`` on it linear in that number.
    Invalid patterns raise ``TopicSyntaxError``.
    """

    def __init__(self, dialect: Dialect = Dialect.MQ) -> None:
        self._dialect = Dialect(dialect)
        self._sep = SEPARATORS[self._dialect]
        self._mq = self._dialect == Dialect.MQ
        self._literal: dict[str, Any] = {}
        self._root = _Node()
        self._hash_nodes = 0  # '#' followed by more levels: lookups then need de-duplication
        self._count = 0

    def __len__(self) -> int:
        return self._count

    def _literal_fast(self, pattern: str) -> bool:
        """MQ only: a pattern with no '+'/'#' character at all is literal without parsing."""
        return self._mq and pattern != "" and "+" not in pattern and "#" not in pattern

    def add(self, pattern: str, value: V) -> None:
        """Index ``value`` under ``pattern`` (no-op if that pair is already there)."""
        self._add(pattern, (value,))

    def add_many(self, pairs: Iterable[tuple[str, V]]) -> None:
        """``add`` every (pattern, value) pair; each distinct pattern is parsed and placed once, however
        many values it has (estates repeat patterns: the benchmark's 500,000 subscriptions use 200,000)."""
        groups: dict[str, list[V]] = {}
        for pattern, value in pairs:
            found = groups.get(pattern)
            if found is None:
                groups[pattern] = [value]
            else:
                found.append(value)
        for pattern, values in groups.items():
            self._add(pattern, values)

    def _add(self, pattern: str, values: Sequence[V]) -> None:
        if not self._literal_fast(pattern):
            tokens = _parse(pattern, self._dialect)
            if ONE in tokens or MANY in tokens:
                self._add_tree(tokens, values)
                return
        cur = self._literal.get(pattern, _NO)
        new = self._put_all(cur, values)
        if new is not cur:
            self._literal[pattern] = new

    def _put_all(self, cur: Any, values: Sequence[V]) -> Any:
        """``_put`` each value; into an empty slot, hashable values are de-duplicated in one pass (a
        pattern shared by thousands of subscriptions would make ``_put`` one by one quadratic)."""
        if cur is _NO and len(values) > _FEW:
            try:
                fresh = list(dict.fromkeys(values))
            except TypeError:  # values that cannot be hashed: compared one by one below
                pass
            else:
                self._count += len(fresh)
                return fresh[0] if len(fresh) == 1 else _Bag(fresh)
        for value in values:
            cur, added = _put(cur, value)
            self._count += added
        return cur

    def _add_tree(self, tokens: tuple[str | int, ...], values: Sequence[V]) -> None:
        node = self._root
        last = len(tokens) - 1
        for i, t in enumerate(tokens):
            if type(t) is str:  # the common token first: a str never equals the int wildcards
                level = sys.intern(t)
                nxt = node.c if node.k == level else node.d.get(level) if node.d is not None else None
                if nxt is None:
                    nxt = _Node()
                    if node.c is None:
                        node.k, node.c = level, nxt
                    else:
                        if node.d is None:
                            node.d = {}
                        node.d[level] = nxt
                node = nxt
            elif t == MANY and i == last:
                node.tail = self._put_all(node.tail, values)
                return
            elif t == MANY:
                if node.h is None:
                    node.h = _Node(loop=True)
                    self._hash_nodes += 1
                node = node.h
            else:
                if node.p is None:
                    node.p = _Node()
                node = node.p
        node.v = self._put_all(node.v, values)

    def discard(self, pattern: str, value: V) -> None:
        """Remove the (pattern, value) pair if present; prune tree nodes left empty."""
        if not self._literal_fast(pattern):
            tokens = _parse(pattern, self._dialect)
            if not all(type(t) is str for t in tokens):
                self._discard_tree(tokens, value)
                return
        cur = self._literal.get(pattern, _NO)
        new, removed = _take(cur, value)
        if removed:
            self._count -= 1
            if new is _NO:
                del self._literal[pattern]
            else:
                self._literal[pattern] = new

    def _discard_tree(self, tokens: tuple[str | int, ...], value: V) -> None:
        node = self._root
        path: list[tuple[_Node, str | int]] = []  # (parent, token leading to the child)
        last = len(tokens) - 1
        trailing = tokens[last] == MANY
        for t in tokens[:last] if trailing else tokens:
            nxt = node.h if t == MANY else node.p if t == ONE else node.child(str(t))
            if nxt is None:
                return
            path.append((node, t))
            node = nxt
        if trailing:
            node.tail, removed = _take(node.tail, value)
        else:
            node.v, removed = _take(node.v, value)
        if not removed:
            return
        self._count -= 1
        while path and node.empty():
            parent, t = path.pop()
            if t == MANY:
                parent.h = None
                self._hash_nodes -= 1
            elif t == ONE:
                parent.p = None
            else:
                self._unlink(parent, str(t))
            node = parent

    @staticmethod
    def _unlink(parent: _Node, level: str) -> None:
        if parent.k == level:
            if parent.d:
                parent.k, parent.c = parent.d.popitem()
                if not parent.d:
                    parent.d = None
            else:
                parent.k = parent.c = None
        elif parent.d is not None:
            del parent.d[level]
            if not parent.d:
                parent.d = None

    def match(self, topic: str) -> list[V]:
        """Values of every pattern matching the concrete ``topic`` (each (pattern, value) once)."""
        out: list[Any] = []
        cur = self._literal.get(topic, _NO)
        if cur is not _NO:
            _emit(out, cur)
        if self._hash_nodes:
            self._match_general(topic, out)
            return out
        # Fast path: no '#' in mid-pattern, so the tree is walked along unique paths and nothing repeats.
        active = [self._root]
        for level in topic.split(self._sep):
            nxt: list[Any] = []  # node.c is never None when node.k matched
            for node in active:
                cur = node.tail
                if cur is not _NO:
                    if type(cur) is _Bag:
                        out.extend(cur)
                    else:
                        out.append(cur)
                if node.k == level:
                    nxt.append(node.c)
                elif node.d is not None:
                    child = node.d.get(level)
                    if child is not None:
                        nxt.append(child)
                if node.p is not None:
                    nxt.append(node.p)
            if not nxt:
                return out
            active = nxt
        for node in active:
            cur = node.v
            if cur is not _NO:
                _emit(out, cur)
            cur = node.tail
            if cur is not _NO:
                _emit(out, cur)
        return out

    def _match_general(self, topic: str, out: list[Any]) -> None:
        """Any pattern shape: a '#' node stays active (self-loop) and is entered as soon as its parent is
        (it may match zero levels), so a node can be reached along several paths; active nodes and the
        nodes whose values are emitted are de-duplicated (nodes hash by identity)."""
        active: list[_Node] = []
        node: _Node | None = self._root
        while node is not None:
            active.append(node)
            node = node.h
        tails: list[_Node] = []
        for level in topic.split(self._sep):
            nxt: list[_Node] = []
            for node in active:
                if node.tail is not _NO:
                    tails.append(node)
                child = node.c if node.k == level else node.d.get(level) if node.d is not None else None
                while child is not None:
                    nxt.append(child)
                    child = child.h
                child = node.p
                while child is not None:
                    nxt.append(child)
                    child = child.h
                if node.loop:
                    nxt.append(node)
            if not nxt:
                break
            active = list(dict.fromkeys(nxt)) if len(nxt) > 1 else nxt
        else:
            for node in active:
                if node.v is not _NO:
                    _emit(out, node.v)
                if node.tail is not _NO:
                    tails.append(node)
        for node in dict.fromkeys(tails) if len(tails) > 1 else tails:
            _emit(out, node.tail)
