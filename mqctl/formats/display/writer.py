"""DISPLAY output written as runmqsc or the REST API would give it: what the model predicts a queue manager
shows, for a round trip through ``import display`` and for users who want to see what to expect.

``predicted_commands`` turns a queue manager's part of the model (its subscriptions, the proxy
subscriptions it should hold, its ``NodeView``) into the answers of the ``display.mqsc`` of
docs/observed.md; ``to_runmqsc`` and ``to_json`` lay them out.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from mqctl.domain.model import Subscription
from mqctl.domain.observed import NodeView, PredictedProxy
from mqctl.formats.mqsc.display import layout, proxy_pairs, sub_pairs, topic_pairs

Pairs = list[tuple[str, str]]

MESSAGES = {
    "SUB": "AMQ8096I: IBM MQ subscription inquired.",
    "TCLUSTER": "AMQ8633I: Display topic details.",
    "CLUSQMGR": "AMQ8441I: Display Cluster Queue Manager details.",
    "PUBSUB": "AMQ8723I: Display pub/sub status details.",
    "CHSTATUS": "AMQ8417I: Display Channel Status details.",
}
QUALIFIERS = {
    "SUB": "sub",
    "TCLUSTER": "topic",
    "CLUSQMGR": "clusqmgr",
    "PUBSUB": "pubsub",
    "CHSTATUS": "chstatus",
}


@dataclass(slots=True)
class DisplayCommand:
    """One DISPLAY command and its answer, one list of ``(KEYWORD, value)`` pairs per object."""

    text: str
    kind: str
    blocks: list[Pairs] = field(default_factory=list)


def _sub_pairs(sub: Subscription) -> Pairs:
    pairs = sub_pairs(sub)
    subtype = getattr(sub, "subtype", "ADMIN")
    return [(k, str(subtype) if k == "SUBTYPE" else v) for k, v in pairs]


def predicted_commands(
    subscriptions: Iterable[Subscription], proxies: Iterable[PredictedProxy], view: NodeView
) -> list[DisplayCommand]:
    """The answers of display.mqsc (SUB, TCLUSTER, CLUSQMGR, PUBSUB, CHSTATUS) the model predicts."""
    subs = DisplayCommand("DISPLAY SUB(*) SUBTYPE(ALL) ALL", "SUB")
    subs.blocks += [_sub_pairs(s) for s in sorted(subscriptions, key=lambda s: s.name)]
    subs.blocks += [proxy_pairs(p) for p in sorted(proxies, key=lambda p: (p.pattern, p.origin))]
    topics = DisplayCommand("DISPLAY TCLUSTER(*) ALL", "TCLUSTER")
    for obj in view.cluster_topics:
        pairs = topic_pairs(obj)
        pairs[1] = ("TYPE", "CLUSTER")
        topics.blocks.append([*pairs[:6], ("CLUSQMGR", obj.node), ("CLSTATE", "ACTIVE"), *pairs[6:]])
    qmgrs = DisplayCommand("DISPLAY CLUSQMGR(*) ALL", "CLUSQMGR")
    for name, cluster, full in view.cluster_qmgrs:
        deftype = "CLUSRCVR" if name == view.node else "CLUSSDRA"
        qmgrs.blocks.append(
            [
                ("CLUSQMGR", name),
                ("CHANNEL", f"TO.{name}"),
                ("CLUSTER", cluster),
                ("DEFTYPE", deftype),
                ("QMTYPE", "REPOS" if full else "NORMAL"),
                ("STATUS", "RUNNING"),
            ]
        )
    pubsub = DisplayCommand("DISPLAY PUBSUB TYPE(ALL) ALL", "PUBSUB")
    pubsub.blocks.append([("QMNAME", view.node), ("TYPE", "LOCAL"), ("STATUS", "ACTIVE")])
    for name, relation in view.relations:
        pubsub.blocks.append([("QMNAME", name), ("TYPE", relation), ("STATUS", "ACTIVE")])
    channels = DisplayCommand("DISPLAY CHSTATUS(*) ALL", "CHSTATUS")
    for peer in view.peers:
        channels.blocks.append(
            [
                ("CHANNEL", f"TO.{peer}"),
                ("CHLTYPE", "CLUSSDR"),
                ("CONNAME", f"{peer.lower()}.example(1414)"),
                ("CURRENT", ""),
                ("RQMNAME", peer),
                ("STATUS", "RUNNING"),
                ("SUBSTATE", "MQGET"),
            ]
        )
    return [subs, topics, qmgrs, pubsub, channels]


def to_runmqsc(qmgr: str, commands: Sequence[DisplayCommand], captured_at: datetime | None = None) -> str:
    """As ``runmqsc QM < display.mqsc`` prints it (a ``# captured`` line first when a time is given)."""
    out: list[str] = []
    if captured_at is not None:
        out.append(f"# captured {captured_at.isoformat()}")
    out += [
        "5724-H72 (C) Copyright IBM Corp. 1994, 2025.",
        f"Starting MQSC for queue manager {qmgr}.",
        "",
        "",
    ]
    for number, command in enumerate(commands, 1):
        out.append(f"{number:>6} : {command.text}")
        for pairs in command.blocks:
            out.append(MESSAGES[command.kind])
            out += _layout(pairs)
    out += [
        f"{len(commands)} MQSC commands read.",
        "No commands have a syntax error.",
        "All valid MQSC commands were processed.",
        "",
    ]
    return "\n".join(out)


BARE = frozenset({"CURRENT", "SAVED"})
"""Keywords DISPLAY CHSTATUS shows without a value."""


def _layout(pairs: Pairs) -> list[str]:
    """As runmqsc lays out a block (``formats.mqsc.display.layout``), bare keywords without parentheses."""
    return layout(list(pairs), BARE)


def to_json(qmgr: str, commands: Sequence[DisplayCommand], captured_at: datetime | None = None) -> str:
    """The REST API's exchanges: one request and its runCommandJSON response per command."""
    exchanges = []
    for command in commands:
        request: dict[str, object] = {
            "type": "runCommandJSON",
            "command": "display",
            "qualifier": QUALIFIERS[command.kind],
            "name": "*",
        }
        if command.kind == "TCLUSTER":
            request["parameters"] = {"type": "cluster"}
        if command.kind == "SUB":
            request["parameters"] = {"subtype": "all"}
        response = {
            "commandResponse": [
                {
                    "completionCode": 0,
                    "reasonCode": 0,
                    "parameters": {k.lower(): v for k, v in pairs},
                }
                for pairs in command.blocks
            ],
            "overallCompletionCode": 0,
            "overallReasonCode": 0,
        }
        exchange: dict[str, object] = {"qmgr": qmgr, "request": request, "response": response}
        if captured_at is not None:
            exchange["captured_at"] = captured_at.isoformat()
        exchanges.append(exchange)
    return json.dumps(exchanges, indent=2) + "\n"
