"""DISPLAY output laid out as runmqsc lays it out: a message line, then ``KEY(value)`` in two columns.

DISPLAY of a modelled object shows the modelled attributes (all of them, whatever attributes were
asked for: mqctl knows no others). Generic names (``TOPIC(SPORT*)``, ``TOPIC(*)``) list every match.
``DISPLAY TCLUSTER`` (= ``DISPLAY TOPIC TYPE(CLUSTER)``), ``DISPLAY TOPIC … CLUSINFO`` (or ``TYPE(ALL)``)
and ``DISPLAY CLUSQMGR`` show what the queue manager knows of its clusters (``cluster_info``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from enum import StrEnum

from mqctl.domain.memberships import full_repositories
from mqctl.domain.model import Channel, Namelist, NodeState, Subscription, TopicObject
from mqctl.domain.objects import attributes
from mqctl.domain.objects.attributes import Attribute
from mqctl.formats.mqsc.cluster_info import ClusterQmgr, ClusterTopic, cluster_qmgrs, cluster_topics
from mqctl.formats.mqsc.parser import Command
from mqctl.formats.mqsc.topics import Unmodelled, is_system
from mqctl.formats.mqsc.values import Context

_COLUMN = 40


def layout(pairs: Sequence[tuple[str, str]], bare: frozenset[str] = frozenset()) -> list[str]:
    """Two ``KEY(value)`` items a line, each column 40 wide, as runmqsc prints them; the ``bare``
    keywords without parentheses (DISPLAY CHSTATUS's CURRENT)."""
    items = [k if k in bare else f"{k}({v if v != '' else ' '})" for k, v in pairs]
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


# The attributes shown, from the attribute table (``domain.objects.attributes``) in runmqsc's order, with
# the ones DISPLAY implies (DISTYPE, NAMCOUNT, …) in their places; an attribute the table gains is shown
# after these until its place is chosen.
TOPIC_SHOWN = attributes.laid_out(
    attributes.TOPIC,
    ("TOPICSTR", "DESCR", "CLUSTER", "CLROUTE", "PUB", "SUB", "PUBSCOPE", "SUBSCOPE", "PROXYSUB", "WILDCARD"),
)
SUB_SHOWN = attributes.laid_out(
    attributes.SUB,
    ("TOPICSTR", "TOPICOBJ", "DEST", "DESTQMGR", "SELECTOR", "DURABLE", "SUBSCOPE", "SUBTYPE", "WSCHEMA"),
)
NAMELIST_SHOWN = attributes.laid_out(attributes.NAMELIST, ("NAMES", "DESCR"))
CHANNEL_SHOWN = attributes.laid_out(
    attributes.CHANNEL,
    ("CHLTYPE", "CLUSTER", "CLUSNL", "CONNAME", "DESCR", "CLWLPRTY", "CLWLRANK", "CLWLWGHT"),
)
QMGR_SHOWN = attributes.laid_out(attributes.NODE, ("DESCR", "PARENT", "PSMODE", "PSCLUS"))


def shown(value: object) -> str:
    """A value as DISPLAY shows it: an enumeration's word, YES/NO, a list of names comma-separated."""
    if isinstance(value, StrEnum):
        return value.value
    if isinstance(value, bool):
        return "YES" if value else "NO"
    if isinstance(value, tuple):
        return ",".join(value)
    return "" if value is None else str(value)


def _pairs(
    obj: object,
    table: tuple[Attribute, ...],
    implied: Mapping[str, list[tuple[str, str]]] | None = None,
) -> list[tuple[str, str]]:
    """``table``'s attributes of ``obj``; ``implied`` puts what DISPLAY derives after a keyword."""
    out: list[tuple[str, str]] = []
    for attr in table:
        out.append((attr.keyword, shown(getattr(obj, attr.field))))
        if implied and attr.keyword in implied:
            out.extend(implied[attr.keyword])
    return out


def topic_pairs(t: TopicObject) -> list[tuple[str, str]]:
    return [("TOPIC", t.name), ("TYPE", "LOCAL"), *_pairs(t, TOPIC_SHOWN)]


def cluster_topic_pairs(entry: ClusterTopic) -> list[tuple[str, str]]:
    """A cluster topic as DISPLAY TCLUSTER shows it: TYPE(CLUSTER), the host in CLUSQMGR, its CLSTATE."""
    t = entry.object
    pairs = topic_pairs(t)
    pairs[1] = ("TYPE", "CLUSTER")
    return [*pairs[:6], ("CLUSQMGR", t.node), ("CLSTATE", entry.clstate), *pairs[6:]]


def sub_pairs(s: Subscription) -> list[tuple[str, str]]:
    """DISPLAY SUB's attributes that the model holds or implies, in runmqsc's order (SUBID only when known:
    MQ assigns it, and a subscription the model made has none)."""
    implied = {
        "TOPICOBJ": [("DISTYPE", "RESOLVED")],
        "SELECTOR": [
            ("SELTYPE", "STANDARD" if s.selector else "NONE"),
            ("DESTCLAS", "PROVIDED" if s.dest else "MANAGED"),
        ],
    }
    pairs = _pairs(s, SUB_SHOWN, implied)
    subid = [p for p in pairs if p[0] == "SUBID"]
    rest = [p for p in pairs if p[0] != "SUBID"]
    return [("SUB", s.name), *(p for p in subid if p[1]), *rest]  # SUBID after SUB, when MQ gave one


def namelist_pairs(n: Namelist) -> list[tuple[str, str]]:
    return [("NAMELIST", n.name), ("NAMCOUNT", str(len(n.names))), *_pairs(n, NAMELIST_SHOWN)]


def channel_pairs(c: Channel) -> list[tuple[str, str]]:
    return [("CHANNEL", c.name), *_pairs(c, CHANNEL_SHOWN)]


def qmgr_pairs(state: NodeState) -> list[tuple[str, str]]:
    node = state.node
    repos = sorted(full_repositories(state))
    return [
        ("QMNAME", node.name),
        *_pairs(node, QMGR_SHOWN),
        ("REPOS", ",".join(repos)),
    ]  # MQ has no attribute naming the clusters a queue manager is in: DISPLAY CLUSQMGR shows them


def clusqmgr_pairs(q: ClusterQmgr) -> list[tuple[str, str]]:
    c = q.channel
    return [
        ("CLUSQMGR", q.name),
        ("CHANNEL", c.name if c is not None else ""),
        ("CLUSTER", q.cluster),
        ("CONNAME", c.conname if c is not None else ""),
        ("DEFTYPE", q.deftype),
        ("QMTYPE", "REPOS" if q.full_repository else "NORMAL"),
        ("CLWLRANK", str(c.clwlrank if c is not None else 0)),
        ("CLWLPRTY", str(c.clwlprty if c is not None else 0)),
        ("CLWLWGHT", str(c.clwlwght if c is not None else 50)),
        ("DESCR", c.descr if c is not None else ""),
    ]


_HEADERS = {
    "TOPIC": "AMQ8633I: Display topic details.",
    "SUB": "AMQ8096I: IBM MQ subscription inquired.",
    "NAMELIST": "AMQ8550I: Display namelist details.",
    "CHANNEL": "AMQ8414I: Display Channel details.",
    "QMGR": "AMQ8408I: Display Queue Manager details.",
    "CLUSQMGR": "AMQ8441I: Display Cluster Queue Manager details.",
}
_TOPIC_TYPES = ("LOCAL", "CLUSTER", "ALL")


def display(ctx: Context, cmd: Command) -> list[str]:
    """Result lines of a modelled DISPLAY; raises ``Unmodelled`` for objects mqctl does not hold."""
    state = ctx.state
    if cmd.noun == "QMGR":
        return [_HEADERS["QMGR"], *layout(qmgr_pairs(state))]
    pattern = ctx.name(cmd, cmd.noun.lower(), check=False).text
    items = _items(ctx, cmd)
    if pattern.endswith("*"):
        shown = [(name, pairs) for name, pairs in items if name.startswith(pattern[:-1])]
    else:
        shown = [(name, pairs) for name, pairs in items if name == pattern]
    if not shown:
        if pattern.endswith("*") or is_system(pattern) or cmd.noun in ("CHANNEL", "CLUSQMGR"):
            raise Unmodelled(f"no modelled {cmd.noun} matches {pattern}")
        raise ctx.fail(f"{cmd.noun}({pattern}) not found (AMQ8147E)", cmd.name_pos)
    header = _HEADERS["TOPIC" if cmd.noun == "TCLUSTER" else cmd.noun]
    out: list[str] = []
    for _, pairs in shown:
        out.append(header)
        out.extend(layout(pairs))
    return out


def _items(ctx: Context, cmd: Command) -> list[tuple[str, list[tuple[str, str]]]]:
    """(name, attributes) of every object of the command's kind, in display order."""
    state = ctx.state
    if cmd.noun in ("TOPIC", "TCLUSTER"):
        kind = "CLUSTER" if cmd.noun == "TCLUSTER" else _topic_type(ctx, cmd)
        items = []
        if kind != "CLUSTER":
            items += [(k, topic_pairs(v)) for k, v in sorted(state.topics.items())]
        if kind != "LOCAL":
            clusters = _filter(ctx, cmd, "CLUSTER")
            items += [
                (e.object.name, cluster_topic_pairs(e))
                for e in cluster_topics(ctx)
                if clusters(e.object.cluster)
            ]
        return items
    if cmd.noun == "CLUSQMGR":
        clusters, channels = _filter(ctx, cmd, "CLUSTER"), _filter(ctx, cmd, "CHANNEL")
        return [
            (q.name, clusqmgr_pairs(q))
            for q in cluster_qmgrs(ctx)
            if clusters(q.cluster) and channels(q.channel.name if q.channel is not None else "")
        ]
    if cmd.noun == "SUB":
        return [(k, sub_pairs(v)) for k, v in sorted(state.subscriptions.items())]
    if cmd.noun == "NAMELIST":
        return [(k, namelist_pairs(v)) for k, v in sorted(state.namelists.items())]
    return [(k, channel_pairs(v)) for k, v in sorted(state.channels.items())]


def _topic_type(ctx: Context, cmd: Command) -> str:
    """DISPLAY TOPIC's TYPE(LOCAL|CLUSTER|ALL); CLUSINFO adds the cluster topics to the local ones."""
    kind = ctx.choice(cmd.params["TYPE"], _TOPIC_TYPES) if "TYPE" in cmd.params else "LOCAL"
    return "ALL" if "CLUSINFO" in cmd.params and kind == "LOCAL" else kind


def _filter(ctx: Context, cmd: Command, keyword: str) -> Callable[[str], bool]:
    """A ``KEYWORD(generic-name)`` selection such as TCLUSTER's CLUSTER(...): a trailing * is generic."""
    param = cmd.params.get(keyword)
    if param is None or param.values is None:
        return lambda _: True
    wanted = ctx.one(param).text
    if wanted.endswith("*"):
        return lambda value: value.startswith(wanted[:-1])
    return lambda value: value == wanted
