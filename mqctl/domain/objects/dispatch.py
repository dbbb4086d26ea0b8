"""``check_definition``: the single-object rules of any definition, dispatched on its type."""

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
