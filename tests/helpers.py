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


def without_sources(obj: Any) -> Any:
    """A model object (or collection of them) as plain data, without where each definition came from:
    the same definitions read from two files are the same model."""
    import dataclasses

    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {
            f.name: without_sources(getattr(obj, f.name))
            for f in dataclasses.fields(obj)
            if f.name not in ("source_file", "source_line")
        }
    if isinstance(obj, dict):
        return {k: without_sources(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [without_sources(v) for v in obj]
    return obj
