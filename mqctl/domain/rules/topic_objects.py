"""MQ administrative topic objects: what DEFINE and ALTER TOPIC accept on one queue manager.

TOPICSTR identifies the node of the topic tree an object stands for: MQ refuses a second object with
the same TOPICSTR on a queue manager, and refuses to ALTER it (delete and define the object again).
CLROUTE cannot change while the object is clustered: MQ asks for the object to leave its cluster first.
"""

from __future__ import annotations

from collections.abc import Iterable

from mqctl.domain.errors import InputError
from mqctl.domain.model import Dialect, TopicObject
from mqctl.domain.names import check_mq_name
from mqctl.domain.rules.text import TOPICSTR_MAX, check_descr, check_length, check_no_control
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
