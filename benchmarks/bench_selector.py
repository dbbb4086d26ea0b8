"""Selector evaluation throughput: evaluations per second of compiled selectors on one core.

    .venv/bin/python benchmarks/bench_selector.py            # table
    .venv/bin/python benchmarks/bench_selector.py --json     # machine-readable

Each case is timed with the message for which it is TRUE and one for which it is FALSE (short-circuiting
makes them differ). Compilation is timed separately (with the lru_cache bypassed).
"""

from __future__ import annotations

import argparse
import platform
import sys
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import Clock, emit, stopwatch  # noqa: E402

from mqctl.domain.messages import Message, parse_header, parse_property  # noqa: E402
from mqctl.domain.selector import compile_selector  # noqa: E402


def message(*props: str, headers: tuple[str, ...] = ()) -> Message:
    return Message.create(dict(parse_property(p) for p in props), dict(parse_header(h) for h in headers))


COMMON = ("region=EMEA", "size=250", "price=19.99", "quantity=3", "symbol=IBM")
CASES: list[tuple[str, str, Message, Message]] = [
    (
        "comparison+AND",
        "country = 'USA' AND priority > 4",
        message("country=USA", "priority=7", *COMMON),
        message("country=USA", "priority=2", *COMMON),
    ),
    (
        "LIKE",
        "symbol LIKE 'IB%' AND region <> 'APAC'",
        message("symbol=IBM", "region=EMEA"),
        message("symbol=MSFT", "region=EMEA"),
    ),
    (
        "IN",
        "region IN ('EMEA', 'NA', 'LATAM') OR JMSPriority >= 8",
        message("region=NA"),
        message("region=APAC"),
    ),
    (
        "BETWEEN",
        "size BETWEEN 100 AND 500 AND JMSDeliveryMode = 'PERSISTENT'",
        message("size=250"),
        message("size=900"),
    ),
    (
        "arithmetic",
        "price * quantity > 50.0 AND quantity / 2 >= 1",
        message("price=19.99", "quantity=3"),
        message("price=9.99", "quantity=3"),
    ),
]


def rate(evaluate: Callable[[Message], object], message: Message, seconds: float) -> float:
    """Evaluations per second, best of three runs of about `seconds` / 3 each."""

    def loop(n: int) -> Clock:
        with stopwatch() as clock:
            for _ in range(n):
                evaluate(message)
        return clock

    n = 10_000
    while (dt := loop(n).wall) <= 0.05:  # calibrate
        n *= 4
    n = max(1, int(n * (seconds / 3) / dt))
    return max(n / loop(n).wall for _ in range(3))


def compile_rate(text: str, seconds: float) -> float:
    raw = compile_selector.__wrapped__
    n = 0
    with stopwatch() as clock:
        while clock.so_far() < seconds:
            raw(text)
            n += 1
    return n / clock.wall


def table(result: Mapping[str, Any]) -> Iterator[str]:
    rows = result["results"]
    width = max(len(r["selector"]) for r in rows)
    yield f"{'case':<16} {'selector':<{width}} {'TRUE evals/s':>13} {'FALSE evals/s':>14} {'compiles/s':>11}"
    for r in rows:
        yield (
            f"{r['case']:<16} {r['selector']:<{width}} {r['true_per_s']:>13,} {r['false_per_s']:>14,}"
            f" {r['compiles_per_s']:>11,}"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument("--seconds", type=float, default=1.5, help="time per measurement (default 1.5)")
    args = parser.parse_args()
    rows: list[dict[str, Any]] = []
    for name, text, true_msg, false_msg in CASES:
        sel = compile_selector(text)
        assert sel.evaluate(true_msg) is True, (name, "true message")
        assert sel.evaluate(false_msg) is False, (name, "false message")
        rows.append(
            {
                "case": name,
                "selector": text,
                "true_per_s": round(rate(sel.matches, true_msg, args.seconds)),
                "false_per_s": round(rate(sel.matches, false_msg, args.seconds)),
                "compiles_per_s": round(compile_rate(text, args.seconds / 3)),
            }
        )
    meta = {"python": platform.python_version(), "machine": platform.machine()}
    return emit({"meta": meta, "results": rows}, args.json, table)


if __name__ == "__main__":
    raise SystemExit(main())
