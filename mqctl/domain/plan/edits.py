"""The edits that turn one node's definitions into another's, in the order the products accept them.

The edits are the domain's own values (``domain.objects.edits``: ``Define`` with REPLACE, ``Alter`` with
the attributes that change, ``Delete``), the ones every door hands to ``domain.objects.apply.apply``;
``plan.apply`` applies them, and the writers (``formats.mqsc.plan_script``, ``formats.ems.plan_script``)
spell them as MQSC or tibemsadmin. The order inside one node's edits:

- MQ: subscriptions and topic objects deleted first (a topic object moved off before the queue manager
  leaves its cluster; a TOPICSTR freed before another object takes it), then namelists, ``ALTER QMGR``
  and cluster channels defined (a member joins before topics move to it), then topic objects and
  subscriptions defined or altered, then channels and namelists deleted (a member leaves last).
- EMS: subscriptions, routes (and, on a route kept, its selectors) and topic definitions deleted,
  then topic definitions, routes and selectors defined, then subscriptions. A route created is its
  ``Define`` and one ``Define`` per selector; a route altered (``setprop route``, which replaces its
  selectors) is its ``Alter``, a ``Delete`` of each selector it had and a ``Define`` of each it gets —
  the values the tibemsadmin door makes of those commands.

A change MQ refuses as one command (``CLROUTE`` of a clustered topic object) is written here as it is
asked; ``actions`` decomposes it into steps before it gets here.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from mqctl.domain.memberships import full_repositories
from mqctl.domain.model import Dialect, NodeState, RouteSelector, Subscription, TopicObject
from mqctl.domain.objects import attributes
from mqctl.domain.objects.edits import KIND_OF, Alter, Define, Delete, Edit, Kind
from mqctl.domain.objects.subscriptions import IMMUTABLE

__all__ = ["Edit", "edits_between", "kind_of", "name_of", "verb_of"]

NOT_COMPARED = frozenset({"seq", "source_file", "source_line"})
NODE_FIELDS = tuple(a.field for a in attributes.laid_out(attributes.NODE, ("PARENT",)))
"""What ALTER QMGR changes of the node itself, from the table, PARENT first (REPOS and REPOSNL are the
memberships')."""
SelectorKey = tuple[str, str, str]


def verb_of(edit: Edit) -> str:
    """``define``, ``alter`` or ``delete``."""
    return "define" if isinstance(edit, Define) else "alter" if isinstance(edit, Alter) else "delete"


def kind_of(edit: Edit) -> Kind:
    return edit.kind


def name_of(edit: Edit) -> str:
    """The object's name on its node (a route: its peer; a selector: ``PEER direction_topic=TOPIC``)."""
    key = _key(edit.obj) if isinstance(edit, Define) else edit.key
    if isinstance(key, tuple):
        peer, direction, topic = key
        return f"{peer} {direction}_topic={topic}"
    return key


def _key(obj: Any) -> str | SelectorKey:
    kind = KIND_OF[type(obj)]
    if kind is Kind.ROUTE_SELECTOR:
        return selector_key(obj)
    if kind is Kind.ROUTE:
        return str(obj.peer)
    return str(obj.name)


def alter(kind: Kind, old: Any, new: Any, fields: tuple[str, ...]) -> Alter:
    """``ALTER`` of ``fields``, with their values in ``new``."""
    key = new.peer if kind is Kind.ROUTE else new.name
    return Alter(kind, key, {f: getattr(new, f) for f in fields})


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
    out: list[Edit] = []
    s_gone, s_added, s_changed = _split(b.subscriptions, a.subscriptions)
    s_redefined = [k for k in s_changed if _sub_redefined(b.subscriptions[k], a.subscriptions[k])]
    t_gone, t_added, t_changed = _split(b.topics, a.topics)
    t_redefined = [k for k in t_changed if b.topics[k].topicstr != a.topics[k].topicstr]
    n_gone, n_added, n_changed = _split(b.namelists, a.namelists)
    c_gone, c_added, c_changed = _split(b.channels, a.channels)
    out += [Delete(Kind.SUB, k) for k in sorted(s_gone + s_redefined)]
    out += [Delete(Kind.TOPIC, k) for k in sorted(t_gone + t_redefined)]
    out += [Define(a.namelists[k], replace=True) for k in sorted(n_added + n_changed)]
    node_changes = tuple(f for f in NODE_FIELDS if getattr(b.node, f) != getattr(a.node, f))
    repos_before, repos_after = full_repositories(b), full_repositories(a)
    if node_changes or repos_before != repos_after:
        changes: dict[str, Any] = {f: getattr(a.node, f) for f in node_changes}
        if repos_before != repos_after:
            changes["repos"] = tuple(sorted(repos_after))
        out.append(Alter(Kind.NODE, a.node.name, changes))
    out += [Define(a.channels[k], replace=True) for k in sorted(c_added + c_changed)]
    for k in sorted(t_added + t_changed):
        if k in t_added or k in t_redefined:
            out.append(Define(a.topics[k], replace=True))
        else:
            out += _topic_alters(b.topics[k], a.topics[k])
    out += [Define(a.subscriptions[k], replace=True) for k in sorted(s_added + s_changed)]
    out += [Delete(Kind.CHANNEL, k) for k in c_gone]
    out += [Delete(Kind.NAMELIST, k) for k in n_gone]
    return out


def _topic_alters(old: TopicObject, new: TopicObject) -> list[Edit]:
    """``ALTER TOPIC`` with the attributes that change; a topic object that joins a cluster with another
    CLROUTE gets its CLROUTE first, then its CLUSTER (IBM's order: CLUSTER(' '), CLROUTE, CLUSTER(name))."""
    changes = differing(old, new)
    if "clroute" in changes and "cluster" in changes and not old.cluster and new.cluster:
        first = tuple(c for c in changes if c != "cluster")
        return [alter(Kind.TOPIC, old, new, first), alter(Kind.TOPIC, old, new, ("cluster",))]
    return [alter(Kind.TOPIC, old, new, changes)]


_ROUTE_KEPT = ("url", "properties")
"""What ``setprop route`` changes; a zone cannot change once the route exists (delete and create)."""


def _ems(b: NodeState, a: NodeState) -> list[Edit]:
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
    out += [Delete(Kind.SUB, k) for k in sorted(s_gone + s_changed)]
    out += [Delete(Kind.ROUTE, k) for k in sorted(r_gone + r_recreated)]
    out += [Delete(Kind.ROUTE_SELECTOR, k) for k in sel_gone]
    out += [Delete(Kind.TOPIC, k) for k in t_gone]
    out += [Define(a.topics[k], replace=True) for k in t_added]
    out += [alter(Kind.TOPIC, b.topics[k], a.topics[k], ("properties",)) for k in t_changed]
    for k in sorted(r_added + r_recreated):
        out.append(Define(a.routes[k]))
        out += [Define(rs, replace=True) for rs in selectors_of(a, k).values()]
    for k in r_altered:
        old, new = b.routes[k], a.routes[k]
        out.append(
            alter(Kind.ROUTE, old, new, tuple(f for f in _ROUTE_KEPT if getattr(old, f) != getattr(new, f)))
        )
        out += [Delete(Kind.ROUTE_SELECTOR, key) for key in selectors_of(b, k)]
        out += [Define(rs, replace=True) for rs in selectors_of(a, k).values()]
    out += [Define(new_sel[k], replace=True) for k in sel_set]
    out += [Define(a.subscriptions[k], replace=True) for k in sorted(s_added + s_changed)]
    return out


def selector_peer(edit: Edit) -> str | None:
    """The route a selector edit belongs to (None: not a selector edit)."""
    if edit.kind is not Kind.ROUTE_SELECTOR:
        return None
    if isinstance(edit, Define):
        return edit.obj.peer if isinstance(edit.obj, RouteSelector) else None
    return edit.key[0] if isinstance(edit.key, tuple) else None
