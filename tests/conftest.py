"""Shared fixtures: a real store on SQLite and on PostgreSQL, and the CLI run in-process.

PostgreSQL: ``MQCTL_TEST_PG_URL`` (default the local server). Each test run creates its own database and
drops it afterwards. Outside CI a missing server skips those tests with the reason; with ``CI=true`` a
missing server fails the run.
"""

from __future__ import annotations

import io
import os
import sys
import uuid
from collections.abc import Callable, Iterator
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass
from pathlib import Path

import pytest

DEFAULT_PG = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
SHARED = Path(__file__).resolve().parents[1].parent / "shared"


@dataclass
class Result:
    exit_code: int
    stdout: str
    stderr: str

    def json(self) -> object:
        import json

        return json.loads(self.stdout)


def run_cli(args: list[str], db: str | None = None, stdin: str | None = None) -> Result:
    """Run `mqctl ARGS` through the real entry point (``run``), in-process, capturing both streams."""
    from mqctl.cli.main import run

    argv = ["mqctl"] + (["--db", db] if db else []) + list(args)
    out, err = io.StringIO(), io.StringIO()
    old_argv, old_stdin = sys.argv, sys.stdin
    sys.argv = argv
    if stdin is not None:  # bytes underneath, as a real standard input has (``sys.stdin.buffer``)
        sys.stdin = io.TextIOWrapper(io.BytesIO(stdin.encode("utf-8")), encoding="utf-8")
    code = 0
    try:
        with redirect_stdout(out), redirect_stderr(err):
            run()
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    finally:
        sys.argv, sys.stdin = old_argv, old_stdin
    return Result(code, out.getvalue(), err.getvalue())


def _pg_admin_url() -> str:
    return os.environ.get("MQCTL_TEST_PG_URL", DEFAULT_PG)


@pytest.fixture(scope="session")
def pg_database() -> Iterator[str]:
    """A fresh PostgreSQL database for this test run, dropped at the end."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    admin = make_url(_pg_admin_url())
    try:
        engine = create_engine(admin, isolation_level="AUTOCOMMIT")
        with engine.connect() as conn:
            conn.execute(text("SELECT 1"))
    except Exception as exc:  # noqa: BLE001
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true but PostgreSQL at {admin.render_as_string()} is unreachable: {exc}")
        pytest.skip(f"PostgreSQL at {admin.render_as_string()} is unreachable: {exc}")
    name = f"mqctl_test_{uuid.uuid4().hex[:12]}"
    with engine.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield admin.set(database=name).render_as_string(hide_password=False)
    finally:
        with engine.connect() as conn:
            conn.execute(
                text(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = :n AND pid <> pg_backend_pid()"
                ),
                {"n": name},
            )
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}"'))
        engine.dispose()


def _reset_pg(url: str) -> None:
    from sqlalchemy import create_engine, text

    engine = create_engine(url, isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        conn.execute(text("DROP SCHEMA public CASCADE"))
        conn.execute(text("CREATE SCHEMA public"))
    engine.dispose()


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty store URL, on each database in turn."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'store.db'}"
    url: str = request.getfixturevalue("pg_database")
    _reset_pg(url)
    return url


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'store.db'}"


@pytest.fixture
def cli(store_url: str) -> Callable[..., Result]:
    """`cli("define", "qmgr", "QM1")` against the parametrised store."""

    def invoke(*args: str, stdin: str | None = None) -> Result:
        return run_cli(list(args), db=store_url, stdin=stdin)

    return invoke


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Never touch the user's own store: the default store lives in a temporary data directory."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("xdg")))
    monkeypatch.delenv("MQCTL_DB", raising=False)
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "200")


@pytest.fixture
def shared_dir() -> Path:
    if not SHARED.is_dir():
        pytest.skip(f"{SHARED} is absent (the shared folder beside the checkout)")
    return SHARED
