"""The edits that turn one node's definitions into another's, in the order the products accept them.

An edit is a value — define (with REPLACE), alter (the attributes given) or delete — of one object on
one node; ``apply`` applies it through the object rules, and the writers (``formats.mqsc.plan_script``,
``formats.ems.plan_script``) spell it as MQSC or tibemsadmin. The order inside one node's edits:

- MQ: subscriptions and topic objects deleted first (a topic object moved off before the queue manager
  leaves its cluster; a TOPICSTR freed before another object takes it), then namelists, ``ALTER QMGR``
  and cluster channels defined (a member joins before topics move to it), then topic objects and
  subscriptions defined or altered, then channels and namelists deleted (a member leaves last).
- EMS: subscriptions, routes (and, on a route kept, its selectors) and topic definitions deleted,
  then topic definitions, routes and selectors defined, then subscriptions.

A change MQ refuses as one command (``CLROUTE`` of a clustered topic object) is written here as it is
asked; ``actions`` decomposes it into steps before it gets here.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from mqctl.domain.memberships import full_repositories
from mqctl.domain.model import Dialect, Node, NodeState, Route, RouteSelector, Subscription, TopicObject
from mqctl.domain.objects.subscriptions import IMMUTABLE

NOT_COMPARED = frozenset({"seq", "source_file", "source_line"})
NODE_FIELDS = ("parent", "psmode", "psclus", "descr")
"""What ALTER QMGR changes of the node itself (REPOS and REPOSNL are the memberships')."""
SelectorKey = tuple[str, str, str]


@dataclass(frozen=True)
class Edit:
    verb: str
    """``define`` (with REPLACE), ``alter`` or ``delete``."""
    obj: Any
    """The object as it will be (define, alter) or as it was (delete)."""
    dialect: Dialect
    changes: tuple[str, ...] = ()
    """alter: the fields it gives."""
    repos: tuple[str, ...] | None = None
    """ALTER QMGR: the clusters the queue manager is a full repository of afterwards (None: unchanged)."""
    selectors: tuple[RouteSelector, ...] = ()
    """An EMS route defined or altered: all its selectors afterwards (``setprop`` replaces them)."""

    @property
    def kind(self) -> str:
        if isinstance(self.obj, Node):
            return "qmgr" if self.dialect is Dialect.MQ else "server"
        return _KINDS[type(self.obj).__name__]

    @property
    def name(self) -> str:
        obj = self.obj
        if isinstance(obj, Node):
            return obj.name
        if isinstance(obj, Route):
            return obj.peer
        if isinstance(obj, RouteSelector):
            return f"{obj.peer} {obj.direction}_topic={obj.topic}"
        return str(obj.name)

    def to_json(self) -> dict[str, Any]:
        return {"verb": self.verb, "kind": self.kind, "name": self.name, "changes": list(self.changes)}


_KINDS = {
    "Namelist": "namelist",
    "Channel": "channel",
    "TopicObject": "topic",
    "Subscription": "sub",
    "Route": "route",
    "RouteSelector": "selector",
}


def compared(obj: Any) -> dict[str, Any]:
    """An object's attributes, not its definition sequence or source position."""
    return {f.name: getattr(obj, f.name) for f in dataclasses.fields(obj) if f.name not in NOT_COMPARED}


def differing(old: Any, new: Any) -> tuple[str, ...]:
    a, b = compared(old), compared(new)
    return tuple(k for k in b if a.get(k) != b[k])


def selector_key(rs: RouteSelector) -> SelectorKey:
    return (rs.peer, str(rs.direction), rs.topic)


def selectors_of(state: NodeState, peer: str | None = None) -> dict[SelectorKey, RouteSelector]:
    return {selector_key(s): s for s in state.route_selectors if peer is None or s.peer == peer}


def edits_between(before: NodeState, after: NodeState) -> list[Edit]:
    """The edits, in order, that turn ``before`` into ``after`` (the same node)."""
    if after.node.dialect is Dialect.EMS:
        return _ems(before, after)
    return _mq(before, after)


def _split(old: dict[str, Any], new: dict[str, Any]) -> tuple[list[str], list[str], list[str]]:
    """Keys removed, added and changed (each sorted)."""
    gone = sorted(k for k in old if k not in new)
    added = sorted(k for k in new if k not in old)
    changed = sorted(k for k in new if k in old and differing(old[k], new[k]))
    return gone, added, changed


def _sub_redefined(old: Subscription, new: Subscription) -> bool:
    """MQ fixes these at DEFINE: a change is a delete and a define."""
    return any(getattr(old, attr) != getattr(new, attr) for attr, _keyword in IMMUTABLE)


def _mq(b: NodeState, a: NodeState) -> list[Edit]:
    mq = Dialect.MQ
    out: list[Edit] = []
    s_gone, s_added, s_changed = _split(b.subscriptions, a.subscriptions)
    s_redefined = [k for k in s_changed if _sub_redefined(b.subscriptions[k], a.subscriptions[k])]
    t_gone, t_added, t_changed = _split(b.topics, a.topics)
    t_redefined = [k for k in t_changed if b.topics[k].topicstr != a.topics[k].topicstr]
    n_gone, n_added, n_changed = _split(b.namelists, a.namelists)
    c_gone, c_added, c_changed = _split(b.channels, a.channels)
    out += [Edit("delete", b.subscriptions[k], mq) for k in sorted(s_gone + s_redefined)]
    out += [Edit("delete", b.topics[k], mq) for k in sorted(t_gone + t_redefined)]
    out += [Edit("define", a.namelists[k], mq) for k in sorted(n_added + n_changed)]
    node_changes = tuple(f for f in NODE_FIELDS if getattr(b.node, f) != getattr(a.node, f))
    repos_before, repos_after = full_repositories(b), full_repositories(a)
    if node_changes or repos_before != repos_after:
        repos = tuple(sorted(repos_after)) if repos_before != repos_after else None
        out.append(Edit("alter", a.node, mq, node_changes, repos=repos))
    out += [Edit("define", a.channels[k], mq) for k in sorted(c_added + c_changed)]
    for k in sorted(t_added + t_changed):
        if k in t_added or k in t_redefined:
            out.append(Edit("define", a.topics[k], mq))
        else:
            out += _topic_alters(b.topics[k], a.topics[k])
    out += [Edit("define", a.subscriptions[k], mq) for k in sorted(s_added + s_changed)]
    out += [Edit("delete", b.channels[k], mq) for k in c_gone]
    out += [Edit("delete", b.namelists[k], mq) for k in n_gone]
    return out


def _topic_alters(old: TopicObject, new: TopicObject) -> list[Edit]:
    """``ALTER TOPIC`` with the attributes that change; a topic object that joins a cluster with another
    CLROUTE gets its CLROUTE first, then its CLUSTER (IBM's order: CLUSTER(' '), CLROUTE, CLUSTER(name))."""
    changes = differing(old, new)
    if "clroute" in changes and "cluster" in changes and not old.cluster and new.cluster:
        first = tuple(c for c in changes if c != "cluster")
        return [
            Edit("alter", dataclasses.replace(new, cluster=old.cluster), Dialect.MQ, first),
            Edit("alter", new, Dialect.MQ, ("cluster",)),
        ]
    return [Edit("alter", new, Dialect.MQ, changes)]


_ROUTE_KEPT = ("url", "properties")
"""What ``setprop route`` changes; a zone cannot change once the route exists (delete and create)."""


def _ems(b: NodeState, a: NodeState) -> list[Edit]:
    ems = Dialect.EMS
    out: list[Edit] = []
    s_gone, s_added, s_changed = _split(b.subscriptions, a.subscriptions)
    r_gone, r_added, r_changed = _split(b.routes, a.routes)
    r_recreated = [
        k
        for k in r_changed
        if (b.routes[k].zone_name, b.routes[k].zone_type) != (a.routes[k].zone_name, a.routes[k].zone_type)
    ]
    r_altered = [k for k in r_changed if k not in r_recreated]
    t_gone, t_added, t_changed = _split(b.topics, a.topics)
    old_sel, new_sel = selectors_of(b), selectors_of(a)
    whole = set(r_gone) | set(r_added) | set(r_changed)
    sel_gone = sorted(k for k in old_sel if k not in new_sel and k[0] not in whole)
    sel_set = sorted(
        k
        for k, rs in new_sel.items()
        if k[0] not in whole and (k not in old_sel or old_sel[k].selector != rs.selector)
    )
    out += [Edit("delete", b.subscriptions[k], ems) for k in sorted(s_gone + s_changed)]
    out += [Edit("delete", b.routes[k], ems) for k in sorted(r_gone + r_recreated)]
    out += [Edit("delete", old_sel[k], ems) for k in sel_gone]
    out += [Edit("delete", b.topics[k], ems) for k in t_gone]
    out += [Edit("define", a.topics[k], ems) for k in t_added]
    out += [Edit("alter", a.topics[k], ems, ("properties",)) for k in t_changed]
    for k in sorted(r_added + r_recreated):
        out.append(Edit("define", a.routes[k], ems, selectors=tuple(selectors_of(a, k).values())))
    for k in r_altered:
        out.append(Edit("alter", a.routes[k], ems, _ROUTE_KEPT, selectors=tuple(selectors_of(a, k).values())))
    out += [Edit("define", new_sel[k], ems) for k in sel_set]
    out += [Edit("define", a.subscriptions[k], ems) for k in sorted(s_added + s_changed)]
    return out


def topic_of(edit: Edit) -> TopicObject | None:
    return edit.obj if isinstance(edit.obj, TopicObject) else None
