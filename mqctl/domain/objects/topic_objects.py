"""MQ administrative topic objects: what DEFINE and ALTER TOPIC accept on one queue manager.

TOPICSTR identifies the node of the topic tree an object stands for: MQ refuses a second object with
the same TOPICSTR on a queue manager, and refuses to ALTER it (delete and define the object again).
CLROUTE cannot change while the object is clustered: MQ asks for the object to leave its cluster first.

``define``/``alter``/``delete`` make the change on a queue manager's ``NodeState``, for every door.
Deleting a topic object leaves the subscriptions that named it (TOPICOBJ) as they are, with their
resolved topic string (IBM, "Deleting an administrative topic definition"; semantics §9).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from mqctl.domain.errors import InputError
from mqctl.domain.model import Dialect, NodeState, TopicObject
from mqctl.domain.names import check_mq_name
from mqctl.domain.objects.edit import changed, refuse_existing, replaced, require
from mqctl.domain.objects.text import TOPICSTR_MAX, check_descr, check_length, check_no_control
from mqctl.domain.topics import validate_topic
from mqctl.domain.valid_text import check_definition_text


def label(topic: TopicObject) -> str:
    return f"topic {topic.name}"


def check_topicstr(topicstr: str, obj: str) -> None:
    """A TOPICSTR: not empty, at most 10,240 characters, on one line (``#``/``+`` are literal here)."""
    if not topicstr:
        raise InputError("is required for an MQ topic object", obj=obj, attribute="TOPICSTR")
    check_length(topicstr, TOPICSTR_MAX, obj, "TOPICSTR")
    check_no_control(topicstr, obj, "TOPICSTR")
    try:
        validate_topic(topicstr, Dialect.MQ)
    except InputError as exc:
        raise InputError(exc.message, obj=obj, attribute="TOPICSTR") from None


def check(topic: TopicObject) -> None:
    obj = label(topic)
    check_definition_text(topic, obj)
    check_mq_name(topic.name, "topic")
    check_topicstr(topic.topicstr, obj)
    if topic.cluster:
        check_mq_name(topic.cluster, "cluster")
    if topic.properties:
        raise InputError("EMS properties are not MQ topic attributes", obj=obj, attribute="properties")
    check_descr(topic.descr, obj)


def check_alterable(name: str, attributes: Iterable[str]) -> None:
    """ALTER TOPIC does not name TOPICSTR (MQ refuses it, whatever the value)."""
    if "topicstr" in attributes or "TOPICSTR" in attributes:
        raise InputError(
            "cannot be altered; delete the topic object and define it again",
            obj=f"topic {name}",
            attribute="TOPICSTR",
        )


def check_change(old: TopicObject, new: TopicObject) -> None:
    obj = label(old)
    if new.topicstr != old.topicstr:
        raise InputError(
            "cannot be altered; delete the topic object and define it again", obj=obj, attribute="TOPICSTR"
        )
    if new.clroute is not old.clroute and old.cluster and new.cluster:
        raise InputError(
            f"cannot be altered while the topic object is in cluster {old.cluster}; set CLUSTER(' ') first",
            obj=obj,
            attribute="CLROUTE",
        )
    check(new)


def check_unique_topicstr(topic: TopicObject, holder: str | None) -> None:
    """``holder``: the name of another topic object on the same queue manager with this TOPICSTR."""
    if holder is not None and holder != topic.name:
        raise InputError(
            f"topic string {topic.topicstr!r} is already used by topic object {holder}",
            obj=label(topic),
            attribute="TOPICSTR",
        )


def is_system(name: str) -> bool:
    """MQ's predefined objects (SYSTEM.*) exist on every queue manager but are not in the model."""
    return name.upper().startswith("SYSTEM.")


def holder_in(state: NodeState, topic: TopicObject) -> str | None:
    """The other object of ``state`` with ``topic``'s TOPICSTR (a scan: doors with many objects keep an
    index or ask the store, and pass the answer to ``define``)."""
    return next(
        (o.name for o in state.topics.values() if o.name != topic.name and o.topicstr == topic.topicstr), None
    )


def define(state: NodeState, topic: TopicObject, *, replace: bool, seq: int, holder: str | None) -> bool:
    """DEFINE TOPIC [REPLACE]; ``holder`` is the other object with this TOPICSTR, if any. True: replaced."""
    old = state.topics.get(topic.name)
    refuse_existing(old, replace, label(topic))
    check(topic)
    check_unique_topicstr(topic, holder)
    state.topics[topic.name] = replaced(topic, seq=seq)
    return old is not None


def alter(state: NodeState, name: str, changes: Mapping[str, Any], *, seq: int) -> TopicObject:
    """ALTER TOPIC: only the given attributes change; TOPICSTR never does."""
    old = require(state.topics, name, f"topic {name}", state.node.name)
    check_alterable(name, changes)
    new = changed(old, changes, seq)
    check_change(old, new)
    state.topics[name] = new
    return new


def delete(state: NodeState, name: str) -> TopicObject:
    """DELETE TOPIC: subscriptions naming it keep their topic string (module docstring)."""
    require(state.topics, name, f"topic {name}", state.node.name)
    return state.topics.pop(name)
