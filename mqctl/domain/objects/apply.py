"""``apply``: one edit (``Define``, ``Alter``, ``Delete``) of any kind on a node's state, by that kind's
rules (``kinds.RULES``), returning what changed. Every door calls it; none has code per kind."""

from __future__ import annotations

from mqctl.domain.model import Dialect, NodeState
from mqctl.domain.objects.edits import KIND_OF, NO_FACTS, Alter, Change, Define, Delete, Edit, Facts
from mqctl.domain.objects.kinds import KindRules, rules_for

_DEFINE_RULES: dict[tuple[type, Dialect], KindRules] = {
    (cls, dialect): rules_for(kind, dialect) for cls, kind in KIND_OF.items() for dialect in Dialect
}
"""The rules of a ``Define`` by its object's class and the node's dialect: one lookup per statement of an
import (a DEFINE is most of a dump)."""


def apply(state: NodeState, edit: Edit, *, seq: int, facts: Facts = NO_FACTS) -> Change:
    """Make ``edit`` on ``state`` (in place) with definition sequence ``seq``; ``facts``: what the node's
    state cannot tell (``Facts``). Refusals are the domain's errors (``AlreadyDefined``, ``NotDefined``,
    ``InputError``...): the door adds its positions and reply text."""
    if type(edit) is Define:
        obj = edit.obj
        rules = _DEFINE_RULES[type(obj), state.node.dialect]
        return rules.define(state, edit, obj, replace=edit.replace, seq=seq, facts=facts)
    rules = rules_for(edit.kind, state.node.dialect)
    if isinstance(edit, Alter):
        return rules.alter(state, edit, edit.key, edit.changes, seq=seq, facts=facts)
    if isinstance(edit, Delete):
        return rules.delete(state, edit, edit.key, cascade=edit.cascade, seq=seq, facts=facts)
    raise TypeError(f"not an edit: {edit!r}")
