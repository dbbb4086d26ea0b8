"""Rules the field asks for (docs/rules.md MQC039, MQC040, MQC011 with COMPAT), each with the case it
finds and the case it leaves alone, through `validate --file` on MQSC files written here."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result, run_cli

Cli = Callable[..., Result]


@pytest.fixture
def lite(sqlite_url: str) -> Cli:
    def invoke(*args: str, stdin: str | None = None) -> Result:
        return run_cli(list(args), db=sqlite_url, stdin=stdin)

    return invoke


def findings(lite: Cli, folder: Path) -> list[dict[str, object]]:
    result = lite("validate", "--file", str(folder), "-o", "json", "--fail-on", "info")
    assert result.exit_code in (0, 1), result.stderr
    return result.json()["findings"]  # type: ignore[index, no-any-return]


def estate(tmp_path: Path, files: dict[str, str]) -> Path:
    folder = tmp_path / "mq"
    folder.mkdir()
    for name, text in files.items():
        (folder / name).write_text(text)
    return folder


FULL = "ALTER QMGR REPOS(CL)\nDEFINE CHANNEL(CL.QM1) CHLTYPE(CLUSRCVR) CONNAME('qm1') CLUSTER(CL) REPLACE\n"
MEMBER = "DEFINE CHANNEL(CL.QM2) CHLTYPE(CLUSRCVR) CONNAME('qm2') CLUSTER(CL) REPLACE\n"


@pytest.mark.parametrize("system", ["SYSTEM.BASE.TOPIC", "SYSTEM.DEFAULT.TOPIC"])
def test_a_clustered_system_topic_is_found_at_its_line(lite: Cli, tmp_path: Path, system: str) -> None:
    folder = estate(tmp_path, {"QM1.mqsc": FULL + f"* the whole tree\nALTER TOPIC({system}) CLUSTER(CL)\n"})
    [hit] = [f for f in findings(lite, folder) if f["code"] == "SYSTEM_TOPIC_CLUSTERED"]
    assert hit["source"] == {"file": str(folder / "QM1.mqsc"), "line": 4}
    assert hit["nodes"] == ["QM1"]


def test_a_system_topic_with_a_blank_cluster_is_not(lite: Cli, tmp_path: Path) -> None:
    folder = estate(tmp_path, {"QM1.mqsc": FULL + "ALTER TOPIC(SYSTEM.BASE.TOPIC) CLUSTER(' ')\n"})
    assert "SYSTEM_TOPIC_CLUSTERED" not in {f["code"] for f in findings(lite, folder)}


@pytest.mark.parametrize("refresh", ["REFRESH CLUSTER(CL) REPOS(YES)", "REFRESH QMGR TYPE(PROXYSUB)"])
def test_refresh_in_a_script_of_a_pubsub_cluster_member(lite: Cli, tmp_path: Path, refresh: str) -> None:
    topic = "DEFINE TOPIC(T) TOPICSTR('/t') CLUSTER(CL) REPLACE\n"
    folder = estate(tmp_path, {"QM1.mqsc": FULL + topic, "QM2.mqsc": MEMBER + refresh + "\n"})
    [hit] = [f for f in findings(lite, folder) if f["code"] == "REFRESH_IN_PUBSUB_CLUSTER"]
    assert hit["source"] == {"file": str(folder / "QM2.mqsc"), "line": 2} and "cluster CL" in hit["objects"]


def test_refresh_where_no_topic_is_clustered_is_not_found(lite: Cli, tmp_path: Path) -> None:
    folder = estate(tmp_path, {"QM1.mqsc": FULL, "QM2.mqsc": MEMBER + "REFRESH CLUSTER(CL)\n"})
    assert "REFRESH_IN_PUBSUB_CLUSTER" not in {f["code"] for f in findings(lite, folder)}


def test_a_hierarchy_link_on_psmode_compat_is_pubsub_disabled(lite: Cli, tmp_path: Path) -> None:
    folder = estate(
        tmp_path,
        {
            "PARENT.mqsc": "ALTER QMGR PSMODE(ENABLED)\n",
            "CHILD.mqsc": "ALTER QMGR PARENT(PARENT) PSMODE(COMPAT)\n",
        },
    )
    [hit] = [f for f in findings(lite, folder) if f["code"] == "PUBSUB_DISABLED"]
    assert "PSMODE(COMPAT)" in str(hit["message"]) and "PARENT" in str(hit["message"])


def test_psmode_compat_without_a_hierarchy_is_not(lite: Cli, tmp_path: Path) -> None:
    folder = estate(tmp_path, {"QM1.mqsc": "ALTER QMGR PSMODE(COMPAT)\n"})
    assert "PUBSUB_DISABLED" not in {f["code"] for f in findings(lite, folder)}


def test_an_ems_json_member_the_server_does_not_know(lite: Cli, tmp_path: Path) -> None:
    conf = tmp_path / "E1" / "tibemsd.json"
    conf.parent.mkdir()
    conf.write_text(
        '{\n  "tibemsd": {"server": "E1"},\n  "topics": [{"name": "orders.>", "global": true}],\n'
        '  "queues": [],\n  "route": [{"name": "E2", "url": "tcp://e2:7222"}]\n}\n'
    )
    [hit] = findings(lite, conf.parent)
    assert hit["code"] == "EMS_CONFIG_KEY_UNKNOWN" and "'route'" in str(hit["message"])
    assert hit["source"] == {"file": str(conf), "line": 5}
    conf.write_text(conf.read_text().replace('"route"', '"routes"'))
    assert "EMS_CONFIG_KEY_UNKNOWN" not in {f["code"] for f in findings(lite, conf.parent)}
