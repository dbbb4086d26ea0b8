"""Adversarial inputs: the cases that took seconds, minutes or gigabytes before issue 13, timed now.

    .venv/bin/python benchmarks/bench_adversarial.py [--runs 5] [--json]

Each time is the median of ``--runs`` runs, in milliseconds, of one call on one core (caches cleared,
so every run parses its pattern or selector afresh). The MQSC cases parse a script holding one huge
quoted value in a fresh subprocess: the time without tracing, then the peak of the memory Python
allocates while parsing (``tracemalloc``; the script text itself excluded). Figures and the "before" column: docs/benchmarks.md, section "Adversarial inputs".
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import harness  # noqa: E402

from mqctl.domain import topics  # noqa: E402
from mqctl.domain.errors import InputError  # noqa: E402
from mqctl.domain.messages import JmsValue, Message  # noqa: E402
from mqctl.domain.model import Dialect  # noqa: E402
from mqctl.domain.selector import compile_selector  # noqa: E402

# Inputs built once, outside the timed calls.
FORTY_LEVELS = "/".join(["a"] * 40)
FIVE_THOUSAND_LEVELS = "/".join(["a"] * 5000)
HASH_A_30 = "/".join(["#", "a"] * 30) + "/b"
MAX_TOPIC = "a" * 10240
HUNDRED_CHARS = Message.create({"s": JmsValue("string", "a" * 100)})
OR_CHAIN = " OR ".join(f"a = {i}" for i in range(930))
TOO_LONG_SELECTOR = "a = 1" + " " * 10236
LONG_NUMBER = "a = " + "1" * 5000
HUGE_TOPIC = "/".join(["x"] * 100_000)
EXPLODING = "#/a/" + "/".join(["+"] * 30)


def _clear_caches() -> None:
    for cached in (
        topics.compile_pattern,
        topics.level_tokens,
        topics._char_matcher,
        topics._subset,
        compile_selector,
    ):
        cached.cache_clear()


def _refused(call: Callable[[], object]) -> Callable[[], object]:
    def run() -> object:
        try:
            call()
        except InputError:
            return "refused"
        raise AssertionError("expected an InputError")

    return run


def _like(pattern: str) -> Callable[[], object]:
    return lambda: compile_selector(f"s LIKE '{pattern}'").evaluate(HUNDRED_CHARS)


CASES: list[tuple[str, Callable[[], object]]] = [
    (
        "topic match '#/#/#/#/#/#/#/#/z', 40-level topic (no match)",
        lambda: topics.matches("#/#/#/#/#/#/#/#/z", FORTY_LEVELS, Dialect.MQ),
    ),
    (
        "topic match '#/#/#/#/#/#/#/#/a', 40-level topic (match)",
        lambda: topics.matches("#/#/#/#/#/#/#/#/a", FORTY_LEVELS, Dialect.MQ),
    ),
    (
        "topic match '#/a' x 30 + '/b', 5,000-level topic",
        lambda: topics.matches(HASH_A_30, FIVE_THOUSAND_LEVELS, Dialect.MQ),
    ),
    (
        "WSCHEMA(CHAR) '*a*a*a*a*a*a*a*b', 100 characters",
        lambda: topics.char_matches("*a*a*a*a*a*a*a*b", "a" * 100),
    ),
    (
        "WSCHEMA(CHAR) '*a' x 50 + '*b', 10,240 characters",
        lambda: topics.char_matches("*a" * 50 + "*b", MAX_TOPIC),
    ),
    ("LIKE '%a%a%a%a%a%a%a%b', 100 characters (compile + evaluate)", _like("%a%a%a%a%a%a%a%b")),
    ("LIKE '%a' x 50 + '%b', 100 characters (compile + evaluate)", _like("%a" * 50 + "%b")),
    (
        "selector of 10,240 characters (930-term OR), compile",
        lambda: compile_selector(OR_CHAIN),
    ),
    (
        "selector of 10,241 characters, refused",
        _refused(lambda: compile_selector(TOO_LONG_SELECTOR)),
    ),
    ("selector number of 5,000 digits, refused", _refused(lambda: compile_selector(LONG_NUMBER))),
    (
        "topic of 100,000 levels, refused",
        _refused(lambda: topics.topic_prefix_keys(HUGE_TOPIC, Dialect.MQ)),
    ),
    (
        "is_subset of '#/a/+/.../+' (30 '+') with itself, refused",
        _refused(lambda: topics.is_subset(EXPLODING, EXPLODING, Dialect.MQ)),
    ),
]

_MQSC_PROBE = """
import sys, time, tracemalloc
from mqctl.formats.mqsc import parse_mqsc
size, kind = int(sys.argv[1]), sys.argv[2]
body = "x" * size if kind == "plain" else "x''" * (size // 3)
text = "DEFINE TOPIC(T) TOPICSTR('/a') DESCR('" + body + "') REPLACE\\n"
del body
start = time.perf_counter()
items = parse_mqsc(text)
elapsed = time.perf_counter() - start
del items
tracemalloc.start()
items = parse_mqsc(text)
peak = tracemalloc.get_traced_memory()[1]
print(elapsed, peak / 2**20)
"""


def mqsc_value(size: int, kind: str) -> tuple[float, float]:
    """(seconds, MB of peak memory growth) to parse one command with a ``size``-character value."""
    probe = [sys.executable, "-c", _MQSC_PROBE, str(size), kind]
    run = harness.timed(probe, env=harness.ENV | {"PYTHONPATH": str(ROOT)})
    out = harness.checked(run, f"the MQSC probe ({size:,} {kind})", ok=(0,)).proc.stdout.split()
    return float(out[0]), float(out[1])


def time_ms(call: Callable[[], object], runs: int) -> float:
    """The median of ``runs`` calls in milliseconds, each with the caches cleared first."""
    samples = []
    for _ in range(runs):
        _clear_caches()
        with harness.stopwatch() as clock:
            call()
        samples.append(clock.wall * 1000)
    return statistics.median(samples)


def table(result: Mapping[str, Any]) -> Iterator[str]:
    yield f"Adversarial inputs (median of {result['runs']} runs, Python {result['python']})"
    for name, ms in result["cases"].items():
        yield f"  {ms:>10.3f} ms  {name}"
    for name, figures in result["mqsc"].items():
        yield f"  {figures['ms']:>10.1f} ms  {name}, peak memory +{figures['peak_mb']:.0f} MB"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result: dict[str, Any] = {"python": platform.python_version(), "runs": args.runs, "cases": {}, "mqsc": {}}
    for name, call in CASES:
        result["cases"][name] = round(time_ms(call, args.runs), 3)
    for size, kind in [
        (1_000_000, "plain"),
        (20_000_000, "plain"),
        (1_000_000, "quotes"),
        (20_000_000, "quotes"),
    ]:
        filler = "x" if kind == "plain" else "x''"
        label = f"MQSC value of {size // 1_000_000} MB ({filler} repeated)"
        seconds, megabytes = mqsc_value(size, kind)
        result["mqsc"][label] = {"ms": round(seconds * 1000, 1), "peak_mb": round(megabytes, 1)}
    harness.emit(result, args.json, table)


if __name__ == "__main__":
    main()
