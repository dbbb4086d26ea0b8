"""Each object kind, once for every door: what MQ or EMS accepts, and what a change does.

One module per kind (``nodes``, ``clusters`` with memberships, ``namelists``, ``channels``,
``topic_objects`` for MQ, ``ems_definitions`` for EMS topic definitions, ``subscriptions``, ``routes``,
``route_selectors``). Each offers ``check(obj)`` — the definition on its own, as DEFINE would judge it —
``check_change(old, new)`` where the product refuses some changes, and ``define`` (with REPLACE),
``alter`` and ``delete`` over a node's in-memory ``NodeState``. What happens to the dependents of a
deleted object is written down in its module, following the vendor (semantics §9). Facts from outside
the node (the dialect of a PARENT or a route peer, the other object holding a TOPICSTR) are arguments:
each door finds them its own way (an indexed query, the script's working state). The doors — the shell
(``services.objects``), runmqsc and ``import mqsc`` (``formats.mqsc``), tibemsadmin and the EMS readers
(``formats.ems``) — add only positions and the product's reply text; ``edit`` holds what they share.
``check_definition`` dispatches ``check`` on the object's type (snapshots, what-if variants).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mqctl.domain.objects.dispatch import check_definition

__all__ = ["check_definition"]


def __getattr__(name: str) -> Any:
    """``check_definition`` loaded on first use: it needs every kind's module, and a command that
    reads only the attribute table (``explain``, the displays) should not load them all at start-up."""
    if name == "check_definition":
        from mqctl.domain.objects.dispatch import check_definition

        return check_definition
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
