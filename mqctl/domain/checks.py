"""Boundary checks of single objects: what MQ or EMS itself would refuse when the object is defined.

Called by every door (CLI options, MQSC, EMS files) before anything reaches the store, so that a bad
value is one clear line naming the object and the attribute.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TypeVar

from mqctl.domain.errors import InputError
from mqctl.domain.model import (
    Channel,
    ChannelType,
    Dialect,
    Namelist,
    Node,
    Route,
    RouteSelector,
    Subscription,
    TopicObject,
    WSchema,
)
from mqctl.domain.names import check_mq_name, check_node_name, check_subscription_name, node_label

E = TypeVar("E", bound=StrEnum)

TOPICSTR_MAX = 10240
DESCR_MAX = 64


def parse_enum(enum: type[E], value: str, obj: str, attribute: str) -> E:
    """Case-insensitive enum value, with the allowed values in the error."""
    for member in enum:
        if member.value.upper() == value.strip().upper():
            return member
    allowed = "|".join(m.value for m in enum)
    raise InputError(f"{value!r} is not one of {allowed}", obj=obj, attribute=attribute)


def check_descr(descr: str, obj: str) -> None:
    if len(descr) > DESCR_MAX:
        raise InputError(f"is {len(descr)} characters long; at most {DESCR_MAX}", obj=obj, attribute="DESCR")


def _topic_error(exc: InputError, obj: str, attribute: str) -> InputError:
    err = InputError(exc.message, obj=obj, attribute=attribute)
    err.column = getattr(exc, "position", None) or exc.column
    return err


def check_topicstr(topicstr: str, dialect: Dialect, obj: str, *, pattern: bool) -> None:
    from mqctl.domain import topics

    if len(topicstr) > TOPICSTR_MAX:
        raise InputError(f"is longer than {TOPICSTR_MAX} characters", obj=obj, attribute="TOPICSTR")
    try:
        if pattern:
            topics.validate_pattern(topicstr, dialect)
        else:
            topics.validate_topic(topicstr, dialect)
    except InputError as exc:
        raise _topic_error(exc, obj, "TOPICSTR") from None


def check_selector_text(selector: str | None, obj: str, attribute: str = "SELECTOR") -> None:
    if selector is None or not selector.strip():
        return
    from mqctl.domain.selector import check_selector

    try:
        check_selector(selector)
    except InputError as exc:
        raise InputError(exc.message, obj=obj, attribute=attribute, column=exc.column) from None


def check_node(node: Node) -> None:
    check_node_name(node.name, node.dialect)
    obj = f"{node_label(node.dialect)} {node.name}"
    check_descr(node.descr, obj)
    if node.parent is not None:
        if node.dialect is Dialect.EMS:
            raise InputError("an EMS server has no hierarchy parent", obj=obj, attribute="PARENT")
        check_mq_name(node.parent, "qmgr")
        if node.parent == node.name:
            raise InputError("a queue manager cannot be its own parent", obj=obj, attribute="PARENT")
    for attr in ("psmode", "psclus"):
        value = getattr(node, attr)
        allowed = ("ENABLED", "DISABLED", "COMPAT") if attr == "psmode" else ("ENABLED", "DISABLED")
        if value not in allowed:
            raise InputError(f"{value!r} is not one of {'|'.join(allowed)}", obj=obj, attribute=attr.upper())


def check_topic_object(topic: TopicObject, dialect: Dialect) -> None:
    if dialect is Dialect.MQ:
        check_mq_name(topic.name, "topic")
        obj = f"topic {topic.name}"
        check_topicstr(topic.topicstr, dialect, obj, pattern=False)
        if topic.cluster:
            check_mq_name(topic.cluster, "cluster")
        if topic.properties:
            raise InputError("EMS properties are not MQ topic attributes", obj=obj, attribute="properties")
    else:
        obj = f"topic {topic.name}"
        if topic.name != topic.topicstr:
            raise InputError(
                "an EMS topic definition is named by its topic pattern", obj=obj, attribute="TOPICSTR"
            )
        check_topicstr(topic.topicstr, dialect, obj, pattern=True)
        if topic.cluster:
            raise InputError(
                "EMS topics are not clustered (use routes and `global`)", obj=obj, attribute="CLUSTER"
            )
    check_descr(topic.descr, obj)


def check_subscription(sub: Subscription, dialect: Dialect) -> None:
    check_subscription_name(sub.name, dialect)
    obj = f"sub {sub.name}"
    if sub.wschema is WSchema.CHAR:
        if dialect is Dialect.EMS:
            raise InputError("WSCHEMA(CHAR) is an MQ subscription option", obj=obj, attribute="WSCHEMA")
        if not sub.topicstr:
            raise InputError("is empty", obj=obj, attribute="TOPICSTR")
    else:
        check_topicstr(sub.topicstr, dialect, obj, pattern=True)
    check_selector_text(sub.selector, obj)
    for attr in ("dest", "destqmgr", "topicobj"):
        value = getattr(sub, attr)
        if value:
            check_mq_name(value, attr.upper())


def check_namelist(nl: Namelist) -> None:
    check_mq_name(nl.name, "namelist")
    for name in nl.names:
        check_mq_name(name, f"namelist {nl.name} NAMES entry")
    check_descr(nl.descr, f"namelist {nl.name}")


def check_channel(ch: Channel) -> None:
    check_mq_name(ch.name, "channel")
    obj = f"channel {ch.name}"
    if len(ch.name) > 20:
        raise InputError(f"is {len(ch.name)} characters long; MQ channel names have at most 20", obj=obj)
    if ch.cluster and ch.clusnl:
        raise InputError("give CLUSTER or CLUSNL, not both", obj=obj, attribute="CLUSNL")
    if not ch.cluster and not ch.clusnl:
        raise InputError(f"a {ch.chltype} channel needs CLUSTER or CLUSNL", obj=obj, attribute="CLUSTER")
    if ch.cluster:
        check_mq_name(ch.cluster, "cluster")
    if ch.clusnl:
        check_mq_name(ch.clusnl, "namelist")
    if ch.chltype not in (ChannelType.CLUSRCVR, ChannelType.CLUSSDR):
        raise InputError("only CLUSRCVR and CLUSSDR channels are modelled", obj=obj, attribute="CHLTYPE")
    check_descr(ch.descr, obj)


def check_route(route: Route) -> None:
    check_node_name(route.peer, Dialect.EMS)
    obj = f"route {route.peer}"
    if route.peer == route.node:
        raise InputError("a server cannot route to itself", obj=obj)
    if not route.zone_name or any(c.isspace() for c in route.zone_name):
        raise InputError(f"{route.zone_name!r} is not a zone name", obj=obj, attribute="zone_name")


def check_route_selector(rs: RouteSelector) -> None:
    obj = f"route {rs.peer} {rs.direction}_topic={rs.topic}"
    check_topicstr(rs.topic, Dialect.EMS, obj, pattern=True)
    if not rs.selector.strip():
        raise InputError("is empty", obj=obj, attribute="selector")
    check_selector_text(rs.selector, obj, attribute="selector")
