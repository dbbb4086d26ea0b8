"""Files from other machines: encodings, and names taken from file headers (issue 13)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from tests.conftest import Result
from tests.helpers import dump_store

Cli = Callable[..., Result]
SCRIPT = "DEFINE TOPIC(T1) TOPICSTR('/caf\u00e9') DESCR('Caf\u00e9 \u2013 orders')\n"


def test_a_cp1252_dump_needs_its_encoding(cli: Cli, store_url: str, tmp_path: Path) -> None:
    path = tmp_path / "qm1.mqsc"
    path.write_bytes(SCRIPT.encode("cp1252"))
    assert cli("define", "qmgr", "QM1").exit_code == 0
    before = dump_store(store_url)
    for args in (("runmqsc", "QM1", str(path)), ("import", "mqsc", str(path))):
        failed = cli(*args)
        assert failed.exit_code == 2, failed.stderr
        line = failed.stderr.strip()
        assert line.count("\n") == 0 and str(path) in line and ":1:" in line and "utf-8" in line.lower(), line
        assert dump_store(store_url) == before
    assert cli("runmqsc", "QM1", str(path), "--encoding", "cp1252").exit_code == 0
    shown = cli("display", "topic", "T1", "-o", "json").json()
    assert shown[0]["descr"] == "Caf\u00e9 \u2013 orders"  # type: ignore[index]


def test_utf16_with_a_byte_order_mark_and_stdin(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "qm2.mqsc"
    path.write_bytes(SCRIPT.encode("utf-16"))
    assert cli("runmqsc", "QM2", str(path), "--create").exit_code == 0
    bad = cli("runmqsc", "QM2", "--encoding", "no-such-codec", stdin=SCRIPT)
    assert bad.exit_code == 2 and "--encoding" in bad.stderr


def test_an_ems_file_in_latin1(cli: Cli, tmp_path: Path) -> None:
    folder = tmp_path / "E1"
    folder.mkdir()
    (folder / "tibemsd.conf").write_text("server = E1\ntopics = topics.conf\n")
    (folder / "topics.conf").write_bytes("caf\u00e9.orders  global\n".encode("latin-1"))
    conf = str(folder / "tibemsd.conf")
    failed = cli("import", "ems", "--tibemsd", conf)
    assert failed.exit_code == 2 and "topics.conf:1:" in failed.stderr
    assert cli("import", "ems", "--tibemsd", conf, "--encoding", "latin-1").exit_code == 0


def test_a_dump_header_is_no_way_out_of_the_export_folder(cli: Cli, tmp_path: Path) -> None:
    dumps = tmp_path / "in"
    dumps.mkdir()
    (dumps / "x.mqsc").write_text("* Queue manager name: ../escape\nDEFINE TOPIC(T) TOPICSTR('/t')\n")
    failed = cli("import", "mqsc", str(dumps))
    assert failed.exit_code == 2 and "x.mqsc:1:" in failed.stderr
    assert cli("display", "qmgr", "-o", "json").exit_code == 1
