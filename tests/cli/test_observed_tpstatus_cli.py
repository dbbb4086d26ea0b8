"""DISPLAY TPSTATUS and DISPLAY PUBSUB TYPE(ALL) read into observations and findings (issue 31), through
the real CLI on SQLite and PostgreSQL.

The shapes are IBM's (runmqsc on Multiplatforms): DISPLAY TPSTATUS answers one ``AMQ8754I: Display topic
status details.`` block per topic node, with the node's resolved attributes (``TOPICSTR``, ``ADMIN`` —
the topic object the node takes its configuration from, blank when none —, ``CLUSTER``, ``CLROUTE`` —
NONE when the node is in no cluster —, ``PUBSCOPE``, ``SUBSCOPE``, ``PUB``, ``SUB``, ``DURSUB``,
``DEFPSIST``, ``PUBCOUNT``, ``SUBCOUNT`` …); DISPLAY PUBSUB TYPE(ALL) one ``AMQ8723I: Display pub/sub
status details.`` block for the queue manager itself (``TYPE(LOCAL)``) and one per hierarchy relation
(``TYPE(PARENT)``/``TYPE(CHILD)``, ``QMNAME``, ``STATUS`` ACTIVE, STARTING, STOPPING, INACTIVE, ERROR,
REFUSED, COMPAT).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from tests.cli.test_observed_cli import load, reconcile
from tests.conftest import Result
from tests.helpers import ok

Cli = Callable[..., Result]


def tpstatus_capture(qmgr: str, clroute: str, admin: str = "SPORTS") -> str:
    return f"""5724-H72 (C) Copyright IBM Corp. 1994, 2024.
Starting MQSC for queue manager {qmgr}.


     1 : DISPLAY TPSTATUS('#') TYPE(TOPIC) ALL
AMQ8754I: Display topic status details.
   TOPICSTR()                              ADMIN(SYSTEM.BASE.TOPIC)
   MDURMDL(SYSTEM.DURABLE.MODEL.QUEUE)     MNDURMDL(SYSTEM.NDURABLE.MODEL.QUEUE)
   DEFPSIST(NO)                            DEFPRTY(0)
   DEFPRESP(SYNC)                          DURSUB(YES)
   PUB(ENABLED)                            SUB(ENABLED)
   PMSGDLV(ALLDUR)                         NPMSGDLV(ALLAVAIL)
   RETAINED(NO)                            MCAST(DISABLED)
   COMMINFO(SYSTEM.DEFAULT.COMMINFO.MULTICAST)
   PUBCOUNT(0)                             SUBCOUNT(0)
   PUBSCOPE(ALL)                           SUBSCOPE(ALL)
   CLUSTER( )                              CLROUTE(NONE)
   USEDLQ(YES)
AMQ8754I: Display topic status details.
   TOPICSTR(/Sport)                        ADMIN({admin})
   MDURMDL(SYSTEM.DURABLE.MODEL.QUEUE)     MNDURMDL(SYSTEM.NDURABLE.MODEL.QUEUE)
   DEFPSIST(NO)                            DEFPRTY(0)
   DEFPRESP(SYNC)                          DURSUB(YES)
   PUB(ENABLED)                            SUB(ENABLED)
   PUBCOUNT(0)                             SUBCOUNT(1)
   PUBSCOPE(ALL)                           SUBSCOPE(ALL)
   CLUSTER(EU)                             CLROUTE({clroute})
   USEDLQ(YES)
     2 : DISPLAY PUBSUB TYPE(ALL) ALL
AMQ8723I: Display pub/sub status details.
   QMNAME({qmgr})                             TYPE(LOCAL)
   STATUS(ACTIVE)                          SUBCOUNT(5)
   TPCOUNT(9)
2 MQSC commands read.
No commands have a syntax error.
All valid MQSC commands were processed.
"""


MODEL = [
    ["define", "qmgr", "QM1", "--cluster", "EU", "--full-repository", "EU"],
    ["define", "qmgr", "QM2", "--cluster", "EU"],
    [
        "define",
        "topic",
        "SPORTS",
        "--qmgr",
        "QM1",
        "--topicstr",
        "/Sport",
        "--cluster",
        "EU",
        "--clroute",
        "topichost",
    ],
    ["define", "sub", "FANS", "--qmgr", "QM2", "--topicstr", "/Sport/#"],
]


def test_two_members_resolving_a_cluster_topic_apart_is_a_finding(cli: Cli, tmp_path: Path) -> None:
    load(cli, MODEL)
    qm1, qm2 = tmp_path / "QM1.txt", tmp_path / "QM2.txt"
    qm1.write_text(tpstatus_capture("QM1", "TOPICHOST"))
    qm2.write_text(tpstatus_capture("QM2", "TOPICHOST"))
    ok(cli("import", "display", str(qm1), str(qm2)))
    _, agreeing = reconcile(cli)
    assert not [f for f in agreeing if f["code"] == "TOPIC_RESOLVED_APART"]
    kept = {c["qmgr"]: c for c in ok(cli("display", "observed", "-o", "json")).json()}
    statuses = [o for o in kept["QM2"]["observations"] if o["kind"] == "TPSTATUS"]
    assert [o["name"] for o in statuses] == ["", "/Sport"]
    assert (
        statuses[1]["attributes"]["ADMIN"] == "SPORTS" and statuses[1]["attributes"]["CLROUTE"] == "TOPICHOST"
    )
    # QM2 took another definition of SPORTS: DIRECT
    qm2.write_text(tpstatus_capture("QM2", "DIRECT", admin="SPORTS"))
    ok(cli("import", "display", str(qm2)))
    code, findings = reconcile(cli)
    apart = [f for f in findings if f["code"] == "TOPIC_RESOLVED_APART"]
    assert code == 1 and len(apart) == 1, findings
    assert apart[0]["id"] == "MQR014" and apart[0]["severity"] == "error"
    assert "CLROUTE(TOPICHOST) on QM1, CLROUTE(DIRECT) on QM2" in apart[0]["message"]
    assert apart[0]["nodes"] == ["QM1", "QM2"] and apart[0]["subscriptions"] == ["FANS"]
    assert apart[0]["pattern"] == "/Sport"


def test_hierarchy_relations_against_the_model(cli: Cli, tmp_path: Path) -> None:
    load(cli, [["define", "qmgr", "HUB"], ["define", "qmgr", "LEAF", "--parent", "HUB"]])
    hub = tmp_path / "HUB.txt"
    hub.write_text(
        tpstatus_capture("HUB", "NONE").replace(
            "   TPCOUNT(9)\n",
            "   TPCOUNT(9)\nAMQ8723I: Display pub/sub status details.\n"
            "   QMNAME(STRAY)                           TYPE(CHILD)\n   STATUS(ACTIVE)\n",
        )
    )
    leaf = tmp_path / "LEAF.txt"
    leaf.write_text(tpstatus_capture("LEAF", "NONE"))
    ok(cli("import", "display", str(hub), str(leaf)))
    _, findings = reconcile(cli)
    found = sorted((f["code"], f["nodes"]) for f in findings if "HIERARCHY" in f["code"])
    assert found == [
        ("HIERARCHY_RELATION_MISSING", ["HUB", "LEAF"]),
        ("HIERARCHY_RELATION_MISSING", ["HUB", "LEAF"]),
        ("HIERARCHY_RELATION_UNKNOWN", ["HUB", "STRAY"]),
    ]
    messages = " / ".join(f["message"] for f in findings)
    assert "LEAF's DISPLAY PUBSUB shows no PARENT relation with HUB" in messages
    assert "HUB's DISPLAY PUBSUB shows no CHILD relation with LEAF" in messages
