"""Shared fixtures: a real store on SQLite and on PostgreSQL, and the CLI run in-process.

Stores are migrated once per run and copied for each test (``store_url``, ``sqlite_url``);
``empty_store_url`` is a database never migrated, for the tests of migrations and of first use.

PostgreSQL: ``MQCTL_TEST_PG_URL`` (default the local server). Each test run creates its own databases and
drops them afterwards. Outside CI a missing server skips those tests with the reason; with ``CI=true`` a
missing server fails the run.
"""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from tests.stores import STORES, _reset_pg, fresh_store, in_ci

__all__ = ["FIXTURES", "SHARED", "Result", "_reset_pg", "fresh_store", "needs_shared", "run_cli"]

# Hypothesis profiles: ``dev`` for the inner loop, ``ci`` (chosen when CI=true, or by HYPOTHESIS_PROFILE).
# Neither has a deadline: a deadline is a timing assert, and the 2-core machine is shared. ``ci`` draws the
# same examples on every run (a red CI is reproducible, never a dice roll) and writes no example database
# into the clone; ``dev`` keeps the database, so a failure found once is tried first next time. A test that
# sets ``max_examples`` keeps its own count; the fuzz tests take theirs from MQCTL_FUZZ_EXAMPLES.
settings.register_profile("dev", max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile(
    "ci",
    max_examples=100,
    deadline=None,
    derandomize=True,
    database=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if in_ci() else "dev"))

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
FIXTURES = Path(__file__).resolve().parent / "fixtures"
"""Small configurations written for the tests (the shared corpus may be absent: a clone alone)."""


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


@pytest.fixture(scope="session", autouse=True)
def _stores_of_the_run() -> Iterator[None]:
    """Removes the run's template stores (and waits for the last PostgreSQL drops) at its end."""
    yield
    STORES.close()


@pytest.fixture(scope="session")
def pg_database() -> Iterator[str]:
    """A PostgreSQL database at head for the whole test run (dropped at its end)."""
    url = STORES.pg.create()
    yield url
    STORES.pg.discard(url)


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A store at head with nothing defined, on each database in turn (a copy of the run's template)."""
    if request.param == "sqlite":
        yield STORES.sqlite.fresh(tmp_path / "store.db")
        return
    url = STORES.pg.create()
    yield url
    STORES.pg.discard(url)


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def empty_store_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty database, never migrated, on each database in turn: for the tests of migrations and of
    a store's creation on first use."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'store.db'}"
        return
    url = STORES.pg.create(migrated=False)
    yield url
    STORES.pg.discard(url)


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    """A SQLite store at head with nothing defined."""
    return STORES.sqlite.fresh(tmp_path / "store.db")


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


def _require_shared(path: Path) -> None:
    """A test that reads ``../shared`` (the corpora beside the checkout): skipped with the reason when it
    is absent (a clone of the repository alone), failed when ``CI=true`` (CI must run every test)."""
    if path.exists():
        return
    why = f"{path} is absent (the shared folder beside the checkout)"
    if in_ci():
        pytest.fail(f"CI=true but {why}", pytrace=False)
    pytest.skip(why)


def needs_shared(*parts: str) -> pytest.MarkDecorator:
    """``@needs_shared("corpus", "ems")``: the test reads ``../shared/corpus/ems``."""
    return pytest.mark.shared(*parts)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """Before the ``skipif`` marks (an empty corpus parametrisation is a skip too): in CI, a failure."""
    for mark in item.iter_markers("shared"):
        _require_shared(SHARED.joinpath(*mark.args))


@pytest.fixture
def shared_dir() -> Path:
    _require_shared(SHARED)
    return SHARED
