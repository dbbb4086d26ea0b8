"""What every benchmark shares: a command timed as a whole process (wall clock and CPU), alternated with
its floor in the same run, medians and ratios, and the output (a table or one JSON object).

The machines are shared and noisy, so a figure is always a ratio to a floor measured in the same run,
alternating, after a warm-up; CPU time (the children's resource usage) is reported beside wall time
because it is the steadier of the two on a busy machine.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shlex
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"} | {
    "PYTHONPYCACHEPREFIX": str(Path(tempfile.gettempdir()) / "mqctl-bench-pycache")
}
"""A timed process's environment: bytecode compiled once and kept, as for an installed mqctl (an editable
install under ``PYTHONDONTWRITEBYTECODE`` recompiles every module at every start, ~0.1 s of CPU that the
floors' installed libraries never pay)."""


def children_cpu() -> float:
    """CPU seconds (user + system) of every child process reaped so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


@dataclass(frozen=True)
class Timed:
    """One run of a command: wall clock, CPU of the process (and its pipeline), what it returned."""

    wall: float
    cpu: float
    proc: subprocess.CompletedProcess[str]


def timed(
    argv: Sequence[str], *, env: Mapping[str, str] | None = ENV, pipe: bool = False, keep_output: bool = True
) -> Timed:
    """Run ``argv`` once; ``pipe``: as ``argv | cat >/dev/null`` (output to another program, as a user's
    pipeline has it); else its output captured, or thrown away unread (``keep_output=False``: a command
    that prints hundreds of thousands of lines, whose reading would weigh on the wall clock)."""
    cmd: Sequence[str] = argv
    if pipe:
        cmd = ["bash", "-c", f"set -o pipefail; {shlex.join(argv)} | cat >/dev/null"]
    stdout = subprocess.PIPE if keep_output else subprocess.DEVNULL
    cpu0, t0 = children_cpu(), time.perf_counter()
    proc = subprocess.run(list(cmd), stdout=stdout, stderr=subprocess.PIPE, text=True, check=False, env=env)
    return Timed(time.perf_counter() - t0, children_cpu() - cpu0, proc)


def checked(run: Timed, what: str, ok: Iterable[int] = (0, 1)) -> Timed:
    """``run``, or the benchmark stopped with the command's own error when it exited otherwise."""
    if run.proc.returncode not in tuple(ok):
        raise SystemExit(f"{what} failed ({run.proc.returncode}): {run.proc.stderr.strip()[-500:]}")
    return run


@dataclass(frozen=True)
class Figure:
    """Medians of several runs of one command (``walls``: each run's wall clock, in order)."""

    wall: float
    cpu: float
    runs: int
    walls: tuple[float, ...] = ()


def alternate(
    commands: Mapping[str, Sequence[str]],
    runs: int,
    *,
    warmup: int = 1,
    pipe: bool = False,
    env: Mapping[str, str] | None = ENV,
    ok: Iterable[int] = (0, 1),
    before: Callable[[str], object] | None = None,
) -> dict[str, Figure]:
    """Each command ``warmup`` times untimed, then all of them in turn ``runs`` times: the medians. Taking
    turns keeps a drift of the machine's speed out of the ratios between them. ``before(name)`` runs
    untimed before every run of a command (e.g. to remove what its last run wrote)."""

    def once(name: str, argv: Sequence[str]) -> Timed:
        if before is not None:
            before(name)
        return checked(timed(argv, env=env, pipe=pipe), shlex.join(argv), ok)

    for name, argv in commands.items():
        for _ in range(warmup):
            once(name, argv)
    samples: dict[str, list[Timed]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, argv in commands.items():
            samples[name].append(once(name, argv))
    return {
        name: Figure(
            statistics.median(s.wall for s in got),
            statistics.median(s.cpu for s in got),
            len(got),
            tuple(s.wall for s in got),
        )
        for name, got in samples.items()
    }


@dataclass
class Clock:
    """What a block of this process took: wall clock and this process's CPU seconds (set when it ends)."""

    wall: float = 0.0
    cpu: float = 0.0
    started: float = field(default_factory=time.perf_counter, repr=False)

    def so_far(self) -> float:
        """Wall seconds since the block began (for a loop that runs for a given time)."""
        return time.perf_counter() - self.started


@contextmanager
def stopwatch() -> Iterator[Clock]:
    """Time the ``with`` block in this process: no process start, for the parts a benchmark takes apart."""
    cpu0 = time.process_time()
    clock = Clock()
    try:
        yield clock
    finally:
        clock.wall = clock.so_far()
        clock.cpu = time.process_time() - cpu0


def ratio(value: float, floor: float) -> float | None:
    """``value / floor`` to two places; None for a floor of nothing (too fast to measure)."""
    return round(value / floor, 2) if floor else None


def estate_parser(doc: str | None, *, runs: int | None) -> argparse.ArgumentParser:
    """The options of a benchmark on the generated estate: its size (``gen_topology``), ``--runs``
    (not for ``runs=None``: a benchmark that runs nothing twice), ``--cache`` and ``--json``."""
    from gen_topology import add_estate_options

    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_estate_options(parser)
    if runs is not None:
        parser.add_argument(
            "--runs", type=int, default=runs, help="timed runs of each command, after one warm-up"
        )
    parser.add_argument(
        "--cache", default="~/.cache/mqctl-bench", help="where topologies and stores are kept"
    )
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    return parser


def emit(
    result: Mapping[str, Any],
    as_json: bool,
    text: Callable[[Mapping[str, Any]], Iterable[str]] | None = None,
) -> int:
    """Print ``result`` as one JSON object (on one line, whatever reads it), or as the lines ``text`` makes
    of it (a benchmark without ``text`` prints only JSON)."""
    if as_json or text is None:
        print(json.dumps(result))
    else:
        for line in text(result):
            print(line)
    return 0
