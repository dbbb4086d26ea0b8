"""Rich consoles and the display tables: rows (dicts) in, a table for people or JSON for programs out."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.console import Console


def console() -> Console:
    """Rich output; when stdout is not a terminal (a pipe, a file) tables are never cut to a width."""
    from rich.console import Console

    if sys.stdout.isatty():
        return Console(highlight=False)
    return Console(highlight=False, width=1_000_000)


def err_console() -> Console:
    from rich.console import Console

    return Console(stderr=True, highlight=False)


def emit_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")


def show_table(title: str, columns: Sequence[str], rows: Sequence[dict[str, Any]], as_json: bool) -> None:
    """Rows as JSON, or as a table of ``columns``; a column that no row has (an MQ attribute when only EMS
    rows are shown, an EMS one when only MQ rows are) is left out. A row without a column's key shows a
    blank cell there."""
    if as_json:
        emit_json(list(rows))
        return
    from rich.table import Table

    if rows:
        columns = [col for col in columns if any(col in row for row in rows)]
    table = Table(title=title, title_justify="left")
    for col in columns:
        table.add_column(col.upper())
    for row in rows:
        table.add_row(*[cell(row.get(col)) for col in columns])
    console().print(table)
    if not rows:
        sys.stderr.write(f"no {title.lower()} match\n")


def cell(value: Any) -> str:
    """One table cell: blank for None, YES/NO, lists and property maps on one line."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "YES" if value else "NO"
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    if isinstance(value, dict):
        return ", ".join(k if v is None else f"{k}={v}" for k, v in value.items())
    return str(value)
