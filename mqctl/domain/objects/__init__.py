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

from mqctl.domain.model import (
    Channel,
    Dialect,
    Namelist,
    Node,
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


def check_definition(obj: object, dialect: Dialect) -> None:
    """The single-object rules for ``obj`` defined on a node of ``dialect``."""
    if isinstance(obj, Node):
        nodes.check(obj)
    elif isinstance(obj, TopicObject):
        if dialect is Dialect.EMS:
            ems_definitions.check(obj)
        else:
            topic_objects.check(obj)
    elif isinstance(obj, Subscription):
        subscriptions.check(obj, dialect)
    elif isinstance(obj, Namelist):
        nodes.require_dialect(dialect, Dialect.MQ, "namelists", obj.node)
        namelists.check(obj)
    elif isinstance(obj, Channel):
        nodes.require_dialect(dialect, Dialect.MQ, "cluster channels", obj.node)
        channels.check(obj)
    elif isinstance(obj, Route):
        nodes.require_dialect(dialect, Dialect.EMS, "routes", obj.node)
        routes.check(obj)
    elif isinstance(obj, RouteSelector):
        nodes.require_dialect(dialect, Dialect.EMS, "route selectors", obj.node)
        route_selectors.check(obj)
    else:
        raise TypeError(f"not a definition: {obj!r}")
