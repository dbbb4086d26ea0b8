"""Apply a plan's edits to a node's state through the domain's one ``apply`` (``domain.objects.apply``):
the one place the plan changes a model, by the rules every door uses, so what they refuse a step cannot
do.

A plan edit (``plan.edits.Edit``) says what a writer spells as one MQSC or tibemsadmin line; ``values``
turns it into the domain's edit values (``Define``, ``Alter``, ``Delete``) with the ``Facts`` each needs —
one line can be several values (``setprop route`` replaces the route's selectors).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from typing import Any

from mqctl.domain.memberships import full_repositories
from mqctl.domain.model import Dialect, Node, NodeState, Route, RouteSelector, Subscription, TopicObject
from mqctl.domain.objects import route_selectors, topic_objects
from mqctl.domain.objects.apply import apply
from mqctl.domain.objects.edits import KIND_OF, NO_FACTS, Alter, Define, Delete, Facts, Kind
from mqctl.domain.objects.edits import Edit as Value
from mqctl.domain.plan.edits import Edit

DialectOf = Callable[[str], Dialect | None]


def apply_edits(
    state: NodeState, edits: Iterable[Edit], *, next_seq: Callable[[], int], dialect_of: DialectOf
) -> None:
    """Apply ``edits`` in order to ``state`` (changed in place); an ``InputError`` when a rule refuses."""
    for edit in edits:
        seq = next_seq()
        for value, facts in values(state, edit, dialect_of):
            apply(state, value, seq=seq, facts=facts)


def values(state: NodeState, edit: Edit, dialect_of: DialectOf) -> list[tuple[Value, Facts]]:
    """The domain edit values of ``edit`` on ``state`` as it is when ``edit`` comes (read lazily: the
    values of a route's alter name the selectors it has then)."""
    obj, verb = edit.obj, edit.verb
    kind = KIND_OF[type(obj)]
    if isinstance(obj, Node):
        changes: dict[str, Any] = {f: getattr(obj, f) for f in edit.changes}
        # ALTER QMGR re-derives the memberships from the channels and namelists as they are now.
        changes["repos"] = tuple(sorted(full_repositories(state) if edit.repos is None else edit.repos))
        parent = changes.get("parent")
        return [
            (
                Alter(Kind.NODE, obj.name, changes),
                Facts(parent_dialect=dialect_of(parent) if parent else None),
            )
        ]
    if isinstance(obj, RouteSelector):
        if verb == "delete":
            return [(Delete(kind, route_selectors.key(obj)), NO_FACTS)]
        return [(Define(obj, replace=True), NO_FACTS)]
    if isinstance(obj, Route):
        return _route(state, edit, obj, dialect_of)
    key = obj.name
    if verb == "delete":
        return [(Delete(kind, key), NO_FACTS)]
    if verb == "alter":
        return [(Alter(kind, key, {f: getattr(obj, f) for f in edit.changes}), NO_FACTS)]
    if isinstance(obj, TopicObject) and state.node.dialect is Dialect.MQ:
        return [(Define(obj, replace=True), Facts(topicstr_holder=topic_objects.holder_in(state, obj)))]
    if isinstance(obj, Subscription):
        return [(Define(_as_given(state, obj), replace=True), NO_FACTS)]
    return [(Define(obj, replace=True), NO_FACTS)]


def _route(state: NodeState, edit: Edit, obj: Route, dialect_of: DialectOf) -> list[tuple[Value, Facts]]:
    """``create route`` with its selectors; ``setprop route``: what changes, and the selectors replaced."""
    if edit.verb == "delete":
        return [(Delete(Kind.ROUTE, obj.peer), NO_FACTS)]
    out: list[tuple[Value, Facts]] = []
    if edit.verb == "alter":
        current = state.routes.get(obj.peer)
        changes = {
            f: getattr(obj, f)
            for f in edit.changes
            if current is None or getattr(current, f) != getattr(obj, f)
        }
        out.append((Alter(Kind.ROUTE, obj.peer, changes), NO_FACTS))
        out += [
            (Delete(Kind.ROUTE_SELECTOR, route_selectors.key(s)), NO_FACTS)
            for s in state.route_selectors
            if s.peer == obj.peer
        ]
    else:
        out.append((Define(obj), Facts(peer_dialect=dialect_of(obj.peer))))
    out += [(Define(rs, replace=True), NO_FACTS) for rs in edit.selectors]
    return out


def _as_given(state: NodeState, sub: Subscription) -> Subscription:
    """DEFINE SUB gives TOPICOBJ and the rest of the string (as the MQSC writer writes it); the rule
    composes them back."""
    if state.node.dialect is Dialect.EMS or not sub.topicobj:
        return sub
    obj = state.topics.get(sub.topicobj)
    if obj is not None and (sub.topicstr == obj.topicstr or sub.topicstr.startswith(obj.topicstr + "/")):
        return dataclasses.replace(sub, topicstr=sub.topicstr[len(obj.topicstr) + 1 :])
    return dataclasses.replace(sub, topicobj="")
