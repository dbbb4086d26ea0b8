"""The whole change cut into actions: the units the search orders (semantics §9, Transitions).

Per queue manager: one action for the cluster and queue-manager definitions it gains or changes
(namelists, ``ALTER QMGR``, cluster channels: joining), one per topic object, one for its
subscriptions, one for the channels and namelists it loses (leaving). Per EMS server: one per topic
definition, one per route (with its selectors), one per selector of a route kept, one for its
subscriptions. Actions on different objects commute, so a set of applied actions is one state.

Decompositions the products require:

- ``CLROUTE`` of a topic object that is clustered before and after: MQ refuses it while ``CLUSTER`` is
  set (IBM, "Changing the cluster routing of a topic in a cluster"), so it is two actions that are never
  one step: ``ALTER TOPIC CLUSTER(' ')``, then ``ALTER TOPIC CLROUTE(..) CLUSTER(name)`` once the first has
  reached the cluster.
- A subscription naming a topic object (``TOPICOBJ``) comes after the action defining that object.

The other orders the products and IBM's procedures ask for — a topic host added before the old one is
removed, a member joined before topics move to it and topics moved off before it leaves, route
selectors widened before narrowed — are not written as rules here: a state that breaks them is refused
by validate (a clustered object on a queue manager outside its cluster, a cluster topic conflict...)
or loses publications, and the search (``search``) avoids both (semantics §9 says why a selector change
has a window only across two paths).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from mqctl.domain.model import Dialect, NodeState
from mqctl.domain.objects.edits import Alter, Define, Delete, Kind
from mqctl.domain.plan.edits import Edit, differing, edits_between, name_of, selector_peer, verb_of


@dataclass
class Action:
    index: int
    node: str
    label: str
    edits: list[Edit]
    after: set[int] = field(default_factory=set)
    """Actions that must be applied before this one."""
    waits: bool = False
    """Starts a new step, even after an action on the same node (the product needs the previous step
    to have reached the cluster first)."""


def _phase(edit: Edit, routes: set[str]) -> tuple[int, str]:
    """Which action of its node an edit belongs to: (order of the action, its key); ``routes``: the
    routes the node's edits create, alter or delete (their selectors go with them)."""
    kind = edit.kind
    if kind is Kind.SUB:
        return (3, "subscriptions")
    peer = selector_peer(edit)
    if peer is not None and peer in routes:
        return (2, f"route {peer}")
    if kind in (Kind.TOPIC, Kind.ROUTE, Kind.ROUTE_SELECTOR):
        noun = "selector" if kind is Kind.ROUTE_SELECTOR else str(kind)
        return (2, f"{noun} {name_of(edit)}")
    if isinstance(edit, Delete) and kind in (Kind.CHANNEL, Kind.NAMELIST):
        return (4, "leave")
    return (1, "join")


def _label(node: str, key: str, edits: list[Edit]) -> str:
    if key == "join":
        return f"cluster and queue manager definitions on {node}"
    if key == "leave":
        return f"cluster channels and namelists removed on {node}"
    if key == "subscriptions":
        return f"subscriptions on {node}"
    verbs = "/".join(dict.fromkeys(verb_of(e) for e in edits))
    return f"{verbs} {key} on {node}"


def cut(before: dict[str, NodeState], after: dict[str, NodeState]) -> list[Action]:
    """The actions, in an order that respects their dependencies (node by node, by phase)."""
    actions: list[Action] = []
    for node in sorted(after):
        b, a = before[node], after[node]
        groups: dict[tuple[int, str], list[Edit]] = {}
        edits = edits_between(b, a)
        routes = {name_of(e) for e in edits if e.kind is Kind.ROUTE}
        for edit in edits:
            groups.setdefault(_phase(edit, routes), []).append(edit)
        defined: dict[str, int] = {}
        for (order, key), edits in sorted(groups.items()):
            split = _clroute_split(b, edits) if a.node.dialect is Dialect.MQ else None
            if split is not None:
                first, second = split
                unclustered = Action(len(actions), node, f"CLUSTER(' ') on {key} on {node}", [first])
                actions.append(unclustered)
                actions.append(
                    Action(
                        len(actions),
                        node,
                        f"CLROUTE and CLUSTER on {key} on {node}",
                        [second],
                        after={unclustered.index},
                        waits=True,
                    )
                )
                continue
            action = Action(len(actions), node, _label(node, key, edits), edits)
            if order == 3:
                for e in edits:
                    topicobj = getattr(e.obj, "topicobj", "") if isinstance(e, Define) else ""
                    if topicobj in defined:
                        action.after.add(defined[topicobj])
            actions.append(action)
            for e in edits:
                if e.kind is Kind.TOPIC and not isinstance(e, Delete):
                    defined[name_of(e)] = action.index
    return actions


def _clroute_split(b: NodeState, edits: list[Edit]) -> tuple[Edit, Edit] | None:
    """``ALTER TOPIC`` changing CLROUTE of an object clustered before and after: CLUSTER(' ') first."""
    [edit] = edits if len(edits) == 1 else (None,)
    if not isinstance(edit, Alter) or edit.kind is not Kind.TOPIC:
        return None
    old = b.topics.get(name_of(edit))
    if old is None:
        return None
    new = dataclasses.replace(old, **edit.changes)
    if old.clroute is new.clroute or not old.cluster or not new.cluster:
        return None
    blank = dataclasses.replace(old, cluster="")
    return (
        Alter(Kind.TOPIC, old.name, {"cluster": ""}),
        Alter(Kind.TOPIC, old.name, {f: getattr(new, f) for f in differing(blank, new)}),
    )
