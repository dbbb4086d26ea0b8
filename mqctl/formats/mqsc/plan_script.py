"""A plan's edits as MQSC commands, one per line, as ``runmqsc`` and ``mqctl runmqsc`` apply them.

Definitions are written as the exporter writes them (``writer``: every name and string quoted, the
attribute table's order), on one line each; an altered topic object gives only the attributes that
change (so that MQ's own refusals, such as CLROUTE while CLUSTER is set, stay visible).
"""

from __future__ import annotations

from mqctl.domain.errors import InputError
from mqctl.domain.model import NodeState, Subscription, TopicObject
from mqctl.domain.objects.edits import Alter, Define, Delete, Edit, Kind
from mqctl.formats.mqsc.writer import (
    CHANNEL_ATTRS,
    NAMELIST_ATTRS,
    QMGR_ATTRS,
    TOPIC_ATTRS,
    attribute_value,
    keyword_items,
    quote,
    sub_keyword_items,
)

_NOUN = {Kind.NAMELIST: "NAMELIST", Kind.CHANNEL: "CHANNEL", Kind.TOPIC: "TOPIC", Kind.SUB: "SUB"}


def mqsc_commands(edits: list[Edit], state: NodeState) -> list[str]:
    """``state``: the queue manager once the edits are applied (REPOSNL and TOPICOBJ are read there)."""
    return [_command(e, state) for e in edits]


def _command(edit: Edit, state: NodeState) -> str:
    if isinstance(edit, Alter) and edit.kind is Kind.NODE:
        return " ".join(["ALTER QMGR", *_qmgr(edit, state)])
    noun = _NOUN[edit.kind]
    if isinstance(edit, Delete):
        return f"DELETE {noun}({quote(str(edit.key))})"
    if isinstance(edit, Alter):
        given = [
            f"{a.keyword}({attribute_value(a, edit.changes[a.field])})"
            for a in TOPIC_ATTRS
            if a.field in edit.changes
        ]
        return " ".join([f"ALTER {noun}({quote(str(edit.key))})", *given])
    obj = edit.obj
    head = f"{noun}({quote(obj.name)})"  # type: ignore[attr-defined]
    if isinstance(obj, TopicObject):
        return " ".join([f"DEFINE {head} TYPE(LOCAL)", *keyword_items(obj, TOPIC_ATTRS), "REPLACE"])
    if isinstance(obj, Subscription):
        return " ".join([f"DEFINE {head}", *sub_keyword_items(state, obj), "REPLACE"])
    table = CHANNEL_ATTRS if edit.kind is Kind.CHANNEL else NAMELIST_ATTRS
    return " ".join([f"DEFINE {head}", *keyword_items(obj, table), "REPLACE"])


def _qmgr(edit: Alter, state: NodeState) -> list[str]:
    out = [
        f"{a.keyword}({attribute_value(a, edit.changes[a.field])})"
        for a in QMGR_ATTRS
        if a.field in edit.changes
    ]
    if "repos" in edit.changes:
        repos = sorted(edit.changes["repos"])
        if len(repos) <= 1:
            out += [f"REPOS({quote(repos[0] if repos else '')})", f"REPOSNL({quote('')})"]
        else:
            nl = next((n.name for n in state.namelists.values() if sorted(n.names) == repos), None)
            if nl is None:
                raise InputError(
                    f"is a full repository of {', '.join(repos)} but no namelist names exactly them (REPOSNL)",
                    obj=f"qmgr {edit.key}",
                )
            out += [f"REPOS({quote('')})", f"REPOSNL({quote(nl)})"]
    return out


def mqsc_checks(edits: list[Edit], before: NodeState, after: NodeState) -> list[str]:
    """The DISPLAY commands that show the step took effect (a deleted object: not found, AMQ8147E);
    ``before``/``after``: the queue manager before and after the step (what a delete or alter names)."""
    out: list[str] = []
    for edit in edits:
        kind = edit.kind
        name = edit.obj.name if isinstance(edit, Define) else str(edit.key)  # type: ignore[attr-defined]
        if kind is Kind.NODE:
            changes = edit.changes if isinstance(edit, Alter) else {}
            out.append("DISPLAY QMGR PARENT REPOS REPOSNL PSMODE PSCLUS")
            if "parent" in changes:
                out.append("DISPLAY PUBSUB TYPE(ALL)")
            if "repos" in changes:
                out.append("DISPLAY CLUSQMGR(*) QMTYPE STATUS")
        elif kind is Kind.TOPIC:
            topic = after.topics.get(name) or before.topics.get(name)
            out.append(f"DISPLAY TOPIC({quote(name)}) TOPICSTR CLUSTER CLROUTE")
            clustered = topic is not None and bool(topic.cluster)
            if clustered or (isinstance(edit, Alter) and "cluster" in edit.changes):
                out.append(f"DISPLAY TCLUSTER({quote(name)}) CLUSTER CLROUTE CLSTATE")
            if topic is not None:
                out.append(f"DISPLAY TPSTATUS({quote(topic.topicstr)}) TYPE(SUB)")
        elif kind is Kind.SUB:
            out.append(f"DISPLAY SUB({quote(name)}) TOPICSTR SELECTOR")
        elif kind is Kind.CHANNEL:
            out.append(f"DISPLAY CHANNEL({quote(name)}) CHLTYPE CLUSTER CLUSNL")
            out.append("DISPLAY CLUSQMGR(*) QMTYPE STATUS")
        else:
            out.append(f"DISPLAY NAMELIST({quote(name)}) NAMES")
    return list(dict.fromkeys(out))
