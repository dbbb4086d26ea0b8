"""Spark's event log of a run, read back: each job's wall time, the driver's time between jobs, each
stage's tasks and summed task time. What a wall-clock figure of the whole analysis cannot say on a
shared machine: which step moved.

    PYSPARK_SUBMIT_ARGS="--conf spark.eventLog.enabled=true --conf spark.eventLog.dir=file:///tmp/ev \
        pyspark-shell" .venv/bin/python benchmarks/bench_spark.py --modes default ...
    .venv/bin/python benchmarks/spark_eventlog.py /tmp/ev/eventlog_v2_local-*/events_*

The routing stage is the job with the most task time; the steps before it (counting identical rows,
keying) and after it (outputs, summary) are summed apart, with the driver's gaps between jobs (the time
no job runs). A log of ``bench_spark.py`` gets one such summary per analysis (``default``, ``per-key``),
told apart by the benchmark's marker jobs; any other log one, after ``--after-job``.
Event logs compressed with zstd (Spark's default) are read through the ``zstd`` command.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass
class Job:
    id: int
    start: int
    stages: list[int]
    site: str
    end: int = 0
    task_ms: int = 0
    tasks: int = 0
    task_times_ms: list[int] = field(default_factory=list)

    @property
    def wall_ms(self) -> int:
        return self.end - self.start


@dataclass
class Log:
    jobs: dict[int, Job] = field(default_factory=dict)
    app_end: int | None = None


def _text(path: Path) -> str:
    if path.suffix == ".zstd":
        return subprocess.run(["zstd", "-dc", str(path)], capture_output=True, text=True, check=True).stdout
    return path.read_text()


def _part(path: Path) -> int:
    """The number of a rolled event file (``events_3_local-…``), for reading them in order."""
    fields = path.name.split("_")
    return int(fields[1]) if len(fields) > 1 and fields[1].isdigit() else 0


def read(path: Path) -> Log:
    """The jobs of one event log: a file (compressed with zstd or not), or the folder of a rolled one
    (Spark 4's ``eventlog_v2_…``, its ``events_N_…`` files in order)."""
    files = sorted(path.glob("events_*"), key=_part) if path.is_dir() else [path]
    text = "\n".join(_text(f) for f in files)
    log = Log()
    stage_job: dict[int, Job] = {}
    for line in text.splitlines():
        if not line:
            continue
        event: dict[str, Any] = json.loads(line)
        kind = event["Event"]
        if kind == "SparkListenerJobStart":
            job = Job(
                event["Job ID"],
                event["Submission Time"],
                event["Stage IDs"],
                event.get("Properties", {}).get("callSite.short", ""),
            )
            log.jobs[job.id] = job
            for stage in job.stages:
                stage_job[stage] = job
        elif kind == "SparkListenerJobEnd":
            log.jobs[event["Job ID"]].end = event["Completion Time"]
        elif kind == "SparkListenerTaskEnd" and event["Stage ID"] in stage_job:
            info = event["Task Info"]
            job = stage_job[event["Stage ID"]]
            job.task_ms += info["Finish Time"] - info["Launch Time"]
            job.tasks += 1
            job.task_times_ms.append(info["Finish Time"] - info["Launch Time"])
        elif kind == "SparkListenerApplicationEnd":
            log.app_end = event["Timestamp"]
    return log


def phases(log: Log, after_job: int, before_job: int | None = None) -> dict[str, float]:
    """Seconds per phase of the analysis whose jobs follow ``after_job`` (the floors' last job, or the
    previous analysis's end marker), up to ``before_job`` (its own end marker; exclusive)."""
    jobs = [log.jobs[i] for i in sorted(log.jobs) if i > after_job and (before_job is None or i < before_job)]
    routing = max(jobs, key=lambda j: j.task_ms)
    before = [j for j in jobs if j.id < routing.id]
    after = [j for j in jobs if j.id > routing.id]

    def gaps(seq: list[Job]) -> int:
        """The time between the jobs when none runs (jobs may overlap: adaptive execution's)."""
        idle, ended = 0, seq[0].end if seq else 0
        for job in seq[1:]:
            idle += max(0, job.start - ended)
            ended = max(ended, job.end)
        return idle

    first = log.jobs[after_job]
    return {
        # bench_spark.py reads the snapshot for the record here, before the analysis starts
        "driver_before_first_job_s": (jobs[0].start - first.end) / 1000,
        "before_routing_s": (routing.start - jobs[0].start) / 1000,
        "before_routing_task_s": sum(j.task_ms for j in before) / 1000,
        "before_routing_driver_gaps_s": gaps([*before, routing]) / 1000,
        "routing_s": routing.wall_ms / 1000,
        "routing_task_s": routing.task_ms / 1000,
        "after_routing_s": (after[-1].end - routing.end) / 1000 if after else 0.0,
        "after_routing_task_s": sum(j.task_ms for j in after) / 1000,
        "after_routing_driver_gaps_s": gaps([routing, *after]) / 1000,
        "jobs_after_routing": len(after),
        # the driver alone after the last job (the summary written) up to the end marker, when given
        "driver_after_last_job_s": (log.jobs[before_job].start - jobs[-1].end) / 1000 if before_job else 0.0,
    }


def balance(log: Log, after_job: int, before_job: int | None = None) -> dict[str, float]:
    """The routing stage's balance (issue 36): its longest task over its median task, the routing stage
    being the job with the most task time between ``after_job`` and ``before_job`` (exclusive)."""
    jobs = [
        j for i, j in sorted(log.jobs.items()) if i > after_job and (before_job is None or i < before_job)
    ]
    routing = max(jobs, key=lambda j: j.task_ms)
    times = sorted(routing.task_times_ms)
    median = statistics.median(times)
    return {
        "routing_tasks": len(times),
        "longest_task_s": times[-1] / 1000,
        "median_task_s": median / 1000,
        "longest_over_median": round(times[-1] / median, 2) if median else float("inf"),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("log", type=Path, help="an event log: a file (events_*.zstd or plain) or its folder")
    parser.add_argument(
        "--after-job",
        type=int,
        default=None,
        help="the last job before the analysis (default: the last job of a bench_spark floor)",
    )
    args = parser.parse_args(argv)
    log = read(args.log)
    origin = min(j.start for j in log.jobs.values())
    for job in (log.jobs[i] for i in sorted(log.jobs)):
        print(f"job {job.id:3d} +{(job.start - origin) / 1000:7.2f} s wall {job.wall_ms / 1000:7.2f} s "
              f"tasks {job.tasks:3d} task time {job.task_ms / 1000:7.2f} s  {job.site}")  # fmt: skip
    for name, after, before in analyses(log, args.after_job):
        print(name)
        print(json.dumps({k: round(v, 2) for k, v in phases(log, after, before).items()}, indent=2))
        print(json.dumps(balance(log, after, before), indent=2))
    return 0


def analyses(log: Log, after_job: int | None) -> list[tuple[str, int, int | None]]:
    """(name, the job before it, its end marker or None) of each analysis in the log: as
    ``bench_spark.py`` marks them (the key floor's jobs, then an ``end of MODE`` job after each
    analysis), else the one analysis after ``after_job`` (default: the log's first job)."""
    if after_job is not None:
        return [("analysis", after_job, None)]
    floor = [j.id for j in log.jobs.values() if j.site.startswith("key floor")]
    if not floor:
        return [("analysis", min(log.jobs), None)]
    found: list[tuple[str, int, int | None]] = []
    previous = max(floor)
    for job in (log.jobs[i] for i in sorted(log.jobs)):
        if job.site.startswith("end of ") and job.id > previous:
            if job.id - 1 > previous:  # the first of a marker's jobs ends the analysis before it
                found.append((job.site.removeprefix("end of ").split(" at ")[0], previous, job.id))
            previous = job.id
    return found


if __name__ == "__main__":
    raise SystemExit(main())
