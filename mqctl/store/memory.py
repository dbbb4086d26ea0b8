"""A store that lives in memory for one command: the tables created from their metadata, no file, no
Alembic.

``validate --file`` and ``diff`` read the users' files into a model through the very services of
``mqctl import`` (one edit path), and must neither read nor create the user's store. An in-memory
SQLite database built from ``tables.metadata`` costs a few milliseconds and leaves nothing behind.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from mqctl.store.engine import make_engine
from mqctl.store.repository import Store
from mqctl.store.tables import metadata


@contextmanager
def memory_store() -> Iterator[Store]:
    """A ``Store`` over a fresh in-memory SQLite database (the pragmas of a file store), inside one
    transaction on its one connection, gone on exit."""
    engine = make_engine("sqlite://")
    try:
        with engine.connect() as conn, conn.begin():
            metadata.create_all(conn)
            yield Store(conn)
    finally:
        engine.dispose()
