"""Alembic migrations: base -> head -> base with rows present, models == migrations, revision check."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import create_engine, inspect, text

from mqctl.store.revision import HEAD
from tests.conftest import run_cli

REPO = Path(__file__).resolve().parents[2]


def _tables(url: str) -> set[str]:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return set(inspect(conn).get_table_names())
    finally:
        engine.dispose()


def test_head_constant_matches_the_migration_scripts() -> None:
    from mqctl.store.migrate import head_revision

    assert head_revision() == HEAD


def test_upgrade_downgrade_round_trip_with_rows(store_url: str) -> None:
    assert run_cli(["db", "upgrade"], db=store_url).exit_code == 0
    assert {"nodes", "topics", "subscriptions", "routes", "route_selectors", "alembic_version"} <= _tables(
        store_url
    )
    for args in (
        ["define", "qmgr", "QM1", "--cluster", "CL1"],
        ["define", "topic", "T1", "--qmgr", "QM1", "--topicstr", "/a", "--cluster", "CL1"],
        ["define", "sub", "S1", "--qmgr", "QM1", "--topicstr", "/a/#"],
        ["define", "qmgr", "E1", "--dialect", "ems"],
        ["define", "route", "E2", "--qmgr", "E1", "--url", "tcp://e2:7222"],
        [
            "define",
            "route-selector",
            "--qmgr",
            "E1",
            "--route",
            "E2",
            "--direction",
            "outgoing",
            "--topic",
            "a",
            "--selector",
            "x > 1",
        ],
    ):
        assert run_cli(args, db=store_url).exit_code == 0, args
    down = run_cli(["db", "downgrade", "base"], db=store_url)
    assert down.exit_code == 0, down.stderr
    assert _tables(store_url) <= {"alembic_version"}
    # an empty store at base: commands refuse it rather than silently recreating it behind the user's back
    refused = run_cli(["display", "qmgr"], db=store_url)
    assert refused.exit_code == 3 and "mqctl db upgrade" in refused.stderr
    assert run_cli(["db", "upgrade"], db=store_url).exit_code == 0
    assert run_cli(["db", "current", "-o", "json"], db=store_url).json()["up_to_date"] is True


def test_models_and_migrations_agree(store_url: str) -> None:
    """Autogenerate against a migrated database finds no difference."""
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from mqctl.store.tables import metadata

    assert run_cli(["db", "upgrade"], db=store_url).exit_code == 0
    engine = create_engine(store_url)
    try:
        with engine.connect() as conn:
            context = MigrationContext.configure(conn, opts={"compare_type": True})
            diff = compare_metadata(context, metadata)
    finally:
        engine.dispose()
    assert diff == []


def test_old_revision_exits_3_and_is_not_changed(store_url: str) -> None:
    assert run_cli(["define", "qmgr", "QM1"], db=store_url).exit_code == 0
    engine = create_engine(store_url)
    with engine.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = '0000_older'"))
    engine.dispose()
    result = run_cli(["display", "qmgr"], db=store_url)
    assert result.exit_code == 3
    assert result.stderr.count("\n") == 1 and "mqctl db upgrade" in result.stderr
    engine = create_engine(store_url)
    with engine.connect() as conn:
        assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar_one() == "0000_older"
    engine.dispose()


def test_plain_alembic_from_the_checkout(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'plain.db'}"
    alembic = Path(sys.executable).parent / "alembic"
    done = subprocess.run(
        [str(alembic), "-x", f"db={url}", "upgrade", "head"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert run_cli(["db", "current", "-o", "json"], db=url).json()["revision"] == HEAD


@pytest.mark.slow
def test_db_commands_work_from_a_non_editable_wheel(tmp_path: Path) -> None:
    """The wheel ships the migrations: `mqctl db upgrade` from an installed (non-editable) copy."""
    wheel_dir, target = tmp_path / "wheel", tmp_path / "site"
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(wheel_dir), str(REPO)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert built.returncode == 0, built.stderr
    wheel = next(wheel_dir.glob("mqctl-*.whl"))
    installed = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "--quiet", "--target", str(target), str(wheel)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert installed.returncode == 0, installed.stderr
    env = dict(os.environ, PYTHONPATH=str(target))
    url = f"sqlite:///{tmp_path / 'wheel.db'}"
    where = subprocess.run(
        [sys.executable, "-c", "import mqctl; print(mqctl.__file__)"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
    )
    assert where.stdout.startswith(str(target)), where.stdout
    for args in (
        ["db", "upgrade"],
        ["db", "current"],
        ["db", "history", "-o", "json"],
        ["db", "downgrade", "base"],
    ):
        done = subprocess.run(
            [sys.executable, "-m", "mqctl", "--db", url, *args],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode in (0, 1), (args, done.stderr)
        assert "Traceback" not in done.stderr
    assert _tables(url) <= {"alembic_version"}
