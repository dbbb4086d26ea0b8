"""Bytes that are not UTF-8, at every door: exit 2 with one line naming where, the store unchanged.

Python gives a command-line byte that is not UTF-8 as a lone surrogate (0xFF is ``\\udcff``): ``sys.argv``
below holds exactly what ``mqctl define topic T1 --topicstr $'a/\\xff'`` gets from a shell.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result
from tests.helpers import dump_store, refused

Cli = Callable[..., Result]
BAD = "\udcff"  # the byte 0xFF of an argument
WHY = "byte 0xFF cannot be decoded as UTF-8"


def test_the_reported_case_refuses_the_definition_and_changes_nothing(cli: Cli, store_url: str) -> None:
    assert cli("define", "qmgr", "QM1").exit_code == 0
    before = dump_store(store_url)
    line = refused(cli("define", "topic", "T1", "--qmgr", "QM1", "--topicstr", "a/" + BAD))
    assert line == f"mqctl: error: topic T1 TOPICSTR: 'a/\\udcff' is not valid text: {WHY} (character 3)"
    assert dump_store(store_url) == before


@pytest.mark.parametrize(
    ("args", "where"),
    [
        (("define", "qmgr", "Q" + BAD), "qmgr Q\\udcff: the name is not valid text"),
        (("define", "topic", "T" + BAD, "--qmgr", "QM1", "--topicstr", "a"), "topic T\\udcff: the name"),
        (("define", "topic", "T2", "--qmgr", "QM1", "--topicstr", "a", "--descr", BAD), "topic T2 DESCR: "),
        (("define", "sub", "S" + BAD, "--qmgr", "QM1", "--topicstr", "a/#"), "sub S\\udcff: the name"),
        (
            ("define", "sub", "S1", "--qmgr", "QM1", "--topicstr", "a/#", "--selector", f"x = '{BAD}'"),
            "sub S1 SELECTOR: ",
        ),
        (("alter", "qmgr", "QM1", "--descr", BAD), "qmgr QM1 DESCR: "),
        (("alter", "topic", "T1", "--qmgr", "QM1", "--descr", BAD), "topic T1 DESCR: "),
        (("define", "cluster", "C1", "--descr", BAD), "cluster C1 DESCR: "),
        (("define", "qmgr", "QM2", "--cluster", "C" + BAD), "cluster C\\udcff: the name"),
        # names looked up, not defined: no such object can exist
        (("display", "qmgr", "Q" + BAD), "'Q\\udcff' is not valid text"),
        (("delete", "qmgr", "Q" + BAD), "'Q\\udcff' is not valid text"),
        (("display", "topic", "T1", "--qmgr", "Q" + BAD), "'Q\\udcff' is not valid text"),
        # explain: each argument is named
        (("explain", "--from", "QM1", "--topic", "a/" + BAD), "--topic: 'a/\\udcff' is not valid text"),
        (("explain", "--from", "Q" + BAD, "--topic", "a"), "--from: 'Q\\udcff' is not valid text"),
        (
            ("explain", "--from", "QM1", "--topic", "a", "--prop", "p=" + BAD),
            "--prop: the value of property 'p'",
        ),
        (
            ("explain", "--from", "QM1", "--topic", "a", "--header", "JMSType=" + BAD),
            "--header: the value of",
        ),
        (("explain", "--from", "QM1", "--topic", "a", "--down", "Q" + BAD), "--down: 'Q\\udcff'"),
        (("topic", "match", "a/#", "a/" + BAD), "a topic string must be valid text"),
        (("selector", "test", f"x = '{BAD}'"), "the selector is not valid text"),
    ],
)
def test_every_argument_is_text_or_refused(
    cli: Cli, store_url: str, args: tuple[str, ...], where: str
) -> None:
    assert cli("define", "qmgr", "QM1").exit_code == 0
    assert cli("define", "topic", "T1", "--qmgr", "QM1", "--topicstr", "a").exit_code == 0
    before = dump_store(store_url)
    line = refused(cli(*args))
    assert where in line and WHY in line, line
    assert dump_store(store_url) == before


def test_an_mqsc_file_with_a_byte_that_is_not_utf8_in_a_quoted_value(
    cli: Cli, store_url: str, tmp_path: Path
) -> None:
    path = tmp_path / "qm1.mqsc"
    path.write_bytes(b"DEFINE TOPIC(T0) TOPICSTR('ok')\nDEFINE TOPIC(T1) TOPICSTR('a/\xff') DESCR('d')\n")
    assert cli("define", "qmgr", "QM1").exit_code == 0
    before = dump_store(store_url)
    for args in (("runmqsc", "QM1", str(path)), ("import", "mqsc", str(path))):
        line = refused(cli(*args))
        assert f"{path}:2:30: byte 0xFF cannot be decoded as utf-8" in line, line
        assert dump_store(store_url) == before
    report = cli("validate", "--file", str(path), "-o", "json")
    assert report.exit_code == 1 and "byte 0xFF cannot be decoded" in report.stdout


def test_a_json_escape_in_tibemsd_json_names_the_file_the_entry_and_the_attribute(
    cli: Cli, store_url: str, tmp_path: Path
) -> None:
    path = tmp_path / "tibemsd.json"
    doc = {"tibemsd": {"server": "E1"}, "routes": [{"name": "E2", "url": "tcp://e" + BAD + ":7222"}]}
    path.write_text(json.dumps(doc))  # ASCII: the surrogate is the escape \udcff
    assert cli("define", "qmgr", "QM1").exit_code == 0
    before = dump_store(store_url)
    line = refused(cli("import", "ems", "--tibemsd", str(path)))
    assert line == (
        f"mqctl: error: {path}: routes[0]: route E2 url: 'tcp://e\\udcff:7222' is not valid text: "
        f"{WHY} (character 8)"
    )
    assert dump_store(store_url) == before


def test_a_file_whose_name_is_not_utf8_still_imports(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / f"qm{BAD}.mqsc"  # the file name's byte 0xFF, as os.listdir and argv give it
    path.write_text("DEFINE TOPIC(T1) TOPICSTR('a')\n")
    assert cli("runmqsc", "QM1", str(path), "--create").exit_code == 0
    assert cli("export", "mqsc", "QM1", "--out", str(tmp_path / "out")).exit_code == 0
