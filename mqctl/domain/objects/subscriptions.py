"""Subscriptions: MQ DEFINE SUB, EMS durables and JMS subscribers.

MQ refuses to ALTER what identifies what a subscription receives (TOPICSTR, TOPICOBJ, SELECTOR,
SUBSCOPE, WSCHEMA): the subscription is deleted and defined again. ``define`` composes the topic string
from TOPICOBJ as MQ does (the object's TOPICSTR, then the given one), so TOPICOBJ alone is enough.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from mqctl.domain.errors import InputError
from mqctl.domain.model import Dialect, NodeState, Subscription, SubType, WSchema
from mqctl.domain.names import check_mq_name, check_subscription_name
from mqctl.domain.objects import attributes
from mqctl.domain.objects.edit import changed, refuse_existing, replaced, require
from mqctl.domain.objects.ems_definitions import check_pattern as check_ems_pattern
from mqctl.domain.objects.text import (
    SELECTOR_MAX,
    TOPICSTR_MAX,
    check_ems_token,
    check_ems_value,
    check_length,
    check_no_control,
)
from mqctl.domain.topics import validate_pattern
from mqctl.domain.valid_text import check_definition_text

_MQ, _EMS = Dialect.MQ, Dialect.EMS
_TOPIC, _CHAR = WSchema.TOPIC, WSchema.CHAR
_API = SubType.API
"""Module constants: reading an enum member off its class costs a Python call, and every door checks
every subscription with these."""

IMMUTABLE = tuple(
    (field, attributes.attribute(attributes.SUB, field).keyword)
    for field in ("topicstr", "topicobj", "selector", "subscope", "wschema")
)
"""What MQ fixes at DEFINE SUB (field, keyword): what the subscription receives."""


def label(sub: Subscription) -> str:
    return f"sub {sub.name}"


def check_selector(selector: str | None, obj: str, attribute: str = "SELECTOR", *, ems: bool = False) -> None:
    """A JMS selector of at most 10,240 characters that parses and type-checks (semantics §7)."""
    if selector is None or not selector.strip():
        return
    from mqctl.domain.selector import check_selector as parse_and_check

    check_length(selector, SELECTOR_MAX, obj, attribute)
    if ems:
        check_ems_value(selector, obj, attribute)
    else:
        check_no_control(selector, obj, attribute)
    try:
        parse_and_check(selector)
    except InputError as exc:
        raise InputError(exc.message, obj=obj, attribute=attribute, column=exc.column) from None


def check_pattern(pattern: str, dialect: Dialect, wschema: WSchema, obj: str) -> None:
    if not pattern:
        raise InputError("is empty", obj=obj, attribute="TOPICSTR")
    if dialect is _EMS:
        check_ems_pattern(pattern, obj)
        return
    check_length(pattern, TOPICSTR_MAX, obj, "TOPICSTR")
    check_no_control(pattern, obj, "TOPICSTR")
    if wschema is _TOPIC:
        try:
            validate_pattern(pattern, dialect)
        except InputError as exc:
            raise InputError(exc.message, obj=obj, attribute="TOPICSTR") from None


def check(sub: Subscription, dialect: Dialect) -> None:
    obj = label(sub)
    check_definition_text(sub, obj)
    check_subscription_name(sub.name, dialect)
    if sub.wschema is _CHAR and dialect is _EMS:
        raise InputError("WSCHEMA(CHAR) is an MQ subscription option", obj=obj, attribute="WSCHEMA")
    check_pattern(sub.topicstr, dialect, sub.wschema, obj)
    check_selector(sub.selector, obj, ems=dialect is _EMS)
    if sub.dest or sub.destqmgr or sub.topicobj:  # most subscriptions have none: no loop for them
        for attr in ("dest", "destqmgr", "topicobj"):
            value = getattr(sub, attr)
            if value:
                if dialect is _EMS:
                    raise InputError("is an MQ subscription attribute", obj=obj, attribute=attr.upper())
                check_mq_name(value, attr.upper())
    if dialect is _EMS and (sub.subtype is _API or sub.subid):
        _check_mq_only(sub, obj)
    for key, value in sub.properties.items():
        if dialect is _MQ:
            raise InputError("EMS durable options are not MQ subscription attributes", obj=obj, attribute=key)
        check_ems_token(key, obj, "option")
        if value is not None:
            check_ems_value(value, obj, key)


def _check_mq_only(sub: Subscription, obj: str) -> None:
    """What only MQ shows of a subscription (a capture of DISPLAY SUB): API ones, identifiers."""
    if sub.subtype is _API:
        raise InputError(
            "API is MQ only (an EMS server has no API subscriptions)", obj=obj, attribute="SUBTYPE"
        )
    raise InputError(
        "SUBID is MQ only (an EMS server has no subscription identifiers)", obj=obj, attribute="SUBID"
    )


def check_alterable(name: str, attributes: Iterable[str]) -> None:
    """ALTER SUB names none of the attributes MQ fixes at DEFINE (whatever value it gives them)."""
    for attr, keyword in IMMUTABLE:
        if attr in attributes or keyword in attributes:
            raise InputError(
                "of a subscription cannot be altered; delete it and define it again",
                obj=f"sub {name}",
                attribute=keyword,
            )


def check_change(old: Subscription, new: Subscription, dialect: Dialect) -> None:
    for attr, keyword in IMMUTABLE:
        if getattr(old, attr) != getattr(new, attr):
            raise InputError(
                "of a subscription cannot be altered; delete it and define it again",
                obj=label(old),
                attribute=keyword,
            )
    check(new, dialect)


def topicobj_prefix(sub_topicstr: str, topicobj_topicstr: str | None, obj: str) -> str:
    """MQ's TOPICOBJ rule: the object's TOPICSTR, a '/', then the given TOPICSTR (either may be empty).

    ``topicobj_topicstr`` is None when the named topic object does not exist."""
    if topicobj_topicstr is None:
        raise InputError("names a topic object that is not defined", obj=obj, attribute="TOPICOBJ")
    if topicobj_topicstr and sub_topicstr:
        return f"{topicobj_topicstr}/{sub_topicstr}"
    return topicobj_topicstr or sub_topicstr


def topicobj_topicstr(state: NodeState, topicobj: str) -> str | None:
    """The TOPICSTR TOPICOBJ gives: the object's, "" for MQ's predefined SYSTEM.* objects, None when the
    object is not defined on the queue manager."""
    from mqctl.domain.objects.topic_objects import is_system

    obj = state.topics.get(topicobj)
    if obj is not None:
        return obj.topicstr
    return "" if is_system(topicobj) else None


def composed(state: NodeState, sub: Subscription) -> str:
    """The subscription's full topic string: with TOPICOBJ, MQ's rule (``topicobj_prefix``)."""
    if not sub.topicobj or state.node.dialect is _EMS:
        return sub.topicstr
    return topicobj_prefix(sub.topicstr, topicobj_topicstr(state, sub.topicobj), label(sub))


def define(state: NodeState, sub: Subscription, *, replace: bool, seq: int, observed: bool = False) -> bool:
    """DEFINE SUB [REPLACE] (a durable, a JMS subscriber); ``sub.topicstr`` is the TOPICSTR given, which
    TOPICOBJ prefixes, unless ``observed`` (DISPLAY SUB shows the resolved string). True: replaced."""
    old = state.subscriptions.get(sub.name)
    refuse_existing(old, replace, label(sub))
    dialect = state.node.dialect
    if sub.topicobj and dialect is _EMS:
        raise InputError("is an MQ subscription attribute", obj=label(sub), attribute="TOPICOBJ")
    sub = replaced(sub, topicstr=sub.topicstr if observed else composed(state, sub), seq=seq)
    check(sub, dialect)
    state.subscriptions[sub.name] = sub
    return old is not None


def alter(state: NodeState, name: str, changes: Mapping[str, Any], *, seq: int) -> Subscription:
    """ALTER SUB: what identifies what it receives cannot change (``IMMUTABLE``)."""
    old = require(state.subscriptions, name, f"sub {name}", state.node.name)
    check_alterable(name, changes)
    new = changed(old, changes, seq)
    check_change(old, new, state.node.dialect)
    state.subscriptions[name] = new
    return new


def delete(state: NodeState, name: str) -> Subscription:
    require(state.subscriptions, name, f"sub {name}", state.node.name)
    return state.subscriptions.pop(name)
