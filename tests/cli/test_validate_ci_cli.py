"""`mqctl validate --file` as CI reads it (issue 37): every error of a broken file in one run, SARIF
results anchored at a line with their column, JUnit test names that survive a change of wording.

The files are validated alone (the store is not read), so SQLite is enough here.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

import pytest

from tests.conftest import Result, run_cli

Cli = Callable[..., Result]

BROKEN = (
    "* QM1: three commands runmqsc refuses, and good ones between them\n"
    "DEFINE TOPIC(A) TOPICSTR('/a') WILDCARD(NOPE)\n"
    "DEFINE TOPIC(B) TOPICSTR('/b')\n"
    "DEFINE TOPIC(C) TOPICSTR('/c') CLROUTE(SIDEWAYS)\n"
    "DEFINE TOPIC(D) TOPICSTR('/d')\n"
    "DEFINE TOPIK(E)\n"
)


@pytest.fixture
def lite(sqlite_url: str) -> Cli:
    def invoke(*args: str) -> Result:
        return run_cli(list(args), db=sqlite_url)

    return invoke


def results(log: Any, rule: str) -> list[dict[str, Any]]:
    assert isinstance(log, dict)
    return [r for r in log["runs"][0]["results"] if r["ruleId"] == rule]


def test_every_error_of_a_broken_file_is_a_finding_in_file_order(lite: Cli, tmp_path: Path) -> None:
    script = tmp_path / "QM1.mqsc"
    script.write_text(BROKEN)
    result = lite("validate", "--file", str(script), "--select", "IMPORT_ERROR", "-o", "json")
    assert result.exit_code == 1, result.stderr
    data = result.json()
    assert isinstance(data, dict)
    found = data["findings"]
    assert [f["source"] for f in found] == [{"file": str(script), "line": n} for n in (2, 4, 6)]
    assert "WILDCARD" in found[0]["message"] and "CLROUTE" in found[1]["message"]
    assert "TOPIK" in found[2]["message"]
    assert data["summary"]["error"] == 3
    text = lite("validate", "--file", str(script))
    assert text.exit_code == 1
    assert all(f"at {script}:{n}" in text.stdout for n in (2, 4, 6)), text.stdout
    # the same file imported into the store: refused as a whole, with its first error (one line, exit 2)
    imported = lite("import", "mqsc", str(script))
    assert imported.exit_code == 2 and imported.stderr.count("\n") == 1
    assert f"{script}:2:" in imported.stderr


def test_sarif_regions_carry_the_column_and_each_error_its_own_fingerprint(lite: Cli, tmp_path: Path) -> None:
    script = tmp_path / "QM1.mqsc"
    script.write_text(BROKEN)
    log = lite("validate", "--file", str(script), "-o", "sarif").json()
    found = results(log, "MQC033")
    regions = [r["locations"][0]["physicalLocation"]["region"] for r in found]
    assert [r["startLine"] for r in regions] == [2, 4, 6]
    line_2 = BROKEN.splitlines()[1]
    assert regions[0]["startColumn"] == line_2.index("NOPE") + 1
    assert all(isinstance(r["startColumn"], int) and r["startColumn"] >= 1 for r in regions)
    prints = {r["partialFingerprints"]["mqctlFinding/v1"] for r in found}
    assert len(prints) == 3


def test_sarif_anchors_a_clusters_finding_at_the_repos_line(lite: Cli, tmp_path: Path) -> None:
    """MQC014 (one full repository) names a cluster, which no file defines: the result is placed at the
    ALTER QMGR REPOS line of its repository; MQC013 (none) at the members' CLUSRCVR channels."""
    (tmp_path / "QM1.mqsc").write_text(
        "* QM1\n"
        "DEFINE CHANNEL(CL1.QM1) CHLTYPE(CLUSRCVR) CLUSTER(CL1) CONNAME('qm1(1414)')\n"
        "ALTER QMGR REPOS(CL1)\n"
    )
    (tmp_path / "QM2.mqsc").write_text(
        "DEFINE CHANNEL(CL1.QM2) CHLTYPE(CLUSRCVR) CLUSTER(CL1) CONNAME('qm2(1414)')\n"
        "DEFINE CHANNEL(CL2.QM2) CHLTYPE(CLUSRCVR) CLUSTER(CL2) CONNAME('qm2(1415)')\n"
    )
    log = lite("validate", "--file", str(tmp_path), "--fail-on", "info", "-o", "sarif").json()
    [single] = results(log, "MQC014")
    where = single["locations"][0]["physicalLocation"]
    assert where["artifactLocation"]["uri"] == (tmp_path / "QM1.mqsc").as_uri()
    assert where["region"]["startLine"] == 3
    [none] = results(log, "MQC013")
    where = none["locations"][0]["physicalLocation"]
    assert where["artifactLocation"]["uri"] == (tmp_path / "QM2.mqsc").as_uri()
    assert where["region"]["startLine"] == 2
    # the JSON shape is unchanged; its source says where too
    data = lite("validate", "--file", str(tmp_path), "--select", "MQC014", "-o", "json").json()
    assert isinstance(data, dict)
    assert data["findings"][0]["source"] == {"file": str(tmp_path / "QM1.mqsc"), "line": 3}
    assert data["findings"][0]["objects"] == ["cluster CL1"]


def test_junit_names_are_the_rule_and_objects_with_the_message_in_the_failure(
    lite: Cli, tmp_path: Path
) -> None:
    (tmp_path / "GW.mqsc").write_text(
        "DEFINE CHANNEL(EU.GW) CHLTYPE(CLUSRCVR) CLUSTER(EU) CONNAME('gw(1414)')\n"
        "ALTER QMGR REPOS(EU)\n"
        "DEFINE TOPIC(PRICES) TOPICSTR('/Prices') CLUSTER(EU) CLROUTE(TOPICHOST)\n"
    )
    (tmp_path / "FR1.mqsc").write_text(
        "DEFINE CHANNEL(EU.FR1) CHLTYPE(CLUSRCVR) CLUSTER(EU) CONNAME('fr1(1414)')\nALTER QMGR REPOS(EU)\n"
    )
    (tmp_path / "LEGACY.mqsc").write_text("ALTER QMGR PARENT(GW)\n")
    (tmp_path / "QM9.mqsc").write_text(BROKEN)
    result = lite("validate", "--file", str(tmp_path), "-o", "junit")
    assert result.exit_code == 1
    cases = ET.fromstring(result.stdout).findall("testsuite/testcase")
    by_name = {c.get("name"): c for c in cases}
    assert len(by_name) == len(cases)  # unique names, as the test-history views need
    hierarchy = by_name["MQC018 qmgr LEGACY, cluster EU, topic PRICES on GW"]
    failure = hierarchy.find("failure")
    assert failure is not None and "IBM does not support" in failure.get("message", "")
    imports = sorted(n for n in by_name if n is not None and n.startswith("MQC033"))
    assert imports == [f"MQC033 file {tmp_path / 'QM9.mqsc'} line {n}" for n in (2, 4, 6)]
