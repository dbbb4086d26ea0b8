"""Roll a change out step by step, every intermediate state routed (issue 34; semantics §9 Transitions).

``edits`` turns the difference of one node's definitions into the domain's edit values (``Define``,
``Alter``, ``Delete`` of ``domain.objects.edits``: the one edit type) in the order the products accept
them, with the decompositions they require; ``apply`` applies them to a node's state through the
domain's one ``apply`` — the one place the plan does;
``actions`` cuts the whole change into the units the search orders; ``search`` routes the states and
chooses the order with the least transient loss; ``plan`` assembles the steps.
"""

from mqctl.domain.plan.edits import Edit, edits_between
from mqctl.domain.plan.plan import Plan, PlanEntry, Step, make_plan

__all__ = ["Edit", "Plan", "PlanEntry", "Step", "edits_between", "make_plan"]
