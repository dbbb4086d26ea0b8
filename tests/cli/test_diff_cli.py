"""`mqctl diff BEFORE AFTER` through the real entry point (issue 23): the contract (folders of QMNAME.mqsc
files as sides, the JSON's ``routing`` beside ``objects`` and ``findings``, exit 0/1/2), every input door
as a side (files, a store on SQLite and PostgreSQL, a snapshot, a git revision), bad sides, the Markdown's
Mermaid parsed back, and SARIF checked as validate's is."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.test_validate_cli import check_sarif
from tests.conftest import Result, run_cli
from tests.helpers import refused
from tests.render.mermaid_grammar import parse

Cli = Callable[..., Result]
QM1 = (
    "DEFINE CHANNEL(CL1.QM1) CHLTYPE(CLUSRCVR) CLUSTER(CL1) CONNAME('qm1(1414)')\n"
    "ALTER QMGR REPOS(CL1)\n"
    "DEFINE SUB(S1) TOPICSTR('/USA/Alabama/#') DEST(Q)\n"
)
QM2 = (
    "DEFINE CHANNEL(CL1.QM2) CHLTYPE(CLUSRCVR) CLUSTER(CL1) CONNAME('qm2(1414)')\n"
    "ALTER QMGR REPOS(CL1)\n"
    "DEFINE TOPIC(T1) TOPICSTR('/USA/Alabama') CLUSTER(CL1) CLROUTE(DIRECT) DESCR('Alabama')\n"
)
QM3 = (
    "DEFINE CHANNEL(CL1.QM3) CHLTYPE(CLUSRCVR) CLUSTER(CL1) CONNAME('qm3(1414)')\n"
    "DEFINE SUB(S3) TOPICSTR('/USA/#') DEST(Q)\n"
)
ROUTING_KEYS = {
    "subscription",
    "node",
    "change",
    "publisher",
    "topic",
    "properties",
    "before",
    "after",
    "probes",
    "publishers",
}


def estate(folder: Path, qm2: str = QM2) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in (("QM1", QM1), ("QM2", qm2), ("QM3", QM3)):
        (folder / f"{name}.mqsc").write_text(text)
    return folder


def diff(*args: str, db: str | None = None) -> Result:
    return run_cli(["diff", *args], db=db)


def data(result: Result) -> dict[str, Any]:
    value = result.json()
    assert isinstance(value, dict)
    return value


def test_the_contract_on_two_folders_of_qmname_mqsc_files(tmp_path: Path) -> None:
    before = estate(tmp_path / "before")
    after = estate(tmp_path / "after", QM2.replace("CLROUTE(DIRECT)", "CLROUTE(TOPICHOST)"))
    result = diff(str(before), str(after), "-o", "json")
    assert result.exit_code == 1, result.stderr
    report = data(result)
    assert {"routing", "objects", "findings"} <= set(report)
    [change] = report["objects"]
    assert (change["kind"], change["node"], change["name"], change["change"]) == (
        "topic",
        "QM2",
        "T1",
        "changed",
    )
    assert change["attributes"] == [
        {"name": "clroute", "before": "CLROUTE(DIRECT)", "after": "CLROUTE(TOPICHOST)"}
    ]
    assert change["source"] == {"file": str(after / "QM2.mqsc"), "line": 3}
    assert report["routing"] and all(set(r) == ROUTING_KEYS for r in report["routing"])
    assert {(r["subscription"], r["node"], r["change"]) for r in report["routing"]} == {("S1", "QM1", "host")}
    entry = report["routing"][0]
    assert entry["publisher"] in {"QM1", "QM2", "QM3"} and entry["topic"].startswith("/USA/Alabama")
    assert entry["before"]["host"] is None and entry["after"]["host"] == "QM2"
    assert {f["code"] for f in report["findings"]["introduced"]} >= {"SINGLE_TOPIC_HOST"}
    assert report["findings"]["resolved"] == []
    assert report["probes"]["exhaustive"] is True and report["probes"]["routed"] > 0
    text = diff(str(before), str(after))
    assert text.exit_code == 1 and "CLROUTE(DIRECT) -> CLROUTE(TOPICHOST)" in text.stdout
    assert "exhaustive" in text.stdout
    assert diff(str(before), str(after), "--fail-on", "lost").exit_code == 0  # nobody loses
    assert diff(str(before), str(after), "--fail-on", "none").exit_code == 0


def test_a_descr_change_is_an_object_diff_only(tmp_path: Path) -> None:
    before = estate(tmp_path / "before")
    after = estate(tmp_path / "after", QM2.replace("DESCR('Alabama')", "DESCR('Heart of Dixie')"))
    result = diff(str(before), str(after), "-o", "json")
    assert result.exit_code == 0, result.stderr
    report = data(result)
    assert [a["name"] for c in report["objects"] for a in c["attributes"]] == ["descr"]
    assert report["routing"] == [] and report["routing_changed"] is False
    assert diff(str(before), str(before), "-o", "json").exit_code == 0


def lost_pair(tmp_path: Path) -> tuple[Path, Path]:
    before = estate(tmp_path / "before")
    after = estate(tmp_path / "after", QM2.replace("CLROUTE(DIRECT)", "CLROUTE(DIRECT) PUBSCOPE(QMGR)"))
    return before, after


def test_markdown_has_the_three_diffs_and_a_mermaid_picture_that_parses(tmp_path: Path) -> None:
    before, after = lost_pair(tmp_path)
    result = diff(str(before), str(after), "-o", "markdown")
    assert result.exit_code == 1
    text = result.stdout
    assert "### Objects" in text and "### Findings" in text and "### Routing" in text
    assert "PUBSCOPE(ASPARENT) -&gt; PUBSCOPE(QMGR)" in text
    block = text.split("```mermaid\n", 1)[1].split("```", 1)[0]
    chart = parse(block)
    sub = chart.node_named("S1")
    into_sub = [i for i, (tail, head, *_rest) in enumerate(chart.edges) if head == sub]
    assert into_sub and all("#c62828" in chart.link_styles[i] for i in into_sub)  # lost: red
    gained = diff(str(after), str(before), "-o", "markdown").stdout  # the other way round: gained, green
    chart = parse(gained.split("```mermaid\n", 1)[1].split("```", 1)[0])
    sub = chart.node_named("S1")
    assert all("#2e7d32" in chart.link_styles[i] for i, e in enumerate(chart.edges) if e[1] == sub)


def test_sarif_locates_a_lost_delivery_at_the_changed_line(tmp_path: Path) -> None:
    before, after = lost_pair(tmp_path)
    result = diff(str(before), str(after), "-o", "sarif")
    assert result.exit_code == 1
    log = result.json()
    check_sarif(log)
    assert isinstance(log, dict)
    lost = [r for r in log["runs"][0]["results"] if r["ruleId"] == "MQD001"]
    assert len(lost) == 1 and "sub S1 on QM1" in lost[0]["message"]["text"]
    assert lost[0]["locations"][0]["physicalLocation"] == {
        "artifactLocation": {"uri": (after / "QM2.mqsc").as_uri()},
        "region": {"startLine": 3},
    }
    assert lost[0]["level"] == "error"


def test_every_door_is_a_side(
    cli: Cli, store_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Files, a store (SQLite and PostgreSQL), a snapshot and a git revision give the same routing diff."""
    before, after = lost_pair(tmp_path)
    expected = {
        (r["subscription"], r["node"], r["change"])
        for r in data(diff(str(before), str(after), "-o", "json"))["routing"]
    }
    assert ("S1", "QM1", "lost") in expected
    assert cli("import", "mqsc", str(before)).exit_code == 0
    snap = tmp_path / "snap"
    assert cli("export", "snapshot", "--out", str(snap)).exit_code == 0
    repo = tmp_path / "repo"
    estate(repo / "mq")
    git = ["git", "-c", "user.email=t@example.com", "-c", "user.name=t", "-C", str(repo)]
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    subprocess.run([*git, "add", "mq"], check=True)
    subprocess.run([*git, "commit", "-qm", "before"], check=True)
    (repo / "mq" / "QM2.mqsc").write_text((after / "QM2.mqsc").read_text())
    for side in (store_url, str(snap)):
        report = data(diff(side, str(after), "-o", "json"))
        assert {(r["subscription"], r["node"], r["change"]) for r in report["routing"]} == expected, side
    monkeypatch.chdir(repo)
    result = diff("--git", "HEAD:mq", "mq", "-o", "json")
    report = data(result)
    assert report["before"] == {"side": "git:HEAD:mq", "kind": "git"}
    assert {(r["subscription"], r["node"], r["change"]) for r in report["routing"]} == expected
    assert report["objects"][0]["source"] == {"file": "mq/QM2.mqsc", "line": 3}
    same = diff("--git", "HEAD:mq", "--git", "HEAD:mq", "-o", "json")  # both sides from git
    assert same.exit_code == 0 and data(same)["objects"] == [] and data(same)["routing"] == []
    sarif = diff("--git", "HEAD:mq", "mq", "-o", "sarif").json()
    assert isinstance(sarif, dict)
    uris = {
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in sarif["runs"][0]["results"]
    }
    assert uris == {"mq/QM2.mqsc"}


def test_bad_sides_are_one_line_and_exit_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    good = estate(tmp_path / "good")
    refused(diff(str(tmp_path / "nowhere"), str(good)), "nowhere")
    refused(diff(str(good)), "two sides")
    corrupt = tmp_path / "snap"
    corrupt.mkdir()
    (corrupt / "manifest.json").write_text("{not json")
    refused(diff(str(corrupt), str(good)), "snap")
    ems = tmp_path / "ems" / "QM1"
    ems.mkdir(parents=True)
    (ems / "tibemsd.conf").write_text("server = QM1\n")
    refused(diff(str(good), str(ems / "tibemsd.conf")), "QM1")
    refused(diff(f"sqlite:///{tmp_path / 'missing.db'}", str(good)), "missing.db")
    assert not (tmp_path / "missing.db").exists()
    unreachable = refused(diff("postgresql+psycopg://u:s3cret@127.0.0.1:1/x", str(good)), "u:***@")
    assert "s3cret" not in unreachable
    broken = estate(tmp_path / "broken", "DEFINE TOPIC(T1) TOPICSTR(\n")
    refused(diff(str(good), str(broken)), "QM2.mqsc")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path.parent))
    refused(diff("--git", "HEAD:good", str(good)), "git repository")
    refused(diff("--git", "nocolon", str(good)), "REV:PATH")
    refused(diff(str(good), str(good), "--max-probes", "0"), "--max-probes")


def test_probes_from_the_user_and_narrowing(tmp_path: Path) -> None:
    before, after = lost_pair(tmp_path)
    narrowed = data(diff(str(before), str(after), "--from", "QM2", "--topic", "/USA/Alabama", "-o", "json"))
    assert {(r["publisher"], r["topic"]) for r in narrowed["routing"]} == {("QM2", "/USA/Alabama")}
    log = tmp_path / "day.jsonl"
    log.write_text(
        json.dumps({"from": "QM3", "topic": "/USA/Alabama/Mobile", "properties": '{"a": 1}'}) + "\n"
    )
    mine = data(
        diff(
            str(before),
            str(after),
            "--publications",
            str(log),
            "--topic",
            "/USA/Alabama/Mobile",
            "-o",
            "json",
        )
    )
    assert {(r["publisher"], r["topic"], json.dumps(r["properties"])) for r in mine["routing"]} == {
        ("QM3", "/USA/Alabama/Mobile", '{"a": 1}')
    }
    sampled = data(diff(str(before), str(after), "--max-probes", "1", "-o", "json"))
    assert sampled["probes"]["routed"] == 1 and sampled["probes"]["exhaustive"] is False
    assert "sampled" in sampled["probes"]["how"]
    log.write_text('{"topic": "/a"}\n')
    refused(diff(str(before), str(after), "--publications", str(log)), "day.jsonl")


def test_a_parquet_publication_log_is_read_as_the_spark_job_reads_it(tmp_path: Path) -> None:
    """``--publications`` with the Spark job's Parquet log: properties as JSON text, or as a map of text
    whose values are typed as ``--prop`` types them (and JSON lines with an object); a bad row or file
    is one line (exit 2)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    before, after = lost_pair(tmp_path)
    topic = "/USA/Alabama/Mobile"

    def probes(log: Path) -> set[tuple[str, str, str]]:
        report = data(
            diff(str(before), str(after), "--publications", str(log), "--topic", topic, "-o", "json")
        )
        return {(r["publisher"], r["topic"], json.dumps(r["properties"])) for r in report["routing"]}

    text = tmp_path / "text.parquet"
    pq.write_table(pa.table({"from": ["QM3"], "topic": [topic], "properties": ['{"a": "x", "n": 2}']}), text)
    assert probes(text) == {("QM3", topic, '{"a": "x", "n": 2}')}
    mapped = tmp_path / "map.parquet"
    as_map = pa.array([[("n", "2"), ("a", "x")]], type=pa.map_(pa.string(), pa.string()))
    pq.write_table(pa.table({"from": ["QM3"], "topic": [topic], "properties": as_map}), mapped)
    assert probes(mapped) == {("QM3", topic, '{"a": "x", "n": 2}')}
    lines = tmp_path / "object.jsonl"  # the JSON lines form may hold the properties as an object
    lines.write_text(json.dumps({"from": "QM3", "topic": topic, "properties": {"a": "x", "n": 2}}) + "\n")
    assert probes(lines) == {("QM3", topic, '{"a": "x", "n": 2}')}
    bad = tmp_path / "bad.parquet"
    pq.write_table(pa.table({"from": ["QM3", None], "topic": [topic, topic]}), bad)
    refused(diff(str(before), str(after), "--publications", str(bad)), "bad.parquet", "2")
    corrupt = tmp_path / "corrupt.parquet"
    corrupt.write_bytes(b"PAR1 not really")
    refused(diff(str(before), str(after), "--publications", str(corrupt)), "corrupt.parquet", "Parquet")


def test_ci_doc_posts_the_markdown_as_a_review_comment() -> None:
    ci_md = (Path(__file__).resolve().parents[2] / "docs" / "ci.md").read_text()
    assert 'mqctl diff --git "$base:estate" estate -o markdown > mqctl-diff.md' in ci_md
    assert "gh pr comment" in ci_md and "--body-file mqctl-diff.md" in ci_md  # GitHub Actions
    assert "merge_requests/$CI_MERGE_REQUEST_IID/notes" in ci_md and "body@mqctl-diff.md" in ci_md  # GitLab
    assert "--fail-on lost" in ci_md


def ems_estate(folder: Path, selector: str) -> Path:
    for server, topics, routes, durables in (
        (
            "ORD",
            "orders global\n",
            f'[USA]\nurl = tcp://usa:7222\noutgoing_topic=orders selector="{selector}"\n',
            "",
        ),
        ("USA", "orders global\n", "[ORD]\nurl = tcp://ord:7222\n", "orders BILLING\n"),
    ):
        home = folder / "ems" / server
        home.mkdir(parents=True)
        (home / "tibemsd.conf").write_text(
            f"server = {server}\ntopics = topics.conf\nroutes = routes.conf\ndurables = durables.conf\n"
        )
        (home / "topics.conf").write_text(topics)
        (home / "routes.conf").write_text(routes)
        (home / "durables.conf").write_text(durables)
    return folder


def test_an_ems_route_selector_narrowed(tmp_path: Path) -> None:
    before = ems_estate(tmp_path / "before", "country='USA'")
    after = ems_estate(tmp_path / "after", "country='USA' AND amount > 100")
    result = diff(str(before), str(after), "-o", "json")
    assert result.exit_code == 1, result.stderr
    report = data(result)
    [change] = report["objects"]
    assert change["kind"] == "route-selector" and change["node"] == "ORD"
    assert change["attributes"] == [
        {
            "name": "selector",
            "before": "selector=country='USA'",
            "after": "selector=country='USA' AND amount > 100",
        }
    ]
    assert change["source"] == {"file": str(after / "ems" / "ORD" / "routes.conf"), "line": 3}
    lost = [r for r in report["routing"] if r["change"] == "lost"]
    assert {(r["subscription"], r["node"]) for r in lost} == {("BILLING", "USA")}
    assert all(
        r["properties"].get("country") == "USA" and r["properties"].get("amount", 0) <= 100 for r in lost
    )
    assert all(r["after"]["reason"] == "ROUTE_SELECTOR" for r in lost)
