"""`mqctl diff` against its floor, `mqctl validate --file` of one side, on the files CI would compare.

    .venv/bin/python benchmarks/bench_diff.py                                   # 5 clusters x 50 qmgrs
    .venv/bin/python benchmarks/bench_diff.py --clusters 2 --qmgrs-per-cluster 20 --runs 1   # quick

1. ``gen_topology.py`` writes an estate (``--clusters`` x ``--qmgrs-per-cluster`` queue managers, 10 topic
   objects and 100 subscriptions each, ``--ems-servers`` EMS servers) into a temporary folder, and a copy
   that differs by one change: the first ``CLROUTE(DIRECT)`` topic object of cluster CL00 becomes
   ``CLROUTE(TOPICHOST)`` (a topic with every member of the cluster as publisher).
2. In the same run, alternating after one warm-up of each, ``--runs`` times, as subprocesses (process
   start included): the floor ``mqctl validate --file BEFORE -o json`` and ``mqctl diff BEFORE AFTER -o json``.
3. Prints the medians, the ratio, and the probe count the diff reports (it routes only what the change can
   affect).

Target (issue 23): diff <= 3 x validate of one side (medians). The diff reads both sides and validates
both, so 2 x is its own floor; routing the probes is the rest.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from gen_topology import generate  # noqa: E402

TARGET = 3.0
MQCTL = [sys.executable, "-m", "mqctl"]


def timed(cmd: list[str]) -> tuple[float, subprocess.CompletedProcess[str]]:
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    return time.perf_counter() - t0, proc


def one_change(after: Path) -> str:
    """Flip the first CLROUTE(DIRECT) of CL00 to TOPICHOST; returns the file changed."""
    for script in sorted((after / "mqsc" / "CL00").glob("*.mqsc")):
        text = script.read_text()
        if "CLROUTE(DIRECT)" in text:
            script.write_text(text.replace("CLROUTE(DIRECT)", "CLROUTE(TOPICHOST)", 1))
            return str(script.relative_to(after))
    raise SystemExit("no CLROUTE(DIRECT) topic object in CL00")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--clusters", type=int, default=5)
    parser.add_argument("--qmgrs-per-cluster", type=int, default=50)
    parser.add_argument("--ems-servers", type=int, default=20)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="mqctl-bench-diff-") as folder:
        before, after = Path(folder) / "before", Path(folder) / "after"
        generate(before, args.clusters, args.qmgrs_per_cluster, 10, 100, args.ems_servers, 7)
        shutil.copytree(before, after)
        changed = one_change(after)
        validate = [*MQCTL, "validate", "--file", str(before), "-o", "json"]
        diff = [*MQCTL, "diff", str(before), str(after), "-o", "json"]
        times: dict[str, list[float]] = {"validate": [], "diff": []}
        report: dict[str, object] = {}
        for run in range(args.runs + 1):  # the first of each is a warm-up
            for name, cmd in (("validate", validate), ("diff", diff)):
                elapsed, proc = timed(cmd)
                if proc.returncode not in (0, 1):
                    raise SystemExit(f"{name} failed ({proc.returncode}): {proc.stderr.strip()[:500]}")
                if run:
                    times[name].append(elapsed)
                if name == "diff":
                    report = json.loads(proc.stdout)
        floor, cost = statistics.median(times["validate"]), statistics.median(times["diff"])
        probes = report["probes"]
        summary = report["summary"]
        assert isinstance(probes, dict) and isinstance(summary, dict)
        print(
            f"estate: {args.clusters} clusters x {args.qmgrs_per_cluster} qmgrs, {args.ems_servers} EMS servers"
        )
        print(f"change: one CLROUTE(DIRECT) -> CLROUTE(TOPICHOST) in {changed}")
        print(f"validate --file (one side): median {floor:.2f} s over {args.runs} run(s)")
        print(f"diff (both sides):          median {cost:.2f} s")
        print(f"probes: {probes['routed']} routed ({probes['how']})")
        print(f"subscriptions changed: {summary['subscriptions']}")
        ratio = cost / floor
        print(f"ratio diff / validate: {ratio:.2f} (target <= {TARGET})")
        if ratio > TARGET:
            sys.exit(1)


if __name__ == "__main__":
    main()
