"""Which object change causes each routing change (issue 34): route with that change alone, and with
everything but it.

A probe can be derived from several object changes. For each routing change whose probe has more than
one, each candidate is tried: applied alone to BEFORE (does the subscription's answer change the same
way?) and taken out of AFTER (does the answer go back?). The cause is the first candidate, in the
changes' order, that does both, else the first that does either; a membership, which MQ derives from a
queue manager's cluster channels and REPOS, is blamed on the located channel or ``ALTER QMGR`` change of
its node when there is one (the line an author wrote).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

from mqctl.domain.diff.objects import ObjectChange
from mqctl.domain.diff.probes import Probe
from mqctl.domain.diff.routing import Outcome, RoutingChange, answer, classify
from mqctl.domain.model import Topology
from mqctl.domain.routing import RoutingModel

_LISTS: dict[str, tuple[str, Callable[[Any], tuple[str, ...]]]] = {
    "membership": ("memberships", lambda o: (o.node, o.cluster)),
    "topic": ("topics", lambda o: (o.node, o.name)),
    "sub": ("subscriptions", lambda o: (o.node, o.name)),
    "route": ("routes", lambda o: (o.node, o.peer)),
    "route-selector": ("route_selectors", lambda o: (o.node, f"{o.peer} {o.direction}_topic={o.topic}")),
    "channel": ("channels", lambda o: (o.node, o.name)),
    "namelist": ("namelists", lambda o: (o.node, o.name)),
}


def with_change(base: Topology, other: Topology, change: ObjectChange) -> Topology:
    """``base`` with the object of ``change`` as ``other`` has it (added, replaced or removed)."""
    out = dataclasses.replace(base, nodes=dict(base.nodes))
    if change.kind in ("qmgr", "server"):
        if change.name in other.nodes:
            out.nodes[change.name] = other.nodes[change.name]
        else:
            out.nodes.pop(change.name, None)
        return out
    field, key = _LISTS[change.kind]
    wanted = (change.node, change.name)
    kept = [o for o in getattr(base, field) if key(o) != wanted]
    kept += [o for o in getattr(other, field) if key(o) == wanted]
    setattr(out, field, kept)
    return out


def blame(
    before: Topology,
    after: Topology,
    objects: Sequence[ObjectChange],
    routing: Sequence[RoutingChange],
    causes: dict[Probe, tuple[int, ...]],
    *,
    limit: int = 5000,
) -> dict[tuple[Probe, str, str], int]:
    """(probe, node, subscription) -> the index in ``objects`` of the change that causes it, for the
    routing changes whose probe has several candidates (at most ``limit`` of them: beyond, the order of
    derivation decides, as before)."""
    out: dict[tuple[Probe, str, str], int] = {}
    models: dict[tuple[int, int], RoutingModel] = {}
    answers: dict[tuple[int, int, Probe], dict[tuple[str, str], Outcome]] = {}

    def outcome(side: int, index: int, probe: Probe, key: tuple[str, str]) -> Outcome | None:
        if (side, index) not in models:
            base, other = (before, after) if side == 0 else (after, before)
            models[(side, index)] = RoutingModel(with_change(base, other, objects[index]))
        found = answers.get((side, index, probe))
        if found is None:
            found = answers[(side, index, probe)] = answer(models[(side, index)], probe)
        return found.get(key)

    done = 0
    for c in routing:
        candidates = causes.get(c.probe, ())
        if len(candidates) < 2:
            continue
        done += 1
        if done > limit:
            break
        key = (c.node, c.subscription)
        alone, without = [], []
        for i in candidates:
            if classify(c.before, outcome(0, i, c.probe, key)) == c.change:
                alone.append(i)
            if classify(outcome(1, i, c.probe, key), c.after) == c.change:
                without.append(i)
        both = [i for i in alone if i in without]
        found = both or alone or without
        if found:
            out[(c.probe, c.node, c.subscription)] = _located(objects, candidates, found[0])
    return out


def _located(objects: Sequence[ObjectChange], candidates: tuple[int, ...], chosen: int) -> int:
    change = objects[chosen]
    if change.kind != "membership" or change.source is not None:
        return chosen
    for i in candidates:
        o = objects[i]
        if o.node == change.node and o.kind in ("channel", "qmgr", "namelist") and o.source is not None:
            return i
    for i, o in enumerate(objects):
        if o.node == change.node and o.kind in ("channel", "qmgr") and o.source is not None:
            return i
    return chosen
