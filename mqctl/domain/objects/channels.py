"""Cluster channels (CLUSRCVR, CLUSSDR): what DEFINE and ALTER CHANNEL accept.

A CLUSRCVR channel makes its queue manager a member of its cluster(s) (``domain.memberships``); its
workload attributes rank, prioritise and weight it as a topic host (semantics §9). CLUSNL may name a
namelist not defined yet, as MQ allows (``missing_namelist`` lets a door warn).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from mqctl.domain.errors import InputError
from mqctl.domain.memberships import channel_gives, rederive
from mqctl.domain.model import Channel, ChannelType, NodeState
from mqctl.domain.names import check_mq_name
from mqctl.domain.objects.edit import changed, refuse_existing, require
from mqctl.domain.objects.text import CONNAME_MAX, check_descr, check_mq_text, check_range
from mqctl.domain.valid_text import check_definition_text

CHANNEL_NAME_MAX = 20


def check(ch: Channel) -> None:
    obj = f"channel {ch.name}"
    check_definition_text(ch, obj)
    check_mq_name(ch.name, "channel")
    if len(ch.name) > CHANNEL_NAME_MAX:
        raise InputError(
            f"is {len(ch.name)} characters long; MQ channel names have at most {CHANNEL_NAME_MAX}", obj=obj
        )
    if ch.chltype not in (ChannelType.CLUSRCVR, ChannelType.CLUSSDR):
        raise InputError("only CLUSRCVR and CLUSSDR channels are modelled", obj=obj, attribute="CHLTYPE")
    if ch.cluster and ch.clusnl:  # MQ: "up to one of CLUSTER or CLUSNL can be nonblank"
        raise InputError("give CLUSTER or CLUSNL, not both", obj=obj, attribute="CLUSNL")
    if ch.cluster:
        check_mq_name(ch.cluster, "cluster")
    if ch.clusnl:
        check_mq_name(ch.clusnl, "namelist")
    check_mq_text(ch.conname, CONNAME_MAX, obj, "CONNAME")
    check_descr(ch.descr, obj)
    check_range(ch.clwlrank, 0, 9, obj, "CLWLRANK")
    check_range(ch.clwlprty, 0, 9, obj, "CLWLPRTY")
    check_range(ch.clwlwght, 1, 99, obj, "CLWLWGHT")


def check_change(old: Channel, new: Channel) -> None:
    if old.chltype is not new.chltype:
        raise InputError(
            f"is a {old.chltype} channel, not {new.chltype}", obj=f"channel {old.name}", attribute="CHLTYPE"
        )
    check(new)


def missing_namelist(state: NodeState, ch: Channel) -> str | None:
    """A warning when CLUSNL names a namelist the queue manager does not define (yet)."""
    if ch.clusnl and ch.clusnl not in state.namelists:
        return f"channel {ch.name}: namelist {ch.clusnl} is not defined (yet)"
    return None


def define(state: NodeState, ch: Channel, *, replace: bool, seq: int) -> bool:
    old = state.channels.get(ch.name)
    refuse_existing(old, replace, f"channel {ch.name}")
    if old is not None:
        check_change(old, ch)
    else:
        check(ch)
    released = channel_gives(state, old)
    state.channels[ch.name] = dataclasses.replace(ch, seq=seq)
    rederive(state, seq=seq, released=released)
    return old is not None


def alter(state: NodeState, name: str, changes: Mapping[str, Any], *, seq: int) -> Channel:
    """Only the given attributes change; giving CLUSTER clears CLUSNL and the other way round."""
    old = require(state.channels, name, f"channel {name}", state.node.name)
    new = changed(old, changes, seq)
    if "cluster" in changes and new.cluster and "clusnl" not in changes:
        new.clusnl = ""
    if "clusnl" in changes and new.clusnl and "cluster" not in changes:
        new.cluster = ""
    check_change(old, new)
    released = channel_gives(state, old)
    state.channels[name] = new
    rederive(state, seq=seq, released=released)
    return new


def delete(state: NodeState, name: str, *, seq: int) -> Channel:
    old = require(state.channels, name, f"channel {name}", state.node.name)
    released = channel_gives(state, state.channels.pop(name))
    rederive(state, seq=seq, released=released)
    return old
