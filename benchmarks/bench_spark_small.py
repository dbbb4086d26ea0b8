"""A small replay is quick: the demo's replay against a trivial local Spark job, in the same run.

    .venv/bin/python benchmarks/bench_spark_small.py [--runs 3] [--json]

The demo topology (demo/demo.sh: six queue managers, two topic hosts, five subscriptions), exported as a
snapshot, and the demo's log: 1,000 publications as JSON lines. Each measurement is a fresh process, as
a user runs it, timed by the wall clock:

- the floor: a trivial local Spark job — Python starts, a SparkSession starts (``local[2]``), reads the
  log and counts it, stops;
- the analysis: ``mqctl spark analyze`` of the demo (``--what-if down:QM3 --what-if
  topichost:ALASKA@QM3,QM4 --master local[2]``), every output written.

The two alternate ``--runs`` times; the medians are compared. Target: analysis <= 2 x the floor.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TARGET_RATIO = 2.0
MQCTL = str(Path(sys.executable).with_name("mqctl"))
DEMO = [
    ["define", "qmgr", "QM1", "--cluster", "USA", "--full-repository", "USA"],
    ["define", "qmgr", "QM2", "--cluster", "USA", "--full-repository", "USA"],
    *(["define", "qmgr", qm, "--cluster", "USA"] for qm in ("QM3", "QM4", "QM5", "QM6")),
    *(
        ["define", "topic", "ALABAMA", "--qmgr", qm, "--topicstr", "/USA/Alabama"]
        + ["--cluster", "USA", "--clroute", "topichost"]
        for qm in ("QM3", "QM4")
    ),
    ["define", "topic", "ALASKA", "--qmgr", "QM4", "--topicstr", "/USA/Alaska"]
    + ["--cluster", "USA", "--clroute", "topichost"],
    ["define", "sub", "MOBILE.ORDERS", "--qmgr", "QM5", "--topicstr", "/USA/Alabama/#"]
    + ["--selector", "amount > 100"],
    ["define", "sub", "JUNEAU", "--qmgr", "QM6", "--topicstr", "/USA/Alaska/Juneau"],
    ["define", "sub", "ALL.USA", "--qmgr", "QM6", "--topicstr", "/USA/#"],
    ["define", "sub", "LOCAL.MOBILE", "--qmgr", "QM5", "--topicstr", "/USA/Alabama/Mobile", "--non-durable"],
    ["define", "sub", "EVERYTHING", "--qmgr", "QM1", "--topicstr", "/USA/#"],
]

FLOOR = """
import sys, warnings
warnings.filterwarnings("ignore", category=FutureWarning)
from pyspark.sql import SparkSession
spark = (SparkSession.builder.master("local[2]").config("spark.ui.enabled", "false")
         .config("spark.ui.showConsoleProgress", "false").getOrCreate())
spark.sparkContext.setLogLevel("ERROR")
print(spark.read.json(sys.argv[1]).count())
spark.stop()
"""


def _run(args: list[str]) -> float:
    t0 = time.perf_counter()
    proc = subprocess.run(args, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - t0
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(args[:4])} failed: {proc.stderr.strip()[-2000:]}")
    return elapsed


def prepare(folder: Path) -> tuple[Path, Path]:
    """The demo store exported as a snapshot, and the demo's 1,000 publications (demo/demo.sh)."""
    db = f"sqlite:///{folder / 'demo.db'}"
    for command in DEMO:
        _run([MQCTL, "--db", db, *command])
    snapshot = folder / "snapshot"
    _run([MQCTL, "--db", db, "export", "snapshot", "--out", str(snapshot)])
    rng = random.Random(5)
    topics = ["/USA/Alabama/Mobile", "/USA/Alabama/Montgomery", "/USA/Alaska/Juneau", "/USA/Alaska/Nome"]
    log = folder / "publications.jsonl"
    with log.open("w", encoding="utf-8") as out:
        for _ in range(1000):
            row = {
                "from": rng.choice(["QM1", "QM2", "QM5", "QM6"]),
                "topic": rng.choice(topics),
                "properties": {"amount": rng.choice([20, 250])},
                "bytes": rng.choice([512, 2048]),
            }
            out.write(json.dumps(row) + "\n")
    return snapshot, log


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json", action="store_true", help="One JSON object instead of a table.")
    args = parser.parse_args(argv)
    floors: list[float] = []
    analyses: list[float] = []
    with tempfile.TemporaryDirectory(prefix="mqctl-bench-small-") as tmp:
        folder = Path(tmp)
        snapshot, log = prepare(folder)
        out = folder / "replay"
        for _ in range(args.runs):
            floors.append(_run([sys.executable, "-c", FLOOR, str(log)]))
            shutil.rmtree(out, ignore_errors=True)
            analyses.append(
                _run(
                    [MQCTL, "spark", "analyze", "--snapshot", str(snapshot), "--publications", str(log)]
                    + ["--out", str(out), "--what-if", "down:QM3", "--what-if", "topichost:ALASKA@QM3,QM4"]
                    + ["--master", "local[2]", "-o", "json"]
                )
            )
    floor, analysis = statistics.median(floors), statistics.median(analyses)
    result = {
        "publications": 1000,
        "variants": 2,
        "floor_s": round(floor, 2),
        "analysis_s": round(analysis, 2),
        "ratio": round(analysis / floor, 2),
        "target_ratio": TARGET_RATIO,
        "floor_runs_s": [round(x, 2) for x in floors],
        "analysis_runs_s": [round(x, 2) for x in analyses],
    }
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print("Small replay (demo: 1,000 publications, two variants, local[2]), medians of", args.runs)
        print(f"  floor (Spark start, read the log, count) {floor:8.2f} s")
        print(f"  analysis (mqctl spark analyze)           {analysis:8.2f} s")
        print(
            f"  ratio                                    {analysis / floor:8.2f}  (target <= {TARGET_RATIO})"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
