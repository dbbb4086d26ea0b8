"""Apply a plan's edits — the domain's own ``Define``/``Alter``/``Delete`` values — to a node's state
through the domain's one ``apply`` (``domain.objects.apply``): the one place the plan changes a model, by
the rules every door uses, so what they refuse a step cannot do. What this module adds is what a door
adds: the ``Facts`` the node's state cannot tell, and the subscription as ``DEFINE SUB`` gives it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable

from mqctl.domain.memberships import full_repositories
from mqctl.domain.model import Dialect, NodeState, Route, Subscription, TopicObject
from mqctl.domain.objects import topic_objects
from mqctl.domain.objects.apply import apply
from mqctl.domain.objects.edits import NO_FACTS, Alter, Define, Edit, Facts, Kind

DialectOf = Callable[[str], Dialect | None]


def apply_edits(
    state: NodeState, edits: Iterable[Edit], *, next_seq: Callable[[], int], dialect_of: DialectOf
) -> None:
    """Apply ``edits`` in order to ``state`` (changed in place); an ``InputError`` when a rule refuses."""
    for edit in edits:
        edit, facts = _as_door_gives(state, edit, dialect_of)
        apply(state, edit, seq=next_seq(), facts=facts)


def _as_door_gives(state: NodeState, edit: Edit, dialect_of: DialectOf) -> tuple[Edit, Facts]:
    if isinstance(edit, Alter):
        if edit.kind is Kind.NODE:
            changes = dict(edit.changes)
            # ALTER QMGR re-derives the memberships from the channels and namelists as they are now.
            changes.setdefault("repos", tuple(sorted(full_repositories(state))))
            parent = changes.get("parent")
            return Alter(Kind.NODE, edit.key, changes), Facts(
                parent_dialect=dialect_of(parent) if parent else None
            )
        return edit, NO_FACTS
    if not isinstance(edit, Define):
        return edit, NO_FACTS
    obj = edit.obj
    if isinstance(obj, TopicObject) and state.node.dialect is Dialect.MQ:
        return edit, Facts(topicstr_holder=topic_objects.holder_in(state, obj))
    if isinstance(obj, Subscription):
        return Define(_as_given(state, obj), replace=edit.replace), NO_FACTS
    if isinstance(obj, Route):
        return edit, Facts(peer_dialect=dialect_of(obj.peer))
    return edit, NO_FACTS


def _as_given(state: NodeState, sub: Subscription) -> Subscription:
    """DEFINE SUB gives TOPICOBJ and the rest of the string (as the MQSC writer writes it); the rule
    composes them back."""
    if state.node.dialect is Dialect.EMS or not sub.topicobj:
        return sub
    obj = state.topics.get(sub.topicobj)
    if obj is not None and (sub.topicstr == obj.topicstr or sub.topicstr.startswith(obj.topicstr + "/")):
        return dataclasses.replace(sub, topicstr=sub.topicstr[len(obj.topicstr) + 1 :])
    return dataclasses.replace(sub, topicobj="")
