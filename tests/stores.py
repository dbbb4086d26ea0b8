"""The stores of a test run: migrated once, then copied for each test.

Creating a store at head runs the Alembic migrations (about 0.8 s); copying a migrated one costs a few
milliseconds. So each run migrates one SQLite file and one PostgreSQL template database with the
project's own migrations (``mqctl.store.migrate.upgrade``, as ``mqctl db upgrade`` does), and every test
gets a copy: the file copied, or ``CREATE DATABASE ... TEMPLATE``. A test about migrations or first use
asks for a database never migrated.

One module (not the conftest, which pytest imports under another name than the tests do) holds the run's
state, so fixtures and test helpers share one template.
"""

from __future__ import annotations

import itertools
import os
import queue
import shutil
import sqlite3
import sys
import tempfile
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from contextlib import closing
from pathlib import Path

import pytest

DEFAULT_PG = "postgresql+psycopg://postgres@127.0.0.1:5432/test"


def pg_admin_url() -> str:
    return os.environ.get("MQCTL_TEST_PG_URL", DEFAULT_PG)


def in_ci() -> bool:
    return os.environ.get("CI") == "true"


def migrate(url: str) -> None:
    """The store at ``url`` upgraded to head by the project's own migrations (as ``mqctl db upgrade``)."""
    from mqctl.store.engine import make_engine
    from mqctl.store.migrate import upgrade

    engine = make_engine(url)
    try:
        upgrade(engine, "head")
    finally:
        engine.dispose()


class _SqliteStores:
    """One migrated SQLite file per test run; ``fresh`` copies it (mode 0600 kept, as mqctl creates it)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._template: Path | None = None

    def template(self) -> Path:
        if self._template is None:
            path = self.folder / "template.db"
            migrate(f"sqlite:///{path}")
            with closing(sqlite3.connect(path)) as conn:  # everything in the one file that is copied
                conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            self._template = path
        return self._template

    def fresh(self, path: Path) -> str:
        """A store at head at ``path`` (replacing whatever store was there)."""
        for suffix in ("", "-wal", "-shm"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)
        shutil.copy2(self.template(), path)
        return f"sqlite:///{path}"


class _PgStores:
    """PostgreSQL databases of this test run: a template migrated once, one database per test.

    ``DROP DATABASE`` waits for a checkpoint (about a second on a loaded machine), so finished databases
    are renamed out of the way at once and dropped by a background thread; the run waits for the last
    drops at its end. Names carry a per-process random part: parallel runs (or pytest-xdist workers) on
    one server never meet.
    """

    def __init__(self, admin_url: str) -> None:
        from sqlalchemy import create_engine, text
        from sqlalchemy.engine import make_url

        self.admin = make_url(admin_url)
        self.engine = create_engine(self.admin, isolation_level="AUTOCOMMIT", pool_size=9)
        with self.engine.connect() as conn:
            conn.execute(text("SELECT 1"))
        self.prefix = f"mqctl_test_{uuid.uuid4().hex[:12]}"
        self._numbers = itertools.count(1)
        self._template: str | None = None
        self._alive: set[str] = set()  # created and not yet discarded: dropped at the end at the latest
        self._doomed: queue.Queue[str | None] = queue.Queue()
        self._dropper = threading.Thread(target=self._drop_loop, name="drop-test-databases", daemon=True)
        self._dropper.start()

    def url(self, name: str) -> str:
        return self.admin.set(database=name).render_as_string(hide_password=False)

    def _execute(self, sql: str, **params: object) -> None:
        from sqlalchemy import text

        with self.engine.connect() as conn:
            conn.execute(text(sql), params)

    def template(self) -> str:
        if self._template is None:
            name = f"{self.prefix}_template"
            self._execute(f'CREATE DATABASE "{name}"')
            migrate(self.url(name))
            self._template = name
        return self._template

    def create(self, *, migrated: bool = True) -> str:
        """A new database: at head (a copy of the template), or empty (a copy of ``template0``)."""
        name = f"{self.prefix}_{next(self._numbers)}"
        source = self.template() if migrated else "template0"
        self._execute(f'CREATE DATABASE "{name}" TEMPLATE "{source}"')
        self._alive.add(name)
        return self.url(name)

    def discard(self, url: str) -> None:
        """Out of the way now (renamed, its sessions ended), dropped in the background."""
        from sqlalchemy.engine import make_url

        name = make_url(url).database
        assert name and name.startswith(self.prefix), url
        doomed = f"{name}_x{next(self._numbers)}"
        for attempt in range(50):  # an ended session leaves pg_stat_activity a moment later
            self._execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = :n "
                "AND pid <> pg_backend_pid()",
                n=name,
            )
            try:
                self._execute(f'ALTER DATABASE "{name}" RENAME TO "{doomed}"')
                break
            except Exception:  # noqa: BLE001 - "being accessed by other users": try again
                if attempt == 49:
                    raise
                time.sleep(0.05)
        self._alive.discard(name)
        self._doomed.put(doomed)

    def reset(self, url: str, *, migrated: bool = True) -> None:
        """The database at ``url`` replaced by a new one of the same name, at head or empty."""
        from sqlalchemy.engine import make_url

        name = make_url(url).database
        self.discard(url)
        source = self.template() if migrated else "template0"
        self._execute(f'CREATE DATABASE "{name}" TEMPLATE "{source}"')
        self._alive.add(name)

    def _drop(self, name: str) -> None:
        try:
            self._execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        except Exception as exc:  # noqa: BLE001 - a database left behind is no test failure
            print(f"could not drop the test database {name}: {exc}", file=sys.stderr)

    def _drop_loop(self) -> None:
        """Drops what is waiting all at once: concurrent drops share their checkpoints."""
        with ThreadPoolExecutor(max_workers=8) as pool:
            while True:
                batch = [self._doomed.get()]
                while not self._doomed.empty():
                    batch.append(self._doomed.get_nowait())
                list(pool.map(self._drop, [name for name in batch if name is not None]))
                if None in batch:
                    return

    def close(self) -> None:
        """Wait for the background drops (those still alive with them), then drop the template."""
        for name in sorted(self._alive):
            self._doomed.put(name)
        self._doomed.put(None)
        self._dropper.join()
        if self._template is not None:
            self._drop(self._template)
        self.engine.dispose()


class _Stores:
    """The stores of one test run, created on first need (a run of domain tests migrates nothing)."""

    def __init__(self) -> None:
        self._folder: Path | None = None
        self._sqlite: _SqliteStores | None = None
        self._pg: _PgStores | None = None
        self._pg_error: str | None = None

    @property
    def sqlite(self) -> _SqliteStores:
        if self._sqlite is None:
            self._folder = Path(tempfile.mkdtemp(prefix="mqctl-test-stores-"))
            self._sqlite = _SqliteStores(self._folder)
        return self._sqlite

    @property
    def pg(self) -> _PgStores:
        """The server of ``MQCTL_TEST_PG_URL``; unreachable, the test is skipped (failed with CI=true)."""
        if self._pg is None and self._pg_error is None:
            try:
                self._pg = _PgStores(pg_admin_url())
            except Exception as exc:  # noqa: BLE001
                self._pg_error = f"PostgreSQL at {_redacted(pg_admin_url())} is unreachable: {exc}"
        if self._pg is None:
            assert self._pg_error is not None
            if in_ci():
                pytest.fail(f"CI=true but {self._pg_error}")
            pytest.skip(self._pg_error)
        return self._pg

    def close(self) -> None:
        if self._pg is not None:
            self._pg.close()
            self._pg = None
        if self._folder is not None:
            shutil.rmtree(self._folder, ignore_errors=True)
            self._folder, self._sqlite = None, None


STORES = _Stores()


def _redacted(url: str) -> str:
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)


def fresh_store(like: str, path: Path) -> str:
    """Another store at head, with nothing defined, on the backend of ``like``: a SQLite file at ``path``,
    or a new PostgreSQL database (dropped at the end of the run)."""
    if like.startswith("sqlite"):
        return STORES.sqlite.fresh(path)
    return STORES.pg.create()


def _reset_pg(url: str) -> None:
    """The PostgreSQL database at ``url`` replaced by a fresh store at head (same URL, nothing defined)."""
    STORES.pg.reset(url)
