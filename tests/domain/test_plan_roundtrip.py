"""`plan` property tests over generated changes, both dialects (issue 34): each step's script, applied in
order to BEFORE through mqctl's own runmqsc and tibemsadmin doors, gives AFTER's model exactly; each
step's rollback gives back the state before it; and each step's verdict is what ``explain`` says on the
model the doors built for that step, for every subscription."""

from __future__ import annotations

import itertools

from hypothesis import given
from hypothesis import strategies as st

from mqctl.domain.diff import diff_objects
from mqctl.domain.diff.routing import outcomes
from mqctl.domain.explanation import Publication
from mqctl.domain.messages import Message
from mqctl.domain.model import Dialect, Node, NodeState, Topology, node_states
from mqctl.domain.plan.states import join
from mqctl.domain.routing import explain
from mqctl.formats.ems import apply_tibemsadmin
from mqctl.formats.mqsc import apply_mqsc
from mqctl.services.plan import PlanReport, plan_for, step_texts

_seq = itertools.count(1)
QMS = ("QM1", "QM2", "QM3")
SERVERS = ("A", "B", "C")
TOPICS = {"T1": "/a", "T2": "/a/b", "T3": "/b"}


def _run(state: NodeState, text: str) -> None:
    """A script through the door; it must apply whole."""
    if state.node.dialect is Dialect.MQ:
        run = apply_mqsc(state, text, file=None, inserts={}, next_seq=lambda: next(_seq))
    else:
        run = apply_tibemsadmin(state, text, file=None, next_seq=lambda: next(_seq))
    assert run.applied and not run.errors, (text, [e.one_line() for e in run.errors])


def _model(scripts: dict[str, str], dialect: Dialect) -> Topology:
    states = {}
    for name, text in scripts.items():
        states[name] = NodeState(node=Node(name, dialect=dialect))
        _run(states[name], text)
    return join(states)


@st.composite
def mq_side(draw: st.DrawFn) -> dict[str, str]:
    scripts = {}
    for i, qm in enumerate(QMS):
        lines = [f"DEFINE CHANNEL(C.{qm}) CHLTYPE(CLUSRCVR) CLUSTER(C) CONNAME('{qm.lower()}')"]
        if i < 2:
            lines.append("ALTER QMGR REPOS(C)")
        if i == 2 and draw(st.booleans()):  # QM3 leaves, or never joined
            lines = []
        for name, topicstr in TOPICS.items():
            if draw(st.integers(0, 2)) == 0:
                continue
            cluster = draw(st.sampled_from(["", "C"]))
            clroute = draw(st.sampled_from(["DIRECT", "TOPICHOST"]))
            lines.append(
                f"DEFINE TOPIC({name}) TOPICSTR('{topicstr}') CLUSTER('{cluster}') CLROUTE({clroute})"
            )
        for n, pattern in enumerate(
            draw(st.lists(st.sampled_from(["/a/x", "/a/b/x", "/b/#", "/a/#"]), max_size=2))
        ):
            selector = draw(st.sampled_from(["", " SELECTOR('amount > 5')", " SELECTOR('amount < 3')"]))
            lines.append(f"DEFINE SUB(S{n}.{qm}) TOPICSTR('{pattern}') DEST(Q){selector}")
        scripts[qm] = "\n".join(lines) + "\n"
    return scripts


@st.composite
def ems_side(draw: st.DrawFn) -> dict[str, str]:
    selectors = ["", "country='USA'", "country='USA' AND amount > 100", "amount > 5"]
    scripts = {}
    for server in SERVERS:
        lines = []
        for pattern in ("orders", "orders.*", "news"):
            if draw(st.booleans()):
                props = draw(st.sampled_from(["global", "global,maxbytes=10MB", "maxmsgs=5"]))
                lines.append(f"create topic {pattern} {props}")
        for peer in SERVERS:
            if peer == server or (server, peer) == ("A", "C") or (server, peer) == ("C", "A"):
                continue
            if not draw(st.integers(0, 3)):
                continue
            words = [f"create route {peer} url=tcp://{peer.lower()}:7222"]
            chosen = draw(st.sampled_from(selectors))
            if chosen:
                direction = draw(st.sampled_from(["outgoing", "incoming"]))
                words.append(f'{direction}_topic=orders selector="{chosen}"')
            lines.append(" ".join(words))
        scripts[server] = "\n".join(lines) + "\n"
    return scripts


def _check(before: Topology, after: Topology) -> None:
    plan, probes = plan_for(before, after)
    texts = step_texts(plan)
    report = PlanReport(None, None, plan, probes, texts)  # type: ignore[arg-type]
    states = node_states(before)
    ends = [_answers(t, plan.probes) for t in (before, after)]
    for step, text in zip(plan.steps, texts, strict=True):
        script, rollback = report.file_names(step)
        assert script.startswith(f"{step.number:02d}-{step.node}.")
        node = states[step.node]
        was = join({step.node: node})
        _run(node, "\n".join(text.commands) + "\n")
        now = join({step.node: node})
        back = NodeState(
            node=node.node, **{k: v for k, v in node_states(now)[step.node].__dict__.items() if k != "node"}
        )
        _run(back, "\n".join(text.rollback) + "\n")
        assert diff_objects(join({step.node: back}), was) == [], (step.number, text.rollback)
        if step.number < len(plan.steps) and step.verdict.refused is None:
            here = _answers(join(states), plan.probes)
            lost, gained = _verdict(plan.probes, ends, here)
            assert lost == {(e.node, e.subscription, e.probe) for e in step.verdict.lost}
            assert gained == {(e.node, e.subscription, e.probe) for e in step.verdict.gained}
    assert diff_objects(join(states), after) == []


def _answers(t: Topology, probes: list) -> list[dict]:  # type: ignore[type-arg]
    out = []
    for p in probes:
        if p.publisher not in t.nodes:
            out.append({})
            continue
        props = dict(p.properties)
        headers = dict(Message.create(props, {}).headers)
        out.append(outcomes(explain(t, Publication(p.publisher, p.topic, props, headers))))
    return out


def _verdict(probes: list, ends: list[list[dict]], here: list[dict]) -> tuple[set, set]:  # type: ignore[type-arg]
    """Lost: both ends deliver, this state does not; gained: neither end delivers, this state does."""
    lost, gained = set(), set()
    for i, probe in enumerate(probes):
        was, now, it = ends[0][i], ends[1][i], here[i]
        for key in set(was) | set(now) | set(it):
            b, a, h = _gets(was.get(key)), _gets(now.get(key)), _gets(it.get(key))
            if b and a and not h:
                lost.add((key[0], key[1], probe))
            elif h and not b and not a:
                gained.add((key[0], key[1], probe))
    return lost, gained


def _gets(o: object) -> bool:
    return o is not None and o.receives  # type: ignore[attr-defined]


@given(mq_side(), mq_side())
def test_mq_steps_through_runmqsc_give_after(before: dict[str, str], after: dict[str, str]) -> None:
    _check(_model(before, Dialect.MQ), _model(after, Dialect.MQ))


@given(ems_side(), ems_side())
def test_ems_steps_through_tibemsadmin_give_after(before: dict[str, str], after: dict[str, str]) -> None:
    _check(_model(before, Dialect.EMS), _model(after, Dialect.EMS))
