"""What every command shares: the store URL, output format, printing of tables and JSON."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from enum import StrEnum
from typing import TYPE_CHECKING, Any

import typer

if TYPE_CHECKING:
    from rich.console import Console

    from mqctl.store.repository import Store


class Output(StrEnum):
    table = "table"
    json = "json"


class Settings:
    """Global options (set by the main callback)."""

    db: str | None = None
    debug: bool = False


OUTPUT_OPTION = typer.Option(
    Output.table, "--output", "-o", case_sensitive=False, help="table for people, json for programs."
)


def store_url() -> str:
    from mqctl.store.engine import resolve_url

    return resolve_url(Settings.db)


@contextmanager
def transaction() -> Iterator[Store]:
    """One write transaction per command (writers run one after another)."""
    from mqctl.store.session import unit_of_work

    with unit_of_work(store_url()) as store:
        yield store


@contextmanager
def reading() -> Iterator[Store]:
    """One read-only transaction: a consistent view of the store, taking no write lock."""
    from mqctl.store.session import unit_of_work

    with unit_of_work(store_url(), write=False) as store:
        yield store


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


def hint(message: str) -> None:
    """Where the user is likely wrong though the command is valid: one line on stderr, exit code unchanged."""
    sys.stderr.write(f"mqctl: hint: {message}\n")


def done(message: str) -> None:
    """Confirmation of a change, for people (stdout, plain)."""
    sys.stdout.write(message + "\n")


def show_table(title: str, columns: Sequence[str], rows: Sequence[dict[str, Any]], output: Output) -> None:
    """Rows as JSON, or as a table of ``columns``; a column that no row has (an MQ attribute when only EMS
    rows are shown, an EMS one when only MQ rows are) is left out. A row without a column's key shows a
    blank cell there."""
    if output is Output.json:
        emit_json(list(rows))
        return
    from rich.table import Table

    if rows:
        columns = [col for col in columns if any(col in row for row in rows)]
    table = Table(title=title, title_justify="left")
    for col in columns:
        table.add_column(col.upper())
    for row in rows:
        table.add_row(*[_cell(row.get(col)) for col in columns])
    console().print(table)
    if not rows:
        sys.stderr.write(f"no {title.lower()} match\n")


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "YES" if value else "NO"
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    if isinstance(value, dict):
        return ", ".join(k if v is None else f"{k}={v}" for k, v in value.items())
    return str(value)


def no_match_exit(rows: Sequence[Any]) -> None:
    """A display that finds nothing is a negative answer: exit 1."""
    if not rows:
        raise typer.Exit(1)


def parse_props(items: Sequence[str], obj: str) -> dict[str, str | None]:
    """``--prop global --prop maxbytes=1GB`` -> EMS properties (flag -> None)."""
    from mqctl.domain.errors import InputError

    props: dict[str, str | None] = {}
    for item in items:
        for part in item.split(","):
            part = part.strip()
            if not part:
                continue
            key, sep, value = part.partition("=")
            key = key.strip()
            if not key or any(c.isspace() for c in key):
                raise InputError(
                    f"{part!r} is not a property (NAME or NAME=VALUE)", obj=obj, attribute="--prop"
                )
            props[key] = value.strip() if sep else None
    return props
