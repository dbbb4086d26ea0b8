"""DEFINE / ALTER / DELETE TOPIC and SUB applied to a ``NodeState``.

The change itself is the domain's (``mqctl.domain.objects``: the same functions every door calls); this
module reads the command, places each mistake in its text and answers as runmqsc does. DEFINE REPLACE
replaces every attribute (from the defaults or LIKE, not only those given); ALTER changes only the given
ones. Each DEFINE/ALTER takes a new definition sequence (semantics §9).
"""

from __future__ import annotations

import dataclasses

from mqctl.domain.errors import InputError
from mqctl.domain.model import Dialect, Subscription, TopicObject, WSchema
from mqctl.domain.names import check_subscription_name
from mqctl.domain.objects import attributes, subscriptions, topic_objects
from mqctl.domain.objects.apply import apply
from mqctl.domain.objects.attributes import Attribute
from mqctl.domain.objects.edit import AlreadyDefined, NotDefined, changes_between
from mqctl.domain.objects.edits import NO_FACTS, Alter, Change, Define, Delete, Edit, Facts, Kind
from mqctl.formats._checks import check_selector_at, check_topic
from mqctl.formats._located import locate
from mqctl.formats.mqsc.parser import Command, Value
from mqctl.formats.mqsc.values import Context, alike
from mqctl.formats.mqsc.vocabulary import (
    COMMON,
    DELETE_KEYWORDS,
    SUB_IGNORED,
    SUB_MODELLED,
    TOPIC_IGNORED,
    TOPIC_MODELLED,
)

TOPIC_KEYWORDS = TOPIC_MODELLED | TOPIC_IGNORED | COMMON
TOPIC_ATTRIBUTES = alike(attributes.TOPIC, {"topicstr"})
"""Read the same way from their text; TOPICSTR is read first, each mistake placed in the string."""
SUB_KEYWORDS = SUB_MODELLED | SUB_IGNORED | COMMON
SUB_APART = frozenset({"topicstr", "topicobj", "selector"})
"""Read by the handlers: TOPICSTR and TOPICOBJ make the topic string, judged as one
(``_check_topic_positions``); a SELECTOR is checked, a blank one is none."""


def sub_attributes(table: tuple[Attribute, ...]) -> tuple[tuple[Attribute, ...], tuple[Attribute, ...]]:
    """The attributes of a subscription read the same way from their text: those MQ fixes at DEFINE
    (``subscriptions.IMMUTABLE``: read before the topic string, which WSCHEMA says how to judge), and
    those an ALTER may change (read after it)."""
    fixed = {field for field, _ in subscriptions.IMMUTABLE}
    read = alike(table, SUB_APART)
    return tuple(a for a in read if a.field in fixed), tuple(a for a in read if a.field not in fixed)


SUB_FIXED, SUB_MUTABLE = sub_attributes(attributes.SUB)


class Unmodelled(Exception):
    """Raised by a handler that finds the command is about something mqctl does not model."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def is_system(name: str) -> bool:
    """MQ's predefined objects (SYSTEM.*) exist on every queue manager but are not in the model."""
    return topic_objects.is_system(name)


def change(ctx: Context, cmd: Command, label: str, edit: Edit, facts: Facts = NO_FACTS) -> Change:
    """Make a change through the domain's one ``apply``, with runmqsc's replies for an object that exists
    (AMQ8150E) or does not (AMQ8147E), and every other refusal placed at the parameter it names."""
    done: list[Change] = []
    seq = ctx.next_seq()
    try:
        ctx.rule(cmd, lambda: done.append(apply(ctx.state, edit, seq=seq, facts=facts)))
    except AlreadyDefined:
        raise ctx.fail(
            f"{label} already exists; add REPLACE to replace it (AMQ8150E)", cmd.name_pos
        ) from None
    except NotDefined:
        raise ctx.fail(f"{label} not found (AMQ8147E)", cmd.name_pos) from None
    return done[0]


def define_topic(ctx: Context, cmd: Command) -> str:
    ctx.check_keywords(cmd, TOPIC_KEYWORDS, "TOPIC")
    name = ctx.name(cmd, "topic").text
    replace = "REPLACE" in cmd.params
    base = _like_topic(ctx, cmd, name)
    if "TOPICSTR" not in cmd.params and base.topicstr == "":
        raise ctx.fail("DEFINE TOPIC needs TOPICSTR('...')", cmd.pos, obj=f"TOPIC({name})")
    topic = ctx.sourced(cmd, _topic_attributes(ctx, cmd, base))
    counts = ctx.topicstr_index()
    old = ctx.state.topics.get(name)
    holder = None
    if counts[topic.topicstr] > (1 if old is not None and old.topicstr == topic.topicstr else 0):
        holder = topic_objects.holder_in(ctx.state, topic)  # rare: only then scan for its name
    done = change(ctx, cmd, f"TOPIC({name})", Define(topic, replace=replace), Facts(topicstr_holder=holder))
    if old is not None:
        counts[old.topicstr] -= 1
    counts[topic.topicstr] += 1
    return "AMQ8691I: IBM MQ topic changed." if done.replaced else "AMQ8690I: IBM MQ topic created."


def alter_topic(ctx: Context, cmd: Command) -> str:
    ctx.check_keywords(cmd, TOPIC_KEYWORDS, "TOPIC")
    name = ctx.name(cmd, "topic").text
    current = ctx.state.topics.get(name)
    if current is None:
        if is_system(name):
            raise Unmodelled(f"TOPIC({name}) is a predefined system object")
        raise ctx.fail(f"TOPIC({name}) not found (AMQ8147E); DEFINE it first", cmd.name_pos)
    ctx.rule(cmd, topic_objects.check_alterable, name, cmd.params)
    topic = _topic_attributes(ctx, cmd, dataclasses.replace(current, properties=dict(current.properties)))
    changes = changes_between(current, topic)
    new = change(ctx, cmd, f"TOPIC({name})", Alter(Kind.TOPIC, name, changes)).after
    ctx.sourced(cmd, new)
    return "AMQ8691I: IBM MQ topic changed."


def delete_topic(ctx: Context, cmd: Command) -> str:
    """Subscriptions naming the object keep their topic string (``domain.objects.topic_objects``)."""
    ctx.check_keywords(cmd, DELETE_KEYWORDS["TOPIC"], "TOPIC")
    name = ctx.name(cmd, "topic").text
    if name not in ctx.state.topics and is_system(name):
        raise Unmodelled(f"TOPIC({name}) is a predefined system object")
    gone = change(ctx, cmd, f"TOPIC({name})", Delete(Kind.TOPIC, name)).before
    assert isinstance(gone, TopicObject)
    if ctx.topicstr_counts is not None:
        ctx.topicstr_counts[gone.topicstr] -= 1
    return "AMQ8692I: IBM MQ topic deleted."


def _like_topic(ctx: Context, cmd: Command, name: str) -> TopicObject:
    fresh = TopicObject(node=ctx.state.node.name, name=name, topicstr="")
    if "LIKE" not in cmd.params:
        return fresh
    like = ctx.one(cmd.params["LIKE"])
    source = ctx.state.topics.get(like.text)
    if source is None:
        if is_system(like.text):
            return fresh
        raise ctx.fail(f"LIKE: TOPIC({like.text}) not found", like.pos)
    return dataclasses.replace(source, name=name, topicstr="", properties=dict(source.properties))


def _topic_attributes(ctx: Context, cmd: Command, topic: TopicObject) -> TopicObject:
    p = cmd.params
    if "TOPICSTR" in p:
        value = ctx.one(p["TOPICSTR"])
        check_topic(value.text, Dialect.MQ, value.at, file=ctx.file, pattern=False)
        topic.topicstr = value.text
    ctx.read(cmd, topic, TOPIC_ATTRIBUTES)  # the attribute table: CLUSTER, the enumerations, DESCR
    if "TYPE" in p:
        ctx.choice(p["TYPE"], ("LOCAL",))
    return topic


def define_sub(ctx: Context, cmd: Command) -> str:
    ctx.check_keywords(cmd, SUB_KEYWORDS, "SUB")
    name = _sub_name(ctx, cmd)
    replace = "REPLACE" in cmd.params
    p = cmd.params
    if "TOPICSTR" not in p and "TOPICOBJ" not in p:
        raise ctx.fail("DEFINE SUB needs TOPICSTR('...') or TOPICOBJ(name)", cmd.pos, obj=f"SUB({name})")
    sub = ctx.read(
        cmd, Subscription(node=ctx.state.node.name, name=name, topicstr="", durable=True), SUB_FIXED
    )
    _check_topic_positions(ctx, cmd, sub)
    if "SELECTOR" in p:
        value = ctx.one(p["SELECTOR"])
        if value.text.strip():
            check_selector_at(value.text, value.at, file=ctx.file)
            sub.selector = value.text
    ctx.read(cmd, sub, SUB_MUTABLE)
    done = change(ctx, cmd, f"SUB({name})", Define(ctx.sourced(cmd, sub), replace=replace))
    return (
        "AMQ8095I: IBM MQ subscription changed."
        if done.replaced
        else "AMQ8094I: IBM MQ subscription created."
    )


def alter_sub(ctx: Context, cmd: Command) -> str:
    ctx.check_keywords(cmd, SUB_KEYWORDS, "SUB")
    name = _sub_name(ctx, cmd)
    current = ctx.state.subscriptions.get(name)
    if current is None:
        if is_system(name):
            raise Unmodelled(f"SUB({name}) is a predefined system subscription")
        raise ctx.fail(f"SUB({name}) not found (AMQ8147E); DEFINE it first", cmd.name_pos)
    ctx.rule(cmd, subscriptions.check_alterable, name, cmd.params)
    sub = ctx.read(cmd, dataclasses.replace(current, properties=dict(current.properties)), SUB_MUTABLE)
    changes = changes_between(current, sub)
    new = change(ctx, cmd, f"SUB({name})", Alter(Kind.SUB, name, changes)).after
    ctx.sourced(cmd, new)
    return "AMQ8095I: IBM MQ subscription changed."


def delete_sub(ctx: Context, cmd: Command) -> str:
    ctx.check_keywords(cmd, DELETE_KEYWORDS["SUB"], "SUB")
    name = _sub_name(ctx, cmd)
    if name not in ctx.state.subscriptions and is_system(name):
        raise Unmodelled(f"SUB({name}) is a predefined system subscription")
    change(ctx, cmd, f"SUB({name})", Delete(Kind.SUB, name))
    return "AMQ8097I: IBM MQ subscription deleted."  # AMQ8096I is DISPLAY SUB's "inquired"


def _sub_name(ctx: Context, cmd: Command) -> str:
    value = ctx.name(cmd, "sub", check=False)
    try:
        check_subscription_name(value.text, Dialect.MQ)
    except InputError as err:
        raise locate(err, file=ctx.file, line=value.pos[0], column=value.pos[1]) from None
    return value.text


def _check_topic_positions(ctx: Context, cmd: Command, sub: Subscription) -> None:
    """Set TOPICSTR (as given) and TOPICOBJ, and judge the topic string the domain composes from them
    (``subscriptions.composed``) with each mistake placed in the text that holds it."""
    p = cmd.params
    given: Value | None = ctx.one(p["TOPICSTR"]) if "TOPICSTR" in p else None
    sub.topicstr = given.text if given is not None else ""
    obj_value: Value | None = None
    if "TOPICOBJ" in p:
        obj_value = ctx.one(p["TOPICOBJ"])
        ctx.mq_name(obj_value, "topic")
        sub.topicobj = obj_value.text
    try:
        full = subscriptions.composed(ctx.state, sub)
    except InputError:
        assert obj_value is not None  # only TOPICOBJ can name what is missing
        raise ctx.fail(
            f"TOPICOBJ: TOPIC({obj_value.text}) not found; define the topic object first", obj_value.pos
        ) from None
    tail = sub.topicstr
    if not full:
        pos = given.pos if given is not None else cmd.pos
        raise ctx.fail("the subscription's topic string is empty; expected TOPICSTR('...')", pos)
    skip = len(full) - len(tail)

    def at(index: int) -> tuple[int, int]:
        if given is not None and index >= skip:
            return given.at(index - skip)
        return obj_value.pos if obj_value is not None else cmd.pos

    check_topic(full, Dialect.MQ, at, file=ctx.file, pattern=sub.wschema is WSchema.TOPIC)
