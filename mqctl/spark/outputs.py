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
    """What the summary needs, collected once from small aggregates of the facts (``_summed``)."""

    links: pa.Table
    """(variant, from, to, via, messages), sorted: the rows of ``link_traffic``."""
    received: list[tuple[str, str, int]]
    """(variant, node, received) of ``node_load``, for the nodes that receive any."""
    counted: list[tuple[str, str, int]]
    """(variant, status, messages) summed from the tallies: ``published``, ``delivered``, ``stored``,
    ``missed``."""
    refused: int
    """Routing keys the engine refused (their rows join ``rejected``)."""
    bad: int
    """Distinct log rows not routed (refused by the checks, or behind a refused key): ``rejected``."""


def _rows(frame: DataFrame) -> list[tuple[Any, ...]]:
    """The rows of a small frame as tuples, collected as Arrow columns (Row objects one by one take
    several times longer)."""
    table = frame.toArrow()
    return list(zip(*(table.column(i).to_pylist() for i in range(table.num_columns)), strict=True))


def _few(routed: DataFrame) -> DataFrame:
    """The facts that are summed into small outputs, summed in one pass over the facts: links (per
    variant and link), tallies (per variant, status, node and stored_at), refused keys and rejected
    distinct rows (``n``: how many), a few rows per node and link however long the log."""
    from pyspark.sql import functions as F

    return (
        routed.where(F.col("kind").isin("link", "tally", "refused", "rejected"))
        .groupBy("kind", "variant", "status", "node", "stored_at", "link_from", "link_to", "via")
        .agg(F.sum("messages").alias("messages"), F.sum("bytes").alias("bytes"), F.count(F.lit(1)).alias("n"))
    )


def _link_traffic(small: DataFrame) -> DataFrame:
    """``link_traffic``: the links crossed, summed over the workers' batches (one row per variant and
    link)."""
    from pyspark.sql import functions as F

    return small.where(F.col("kind") == "link").select(
        "variant",
        F.col("link_from").alias("from"),
        F.col("link_to").alias("to"),
        "via",
        "messages",
        "bytes",
    )


def _node_load(links: DataFrame, small: DataFrame) -> DataFrame:
    """``node_load``: per variant and node, received (published there or arriving over a link), forwarded
    over links, delivered there, stored there (a stored delivery counts where it is stored). One scan of
    the links and one of the tallies."""
    from pyspark.sql import functions as F

    zero = F.lit(0).cast("bigint")
    messages = F.col("messages")
    # each link counts twice: received where it arrives, forwarded where it leaves
    ends = F.explode(
        F.array(
            F.struct(F.col("to").alias("node"), messages.alias("received"), zero.alias("forwarded")),
            F.struct(F.col("from").alias("node"), zero.alias("received"), messages.alias("forwarded")),
        )
    )
    over_links = links.select("variant", ends.alias("end")).select(
        "variant", "end.node", "end.received", "end.forwarded", zero.alias("delivered"), zero.alias("stored")
    )
    status = F.col("status")
    stored = status == "stored"
    tallies = small.where(
        (F.col("kind") == "tally")
        & (status.isin("published", "delivered") | (stored & F.col("stored_at").isNotNull()))
    ).select(
        "variant",
        F.when(stored, F.col("stored_at")).otherwise(F.col("node")).alias("node"),
        F.when(status == "published", messages).otherwise(zero).alias("received"),
        zero.alias("forwarded"),
        F.when(status == "delivered", messages).otherwise(zero).alias("delivered"),
        F.when(stored, messages).otherwise(zero).alias("stored"),
    )
    return (
        over_links.unionByName(tallies)
        .groupBy("variant", "node")
        .agg(*(F.sum(c).alias(c) for c in LOAD_COLUMNS))
    )


def _summed(links: DataFrame, load: DataFrame, small: DataFrame) -> DataFrame:
    """The summary's figures as one small frame (one collect): the links (``part`` link), each node's
    received messages (load), the tallies per status (tally), the refused keys (refused) and the
    distinct rows not routed (rejected: whether ``rejected/`` has rows at all)."""
    from pyspark.sql import functions as F

    none = F.lit(None).cast("string")
    counted = (
        small.where(F.col("kind").isin("tally", "refused", "rejected"))
        .groupBy("kind", "variant", "status")
        .agg(F.sum("messages").alias("m"), F.sum("n").alias("n"))
    )
    return (
        links.select(
            F.lit("link").alias("part"),
            "variant",
            F.col("from").alias("a"),
            F.col("to").alias("b"),
            "via",
            F.col("messages").alias("m"),
        )
        .unionByName(
            load.where(F.col("received") > 0).select(
                F.lit("load").alias("part"),
                "variant",
                F.col("node").alias("a"),
                none.alias("b"),
                none.alias("via"),
                F.col("received").alias("m"),
            )
        )
        .unionByName(
            counted.select(
                F.col("kind").alias("part"),
                "variant",
                F.col("status").alias("a"),
                none.alias("b"),
                none.alias("via"),
                F.when(F.col("kind") == "tally", F.col("m")).otherwise(F.col("n")).alias("m"),
            )
        )
    )


def _totals(summed: DataFrame) -> _Totals:
    import pyarrow.compute as pc

    table = summed.toArrow()
    part = table.column("part")
    links = (
        table.filter(pc.equal(part, "link"))
        .select(["variant", "a", "b", "via", "m"])
        .rename_columns(["variant", "from", "to", "via", "messages"])
        .sort_by([(c, "ascending") for c in ("variant", "from", "to", "via")])
    )
    rest = table.filter(pc.not_equal(part, "link")).select(["part", "variant", "a", "m"]).to_pylist()
    received = sorted((r["variant"], r["a"], r["m"]) for r in rest if r["part"] == "load")
    counted = [(r["variant"], r["a"], r["m"]) for r in rest if r["part"] == "tally"]
    refused = sum(r["m"] for r in rest if r["part"] == "refused")
    bad = sum(r["m"] for r in rest if r["part"] == "rejected")
    return _Totals(links, received, counted, refused, bad)


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
    routed: DataFrame,
    out: Path,
    variants: list[str],
    per_key: bool,
) -> dict[str, Any]:
    """Write the five outputs under ``out``; return summary.json's content (``variants`` in order,
    ``current`` first). ``routed`` is cached by the caller; ``log`` is the publications as text columns
    (``job.read_publications``), read again for rejected rows."""
    from pyspark.sql import functions as F

    kind = F.col("kind")
    # the small aggregates are cached: written as outputs and collected (once, together) for the summary
    small = _few(routed).persist()
    links = _link_traffic(small)
    load = _node_load(links, small).persist()
    totals = _totals(_summed(links, load, small))
    deliveries = _facts(routed.where(kind == "delivery"), DELIVERY_COLUMNS, per_key)
    if not per_key and len(variants) > 1:
        # written, then read again for the gains and losses; without a variant there are none, and
        # filling the cache would only slow the write
        deliveries = deliveries.persist()
    # the distinct rows not routed came out of the routing stage as facts of their own (refused by the
    # checks, or behind a key the engine refused); the log is read again for their rows only when there
    # are some
    some = bool(totals.bad or totals.refused)
    bad = routed.where(kind == "rejected")
    rejected = _as_given(log, bad, F.col("reason")) if some else _small(spark, [], REJECTED_SCHEMA)
    rejected = rejected.persist()  # written, then counted
    frames = {
        "deliveries": deliveries,
        "not_delivered": _facts(routed.where(kind == "missed"), MISSED_COLUMNS, per_key),
        # one file each, in order, as a reader of a few hundred thousand links expects them
        "link_traffic": links.coalesce(1).sortWithinPartitions("variant", "from", "to", "via"),
        "node_load": load.coalesce(1).sortWithinPartitions("variant", "node"),
        "rejected": rejected,
    }
    try:
        for name in OUTPUTS:
            frames[name].write.mode("overwrite").parquet(str(out / name))
        changes = _changes(deliveries, variants) if len(variants) > 1 else {}
        rows = rejected.count() if some else 0
        return {"variants": _variant_rows(totals, changes, variants), "rejected": rows}
    finally:
        for frame in (deliveries, rejected, small, load):
            frame.unpersist()


def _variant_rows(
    totals: _Totals, changes: dict[str, tuple[list[Change], list[Change]]], variants: list[str]
) -> list[dict[str, Any]]:
    """summary.json's ``variants`` (docs/spark.md)."""
    import pyarrow.compute as pc

    counted: dict[str, dict[str, int]] = {v: defaultdict(int) for v in variants}
    for variant, status, messages in totals.counted:
        counted[variant][status] += messages
    by_node: dict[str, dict[str, int]] = {v: {} for v in variants}
    for variant, node, received in totals.received:
        by_node[variant][node] = received
    links = totals.links
    rows = []
    for variant in variants:
        t = counted[variant]
        gained, lost = changes.get(variant, ([], []))
        # one dict per link, made by Arrow (a large estate's summary lists hundreds of thousands)
        by_link = links.filter(pc.equal(links.column("variant"), variant)).drop_columns("variant").to_pylist()
        rows.append(
            {
                "variant": variant,
                "publications": t["published"],
                "deliveries": t["delivered"] + t["stored"],
                "stored": t["stored"],
                "not_delivered": t["missed"],
                "channels_in_use": len(by_link),
                "messages_by_node": dict(sorted(by_node[variant].items())),
                "messages_by_link": by_link,
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
