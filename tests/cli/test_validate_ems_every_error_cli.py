"""`validate --file` reports every line error of a broken EMS configuration file (issue 37), as it does
for MQSC: each bad line of tibemsd.conf, topics.conf, routes.conf, durables.conf and each bad item of a
tibemsd.json is its own IMPORT_ERROR finding at its own position; a bad line does not stop the next.
`import ems` still refuses the files with the first error, one line, exit 2.

The files are validated alone (the store is not read), so SQLite is enough here.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import Result, run_cli

Cli = Callable[..., Result]


@pytest.fixture
def lite(sqlite_url: str) -> Cli:
    def invoke(*args: str) -> Result:
        return run_cli(list(args), db=sqlite_url)

    return invoke


def import_errors(lite: Cli, path: Path) -> list[dict[str, Any]]:
    result = lite("validate", "--file", str(path), "--select", "IMPORT_ERROR", "-o", "json")
    assert result.exit_code == 1, (result.stdout[-2000:], result.stderr)
    data = result.json()
    assert isinstance(data, dict)
    found: list[dict[str, Any]] = data["findings"]
    assert all(f["id"] == "MQC033" for f in found) and data["summary"]["error"] == len(found)
    return found


def server(tmp_path: Path, **files: str) -> Path:
    """A tibemsd.conf pointing at the files given (name -> text), in a folder of its own."""
    folder = tmp_path / "E1"
    folder.mkdir()
    pointers = "".join(f"{key} = {key}.conf\n" for key in files)
    (folder / "tibemsd.conf").write_text("server = E1\n" + pointers)
    for key, text in files.items():
        (folder / f"{key}.conf").write_text(text)
    return folder / "tibemsd.conf"


TOPICS = "orders.>  global\nbad..name  global\nprices.*\nprices.*  secure\nquotes.>  maxbytes=lots\nfx.>\n"
"""Line 2: an empty level; line 4: defined twice; line 5: a size that is none. Lines 1, 3, 6 are good."""
ROUTES = (
    "[E2]\nurl = tcp://e2:7222\nno equals sign here\nzone_type = 3hop\n"
    "[E3\nurl = tcp://e3:7222\nalso no equals\n"
    '[E4]\nurl = tcp://e4:7222\noutgoing_topic=orders.> selector="n >"\n'
)
"""Line 3: no `=`; line 4: a bad zone type; line 5: a section not closed (its lines 6, 7 are skipped,
not reported as outside a section); line 10: a selector that does not parse."""
DURABLES = "orders.eu  EU.SUB\nlonely\norders..x  X.SUB\norders.us  US.SUB\norders.eu  EU.SUB\n"
"""Line 2: no durable name; line 3: an empty level; line 5: EU.SUB defined twice."""


def lines_of(found: list[dict[str, Any]], file: Path) -> list[int]:
    return [f["source"]["line"] for f in found if f["source"]["file"] == str(file)]


@pytest.mark.parametrize(
    ("key", "text", "lines"),
    [("topics", TOPICS, [2, 4, 5]), ("routes", ROUTES, [3, 4, 5, 10]), ("durables", DURABLES, [2, 3, 5])],
)
def test_every_bad_line_of_a_conf_file_is_a_finding_at_its_line(
    lite: Cli, tmp_path: Path, key: str, text: str, lines: list[int]
) -> None:
    conf = server(tmp_path, **{key: text})
    found = import_errors(lite, conf)
    pointed = conf.parent / f"{key}.conf"
    assert lines_of(found, pointed) == lines, [f["message"] for f in found]
    assert all(str(pointed) in f["message"] for f in found)
    # import ems refuses the same files with the first error only: one line, exit 2
    imported = lite("import", "ems", "--tibemsd", str(conf))
    assert imported.exit_code == 2 and imported.stderr.count("\n") == 1, imported.stderr
    assert f"{pointed}:{lines[0]}:" in imported.stderr


def test_the_errors_of_every_file_of_a_server_in_one_run(lite: Cli, tmp_path: Path) -> None:
    conf = server(tmp_path, topics=TOPICS, durables=DURABLES)
    found = import_errors(lite, conf)
    assert lines_of(found, conf.parent / "topics.conf") == [2, 4, 5]
    assert lines_of(found, conf.parent / "durables.conf") == [2, 3, 5]


def test_every_bad_line_of_a_tibemsd_conf(lite: Cli, tmp_path: Path) -> None:
    conf = tmp_path / "tibemsd.conf"
    conf.write_text("server = E1\nnot a setting\nlisten = tcp://7222\nnor this one\n")
    found = import_errors(lite, conf)
    assert lines_of(found, conf) == [2, 4]
    assert all("expected 'key = value'" in f["message"] for f in found)


def test_every_bad_item_of_a_tibemsd_json_is_a_finding(lite: Cli, tmp_path: Path) -> None:
    path = tmp_path / "tibemsd.json"
    doc = {
        "tibemsd": {"server": "E1"},
        "topics": [{"name": "a.>"}, {"name": "bad..name"}, {"name": "b.*"}, {"name": "b.*"}],
        "routes": [{"name": "E2", "url": "tcp://e2:7222", "zone_type": "3hop"}],
        "durables": [{"topic_name": "a.b"}, {"topic_name": "a.c", "durable_name": "D"}],
    }
    path.write_text(json.dumps(doc, indent=2))
    found = import_errors(lite, path)
    messages = sorted(f["message"].split("validated: ")[1] for f in found)
    assert len(messages) == 4 and all(f["source"]["file"] == str(path) for f in found), messages
    for where, what in (
        ("durables[0]", "durable_name"),
        ("routes[0].zone_type", "3hop"),
        ("topics[1]", "empty element"),
        ("topics[3]", "defined twice"),
    ):
        assert any(m.startswith(where) and what in m for m in messages), (where, messages)
