"""NAMELIST, cluster CHANNEL and QMGR commands: the definitions that make cluster memberships.

Memberships are re-derived after each of these (see ``memberships``). Channels of other types than
CLUSRCVR/CLUSSDR are parsed and skipped as not modelled.
"""

from __future__ import annotations

import dataclasses

from mqctl.domain.model import Channel, ChannelType, Namelist
from mqctl.domain.objects import attributes
from mqctl.domain.objects.edit import changes_between
from mqctl.domain.objects.edits import Alter, Define, Delete, Facts, Kind
from mqctl.formats.mqsc.parser import Command
from mqctl.formats.mqsc.topics import Unmodelled, change, is_system
from mqctl.formats.mqsc.values import Context, alike
from mqctl.formats.mqsc.vocabulary import (
    CHANNEL_IGNORED,
    CHANNEL_MODELLED,
    COMMON,
    DELETE_KEYWORDS,
    NAMELIST_IGNORED,
    NAMELIST_MODELLED,
    QMGR_MODELLED,
)

CHANNEL_NAME_MAX = 20
CHLTYPES = ("SDR", "SVR", "RCVR", "RQSTR", "CLNTCONN", "SVRCONN", "CLUSSDR", "CLUSRCVR", "AMQP", "MQTT")
NAMELIST_KEYWORDS = NAMELIST_MODELLED | NAMELIST_IGNORED | COMMON
CHANNEL_KEYWORDS = CHANNEL_MODELLED | CHANNEL_IGNORED | COMMON
MODELLED_CHLTYPES = frozenset(t.value for t in ChannelType)
"""The channel types mqctl models (the others are parsed and skipped)."""
QMGR_ATTRIBUTES = alike(attributes.NODE, {"parent"})
"""Read the same way from their text; PARENT names a queue manager, read first."""
NAMELIST_ATTRIBUTES = alike(attributes.NAMELIST, {"names"})
"""Read the same way from their text; NAMES is a list of names, each checked, blanks dropped."""
CHANNEL_APART = frozenset({"chltype", "cluster", "clusnl", "conname"})
"""Read by the handlers: CHLTYPE says whether the channel is modelled at all and cannot change;
CLUSTER and CLUSNL exclude each other (CLUSNL's namelist names the clusters); CONNAME is a list
joined with commas."""
CHANNEL_ATTRIBUTES = alike(attributes.CHANNEL, CHANNEL_APART)
"""Read the same way from their text (DESCR, the workload numbers...)."""


def define_namelist(ctx: Context, cmd: Command) -> str:
    ctx.check_keywords(cmd, NAMELIST_KEYWORDS, "NAMELIST")
    name = ctx.name(cmd, "namelist").text
    lists = ctx.state.namelists
    replace = "REPLACE" in cmd.params
    base = Namelist(node=ctx.state.node.name, name=name)
    if "LIKE" in cmd.params:
        like = ctx.one(cmd.params["LIKE"])
        source = lists.get(like.text)
        if source is None and not is_system(like.text):
            raise ctx.fail(f"LIKE: NAMELIST({like.text}) not found", like.pos)
        if source is not None:
            base = dataclasses.replace(source, name=name)
    nl = ctx.sourced(cmd, _namelist_attributes(ctx, cmd, base))
    label = f"NAMELIST({name})"
    done = change(ctx, cmd, label, Define(nl, replace=replace))
    return "AMQ8551I: IBM MQ namelist changed." if done.replaced else "AMQ8552I: IBM MQ namelist created."


def alter_namelist(ctx: Context, cmd: Command) -> str:
    ctx.check_keywords(cmd, NAMELIST_KEYWORDS, "NAMELIST")
    name = ctx.name(cmd, "namelist").text
    current = ctx.state.namelists.get(name)
    if current is None:
        if is_system(name):
            raise Unmodelled(f"NAMELIST({name}) is a predefined system object")
        raise ctx.fail(f"NAMELIST({name}) not found (AMQ8147E); DEFINE it first", cmd.name_pos)
    changes = changes_between(current, _namelist_attributes(ctx, cmd, dataclasses.replace(current)))
    new = change(ctx, cmd, f"NAMELIST({name})", Alter(Kind.NAMELIST, name, changes)).after
    ctx.sourced(cmd, new)
    return "AMQ8551I: IBM MQ namelist changed."


def delete_namelist(ctx: Context, cmd: Command) -> str:
    """As MQ: channels naming the namelist (CLUSNL) stay (``domain.objects.namelists``)."""
    ctx.check_keywords(cmd, DELETE_KEYWORDS["NAMELIST"], "NAMELIST")
    name = ctx.name(cmd, "namelist").text
    if name not in ctx.state.namelists and is_system(name):
        raise Unmodelled(f"NAMELIST({name}) is a predefined system object")
    change(ctx, cmd, f"NAMELIST({name})", Delete(Kind.NAMELIST, name))
    return "AMQ8553I: IBM MQ namelist deleted."


def _namelist_attributes(ctx: Context, cmd: Command, nl: Namelist) -> Namelist:
    p = cmd.params
    if "NAMES" in p:
        values = p["NAMES"].values
        if values is None:
            raise ctx.fail("NAMES needs a list in parentheses, such as NAMES(A,B)", p["NAMES"].pos)
        names = []
        for value in values:
            if value.text.strip():
                ctx.mq_name(value, "name")
                names.append(value.text)
        nl.names = tuple(names)
    return ctx.read(cmd, nl, NAMELIST_ATTRIBUTES)


def define_channel(ctx: Context, cmd: Command) -> str:
    name_value = ctx.name(cmd, "channel", check=False)
    if "CHLTYPE" not in cmd.params:
        raise ctx.fail("DEFINE CHANNEL needs CHLTYPE(...), such as CHLTYPE(CLUSRCVR)", cmd.pos)
    chltype = ctx.choice(cmd.params["CHLTYPE"], CHLTYPES)
    if chltype not in MODELLED_CHLTYPES:
        raise Unmodelled(f"channel type {chltype} is not modelled")
    ctx.check_keywords(cmd, CHANNEL_KEYWORDS, "CHANNEL")
    name = ctx.mq_name(name_value, "channel", max_len=CHANNEL_NAME_MAX)
    channels = ctx.state.channels
    replace = "REPLACE" in cmd.params
    base = Channel(node=ctx.state.node.name, name=name, chltype=ChannelType(chltype))
    if "LIKE" in cmd.params:
        like = ctx.one(cmd.params["LIKE"])
        source = channels.get(like.text)
        if source is not None:
            base = dataclasses.replace(source, name=name, chltype=ChannelType(chltype))
    channel = ctx.sourced(cmd, _channel_attributes(ctx, cmd, base))
    label = f"CHANNEL({name})"
    done = change(ctx, cmd, label, Define(channel, replace=replace))
    return "AMQ8016I: IBM MQ channel changed." if done.replaced else "AMQ8014I: IBM MQ channel created."


def alter_channel(ctx: Context, cmd: Command) -> str:
    name = ctx.name(cmd, "channel", check=False).text
    current = ctx.state.channels.get(name)
    chltype = ctx.choice(cmd.params["CHLTYPE"], CHLTYPES) if "CHLTYPE" in cmd.params else None
    if current is None:
        if chltype in MODELLED_CHLTYPES:
            raise ctx.fail(f"CHANNEL({name}) not found (AMQ8147E); DEFINE it first", cmd.name_pos)
        raise Unmodelled("not a cluster channel known to mqctl")
    ctx.check_keywords(cmd, CHANNEL_KEYWORDS, "CHANNEL")
    if chltype is not None and chltype != current.chltype.value:
        raise ctx.fail(
            f"CHANNEL({name}) is a {current.chltype.value} channel, not {chltype}", cmd.params["CHLTYPE"].pos
        )
    changes = changes_between(current, _channel_attributes(ctx, cmd, dataclasses.replace(current)))
    new = change(ctx, cmd, f"CHANNEL({name})", Alter(Kind.CHANNEL, name, changes)).after
    ctx.sourced(cmd, new)
    return "AMQ8016I: IBM MQ channel changed."


def delete_channel(ctx: Context, cmd: Command) -> str:
    name = ctx.name(cmd, "channel", check=False).text
    if name not in ctx.state.channels:
        raise Unmodelled("not a cluster channel known to mqctl")
    change(ctx, cmd, f"CHANNEL({name})", Delete(Kind.CHANNEL, name))
    return "AMQ8015I: IBM MQ channel deleted."


def _channel_attributes(ctx: Context, cmd: Command, channel: Channel) -> Channel:
    p = cmd.params
    if "CLUSTER" in p and "CLUSNL" in p:
        cluster, clusnl = ctx.one(p["CLUSTER"]).text.strip(), ctx.one(p["CLUSNL"]).text.strip()
        if cluster and clusnl:
            raise ctx.fail("give CLUSTER or CLUSNL, not both", p["CLUSNL"].pos)
    if "CLUSTER" in p:
        channel.cluster = ctx.cluster(p["CLUSTER"])
        if channel.cluster:
            channel.clusnl = ""
    if "CLUSNL" in p:
        value = ctx.one(p["CLUSNL"])
        channel.clusnl = ctx.mq_name(value, "namelist") if value.text.strip() else ""
        if channel.clusnl:
            channel.cluster = ""
            nl = ctx.state.namelists.get(channel.clusnl)
            if nl is None:
                ctx.warnings.append(
                    f"CHANNEL({channel.name}): namelist {channel.clusnl} is not defined (yet)"
                )
            else:
                ctx.clusters.update(nl.names)
    if "CONNAME" in p:
        values = p["CONNAME"].values or ()
        channel.conname = ",".join(v.text for v in values).rstrip(" ")
    return ctx.read(cmd, channel, CHANNEL_ATTRIBUTES)


def alter_qmgr(ctx: Context, cmd: Command) -> str:
    """Only PARENT, REPOS, REPOSNL, PSMODE, PSCLUS and DESCR are modelled; other attributes are ignored."""
    p = cmd.params
    node = dataclasses.replace(ctx.state.node)
    for keyword in p:
        if keyword not in QMGR_MODELLED and keyword != "FORCE":
            ctx.unmodelled[f"{keyword} on QMGR"] += 1
    for keyword in ("FORCE",):
        if keyword in p and p[keyword].values is not None:
            raise ctx.syntax(f"{keyword} takes no value", p[keyword].pos)
    parent_dialect = None
    if "PARENT" in p:
        value = ctx.one(p["PARENT"])
        node.parent = ctx.mq_name(value, "qmgr") if value.text.strip() else None
        if node.parent is not None:
            parent_dialect = ctx.dialect_of(node.parent)
    ctx.read(cmd, node, QMGR_ATTRIBUTES)  # the attribute table: PSMODE, PSCLUS (their values), DESCR
    repos = _full_repositories(ctx, cmd)
    changes: dict[str, object] = changes_between(ctx.state.node, node)
    if repos is not None:
        changes["repos"] = repos
    new = change(ctx, cmd, "QMGR", Alter(Kind.NODE, node.name, changes), Facts(parent_dialect=parent_dialect))
    ctx.sourced(cmd, new.after)
    return "AMQ8005I: IBM MQ queue manager changed."


def _full_repositories(ctx: Context, cmd: Command) -> set[str] | None:
    """The clusters REPOS and REPOSNL make this queue manager a full repository of (None: not given)."""
    p = cmd.params
    if "REPOS" not in p and "REPOSNL" not in p:
        return None
    repos: set[str] = set()
    if "REPOS" in p:
        repos |= {ctx.cluster(p["REPOS"])} - {""}
    if "REPOSNL" in p:
        value = ctx.one(p["REPOSNL"])
        if value.text.strip():
            nl = ctx.state.namelists.get(value.text)
            if nl is None:
                raise ctx.fail(
                    f"REPOSNL: NAMELIST({value.text}) not found; define the namelist first", value.pos
                )
            repos |= set(nl.names)
            ctx.clusters.update(nl.names)
    return repos
