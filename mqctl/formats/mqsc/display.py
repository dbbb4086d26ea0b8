"""DISPLAY output laid out as runmqsc lays it out: a message line, then ``KEY(value)`` in two columns.

DISPLAY of a modelled object shows the modelled attributes (all of them, whatever attributes were
asked for: mqctl knows no others). Generic names (``TOPIC(SPORT*)``, ``TOPIC(*)``) list every match.
"""

from __future__ import annotations

from mqctl.domain.memberships import full_repositories
from mqctl.domain.model import Channel, Namelist, NodeState, Subscription, TopicObject
from mqctl.formats.mqsc.parser import Command
from mqctl.formats.mqsc.topics import Unmodelled, is_system
from mqctl.formats.mqsc.values import Context

_COLUMN = 40


def layout(pairs: list[tuple[str, str]]) -> list[str]:
    """Two ``KEY(value)`` items a line, each column 40 wide, as runmqsc prints them."""
    items = [f"{key}({value if value != '' else ' '})" for key, value in pairs]
    lines: list[str] = []
    i = 0
    while i < len(items):
        left = items[i]
        if len(left) < _COLUMN - 1 and i + 1 < len(items) and len(items[i + 1]) < _COLUMN:
            lines.append(f"   {left.ljust(_COLUMN)}{items[i + 1]}")
            i += 2
        else:
            lines.append(f"   {left}")
            i += 1
    return lines


def topic_pairs(t: TopicObject) -> list[tuple[str, str]]:
    return [
        ("TOPIC", t.name),
        ("TYPE", "LOCAL"),
        ("TOPICSTR", t.topicstr),
        ("DESCR", t.descr),
        ("CLUSTER", t.cluster),
        ("CLROUTE", t.clroute.value),
        ("PUB", t.pub.value),
        ("SUB", t.sub.value),
        ("PUBSCOPE", t.pubscope.value),
        ("SUBSCOPE", t.subscope.value),
        ("PROXYSUB", t.proxysub.value),
        ("WILDCARD", t.wildcard.value),
    ]


def sub_pairs(s: Subscription) -> list[tuple[str, str]]:
    return [
        ("SUB", s.name),
        ("TOPICSTR", s.topicstr),
        ("TOPICOBJ", s.topicobj),
        ("DEST", s.dest),
        ("DESTQMGR", s.destqmgr),
        ("SELECTOR", s.selector or ""),
        ("SUBSCOPE", s.subscope.value),
        ("WSCHEMA", s.wschema.value),
        ("DURABLE", "YES" if s.durable else "NO"),
        ("SUBTYPE", "ADMIN"),
    ]


def namelist_pairs(n: Namelist) -> list[tuple[str, str]]:
    return [
        ("NAMELIST", n.name),
        ("NAMCOUNT", str(len(n.names))),
        ("NAMES", ",".join(n.names)),
        ("DESCR", n.descr),
    ]


def channel_pairs(c: Channel) -> list[tuple[str, str]]:
    return [
        ("CHANNEL", c.name),
        ("CHLTYPE", c.chltype.value),
        ("CLUSTER", c.cluster),
        ("CLUSNL", c.clusnl),
        ("CONNAME", c.conname),
        ("DESCR", c.descr),
    ]


def qmgr_pairs(state: NodeState) -> list[tuple[str, str]]:
    node = state.node
    repos = sorted(full_repositories(state))
    return [
        ("QMNAME", node.name),
        ("DESCR", node.descr),
        ("PARENT", node.parent or ""),
        ("PSMODE", node.psmode),
        ("PSCLUS", node.psclus),
        ("REPOS", ",".join(repos)),
        ("CLUSTERS", ",".join(sorted(state.memberships))),
    ]


_HEADERS = {
    "TOPIC": "AMQ8633I: Display topic details.",
    "SUB": "AMQ8096I: IBM MQ subscription inquired.",
    "NAMELIST": "AMQ8550I: Display namelist details.",
    "CHANNEL": "AMQ8414I: Display Channel details.",
    "QMGR": "AMQ8408I: Display Queue Manager details.",
}


def display(ctx: Context, cmd: Command) -> list[str]:
    """Result lines of a modelled DISPLAY; raises ``Unmodelled`` for objects mqctl does not hold."""
    state = ctx.state
    if cmd.noun == "QMGR":
        return [_HEADERS["QMGR"], *layout(qmgr_pairs(state))]
    pattern = ctx.name(cmd, cmd.noun.lower(), check=False).text
    table: dict[str, list[tuple[str, str]]]
    if cmd.noun == "TOPIC":
        table = {k: topic_pairs(v) for k, v in state.topics.items()}
    elif cmd.noun == "SUB":
        table = {k: sub_pairs(v) for k, v in state.subscriptions.items()}
    elif cmd.noun == "NAMELIST":
        table = {k: namelist_pairs(v) for k, v in state.namelists.items()}
    else:
        table = {k: channel_pairs(v) for k, v in state.channels.items()}
    if pattern.endswith("*"):
        names = sorted(n for n in table if n.startswith(pattern[:-1]))
    else:
        names = [pattern] if pattern in table else []
    if not names:
        if pattern.endswith("*") or is_system(pattern) or cmd.noun == "CHANNEL":
            raise Unmodelled(f"no modelled {cmd.noun} matches {pattern}")
        raise ctx.fail(f"{cmd.noun}({pattern}) not found (AMQ8147E)", cmd.name_pos)
    out: list[str] = []
    for name in names:
        out.append(_HEADERS[cmd.noun])
        out.extend(layout(table[name]))
    return out
