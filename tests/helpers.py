"""Test helpers that read the store directly (to prove a failed command left it exactly as it was)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import create_engine, inspect, text


def dump_store(url: str) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table, sorted: equal dumps mean an unchanged store."""
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            out = {}
            for table in sorted(inspect(conn).get_table_names()):
                rows = conn.execute(text(f'SELECT * FROM "{table}"')).all()
                out[table] = sorted((tuple(r) for r in rows), key=repr)
            return out
    finally:
        engine.dispose()
