"""A plan's edits as MQSC commands, one per line, as ``runmqsc`` and ``mqctl runmqsc`` apply them.

Definitions are written as the exporter writes them (``writer``: every name and string quoted, the
attribute table's order), on one line each; an altered topic object gives only the attributes that
change (so that MQ's own refusals, such as CLROUTE while CLUSTER is set, stay visible).
"""

from __future__ import annotations

from mqctl.domain.errors import InputError
from mqctl.domain.model import Channel, Namelist, Node, NodeState, Subscription, TopicObject
from mqctl.domain.plan.edits import Edit
from mqctl.formats.mqsc.writer import (
    CHANNEL_ATTRS,
    NAMELIST_ATTRS,
    QMGR_ATTRS,
    TOPIC_ATTRS,
    _attrs,
    _sub_attrs,
    _value,
    quote,
)

_NOUN = {Namelist: "NAMELIST", Channel: "CHANNEL", TopicObject: "TOPIC", Subscription: "SUB"}


def mqsc_commands(edits: list[Edit], state: NodeState) -> list[str]:
    """``state``: the queue manager once the edits are applied (REPOSNL and TOPICOBJ are read there)."""
    return [_command(e, state) for e in edits]


def _command(edit: Edit, state: NodeState) -> str:
    obj = edit.obj
    if isinstance(obj, Node):
        return " ".join(["ALTER QMGR", *_qmgr(edit, state)])
    noun = _NOUN[type(obj)]
    head = f"{noun}({quote(obj.name)})"
    if edit.verb == "delete":
        return f"DELETE {head}"
    if isinstance(obj, TopicObject):
        if edit.verb == "alter":
            given = [
                f"{a.keyword}({_value(a, getattr(obj, a.field))})"
                for a in TOPIC_ATTRS
                if a.field in edit.changes
            ]
            return " ".join([f"ALTER {head}", *given])
        return " ".join([f"DEFINE {head} TYPE(LOCAL)", *_attrs(obj, TOPIC_ATTRS), "REPLACE"])
    if isinstance(obj, Subscription):
        return " ".join([f"DEFINE {head}", *_sub_attrs(state, obj), "REPLACE"])
    table = CHANNEL_ATTRS if isinstance(obj, Channel) else NAMELIST_ATTRS
    return " ".join([f"DEFINE {head}", *_attrs(obj, table), "REPLACE"])


def _qmgr(edit: Edit, state: NodeState) -> list[str]:
    node = edit.obj
    out = [f"{a.keyword}({_value(a, getattr(node, a.field))})" for a in QMGR_ATTRS if a.field in edit.changes]
    if edit.repos is not None:
        repos = sorted(edit.repos)
        if len(repos) <= 1:
            out += [f"REPOS({quote(repos[0] if repos else '')})", f"REPOSNL({quote('')})"]
        else:
            nl = next((n.name for n in state.namelists.values() if sorted(n.names) == repos), None)
            if nl is None:
                raise InputError(
                    f"is a full repository of {', '.join(repos)} but no namelist names exactly them (REPOSNL)",
                    obj=f"qmgr {node.name}",
                )
            out += [f"REPOS({quote('')})", f"REPOSNL({quote(nl)})"]
    return out


def mqsc_checks(edits: list[Edit]) -> list[str]:
    """The DISPLAY commands that show the step took effect (a deleted object: not found, AMQ8147E)."""
    out: list[str] = []
    for edit in edits:
        obj = edit.obj
        if isinstance(obj, Node):
            out.append("DISPLAY QMGR PARENT REPOS REPOSNL PSMODE PSCLUS")
            if "parent" in edit.changes:
                out.append("DISPLAY PUBSUB TYPE(ALL)")
            if edit.repos is not None:
                out.append("DISPLAY CLUSQMGR(*) QMTYPE STATUS")
        elif isinstance(obj, TopicObject):
            out.append(f"DISPLAY TOPIC({quote(obj.name)}) TOPICSTR CLUSTER CLROUTE")
            if obj.cluster or "cluster" in edit.changes:
                out.append(f"DISPLAY TCLUSTER({quote(obj.name)}) CLUSTER CLROUTE CLSTATE")
            out.append(f"DISPLAY TPSTATUS({quote(obj.topicstr)}) TYPE(SUB)")
        elif isinstance(obj, Subscription):
            out.append(f"DISPLAY SUB({quote(obj.name)}) TOPICSTR SELECTOR")
        elif isinstance(obj, Channel):
            out.append(f"DISPLAY CHANNEL({quote(obj.name)}) CHLTYPE CLUSTER CLUSNL")
            out.append("DISPLAY CLUSQMGR(*) QMTYPE STATUS")
        else:
            out.append(f"DISPLAY NAMELIST({quote(obj.name)}) NAMES")
    return list(dict.fromkeys(out))
