"""Issue 25, "files as people name them": ``NAME=PATH`` on every ``--file`` and on ``import mqsc``, a
folder per queue manager (``mq/QM1/*.mqsc`` in name order, as the MQ container applies
``/etc/mqm/*.mqsc``), the error naming both ways, and an empty file that creates nothing unless named."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result, run_cli
from tests.helpers import ok

Cli = Callable[..., Result]
DEV = "* IBM's 10-dev.mqsc, shortened\nDEFINE TOPIC(DEV.BASE) TOPICSTR('dev/') REPLACE\n"
CONFIG = "ALTER TOPIC(DEV.BASE) DESCR('altered by 20-config') \n"


def topics(cli: Cli, qmgr: str) -> list[dict[str, object]]:
    data = cli("display", "topic", "*", "--qmgr", qmgr, "-o", "json").json()
    assert isinstance(data, list)
    return data


def test_import_mqsc_name_equals_path(cli: Cli, tmp_path: Path) -> None:
    (tmp_path / "10-dev.mqsc").write_text(DEV)
    result = ok(cli("import", "mqsc", f"QM1={tmp_path / '10-dev.mqsc'}", "-o", "json")).json()
    assert isinstance(result, list) and [r["qmgr"] for r in result] == ["QM1"]
    assert [t["name"] for t in topics(cli, "QM1")] == ["DEV.BASE"]


def test_a_folder_per_queue_manager_applies_its_files_in_name_order(cli: Cli, tmp_path: Path) -> None:
    qm1 = tmp_path / "mq" / "QM1"
    qm1.mkdir(parents=True)
    (qm1 / "20-config.mqsc").write_text(CONFIG)  # written first, applied second
    (qm1 / "10-dev.mqsc").write_text(DEV)
    (tmp_path / "mq" / "QM2.mqsc").write_text("DEFINE TOPIC(T2) TOPICSTR('/b')\n")
    result = ok(cli("import", "mqsc", str(tmp_path / "mq"), "-o", "json")).json()
    assert isinstance(result, list)
    assert [(Path(str(r["file"])).name, r["qmgr"]) for r in result] == [
        ("10-dev.mqsc", "QM1"),
        ("20-config.mqsc", "QM1"),
        ("QM2.mqsc", "QM2"),
    ]
    [dev] = topics(cli, "QM1")
    assert dev["descr"] == "altered by 20-config"


def test_validate_file_name_equals_path_and_folders(tmp_path: Path) -> None:
    from tests.conftest import run_cli

    (tmp_path / "10-dev.mqsc").write_text(DEV + "DEFINE TOPIC(W) TOPICSTR('/a/#')\n")
    named = run_cli(["validate", "--file", f"QM1={tmp_path / '10-dev.mqsc'}", "-o", "json"])
    data = named.json()
    assert isinstance(data, dict) and named.exit_code == 0, named.stderr
    assert [f["nodes"] for f in data["findings"] if f["code"] == "TOPICSTR_WILDCARD_CHARACTER"] == [["QM1"]]
    folder = tmp_path / "mq" / "QM1"
    folder.mkdir(parents=True)
    (tmp_path / "10-dev.mqsc").rename(folder / "10-dev.mqsc")
    by_folder = run_cli(["validate", "--file", str(tmp_path / "mq"), "-o", "json"]).json()
    assert by_folder == run_cli(["validate", "--file", f"QM1={folder}", "-o", "json"]).json()
    assert by_folder == data | {"findings": [
        f | {"source": {"file": str(folder / "10-dev.mqsc"), "line": f["source"]["line"]}} if f["source"] else f
        for f in data["findings"]
    ]}  # fmt: skip


def test_a_file_name_that_is_no_mq_name_names_both_ways(cli: Cli, tmp_path: Path) -> None:
    from tests.conftest import run_cli

    script = tmp_path / "10-dev.mqsc"
    script.write_text(DEV)
    for result in (
        cli("import", "mqsc", str(script)),
        run_cli(["validate", "--file", str(script), "-o", "json"]),
    ):
        text = result.stderr if result.exit_code == 2 else result.stdout
        assert f"QM1={script}" in text and str(tmp_path / "QM1" / "10-dev.mqsc") in text, text
    assert cli("import", "mqsc", str(script)).exit_code == 2
    assert topics_missing(cli)  # nothing was imported
    bad = cli("import", "mqsc", f"1-x={script}")
    assert bad.exit_code == 2 and len(bad.stderr.splitlines()) == 1 and "NAME=PATH" in bad.stderr


def topics_missing(cli: Cli) -> bool:
    data = cli("display", "qmgr", "*", "-o", "json").json()
    return data == []


def test_an_empty_file_creates_nothing_unless_named(cli: Cli, tmp_path: Path) -> None:
    empty = tmp_path / "empty.mqsc"
    empty.write_text("")
    comments = tmp_path / "QMC.mqsc"
    comments.write_text("* only a comment\n\n   * and another\n")
    for path in (empty, comments):
        result = ok(cli("import", "mqsc", str(path), "-o", "json"))
        assert result.json() == []
        assert "holds no MQSC command" in result.stderr and str(path) in result.stderr
    assert topics_missing(cli)
    ok(cli("import", "mqsc", f"QM9={empty}"))
    data = cli("display", "qmgr", "*", "-o", "json").json()
    assert isinstance(data, list) and [q["name"] for q in data] == ["QM9"]


def test_a_file_named_after_its_queue_manager_keeps_its_name_in_any_folder(cli: Cli, tmp_path: Path) -> None:
    """``mqsc/CL01/QMA.mqsc`` (files grouped by cluster, as the benchmarks write them) is QMA's, not CL01's."""
    folder = tmp_path / "mqsc" / "CL01"
    folder.mkdir(parents=True)
    (folder / "QMA.mqsc").write_text("DEFINE TOPIC(TA) TOPICSTR('/a')\n")
    (folder / "QMB.mqsc").write_text("DEFINE TOPIC(TB) TOPICSTR('/b')\n")
    result = ok(cli("import", "mqsc", str(tmp_path / "mqsc"), "-o", "json")).json()
    assert isinstance(result, list) and [r["qmgr"] for r in result] == ["QMA", "QMB"]


README = "Config repo for our queue managers\n\nRun make to apply these scripts.\nSet up: see the wiki.\n"
SKIPPED = (
    "skipped: a .txt file of a folder is read as MQSC only when it looks like MQSC (name the file to read it)"
)
KUBE = (
    "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: mqsc\ndata:\n  topics.mqsc: |\n"
    "    DEFINE TOPIC(K) TOPICSTR('/k')\n---\n"
    "apiVersion: mq.ibm.com/v1beta1\nkind: QueueManager\nmetadata:\n  name: qm3\nspec:\n  queueManager:\n"
    "    name: QM3\n    mqsc:\n    - configMap:\n        name: mqsc\n        items:\n        - topics.mqsc\n"
)


def config_repo(root: Path) -> Path:
    """A folder as config repositories hold them: MQSC scripts, a README.txt of prose, a .txt dump."""
    root.mkdir(parents=True)
    (root / "QM1.mqsc").write_text("DEFINE TOPIC(T1) TOPICSTR('/a')\n")
    (root / "QM2.txt").write_text("* dmpmqcfg, saved as .txt\nDEFINE TOPIC(T2) TOPICSTR('/b')\n")
    (root / "README.txt").write_text(README)
    return root


def test_a_folders_prose_txt_is_skipped_and_named_by_every_door(cli: Cli, tmp_path: Path) -> None:
    """A README.txt beside the scripts was an MQSC error (``unknown command 'Config'``) in import mqsc,
    validate --file and diff; now each door skips it and names it on stderr. A .txt that looks like MQSC
    is still read, and one named as a file still is MQSC."""
    repo = config_repo(tmp_path / "mq")
    readme = repo / "README.txt"
    imported = ok(cli("import", "mqsc", str(repo), "-o", "json"))
    assert imported.stderr == f"mqctl: hint: {readme}: {SKIPPED}\n"
    rows = imported.json()
    assert isinstance(rows, list)
    assert [(r["qmgr"], Path(str(r["file"])).name) for r in rows] == [("QM1", "QM1.mqsc"), ("QM2", "QM2.txt")]
    validated = run_cli(["validate", "--file", str(repo), "-o", "json"])
    assert validated.exit_code == 0, validated
    assert validated.stderr == f"mqctl: hint: {readme}: {SKIPPED}\n"
    after = config_repo(tmp_path / "after")
    (after / "QM1.mqsc").write_text("DEFINE TOPIC(T9) TOPICSTR('/z')\n")
    diffed = run_cli(["diff", str(repo), str(after), "-o", "json"])
    assert diffed.exit_code == 0, diffed
    assert diffed.stderr == (
        f"mqctl: hint: {repo}: {readme}: {SKIPPED}\nmqctl: hint: {after}: {after / 'README.txt'}: {SKIPPED}\n"
    )
    (repo / "qm3.yaml").write_text(KUBE)  # the Kubernetes door's folder walks the same way
    kube = run_cli(["validate", "--file", str(repo), "-o", "json"])
    assert kube.exit_code == 0 and f"mqctl: hint: {readme}: {SKIPPED}\n" in kube.stderr, kube
    named = run_cli(["validate", "--file", f"QM9={readme}", "-o", "json"])
    assert "unknown command 'Config'" in named.stdout and SKIPPED not in named.stderr


def test_a_git_sides_prose_txt_is_named_by_its_repository_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = tmp_path / "repo"
    config_repo(repo / "mq")
    git = ["git", "-c", "user.email=t@example.com", "-c", "user.name=t", "-C", str(repo)]
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    subprocess.run([*git, "add", "mq"], check=True)
    subprocess.run([*git, "commit", "-qm", "before"], check=True)
    monkeypatch.chdir(repo)
    result = run_cli(["diff", "--git", "HEAD:mq", "mq", "-o", "json"])
    assert result.exit_code == 0, result
    assert (
        result.stderr
        == f"mqctl: hint: git:HEAD:mq: mq/README.txt: {SKIPPED}\nmqctl: hint: mq: mq/README.txt: {SKIPPED}\n"
    )
