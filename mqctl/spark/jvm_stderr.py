"""The JVM's standard error, passed on without the lines it prints at every start that say nothing to a
user: Spark's launcher always adds ``--add-modules=jdk.incubator.vector``, and the JVM then warns on
stderr that it uses an incubator module, which no option of Java or Spark turns off.

The JVM is a child process that inherits file descriptor 2: while it starts, descriptor 2 is a pipe,
and a thread copies what arrives to the real stderr, line by line, leaving out the known lines.
Python's own stderr is given back at once; the JVM (and the Python workers it starts) keep the pipe
for their lives, and the thread ends when the last of them closes it.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["NOISE", "jvm_stderr_filtered", "pass_on"]

NOISE = (b"WARNING: Using incubator modules:",)
"""Starts of the lines left out."""


def pass_on(source: int, target: int, noise: tuple[bytes, ...] = NOISE) -> None:
    """Copy ``source`` to ``target`` until end of file, line by line, without the lines starting with
    one of ``noise``; then close both."""
    pending = b""
    try:
        while chunk := os.read(source, 65536):
            pending += chunk
            *lines, pending = pending.split(b"\n")
            kept = b"".join(line + b"\n" for line in lines if not line.startswith(noise))
            if kept:
                os.write(target, kept)
        if pending and not pending.startswith(noise):
            os.write(target, pending)
    except OSError:
        pass  # the terminal went away: nothing left to write to
    finally:
        os.close(source)
        os.close(target)


@contextmanager
def jvm_stderr_filtered() -> Iterator[None]:
    """Processes started inside this block write their stderr through the filter; Python's own stderr
    is unchanged after it."""
    try:
        read_end, write_end = os.pipe()
        terminal, saved = os.dup(2), os.dup(2)
    except OSError:
        yield  # no descriptors to spare: the JVM writes straight to stderr, as without the filter
        return
    os.dup2(write_end, 2)
    os.close(write_end)
    threading.Thread(target=pass_on, args=(read_end, terminal), name="jvm-stderr", daemon=True).start()
    try:
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)
