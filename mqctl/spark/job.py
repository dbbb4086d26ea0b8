"""The Spark plan of ``mqctl spark analyze``: read, key, route once per key, aggregate, write.

1. The publication log (Parquet, CSV or JSON lines) is read by Spark and normalised to text columns.
2. Identical rows counted (in the JVM: a log repeats publishers, topics, properties and sizes), then
   ``mapInArrow(key_batches)``: each distinct row checked and given its routing key (or its reason for
   refusal), so Python sees each distinct row once, not every publication.
3. Rows grouped by routing key (``from``, ``topic``, the selector-read properties): a log repeats topics
   heavily, and the engine's answer is the same for every publication of a key.
4. ``mapInArrow(route_batches)``: each key routed by the domain engine in every variant, on executors
   holding the whole snapshot (a broadcast), into facts; the facts are cached and aggregated into the
   outputs (docs/spark.md).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pyarrow as pa

from mqctl.domain.errors import InputError
from mqctl.domain.model import Topology
from mqctl.domain.what_if import CURRENT, Variant, apply_variant
from mqctl.spark.batches import KEYED_SCHEMA, ROUTED_SCHEMA, Keying, Payload, key_batches, route_batches
from mqctl.spark.summary_json import summary_text

if TYPE_CHECKING:
    from pyspark.sql import Column, DataFrame, SparkSession

__all__ = ["OUTPUTS", "Analysis", "analyze", "publication_format"]

OUTPUTS = ("deliveries", "not_delivered", "link_traffic", "node_load", "rejected")
FORMATS = {".parquet": "parquet", ".csv": "csv", ".json": "json", ".jsonl": "json", ".ndjson": "json"}


@dataclass
class Analysis:
    """What ``analyze`` wrote: the summary (``summary.json``) and the output folders."""

    summary: dict[str, Any]
    out: Path
    outputs: dict[str, Path] = field(default_factory=dict)


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
    a JSON line Spark could not read), and whether properties were a map of text values."""
    from pyspark.sql import functions as F
    from pyspark.sql.types import MapType, StringType, StructType

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

    normal = frame.select(
        text("from").alias("from"),
        text("topic").alias("topic"),
        properties.alias("properties"),
        text("count").alias("count_text"),
        text("bytes").alias("bytes_text"),
        text("_corrupt_record").alias("record"),
    )
    return normal, text_values


def _keyer(broadcast: Any) -> Callable[[Iterator[pa.RecordBatch]], Iterator[pa.RecordBatch]]:
    def run(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        return key_batches(batches, broadcast.value)

    return run


def _router(broadcast: Any, per_key: bool) -> Callable[[Iterator[pa.RecordBatch]], Iterator[pa.RecordBatch]]:
    def run(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        return route_batches(batches, broadcast.value, per_key)

    return run


def check_variants(topology: Topology, variants: list[Variant]) -> None:
    """Refuse, before Spark runs, a variant that names what the snapshot lacks; and a variant twice."""
    seen: set[str] = set()
    for variant in variants:
        if variant.text in seen or variant.text == CURRENT:
            raise InputError(f"{variant.text!r} is given twice", attribute="--what-if")
        seen.add(variant.text)
        apply_variant(topology, variant)


def analyze(
    spark: SparkSession,
    topology: Topology,
    publications: Path,
    out: Path,
    variants: list[Variant],
    *,
    fmt: str | None = None,
    per_key: bool = False,
) -> Analysis:
    """Replay ``publications`` through ``topology`` (and each variant); write the outputs under ``out``.

    ``deliveries`` and ``not_delivered`` hold totals per subscription (and status or reason, stored_at,
    hops); with ``per_key`` a row per routing key too, which is far more rows (docs/spark.md)."""
    from pyspark import StorageLevel
    from pyspark.sql import functions as F

    check_variants(topology, variants)
    fmt = publication_format(publications, fmt)
    frame, text_values = read_publications(spark, publications, fmt)
    keying = spark.sparkContext.broadcast(Keying.of(topology, text_values))
    broadcast = spark.sparkContext.broadcast(Payload(topology, variants, uuid.uuid4().hex))
    distinct = frame.groupBy(*frame.columns).agg(F.count(F.lit(1)).alias("rows"))
    keyed = distinct.mapInArrow(_keyer(keying), _ddl(KEYED_SCHEMA)).persist(StorageLevel.MEMORY_AND_DISK)
    valid = keyed.where(F.col("reason").isNull())
    messages = F.col("rows") * F.col("count")
    keys = valid.groupBy("from", "topic", "key").agg(
        F.sum(messages).alias("messages"), F.sum(messages * F.col("bytes")).alias("bytes")
    )
    # keys of one topic side by side in one partition: the engine keeps a topic's publisher-independent
    # work (matching subscriptions, proxies) in its cache, and the next key of that topic reuses it
    keys = keys.repartition("topic").sortWithinPartitions("topic", "from", "key")
    routed = keys.mapInArrow(_router(broadcast, per_key), _ddl(ROUTED_SCHEMA)).persist(
        StorageLevel.MEMORY_AND_DISK
    )
    try:
        outputs = _write_outputs(keyed, valid, routed, out, per_key)
        summary = _summary(outputs, [CURRENT] + [v.text for v in variants])
    finally:
        routed.unpersist()
        keyed.unpersist()
        broadcast.unpersist()
        keying.unpersist()
    (out / "summary.json").write_text(summary_text(summary), encoding="utf-8")
    return Analysis(summary, out, {name: out / name for name in OUTPUTS})


LOAD_COLUMNS = ("received", "forwarded", "delivered", "stored")


def _tally(routed: DataFrame) -> DataFrame:
    """Messages per variant, status (``published``, ``delivered``, ``stored``, ``missed``), node and
    stored_at: every count of the summary and of ``node_load`` but the links'. The facts hold these
    already summed per batch: this sums the batches. Small: at most a few rows per node."""
    from pyspark.sql import functions as F

    return (
        routed.where(F.col("kind") == "tally")
        .groupBy("variant", "status", "node", "stored_at")
        .agg(F.sum("messages").alias("messages"))
    )


def _node_load(tally: DataFrame, link_traffic: DataFrame) -> DataFrame:
    """Per variant and node: messages received (published there or arriving over a link), forwarded
    over links, delivered there, stored there; from the (small) tally and link traffic."""
    from pyspark.sql import functions as F

    status = F.col("status")

    def part(frame: DataFrame, where: Column, node: str, counted: str) -> DataFrame:
        values = [
            (F.col("messages") if c == counted else F.lit(0).cast("bigint")).alias(c) for c in LOAD_COLUMNS
        ]
        return frame.where(where).select("variant", F.col(node).alias("node"), *values)

    everything = F.lit(True)
    union = part(tally, status == "published", "node", "received")
    for more in (
        part(link_traffic, everything, "to", "received"),
        part(link_traffic, everything, "from", "forwarded"),
        part(tally, status == "delivered", "node", "delivered"),
        part(tally, status == "stored", "stored_at", "stored"),
    ):
        union = union.unionByName(more)
    return union.groupBy("variant", "node").agg(*(F.sum(c).alias(c) for c in LOAD_COLUMNS))


def _as_given(rows: DataFrame, reason: Column) -> DataFrame:
    """Distinct log rows as ``rejected/`` writes them: the columns as given, with ``reason``; a distinct
    row stands for ``rows`` identical rows of the log, and each is written out again."""
    from pyspark.sql import functions as F

    one_each = F.explode(F.array_repeat(F.lit(1), F.col("rows").cast("int"))).alias("_each")
    return rows.select("*", one_each).select(
        "from",
        "topic",
        "properties",
        F.col("count_text").alias("count"),
        F.col("bytes_text").alias("bytes"),
        "record",
        reason.alias("reason"),
    )


def _write_outputs(
    keyed: DataFrame, valid: DataFrame, routed: DataFrame, out: Path, per_key: bool
) -> dict[str, DataFrame]:
    from pyspark.sql import functions as F

    kind = F.col("kind")
    deliveries = _facts(routed.where(kind == "delivery"), DELIVERY_COLUMNS, per_key)
    not_delivered = _facts(routed.where(kind == "missed"), MISSED_COLUMNS, per_key)
    link_traffic = (
        routed.where(kind == "link")
        .groupBy("variant", "link_from", "link_to", "via")
        .agg(F.sum("messages").alias("messages"), F.sum("bytes").alias("bytes"))
        .select(
            "variant",
            F.col("link_from").alias("from"),
            F.col("link_to").alias("to"),
            "via",
            "messages",
            "bytes",
        )
    )
    refused = routed.where(kind == "refused").select("from", "topic", "key", F.col("reason").alias("refused"))
    rejected_rows = _as_given(keyed.where(F.col("reason").isNotNull()), F.col("reason"))
    refused_rows = _as_given(valid.join(refused, ["from", "topic", "key"]), F.col("refused"))
    tally = _tally(routed).persist()
    link_traffic = link_traffic.persist()
    frames = {
        "deliveries": deliveries if per_key else deliveries.persist(),  # the summary reads it again
        "not_delivered": not_delivered,
        "link_traffic": link_traffic,
        "node_load": _node_load(tally, link_traffic).persist(),
        "rejected": rejected_rows.unionByName(refused_rows).persist(),
        "tally": tally,
    }
    for name in OUTPUTS:
        frames[name].write.mode("overwrite").parquet(str(out / name))
    return frames


DELIVERY_COLUMNS = ("variant", "subscription", "node", "status", "stored_at", "hops")
MISSED_COLUMNS = ("variant", "subscription", "node", "reason")
KEY_COLUMNS = ("from", "topic", "properties")


def _facts(facts: DataFrame, columns: tuple[str, ...], per_key: bool) -> DataFrame:
    """``deliveries`` or ``not_delivered``: publications (``count``) and bytes per ``columns``, and per
    routing key (``from``, ``topic``, ``properties``) with ``per_key``. The workers summed them per
    batch; this sums the batches (a key is routed in one batch only: per key there is nothing to sum)."""
    from pyspark.sql import functions as F

    if per_key:
        return facts.select(
            columns[0],
            "from",
            "topic",
            F.col("key").alias("properties"),
            *columns[1:],
            F.col("messages").alias("count"),
            "bytes",
        )
    return facts.groupBy(*columns).agg(F.sum("messages").alias("count"), F.sum("bytes").alias("bytes"))


def _rows(frame: DataFrame) -> list[tuple[Any, ...]]:
    """The rows of a small frame as tuples, collected as Arrow columns (a large estate's link list has
    hundreds of thousands of rows: Row objects one by one take several times longer)."""
    table = frame.toArrow()
    return list(zip(*(table.column(i).to_pylist() for i in range(table.num_columns)), strict=True))


def _summary(outputs: dict[str, DataFrame], variants: list[str]) -> dict[str, Any]:
    """summary.json: per variant, ``current`` first (docs/spark.md), from the small cached aggregates,
    each collected once (as Arrow)."""
    from pyspark.sql import functions as F

    totals: dict[str, dict[str, int]] = {v: {} for v in variants}
    counted = outputs["tally"].groupBy("variant", "status").agg(F.sum("messages").alias("m"))
    for variant, status, messages in _rows(counted):
        totals[variant][status] = int(messages or 0)
    by_node: dict[str, dict[str, int]] = {v: {} for v in variants}
    loads = outputs["node_load"].where(F.col("received") > 0).select("variant", "node", "received")
    for variant, node, received in _rows(loads):
        by_node[variant][node] = received
    by_link: dict[str, list[dict[str, Any]]] = {v: [] for v in variants}
    links = outputs["link_traffic"].select("variant", "from", "to", "via", "messages")
    for variant, a, b, via, messages in sorted(_rows(links)):
        by_link[variant].append({"from": a, "to": b, "via": via, "messages": messages})
    changes = _changes(outputs["deliveries"], variants) if len(variants) > 1 else {}
    rows = []
    for variant in variants:
        t = totals[variant]
        gained, lost = changes.get(variant, ([], []))
        rows.append(
            {
                "variant": variant,
                "publications": t.get("published", 0),
                "deliveries": t.get("delivered", 0) + t.get("stored", 0),
                "stored": t.get("stored", 0),
                "not_delivered": t.get("missed", 0),
                "channels_in_use": len(by_link[variant]),
                "messages_by_node": dict(sorted(by_node[variant].items())),
                "messages_by_link": by_link[variant],
                "gained": gained,
                "lost": lost,
            }
        )
    rejected = outputs["rejected"].count()
    for frame in outputs.values():
        frame.unpersist()
    return {"variants": rows, "rejected": rejected}


Change = dict[str, Any]


def _changes(deliveries: DataFrame, variants: list[str]) -> dict[str, tuple[list[Change], list[Change]]]:
    """Per variant but ``current``: (gained, lost), the subscriptions delivered more or fewer
    publications than in ``current``, sorted by node then subscription. From one collect of the
    publications delivered per variant and subscription (at most one row per variant and subscription)."""
    from pyspark.sql import functions as F

    delivered = (
        deliveries.where(F.col("status") == "delivered")
        .groupBy("variant", "node", "subscription")
        .agg(F.sum("count").alias("m"))
    )
    counts: dict[str, dict[tuple[str, str], int]] = {v: {} for v in variants}
    for variant, node, subscription, m in _rows(delivered):
        counts[variant][(node, subscription)] = int(m)
    current = counts[variants[0]]
    changes: dict[str, tuple[list[Change], list[Change]]] = {}
    for variant in variants[1:]:
        mine = counts[variant]
        gained: list[Change] = []
        lost: list[Change] = []
        for node, subscription in sorted(current.keys() | mine.keys()):
            d = mine.get((node, subscription), 0) - current.get((node, subscription), 0)
            if d:
                entry = {"subscription": subscription, "node": node, "count": abs(d)}
                (gained if d > 0 else lost).append(entry)
        changes[variant] = (gained, lost)
    return changes
