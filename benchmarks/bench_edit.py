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
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BIN = Path(sys.executable).parent
MQCTL = str(BIN / "mqctl")
TARGET = 1.2


def load(url: str, subs: int, folder: Path) -> float:
    script = folder / "full.mqsc"
    script.write_text(
        "\n".join(f"DEFINE SUB(S{i:06d}) TOPICSTR('/app/{i % 97}/item{i}/#')" for i in range(subs)) + "\n"
    )
    start = time.perf_counter()
    subprocess.run(
        [MQCTL, "--db", url, "runmqsc", "QMFULL", str(script), "--create"], check=True, capture_output=True
    )
    subprocess.run([MQCTL, "--db", url, "define", "qmgr", "QMEMPTY"], check=True, capture_output=True)
    return time.perf_counter() - start


def cli_define(url: str, qmgr: str, name: str) -> float:
    start = time.perf_counter()
    subprocess.run(
        [MQCTL, "--db", url, "define", "sub", name, "--qmgr", qmgr, "--topicstr", "/bench/#"],
        check=True,
        capture_output=True,
    )
    return time.perf_counter() - start


def service_define(url: str, qmgr: str, name: str) -> float:
    from mqctl.domain.model import Subscription
    from mqctl.services.objects import define_sub
    from mqctl.store.session import unit_of_work

    start = time.perf_counter()
    with unit_of_work(url) as store:
        define_sub(store, Subscription(qmgr, name, "/bench/#"), replace=False)
    return time.perf_counter() - start


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
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(
        f"define sub, {args.subs:,} subscriptions on QMFULL, median of {args.runs} (store loaded in {loaded:.1f} s)"
    )
    for key, value in medians.items():
        print(f"  {key:<14} {value * 1000:8.1f} ms")
    verdict = "met" if result["cli_ratio_full_over_empty"] <= TARGET else "MISSED"
    print(
        f"  ratio full/empty: CLI {result['cli_ratio_full_over_empty']}, service {result['service_ratio_full_over_empty']} (target <= {TARGET}: {verdict})"
    )


if __name__ == "__main__":
    main()
