"""The per-variant table of a Spark analysis (``summary.json``'s variants): its columns and rows, once,
for the CLI's Rich table and for the plain text the ``spark-submit`` driver prints (its stdout is
usually a log, and it loads no Rich)."""

from __future__ import annotations

from typing import Any

__all__ = ["COLUMNS", "plain_table", "summary_rows"]

COLUMNS = ("VARIANT", "PUBLICATIONS", "DELIVERIES", "STORED", "NOT DELIVERED", "CHANNELS", "GAINED", "LOST")
"""The first column is text (left-aligned), the others are counts."""


def summary_rows(summary: dict[str, Any]) -> list[tuple[str, ...]]:
    """One row per variant, the counts written with thousands separators."""
    return [
        (
            v["variant"],
            *(
                f"{v[k]:,}"
                for k in ("publications", "deliveries", "stored", "not_delivered", "channels_in_use")
            ),
            f"{sum(g['count'] for g in v['gained']):,}",
            f"{sum(g['count'] for g in v['lost']):,}",
        )
        for v in summary["variants"]
    ]


def plain_table(summary: dict[str, Any]) -> str:
    """The table as plain text, with the number of rejected publication rows under it."""
    rows = [COLUMNS, *summary_rows(summary)]
    widths = [max(len(r[i]) for r in rows) for i in range(len(COLUMNS))]
    lines = [
        "  ".join(
            c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths, strict=True))
        )
        for r in rows
    ]
    lines.append(f"rejected publication rows: {summary['rejected']:,}")
    return "\n".join(lines) + "\n"
