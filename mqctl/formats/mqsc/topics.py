"""DEFINE / ALTER / DELETE TOPIC and SUB applied to a ``NodeState``.

As runmqsc: DEFINE of an existing object needs REPLACE (and then replaces every attribute, from the
defaults or LIKE, not only those given); ALTER changes only the given ones; ALTER and DELETE of a
missing object fail. Each DEFINE/ALTER takes a new definition sequence (SEMANTICS §9).
"""

from __future__ import annotations

import dataclasses

from mqctl.domain.errors import InputError
from mqctl.domain.model import (
    ClRoute,
    Dialect,
    Enablement,
    ProxySub,
    Scope,
    SubScope,
    Subscription,
    TopicObject,
    Wildcard,
    WSchema,
)
from mqctl.domain.names import check_subscription_name
from mqctl.domain.rules import subscriptions, topic_objects
from mqctl.formats._checks import check_selector_at, check_topic
from mqctl.formats._located import locate
from mqctl.formats.mqsc.parser import Command, Value
from mqctl.formats.mqsc.values import Context
from mqctl.formats.mqsc.vocabulary import COMMON, SUB_IGNORED, SUB_MODELLED, TOPIC_IGNORED, TOPIC_MODELLED

TOPIC_KEYWORDS = TOPIC_MODELLED | TOPIC_IGNORED | COMMON
SUB_KEYWORDS = SUB_MODELLED | SUB_IGNORED | COMMON


class Unmodelled(Exception):
    """Raised by a handler that finds the command is about something mqctl does not model."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def is_system(name: str) -> bool:
    """MQ's predefined objects (SYSTEM.*) exist on every queue manager but are not in the model."""
    return name.upper().startswith("SYSTEM.")


def define_topic(ctx: Context, cmd: Command) -> str:
    ctx.check_keywords(cmd, TOPIC_KEYWORDS, "TOPIC")
    name = ctx.name(cmd, "topic").text
    topics = ctx.state.topics
    if name in topics and "REPLACE" not in cmd.params:
        raise ctx.fail(f"TOPIC({name}) already exists; add REPLACE to replace it (AMQ8150E)", cmd.name_pos)
    base = _like_topic(ctx, cmd, name)
    if "TOPICSTR" not in cmd.params and base.topicstr == "":
        raise ctx.fail("DEFINE TOPIC needs TOPICSTR('...')", cmd.pos, obj=f"TOPIC({name})")
    topic = _topic_attributes(ctx, cmd, base)
    ctx.rule(cmd, topic_objects.check, topic)
    counts = ctx.topicstr_index()
    old = topics.get(name)
    if counts[topic.topicstr] > (1 if old is not None and old.topicstr == topic.topicstr else 0):
        # another object has this string: find it, as the error names it
        holder = next(o.name for o in topics.values() if o.name != name and o.topicstr == topic.topicstr)
        ctx.rule(cmd, topic_objects.check_unique_topicstr, topic, holder)
    replaced = old is not None
    topic.seq = ctx.next_seq()
    topics[name] = ctx.sourced(cmd, topic)
    if old is not None:
        counts[old.topicstr] -= 1
    counts[topic.topicstr] += 1
    return "AMQ8691I: IBM MQ topic changed." if replaced else "AMQ8690I: IBM MQ topic created."


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
    ctx.rule(cmd, topic_objects.check_change, current, topic)
    topic.seq = ctx.next_seq()
    ctx.state.topics[name] = ctx.sourced(cmd, topic)
    return "AMQ8691I: IBM MQ topic changed."


def delete_topic(ctx: Context, cmd: Command) -> str:
    ctx.check_keywords(cmd, frozenset({"CMDSCOPE", "QSGDISP", "AUTHREC"}), "TOPIC")
    name = ctx.name(cmd, "topic").text
    if name not in ctx.state.topics:
        if is_system(name):
            raise Unmodelled(f"TOPIC({name}) is a predefined system object")
        raise ctx.fail(f"TOPIC({name}) not found (AMQ8147E)", cmd.name_pos)
    gone = ctx.state.topics.pop(name)
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
    if "CLUSTER" in p:
        topic.cluster = ctx.cluster(p["CLUSTER"])
    if "CLROUTE" in p:
        topic.clroute = ctx.enum(p["CLROUTE"], ClRoute)
    if "WILDCARD" in p:
        topic.wildcard = ctx.enum(p["WILDCARD"], Wildcard)
    if "PUBSCOPE" in p:
        topic.pubscope = ctx.enum(p["PUBSCOPE"], Scope)
    if "SUBSCOPE" in p:
        topic.subscope = ctx.enum(p["SUBSCOPE"], Scope)
    if "PROXYSUB" in p:
        topic.proxysub = ctx.enum(p["PROXYSUB"], ProxySub)
    if "PUB" in p:
        topic.pub = ctx.enum(p["PUB"], Enablement)
    if "SUB" in p:
        topic.sub = ctx.enum(p["SUB"], Enablement)
    if "DESCR" in p:
        topic.descr = ctx.text(p["DESCR"])
    if "TYPE" in p:
        ctx.choice(p["TYPE"], ("LOCAL",))
    return topic


def define_sub(ctx: Context, cmd: Command) -> str:
    ctx.check_keywords(cmd, SUB_KEYWORDS, "SUB")
    name = _sub_name(ctx, cmd)
    subs = ctx.state.subscriptions
    if name in subs and "REPLACE" not in cmd.params:
        raise ctx.fail(f"SUB({name}) already exists; add REPLACE to replace it (AMQ8150E)", cmd.name_pos)
    p = cmd.params
    if "TOPICSTR" not in p and "TOPICOBJ" not in p:
        raise ctx.fail("DEFINE SUB needs TOPICSTR('...') or TOPICOBJ(name)", cmd.pos, obj=f"SUB({name})")
    sub = Subscription(node=ctx.state.node.name, name=name, topicstr="", durable=True)
    if "SUBSCOPE" in p:
        sub.subscope = ctx.enum(p["SUBSCOPE"], SubScope)
    if "WSCHEMA" in p:
        sub.wschema = ctx.enum(p["WSCHEMA"], WSchema)
    _compose_topic(ctx, cmd, sub)
    if "SELECTOR" in p:
        value = ctx.one(p["SELECTOR"])
        if value.text.strip():
            check_selector_at(value.text, value.at, file=ctx.file)
            sub.selector = value.text
    _sub_mutable(ctx, cmd, sub)
    ctx.rule(cmd, subscriptions.check, sub, Dialect.MQ)
    replaced = name in subs
    sub.seq = ctx.next_seq()
    subs[name] = ctx.sourced(cmd, sub)
    return "AMQ8095I: IBM MQ subscription changed." if replaced else "AMQ8094I: IBM MQ subscription created."


def alter_sub(ctx: Context, cmd: Command) -> str:
    ctx.check_keywords(cmd, SUB_KEYWORDS, "SUB")
    name = _sub_name(ctx, cmd)
    current = ctx.state.subscriptions.get(name)
    if current is None:
        if is_system(name):
            raise Unmodelled(f"SUB({name}) is a predefined system subscription")
        raise ctx.fail(f"SUB({name}) not found (AMQ8147E); DEFINE it first", cmd.name_pos)
    ctx.rule(cmd, subscriptions.check_alterable, name, cmd.params)
    sub = dataclasses.replace(current, properties=dict(current.properties))
    _sub_mutable(ctx, cmd, sub)
    ctx.rule(cmd, subscriptions.check_change, current, sub, Dialect.MQ)
    sub.seq = ctx.next_seq()
    ctx.state.subscriptions[name] = ctx.sourced(cmd, sub)
    return "AMQ8095I: IBM MQ subscription changed."


def delete_sub(ctx: Context, cmd: Command) -> str:
    ctx.check_keywords(cmd, frozenset({"CMDSCOPE", "SUBID"}), "SUB")
    name = _sub_name(ctx, cmd)
    if name not in ctx.state.subscriptions:
        if is_system(name):
            raise Unmodelled(f"SUB({name}) is a predefined system subscription")
        raise ctx.fail(f"SUB({name}) not found (AMQ8147E)", cmd.name_pos)
    del ctx.state.subscriptions[name]
    return "AMQ8096I: IBM MQ subscription deleted."


def _sub_name(ctx: Context, cmd: Command) -> str:
    value = ctx.name(cmd, "sub", check=False)
    try:
        check_subscription_name(value.text, Dialect.MQ)
    except InputError as err:
        raise locate(err, file=ctx.file, line=value.pos[0], column=value.pos[1]) from None
    return value.text


def _compose_topic(ctx: Context, cmd: Command, sub: Subscription) -> None:
    """MQ's rule: TOPICOBJ's TOPICSTR, a '/', then the given TOPICSTR (either part may be absent)."""
    p = cmd.params
    given: Value | None = ctx.one(p["TOPICSTR"]) if "TOPICSTR" in p else None
    prefix = ""
    obj_value: Value | None = None
    if "TOPICOBJ" in p:
        obj_value = ctx.one(p["TOPICOBJ"])
        ctx.mq_name(obj_value, "topic")
        obj = ctx.state.topics.get(obj_value.text)
        if obj is None and not is_system(obj_value.text):
            raise ctx.fail(
                f"TOPICOBJ: TOPIC({obj_value.text}) not found; define the topic object first", obj_value.pos
            )
        prefix = obj.topicstr if obj is not None else ""
        sub.topicobj = obj_value.text
    tail = given.text if given is not None else ""
    full = f"{prefix}/{tail}" if prefix and tail else prefix or tail
    if not full:
        pos = given.pos if given is not None else cmd.pos
        raise ctx.fail("the subscription's topic string is empty; expected TOPICSTR('...')", pos)
    skip = len(full) - len(tail)

    def at(index: int) -> tuple[int, int]:
        if given is not None and index >= skip:
            return given.at(index - skip)
        return obj_value.pos if obj_value is not None else cmd.pos

    check_topic(full, Dialect.MQ, at, file=ctx.file, pattern=sub.wschema is WSchema.TOPIC)
    sub.topicstr = full


def _sub_mutable(ctx: Context, cmd: Command, sub: Subscription) -> None:
    p = cmd.params
    if "DEST" in p:
        sub.dest = ctx.text(p["DEST"])
    if "DESTQMGR" in p:
        sub.destqmgr = ctx.text(p["DESTQMGR"])
