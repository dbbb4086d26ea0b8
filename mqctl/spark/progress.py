"""Spark's progress on the terminal: stages done out of stages known, and tasks, of one job group."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

if TYPE_CHECKING:
    from pyspark import SparkContext

GROUP = "mqctl-analyze"


def _stages(context: SparkContext) -> tuple[int, int, int, int]:
    """(stages done, stages known, tasks done, tasks known) of the group's jobs so far; a stage Spark
    skipped (its result already computed) counts as done once its job has succeeded."""
    tracker = context.statusTracker()
    stages_done = stages = tasks_done = tasks = 0
    for job_id in tracker.getJobIdsForGroup(GROUP):
        job = tracker.getJobInfo(job_id)
        if job is None:
            continue
        finished = job.status == "SUCCEEDED"
        for stage_id in job.stageIds:
            stages += 1
            info = tracker.getStageInfo(stage_id)
            if info is not None:
                tasks += info.numTasks
                tasks_done += info.numCompletedTasks
            if finished or (info is not None and info.numTasks and info.numCompletedTasks >= info.numTasks):
                stages_done += 1
    return stages_done, stages, tasks_done, tasks


@contextmanager
def spark_progress(context: SparkContext, console: Console, enabled: bool) -> Iterator[None]:
    """Show the group's stages while the block runs Spark actions (on stderr, only for a terminal)."""
    context.setJobGroup(GROUP, "mqctl spark analyze")
    if not enabled or not console.is_terminal:
        yield
        return
    stop = threading.Event()
    with Progress(
        TextColumn("Spark stages"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("tasks {task.fields[tasks]}"),
        TimeElapsedColumn(),
        console=console,
        transient=True,
    ) as progress:
        bar = progress.add_task("spark", total=None, tasks="0/0")

        def poll() -> None:
            while not stop.wait(0.5):
                done, known, tasks_done, tasks = _stages(context)
                progress.update(bar, completed=done, total=max(known, 1), tasks=f"{tasks_done}/{tasks}")

        thread = threading.Thread(target=poll, daemon=True)
        thread.start()
        try:
            yield
        finally:
            stop.set()
            thread.join()
