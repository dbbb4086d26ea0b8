"""Apply edits to a node's state through the object rules: the one place the plan changes a model.

The rules are those every door uses (``mqctl.domain.objects``): what they refuse, a step cannot do.
(When the edits become the domain's own ``Define``/``Alter``/``Delete`` values, this module is what
changes.)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable

from mqctl.domain.memberships import full_repositories, rederive
from mqctl.domain.model import (
    Channel,
    Dialect,
    Namelist,
    Node,
    NodeState,
    Route,
    RouteSelector,
    Subscription,
    TopicObject,
)
from mqctl.domain.objects import (
    channels,
    ems_definitions,
    namelists,
    nodes,
    route_selectors,
    routes,
    subscriptions,
    topic_objects,
)
from mqctl.domain.plan.edits import Edit, selector_key


def apply_edits(
    state: NodeState,
    edits: Iterable[Edit],
    *,
    next_seq: Callable[[], int],
    dialect_of: Callable[[str], Dialect | None],
) -> None:
    """Apply ``edits`` in order to ``state`` (changed in place); an ``InputError`` when a rule refuses."""
    for edit in edits:
        _one(state, edit, next_seq(), dialect_of)


def _one(state: NodeState, edit: Edit, seq: int, dialect_of: Callable[[str], Dialect | None]) -> None:
    obj, verb = edit.obj, edit.verb
    ems = state.node.dialect is Dialect.EMS
    if isinstance(obj, Node):
        changes = {f: getattr(obj, f) for f in edit.changes}
        parent = changes.get("parent")
        nodes.alter(state, changes, seq=seq, parent_dialect=dialect_of(parent) if parent else None)
        repos = full_repositories(state) if edit.repos is None else set(edit.repos)
        rederive(state, seq=seq, full_repos=repos, released=full_repositories(state))
    elif isinstance(obj, TopicObject):
        if verb == "delete":
            (ems_definitions.delete if ems else topic_objects.delete)(state, obj.name)
        elif verb == "alter":
            changes = {f: getattr(obj, f) for f in edit.changes}
            (ems_definitions.alter if ems else topic_objects.alter)(state, obj.name, changes, seq=seq)
        elif ems:
            ems_definitions.define(state, obj, replace=True, seq=seq)
        else:
            holder = topic_objects.holder_in(state, obj)
            topic_objects.define(state, obj, replace=True, seq=seq, holder=holder)
    elif isinstance(obj, Subscription):
        if verb == "delete":
            subscriptions.delete(state, obj.name)
        else:
            subscriptions.define(state, _as_given(state, obj), replace=True, seq=seq)
    elif isinstance(obj, Channel):
        if verb == "delete":
            channels.delete(state, obj.name, seq=seq)
        else:
            channels.define(state, obj, replace=True, seq=seq)
    elif isinstance(obj, Namelist):
        if verb == "delete":
            namelists.delete(state, obj.name, seq=seq)
        else:
            namelists.define(state, obj, replace=True, seq=seq)
    elif isinstance(obj, Route):
        if verb == "delete":
            routes.delete(state, obj.peer)
            return
        if verb == "alter":
            current = state.routes[obj.peer]
            changes = {f: getattr(obj, f) for f in edit.changes if getattr(current, f) != getattr(obj, f)}
            routes.alter(state, obj.peer, changes, seq=seq)
            for key in [selector_key(s) for s in state.route_selectors if s.peer == obj.peer]:
                route_selectors.delete(state, key)
        else:
            routes.define(state, obj, replace=False, seq=seq, peer_dialect=dialect_of(obj.peer))
        for rs in edit.selectors:
            route_selectors.define(state, rs, replace=True, seq=seq)
    elif isinstance(obj, RouteSelector):
        if verb == "delete":
            route_selectors.delete(state, selector_key(obj))
        else:
            route_selectors.define(state, obj, replace=True, seq=seq)
    else:  # pragma: no cover - every kind a NodeState holds is above
        raise TypeError(f"not an object a plan edits: {obj!r}")


def _as_given(state: NodeState, sub: Subscription) -> Subscription:
    """DEFINE SUB gives TOPICOBJ and the rest of the string (as the MQSC writer writes it); the rule
    composes them back."""
    if state.node.dialect is Dialect.EMS or not sub.topicobj:
        return sub
    obj = state.topics.get(sub.topicobj)
    if obj is not None and (sub.topicstr == obj.topicstr or sub.topicstr.startswith(obj.topicstr + "/")):
        return dataclasses.replace(sub, topicstr=sub.topicstr[len(obj.topicstr) + 1 :])
    return dataclasses.replace(sub, topicobj="")
