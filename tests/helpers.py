"""Test helpers: the CLI's answers checked (``ok``, ``refused``: one exit-code check for every CLI test),
and the store read directly (to prove a failed command left it exactly as it was)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import create_engine, inspect, text

from tests.conftest import Result


def ok(result: Result, codes: tuple[int, ...] = (0,)) -> Result:
    """The command ended with one of ``codes`` (success by default); returns ``result`` for its output."""
    assert result.exit_code in codes, (result.exit_code, result.stdout[-2000:], result.stderr)
    return result


def refused(result: Result, *words: str, at: str | None = None, quiet: bool = False) -> str:
    """Bad input: exit 2 and one line on stderr, ``mqctl: error: …`` (printable text, no traceback), that
    names each of ``words``; ``at``: the line begins with it after the prefix (a ``file:line:col``);
    ``quiet``: nothing on stdout. Returns the line."""
    assert result.exit_code == 2, (result.exit_code, result.stdout[-2000:], result.stderr)
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("mqctl: error: "), result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    line = lines[0]
    line.encode("utf-8")  # printable: what is not text is shown as its escape
    if at is not None:
        assert line.startswith(f"mqctl: error: {at}"), (at, line)
    for word in words:
        assert word in line, (word, line)
    if quiet:
        assert result.stdout == "", result.stdout[-2000:]
    return line


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
