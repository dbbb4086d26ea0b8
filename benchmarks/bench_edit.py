"""An edit costs one object: `define sub` on a queue manager holding 100,000 subscriptions against the
same command on an empty one, measured in the same run.

    .venv/bin/python benchmarks/bench_edit.py [--subs 100000] [--runs 15] [--json]

One SQLite store holds QMFULL (``--subs`` subscriptions, loaded once with `mqctl runmqsc`) and QMEMPTY.
Then, alternately, `mqctl define sub` of a new subscription on each is timed as a subprocess (wall
clock, process start included) and in process (the service inside one unit of work, no start-up); each
figure is the median of ``--runs``. Target: full <= 1.2 x empty.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import harness  # noqa: E402

BIN = Path(sys.executable).parent
MQCTL = str(BIN / "mqctl")
TARGET = 1.2


def mqctl(url: str, *args: str) -> float:
    """Wall seconds of ``mqctl --db URL ARGS`` as a subprocess, process start included."""
    return harness.checked(harness.timed([MQCTL, "--db", url, *args]), f"mqctl {args[0]}", ok=(0,)).wall


def load(url: str, subs: int, folder: Path) -> float:
    script = folder / "full.mqsc"
    script.write_text(
        "\n".join(f"DEFINE SUB(S{i:06d}) TOPICSTR('/app/{i % 97}/item{i}/#')" for i in range(subs)) + "\n"
    )
    return mqctl(url, "runmqsc", "QMFULL", str(script), "--create") + mqctl(url, "define", "qmgr", "QMEMPTY")


def cli_define(url: str, qmgr: str, name: str) -> float:
    return mqctl(url, "define", "sub", name, "--qmgr", qmgr, "--topicstr", "/bench/#")


def service_define(url: str, qmgr: str, name: str) -> float:
    from mqctl.domain.model import Subscription
    from mqctl.services.objects import define_sub
    from mqctl.store.session import unit_of_work

    with harness.stopwatch() as clock, unit_of_work(url) as store:
        define_sub(store, Subscription(qmgr, name, "/bench/#"), replace=False)
    return clock.wall


def table(result: Mapping[str, Any]) -> Iterator[str]:
    yield (
        f"define sub, {result['subscriptions']:,} subscriptions on QMFULL, median of {result['runs']}"
        f" (store loaded in {result['load_s']:.1f} s)"
    )
    for key, value in result["median_s"].items():
        yield f"  {key:<14} {value * 1000:8.1f} ms"
    cli, service = result["cli_ratio_full_over_empty"], result["service_ratio_full_over_empty"]
    verdict = "met" if cli <= TARGET else "MISSED"
    yield f"  ratio full/empty: CLI {cli}, service {service} (target <= {TARGET}: {verdict})"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--subs", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{Path(tmp) / 'edit.db'}"
        loaded = load(url, args.subs, Path(tmp))
        times: dict[str, list[float]] = {
            "cli full": [],
            "cli empty": [],
            "service full": [],
            "service empty": [],
        }
        cli_define(url, "QMFULL", "WARM.F")
        cli_define(url, "QMEMPTY", "WARM.E")
        for run in range(args.runs):
            times["cli full"].append(cli_define(url, "QMFULL", f"C.F{run}"))
            times["cli empty"].append(cli_define(url, "QMEMPTY", f"C.E{run}"))
            times["service full"].append(service_define(url, "QMFULL", f"S.F{run}"))
            times["service empty"].append(service_define(url, "QMEMPTY", f"S.E{run}"))
    medians = {k: statistics.median(v) for k, v in times.items()}
    result = {
        "subscriptions": args.subs,
        "runs": args.runs,
        "load_s": round(loaded, 2),
        "median_s": {k: round(v, 4) for k, v in medians.items()},
        "cli_ratio_full_over_empty": round(medians["cli full"] / medians["cli empty"], 3),
        "service_ratio_full_over_empty": round(medians["service full"] / medians["service empty"], 3),
        "target": TARGET,
    }
    harness.emit(result, args.json, table)


if __name__ == "__main__":
    main()
