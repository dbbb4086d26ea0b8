"""``check_definition``: the single-object rules of any definition, by its kind's protocol
(``kinds.RULES``: the same ``check`` that ``apply`` runs)."""

from __future__ import annotations

from mqctl.domain.model import Dialect
from mqctl.domain.objects.edits import KIND_OF
from mqctl.domain.objects.kinds import rules_for


def check_definition(obj: object, dialect: Dialect) -> None:
    """The single-object rules for ``obj`` defined on a node of ``dialect``."""
    kind = KIND_OF.get(type(obj))
    if kind is None:
        raise TypeError(f"not a definition: {obj!r}")
    rules_for(kind, dialect).check(obj, dialect)
