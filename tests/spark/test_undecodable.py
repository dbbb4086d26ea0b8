"""Where a publication log's first byte that is not UTF-8 stands, found without Spark (after it failed)."""

from __future__ import annotations

from pathlib import Path

import pytest

from mqctl.domain.errors import InputError
from mqctl.services.analyze import _first_undecodable


def test_a_folder_is_read_in_order_and_its_parquet_and_hidden_files_passed_over(tmp_path: Path) -> None:
    log = tmp_path / "log"
    (log / "day2").mkdir(parents=True)
    (log / "a.jsonl").write_bytes(b'{"topic": "/a"}\n')
    (log / "_SUCCESS").write_bytes(b"\xff")
    (log / "b.parquet").write_bytes(b"\xff")
    (log / "day2" / "c.jsonl").write_bytes(b'{"topic": "/c"}\n{"topic": "/\xc3\xa9\xfe"}\n')
    found = _first_undecodable(log)
    assert found is not None
    assert (found.file, found.line, found.column) == (str(log / "day2" / "c.jsonl"), 2, 14)
    assert "byte 0xFE is not UTF-8 text" in found.message


def test_a_link_out_of_the_folder_is_refused_never_read(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_bytes(b"token \xff\n")
    log = tmp_path / "log"
    log.mkdir()
    (log / "a.jsonl").symlink_to(secret)
    with pytest.raises(InputError, match="leads outside"):
        _first_undecodable(log)
