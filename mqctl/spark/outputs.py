"""The outputs of ``mqctl spark analyze`` and its summary, from the routed facts (docs/spark.md).

Few Spark actions, each over a cached frame: a small replay is as quick as Spark's own start allows
when it runs a handful of jobs, not one per output and summary figure. The links crossed and the
per-node tallies (a few rows per node and link however long the log) are collected once; ``link_traffic``,
``node_load`` and the summary's figures are computed from them in the driver, and the two outputs written
from that Arrow table. ``deliveries`` and ``not_delivered`` are summed (or, per key, selected) in Spark.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pyarrow as pa

from mqctl.spark.log_rows import GIVEN, sizes_apart

if TYPE_CHECKING:
    from pyspark.sql import Column, DataFrame, SparkSession

__all__ = ["OUTPUTS", "write_outputs"]

OUTPUTS = ("deliveries", "not_delivered", "link_traffic", "node_load", "rejected")
DELIVERY_COLUMNS = ("variant", "subscription", "node", "status", "stored_at", "hops")
MISSED_COLUMNS = ("variant", "subscription", "node", "reason")
LOAD_COLUMNS = ("received", "forwarded", "delivered", "stored")
LINK_SCHEMA = pa.schema(
    [
        ("variant", pa.string()),
        ("from", pa.string()),
        ("to", pa.string()),
        ("via", pa.string()),
        ("messages", pa.int64()),
        ("bytes", pa.int64()),
    ]
)
LOAD_SCHEMA = pa.schema(
    [("variant", pa.string()), ("node", pa.string()), *((c, pa.int64()) for c in LOAD_COLUMNS)]
)
REJECTED_SCHEMA = pa.schema(
    [(c, pa.string()) for c in ("from", "topic", "properties", "count", "bytes", "record", "reason")]
)

Change = dict[str, Any]


@dataclass
class _Totals:
    """The links and tallies summed over every batch, in the driver (one collect)."""

    links: list[tuple[str, str, str, str, int, int]]
    """(variant, from, to, via, messages, bytes), sorted."""
    tallies: list[tuple[str, str, str, str | None, int]]
    """(variant, status, node, stored_at, messages); status ``published``, ``delivered``, ``stored``,
    ``missed``."""
    refused: int
    """Routing keys the engine refused (their rows join ``rejected``)."""

    def node_load(self) -> list[tuple[str, str, int, int, int, int]]:
        """Per variant and node: received (published there or arriving over a link), forwarded over
        links, delivered there, stored there."""
        load: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0, 0])
        for variant, a, b, _, messages, _ in self.links:
            load[(variant, b)][0] += messages
            load[(variant, a)][1] += messages
        for variant, status, node, stored_at, messages in self.tallies:
            if status == "published":
                load[(variant, node)][0] += messages
            elif status == "delivered":
                load[(variant, node)][2] += messages
            elif status == "stored" and stored_at is not None:
                load[(variant, stored_at)][3] += messages
        return [(v, n, *counts) for (v, n), counts in sorted(load.items())]  # type: ignore[misc]


def _rows(frame: DataFrame) -> list[tuple[Any, ...]]:
    """The rows of a small frame as tuples, collected as Arrow columns (a large estate's link list has
    hundreds of thousands of rows: Row objects one by one take several times longer)."""
    table = frame.toArrow()
    return list(zip(*(table.column(i).to_pylist() for i in range(table.num_columns)), strict=True))


def _totals(routed: DataFrame) -> _Totals:
    from pyspark.sql import functions as F

    kind = F.col("kind")
    small = (
        routed.where(kind.isin("link", "tally", "refused"))
        .groupBy("kind", "variant", "status", "node", "stored_at", "link_from", "link_to", "via")
        .agg(F.sum("messages").alias("messages"), F.sum("bytes").alias("bytes"), F.count(F.lit(1)).alias("n"))
    )
    links: list[tuple[str, str, str, str, int, int]] = []
    tallies: list[tuple[str, str, str, str | None, int]] = []
    refused = 0
    for k, variant, status, node, stored_at, a, b, via, messages, size, n in _rows(small):
        if k == "link":
            links.append((variant, a, b, via, messages, size))
        elif k == "tally":
            tallies.append((variant, status, node, stored_at, messages))
        else:
            refused += n
    return _Totals(sorted(links), tallies, refused)


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


def _as_given(log: DataFrame, distinct: DataFrame, reason: Column) -> DataFrame:
    """The log's rows behind the ``distinct`` rows, as ``rejected/`` writes them: the columns as given,
    with ``reason``. A distinct row stands for log rows that differ at most in a plain size
    (``log_rows.sizes_apart``), so they are read back from the log, each once."""
    from pyspark.sql import functions as F

    wanted = distinct.select(*(F.col(c).alias(f"_{c}") for c in GIVEN), reason.alias("reason"))
    rows = sizes_apart(log.withColumn("_bytes_as_given", F.col("bytes_text")))
    joined = rows.join(F.broadcast(wanted), [F.col(c).eqNullSafe(F.col(f"_{c}")) for c in GIVEN])
    return joined.select(
        "from",
        "topic",
        "properties",
        F.col("count_text").alias("count"),
        F.col("_bytes_as_given").alias("bytes"),
        "record",
        "reason",
    )


def _small(spark: SparkSession, rows: list[tuple[Any, ...]], schema: pa.Schema) -> DataFrame:
    """A frame of rows computed in the driver, in one partition (one file written)."""
    columns = list(zip(*rows, strict=True)) if rows else [() for _ in schema]
    table = pa.Table.from_arrays(
        [pa.array(list(c), f.type) for c, f in zip(columns, schema, strict=True)], schema=schema
    )
    ddl = ", ".join(f"`{f.name}` {'bigint' if f.type == pa.int64() else 'string'}" for f in schema)
    return spark.createDataFrame(table, schema=ddl).coalesce(1)


def write_outputs(
    spark: SparkSession,
    log: DataFrame,
    keyed: DataFrame,
    valid: DataFrame,
    routed: DataFrame,
    out: Path,
    variants: list[str],
    per_key: bool,
) -> dict[str, Any]:
    """Write the five outputs under ``out``; return summary.json's content (``variants`` in order,
    ``current`` first). ``keyed`` and ``routed`` are cached by the caller; ``log`` is the publications
    as text columns (``job.read_publications``), read again for rejected rows."""
    from pyspark.sql import functions as F

    kind = F.col("kind")
    totals = _totals(routed)
    deliveries = _facts(routed.where(kind == "delivery"), DELIVERY_COLUMNS, per_key)
    if not per_key:
        deliveries = deliveries.persist()  # written, then read again for the gains and losses
    bad = keyed.where(F.col("reason").isNotNull())
    if totals.refused:
        refused = routed.where(kind == "refused").select("from", "topic", "key", F.col("reason").alias("why"))
        bad = bad.unionByName(
            valid.join(refused, ["from", "topic", "key"]).drop("reason").withColumnRenamed("why", "reason")
        )
    # the log is read again for its rejected rows only when there are some (keyed is cached)
    rejected = (
        _as_given(log, bad, F.col("reason")) if not bad.isEmpty() else _small(spark, [], REJECTED_SCHEMA)
    )
    rejected = rejected.persist()  # written, then counted
    frames = {
        "deliveries": deliveries,
        "not_delivered": _facts(routed.where(kind == "missed"), MISSED_COLUMNS, per_key),
        "link_traffic": _small(spark, totals.links, LINK_SCHEMA),
        "node_load": _small(spark, totals.node_load(), LOAD_SCHEMA),
        "rejected": rejected,
    }
    try:
        for name in OUTPUTS:
            frames[name].write.mode("overwrite").parquet(str(out / name))
        changes = _changes(deliveries, variants) if len(variants) > 1 else {}
        return {"variants": _variant_rows(totals, changes, variants), "rejected": rejected.count()}
    finally:
        deliveries.unpersist()
        rejected.unpersist()


def _variant_rows(
    totals: _Totals, changes: dict[str, tuple[list[Change], list[Change]]], variants: list[str]
) -> list[dict[str, Any]]:
    """summary.json's ``variants`` (docs/spark.md)."""
    counted: dict[str, dict[str, int]] = {v: defaultdict(int) for v in variants}
    for variant, status, _, _, messages in totals.tallies:
        counted[variant][status] += messages
    by_node: dict[str, dict[str, int]] = {v: {} for v in variants}
    for variant, node, received, *_ in totals.node_load():
        if received > 0:
            by_node[variant][node] = received
    by_link: dict[str, list[dict[str, Any]]] = {v: [] for v in variants}
    for variant, a, b, via, messages, _ in totals.links:
        by_link[variant].append({"from": a, "to": b, "via": via, "messages": messages})
    rows = []
    for variant in variants:
        t = counted[variant]
        gained, lost = changes.get(variant, ([], []))
        rows.append(
            {
                "variant": variant,
                "publications": t["published"],
                "deliveries": t["delivered"] + t["stored"],
                "stored": t["stored"],
                "not_delivered": t["missed"],
                "channels_in_use": len(by_link[variant]),
                "messages_by_node": dict(sorted(by_node[variant].items())),
                "messages_by_link": by_link[variant],
                "gained": gained,
                "lost": lost,
            }
        )
    return rows


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
