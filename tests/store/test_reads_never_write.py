"""Reads never write (issue 33): a read or a diff side leaves a SQLite file's bytes as they were, in
every journal mode, a 0-byte file too; a PostgreSQL store's rows too; a nested store path's folders are
created 0700; a malformed PostgreSQL URL is one line, its password not shown."""

from __future__ import annotations

import sqlite3
import stat
from pathlib import Path

import pytest

from tests.conftest import Result, run_cli
from tests.helpers import dump_store

MQSC = "DEFINE SUB(S1) TOPICSTR('/A/#') DEST(Q)\nDEFINE TOPIC(T) TOPICSTR('/A')\n"


def reads(url: str, folder: Path) -> list[list[str]]:
    """Read commands, and diff with the store as a side."""
    return [
        ["--db", url, "display", "qmgr", "*"],
        ["--db", url, "display", "sub", "*", "--qmgr", "QM1", "-o", "json"],
        ["--db", url, "display", "observed"],
        ["--db", url, "reconcile", "-o", "json"],
        ["--db", url, "db", "current"],
        ["diff", url, str(folder)],
        ["diff", str(folder), url],
    ]


def files_of(path: Path) -> dict[str, bytes]:
    """The store file and any journal beside it, byte for byte."""
    return {p.name: p.read_bytes() for p in sorted(path.parent.glob(path.name + "*"))}


def folder_of_files(tmp_path: Path) -> Path:
    folder = tmp_path / "mq"
    folder.mkdir()
    (folder / "QM1.mqsc").write_text(MQSC)
    return folder


def no_traceback(result: Result) -> None:
    assert result.exit_code in (0, 1, 2, 3), (result.exit_code, result.stderr)
    assert "Traceback" not in result.stderr and len(result.stderr.splitlines()) <= 1, result.stderr


def test_a_zero_byte_file_stays_zero_bytes(tmp_path: Path) -> None:
    store = tmp_path / "empty.db"
    store.touch()
    folder = folder_of_files(tmp_path)
    for args in reads(f"sqlite:///{store}", folder):
        result = run_cli(args)
        no_traceback(result)
        assert files_of(store) == {"empty.db": b""}, args


@pytest.mark.parametrize("mode", ["delete", "truncate", "persist", "wal"])
def test_reads_leave_the_bytes_in_every_journal_mode(mode: str, tmp_path: Path) -> None:
    store = tmp_path / "store.db"
    url = f"sqlite:///{store}"
    folder = folder_of_files(tmp_path)
    assert run_cli(["--db", url, "import", "mqsc", str(folder / "QM1.mqsc")]).exit_code == 0
    with sqlite3.connect(store) as conn:
        assert conn.execute(f"PRAGMA journal_mode={mode}").fetchone()[0] == mode
    conn.close()
    before = files_of(store)
    for args in reads(url, folder):
        no_traceback(run_cli(args))
        assert files_of(store) == before, args
    with sqlite3.connect(store) as conn:  # WAL is the file's; the others a connection's (delete by default)
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == ("wal" if mode == "wal" else "delete")
    conn.close()


def test_reads_leave_every_row_as_it_was(store_url: str, tmp_path: Path) -> None:
    """On PostgreSQL too (its read transactions are READ ONLY)."""
    folder = folder_of_files(tmp_path)
    assert run_cli(["--db", store_url, "import", "mqsc", str(folder / "QM1.mqsc")]).exit_code == 0
    before = dump_store(store_url)
    for args in reads(store_url, folder):
        no_traceback(run_cli(args))
    assert dump_store(store_url) == before


def test_a_nested_store_path_is_created_private(tmp_path: Path) -> None:
    store = tmp_path / "a" / "b" / "c" / "store.db"
    assert run_cli(["--db", f"sqlite:///{store}", "define", "qmgr", "QM1"]).exit_code == 0
    for folder in (tmp_path / "a", tmp_path / "a" / "b", tmp_path / "a" / "b" / "c"):
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700, folder
    assert stat.S_IMODE(store.stat().st_mode) == 0o600


@pytest.mark.parametrize("command", [["display", "qmgr", "*"], ["define", "qmgr", "QM1"]])
def test_a_malformed_postgresql_url_is_one_line_without_its_password(
    command: list[str], tmp_path: Path
) -> None:
    for url in ("postgresql+psycopg://u:s3cret@[::1:5432/x", "postgresql+psycopg://u:s3cret@host:port/x"):
        for args in (["--db", url, *command], ["diff", url, str(tmp_path)]):
            result = run_cli(args)
            assert result.exit_code in (2, 3), (args, result.stderr)
            assert len(result.stderr.splitlines()) == 1 and "s3cret" not in result.stderr, result.stderr
