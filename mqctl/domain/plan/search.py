"""Route every state a rollout passes through, and choose the order with the least transient loss.

A state is a set of applied actions (``actions``: they commute). Its verdict compares, per probe and
subscription, what the state delivers with what BEFORE and AFTER deliver: *lost* when both ends deliver
and the state does not (a transient loss), *gained* when neither end delivers and the state does.
A state is *refused* when an action's edit is refused by the object rules (what the product refuses)
or when validate finds an error in it that neither end has (a cluster topic conflict, a hierarchy
loop, an EMS route path the zone rules forbid...): no order passes through it.

The order: a step applies one or more actions of one node. Up to ``EXACT_LIMIT`` actions the search is
exact: a shortest path (Dijkstra) over the sets of applied actions, a step adding one action or every
action of one node then available, the cost of a path the sum over its intermediate states of (lost,
gained), then its number of steps, ties broken by the actions' order — the same input gives the same
plan. Beyond, a greedy walk over the same steps (the cheapest next state first), which is
deterministic but may miss the least loss; the plan says which search it used.
"""

from __future__ import annotations

import copy
import heapq
import itertools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from mqctl.domain.diff.probes import Probe
from mqctl.domain.diff.routing import Outcome, answer, reachable, sliced
from mqctl.domain.errors import InputError
from mqctl.domain.model import Dialect, NodeState, Topology
from mqctl.domain.plan.actions import Action
from mqctl.domain.plan.apply import apply_edits
from mqctl.domain.plan.states import join
from mqctl.domain.routing import RoutingModel
from mqctl.domain.validation import validate
from mqctl.domain.validation.catalogue import Severity

EXACT_LIMIT = 10
"""Actions up to which the search is exact."""


@dataclass(frozen=True, slots=True)
class PlanEntry:
    """One publication a subscription loses or gains while a state stands."""

    subscription: str
    node: str
    probe: Probe
    outcome: Outcome
    """What the state does with it (the reason it is not delivered, or the path it now takes)."""

    def to_json(self) -> dict[str, object]:
        return {
            "subscription": self.subscription,
            "node": self.node,
            "publisher": self.probe.publisher,
            "topic": self.probe.topic,
            "properties": {k: v.value for k, v in self.probe.properties},
            "outcome": self.outcome.to_json(),
        }


@dataclass
class Verdict:
    lost: list[PlanEntry] = field(default_factory=list)
    gained: list[PlanEntry] = field(default_factory=list)
    refused: str | None = None
    """Why no order may pass through this state (None: it may)."""

    @property
    def cost(self) -> tuple[int, int]:
        return (len(self.lost), len(self.gained))


class States:
    """The states of one change: built, validated and routed once each (by their set of actions)."""

    def __init__(
        self,
        before: dict[str, NodeState],
        after_topology: Topology,
        before_topology: Topology,
        actions: list[Action],
        probes: Iterable[Probe],
        *,
        keep: Callable[[str, NodeState], bool],
        footprints: list[frozenset[int]] | None = None,
    ) -> None:
        self.base = before
        self.actions = actions
        self.keep = keep
        self.probes = list(probes)
        self.full = frozenset(range(len(actions)))
        self.nodes = reachable((before_topology, after_topology), {p.publisher for p in self.probes})
        self._seq = itertools.count(_top_seq(before_topology, after_topology) + 1)
        self._dialects = {
            n.name: n.dialect for t in (before_topology, after_topology) for n in t.nodes.values()
        }
        self.routed = 0
        self._groups: dict[tuple[str, str], list[int]] = {}
        for i, p in enumerate(self.probes):
            self._groups.setdefault((p.publisher, p.topic), []).append(i)
        self._compiled: dict[str, Any] = {}
        self._select_cache: dict[tuple[str, int], bool] = {}
        ends = [sliced(t, self.nodes) for t in (before_topology, after_topology)]
        self._errors = set().union(*(_errors(t) for t in ends))
        self._end_models = [RoutingModel(t) for t in ends]
        self._ends: list[dict[int, dict[tuple[str, str], Outcome]]] = [{}, {}]
        self._footprints = footprints
        self._cache: dict[tuple[frozenset[int], tuple[int, ...]], Verdict] = {}

    def dialect_of(self, name: str) -> Dialect | None:
        return self._dialects.get(name)

    def next_seq(self) -> int:
        return next(self._seq)

    def node_states(self, applied: Iterable[int], order: Sequence[int] = ()) -> dict[str, NodeState]:
        """Every node's state once ``applied`` (in ``order``, else in their own order: the same state but
        for which of two conflicting definitions is the most recent); ``InputError`` when an edit is
        refused."""
        states = dict(self.base)
        wanted = set(applied)
        sequence = [i for i in order if i in wanted] or sorted(wanted)
        for i in sequence:
            action = self.actions[i]
            if states[action.node] is self.base[action.node]:
                states[action.node] = copy.deepcopy(self.base[action.node])
            apply_edits(states[action.node], action.edits, next_seq=self.next_seq, dialect_of=self.dialect_of)
        return states

    def topology(self, applied: Iterable[int], order: Sequence[int] = ()) -> Topology:
        states = self.node_states(applied, order)
        return join({n: s for n, s in states.items() if self.keep(n, s)})

    def verdict(self, applied: frozenset[int], order: Sequence[int] = ()) -> Verdict:
        """The state's verdict (both ends: nothing lost or gained, by definition). The search judges a
        set of actions applied in their own order; the plan's steps, in the order chosen."""
        if not applied or applied == self.full:
            return Verdict()
        key = (applied, tuple(i for i in order if i in applied))
        found = self._cache.get(key)
        if found is not None:
            return found
        try:
            topology = sliced(self.topology(applied, order), self.nodes)
        except InputError as err:
            verdict = Verdict(refused=f"refused by the product's rules: {err.one_line()}")
        else:
            new = sorted(_errors(topology) - self._errors)
            if new:
                verdict = Verdict(refused=f"validate: {new[0][0]}: {new[0][2]}")
            else:
                self.routed += 1
                verdict = self._judge(self._outcomes(RoutingModel(topology), self._relevant(applied)))
        self._cache[key] = verdict
        return verdict

    def _relevant(self, applied: frozenset[int]) -> list[int]:
        """The probes whose answer may differ from both ends in this state: derived from some change
        applied and some not (diff's premise: a probe's answer changes only with the changes it is
        derived from; a probe of no known change is always routed)."""
        if self._footprints is None:
            return list(range(len(self.probes)))
        return [i for i, fp in enumerate(self._footprints) if not fp or (fp & applied and fp - applied)]

    def _outcomes(self, model: RoutingModel, indexes: list[int]) -> dict[int, dict[tuple[str, str], Outcome]]:
        """Every probe's answer on one state. The MQ probes of one publisher on one topic differ only in
        their properties, which reach a subscription only through its own selector (semantics §9; as
        ``diff`` judges them): one is routed, the others judged by the selectors, and one more is routed
        only where a delivery is still to be seen; any disagreement routes the whole group."""
        out: dict[int, dict[tuple[str, str], Outcome]] = {}
        selectors = {(s.node, s.name): s.selector for s in model.topology.subscriptions if s.selector}
        groups: dict[tuple[str, str], list[int]] = {}
        for i in indexes:
            p = self.probes[i]
            groups.setdefault((p.publisher, p.topic), []).append(i)
        for indexes in groups.values():
            publisher = self.probes[indexes[0]].publisher
            node = model.topology.nodes.get(publisher)
            judged = None
            if len(indexes) > 1 and node is not None and node.dialect is Dialect.MQ:
                judged = self._judged(model, selectors, indexes)
            if judged is None:
                judged = [answer(model, self.probes[i]) for i in indexes]
            for i, found in zip(indexes, judged, strict=True):
                out[i] = found
        return out

    def _selects(self, text: str, i: int) -> bool:
        key = (text, i)
        found = self._select_cache.get(key)
        if found is None:
            from mqctl.domain.messages import Message
            from mqctl.domain.selector import compile_selector

            compiled = self._compiled.get(text)
            if compiled is None:
                compiled = self._compiled[text] = compile_selector(text)
            props = dict(self.probes[i].properties)
            message = Message.create(props, dict(Message.create(props, {}).headers))
            found = self._select_cache[key] = compiled.evaluate(message) is True
        return found

    def _judged(
        self, model: RoutingModel, selectors: dict[tuple[str, str], str], indexes: list[int]
    ) -> list[dict[tuple[str, str], Outcome]] | None:
        refused = "SELECTOR_FALSE"
        try:
            first = answer(model, self.probes[indexes[0]])
        except Exception:  # noqa: BLE001 - the whole group goes through the engine, which says it
            return None
        delivered: dict[tuple[str, str], Outcome] = {}
        out: list[dict[tuple[str, str], Outcome]] = []
        try:
            for i in indexes:
                mine: dict[tuple[str, str], Outcome] = {}
                for key, outcome in first.items():
                    text = selectors.get(key)
                    if text is None or (not outcome.receives and outcome.reason != refused):
                        mine[key] = outcome
                    elif not self._selects(text, i):
                        mine[key] = Outcome("not_delivered", reason=refused)
                    else:
                        if outcome.receives:
                            delivered.setdefault(key, outcome)
                        if key not in delivered:
                            seen = answer(model, self.probes[i])
                            if seen.keys() != first.keys() or not seen[key].receives:
                                return None
                            delivered.update((k, o) for k, o in seen.items() if o.receives)
                        mine[key] = delivered[key]
                out.append(mine)
        except Exception:  # noqa: BLE001 - a selector mqctl cannot evaluate: the engine answers
            return None
        return out

    def _judge(self, state: dict[int, dict[tuple[str, str], Outcome]]) -> Verdict:
        out = Verdict()
        missing = [i for i in state if i not in self._ends[0]]
        for side in (0, 1):
            self._ends[side].update(self._outcomes(self._end_models[side], missing))
        before, after = self._ends
        for i in sorted(state):
            probe = self.probes[i]
            here, was, now = state[i], before[i], after[i]
            for key in sorted(set(here) | set(was) | set(now)):
                b, a, s = (_gets(x.get(key)) for x in (was, now, here))
                if b and a and not s:
                    out.lost.append(PlanEntry(key[1], key[0], probe, here.get(key) or _GONE))
                elif s and not b and not a:
                    out.gained.append(PlanEntry(key[1], key[0], probe, here[key]))
        return out


_GONE = Outcome("not_delivered", reason="NOT_DEFINED")


def _gets(outcome: Outcome | None) -> bool:
    return outcome is not None and outcome.receives


def _errors(topology: Topology) -> set[tuple[str, tuple[str, ...], str]]:
    return {(f.rule.id, f.objects, f.message) for f in validate(topology) if f.severity is Severity.ERROR}


def _top_seq(*topologies: Topology) -> int:
    top = 0
    for t in topologies:
        for kind in (
            t.memberships,
            t.topics,
            t.subscriptions,
            t.channels,
            t.namelists,
            t.routes,
            t.route_selectors,
        ):
            for obj in kind:
                top = max(top, obj.seq)
        for n in t.nodes.values():
            top = max(top, n.seq)
    return top


# --- the order -----------------------------------------------------------------------------------------

Step = tuple[int, ...]
"""The actions one step applies."""


@dataclass
class Order:
    steps: list[Step]
    how: str
    exhaustive: bool
    refused: bool = False
    """No order avoids a refused state: this one passes through one (named in its verdict)."""


def _moves(states: States, applied: frozenset[int]) -> list[Step]:
    """The steps possible from ``applied``: one available action, or every available action of a node."""
    ready = [a for a in states.actions if a.index not in applied and a.after <= applied]
    moves: list[Step] = [(a.index,) for a in ready]
    by_node: dict[str, list[int]] = {}
    for a in ready:
        by_node.setdefault(a.node, []).append(a.index)
    for indexes in by_node.values():
        # a step that must wait for the previous one never joins another in the same step
        together = [i for i in indexes if not states.actions[i].waits or len(indexes) == 1]
        if len(together) > 1:
            moves.append(tuple(together))
    return moves


def choose(states: States) -> Order:
    n = len(states.actions)
    if n == 0:
        return Order([], "nothing to do", True)
    if n <= EXACT_LIMIT:
        found = _dijkstra(states)
        if found is not None:
            return Order(
                found, f"exact: every order of the {n} actions considered (least transient loss)", True
            )
        walk = _greedy(states, allow_refused=True)
        return Order(
            walk, f"no order of the {n} actions avoids a state the products refuse", True, refused=True
        )
    walk = _greedy(states, allow_refused=False)
    if walk:
        return Order(walk, f"greedy over {n} actions (cheapest next state first; not proven least)", False)
    return Order(
        _greedy(states, allow_refused=True),
        f"greedy over {n} actions found no order avoiding a refused state",
        False,
        refused=True,
    )


def _dijkstra(states: States) -> list[Step] | None:
    start: frozenset[int] = frozenset()
    heap: list[tuple[tuple[int, int, int], tuple[Step, ...], frozenset[int]]] = [((0, 0, 0), (), start)]
    best: dict[frozenset[int], tuple[int, int, int]] = {start: (0, 0, 0)}
    while heap:
        cost, path, applied = heapq.heappop(heap)
        if applied == states.full:
            return list(path)
        if best.get(applied, cost) < cost:
            continue
        for move in _moves(states, applied):
            nxt = applied | frozenset(move)
            verdict = states.verdict(nxt)
            if verdict.refused is not None:
                continue
            lost, gained = verdict.cost
            new = (cost[0] + lost, cost[1] + gained, cost[2] + 1)
            if nxt not in best or new < best[nxt]:
                best[nxt] = new
                heapq.heappush(heap, (new, (*path, move), nxt))
    return None


def _greedy(states: States, *, allow_refused: bool) -> list[Step]:
    applied: frozenset[int] = frozenset()
    path: list[Step] = []
    while applied != states.full:
        options = []
        for move in _moves(states, applied):
            verdict = states.verdict(applied | frozenset(move))
            refused = verdict.refused is not None
            if refused and not allow_refused:
                continue
            options.append(((refused, *verdict.cost, -len(move)), move))
        if not options:
            return []
        _key, move = min(options)
        path.append(move)
        applied |= frozenset(move)
    return path
