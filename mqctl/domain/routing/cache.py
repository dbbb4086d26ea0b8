"""A small least-recently-used cache: what a routing model keeps per topic must not grow without bound."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

__all__ = ["BoundedCache"]

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

_MISSING = object()


class BoundedCache(Generic[K, V]):
    """At most ``size`` entries; the least recently used one goes first. ``size`` 0 keeps nothing.

    An ``OrderedDict``: dropping the oldest entry is O(1) there, while a plain dict's first entry is
    found by skipping the holes its earlier deletions left (a cold stream of keys pays it on every miss).
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[K, V] = OrderedDict()

    def __len__(self) -> int:
        return len(self._items)

    def get(self, key: K, make: Callable[[], V]) -> V:
        """The value for ``key``, made (and kept) on a miss."""
        items = self._items
        found = items.get(key, _MISSING)
        if found is not _MISSING:
            items.move_to_end(key)
            return found  # type: ignore[return-value]
        value = make()
        if self.size > 0:
            if len(items) >= self.size:
                items.popitem(last=False)
            items[key] = value
        return value

    def clear(self) -> None:
        self._items.clear()
