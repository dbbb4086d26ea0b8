"""Cluster channels (CLUSRCVR, CLUSSDR): what DEFINE and ALTER CHANNEL accept.

A CLUSRCVR channel makes its queue manager a member of its cluster(s) (``domain.memberships``); its
workload attributes rank, prioritise and weight it as a topic host (SEMANTICS §9).
"""

from __future__ import annotations

from mqctl.domain.errors import InputError
from mqctl.domain.model import Channel, ChannelType
from mqctl.domain.names import check_mq_name
from mqctl.domain.rules.text import CONNAME_MAX, check_descr, check_mq_text, check_range
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
