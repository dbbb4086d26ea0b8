"""Issue 25, "an administrator's first hour": nothing half-written, nothing crashes — each item through
the real CLI, on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result, run_cli
from tests.helpers import dump_store
from tests.store.test_door_properties import _fresh
from tests.store.test_one_model import ok, refused
from tests.store.test_snapshot import _fix_checksum

Cli = Callable[..., Result]

HUGE = "1" * 5000
DEEP = "[" * 200_000 + "]" * 200_000


def _in_manifest(value: str) -> Callable[[Path], None]:
    def change(folder: Path) -> None:
        path = folder / "manifest.json"
        path.write_text(path.read_text().replace('"format"', f'"extra": {value}, "format"', 1))

    return change


def _in_a_row(value: str) -> Callable[[Path], None]:
    def change(folder: Path) -> None:
        path = folder / "nodes.json"
        line = path.read_text().splitlines()[0]
        path.write_text(line.replace('"seq":', f'"seq":{value},"x":', 1) + "\n")
        _fix_checksum(folder, "nodes.json")

    return change


BOUNDS = [
    (_in_manifest(HUGE), ("snapshot manifest.json", "number longer than 4300 digits")),
    (_in_manifest(DEEP), ("snapshot manifest.json", "nests arrays or objects too deeply")),
    (_in_a_row(HUGE), ("snapshot nodes.json row 1", "number longer than 4300 digits")),
    (_in_a_row(DEEP), ("snapshot nodes.json row 1", "nests arrays or objects too deeply")),
]


@pytest.mark.parametrize(
    ("damage", "words"), BOUNDS, ids=["manifest-digits", "manifest-depth", "row-digits", "row-depth"]
)
def test_a_huge_number_or_a_deep_nesting_in_a_snapshot_is_refused_in_one_line(
    cli: Cli, store_url: str, tmp_path: Path, damage: Callable[[Path], None], words: tuple[str, ...]
) -> None:
    ok(cli("define", "qmgr", "QM1"))
    folder = tmp_path / "snap"
    ok(cli("export", "snapshot", "--out", str(folder), "--format", "json"))
    damage(folder)
    url = _fresh(store_url, tmp_path, "target")
    ok(run_cli(["db", "upgrade"], db=url))
    before = dump_store(url)
    result = run_cli(["import", "snapshot", str(folder)], db=url)
    refused(result, *words)
    assert len(result.stderr.strip().splitlines()) == 1
    assert dump_store(url) == before
