"""The Spark plan of ``mqctl spark analyze``: read, count identical rows, key and route once per key,
aggregate, write.

1. The publication log (Parquet, CSV or JSON lines) is read by Spark and normalised to text columns.
2. Identical rows counted (in the JVM: a log repeats publishers, topics, properties and sizes), cached
   and counted (the count sizes the routing stage; the driver reads the snapshot meanwhile:
   ``analyze``'s ``model``), then laid out by publisher and topic (``ROUTED_BY``): all rows of a
   key in one routing task.
3. ``mapInArrow(route_log_rows)``, one Python stage: each distinct row checked and given its routing key
   (or its reason for refusal), the rows of a key merged (``from``, ``topic``, the selector-read
   properties: a log repeats topics heavily, and the engine's answer is the same for every publication
   of a key), each key routed once by the domain engine in every variant, on executors holding the
   whole snapshot (a broadcast), into facts summed over the task; the rows not routed leave as facts
   of their own. The facts are summed over the tasks in one aggregate, collected by the driver, which
   makes every output from it (``outputs.write_outputs``; docs/spark.md).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pyarrow as pa

from mqctl.domain.errors import InputError
from mqctl.domain.model import Topology
from mqctl.domain.what_if import CURRENT, Variant, apply_variant
from mqctl.spark.batches import ROUTED_SCHEMA, Keying, Payload, route_log_rows
from mqctl.spark.log_rows import GIVEN, NUMBER, sizes_apart
from mqctl.spark.meanwhile import Meanwhile
from mqctl.spark.outputs import OUTPUTS, write_outputs
from mqctl.spark.summary_json import summary_text

if TYPE_CHECKING:
    from pyspark.sql import Column, DataFrame, SparkSession

__all__ = [
    "OUTPUTS",
    "Analysis",
    "ModelSource",
    "analyze",
    "counted_rows",
    "distinct_rows",
    "publication_format",
    "route",
]

FORMATS = {".parquet": "parquet", ".csv": "csv", ".json": "json", ".jsonl": "json", ".ndjson": "json"}


@dataclass
class Analysis:
    """What ``analyze`` wrote: the summary (``summary.json``) and the output folders."""

    summary: dict[str, Any]
    out: Path
    outputs: dict[str, Path] = field(default_factory=dict)
    summary_json: str = ""
    """``summary.json``'s text, as written (``-o json`` prints it: a large estate's takes seconds to
    encode)."""


def publication_format(path: Path, given: str | None = None) -> str:
    """parquet, csv or json: as given, else from the file's suffix, else from the files of a folder."""
    if given:
        return given
    candidates = [path] if path.is_file() else sorted(p for p in path.rglob("*") if p.is_file())
    found = {FORMATS[p.suffix.lower()] for p in candidates if p.suffix.lower() in FORMATS}
    if len(found) != 1:
        raise InputError(
            "cannot tell the format (name the files .parquet, .csv or .jsonl, or give --format)"
            if not found
            else f"holds files of several formats ({', '.join(sorted(found))}); give --format",
            obj=f"publications {path}",
        )
    return found.pop()


def _ddl(schema: pa.Schema) -> str:
    names = {pa.string(): "string", pa.int64(): "bigint", pa.int32(): "int"}
    return ", ".join(f"`{f.name}` {names[f.type]}" for f in schema)


def read_publications(spark: SparkSession, path: Path, fmt: str) -> tuple[DataFrame, bool]:
    """The log as text columns ``from, topic, properties, count_text, bytes_text, record`` (``record``:
    a JSON line Spark could not read; ``log_rows.GIVEN``), and whether properties were a map of text
    values. A size column of integers is also kept as a number (``log_rows.NUMBER``)."""
    from pyspark.sql import functions as F
    from pyspark.sql.types import ByteType, IntegerType, LongType, MapType, ShortType, StringType, StructType

    reader = spark.read
    if fmt == "csv":
        # RFC 4180 quoting ("" inside a quoted field), as spreadsheets and most tools write CSV
        frame = (
            reader.option("header", "true").option("escape", '"').option("mode", "PERMISSIVE").csv(str(path))
        )
    elif fmt == "json":
        frame = reader.option("mode", "PERMISSIVE").json(str(path))
    else:
        frame = reader.parquet(str(path))
    columns = {f.name: f.dataType for f in frame.schema.fields}
    for required in ("from", "topic"):
        if required not in columns:
            raise InputError(
                f"has no column {required!r} (columns: {', '.join(columns)})", obj=f"publications {path}"
            )
    text_values = False
    props_type = columns.get("properties")
    properties: Column
    if props_type is None:
        properties = F.lit(None).cast("string")
    elif isinstance(props_type, MapType | StructType):
        properties = F.to_json(F.col("properties"))
        text_values = isinstance(props_type, MapType) and isinstance(props_type.valueType, StringType)
    else:
        properties = F.col("properties").cast("string")

    def text(name: str) -> Column:
        return F.col(name).cast("string") if name in columns else F.lit(None).cast("string")

    given = [
        text("from").alias("from"),
        text("topic").alias("topic"),
        properties.alias("properties"),
        text("count").alias("count_text"),
        text("bytes").alias("bytes_text"),
        text("_corrupt_record").alias("record"),
    ]
    if isinstance(columns.get("bytes"), IntegerType | LongType | ShortType | ByteType):
        given.append(F.col("bytes").cast("bigint").alias(NUMBER))  # log_rows.sizes_apart: no text per row
    return frame.select(*given), text_values


def _router(broadcast: Any, per_key: bool) -> Callable[[Iterator[pa.RecordBatch]], Iterator[pa.RecordBatch]]:
    def run(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        return route_log_rows(batches, broadcast.value, per_key)

    return run


def route(rows: DataFrame, broadcast: Any, per_key: bool) -> DataFrame:
    """Step 3: the routing stage, the distinct rows keyed and routed by the domain engine into fact
    rows (``broadcast``: a ``Payload`` with its ``Keying``)."""
    return rows.mapInArrow(_router(broadcast, per_key), _ddl(ROUTED_SCHEMA))


def check_variants(topology: Topology, variants: list[Variant]) -> None:
    """Refuse, before Spark runs, a variant that names what the snapshot lacks; and a variant twice."""
    seen: set[str] = set()
    for variant in variants:
        if variant.text in seen or variant.text == CURRENT:
            raise InputError(f"{variant.text!r} is given twice", attribute="--what-if")
        seen.add(variant.text)
        apply_variant(topology, variant)


ModelSource = Callable[[], tuple[Topology, dict[str, bytes] | None]]
"""What gives the analysis its model: the topology and, when it was read from a Parquet snapshot, its
files as read (``Snapshot.packed``, broadcast as they are). Called while Spark counts the log."""


def _given(topology: Topology, packed: dict[str, bytes] | None) -> ModelSource:
    return lambda: (topology, packed)


def analyze(
    spark: SparkSession,
    model: Topology | ModelSource,
    publications: Path,
    out: Path,
    variants: list[Variant],
    *,
    fmt: str | None = None,
    per_key: bool = False,
    partitions: int | None = None,
    packed: dict[str, bytes] | None = None,
) -> Analysis:
    """Replay ``publications`` through the model (and each variant); write the outputs under ``out``.

    ``model``: the topology, or what reads it (``ModelSource``: called while Spark counts the log's
    rows, which need no model, so that the snapshot's read and checks, seconds of the driver's Python
    on a large estate, and the count do not wait for each other; when it fails, or a variant names what
    the model lacks, the count is cancelled and the error raised).
    ``deliveries`` and ``not_delivered`` hold totals per subscription (and status or reason, stored_at,
    hops); with ``per_key`` a row per routing key too, which is far more rows (docs/spark.md).
    ``partitions``: Spark's shuffle partitions; by default sized to the log (``sized_partitions``).
    ``packed``: a topology given as such, as the snapshot's Parquet files it was read from
    (``Snapshot.packed``), broadcast as they are; without it the model is packed again here."""
    given = isinstance(model, Topology)
    if isinstance(model, Topology):
        check_variants(model, variants)  # before Spark runs anything
    read: ModelSource = _given(model, packed) if isinstance(model, Topology) else model

    fmt = publication_format(publications, fmt)
    with _shuffle_partitions(spark, partitions or sized_partitions(spark, publications)):
        log, counted, text_values = counted_rows(spark, publications, fmt)
        counting = Meanwhile(spark.sparkContext, counted.count, "mqctl: the log's distinct rows counted")
        try:
            topology, packed = read()
            if not given:
                check_variants(topology, variants)
        except BaseException:
            counting.cancel()
            counted.unpersist()
            raise
        out.mkdir(parents=True, exist_ok=True)
        # the routing tasks sized to the distinct rows (counting them fills the cache the routing stage
        # reads); a number given to repartition is kept as it is, where adaptive execution would merge
        # the few megabytes of rows into fewer, longer tasks. A key's rows meet in one task (ROUTED_BY)
        # and are merged there.
        rows = counted.repartition(routing_tasks(spark, counting.result(), partitions), *ROUTED_BY)
        keying = Keying.of(topology, text_values)
        payload = Payload(topology, variants, uuid.uuid4().hex, packed, keying)
        broadcast = spark.sparkContext.broadcast(payload)
        try:
            names = [CURRENT] + [v.text for v in variants]
            summary = write_outputs(log, route(rows, broadcast, per_key), out, names, per_key)
        finally:
            counted.unpersist()
            broadcast.unpersist()
    text = summary_text(summary)
    (out / "summary.json").write_text(text, encoding="utf-8")
    return Analysis(summary, out, {name: out / name for name in OUTPUTS}, text)


def counted_rows(spark: SparkSession, publications: Path, fmt: str) -> tuple[DataFrame, DataFrame, bool]:
    """Steps 1–2: the log as text columns; its distinct rows with how many times the log holds each
    (``rows``) and their plain sizes summed (``bytes_sum``), to be cached (``persist``ed here, not yet
    computed; the caller unpersists it); and whether properties were a map of text
    (``Keying.text_values``). Needs no model: Spark counts while the driver reads the snapshot."""
    from pyspark import StorageLevel
    from pyspark.sql import functions as F

    frame, text_values = read_publications(spark, publications, fmt)
    counted = (
        sizes_apart(frame)
        .groupBy(*GIVEN)
        .agg(F.count(F.lit(1)).alias("rows"), F.coalesce(F.sum("bytes_plain"), F.lit(0)).alias("bytes_sum"))
        .persist(StorageLevel.MEMORY_AND_DISK)
    )
    return frame, counted, text_values


def distinct_rows(
    spark: SparkSession, publications: Path, fmt: str, partitions: int | None
) -> tuple[DataFrame, DataFrame, DataFrame, bool]:
    """``counted_rows``, counted, and laid out for the routing stage as ``analyze`` lays them out (all
    rows of a key in one task: ``ROUTED_BY``). For a benchmark that times the routing stage alone."""
    frame, counted, text_values = counted_rows(spark, publications, fmt)
    tasks = routing_tasks(spark, counted.count(), partitions)
    return frame, counted, counted.repartition(tasks, *ROUTED_BY), text_values


ROUTED_BY = ("topic", "from")
"""The columns the distinct rows are hashed by over the routing tasks: a routing key's rows (one
publisher, one topic) all meet in one task. Not the topic alone: a topic many publishers share would
make one task the stage's tail (the benchmark's one EMS topic, 400 of its 40,400 keys, is a quarter of
the routing work); a topic's keys in several tasks cost each task that topic's publisher-independent
work (matching subscriptions, proxies) once, where the engine's cache would have kept it."""

SMALL_LOG = 1 << 20
"""A log of at most this many bytes is counted and keyed in one task per stage."""
SMALL_KEYS = 4096
"""At most this many distinct rows are keyed and routed in one task: a second would build a second
model."""


def sized_partitions(spark: SparkSession, publications: Path) -> int | None:
    """Shuffle partitions for this log, or None to leave Spark's setting alone (one given to the
    session, as ``spark-submit --conf`` does). Spark's default of 200 is for large shuffles: on a log
    of a few thousand rows each stage would run 200 tiny tasks. A small log (``SMALL_LOG``: Parquet
    holds a million publications in a few megabytes, so the bound is low) gets one, any other two per
    core; a log Python cannot measure (HDFS, S3) is not small."""
    if spark.sparkContext.getConf().contains("spark.sql.shuffle.partitions"):
        return None
    try:
        files = [publications] if publications.is_file() else list(publications.rglob("*"))
        size = sum(p.stat().st_size for p in files if p.is_file())
    except OSError:
        size = SMALL_LOG + 1
    return 1 if size <= SMALL_LOG else 2 * spark.sparkContext.defaultParallelism


def routing_tasks(spark: SparkSession, distinct_rows: int, given: int | None) -> int:
    """Tasks of the routing stage: as given (``--partitions``), else one for at most ``SMALL_KEYS``
    distinct rows, else one per core. Not more: a Python worker builds its model (seconds on a large
    estate) on its first task, so with two tasks per core the first wave carried the builds and the
    second did not, and the stage waited on the first wave's longest task; the keys, hashed by topic
    and publisher, split evenly."""
    if given:
        return given
    if spark.sparkContext.getConf().contains("spark.sql.shuffle.partitions"):
        return int(spark.conf.get("spark.sql.shuffle.partitions") or 200)
    return 1 if distinct_rows <= SMALL_KEYS else spark.sparkContext.defaultParallelism


@contextmanager
def _shuffle_partitions(spark: SparkSession, partitions: int | None) -> Iterator[None]:
    """``spark.sql.shuffle.partitions`` set for the analysis, then put back."""
    if partitions is None:
        yield
        return
    key = "spark.sql.shuffle.partitions"
    before = spark.conf.get(key)
    spark.conf.set(key, str(partitions))
    try:
        yield
    finally:
        if before is None:
            spark.conf.unset(key)
        else:
            spark.conf.set(key, before)
