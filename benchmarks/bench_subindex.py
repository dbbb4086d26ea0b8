"""Benchmark of ``SubscriptionIndex`` at a million MQ patterns (a script, not a test).

    python benchmarks/bench_subindex.py [--patterns N] [--topics M] [--seed S] [--json]

Patterns: depth 4-8 (uniform); levels 1-2 from a 1,000-word vocabulary, deeper levels from 50 words;
70% literal, 20% with one '+' at a random level >= 2, 10% ending in '#' at a random level >= 3.
Topics: drawn the same way, all literal. Memory is the growth of the process's resident set (VmRSS)
across the build, and the peak (VmHWM / ru_maxrss); tracemalloc would slow the build several-fold.
"""

from __future__ import annotations

import argparse
import gc
import random
import resource
import sys
import time
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import emit, stopwatch  # noqa: E402

from mqctl.domain.model import Dialect  # noqa: E402
from mqctl.domain.subindex import SubscriptionIndex  # noqa: E402

TARGET_LOOKUPS_PER_S = 200_000
TARGET_P99_US = 50.0
TARGET_BUILD_S = 8.0
TARGET_MEMORY_MB = 1536.0


def _status_kb(field: str) -> int | None:
    """A field of /proc/self/status in kB (Linux only)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1])
    except OSError:
        return None
    return None


def _rss_mb() -> float:
    kb = _status_kb("VmRSS")
    if kb is None:  # not Linux: fall back to the peak, the best the OS offers
        kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return kb / 1024


def _peak_mb() -> float:
    kb = _status_kb("VmHWM") or resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return kb / 1024


def _vocab(prefix: str, size: int) -> list[str]:
    return [f"{prefix}{i}" for i in range(size)]


def _levels(rng: random.Random, top: list[str], deep: list[str]) -> list[str]:
    depth = rng.randint(4, 8)
    return [rng.choice(top) for _ in range(2)] + [rng.choice(deep) for _ in range(depth - 2)]


def generate(n_patterns: int, n_topics: int, seed: int) -> tuple[list[str], list[str]]:
    rng = random.Random(seed)
    top, deep = _vocab("w", 1000), _vocab("d", 50)
    patterns: list[str] = []
    for _ in range(n_patterns):
        lv = _levels(rng, top, deep)
        r = rng.random()
        if r < 0.2:  # one '+' at a level >= 2 (1-based)
            lv[rng.randint(1, len(lv) - 1)] = "+"
        elif r < 0.3:  # ends in '#' at a level >= 3
            cut = rng.randint(2, len(lv) - 1)
            lv = [*lv[:cut], "#"]
        patterns.append("/".join(lv))
    topics = ["/".join(_levels(rng, top, deep)) for _ in range(n_topics)]
    return patterns, topics


def run(n_patterns: int, n_topics: int, seed: int) -> dict[str, float | int]:
    patterns, topics = generate(n_patterns, n_topics, seed)
    gc.collect()
    rss0 = _rss_mb()
    index: SubscriptionIndex[int] = SubscriptionIndex(Dialect.MQ)
    add = index.add
    with stopwatch() as build:
        for i, p in enumerate(patterns):
            add(p, i)
    gc.collect()
    rss1 = _rss_mb()

    match = index.match
    clock = time.perf_counter_ns  # each lookup's latency: a nanosecond clock, not a stopwatch's two
    times = [0] * len(topics)
    total = 0
    with stopwatch() as timed:
        for j, topic in enumerate(topics):
            s = clock()
            found = match(topic)
            times[j] = clock() - s
            total += len(found)
    # Throughput without the per-lookup clock calls.
    with stopwatch() as plain:
        for topic in topics:
            match(topic)
    times.sort()

    def pct(q: float) -> float:
        return times[min(len(times) - 1, int(q * len(times)))] / 1000

    return {
        "patterns": n_patterns,
        "topics": n_topics,
        "seed": seed,
        "entries": len(index),
        "build_s": round(build.wall, 3),
        "memory_growth_mb": round(rss1 - rss0, 1),
        "peak_rss_mb": round(_peak_mb(), 1),
        "lookups_per_s": round(len(topics) / plain.wall),
        "lookups_per_s_timed": round(len(topics) / timed.wall),
        "mean_matches": round(total / len(topics), 3),
        "p50_us": round(pct(0.50), 2),
        "p99_us": round(pct(0.99), 2),
        "max_us": round(times[-1] / 1000, 2),
    }


def table(r: Mapping[str, Any]) -> Iterator[str]:
    checks = {
        "lookups_per_s": r["lookups_per_s"] >= TARGET_LOOKUPS_PER_S,
        "p99_us": r["p99_us"] < TARGET_P99_US,
        "build_s": r["build_s"] <= TARGET_BUILD_S,
        "memory_growth_mb": r["memory_growth_mb"] <= TARGET_MEMORY_MB,
    }
    targets = {
        "lookups_per_s": f">= {TARGET_LOOKUPS_PER_S:,}",
        "p99_us": f"< {TARGET_P99_US:g}",
        "build_s": f"<= {TARGET_BUILD_S:g}",
        "memory_growth_mb": f"<= {TARGET_MEMORY_MB:g}",
    }
    yield f"{'metric':<22}{'value':>14}  target"
    for key, value in r.items():
        mark = ("ok" if checks[key] else "MISSED") if key in checks else ""
        yield f"{key:<22}{value:>14,}  {targets.get(key, '')} {mark}".rstrip()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--patterns", type=int, default=1_000_000)
    ap.add_argument("--topics", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    args = ap.parse_args(argv)
    return emit(run(args.patterns, args.topics, args.seed), args.json, table)


if __name__ == "__main__":
    raise SystemExit(main())
