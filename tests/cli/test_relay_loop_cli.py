"""Issue 38 through the real CLI: interest relayed around a hierarchy beside a cluster (semantics §4.3).

The issue's estate as MQSC scripts: explain delivers to S0 on QM3 with the loop named, and `diff` of the
DIRECT estate against its TOPICHOST twin (QM3 a topic host too) names only what the semantics changes:
S0's path (QM1 -> QM3 directly becomes QM1 -> QM2 -> QM3 through the relay) and S5's topic host."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.conftest import Result, run_cli
from tests.helpers import ok

Cli = Callable[..., Result]
SCRIPTS = {
    "QM0": "DEFINE SUB(S5) TOPICSTR('/a/d/3/#') DEST(Q)\n",
    "QM1": (
        "ALTER QMGR REPOS(C1) PARENT(QM0)\n"
        "DEFINE CHANNEL(C1.QM1) CHLTYPE(CLUSRCVR) CONNAME('qm1(1414)') CLUSTER(C1)\n"
        "DEFINE TOPIC(T2) TOPICSTR('/a') CLUSTER(C1) CLROUTE(DIRECT)\n"
    ),
    "QM2": "ALTER QMGR REPOS(C1)\nDEFINE CHANNEL(C1.QM2) CHLTYPE(CLUSRCVR) CONNAME('qm2(1414)') CLUSTER(C1)\n",
    "QM3": (
        "ALTER QMGR PARENT(QM2)\n"
        "DEFINE CHANNEL(C1.QM3) CHLTYPE(CLUSRCVR) CONNAME('qm3(1414)') CLUSTER(C1)\n"
        "DEFINE SUB(S0) TOPICSTR('/#') DEST(Q)\n"
    ),
}
QUESTION = ["explain", "--from", "QM1", "--topic", "/a/d/3"]


def estate(folder: Path, topichost: bool = False) -> Path:
    """The issue's four scripts; ``topichost``: its twin, T2 CLROUTE(TOPICHOST) hosted on QM1 and QM3."""
    folder.mkdir(parents=True)
    for name, text in SCRIPTS.items():
        if topichost:
            text = text.replace("CLROUTE(DIRECT)", "CLROUTE(TOPICHOST)")
            if name == "QM3":
                text += "DEFINE TOPIC(T2) TOPICSTR('/a') CLUSTER(C1) CLROUTE(TOPICHOST)\n"
        (folder / f"{name}.mqsc").write_text(text)
    return folder


def delivery(answer: Any, node: str, name: str) -> dict[str, Any]:
    (found,) = [d for d in answer["deliveries"] if (d["node"], d["subscription"]) == (node, name)]
    return found  # type: ignore[no-any-return]


def test_explain_delivers_to_s0_around_the_loop_with_the_warning(cli: Cli, tmp_path: Path) -> None:
    folder = estate(tmp_path / "direct")
    ok(cli("import", "mqsc", *sorted(str(p) for p in folder.iterdir())))
    answer = ok(cli(*QUESTION, "-o", "json")).json()
    s0 = delivery(answer, "QM3", "S0")
    assert s0["status"] == "delivered" and s0["path"] == ["QM1", "QM3"]
    assert s0["alternatives"] == [["QM1", "QM2", "QM3"]]
    assert delivery(answer, "QM0", "S5")["path"] == ["QM1", "QM0"]
    assert answer["not_delivered"] == []
    (warning,) = answer["warnings"]
    assert warning["code"] == "DUPLICATES_POSSIBLE"
    assert "hierarchy link QM3->QM2 lies beside cluster C1" in warning["message"]
    text = ok(cli(*QUESTION)).stdout
    assert "delivered to sub S0 on QM3" in text and "hierarchy link QM3->QM2 lies beside cluster C1" in text


def test_diff_direct_to_topichost_names_only_what_the_semantics_changes(tmp_path: Path) -> None:
    before, after = estate(tmp_path / "direct"), estate(tmp_path / "topichost", topichost=True)
    found = ok(run_cli(["diff", str(before), str(after), "-o", "json"]), (1,)).json()
    changes = {(r["node"], r["subscription"], r["change"]) for r in found["routing"]}  # type: ignore[index]
    assert changes == {("QM3", "S0", "path"), ("QM0", "S5", "host")}
    (s0,) = [r for r in found["routing"] if r["subscription"] == "S0"]  # type: ignore[index]
    assert s0["publisher"] == "QM1"
    assert s0["before"]["path"] == ["QM1", "QM3"] and s0["after"]["path"] == ["QM1", "QM2", "QM3"]
