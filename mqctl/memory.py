"""Garbage-collector control, in one place per process kind.

- The CLI (``cli.main.run``): a command is short and builds many small, mostly acyclic objects at once —
  tokens, rows, domain objects, an explain slice. Each allocation burst triggers collections that rescan
  everything still alive (a third of a 100,000-statement import, half of an explain over a 200-server
  mesh), so the whole command runs with the cyclic collector paused (reference counting still frees
  everything acyclic), and what is alive at exit is frozen so that the interpreter's last collection
  skips it.
- The Spark worker (``spark/batches.py``): the routing models live as long as the worker; they are built
  with the collector paused and then frozen.

The domain, the formats and the services never touch the collector (tests/test_layers.py keeps
``mqctl.memory`` out of the domain).
"""

from __future__ import annotations

import atexit
import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def gc_paused() -> Iterator[None]:
    """The cyclic collector off inside the block (left as it was when already off)."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


_exit_freeze_registered = False


@contextmanager
def command_process() -> Iterator[None]:
    """How one CLI command runs: collector paused for the command, objects frozen at exit.

    The interpreter's last collection walks every object still alive at exit: after a large import that
    took ~0.4 s of a 5 s command for nothing. Freezing them first makes it skip them; the process ends
    right after, so nothing is kept longer than it would be. (In-process callers — the tests' runner —
    get the collector back on when the block ends.)"""
    global _exit_freeze_registered
    if not _exit_freeze_registered:
        atexit.register(gc.freeze)
        _exit_freeze_registered = True
    with gc_paused():
        yield
