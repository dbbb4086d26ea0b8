"""EMS topic definitions (a ``topics.conf`` line): a topic name or wildcard pattern with properties.

The definition is named by its pattern. Properties are kept as written (unknown ones too, semantics
§1); the storage limits must be sizes, and every name and value must fit the line-based file.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from typing import Any

from mqctl.domain.errors import InputError
from mqctl.domain.model import (
    Dialect,
    NodeState,
    TopicObject,
)
from mqctl.domain.objects import attributes
from mqctl.domain.objects.edit import changed, refuse_existing, require
from mqctl.domain.objects.text import TOPICSTR_MAX, check_ems_token, check_ems_value, check_length
from mqctl.domain.topics import validate_pattern
from mqctl.domain.valid_text import check_definition_text

_SIZE = re.compile(r"\d+\s*(?:[KMG]B?)?", re.IGNORECASE)
LIMIT_PROPERTIES = ("maxbytes", "maxmsgs")
"""Storage limits: a number with an optional K/M/G (bytes) suffix, as the EMS examples write them."""
MQ_DEFAULTS = tuple((a.field, a.default) for a in attributes.TOPIC if a.enum is not None)
"""The MQ topic attributes an EMS definition leaves at their defaults (the attribute table's enums)."""


def label(topic: TopicObject) -> str:
    return f"topic {topic.name}"


def check_pattern(pattern: str, obj: str, attribute: str = "TOPICSTR") -> None:
    """An EMS topic name or wildcard pattern that a configuration line can hold."""
    check_length(pattern, TOPICSTR_MAX, obj, attribute)
    check_ems_token(pattern, obj, attribute)
    try:
        validate_pattern(pattern, Dialect.EMS)
    except InputError as exc:
        raise InputError(exc.message, obj=obj, attribute=attribute) from None


def check_property(key: str, value: str | None, obj: str) -> None:
    check_ems_token(key, obj, "property")
    if value is not None:
        check_ems_value(value, obj, key)
    if key in LIMIT_PROPERTIES and (value is None or not _SIZE.fullmatch(value)):
        found = "" if value is None else f", found {value!r}"
        raise InputError(f"needs a size such as {key}=64MB{found}", obj=obj, attribute=key)


def check(topic: TopicObject) -> None:
    obj = label(topic)
    check_definition_text(topic, obj)
    if topic.name != topic.topicstr:
        raise InputError(
            "an EMS topic definition is named by its topic pattern", obj=obj, attribute="TOPICSTR"
        )
    check_pattern(topic.topicstr, obj)
    if topic.cluster:
        raise InputError(
            "EMS topics are not clustered (use routes and `global`)", obj=obj, attribute="CLUSTER"
        )
    for attr, default in MQ_DEFAULTS:
        if getattr(topic, attr) is not default:
            raise InputError("is an MQ topic attribute, not an EMS one", obj=obj, attribute=attr.upper())
    if topic.descr:
        raise InputError("is an MQ topic attribute, not an EMS one", obj=obj, attribute="DESCR")
    for key, value in topic.properties.items():
        check_property(key, value, obj)


def define(state: NodeState, topic: TopicObject, *, replace: bool, seq: int) -> bool:
    """tibemsadmin ``create topic`` / a ``topics.conf`` line / ``define topic``. True: replaced."""
    old = state.topics.get(topic.name)
    refuse_existing(old, replace, label(topic))
    check(topic)
    state.topics[topic.name] = dataclasses.replace(topic, seq=seq)
    return old is not None


def alter(state: NodeState, name: str, changes: Mapping[str, Any], *, seq: int) -> TopicObject:
    """``setprop``/``addprop``/``removeprop topic``: the pattern names the definition and stays."""
    old = require(state.topics, name, f"topic {name}", state.node.name)
    new = changed(old, changes, seq)
    if new.topicstr != old.topicstr or new.name != old.name:
        raise InputError("an EMS topic definition is named by its topic pattern", obj=f"topic {name}")
    check(new)
    state.topics[name] = new
    return new


def delete(state: NodeState, name: str) -> TopicObject:
    require(state.topics, name, f"topic {name}", state.node.name)
    return state.topics.pop(name)
