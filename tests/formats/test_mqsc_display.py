"""runmqsc's DISPLAY as its users expect it: cluster topics (TCLUSTER, TOPIC … CLUSINFO/TYPE), cluster
queue managers (CLUSQMGR), subscriptions with MQ's attribute names; and a rejected script that never
echoes a change as made and counts syntax errors as runmqsc does."""

from __future__ import annotations

import itertools
import re

from mqctl.domain.model import Channel, ChannelType, Node, NodeState, Topology
from mqctl.formats.mqsc import MqscRun, apply_mqsc
from tests.domain import mq_builders as mq
from tests.render import topologies


def run(text: str, view: Topology | None = None, *, me: str = "QM3", keep_going: bool = False) -> MqscRun:
    counter = itertools.count(1000)
    state = NodeState(node=Node(me))
    if view is not None:
        state.memberships = {m.cluster: m for m in view.memberships if m.node == me}
        state.topics = {t.name: t for t in view.topics if t.node == me}
        state.channels = {c.name: c for c in view.channels if c.node == me}
    return apply_mqsc(
        state, text, file="t.mqsc", inserts={}, next_seq=lambda: next(counter),
        continue_on_error=keep_going, cluster_view=None if view is None else lambda clusters: view,
    )  # fmt: skip


def records(result: MqscRun) -> list[dict[str, str]]:
    """Each DISPLAY record (a header line and its KEY(value) lines) as a dict."""
    out: list[dict[str, str]] = []
    for line in result.lines:
        if line.startswith("AMQ8"):
            out.append({})
        elif line.startswith("   ") and not re.match(r"\s+\d+ : ", line) and out:
            out[-1].update((k, v.strip()) for k, v in re.findall(r"(\w+)\((.*?)\)(?=\s{2,}|\s*$)", line))
    return [r for r in out if r]  # replies such as "AMQ8690I: IBM MQ topic created." hold no attributes


def test_tcluster_lists_the_cluster_topics_a_queue_manager_knows() -> None:
    """Reference 001: QM3, in both clusters, knows TB (CLUSTER1, on QM1) and TC (CLUSTER2, on QM4)."""
    found = records(run("DISPLAY TCLUSTER(*)", topologies.overlap()))
    assert [(r["TOPIC"], r["TYPE"], r["CLUSTER"], r["CLUSQMGR"], r["CLSTATE"]) for r in found] == [
        ("TB", "CLUSTER", "CLUSTER1", "QM1", "ACTIVE"),
        ("TC", "CLUSTER", "CLUSTER2", "QM4", "ACTIVE"),
    ]
    assert found[0]["TOPICSTR"] == "/Sport/Football" and found[0]["CLROUTE"] == "DIRECT"
    only = records(run("DIS TCLUSTER(T*) CLUSTER(CLUSTER2)", topologies.overlap()))
    assert [r["TOPIC"] for r in only] == ["TC"]
    assert [r["TOPIC"] for r in records(run("DISPLAY TCLUSTER(*)", topologies.overlap(), me="QM1"))] == ["TB"]


def test_topic_clusinfo_adds_cluster_topics_and_sees_the_script_so_far() -> None:
    view = topologies.overlap()
    text = "DEFINE TOPIC(MINE) TOPICSTR('/Mine') CLUSTER(CLUSTER2)\nDEFINE TOPIC(LOC) TOPICSTR('/L')\n"
    both = records(run(text + "DISPLAY TOPIC(*) CLUSINFO", view))
    assert [(r["TOPIC"], r["TYPE"], r.get("CLUSQMGR")) for r in both] == [
        ("LOC", "LOCAL", None), ("MINE", "LOCAL", None),
        ("MINE", "CLUSTER", "QM3"), ("TB", "CLUSTER", "QM1"), ("TC", "CLUSTER", "QM4"),
    ]  # fmt: skip
    cluster = records(run(text + "DISPLAY TOPIC(*) TYPE(CLUSTER)", view))
    assert cluster == records(run(text + "DISPLAY TCLUSTER(*)", view))
    assert records(run(text + "DISPLAY TOPIC(*) TYPE(ALL)", view)) == both
    assert [r["TOPIC"] for r in records(run(text + "DISPLAY TOPIC(*)", view))] == ["LOC", "MINE"]
    bad = run("DISPLAY TOPIC(*) TYPE(REMOTE)", view)
    assert bad.syntax_errors == 1 and "expected one of LOCAL, CLUSTER, ALL" in bad.errors[0].message


def test_clstate_marks_conflicts_invalid_and_a_non_member_definition_pending() -> None:
    view = mq.topo(
        [mq.qm(n) for n in ("QM1", "QM3", "QM4")],
        mq.cluster("CL1", "QM1", "QM3"), mq.cluster("CL2", "QM4", "QM3"),
        mq.topic("QM1", "OLD", "/Sport", "CL1"), mq.topic("QM4", "NEW", "/Sport", "CL2"),
    )  # fmt: skip
    found = records(run("DEFINE TOPIC(ELSEWHERE) TOPICSTR('/E') CLUSTER(CL9)\nDISPLAY TCLUSTER(*)", view))
    assert [(r["TOPIC"], r["CLSTATE"]) for r in found] == [
        ("ELSEWHERE", "PENDING"), ("NEW", "ACTIVE"), ("OLD", "INVALID"),
    ]  # fmt: skip


def test_without_a_cluster_view_only_the_queue_managers_own_definitions_are_known() -> None:
    found = records(run("DEFINE TOPIC(T) TOPICSTR('/t') CLUSTER(CL)\nDISPLAY TCLUSTER(*)"))
    assert [(r["TOPIC"], r["CLUSQMGR"], r["CLSTATE"]) for r in found] == [("T", "QM3", "PENDING")]
    skipped = run("DISPLAY TCLUSTER(*)")
    assert skipped.not_modelled == 1 and skipped.failed == 0


def test_clusqmgr_shows_each_member_and_how_it_is_known() -> None:
    view = topologies.demo()
    view.channels = [
        Channel(f"QM{i}", f"TO.QM{i}", ChannelType.CLUSRCVR, cluster="USA", conname=f"qm{i}(1414)",
                clwlrank=i % 3)
        for i in range(1, 7)
    ]  # fmt: skip
    text = "DEFINE CHANNEL(TO.QM1) CHLTYPE(CLUSSDR) CLUSTER(USA) CONNAME('qm1(1414)')\n"
    text += "DEFINE CHANNEL(TO.NEW) CHLTYPE(CLUSSDR) CLUSTER(USA) CONNAME('new(1414)')\nDISPLAY CLUSQMGR(*)"
    found = records(run(text, view, me="QM5"))
    assert [(r["CLUSQMGR"], r["CHANNEL"], r["DEFTYPE"], r["QMTYPE"]) for r in found] == [
        ("QM1", "TO.QM1", "CLUSSDRB", "REPOS"),
        ("QM2", "TO.QM2", "CLUSSDRA", "REPOS"),
        ("QM3", "TO.QM3", "CLUSSDRA", "NORMAL"),
        ("QM4", "TO.QM4", "CLUSSDRA", "NORMAL"),
        ("QM5", "TO.QM5", "CLUSRCVR", "NORMAL"),
        ("QM6", "TO.QM6", "CLUSSDRA", "NORMAL"),
        ("SYSTEM.TEMPQMGR.new(1414)", "TO.NEW", "CLUSSDR", "REPOS"),
    ]
    assert (found[0]["CLUSTER"], found[0]["CONNAME"], found[0]["CLWLRANK"]) == ("USA", "qm1(1414)", "1")
    assert [r["CLUSQMGR"] for r in records(run("DISPLAY CLUSQMGR(QM1) CHANNEL(TO.*)", view, me="QM5"))] == [
        "QM1"
    ]


def test_display_sub_uses_mq_attribute_names() -> None:
    (sub,) = records(run("DEFINE SUB(S1) TOPICSTR('/a/#') SELECTOR('x > 1') DEST(Q1)\nDISPLAY SUB(S1)"))
    assert sub == {
        "SUB": "S1", "TOPICSTR": "/a/#", "TOPICOBJ": "", "DISTYPE": "RESOLVED", "DEST": "Q1", "DESTQMGR": "",
        "SELECTOR": "x > 1", "SELTYPE": "STANDARD", "DESTCLAS": "PROVIDED", "DURABLE": "YES", "SUBSCOPE": "ALL",
        "SUBTYPE": "ADMIN", "WSCHEMA": "TOPIC",
    }  # fmt: skip


def test_a_rejected_script_echoes_no_change_as_made() -> None:
    result = run(
        "DEFINE TOPIC(A) TOPICSTR('/a')\nDISPLAY TOPIC(A)\nDEFINE TOPIC(B) TOPICSTR('/b') CLROUTE(X)"
    )
    assert not result.applied
    assert "AMQ8690I: IBM MQ topic created." not in result.lines
    assert result.lines[1] == "mqctl: valid, but not applied: the script is rejected."
    assert (
        result.lines[2] == "     2 : DISPLAY TOPIC(A)"
        and result.lines[3] == "AMQ8633I: Display topic details."
    )
    assert "One command has a syntax error." in result.lines  # CLROUTE(X): AMQ8405I, as runmqsc
    assert result.lines[-1].startswith("The script is rejected: no command was applied")
    kept = run("DEFINE TOPIC(A) TOPICSTR('/a')\nDEFINE TOPIC(B) TOPICSTR('/a')", keep_going=True)
    assert kept.applied and kept.lines[1] == "AMQ8690I: IBM MQ topic created."
    assert "No commands have a syntax error." in kept.lines  # runmqsc says so beside a refused command
    assert "One valid MQSC command could not be processed." in kept.lines
