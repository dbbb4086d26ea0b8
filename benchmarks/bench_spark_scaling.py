"""Does the routing stage scale with the cores? Its throughput on ``local[N]`` against ``local[1]``.

    .venv/bin/python benchmarks/bench_spark_scaling.py                       # 2,000,000 publications
    .venv/bin/python benchmarks/bench_spark_scaling.py --publications 10000000 --distinct-topics 100000

The estate, snapshot and publication log of ``bench_spark.py`` (same cache). For each master (each in a
fresh process, so that each has its own JVM and Python workers): the job's own steps 1–2
(``mqctl.spark.job.distinct_rows``: read, count identical rows, lay them out by topic and publisher)
are run and the rows cached in memory outside the timing; then the routing stage alone (``mqctl.spark.job.route``,
the same ``mapInArrow`` as ``mqctl spark analyze``: the rows keyed, the keys merged and routed, its fact
rows counted) is timed by the wall clock,
with the same number of tasks on every master (``--tasks``, default 4: two per core of ``local[2]``), so
that only the cores differ. Each worker builds its model inside the timed stage, as in the job.

Target (issue 24): routing-stage throughput on ``local[2]`` >= 1.8 x ``local[1]``. Needs the cores
free: on a loaded machine the figure says how loaded it is, not how the stage scales. The JVM does part
of the stage's work (Arrow batches in and out, the shuffle read): on ``local[1]`` it does it on the
other cores, unless ``--pin`` confines each run to as many CPUs as it has task slots.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import uuid
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402
from bench_spark import prepare_files  # noqa: E402

TARGET = 1.8


def stage(master: str, snapshot: Path, log: Path, tasks: int) -> dict[str, Any]:
    """In this process: the keys cached, then the routing stage timed on ``master``."""
    from pyspark import StorageLevel

    from mqctl.services.snapshot import read_snapshot
    from mqctl.spark.batches import Keying, Payload
    from mqctl.spark.job import distinct_rows, route
    from mqctl.spark.session import spark_session

    read = read_snapshot(snapshot)
    topology_ = read.topology
    with spark_session(master, partitions=tasks) as spark:
        _log, counted, rows, text_values = distinct_rows(spark, log, "parquet", tasks)
        rows = rows.persist(StorageLevel.MEMORY_ONLY)
        distinct_keys = rows.count()  # distinct rows: as many as keys in this log
        keying = Keying.of(topology_, text_values)
        payload = spark.sparkContext.broadcast(Payload(topology_, [], uuid.uuid4().hex, read.packed, keying))
        with harness.stopwatch() as clock:
            facts = route(rows, payload, False).count()
        elapsed = clock.wall
        for frame in (rows, counted):
            frame.unpersist()
        payload.unpersist()
    return {
        "master": master,
        "tasks": tasks,
        "keys": distinct_keys,
        "fact_rows": facts,
        "routing_s": round(elapsed, 2),
        "keys_per_s": round(distinct_keys / elapsed, 1),
    }


def sentences(result: Mapping[str, Any]) -> Iterator[str]:
    runs = result["runs"]
    for run in runs:
        yield (
            f"{run['master']}: {run['keys']:,} keys in {run['routing_s']} s "
            f"({run['keys_per_s']:,} keys/s, {run['speedup']} x {runs[0]['master']})"
        )
    yield f"scaling {runs[-1]['master']} / {runs[0]['master']} = {runs[-1]['speedup']} (target >= {TARGET})"


def main(argv: list[str] | None = None) -> int:
    from gen_topology import add_estate_options

    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    add_estate_options(parser)
    parser.add_argument("--publications", type=int, default=2_000_000)
    parser.add_argument("--distinct-topics", type=int, default=20_000)
    parser.add_argument("--masters", default="local[1],local[2]", help="the first is the reference")
    parser.add_argument("--tasks", type=int, default=4, help="routing tasks, the same on every master")
    parser.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "mqctl-bench")
    parser.add_argument(
        "--pin",
        action="store_true",
        help="run local[N] on N CPUs only (taskset), the JVM included: without it local[1]'s JVM works on "
        "the other cores for free",
    )
    parser.add_argument("--stage-only", help=argparse.SUPPRESS)  # one master, in a child process
    args = parser.parse_args(argv)

    snapshot, log = prepare_files(args)
    if args.stage_only:
        return harness.emit(stage(args.stage_only, snapshot, log, args.tasks), True)
    runs = []
    for master in args.masters.split(","):
        child = [sys.executable, __file__, *(argv if argv is not None else sys.argv[1:])]
        cores = master.removeprefix("local[").removesuffix("]")
        if args.pin and cores.isdigit():
            child = ["taskset", "-c", f"0-{int(cores) - 1}", *child]
        proc = harness.checked(
            harness.timed([*child, "--stage-only", master], env=None), master, ok=(0,)
        ).proc
        runs.append(json.loads(proc.stdout.strip().splitlines()[-1]))
    reference = runs[0]["keys_per_s"]
    for run in runs:
        run["speedup"] = round(run["keys_per_s"] / reference, 2)
    result = {"runs": runs, "load_average": [round(x, 2) for x in os.getloadavg()]}
    harness.emit(result, True)  # the figures, then the same as sentences
    return harness.emit(result, False, sentences)


if __name__ == "__main__":
    raise SystemExit(main())
