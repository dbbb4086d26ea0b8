"""Where the store lives and how it is opened."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest
from sqlalchemy import text

from mqctl.store.engine import default_store_path, make_engine, redact, resolve_url
from tests.conftest import run_cli


def test_default_store_is_created_at_head_under_xdg_data_home_readable_by_owner_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert run_cli(["define", "qmgr", "QM1"]).exit_code == 0
    path = tmp_path / "data" / "mqctl" / "mqctl.db"
    assert path.exists() and default_store_path() == path
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert run_cli(["db", "current", "-o", "json"]).json()["up_to_date"] is True


def test_without_xdg_the_store_is_under_local_share(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    assert default_store_path() == tmp_path / ".local" / "share" / "mqctl" / "mqctl.db"


def test_db_option_wins_over_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("MQCTL_DB", "sqlite:///env.db")
    assert resolve_url("sqlite:///opt.db") == "sqlite:///opt.db"
    assert resolve_url(None) == "sqlite:///env.db"
    assert resolve_url(str(tmp_path / "x.db")) == f"sqlite:///{tmp_path / 'x.db'}"


def test_password_is_never_printed() -> None:
    url = "postgresql+psycopg://admin:s3cret@127.0.0.1:1/none"
    assert "s3cret" not in redact(url)
    result = run_cli(["display", "qmgr"], db=url)
    assert result.exit_code == 3
    assert "s3cret" not in result.stderr and "s3cret" not in result.stdout
    assert len(result.stderr.strip().splitlines()) == 1


def test_sqlite_pragmas(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'p.db'}")
    with engine.connect() as conn:
        assert conn.execute(text("PRAGMA journal_mode")).scalar() == "wal"
        assert conn.execute(text("PRAGMA foreign_keys")).scalar() == 1
        assert conn.execute(text("PRAGMA busy_timeout")).scalar() >= 1000
    engine.dispose()


def test_unreachable_or_bad_url_exits_3(tmp_path: Path) -> None:
    assert run_cli(["display", "qmgr"], db="nosuchdb://x").exit_code == 3
    assert run_cli(["display", "qmgr"], db=f"sqlite:///{tmp_path}/no/such/dir/\0x.db").exit_code in (2, 3)


def test_not_an_mqctl_store(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'other.db'}"
    engine = make_engine(url)
    with engine.begin() as conn:
        conn.execute(text("CREATE TABLE t (x INTEGER)"))
    engine.dispose()
    result = run_cli(["display", "qmgr"], db=url)
    assert result.exit_code == 3 and "not an mqctl store" in result.stderr
