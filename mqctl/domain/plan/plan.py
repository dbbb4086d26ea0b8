"""The plan: the chosen order cut into steps, each with its edits, its rollback and its verdict."""

from __future__ import annotations

from dataclasses import dataclass, field

from mqctl.domain.diff.objects import ObjectChange
from mqctl.domain.diff.probes import Probe
from mqctl.domain.errors import InputError
from mqctl.domain.model import Dialect, NodeState, Topology, node_states
from mqctl.domain.objects.edits import Kind
from mqctl.domain.plan.actions import Action, cut
from mqctl.domain.plan.edits import Edit, edits_between, name_of
from mqctl.domain.plan.search import Order, PlanEntry, States, Verdict, choose
from mqctl.domain.plan.states import empty_like

__all__ = ["Plan", "PlanEntry", "Step", "make_plan"]

FOOTPRINTS_FROM = 2000
"""Probes from which a state routes only those derived from a change it has applied and one it has not
(an approximation: diff's premise that a probe's answer changes only with the changes it is derived
from does not hold for every combination of changes; below, every state routes every probe)."""


@dataclass
class Step:
    number: int
    node: str
    dialect: Dialect
    actions: list[Action]
    edits: list[Edit]
    """What the step applies on its node, in order."""
    rollback: list[Edit]
    """What brings the node back to the state before the step."""
    verdict: Verdict
    """The state while the step stands (the last step's is AFTER: nothing lost or gained)."""
    applied: frozenset[int]
    """Every action applied once the step is."""
    order: tuple[int, ...] = ()
    """The actions applied once the step is, in the order applied."""
    restart: bool = False
    """The node's side came from auto-configuration files (a Kubernetes YAML's MQSC, which the container
    applies at every start): the step lands when the pod restarts (semantics §9)."""

    @property
    def quiesce(self) -> bool:
        """Quiesce the publishers that lose deliveries while the step stands (apply it when they are idle)."""
        return bool(self.verdict.lost)


@dataclass
class Plan:
    steps: list[Step]
    order: Order
    actions: list[Action]
    naive: Verdict
    """The naive order — each node's whole change at once, node by node in name order — summed."""
    naive_steps: list[str]
    states: States
    probes: list[Probe] = field(default_factory=list)

    @property
    def lost(self) -> list[tuple[Step, PlanEntry]]:
        return [(s, e) for s in self.steps for e in s.verdict.lost]

    @property
    def safe(self) -> bool:
        """Some order has no transient loss (and passes through no refused state)."""
        return not self.order.refused and not self.lost

    def topology_after(self, number: int) -> Topology:
        """The model once step ``number`` (from 1; 0: BEFORE) is applied."""
        if not 0 <= number <= len(self.steps):
            raise InputError(f"is not a step of this plan (1 to {len(self.steps)})", attribute="--step")
        if not number:
            return self.states.topology(frozenset())
        step = self.steps[number - 1]
        return self.states.topology(step.applied, step.order)


def _keep(after: Topology) -> object:
    def keep(name: str, state: NodeState) -> bool:
        """A node the change removes stays in a state until its last object is gone."""
        return name in after.nodes or any(
            (
                state.topics,
                state.subscriptions,
                state.channels,
                state.namelists,
                state.routes,
                state.memberships,
            )
        )

    return keep


def make_plan(
    before: Topology,
    after: Topology,
    probes: list[Probe],
    *,
    objects: list[ObjectChange] | None = None,
    causes: dict[Probe, tuple[int, ...]] | None = None,
    restart: frozenset[str] = frozenset(),
) -> Plan:
    """``objects`` and ``causes`` (``diff``'s object changes and, per probe, those it was derived from):
    with ``FOOTPRINTS_FROM`` probes or more, a state routes only the probes derived from a change it has
    applied and one it has not. ``restart``: the nodes whose definitions come from auto-configuration
    files (their steps land when the pod restarts)."""
    old, new = node_states(before), node_states(after)
    for name, state in new.items():
        old.setdefault(name, empty_like(state.node))
    for name, state in old.items():
        new.setdefault(name, empty_like(state.node))
    actions = cut(old, new)
    keep = _keep(after)
    footprints = None
    if objects is not None and causes is not None and len(probes) >= FOOTPRINTS_FROM:
        footprints = _footprints(actions, objects, causes, probes)
    states = States(old, after, before, actions, probes, keep=keep, footprints=footprints)  # type: ignore[arg-type]
    order = choose(states)
    steps = _steps(states, _merged(states, order.steps))
    for step in steps:
        step.restart = step.node in restart
    naive, naive_steps = _naive(states)
    return Plan(steps, order, actions, naive, naive_steps, states, list(probes))


def _footprints(
    actions: list[Action],
    objects: list[ObjectChange],
    causes: dict[Probe, tuple[int, ...]],
    probes: list[Probe],
) -> list[frozenset[int]]:
    """Per probe, the actions that apply the changes it was derived from (empty: not known, always
    routed)."""
    by_key: dict[tuple[str, str, str], set[int]] = {}
    cluster_actions: dict[str, set[int]] = {}
    for a in actions:
        for e in a.edits:
            kind = "route-selector" if e.kind is Kind.ROUTE_SELECTOR else str(e.kind)
            if e.kind is Kind.NODE:  # diff names a queue manager "qmgr", an EMS server "server"
                by_key.setdefault(("server", a.node, a.node), set()).add(a.index)
            name = a.node if e.kind is Kind.NODE else name_of(e)
            by_key.setdefault((kind, a.node, name), set()).add(a.index)
            if kind in ("channel", "qmgr", "namelist"):
                cluster_actions.setdefault(a.node, set()).add(a.index)
    of_change: list[frozenset[int] | None] = []
    for c in objects:
        if c.kind == "membership":
            found = cluster_actions.get(c.node)
        else:
            found = by_key.get((c.kind, c.node, c.name))
        of_change.append(frozenset(found) if found else None)
    out: list[frozenset[int]] = []
    for p in probes:
        sets = [of_change[i] for i in causes.get(p, ())]
        if not sets or any(s is None for s in sets):
            out.append(frozenset())
        else:
            out.append(frozenset().union(*(s for s in sets if s is not None)))
    return out


def _merged(states: States, moves: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
    """Consecutive moves on one node are one step, unless the later one must wait for the earlier."""
    out: list[tuple[int, ...]] = []
    for move in moves:
        node = states.actions[move[0]].node
        waits = any(states.actions[i].waits for i in move)
        if out and states.actions[out[-1][0]].node == node and not waits:
            out[-1] = out[-1] + move
        else:
            out.append(move)
    return out


def _steps(states: States, moves: list[tuple[int, ...]]) -> list[Step]:
    steps: list[Step] = []
    applied: frozenset[int] = frozenset()
    order: tuple[int, ...] = ()
    previous = states.node_states(applied)
    for number, move in enumerate(moves, start=1):
        node = states.actions[move[0]].node
        now_applied = applied | frozenset(move)
        order += tuple(sorted(move))
        try:
            now = states.node_states(now_applied, order)
        except InputError:
            now = previous  # a refused state: its verdict says so; it has no commands of its own
        b, a = previous[node], now[node]
        steps.append(
            Step(
                number,
                node,
                a.node.dialect,
                [states.actions[i] for i in sorted(move)],
                edits_between(b, a),
                edits_between(a, b),
                states.verdict(now_applied, order),
                now_applied,
                order,
            )
        )
        applied, previous = now_applied, now
    return steps


def _naive(states: States) -> tuple[Verdict, list[str]]:
    """Each node's whole change at once, node by node in name order: what a reviewer applying the diff
    as it reads would do."""
    total = Verdict()
    applied: frozenset[int] = frozenset()
    nodes = sorted({a.node for a in states.actions})
    for node in nodes:
        applied |= frozenset(a.index for a in states.actions if a.node == node)
        verdict = states.verdict(applied)
        total.lost += verdict.lost
        total.gained += verdict.gained
        if verdict.refused and total.refused is None:
            total.refused = f"{node}: {verdict.refused}"
    return total, nodes
