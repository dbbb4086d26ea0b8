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
import sys
import tempfile
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import harness  # noqa: E402

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


def _run(args: list[str]) -> None:
    harness.checked(harness.timed(args), " ".join(args[:4]), ok=(0,))


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


def table(result: Mapping[str, Any]) -> Iterator[str]:
    runs = len(result["floor_runs_s"])
    yield f"Small replay (demo: 1,000 publications, two variants, local[2]), medians of {runs}"
    yield f"  floor (Spark start, read the log, count) {result['floor_s']:8.2f} s"
    yield f"  analysis (mqctl spark analyze)           {result['analysis_s']:8.2f} s"
    yield f"  ratio                                    {result['ratio']:8.2f}  (target <= {TARGET_RATIO})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json", action="store_true", help="One JSON object instead of a table.")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="mqctl-bench-small-") as tmp:
        folder = Path(tmp)
        snapshot, log = prepare(folder)
        out = folder / "replay"
        analyze = [MQCTL, "spark", "analyze", "--snapshot", str(snapshot), "--publications", str(log)]
        analyze += ["--out", str(out), "--what-if", "down:QM3", "--what-if", "topichost:ALASKA@QM3,QM4"]
        analyze += ["--master", "local[2]", "-o", "json"]
        figures = harness.alternate(
            {"floor": [sys.executable, "-c", FLOOR, str(log)], "analysis": analyze},
            args.runs,
            warmup=0,
            ok=(0,),
            before=lambda name: shutil.rmtree(out, ignore_errors=True),
        )
    floor, analysis = figures["floor"], figures["analysis"]
    result = {
        "publications": 1000,
        "variants": 2,
        "floor_s": round(floor.wall, 2),
        "analysis_s": round(analysis.wall, 2),
        "ratio": harness.ratio(analysis.wall, floor.wall),
        "target_ratio": TARGET_RATIO,
        "floor_runs_s": [round(x, 2) for x in floor.walls],
        "analysis_runs_s": [round(x, 2) for x in analysis.walls],
    }
    return harness.emit(result, args.json, table)


if __name__ == "__main__":
    raise SystemExit(main())
