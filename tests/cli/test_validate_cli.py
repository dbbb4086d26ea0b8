"""`mqctl validate` through the real entry point, on SQLite and PostgreSQL.

Every rule of docs/rules.md: a store built as a user builds it (define, runmqsc, tibemsadmin) that breaks
the rule, then the fix, and the finding is gone. Then the contract of docs/cli.md: options, exit codes,
the JSON shape, SARIF 2.1.0 (checked against the object model of the OASIS specification), JUnit XML
(parsed back), the text report, and `--file` (the store is never changed; without a store the files are
validated alone).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

import pytest
from sqlalchemy import create_engine, text

from mqctl.domain.validation import RULES
from tests.conftest import Result, run_cli
from tests.helpers import dump_store, ok

Cli = Callable[..., Result]
REPO = Path(__file__).resolve().parents[2]
JSON_KEYS = ["id", "code", "severity", "message", "objects", "nodes", "source"]


def mqsc(cli: Cli, qmgr: str, script: str) -> None:
    ok(cli("runmqsc", qmgr, "--create", stdin=script))


def ems(cli: Cli, server: str, script: str) -> None:
    ok(cli("tibemsadmin", server, "--create", stdin=script))


def member(cluster: str, qmgr: str, *, repos: bool = False) -> str:
    """MQSC making QMGR a member (a CLUSRCVR channel) and, with ``repos``, a full repository of CLUSTER."""
    line = f"DEFINE CHANNEL({cluster}.{qmgr}) CHLTYPE(CLUSRCVR) CLUSTER({cluster}) CONNAME('{qmgr.lower()}(1414)')\n"
    return line + (f"ALTER QMGR REPOS({cluster})\n" if repos else "")


def cluster(cli: Cli, name: str, *qmgrs: str) -> None:
    """A cluster whose first two members are its full repositories."""
    for i, qmgr in enumerate(qmgrs):
        mqsc(cli, qmgr, member(name, qmgr, repos=i < 2))


def findings(cli: Cli, code: str, *extra: str) -> list[dict[str, Any]]:
    """Run the one rule; exit 1 exactly when it finds something (--fail-on info)."""
    result = cli("validate", "--select", code, "--fail-on", "info", "-o", "json", *extra)
    data = result.json()
    assert isinstance(data, dict)
    assert result.exit_code == (1 if data["findings"] else 0), result.stderr
    assert all(f["code"] == code and list(f) == JSON_KEYS for f in data["findings"])
    return list(data["findings"])


def one(cli: Cli, code: str) -> dict[str, Any]:
    found = findings(cli, code)
    assert len(found) == 1, found
    return found[0]


def overlap(cli: Cli) -> None:
    """Reference 001: CL1 = QM1, QM2, QM3; CL2 = QM3, QM4, QM5 (QM3 in both)."""
    cluster(cli, "CL1", "QM1", "QM2", "QM3")
    cluster(cli, "CL2", "QM4", "QM5")
    mqsc(cli, "QM3", member("CL2", "QM3"))


# -- MQ: the namespace across clusters ---------------------------------------------------------------


def test_namespace_conflict_and_the_subscribers_it_affects(cli: Cli) -> None:
    overlap(cli)
    mqsc(cli, "QM1", "DEFINE TOPIC(TB) TOPICSTR('/Sport') CLUSTER(CL1)\n")
    mqsc(cli, "QM4", "DEFINE TOPIC(TC) TOPICSTR('/Sport') CLUSTER(CL2)\n")
    assert findings(cli, "CONFLICT_AFFECTS_SUBSCRIBERS") == []  # nobody subscribes there yet
    mqsc(cli, "QM3", "DEFINE SUB(FANS) TOPICSTR('/Sport/#')\n")
    f = one(cli, "NAMESPACE_CONFLICT")
    assert f["id"] == "MQC001" and f["severity"] == "error" and f["message"].startswith("On QM3, ")
    assert f["objects"][:2] == ["topic TB on QM1", "topic TC on QM4"] and "QM3" in f["nodes"]
    f = one(cli, "CONFLICT_AFFECTS_SUBSCRIBERS")
    assert f["objects"][0] == "sub FANS on QM3" and "on QM1" in f["message"]
    # the cause on record: explain from QM1 shows the miss as NO_PATH
    miss = ok(cli("explain", "--from", "QM1", "--topic", "/Sport/x", "-o", "json")).json()
    assert isinstance(miss, dict) and miss["not_delivered"][0]["reason"] == "NO_PATH"
    ok(cli("delete", "topic", "TC", "--qmgr", "QM4"))  # MQ: a TOPICSTR is changed by defining again
    ok(cli("define", "topic", "TC", "--qmgr", "QM4", "--topicstr", "/Tennis", "--cluster", "CL2"))
    assert findings(cli, "NAMESPACE_CONFLICT") == []
    assert findings(cli, "CONFLICT_AFFECTS_SUBSCRIBERS") == []


def test_attribute_conflict(cli: Cli) -> None:
    cluster(cli, "CL1", "QM1", "QM2")
    mqsc(cli, "QM1", "DEFINE TOPIC(T) TOPICSTR('/a') CLUSTER(CL1) CLROUTE(DIRECT)\n")
    mqsc(cli, "QM2", "DEFINE TOPIC(T) TOPICSTR('/a') CLUSTER(CL1) CLROUTE(TOPICHOST)\n")
    assert "differ in CLROUTE" in one(cli, "ATTRIBUTE_CONFLICT")["message"]
    mqsc(cli, "QM2", "DEFINE TOPIC(T) TOPICSTR('/a') CLUSTER(CL1) CLROUTE(DIRECT) REPLACE\n")
    assert findings(cli, "ATTRIBUTE_CONFLICT") == []


def test_local_shadows_cluster(cli: Cli) -> None:
    cluster(cli, "CL1", "QM1", "QM2")
    mqsc(cli, "QM1", "DEFINE TOPIC(PRICES) TOPICSTR('/Prices') CLUSTER(CL1)\n")
    mqsc(cli, "QM2", "DEFINE TOPIC(MINE) TOPICSTR('/Prices')\n")
    assert one(cli, "LOCAL_SHADOWS_CLUSTER")["objects"] == ["topic MINE on QM2", "topic PRICES on QM1"]
    ok(cli("delete", "topic", "MINE", "--qmgr", "QM2"))
    assert findings(cli, "LOCAL_SHADOWS_CLUSTER") == []


def test_nested_cluster_topics(cli: Cli) -> None:
    overlap(cli)
    mqsc(cli, "QM1", "DEFINE TOPIC(SPORT) TOPICSTR('/Sport') CLUSTER(CL1)\n")
    mqsc(cli, "QM4", "DEFINE TOPIC(TENNIS) TOPICSTR('/Sport/Tennis') CLUSTER(CL2)\n")
    assert "lies above TENNIS" in one(cli, "NESTED_CLUSTER_TOPICS")["message"]
    ok(cli("delete", "topic", "TENNIS", "--qmgr", "QM4"))  # MQ: a TOPICSTR is changed by defining again
    ok(cli("define", "topic", "TENNIS", "--qmgr", "QM4", "--topicstr", "/Tennis", "--cluster", "CL2"))
    assert findings(cli, "NESTED_CLUSTER_TOPICS") == []


def test_wildcard_above_cluster(cli: Cli) -> None:
    cluster(cli, "CL1", "QM1", "QM2", "QM3")
    mqsc(cli, "QM1", "DEFINE TOPIC(FOOTBALL) TOPICSTR('/Sport/Football') CLUSTER(CL1)\n")
    mqsc(cli, "QM3", "DEFINE SUB(ALL) TOPICSTR('/Sport/#')\n")
    f = one(cli, "WILDCARD_ABOVE_CLUSTER")
    assert "'/Sport/Football'" in f["message"] and "('/Sport/Football/#')" in f["message"]
    mqsc(cli, "QM3", "DELETE SUB(ALL)\nDEFINE SUB(FOOTBALL) TOPICSTR('/Sport/Football/#')\n")
    assert findings(cli, "WILDCARD_ABOVE_CLUSTER") == []


def test_topicstr_wildcard_character(cli: Cli) -> None:
    mqsc(cli, "QM1", "DEFINE TOPIC(SPORT) TOPICSTR('/Sport/#')\n")
    assert one(cli, "TOPICSTR_WILDCARD_CHARACTER")["objects"] == ["topic SPORT on QM1"]
    mqsc(cli, "QM1", "DELETE TOPIC(SPORT)\nDEFINE TOPIC(SPORT) TOPICSTR('/Sport')\n")
    assert findings(cli, "TOPICSTR_WILDCARD_CHARACTER") == []


# -- MQ: clusters, repositories and topic hosts --------------------------------------------------------


def test_no_full_repository_and_full_repository_count(cli: Cli) -> None:
    for qmgr in ("QM1", "QM2"):
        mqsc(cli, qmgr, member("CL1", qmgr))
    assert one(cli, "NO_FULL_REPOSITORY")["objects"] == ["cluster CL1"]
    assert findings(cli, "FULL_REPOSITORY_COUNT") == []
    mqsc(cli, "QM1", "ALTER QMGR REPOS(CL1)\n")
    assert findings(cli, "NO_FULL_REPOSITORY") == []
    assert "1 full repository (QM1)" in one(cli, "FULL_REPOSITORY_COUNT")["message"]
    mqsc(cli, "QM2", "ALTER QMGR REPOS(CL1)\n")
    assert findings(cli, "FULL_REPOSITORY_COUNT") == []


def test_unknown_cluster(cli: Cli) -> None:
    cluster(cli, "CL1", "QM1", "QM2")
    mqsc(cli, "QM1", "DEFINE TOPIC(T) TOPICSTR('/a') CLUSTER(CLX)\n")
    assert one(cli, "UNKNOWN_CLUSTER")["objects"] == ["topic T on QM1", "cluster CLX"]
    mqsc(cli, "QM1", "ALTER TOPIC(T) CLUSTER(CL1)\n")
    assert findings(cli, "UNKNOWN_CLUSTER") == []


def test_topic_host_not_member(cli: Cli) -> None:
    cluster(cli, "CL1", "QM1", "QM2")
    mqsc(cli, "QM9", "DEFINE TOPIC(T) TOPICSTR('/a') CLUSTER(CL1)\n")
    assert "QM9 is not a member of CL1" in one(cli, "TOPIC_HOST_NOT_MEMBER")["message"]
    mqsc(cli, "QM9", member("CL1", "QM9"))
    assert findings(cli, "TOPIC_HOST_NOT_MEMBER") == []


def test_clroute_without_cluster(cli: Cli) -> None:
    ok(cli("define", "qmgr", "QM1"))
    ok(cli("define", "topic", "T", "--qmgr", "QM1", "--topicstr", "/a", "--clroute", "topichost"))
    assert one(cli, "CLROUTE_WITHOUT_CLUSTER")["objects"] == ["topic T on QM1"]
    ok(cli("alter", "topic", "T", "--qmgr", "QM1", "--clroute", "direct"))
    assert findings(cli, "CLROUTE_WITHOUT_CLUSTER") == []


def test_topic_host_rules(cli: Cli) -> None:
    """TOPIC_HOST_ON_FULL_REPOSITORY and SINGLE_TOPIC_HOST, then ORDER_NOT_PRESERVED with two hosts."""
    cluster(cli, "CL1", "QM1", "QM2", "QM3", "QM4", "QM5")
    mqsc(cli, "QM1", "DEFINE TOPIC(PRICES) TOPICSTR('/Prices') CLUSTER(CL1) CLROUTE(TOPICHOST)\n")
    assert "a full repository of CL1" in one(cli, "TOPIC_HOST_ON_FULL_REPOSITORY")["message"]
    assert one(cli, "SINGLE_TOPIC_HOST")["severity"] == "info"
    assert findings(cli, "ORDER_NOT_PRESERVED") == []
    ok(cli("delete", "topic", "PRICES", "--qmgr", "QM1"))
    for host in ("QM3", "QM4"):
        mqsc(cli, host, "DEFINE TOPIC(PRICES) TOPICSTR('/Prices') CLUSTER(CL1) CLROUTE(TOPICHOST)\n")
    assert findings(cli, "TOPIC_HOST_ON_FULL_REPOSITORY") == []
    assert findings(cli, "SINGLE_TOPIC_HOST") == []
    assert "hosts QM3 and QM4" in one(cli, "ORDER_NOT_PRESERVED")["message"]
    ok(cli("delete", "topic", "PRICES", "--qmgr", "QM4"))
    assert findings(cli, "ORDER_NOT_PRESERVED") == []


def test_pubsub_disabled(cli: Cli) -> None:
    cluster(cli, "CL1", "QM1", "QM2")
    mqsc(cli, "QM1", "DEFINE TOPIC(T) TOPICSTR('/a') CLUSTER(CL1)\n")
    mqsc(cli, "QM2", "ALTER QMGR PSCLUS(DISABLED)\n")
    assert "PSCLUS(DISABLED)" in one(cli, "PUBSUB_DISABLED")["message"]
    mqsc(cli, "QM2", "ALTER QMGR PSCLUS(ENABLED)\n")
    assert findings(cli, "PUBSUB_DISABLED") == []


# -- MQ: hierarchies -------------------------------------------------------------------------------------


def test_hierarchy_cycle_and_unknown_parent(cli: Cli) -> None:
    ok(cli("define", "qmgr", "QM1", "--parent", "QMX"))
    assert "PARENT(QMX)" in one(cli, "UNKNOWN_PARENT")["message"]
    ok(cli("define", "qmgr", "QMX", "--replace", "--descr", "regional hub"))
    assert findings(cli, "UNKNOWN_PARENT") == []
    ok(cli("define", "qmgr", "QM2", "--parent", "QM1"))
    ok(cli("alter", "qmgr", "QM1", "--parent", "QM2"))
    assert "QM1 -> QM2 -> QM1" in one(cli, "HIERARCHY_CYCLE")["message"]
    ok(cli("alter", "qmgr", "QM1", "--parent", ""))
    assert findings(cli, "HIERARCHY_CYCLE") == []


def test_hierarchy_with_topichost(cli: Cli) -> None:
    cluster(cli, "CL1", "QM1", "QM2", "QM3")
    mqsc(cli, "QM3", "DEFINE TOPIC(T) TOPICSTR('/a') CLUSTER(CL1) CLROUTE(TOPICHOST)\n")
    mqsc(cli, "QM9", "ALTER QMGR PARENT(QM3)\n")
    assert "QM9->QM3" in one(cli, "HIERARCHY_WITH_TOPICHOST")["message"]
    mqsc(cli, "QM3", "DELETE TOPIC(T)\nDEFINE TOPIC(T) TOPICSTR('/a') CLUSTER(CL1) CLROUTE(DIRECT)\n")
    assert findings(cli, "HIERARCHY_WITH_TOPICHOST") == []


def test_pubsub_loop(cli: Cli) -> None:
    cluster(cli, "CL1", "QM1", "QM2", "QM3")
    mqsc(cli, "QM1", "DEFINE TOPIC(T) TOPICSTR('/a') CLUSTER(CL1)\n")
    mqsc(cli, "QM3", "ALTER QMGR PARENT(QM2)\n")
    assert "along two paths" in one(cli, "PUBSUB_LOOP")["message"]
    mqsc(cli, "QM3", "ALTER QMGR PARENT('')\n")
    assert findings(cli, "PUBSUB_LOOP") == []


# -- EMS -----------------------------------------------------------------------------------------------------


def test_mhop_duplicate_path(cli: Cli) -> None:
    for server, peers in (("A", "BC"), ("B", "AC"), ("C", "AB")):
        ems(cli, server, "".join(f"create route {p} url=tcp://{p.lower()}:7222\n" for p in peers))
    assert "along two paths" in one(cli, "MHOP_DUPLICATE_PATH")["message"]
    ems(cli, "A", "delete route C\n")
    ems(cli, "C", "delete route A\n")
    assert findings(cli, "MHOP_DUPLICATE_PATH") == []


def test_zone_type_mismatch_and_one_hop_zone_too_short(cli: Cli) -> None:
    ems(cli, "A", "create route B url=tcp://b:7222 zone_name=Z zone_type=1hop\n")
    ems(cli, "B", "create route A url=tcp://a:7222 zone_name=Z zone_type=1hop\n")
    ems(cli, "B", "create route C url=tcp://c:7222 zone_name=Z zone_type=mhop\n")
    ems(cli, "C", "create route B url=tcp://b:7222 zone_name=Z zone_type=mhop\n")
    assert one(cli, "ZONE_TYPE_MISMATCH")["message"].startswith("Zone Z has mhop routes")
    ems(cli, "B", "delete route C\ncreate route C url=tcp://c:7222 zone_name=Z zone_type=1hop\n")
    ems(cli, "C", "delete route B\ncreate route B url=tcp://b:7222 zone_name=Z zone_type=1hop\n")
    assert findings(cli, "ZONE_TYPE_MISMATCH") == []
    assert "A and C are connected only through A - B - C" in one(cli, "ONE_HOP_ZONE_TOO_SHORT")["message"]
    ems(cli, "A", "create route C url=tcp://c:7222 zone_name=Z zone_type=1hop\n")
    assert findings(cli, "ONE_HOP_ZONE_TOO_SHORT") == []


def test_route_names_and_urls(cli: Cli) -> None:
    """ROUTE_NAME_NOT_PEER across servers, DUPLICATE_ROUTE on one, UNKNOWN_ROUTE_PEER for a bare peer."""
    ems(cli, "B", "create topic T global\n")
    ems(cli, "A", "create route B url=tcp://b:7222\n")
    ems(cli, "C", "create route BEE url=tcp://b:7222\ncreate route B url=tcp://b:7222\n")
    assert "B is the server the model knows" in one(cli, "ROUTE_NAME_NOT_PEER")["message"]
    assert one(cli, "DUPLICATE_ROUTE")["message"].startswith("Server C has routes B and BEE to the same URL")
    assert one(cli, "UNKNOWN_ROUTE_PEER")["objects"] == ["route BEE on C"]
    ems(cli, "C", "delete route BEE\n")
    for code in ("ROUTE_NAME_NOT_PEER", "DUPLICATE_ROUTE", "UNKNOWN_ROUTE_PEER"):
        assert findings(cli, code) == []


def test_active_passive_route(cli: Cli) -> None:
    ems(cli, "A", "create topic T1 global\ncreate route B url=tcp://b:7222\n")
    ems(cli, "B", "create topic T1 global\n")
    assert one(cli, "ACTIVE_PASSIVE_ROUTE")["message"].startswith("Route B is defined on A only")
    ems(cli, "B", "create route A url=tcp://a:7222\n")
    assert findings(cli, "ACTIVE_PASSIVE_ROUTE") == []


def test_selector_on_non_global_topic(cli: Cli) -> None:
    ems(cli, "B", "create route A url=tcp://a:7222\n")
    ems(
        cli,
        "A",
        "create route B url=tcp://b:7222\nsetprop route B outgoing_topic=orders selector=\"c='US'\"\n",
    )
    assert "not global on A and B" in one(cli, "SELECTOR_ON_NON_GLOBAL_TOPIC")["message"]
    ems(cli, "A", "create topic orders global\n")
    ems(cli, "B", "create topic orders global\n")
    assert findings(cli, "SELECTOR_ON_NON_GLOBAL_TOPIC") == []


def test_intersecting_global_topics(cli: Cli) -> None:
    ems(cli, "A", "create topic foo.* global\ncreate topic foo.a.> global\n")
    assert one(cli, "INTERSECTING_GLOBAL_TOPICS")["objects"] == ["topic foo.* on A", "topic foo.a.> on A"]
    ems(cli, "A", "delete topic foo.a.>\n")
    assert findings(cli, "INTERSECTING_GLOBAL_TOPICS") == []


def test_subscription_not_subset_of_global(cli: Cli) -> None:
    ems(cli, "A", "create topic foo.* global\ncreate route B url=tcp://b:7222\n")
    ok(cli("define", "sub", "WIDE", "--qmgr", "A", "--topicstr", "foo.>"))
    assert one(cli, "SUBSCRIPTION_NOT_SUBSET_OF_GLOBAL")["objects"][0] == "sub WIDE on A"
    ok(cli("delete", "sub", "WIDE", "--qmgr", "A"))
    ok(cli("define", "sub", "NARROW", "--qmgr", "A", "--topicstr", "foo.*"))
    assert findings(cli, "SUBSCRIPTION_NOT_SUBSET_OF_GLOBAL") == []


def test_storage_unbounded(cli: Cli) -> None:
    """Reference 003's chain A - M - B with durable subscribers on B."""
    ems(cli, "A", "create topic T1 global\ncreate route M url=tcp://m:7222\n")
    ems(
        cli, "M", "create topic T1 global\ncreate route A url=tcp://a:7222\ncreate route B url=tcp://b:7222\n"
    )
    ems(cli, "B", "create topic T1 global\ncreate route M url=tcp://m:7222\n")
    ok(cli("define", "sub", "reports", "--qmgr", "B", "--topicstr", "T1", "--durable"))
    assert "fed over routes by A and M" in one(cli, "STORAGE_UNBOUNDED")["message"]
    for server in ("A", "M"):
        ems(cli, server, "addprop topic T1 maxbytes=64MB\n")
    assert findings(cli, "STORAGE_UNBOUNDED") == []


def test_invalid_selector(cli: Cli, store_url: str) -> None:
    """Every door refuses a bad selector; a store written before the check existed can still hold one."""
    ok(cli("define", "qmgr", "QM1"))
    ok(cli("define", "sub", "S", "--qmgr", "QM1", "--topicstr", "/a", "--selector", "amount > 5"))
    assert findings(cli, "INVALID_SELECTOR") == []
    engine = create_engine(store_url)
    with engine.begin() as conn:
        conn.execute(text("UPDATE subscriptions SET selector = 'amount >' WHERE name = 'S'"))
    engine.dispose()
    assert one(cli, "INVALID_SELECTOR")["objects"] == ["sub S on QM1"]


# -- --file --------------------------------------------------------------------------------------------------


def test_import_error_is_a_finding_with_file_and_line(cli: Cli, tmp_path: Path) -> None:
    script = tmp_path / "QM1.mqsc"
    script.write_text("* QM1\nDEFINE TOPIC(T) TOPICSTR('/a')\nDEFINE TOPIC(U) TOPICSTR(\n")
    [f] = findings(cli, "IMPORT_ERROR", "--file", str(script))
    assert f["id"] == "MQC033" and f["severity"] == "error"
    assert f["source"] == {"file": str(script), "line": 3}
    script.write_text("* QM1\nDEFINE TOPIC(T) TOPICSTR('/a')\n")
    assert findings(cli, "IMPORT_ERROR", "--file", str(script)) == []
    # a selector that does not parse in a file: the import error, and the invalid selector, at its line
    (tmp_path / "A").mkdir()
    conf = tmp_path / "A" / "tibemsd.conf"
    conf.write_text("server = A\nroutes = routes.conf\n")
    (tmp_path / "A" / "routes.conf").write_text('[B]\nurl = tcp://b:7222\noutgoing_topic=T selector="x >"\n')
    [f] = findings(cli, "INVALID_SELECTOR", "--file", str(conf))
    assert f["source"] == {"file": str(tmp_path / "A" / "routes.conf"), "line": 3}
    assert findings(cli, "IMPORT_ERROR", "--file", str(conf))[0]["source"] == f["source"]


def test_file_validates_the_files_alone_whatever_the_store_holds(
    cli: Cli, store_url: str, tmp_path: Path
) -> None:
    """Issue 21: the same output against an empty store and one holding unrelated servers; unchanged."""
    (tmp_path / "QM3.mqsc").write_text(
        member("CL1", "QM3", repos=True) + "DEFINE TOPIC(T) TOPICSTR('/a/#')\n"
    )
    args = ("validate", "--file", str(tmp_path), "--fail-on", "info")
    empty = [cli(*args, "-o", o) for o in ("json", "text", "sarif")]
    cluster(cli, "CL1", "QM1", "QM2")  # unrelated to the files, and a cluster of the same name
    ems(cli, "E1", "create topic orders global\n")
    before = dump_store(store_url)
    full = [cli(*args, "-o", o) for o in ("json", "text", "sarif")]
    assert [(r.exit_code, r.stdout, r.stderr) for r in empty] == [
        (r.exit_code, r.stdout, r.stderr) for r in full
    ]
    data = full[0].json()
    assert isinstance(data, dict) and full[0].exit_code == 1
    codes = {f["code"]: f for f in data["findings"]}
    assert "1 full repository (QM3)" in codes["FULL_REPOSITORY_COUNT"]["message"]
    assert "TOPICSTR_WILDCARD_CHARACTER" in codes
    assert dump_store(store_url) == before


def test_file_never_reads_nor_creates_the_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "mq").mkdir()
    (tmp_path / "mq" / "QM3.mqsc").write_text(member("CL1", "QM3", repos=True))
    server = tmp_path / "ems" / "A"
    server.mkdir(parents=True)
    (server / "tibemsd.conf").write_text("server = A\ntopics = topics.conf\nroutes = routes.conf\n")
    (server / "topics.conf").write_text("T1 global\n")
    (server / "routes.conf").write_text("[B]\nurl = tcp://b:7222\n")
    result = run_cli(
        ["validate", "--file", str(tmp_path / "mq"), "--file", str(server / "tibemsd.conf"), "-o", "json"]
    )
    data = result.json()
    assert isinstance(data, dict) and result.exit_code == 0, result.stderr
    assert sorted(f["code"] for f in data["findings"]) == ["FULL_REPOSITORY_COUNT", "UNKNOWN_ROUTE_PEER"]
    assert "1 full repository (QM3)" in data["findings"][0]["message"]
    default_store = Path(
        str(run_cli(["db", "current", "-o", "json"]).json()["url"]).removeprefix("sqlite:///")
    )  # type: ignore[index]
    default_store.unlink(missing_ok=True)  # `db current` itself may create it; validate must not need it
    assert run_cli(["validate", "--file", str(tmp_path / "mq"), "-o", "json"]).exit_code == 0
    assert not default_store.exists() and not default_store.parent.joinpath("mqctl.db-wal").exists()
    # a store named (MQCTL_DB), even one that is not a store at all, is not read either
    junk = tmp_path / "junk.db"
    junk.write_text("not a database")
    monkeypatch.setenv("MQCTL_DB", f"sqlite:///{junk}")
    again = run_cli(["validate", "--file", str(tmp_path / "mq"), "-o", "json"])
    assert (
        again.exit_code == 0
        and again.json()
        == run_cli(
            ["validate", "--file", str(tmp_path / "mq"), "-o", "json"], db=f"sqlite:///{tmp_path / 'x.db'}"
        ).json()
    )
    assert junk.read_text() == "not a database" and not (tmp_path / "x.db").exists()


def test_model_findings_point_at_the_imported_file_and_line(tmp_path: Path) -> None:
    script = tmp_path / "QM1.mqsc"
    script.write_text("* QM1\n\nDEFINE TOPIC(SPORT) TOPICSTR('/Sport/#')\n")
    data = run_cli(["validate", "--file", str(script), "-o", "json"]).json()
    assert isinstance(data, dict)
    assert data["findings"][0]["source"] == {"file": str(script), "line": 3}


# -- options, exit codes and output formats: the same whatever the database, so on SQLite only -------------


@pytest.fixture
def lite(sqlite_url: str) -> Cli:
    def invoke(*args: str, stdin: str | None = None) -> Result:
        return run_cli(list(args), db=sqlite_url, stdin=stdin)

    return invoke


def test_fail_on_select_ignore_and_usage_errors(lite: Cli, tmp_path: Path) -> None:
    mqsc(lite, "QM1", "DEFINE TOPIC(T) TOPICSTR('/a/#')\n")  # one warning
    assert lite("validate").exit_code == 0  # default --fail-on error
    assert lite("validate", "--fail-on", "warning").exit_code == 1
    assert lite("validate", "--fail-on", "info").exit_code == 1
    assert lite("validate", "--ignore", "MQC020", "--fail-on", "info").exit_code == 0
    assert lite("validate", "--select", "NO_FULL_REPOSITORY", "--fail-on", "info").exit_code == 0
    assert lite("validate", "--select", "mqc020,no_full_repository", "--fail-on", "warning").exit_code == 1
    for args in (
        ["--select", "NOPE"],
        ["--fail-on", "fatal"],
        ["-o", "yaml"],
        ["--file", str(tmp_path / "none")],
    ):
        result = lite("validate", *args)
        assert result.exit_code == 2, (args, result.stderr)
        assert "Traceback" not in result.stderr


def test_a_store_problem_is_exit_3(tmp_path: Path) -> None:
    foreign = tmp_path / "foreign.db"
    engine = create_engine(f"sqlite:///{foreign}")
    with engine.begin() as conn:
        conn.execute(text("CREATE TABLE t (x INTEGER)"))
    engine.dispose()
    result = run_cli(["validate"], db=f"sqlite:///{foreign}")
    assert result.exit_code == 3 and "not an mqctl store" in result.stderr
    # --file does not read the store: the files alone are validated (here: none, so bad input)
    assert run_cli(["validate", "--file", str(tmp_path)], db=f"sqlite:///{foreign}").exit_code == 2


def scenario(cli: Cli, tmp_path: Path) -> Path:
    """An error without a file (no full repository), a warning, an info, and an import error with a line,
    in one folder of files (given to --file as ``bad.parent``)."""
    (tmp_path / "QM1.mqsc").write_text(
        member("CL1", "QM1") + "DEFINE TOPIC(T) TOPICSTR('/a/#') CLUSTER(CL1) CLROUTE(TOPICHOST)\n"
    )
    bad = tmp_path / "QM2.mqsc"
    bad.write_text("DEFINE TOPIC(X) WILDCARD(NOPE)\n")
    return bad


def test_text_report_groups_by_severity_with_a_summary(lite: Cli, tmp_path: Path) -> None:
    bad = scenario(lite, tmp_path)
    result = lite("validate", "--file", str(bad.parent))
    assert result.exit_code == 1
    out = result.stdout
    assert out.index("Errors (2)") < out.index("Warnings (1)") < out.index("Information (1)")
    assert re.search(r"^  MQC013 NO_FULL_REPOSITORY  Cluster CL1 ", out, re.M)
    assert f"at {bad}:1" in out
    assert re.search(r"error\s.*\s2\s", out) and re.search(r"info\s.*\s1\s", out)
    assert "FAILED: 2 finding(s) at or above error." in out
    assert "PASSED" in lite("validate", "--select", "MQC020").stdout


def test_json_shape(lite: Cli, tmp_path: Path) -> None:
    data = lite("validate", "--file", str(scenario(lite, tmp_path).parent), "-o", "json").json()
    assert isinstance(data, dict) and list(data) == ["findings", "summary"]
    assert data["summary"] == {"error": 2, "warning": 1, "info": 1}
    assert [f["severity"] for f in data["findings"]] == ["error", "error", "warning", "info"]
    for f in data["findings"]:
        assert list(f) == JSON_KEYS
        assert isinstance(f["objects"], list) and isinstance(f["nodes"], list)
        assert f["source"] is None or (set(f["source"]) == {"file", "line"})


# SARIF 2.1.0 (OASIS), the parts mqctl writes: required properties and their types (§3.13 sarifLog,
# §3.14 run, §3.18-19 tool/toolComponent, §3.49 reportingDescriptor, §3.50 reportingConfiguration,
# §3.11 message / multiformatMessageString, §3.27 result, §3.28 location, §3.29 physicalLocation,
# §3.4 artifactLocation, §3.30 region, §3.33 logicalLocation).
LEVELS = {"none", "note", "warning", "error"}


def _text(obj: Any, markdown: bool = False) -> None:
    assert isinstance(obj, dict) and isinstance(obj["text"], str) and obj["text"]
    if markdown and "markdown" in obj:
        assert isinstance(obj["markdown"], str)


def _location(loc: Any) -> None:
    assert isinstance(loc, dict) and ("physicalLocation" in loc or "logicalLocations" in loc)
    if "id" in loc:
        assert isinstance(loc["id"], int) and loc["id"] >= -1
    if "physicalLocation" in loc:
        physical = loc["physicalLocation"]
        uri = physical["artifactLocation"]["uri"]
        assert isinstance(uri, str) and uri and "\\" not in uri
        if "region" in physical:
            assert isinstance(physical["region"]["startLine"], int) and physical["region"]["startLine"] >= 1
    for logical in loc.get("logicalLocations", []):
        assert isinstance(logical["fullyQualifiedName"], str) and isinstance(logical.get("kind", ""), str)


def check_sarif(log: Any) -> None:
    assert isinstance(log, dict) and isinstance(log["$schema"], str) and log["$schema"].startswith("https://")
    assert log["version"] == "2.1.0" and isinstance(log["runs"], list) and len(log["runs"]) == 1
    run = log["runs"][0]
    driver = run["tool"]["driver"]
    assert isinstance(driver["name"], str) and driver["name"]
    rules = driver["rules"]
    assert isinstance(rules, list) and len({r["id"] for r in rules}) == len(rules)
    for rule in rules:
        assert isinstance(rule["id"], str) and isinstance(rule["name"], str)
        _text(rule["shortDescription"])
        _text(rule["fullDescription"])
        _text(rule["help"], markdown=True)
        assert rule["defaultConfiguration"]["level"] in LEVELS
    assert isinstance(run["results"], list)
    for result in run["results"]:
        _text(result["message"])
        assert isinstance(result["ruleIndex"], int) and rules[result["ruleIndex"]]["id"] == result["ruleId"]
        assert result["level"] in LEVELS
        assert isinstance(result["locations"], list) and result["locations"]  # code scanning needs one
        for loc in [*result["locations"], *result.get("relatedLocations", [])]:
            _location(loc)
        assert all(
            isinstance(k, str) and isinstance(v, str) for k, v in result["partialFingerprints"].items()
        )


def test_sarif(lite: Cli, tmp_path: Path) -> None:
    bad = scenario(lite, tmp_path)
    result = lite("validate", "--file", str(bad.parent), "-o", "sarif")
    assert result.exit_code == 1
    log = result.json()
    check_sarif(log)
    assert isinstance(log, dict)
    run = log["runs"][0]
    assert [r["id"] for r in run["tool"]["driver"]["rules"]] == [r.id for r in RULES]
    by_rule = {r["ruleId"]: r for r in run["results"]}
    assert by_rule["MQC013"]["level"] == "error" and by_rule["MQC007"]["level"] == "note"
    located = by_rule["MQC033"]["locations"][0]["physicalLocation"]
    region = {"startLine": 1, "startColumn": 1}
    assert located == {"artifactLocation": {"uri": Path(bad).as_uri()}, "region": region}
    # a cluster has no definition: its finding is placed at its member's CLUSRCVR channel (issue 37)
    anchor = by_rule["MQC013"]["locations"][0]["physicalLocation"]
    assert anchor == {
        "artifactLocation": {"uri": (tmp_path / "QM1.mqsc").as_uri()},
        "region": {"startLine": 1},
    }
    assert by_rule["MQC013"]["properties"]["objects"] == ["cluster CL1"]
    only = lite("validate", "--select", "MQC020", "-o", "sarif").json()
    check_sarif(only)
    assert isinstance(only, dict) and [r["id"] for r in only["runs"][0]["tool"]["driver"]["rules"]] == [
        "MQC020"
    ]


def test_sarif_uris_of_relative_files_stay_relative(
    lite: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "mq").mkdir()
    (tmp_path / "mq" / "QM1.mqsc").write_text("DEFINE TOPIC(\n")
    monkeypatch.chdir(tmp_path)
    log = lite("validate", "--file", "mq", "-o", "sarif").json()
    check_sarif(log)
    assert isinstance(log, dict)
    [result] = log["runs"][0]["results"]
    assert result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "mq/QM1.mqsc"


def test_junit(lite: Cli, tmp_path: Path) -> None:
    bad = scenario(lite, tmp_path)
    result = lite("validate", "--file", str(bad.parent), "-o", "junit", "--fail-on", "warning")
    assert result.exit_code == 1 and result.stdout.startswith("<?xml")
    root = ET.fromstring(result.stdout)
    assert root.tag == "testsuites"
    [suite] = root.findall("testsuite")
    cases = suite.findall("testcase")
    failed = [c for c in cases if c.find("failure") is not None]
    assert int(suite.get("tests", "")) == len(cases) == len(RULES) - 4 + 4  # 4 findings of 4 rules
    assert int(suite.get("failures", "")) == len(failed) == 3  # two errors and a warning; the info passes
    info = next(c for c in cases if c.get("classname") == "mqctl.validate.MQC007")
    assert info.find("failure") is None and "SINGLE_TOPIC_HOST" in (info.findtext("system-out") or "")
    imported = next(c for c in failed if c.get("classname") == "mqctl.validate.MQC033")
    assert imported.get("file") == str(bad) and imported.get("line") == "1"
    assert imported.find("failure").get("type") == "IMPORT_ERROR"  # type: ignore[union-attr]


# -- documentation -----------------------------------------------------------------------------------------------


def test_docs_have_a_page_per_rule_citing_its_sources() -> None:
    rules_md = (REPO / "docs" / "rules.md").read_text()
    pages = re.split(r"^## ", rules_md, flags=re.M)[1:]
    by_heading = {page.splitlines()[0].strip(): page for page in pages}
    for rule in RULES:
        page = by_heading.get(f"{rule.id} {rule.code}")
        assert page is not None, f"docs/rules.md has no '## {rule.id} {rule.code}'"
        assert f"**{rule.severity}**" in page, rule.code
        if rule.code != "IMPORT_ERROR":
            assert re.search(r"semantics §\d|reference `00\d", page), f"{rule.code} cites no source"
        assert "**Fix**" in page, rule.code


def test_ci_doc_runs_validate_on_files_and_uploads_sarif() -> None:
    ci_md = (REPO / "docs" / "ci.md").read_text()
    assert "mqctl validate --file" in ci_md and "-o sarif" in ci_md
    assert "upload-sarif" in ci_md or "codequality" in ci_md or "sast" in ci_md
