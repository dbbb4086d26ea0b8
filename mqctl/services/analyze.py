"""Use case: replay a publication log through a snapshot on Apache Spark (``mqctl spark analyze``, and
``spark-submit`` with the arguments ``--submit-args`` prints, ``services.spark_submit``). docs/spark.md.

Everything that can be refused is refused before Spark starts (a missing log, a non-empty ``--out``, a
snapshot the rules refuse, a variant naming what the snapshot lacks, a log whose format cannot be told),
so a mistake costs no JVM start; a failure inside Spark becomes one ``InputError`` line too. Where the
JVM is up already (``spark-submit``, a session of the caller's), the snapshot is read and checked while
Spark counts the log's rows, and a refusal cancels the count.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from mqctl.domain.errors import InputError, clip
from mqctl.domain.what_if import parse_variant
from mqctl.services.snapshot import read_snapshot

if TYPE_CHECKING:
    from pyspark import SparkContext

    from mqctl.domain.model import Topology
    from mqctl.spark.job import Analysis

__all__ = ["AnalyzeRequest", "Progress", "analyze"]

Progress = Callable[["SparkContext"], AbstractContextManager[object]]
"""What shows Spark's progress while the job runs (the CLI's bar on a terminal), given the context."""


@dataclass(frozen=True)
class AnalyzeRequest:
    """The options of ``mqctl spark analyze`` (docs/spark.md, Options)."""

    snapshot: Path
    publications: Path
    out: Path
    what_if: Sequence[str] = ()
    master: str = "local[*]"
    fmt: str | None = None
    force: bool = False
    partitions: int | None = None
    driver_memory: str = "2g"
    per_key: bool = False


def _check_out(out: Path, force: bool) -> None:
    if out.exists() and not out.is_dir():
        raise InputError("is a file, not a folder", obj=f"--out {out}")
    if out.is_dir() and any(out.iterdir()) and not force:
        raise InputError("is not empty (give --force to write over what it holds)", obj=f"--out {out}")


def _spark_failure(exc: BaseException) -> str:
    """What Spark said in one line, without the JVM's stack: a Python worker's exception is its last
    line (``UnicodeDecodeError: 'utf-8' codec can't decode byte 0xff...``), the cause; else the first."""
    text = str(getattr(exc, "desc", None) or exc).strip()
    lines = text.splitlines() or [type(exc).__name__]
    raised = [line.strip() for line in lines if _RAISED.match(line.strip())]
    return clip(raised[-1] if raised else lines[0], 300)


_RAISED = re.compile(r"^[A-Za-z_][\w.]*(Error|Exception): ")
"""A Python traceback's last line: the exception's type and message."""


def _failure(exc: BaseException, publications: Path) -> InputError:
    """A Spark failure as one line: a row that is not UTF-8 text named by its file, line and column
    (found by reading the log again, only then), anything else with Spark's cause."""
    cause = _spark_failure(exc)
    if "UnicodeDecodeError" in cause or "UTF-8" in cause.upper():
        found = _first_undecodable(publications)
        if found is not None:
            return found
    return InputError(f"Spark failed: {cause}", obj=f"publications {publications}")


def _first_undecodable(publications: Path) -> InputError | None:
    """Where the first byte that is not UTF-8 stands in the log's text files (JSON lines, CSV)."""
    files = (
        [publications]
        if publications.is_file()
        else sorted(p for p in publications.rglob("*") if p.is_file())
    )
    for path in files:
        if path.suffix.lower() == ".parquet" or path.name.startswith((".", "_")):
            continue
        try:
            with path.open("rb") as handle:
                for number, line in enumerate(handle, start=1):
                    try:
                        line.decode("utf-8")
                    except UnicodeDecodeError as err:
                        shown = line[err.start : err.start + 1].hex().upper()
                        return InputError(
                            f"byte 0x{shown} is not UTF-8 text (the log's text must be UTF-8)",
                            file=str(path),
                            line=number,
                            column=len(line[: err.start].decode("utf-8", "replace")) + 1,
                        )
        except OSError:
            continue
    return None


def analyze(request: AnalyzeRequest, progress: Progress | None = None) -> Analysis:
    """Check the request, start (or join) a SparkSession, run the job; the outputs are under
    ``request.out``, the summary in the result."""
    variants = [parse_variant(text) for text in request.what_if]
    if not request.publications.exists():
        raise InputError("no such file or folder", obj=f"publications {request.publications}")
    _check_out(request.out, request.force)
    from mqctl.spark.job import ModelSource, check_variants, publication_format
    from mqctl.spark.job import analyze as run_job
    from mqctl.spark.session import jvm_running, spark_session

    fmt = publication_format(request.publications, request.fmt)
    model: Topology | ModelSource
    packed = None
    if jvm_running():
        # spark-submit, a session already up: the snapshot is read while Spark counts the log's rows

        def read_model() -> tuple[Topology, dict[str, bytes] | None]:
            snapshot = read_snapshot(request.snapshot)
            return snapshot.topology, snapshot.packed

        model = read_model
    else:
        # a mistake costs no JVM start: the snapshot is read and checked before Spark starts
        snapshot = read_snapshot(request.snapshot)
        model, packed = snapshot.topology, snapshot.packed
        check_variants(model, variants)
    from py4j.protocol import Py4JError
    from pyspark.errors import PySparkException

    try:
        with (
            spark_session(
                request.master, driver_memory=request.driver_memory, partitions=request.partitions
            ) as spark,
            progress(spark.sparkContext) if progress else nullcontext(),
        ):
            return run_job(
                spark,
                model,
                request.publications,
                request.out,
                variants,
                fmt=fmt,
                per_key=request.per_key,
                partitions=request.partitions,
                packed=packed,
            )
    except (PySparkException, Py4JError) as exc:
        raise _failure(exc, request.publications) from exc
