"""The cyclic garbage collector paused while a command builds many small objects at once.

An import or an explain over a large slice allocates millions (or tens of thousands) of small acyclic
objects — tokens, rows, domain objects; each allocation burst triggers collections that rescan everything
still alive (a third of a 100,000-statement import, half of an explain over a 200-server mesh).
Reference counting still frees everything; the collector runs again when the block ends.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def gc_paused() -> Iterator[None]:
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
