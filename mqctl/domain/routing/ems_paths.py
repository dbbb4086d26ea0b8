"""Exact path search over EMS routes for one publication (semantics §6, §9 "EMS interest").

A *path* is a simple chain of servers from the publisher (never back to a server already on it) whose
every server lets T cross (T global there, or any server for a temporary topic) and which never
forwards a message over a route of the one-hop zone it arrived on. Each path has a *phase*, the §9
ranking of what it does with the message:

- ``DELIVERED``: every hop crosses;
- ``STORED``: the first hop that fails (far server down, link down) keeps the message at its near end
  (an active-active link, or an active-passive one defined on the near side);
- ``GAP``: the first failing hop is an active-passive link defined on its far side (a gap);
- ``REJECTED``: a route selector on some hop is not TRUE (judged before failures).

Paths are ranked by (phase, hops, server names): the best is ``path``; the next best delivered or stored
ones are the alternatives. The phase only grows along a path, so the ranking is monotone along
extensions, and the search is a best-first (A*) enumeration of simple paths in exact rank order:

1. *Forward*: one breadth-first pass over the states (server, one-hop zones of the arriving link,
   phase) reachable from the publisher, with their successors: O(states x degree).
2. *Backward*, per target server: the exact best (phase, hops) of any walk from each state to the
   target, by a breadth-first pass per phase over the predecessors (stopping as soon as every forward
   state has its value). This is the A* heuristic: it never overestimates a path, and it is
   consistent, so complete paths come out of the queue in exact rank order.
3. *Enumeration*: paths grow from the publisher; each expanded path pushes one lazy iterator over its
   children sorted by (phase, hops to go, name), so a heap pop yields the next best partial path and a
   complete path popped is the next best path. On networks where the best walks are simple paths (no
   one-hop detours) the heuristic is exact and each path costs about its length in pops; a meshed or
   gridded network of thousands of paths costs no more than the few it needs.

Two limits remain, both reported as a ``SEARCH_LIMIT`` warning when reached, never silently:
``STEP_LIMIT`` pops per target (only a network with one-hop zones whose walks cannot be made simple can
need more) and ``MORE_LIMIT`` further paths counted for ``more_alternatives``.
"""

from __future__ import annotations

import heapq
from collections import defaultdict, deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import IntEnum
from operator import itemgetter
from typing import cast

from mqctl.domain.explanation import MAX_ALTERNATIVES
from mqctl.domain.routing.ems_network import NO_ZONES, EmsNetwork

__all__ = ["MORE_LIMIT", "STEP_LIMIT", "Phase", "PathSearch", "TargetPaths", "shortest"]

STEP_LIMIT = 100_000
"""Partial paths expanded per target server before the search gives up (warning SEARCH_LIMIT)."""
MORE_LIMIT = 100
"""Further paths counted beyond the listed alternatives (warning SEARCH_LIMIT when there are more)."""

_Path = tuple[str, ...]
_State = tuple[str, frozenset[str], int]
"""(server, one-hop zones of the link the message arrived on, phase)."""


class Phase(IntEnum):
    """What a path does with the message; the order is the ranking of §9 (best first)."""

    DELIVERED = 0
    STORED = 1
    GAP = 2
    REJECTED = 3


@dataclass(frozen=True, slots=True)
class HopRules:
    """What decides each directed hop for this publication."""

    crossable: frozenset[str]
    """Servers T may cross (global there; every server for a temporary topic)."""
    refused: frozenset[tuple[str, str]]
    """Directed hops whose route selector is not TRUE."""
    failing: dict[tuple[str, str], Phase]
    """Directed hops that fail now, with what the first such hop does (STORED or GAP)."""

    def step(self, phase: int, x: str, y: str) -> int:
        if (x, y) in self.refused:
            return Phase.REJECTED
        if phase == Phase.DELIVERED:
            return self.failing.get((x, y), Phase.DELIVERED)
        return phase


@dataclass(frozen=True, slots=True)
class TargetPaths:
    """The answer for one target server."""

    best: _Path | None
    phase: Phase | None
    alternatives: tuple[_Path, ...] = ()
    """The next best delivered or stored paths (when ``best`` is delivered or stored)."""
    more: int = 0
    """How many further delivered or stored paths there are (a lower bound when ``limited``)."""
    limited: str | None = None
    """Which limit was reached, if any: ``"steps"`` or ``"count"``."""


class PathSearch:
    """The forward state space from the publisher, then exact per-target enumeration (module docstring)."""

    def __init__(self, network: EmsNetwork, publisher: str, rules: HopRules) -> None:
        self.publisher = publisher
        self.start: _State = (publisher, NO_ZONES, int(Phase.DELIVERED))
        self.network = network
        self.rules = rules
        self.succ: dict[_State, tuple[tuple[str, ...], tuple[_State, ...]]] = {}
        """Successors of the states asked about so far (see ``successors``)."""
        self._plain = not rules.refused and not rules.failing
        """Every hop keeps the phase: ``HopRules.step`` need not be asked."""
        self._plain_states: dict[str, _State] = {}
        self.parent: dict[_State, tuple[_State | None, int]] = {self.start: (None, 0)}
        """Breadth-first parent and discovery number: the best walk to each state, fewest hops then names."""
        self.at: dict[str, list[_State]] = defaultdict(list)
        self._walks: dict[_State, _Path | None] = {}
        """State -> its best walk when that is a simple path over bridges (``_bridged_walk``)."""
        if publisher not in rules.crossable:
            return
        # without one-hop zones and with every hop keeping the phase, a server has one state at most
        most = len(rules.crossable) if not network.has_one_hop and self._plain else None
        queue: deque[_State] = deque([self.start])
        while queue and len(self.parent) != most:
            state = queue.popleft()
            self.at[state[0]].append(state)
            for nxt in self.successors(state)[1]:
                if nxt not in self.parent:
                    self.parent[nxt] = (state, len(self.parent))
                    queue.append(nxt)
        for state in queue:
            self.at[state[0]].append(state)

    def successors(self, state: _State) -> tuple[tuple[str, ...], tuple[_State, ...]]:
        """The servers one hop on, in name order, and the state at each (made on first ask and kept)."""
        found = self.succ.get(state)
        if found is not None:
            return found
        here, arrived, phase = state
        rules, network = self.rules, self.network
        crossable, plain = rules.crossable, self._plain
        near = network.adjacency.get(here, ())
        names = near if crossable.issuperset(near) else tuple(filter(crossable.__contains__, near))
        if plain and not network.has_one_hop:  # one state per server: (server, no zones, phase)
            known = self._plain_states
            if not known:
                known.update((there, (there, NO_ZONES, phase)) for there in crossable)
            states = tuple(map(known.__getitem__, names))
        elif not network.has_one_hop:
            states = tuple((there, NO_ZONES, rules.step(phase, here, there)) for there in names)
        else:
            kept = []
            for there in names:
                zones = network.one_hop(here, there)
                if not (arrived and arrived & zones):
                    kept.append((there, (there, zones, phase if plain else rules.step(phase, here, there))))
            names = tuple(there for there, _ in kept)
            states = tuple(nxt for _, nxt in kept)
        found = self.succ[state] = (names, states)
        return found

    def reaches(self, target: str) -> bool:
        """Some walk obeying the rules leads to ``target`` (a simple path may still not exist)."""
        return target in self.at

    def paths_to(self, target: str) -> TargetPaths:
        """Best path, next best delivered or stored ones, and how many more, exactly (within the limits)."""
        if target == self.publisher or not self.reaches(target):
            return TargetPaths(None, None)
        unique = self._only_path(target)
        if unique is not None:
            return unique
        walk = _Enumeration(self, target, self._cost_to_go(target))
        best = walk.next()
        if best is None:
            return TargetPaths(None, None, limited=walk.limited)
        path, phase = best
        if phase > Phase.STORED:
            return TargetPaths(path, Phase(phase))
        walk.max_phase = Phase.STORED
        alternatives: list[_Path] = []
        more = 0
        while (found := walk.next()) is not None:
            if len(alternatives) < MAX_ALTERNATIVES:
                alternatives.append(found[0])
            elif more < MORE_LIMIT:
                more += 1
            else:
                return TargetPaths(path, Phase(phase), tuple(alternatives), more, "count")
        return TargetPaths(path, Phase(phase), tuple(alternatives), more, walk.limited)

    def _only_path(self, target: str) -> TargetPaths | None:
        """The best walk, when it is a simple path over bridges only: then it is the one path there is.

        Breadth-first order is (hops, names), so the best walk to the target is its best state's. A simple
        path whose every link is a bridge is the only simple path between its ends (the common case: EMS
        networks are trees of routes), so no enumeration is needed.
        """
        state = min(self.at[target], key=lambda s: (s[2], self.parent[s][1]))
        walk = self._bridged_walk(state)
        return None if walk is None else TargetPaths(walk, Phase(state[2]))

    def _bridged_walk(self, state: _State) -> _Path | None:
        """The best walk to ``state`` if it is a simple path over bridges only, else None.

        Kept per state: the walks to a network's servers share their beginnings. A walk over bridges
        that is simple stays simple on one more bridge unless it steps straight back (a bridge is on no
        cycle), so one comparison replaces a scan of the walk.
        """
        memo = self._walks
        pending: list[_State] = []
        at: _State | None = state
        while at is not None and at not in memo:
            pending.append(at)
            at = self.parent[at][0]
        walk = memo[at] if at is not None else ()
        is_bridge = self.network.is_bridge
        for at in reversed(pending):
            here = at[0]
            if walk and ((len(walk) > 1 and walk[-2] == here) or not is_bridge(walk[-1], here)):
                walk = None
            if walk is not None:
                walk = (*walk, here)
            memo[at] = walk
        return walk

    def _cost_to_go(self, target: str) -> dict[_State, tuple[int, int]]:
        """Best (final phase, hops) of a walk from each state to ``target``; absent: it never gets there."""
        cost: dict[_State, tuple[int, int]] = {}
        total = len(self.parent)
        for final in Phase:
            frontier = [s for s in self.at[target] if s[2] == final and s not in cost]
            for state in frontier:
                cost[state] = (final, 0)
            queue = deque(frontier)
            while queue and len(cost) < total:
                state = queue.popleft()
                hops = cost[state][1] + 1
                for before in self._predecessors(state):
                    if before not in cost:
                        cost[before] = (final, hops)
                        queue.append(before)
            if len(cost) == total:
                break
        return cost

    def _predecessors(self, state: _State) -> Iterable[_State]:
        """Forward states with a hop into ``state`` (the inverse of the forward pass's rule)."""
        there, zones, phase = state
        rules, network = self.rules, self.network
        for here in network.adjacency.get(there, ()):
            if here not in rules.crossable or network.one_hop(here, there) != zones:
                continue
            for before in self.at.get(here, ()):
                arrived = before[1]
                if arrived and arrived & zones:
                    continue
                if rules.step(before[2], here, there) == phase:
                    yield before


_Children = list[tuple[tuple[int, int], str, _State]]
"""((final phase, hops to go), server, state) of each child of a path, best first."""


class _Enumeration:
    """A* over simple paths to one target: ``next()`` gives the next best complete path, or None.

    The heap holds, for each path expanded so far, a cursor on its next child (children sorted best
    first); a child already on the path is skipped when the cursor moves.
    """

    def __init__(self, search: PathSearch, target: str, cost: dict[_State, tuple[int, int]]) -> None:
        self.search = search
        self.target = target
        self.cost = cost
        self.max_phase = Phase.REJECTED
        self.steps = 0
        self.limited: str | None = None
        self._heap: list[tuple[tuple[int, int, _Path], int, _Children, int]] = []
        self._counter = 0
        self._children: dict[_State, _Children] = {}
        if search.start in cost:
            self._push((search.publisher,), self._sorted_children(search.start), 0)

    def _sorted_children(self, state: _State) -> _Children:
        """The children of a state that can still lead to the target, best first (kept per state)."""
        found = self._children.get(state)
        if found is not None:
            return found
        names, states = self.search.successors(state)
        costs = list(map(self.cost.get, states))  # hot on a dense network: no Python-level loop
        found = cast(_Children, list(zip(costs, names, states, strict=True)))
        if None in costs:  # a child that never gets to the target
            found = [child for child in found if child[0] is not None]
        target = self.target
        side = self.search.network.sides(state[0])
        if side is not None:  # a cut server: drop the branches that cannot lead to the target
            beyond = side(target)
            found = [c for c in found if c[1] == target or side(c[1]) == beyond]
        found.sort(key=itemgetter(0))  # stable: names stay in order within a rank
        self._children[state] = found
        return found

    def _push(self, path: _Path, children: _Children, index: int) -> None:
        """Put the cursor on the first child from ``index`` on that is not on ``path``."""
        while index < len(children) and children[index][1] in path:
            index += 1
        if index < len(children):
            (phase, to_go), there, _ = children[index]
            if phase <= self.max_phase:
                priority = (phase, len(path) + to_go, (*path, there))
                heapq.heappush(self._heap, (priority, self._counter, children, index))
                self._counter += 1

    def next(self) -> tuple[_Path, int] | None:
        while self._heap:
            if self.steps >= STEP_LIMIT:
                self.limited = "steps"
                return None
            (phase, _, path), _, children, index = heapq.heappop(self._heap)
            if phase > self.max_phase:
                self._heap.clear()
                return None
            self.steps += 1
            self._push(path[:-1], children, index + 1)
            if path[-1] == self.target:
                return path, phase
            self._push(path, self._sorted_children(children[index][2]), 0)
        return None


def shortest(network: EmsNetwork, start: str, goal: str, allowed: Callable[[str, str], bool]) -> _Path | None:
    """Breadth-first over allowed hops, neighbours in name order: the fewest hops, then names."""
    parent: dict[str, str | None] = {start: None}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        if here == goal:
            out = [here]
            while (prev := parent[out[-1]]) is not None:
                out.append(prev)
            return tuple(reversed(out))
        for there in network.adjacency.get(here, ()):
            if there not in parent and allowed(here, there):
                parent[there] = here
                queue.append(there)
    return None


def first_hop(path: _Path, test: Callable[[str, str], bool]) -> tuple[str, str] | None:
    """The first hop (x, y) of ``path`` for which ``test`` holds."""
    return next(((x, y) for x, y in _hops(path) if test(x, y)), None)


def _hops(path: Sequence[str]) -> Iterable[tuple[str, str]]:
    return zip(path, path[1:], strict=False)
