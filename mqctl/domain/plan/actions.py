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

from mqctl.domain.model import Dialect, NodeState, TopicObject
from mqctl.domain.plan.edits import Edit, differing, edits_between


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


def _phase(edit: Edit) -> tuple[int, str]:
    """Which action of its node an edit belongs to: (order of the action, its key)."""
    kind = edit.kind
    if kind == "sub":
        return (3, "subscriptions")
    if kind in ("topic", "route", "selector"):
        return (2, f"{kind} {edit.name}")
    if edit.verb == "delete" and kind in ("channel", "namelist"):
        return (4, "leave")
    return (1, "join")


def _label(node: str, key: str, edits: list[Edit]) -> str:
    if key == "join":
        return f"cluster and queue manager definitions on {node}"
    if key == "leave":
        return f"cluster channels and namelists removed on {node}"
    if key == "subscriptions":
        return f"subscriptions on {node}"
    verbs = "/".join(dict.fromkeys(e.verb for e in edits))
    return f"{verbs} {key} on {node}"


def cut(before: dict[str, NodeState], after: dict[str, NodeState]) -> list[Action]:
    """The actions, in an order that respects their dependencies (node by node, by phase)."""
    actions: list[Action] = []
    for node in sorted(after):
        b, a = before[node], after[node]
        groups: dict[tuple[int, str], list[Edit]] = {}
        for edit in edits_between(b, a):
            groups.setdefault(_phase(edit), []).append(edit)
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
                    topicobj = getattr(e.obj, "topicobj", "")
                    if e.verb != "delete" and topicobj in defined:
                        action.after.add(defined[topicobj])
            actions.append(action)
            for e in edits:
                if isinstance(e.obj, TopicObject) and e.verb != "delete":
                    defined[e.obj.name] = action.index
    return actions


def _clroute_split(b: NodeState, edits: list[Edit]) -> tuple[Edit, Edit] | None:
    """``ALTER TOPIC`` changing CLROUTE of an object clustered before and after: CLUSTER(' ') first."""
    if len(edits) != 1 or edits[0].verb != "alter" or not isinstance(edits[0].obj, TopicObject):
        return None
    new = edits[0].obj
    old = b.topics.get(new.name)
    if old is None or old.clroute is new.clroute or not old.cluster or not new.cluster:
        return None
    blank = dataclasses.replace(old, cluster="")
    return (
        Edit("alter", blank, Dialect.MQ, ("cluster",)),
        Edit("alter", new, Dialect.MQ, differing(blank, new)),
    )
