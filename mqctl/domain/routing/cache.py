"""A small least-recently-used cache: what a routing model keeps per topic must not grow without bound."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

__all__ = ["BoundedCache"]

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

_MISSING = object()


class BoundedCache(Generic[K, V]):
    """At most ``size`` entries; the least recently used one goes first. ``size`` 0 keeps nothing."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: dict[K, V] = {}

    def __len__(self) -> int:
        return len(self._items)

    def get(self, key: K, make: Callable[[], V]) -> V:
        """The value for ``key``, made (and kept) on a miss."""
        found = self._items.pop(key, _MISSING)
        value: V = make() if found is _MISSING else found  # type: ignore[assignment]
        if self.size > 0:
            if len(self._items) >= self.size:
                del self._items[next(iter(self._items))]
            self._items[key] = value
        return value

    def clear(self) -> None:
        self._items.clear()
