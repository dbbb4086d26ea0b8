"""The outputs of ``mqctl spark analyze`` and its summary, from the routed facts (docs/spark.md).

One aggregate of the facts, one shuffle: every kind of fact summed by its own columns (``_summed``),
collected whole in the job that makes it, as Arrow: a few rows per subscription, node and link,
however long the log — the estate's size, which the driver holds anyway as the model — and the
distinct rows not routed, which the driver broadcasts anyway to read their rows back from the log. The
driver makes every output from it and writes them itself (one Parquet file each, one after another: a
Spark job per output cost seconds of the driver's gaps), and the summary; the aggregate is not cached
(filling a cache and reading it back cost more than the collect). With ``per_key``, ``deliveries`` and
``not_delivered`` hold a row per routing key, the log's size: Spark writes them from the facts as they
are (a key is routed in one task only, so there is nothing to sum). ``rejected/`` is read back from
the log by Spark, when some rows are rejected.
"""

from __future__ import annotations

import shutil
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from mqctl.spark.log_rows import GIVEN, sizes_apart

if TYPE_CHECKING:
    from pyspark.sql import Column, DataFrame

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
SUMMED_BY = (
    "kind",
    "variant",
    "subscription",
    "node",
    "status",
    "stored_at",
    "hops",
    "reason",
    "link_from",
    "link_to",
    "via",
    *GIVEN,
)
"""The columns every fact is summed by (those a kind does not set are null, one group): a delivery's
and a miss's row, a link, a tally's status, node and stored_at, a refusal's key and reason, a rejected
row as given (``rejected/`` is read back from the log for these)."""

Change = dict[str, Any]


@dataclass
class _Totals:
    """What the summary needs, from the small kinds' sums (``_totals``)."""

    links: pa.Table
    """``link_traffic``'s rows (LINK_SCHEMA), sorted by variant, from, to and via."""
    load: pa.Table
    """``node_load``'s rows (LOAD_SCHEMA), sorted by variant and node."""
    counted: list[tuple[str, str, int]]
    """(variant, status, messages) summed from the tallies: ``published``, ``delivered``, ``stored``,
    ``missed``."""
    refused: int
    """Routing keys the engine refused (their rows join ``rejected``)."""
    bad: int
    """Distinct log rows not routed (refused by the checks, or behind a refused key): ``rejected``."""


def _summed(routed: DataFrame, per_key: bool) -> DataFrame:
    """Every fact summed by ``SUMMED_BY`` in one shuffle (``n``: how many facts; the count of refused
    keys and rejected rows). With ``per_key`` deliveries and misses stay out: they are written per
    key, as they are."""
    from pyspark.sql import functions as F

    kinds = ("link", "tally", "refused", "rejected") + (() if per_key else ("delivery", "missed"))
    return (
        routed.where(F.col("kind").isin(*kinds))
        .groupBy(*SUMMED_BY)
        .agg(F.sum("messages").alias("messages"), F.sum("bytes").alias("bytes"), F.count(F.lit(1)).alias("n"))
    )


def _sorted(table: pa.Table, by: tuple[str, ...]) -> pa.Table:
    return table.sort_by([(c, "ascending") for c in by])


def _node_load(links: pa.Table, tallies: pa.Table) -> pa.Table:
    """``node_load``: per variant and node, received (published there or arriving over a link), forwarded
    over links, delivered there, stored there (a stored delivery counts where it is stored)."""
    zeros = pa.array([0] * links.num_rows, pa.int64())
    status = tallies.column("status")
    stored = pc.equal(status, "stored")
    counted = tallies.filter(
        pc.or_(
            pc.is_in(status, pa.array(["published", "delivered"])),
            pc.and_(stored, pc.is_valid(tallies.column("stored_at"))),
        )
    )
    status, stored = counted.column("status"), pc.equal(counted.column("status"), "stored")
    messages = counted.column("messages")
    none = pa.array([0] * counted.num_rows, pa.int64())

    def only(mask: Any) -> Any:
        return pc.if_else(mask, messages, none)

    ends = pa.concat_tables(
        [
            # each link counts twice: received where it arrives, forwarded where it leaves
            pa.table(
                [links.column("variant"), links.column("to"), links.column("messages"), zeros, zeros, zeros],
                schema=LOAD_SCHEMA,
            ),
            pa.table(
                [
                    links.column("variant"),
                    links.column("from"),
                    zeros,
                    links.column("messages"),
                    zeros,
                    zeros,
                ],
                schema=LOAD_SCHEMA,
            ),
            pa.table(
                [
                    counted.column("variant"),
                    pc.if_else(stored, counted.column("stored_at"), counted.column("node")),
                    only(pc.equal(status, "published")),
                    none,
                    only(pc.equal(status, "delivered")),
                    only(stored),
                ],
                schema=LOAD_SCHEMA,
            ),
        ]
    )
    summed = ends.group_by(["variant", "node"], use_threads=False).aggregate(
        [(c, "sum") for c in LOAD_COLUMNS]
    )
    return _sorted(summed.rename_columns(LOAD_SCHEMA.names).cast(LOAD_SCHEMA), ("variant", "node"))


def _totals(collected: pa.Table) -> _Totals:
    """The collected sums (``_summed``) as the two small outputs and the summary's figures."""
    kind = collected.column("kind")
    links = collected.filter(pc.equal(kind, "link"))
    links = pa.table(
        [links.column(c) for c in ("variant", "link_from", "link_to", "via", "messages", "bytes")],
        schema=LINK_SCHEMA,
    )
    tallies = collected.filter(pc.equal(kind, "tally"))
    counted = list(
        zip(*(tallies.column(c).to_pylist() for c in ("variant", "status", "messages")), strict=True)
    )
    n = collected.column("n")
    return _Totals(
        _sorted(links, ("variant", "from", "to", "via")),
        _node_load(links, tallies),
        counted,
        pc.sum(pc.filter(n, pc.equal(kind, "refused"))).as_py() or 0,
        pc.sum(pc.filter(n, pc.equal(kind, "rejected"))).as_py() or 0,
    )


def _write_folder(table: pa.Table, folder: Path) -> None:
    """An output written by the driver as Spark writes one: a folder (replaced) with one Parquet
    file and the ``_SUCCESS`` mark. What stood at its place under ``--out`` is removed, a symbolic
    link as a link (never what it points to)."""
    if folder.is_symlink() or folder.is_file():
        folder.unlink()
    elif folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    pq.write_table(table, folder / "part-00000.parquet", compression="snappy")
    (folder / "_SUCCESS").touch()


def _summed_facts(collected: pa.Table, kind: str, columns: tuple[str, ...]) -> pa.Table:
    """``deliveries`` or ``not_delivered`` (``kind``: ``delivery`` or ``missed``) from the collected sums:
    publications (``count``) and bytes per ``columns``, in no order (as Spark writes: sorting them cost
    the driver a third of a second on the benchmark's estate)."""
    rows = collected.filter(pc.equal(collected.column("kind"), kind))
    return pa.table(
        [*(rows.column(c) for c in columns), rows.column("messages"), rows.column("bytes")],
        names=[*columns, "count", "bytes"],
    )


def _per_key(routed: DataFrame, kind: str, columns: tuple[str, ...]) -> DataFrame:
    """``deliveries`` or ``not_delivered`` with ``--per-key``: per routing key (``from``, ``topic``,
    ``properties``) and ``columns``, the facts as they are."""
    from pyspark.sql import functions as F

    facts = routed.where(F.col("kind") == kind)
    key = ("from", "topic", F.col("key").alias("properties"))
    return facts.select(columns[0], *key, *columns[1:], F.col("messages").alias("count"), "bytes")


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


def write_outputs(
    log: DataFrame,
    routed: DataFrame,
    out: Path,
    variants: list[str],
    per_key: bool,
) -> dict[str, Any]:
    """Write the five outputs under ``out``; return summary.json's content (``variants`` in order,
    ``current`` first). ``routed``: the routing stage's facts, not cached by default (only the
    aggregate reads them: the routing stage's tasks sum them as they go); ``log`` is the publications
    as text columns (``job.read_publications``), read again for rejected rows."""
    from pyspark import StorageLevel

    if per_key:  # the per-key rows are written as they are: the facts are read three times
        routed = routed.persist(StorageLevel.MEMORY_AND_DISK)
    try:
        collected = _summed(routed, per_key).toArrow()  # all of it, in the job that makes it
        totals = _totals(collected)
        _write_folder(totals.links, out / "link_traffic")
        _write_folder(totals.load, out / "node_load")
        compared = len(variants) > 1  # gained and lost: per variant but current
        if per_key:
            deliveries = _per_key(routed, "delivery", DELIVERY_COLUMNS)
            _per_key(routed, "missed", MISSED_COLUMNS).write.mode("overwrite").parquet(
                str(out / "not_delivered")
            )
            deliveries.write.mode("overwrite").parquet(str(out / "deliveries"))
            changes = _changes(_by_subscription_spark(deliveries), variants) if compared else {}
        else:
            delivery_totals = _summed_facts(collected, "delivery", DELIVERY_COLUMNS)
            _write_folder(_summed_facts(collected, "missed", MISSED_COLUMNS), out / "not_delivered")
            _write_folder(delivery_totals, out / "deliveries")
            changes = _changes(_by_subscription(delivery_totals), variants) if compared else {}
        if totals.bad or totals.refused:
            rows = _rejected(log, collected, out)
        else:  # the log is read again only when some of its rows are rejected
            rows = 0
            _write_folder(REJECTED_SCHEMA.empty_table(), out / "rejected")
        return {"variants": _variant_rows(totals, changes, variants), "rejected": rows}
    finally:
        routed.unpersist()


def _rejected(log: DataFrame, collected: pa.Table, out: Path) -> int:
    """``rejected/`` written: the distinct rows not routed came out of the routing stage as facts of
    their own (refused by the checks, or behind a key the engine refused), kept as given by the
    aggregate and collected with it; the log is read again for their rows. Returns how many rows it
    holds."""
    from pyspark.sql import functions as F

    distinct = collected.filter(pc.equal(collected.column("kind"), "rejected")).select([*GIVEN, "reason"])
    given = log.sparkSession.createDataFrame(distinct)
    rejected = _as_given(log, given, F.col("reason")).persist()
    try:
        rejected.write.mode("overwrite").parquet(str(out / "rejected"))
        return rejected.count()
    finally:
        rejected.unpersist()


def _variant_rows(
    totals: _Totals, changes: dict[str, tuple[list[Change], list[Change]]], variants: list[str]
) -> list[dict[str, Any]]:
    """summary.json's ``variants`` (docs/spark.md)."""
    counted: dict[str, dict[str, int]] = {v: defaultdict(int) for v in variants}
    for variant, status, messages in totals.counted:
        counted[variant][status] += messages
    by_node: dict[str, dict[str, int]] = {v: {} for v in variants}
    load = totals.load.filter(pc.greater(totals.load.column("received"), 0))
    for variant, node, received in zip(
        *(load.column(c).to_pylist() for c in ("variant", "node", "received")), strict=True
    ):
        by_node[variant][node] = received
    links = totals.links.drop_columns("bytes")
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
                "messages_by_node": by_node[variant],
                "messages_by_link": by_link,
                "gained": gained,
                "lost": lost,
            }
        )
    return rows


def _by_subscription(deliveries: pa.Table) -> pa.Table:
    """The publications delivered (not stored) per variant, node and subscription: ``variant``, ``node``,
    ``subscription``, ``count``."""
    delivered = deliveries.filter(pc.equal(deliveries.column("status"), "delivered"))
    by = ["variant", "node", "subscription"]
    summed = delivered.group_by(by, use_threads=False).aggregate([("count", "sum")])
    return summed.rename_columns([*by, "count"])


def _by_subscription_spark(deliveries: DataFrame) -> pa.Table:
    """``_by_subscription`` of the per-key ``deliveries`` (the log's size: summed by Spark, then
    collected: at most one row per variant and subscription)."""
    from pyspark.sql import functions as F

    delivered = deliveries.where(F.col("status") == "delivered")
    return delivered.groupBy("variant", "node", "subscription").agg(F.sum("count").alias("count")).toArrow()


def _changes(delivered: pa.Table, variants: list[str]) -> dict[str, tuple[list[Change], list[Change]]]:
    """Per variant but ``current``: (gained, lost), the subscriptions delivered more or fewer
    publications than in ``current``, sorted by node then subscription (``delivered``:
    ``_by_subscription``)."""
    counts: dict[str, dict[tuple[str, str], int]] = {v: {} for v in variants}
    columns = (delivered.column(c).to_pylist() for c in ("variant", "node", "subscription", "count"))
    for variant, node, subscription, m in zip(*columns, strict=True):
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
