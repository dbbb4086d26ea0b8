"""Applying MQSC to a NodeState: the real corpus, semantics of each modelled command, errors, round trip."""

from __future__ import annotations

import copy
import dataclasses
import itertools
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

import pytest

from mqctl.domain.model import ChannelType, ClRoute, Node, NodeState, Scope, SubScope, WSchema
from mqctl.formats.mqsc import MqscRun, apply_mqsc, dump_header_qmgr, write_mqsc
from tests.conftest import needs_shared

CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus"
MQSC_FILES = sorted((CORPUS / "mqsc").glob("*.mqsc")) if (CORPUS / "mqsc").is_dir() else []


def seq() -> Callable[[], int]:
    counter = itertools.count(1)
    return lambda: next(counter)


def empty(name: str = "QM1") -> NodeState:
    return NodeState(node=Node(name=name))


def run(
    text: str,
    state: NodeState | None = None,
    *,
    keep_going: bool = False,
    inserts: dict[str, str] | None = None,
) -> tuple[NodeState, MqscRun]:
    st = state if state is not None else empty()
    result = apply_mqsc(
        st,
        text,
        file="t.mqsc",
        inserts={"QMNAME": st.node.name, **(inserts or {})},
        next_seq=seq(),
        continue_on_error=keep_going,
    )
    return st, result


def ok(text: str, state: NodeState | None = None, **inserts: str) -> NodeState:
    st, result = run(text, state, inserts=inserts)
    assert result.error_count == 0, [e.one_line() for e in result.errors]
    return st


UNCOMPARED = ("seq", "source_file", "source_line")


def without_seq(state: NodeState) -> dict[str, object]:
    """The model without definition sequences and source positions, for comparisons."""

    def strip(obj: object) -> object:
        if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
            return {
                f.name: strip(getattr(obj, f.name))
                for f in dataclasses.fields(obj)
                if f.name not in UNCOMPARED
            }
        if isinstance(obj, dict):
            return {k: strip(v) for k, v in obj.items()}
        if isinstance(obj, list):
            return [strip(v) for v in obj]
        return obj

    result = strip(state)
    assert isinstance(result, dict)
    return result


@needs_shared("corpus", "mqsc")
@pytest.mark.parametrize("path", MQSC_FILES, ids=lambda p: p.name[:60])
def test_every_real_corpus_file_applies_without_error(path: Path) -> None:
    st, result = run(path.read_text(encoding="utf-8"))
    assert result.error_count == 0, [e.one_line() for e in result.errors]
    assert result.applied
    assert result.read == result.processed + result.not_modelled + result.skipped
    assert result.not_modelled > 0
    assert result.lines[-5].endswith("MQSC commands read.")
    # what was not modelled is named, not only counted
    assert (
        result.lines[-1].startswith("Not modelled: ")
        and sum(result.unmodelled.values()) >= result.not_modelled
    )


@needs_shared("corpus", "mqsc", "mq-uniform-clusters__pubsub__simple-admin__QMConfig__UniCluster.mqsc")
def test_corpus_pubsub_file_gives_topic_and_composed_subscription() -> None:
    path = CORPUS / "mqsc" / "mq-uniform-clusters__pubsub__simple-admin__QMConfig__UniCluster.mqsc"
    if not path.exists():
        pytest.skip("corpus file missing")
    st = ok(path.read_text(encoding="utf-8"), AUTOCL="UNICLUSTER", CONNAME="host(1414)")
    assert st.topics["TESTTOP"].topicstr == "demo/testtopic"
    sub = st.subscriptions["TESTSUB"]
    assert (sub.topicstr, sub.topicobj, sub.dest, sub.durable) == (
        "demo/testtopic",
        "TESTTOP",
        "DESTQ1",
        True,
    )
    assert st.channels["UNICLUSTER.QM1"].cluster == "UNICLUSTER"
    assert set(st.memberships) == {"UNICLUSTER"}


def test_topic_attributes_and_echo_output() -> None:
    st, result = run(
        "DEFINE TOPIC(SCORES) TOPICSTR('/Sport/Scores') CLUSTER(DEMO) CLROUTE(TOPICHOST) SUBSCOPE(QMGR)"
    )
    topic = st.topics["SCORES"]
    assert (topic.topicstr, topic.cluster, topic.clroute, topic.subscope) == (
        "/Sport/Scores",
        "DEMO",
        ClRoute.TOPICHOST,
        Scope.QMGR,
    )
    assert topic.seq == 1
    assert result.clusters_referenced == {"DEMO"}
    assert (
        result.lines[0]
        == "     1 : DEFINE TOPIC(SCORES) TOPICSTR('/Sport/Scores') CLUSTER(DEMO) CLROUTE(TOPICHOST) SUBSCOPE(QMGR)"
    )
    assert result.lines[1] == "AMQ8690I: IBM MQ topic created."
    assert result.lines[-3:-1] == [
        "No commands have a syntax error.",
        "All valid MQSC commands were processed.",
    ]


def test_define_existing_needs_replace_and_replace_resets_attributes() -> None:
    st = ok("DEFINE TOPIC(T) TOPICSTR('a') CLUSTER(C) DESCR('one')")
    _, result = run("DEFINE TOPIC(T) TOPICSTR('a')", st)
    assert result.failed == 1 and "REPLACE" in result.errors[0].message
    assert st.topics["T"].cluster == "C"
    ok("DEFINE TOPIC(T) TOPICSTR('a') DESCR('two') REPLACE", st)
    assert (st.topics["T"].cluster, st.topics["T"].descr) == ("", "two")
    _, result = run("DEFINE TOPIC(T) TOPICSTR('a') NOREPLACE", st)
    assert result.failed == 1


def test_alter_keeps_other_attributes_and_takes_a_new_sequence() -> None:
    st = ok("DEFINE TOPIC(T) TOPICSTR('a') CLUSTER(C)")
    first = st.topics["T"].seq
    st2, _ = run("ALTER TOPIC(T) WILDCARD(BLOCK)", st)
    counter = itertools.count(100)
    apply_mqsc(st, "ALTER TOPIC(T) PUBSCOPE(QMGR)", file=None, inserts={}, next_seq=lambda: next(counter))
    assert st.topics["T"].cluster == "C" and st.topics["T"].pubscope is Scope.QMGR
    assert st.topics["T"].seq == 100 > first


def test_alter_and_delete_of_missing_objects_fail_but_system_objects_are_skipped() -> None:
    _, result = run(
        "ALTER TOPIC(NOPE) DESCR('x')\nDELETE SUB(NOPE)\nALTER NAMELIST(SYSTEM.QPUBSUB.QUEUE.NAMELIST) NAMES(A)"
    )
    assert result.failed == 2 and result.not_modelled == 1


def test_topicobj_and_topicstr_compose_with_a_slash() -> None:
    st = ok(
        "DEFINE TOPIC(SPORT) TOPICSTR('/Sport')\n"
        "DEFINE SUB(S1) TOPICOBJ(SPORT) TOPICSTR('Football/#') DEST(Q)\n"
        "DEFINE SUB(S2) TOPICOBJ(SPORT)\n"
        "DEFINE SUB('mixed Case') TOPICSTR('x/+') SELECTOR('a > 1') SUBSCOPE(QMGR) WSCHEMA(TOPIC)\n"
    )
    assert st.subscriptions["S1"].topicstr == "/Sport/Football/#"
    assert st.subscriptions["S2"].topicstr == "/Sport"
    sub = st.subscriptions["mixed Case"]
    assert (sub.selector, sub.subscope, sub.wschema, sub.durable) == (
        "a > 1",
        SubScope.QMGR,
        WSchema.TOPIC,
        True,
    )


def test_clusrcvr_channels_make_memberships_and_repos_full_repositories() -> None:
    st = ok(
        "DEFINE NAMELIST(NL) NAMES(C2,C3)\n"
        "DEFINE CHANNEL(TO.QM1) CHLTYPE(CLUSRCVR) CLUSTER(C1) CONNAME('h(1414)')\n"
        "DEFINE CHANNEL(TO.QM1.NL) CHLTYPE(CLUSRCVR) CLUSNL(NL)\n"
        "DEFINE CHANNEL(TO.FR) CHLTYPE(CLUSSDR) CLUSTER(C9) CONNAME('fr')\n"
        "ALTER QMGR REPOS(C1)\n"
    )
    assert set(st.memberships) == {"C1", "C2", "C3"}
    assert st.memberships["C1"].full_repository and not st.memberships["C2"].full_repository
    assert st.channels["TO.FR"].chltype is ChannelType.CLUSSDR
    ok("ALTER NAMELIST(NL) NAMES(C2)", st)
    assert set(st.memberships) == {"C1", "C2"}
    ok("DELETE CHANNEL(TO.QM1.NL)", st)
    assert set(st.memberships) == {"C1"}
    ok("DELETE CHANNEL(TO.QM1)", st)
    assert set(st.memberships) == {"C1"} and st.memberships["C1"].full_repository
    ok("ALTER QMGR REPOS(' ')", st)
    assert st.memberships == {}


def test_qmgr_attributes() -> None:
    st = ok("ALTER QMGR PARENT(PARENT_QM) PSMODE(enabled) PSCLUS(DISABLED) DESCR('hub') CHLAUTH(DISABLED)")
    assert (st.node.parent, st.node.psmode, st.node.psclus, st.node.descr) == (
        "PARENT_QM",
        "ENABLED",
        "DISABLED",
        "hub",
    )
    ok("ALTER QMGR PARENT('')", st)
    assert st.node.parent is None


def test_display_prints_attributes_like_runmqsc() -> None:
    _, result = run("DEFINE TOPIC(T) TOPICSTR('a/b')\nDIS TOPIC(T)\nDISPLAY TOPIC(*)\nDIS QMGR PSMODE")
    assert "AMQ8633I: Display topic details." in result.lines
    assert any(line.startswith("   TOPIC(T)") and "TYPE(LOCAL)" in line for line in result.lines)
    assert any("TOPICSTR(a/b)" in line for line in result.lines)
    assert result.processed == 4


def test_unmodelled_commands_are_counted_and_skipped() -> None:
    _, result = run(
        "DEFINE QLOCAL(Q) REPLACE\nSET AUTHREC PROFILE('X') OBJTYPE(TOPIC) AUTHADD(PUB)\n"
        "DEFINE CHANNEL(S) CHLTYPE(SVRCONN)\nSTART CHANNEL(S)\nDELETE CHANNEL(S)"
    )
    assert (result.not_modelled, result.error_count) == (5, 0)
    assert result.lines[-2].startswith("5 commands not modelled")
    assert result.lines[-1] == (
        "Not modelled: DEFINE CHANNEL (1), DEFINE QLOCAL (1), DELETE CHANNEL (1), SET AUTHREC (1), START CHANNEL (1)."
    )


BROKEN = [
    ("DEFINE TOPIC(T) TOPICSTR('a') CLROUTE(SIDEWAYS)", 1, 39, "CLROUTE"),
    ("DEFINE TOPIC(T) TOPICSTR('a') FROBNICATE(1)", 1, 31, "unknown parameter"),
    ("DEFINE TOPIC(T)", 1, 1, "TOPICSTR"),
    ("DEFINE TOPIC(T) TOPICSTR('a') WILDCARD", 1, 31, "needs a value"),
    ("DEFINE TOPIC(T) TOPICSTR('a') REPLACE(YES)", 1, 39, "no value"),
    ("DEFINE TOPIC('bad name!') TOPICSTR('a')", 1, 14, "not allowed"),
    ("DEFINE TOPIC(T) TOPICSTR('a') CLUSTER('no good')", 1, 39, "not allowed"),
    ("DEFINE TOPIC(T) TOPICSTR('a') DESCR('x','y')", 1, 41, "one value"),
    ("DEFINE TOPIC(T) TOPICSTR('a')\nDEFINE TOPIC(U) TOPICSTR('a')", 2, 17, "already used"),
    ("DEFINE TOPIC(T) TOPICSTR('a')\nALTER TOPIC(T) TOPICSTR('b')", 2, 16, "cannot be altered"),
    ("ALTER TOPIC(MISSING) DESCR('x')", 1, 13, "not found"),
    ("DELETE TOPIC(MISSING)", 1, 14, "not found"),
    ("DEFINE SUB(S) DEST(Q)", 1, 1, "TOPICSTR"),
    ("DEFINE SUB(S) TOPICOBJ(NOPE)", 1, 24, "not found"),
    ("DEFINE SUB(S) TOPICSTR('a') SUBSCOPE(ASPARENT)", 1, 38, "SUBSCOPE"),
    ("DEFINE SUB(S) TOPICSTR('a') SELECTOR('a >')", 1, 42, "expected"),
    ("DEFINE SUB(S) TOPICSTR('a/x#')\nALTER SUB(S) SELECTOR('a = 1')", 2, 14, "cannot be altered"),
    ("DEFINE SUB(S) TOPICSTR('a')\nDEFINE SUB(S) TOPICSTR('b')", 2, 12, "already exists"),
    ("DEFINE CHANNEL(C) CLUSTER(X)", 1, 1, "CHLTYPE"),
    ("DEFINE CHANNEL(C) CHLTYPE(WORMHOLE)", 1, 27, "CHLTYPE"),
    ("DEFINE CHANNEL(C) CHLTYPE(CLUSRCVR) CLUSTER(A) CLUSNL(B)", 1, 48, "not both"),
    ("DEFINE CHANNEL(ABCDEFGHIJKLMNOPQRSTUVWXYZ) CHLTYPE(CLUSRCVR)", 1, 16, "at most 20"),
    ("DEFINE CHANNEL(C) CHLTYPE(CLUSRCVR) CLUSTER(A) BOGUS(1)", 1, 48, "unknown parameter"),
    (
        "DEFINE CHANNEL(C) CHLTYPE(CLUSRCVR)\nALTER CHANNEL(C) CHLTYPE(CLUSSDR) CLUSTER(A)",
        2,
        18,
        "not CLUSSDR",
    ),
    ("ALTER CHANNEL(NOPE) CHLTYPE(CLUSRCVR) CLUSTER(A)", 1, 15, "not found"),
    ("ALTER QMGR PSMODE(SOMETIMES)", 1, 19, "PSMODE"),
    ("ALTER QMGR REPOSNL(NOPE)", 1, 20, "not found"),
    ("ALTER QMGR PARENT('bad parent')", 1, 19, "not allowed"),
    ("DEFINE NAMELIST(NL) NAMES('bad name')", 1, 27, "not allowed"),
    ("DEFINE NAMELIST(NL)\nDEFINE NAMELIST(NL)", 2, 17, "already exists"),
    ("DIS TOPIC(NOPE)", 1, 11, "not found"),
    ("DEFINE TOPIC(T) +\n   TOPICSTR('a') +\n   CLUSTER(C) +\n", 3, 15, "continu"),
    ("DEFINE TOPIC(T) TOPICSTR('a) CLUSTER(C)", 1, 26, "closing"),
    ("DEFINE TOPIC(T) TOPICSTR('a') TOPICSTR('b')", 1, 31, "repeated"),
]


@pytest.mark.parametrize(("text", "line", "column", "words"), BROKEN)
def test_broken_scripts_fail_with_position_and_leave_state_unchanged(
    text: str, line: int, column: int, words: str
) -> None:
    st = ok("DEFINE TOPIC(BASE) TOPICSTR('base')\nDEFINE CHANNEL(TO.ME) CHLTYPE(CLUSRCVR) CLUSTER(K)")
    before = copy.deepcopy(st)
    _, result = run(text, st)
    assert result.error_count >= 1 and not result.applied
    err = result.first_error
    assert err is not None
    assert (err.file, err.line, err.column) == ("t.mqsc", line, column), err.one_line()
    assert words in err.one_line(), err.one_line()
    assert st == before


def test_continue_on_error_applies_the_valid_commands() -> None:
    st, result = run(
        "DEFINE TOPIC(A) TOPICSTR('a')\nDEFINE TOPIC(B) TOPICSTR('b') CLROUTE(X)\n"
        "DEFINE TOPIC(C) TOPICSTR('a')\n",
        keep_going=True,
    )
    assert result.applied and result.failed == 1 and result.syntax_errors == 1  # a bad value is syntax
    assert set(st.topics) == {"A"}
    assert "One command has a syntax error." in result.lines
    assert "One valid MQSC command could not be processed." in result.lines


def test_round_trip_through_a_dmpmqcfg_style_dump() -> None:
    st = ok(
        "DEFINE NAMELIST(CLUS) NAMES(C2,C3) DESCR('it''s mine')\n"
        "DEFINE CHANNEL(TO.QM1) CHLTYPE(CLUSRCVR) CLUSTER(C1) CONNAME('host(1414)')\n"
        "DEFINE CHANNEL(TO.QM1B) CHLTYPE(CLUSRCVR) CLUSNL(CLUS)\n"
        "DEFINE CHANNEL(TO.FR) CHLTYPE(CLUSSDR) CLUSTER(C1) CONNAME('fr(1414)')\n"
        "ALTER QMGR PARENT(TOP) PSCLUS(DISABLED) REPOSNL(CLUS) DESCR('q')\n"
        "DEFINE TOPIC(SPORT) TOPICSTR('/Sport') CLUSTER(C1) CLROUTE(TOPICHOST) WILDCARD(BLOCK) PROXYSUB(FORCE)\n"
        "DEFINE TOPIC(NEWS) TOPICSTR('News') PUBSCOPE(QMGR) SUBSCOPE(ALL) PUB(DISABLED) SUB(ENABLED)\n"
        "DEFINE SUB(S1) TOPICOBJ(SPORT) TOPICSTR('Football/#') DEST(Q1) DESTQMGR(QM2) SELECTOR('x = ''y''')\n"
        "DEFINE SUB('lower s') TOPICSTR('USA/*') WSCHEMA(CHAR) SUBSCOPE(QMGR)\n"
    )
    when = datetime(2026, 11, 22, 10, 0, 0)
    dump = write_mqsc(st, generated=when)
    assert dump_header_qmgr(dump) == "QM1"
    assert dump.startswith("* Script generated on 2026-11-22   at 10.00.00\n")
    assert "DEFINE TOPIC('SPORT') +" in dump and "   REPLACE" in dump
    again = ok(dump, empty())
    assert without_seq(again) == without_seq(st)
    assert write_mqsc(again, generated=when) == dump


def test_round_trip_with_several_full_repositories_and_no_matching_namelist() -> None:
    st = ok("DEFINE NAMELIST(NL) NAMES(A,B)\nALTER QMGR REPOSNL(NL)\nALTER NAMELIST(NL) NAMES(A)")
    assert {m.cluster for m in st.memberships.values() if m.full_repository} == {"A", "B"}
    again = ok(write_mqsc(st), empty())
    assert {m.cluster for m in again.memberships.values() if m.full_repository} == {"A", "B"}


def test_dump_header_qmgr() -> None:
    header = (
        "* Script generated on 2026-11-22   at 10.00.00\n* Script generated by user 'mqm' on host 'h'\n"
        "* Queue manager name: QM.EAST\n* Queue manager platform: UNIX\n"
    )
    assert dump_header_qmgr(header) == "QM.EAST"
    assert dump_header_qmgr("DEFINE TOPIC(T) TOPICSTR('a')") is None


def test_display_of_every_modelled_object_type() -> None:
    _, result = run(
        "DEFINE NAMELIST(NL) NAMES(A,B)\nDEFINE CHANNEL(C) CHLTYPE(CLUSRCVR) CLUSNL(NL)\n"
        "DEFINE SUB(S) TOPICSTR('a/#') DEST(Q)\nDIS NL(NL)\nDIS CHL(C)\nDIS SUB(S)\nDIS SUB(*)\nDIS CHL(OTHER)"
    )
    assert result.error_count == 0 and result.not_modelled == 1
    assert any("NAMES(A,B)" in line for line in result.lines)
    assert any("CHLTYPE(CLUSRCVR)" in line for line in result.lines)
    assert sum("AMQ8096I" in line for line in result.lines) == 2
    assert result.clusters_referenced == {"A", "B"}


def test_insert_skipped_with_a_warning_and_counted() -> None:
    st, result = run("DEFINE CHANNEL(TO.+QMNAME+) CHLTYPE(CLUSRCVR) CLUSTER(+AUTOCL+)")
    assert (result.skipped, result.error_count, st.channels) == (1, 0, {})
    assert "+AUTOCL+" in result.warnings[0]
    st, result = run(
        "DEFINE CHANNEL(TO.+QMNAME+) CHLTYPE(CLUSRCVR) CLUSTER(+AUTOCL+)", inserts={"AUTOCL": "UC"}
    )
    assert set(st.channels) == {"TO.QM1"} and set(st.memberships) == {"UC"}


def test_a_script_never_drops_a_membership_no_channel_gave() -> None:
    """Memberships defined outside MQSC (`define membership`) survive channel changes in a script."""
    from mqctl.domain.model import Membership

    state = empty()
    state.memberships["MANUAL"] = Membership("QM1", "MANUAL", False, 1)
    state = ok("DEFINE CHANNEL(TO.QM1) CHLTYPE(CLUSRCVR) CLUSTER(CL1)", state)
    assert set(state.memberships) == {"MANUAL", "CL1"}
    state = ok("DELETE CHANNEL(TO.QM1)", state)
    assert set(state.memberships) == {"MANUAL"}
