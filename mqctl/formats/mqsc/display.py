"""DISPLAY output laid out as runmqsc lays it out: a message line, then ``KEY(value)`` in two columns.

DISPLAY of a modelled object shows the modelled attributes: all of them with ``ALL`` or when none is
named, else its key attributes (``TOPIC`` and ``TYPE``; ``SUB`` and ``SUBID``…, ``KEYS``) and the ones
named (``DIS TOPIC(T1) CLROUTE``); a named attribute mqctl does not model is counted as not modelled.
Generic names (``TOPIC(SPORT*)``, ``TOPIC(*)``) list every match; ``WHERE(keyword operator value)``
keeps the objects that satisfy it (``where``), refused when mqctl cannot apply it.
``DISPLAY TCLUSTER`` (= ``DISPLAY TOPIC TYPE(CLUSTER)``), ``DISPLAY TOPIC … CLUSINFO`` (or ``TYPE(ALL)``)
and ``DISPLAY CLUSQMGR`` show what the queue manager knows of its clusters (``cluster_info``);
``DISPLAY SUB … SUBTYPE(PROXY)`` (or ``ALL``) the proxy subscriptions the model predicts it holds
(``domain.observed.proxies_at``, the same as reconcile's).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from enum import StrEnum

from mqctl.domain.memberships import full_repositories
from mqctl.domain.model import Channel, ChannelType, Namelist, NodeState, Subscription, SubType, TopicObject
from mqctl.domain.objects import attributes
from mqctl.domain.objects.attributes import Attribute
from mqctl.domain.observed import INTER_QMGR_QUEUE, PROXY, PredictedProxy
from mqctl.formats.mqsc.cluster_info import ClusterQmgr, ClusterTopic, cluster_qmgrs, cluster_topics
from mqctl.formats.mqsc.parser import Command, Param
from mqctl.formats.mqsc.topics import Unmodelled, is_system
from mqctl.formats.mqsc.values import Context
from mqctl.formats.mqsc.vocabulary import IGNORED, QMGR_ORDER, TOPIC_ORDER
from mqctl.formats.mqsc.where import AttrKind, Condition, Kind, WhereError, condition

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
TOPIC_SHOWN = attributes.laid_out(attributes.TOPIC, TOPIC_ORDER)
SUB_ORDER = (
    "TOPICSTR",
    "TOPICOBJ",
    "DEST",
    "DESTQMGR",
    "SELECTOR",
    "DURABLE",
    "SUBSCOPE",
    "SUBTYPE",
    "WSCHEMA",
)
SUB_SHOWN = attributes.laid_out(attributes.SUB, SUB_ORDER)
NAMELIST_SHOWN = attributes.laid_out(attributes.NAMELIST, ("NAMES", "DESCR"))
CHANNEL_ORDER = ("CHLTYPE", "CLUSTER", "CLUSNL", "CONNAME", "DESCR", "CLWLPRTY", "CLWLRANK", "CLWLWGHT")
CHANNEL_SHOWN = attributes.laid_out(attributes.CHANNEL, CHANNEL_ORDER)
QMGR_SHOWN = attributes.laid_out(attributes.NODE, QMGR_ORDER)


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


def proxy_pairs(proxy: PredictedProxy) -> list[tuple[str, str]]:
    """A proxy subscription as DISPLAY SUB shows it (name as MQ makes it, DESTQMGR the originator)."""
    via = proxy.cluster or "HIERARCHY"
    return [
        ("SUB", f"SYSTEM.PROXY.{proxy.origin} {via} {proxy.pattern}"),
        ("TOPICSTR", proxy.pattern),
        ("TOPICOBJ", ""),
        ("DISTYPE", "RESOLVED"),
        ("DEST", INTER_QMGR_QUEUE),
        ("DESTQMGR", proxy.origin),
        ("SELECTOR", ""),
        ("SELTYPE", "NONE"),
        ("DESTCLAS", "PROVIDED"),
        ("DURABLE", "YES"),
        ("SUBSCOPE", "ALL"),
        ("SUBTYPE", "PROXY"),
        ("SUBUSER", proxy.origin),
        ("WSCHEMA", "TOPIC"),
    ]


def proxies_text(proxies: Sequence[PredictedProxy]) -> list[str]:
    """Proxy subscriptions as ``DISPLAY SUB(*) SUBTYPE(PROXY) ALL`` prints them, one block each."""
    out: list[str] = []
    for proxy in proxies:
        out.append(_HEADERS["SUB"])
        out.extend(layout(proxy_pairs(proxy)))
    return out


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


_NO_CHANNEL = Channel(node="", name="", chltype=ChannelType.CLUSSDR)
"""A cluster queue manager known without its channel shows the channel attributes' defaults."""


def clusqmgr_pairs(q: ClusterQmgr) -> list[tuple[str, str]]:
    c = q.channel if q.channel is not None else _NO_CHANNEL
    return [
        ("CLUSQMGR", q.name),
        ("CHANNEL", c.name),
        ("CLUSTER", q.cluster),
        ("CONNAME", c.conname),
        ("DEFTYPE", q.deftype),
        ("QMTYPE", "REPOS" if q.full_repository else "NORMAL"),
        ("CLWLRANK", str(c.clwlrank)),
        ("CLWLPRTY", str(c.clwlprty)),
        ("CLWLWGHT", str(c.clwlwght)),
        ("DESCR", c.descr),
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
_SUBTYPES = (*(t.value for t in SubType), PROXY)
"""DISPLAY SUB's SUBTYPE values: the model's (ADMIN, API) and the proxy subscriptions it predicts."""
_SUB_TYPES = ("USER", *_SUBTYPES, "ALL")

KEYS: dict[str, tuple[str, ...]] = {
    "TOPIC": ("TOPIC", "TYPE"),
    "TCLUSTER": ("TOPIC", "TYPE"),
    "SUB": ("SUB", "SUBID"),
    "NAMELIST": ("NAMELIST",),
    "CHANNEL": ("CHANNEL", "CHLTYPE"),
    "CLUSQMGR": ("CLUSQMGR", "CHANNEL", "CLUSTER"),
    "QMGR": ("QMNAME",),
}
"""What DISPLAY always shows of an object, whatever attributes are asked for (IBM's MQSC reference)."""

SELECTIONS: dict[str, frozenset[str]] = {
    "TOPIC": frozenset({"TYPE", "CLUSTER", "WHERE"}),
    "TCLUSTER": frozenset({"CLUSTER", "WHERE"}),
    "SUB": frozenset({"SUBTYPE", "DURABLE", "SUBID", "DISTYPE", "WHERE"}),
    "NAMELIST": frozenset({"WHERE"}),
    "CHANNEL": frozenset({"CHLTYPE", "TYPE", "WHERE"}),
    "CLUSQMGR": frozenset({"CLUSTER", "CHANNEL", "WHERE"}),
    "QMGR": frozenset(),
}
"""Keywords given with a value that choose which objects are shown (not attributes asked for)."""
_FLAGS = frozenset({"ALL", "CLUSINFO", "SUMMARY"})


def _kind(attr: Attribute) -> AttrKind:
    enum = attr.enum
    if enum is not None:
        return AttrKind(Kind.CHOICE, tuple(m.value for m in enum))
    if attr.type is bool:
        return AttrKind(Kind.CHOICE, ("YES", "NO"))
    if attr.type is int:
        return AttrKind(Kind.NUMBER)
    if attr.type is tuple:
        return AttrKind(Kind.LIST)
    if attr.choices:
        return AttrKind(Kind.CHOICE, attr.choices)
    return AttrKind(Kind.TEXT)


def _kinds(table: tuple[Attribute, ...], **extra: AttrKind) -> dict[str, AttrKind]:
    return {**{a.keyword: _kind(a) for a in table}, **extra}


_TEXT = AttrKind(Kind.TEXT)
KINDS: dict[str, dict[str, AttrKind]] = {
    "TOPIC": _kinds(
        attributes.TOPIC,
        TOPIC=_TEXT,
        TYPE=AttrKind(Kind.CHOICE, ("LOCAL", "CLUSTER")),
        CLUSQMGR=_TEXT,
        CLSTATE=AttrKind(Kind.CHOICE, ("ACTIVE", "PENDING", "INVALID", "ERROR")),
    ),
    "SUB": _kinds(
        attributes.SUB,
        SUB=_TEXT,
        SUBTYPE=AttrKind(Kind.CHOICE, _SUBTYPES),
        DISTYPE=AttrKind(Kind.CHOICE, ("RESOLVED", "DEFINED")),
        SELTYPE=AttrKind(Kind.CHOICE, ("NONE", "STANDARD", "EXTENDED")),
        DESTCLAS=AttrKind(Kind.CHOICE, ("PROVIDED", "MANAGED")),
        SUBUSER=_TEXT,
    ),
    "NAMELIST": _kinds(attributes.NAMELIST, NAMELIST=_TEXT, NAMCOUNT=AttrKind(Kind.NUMBER)),
    "CHANNEL": _kinds(attributes.CHANNEL, CHANNEL=_TEXT),
    "CLUSQMGR": {
        "CLUSQMGR": _TEXT,
        "CHANNEL": _TEXT,
        "CLUSTER": _TEXT,
        "CONNAME": _TEXT,
        "DEFTYPE": AttrKind(Kind.CHOICE, ("CLUSSDR", "CLUSSDRA", "CLUSSDRB", "CLUSRCVR")),
        "QMTYPE": AttrKind(Kind.CHOICE, ("REPOS", "NORMAL")),
        "CLWLRANK": AttrKind(Kind.NUMBER),
        "CLWLPRTY": AttrKind(Kind.NUMBER),
        "CLWLWGHT": AttrKind(Kind.NUMBER),
        "DESCR": _TEXT,
    },
    "QMGR": _kinds(attributes.NODE, QMNAME=_TEXT, REPOS=_TEXT),  # MQ has no CLUSTERS attribute
}
KINDS["TCLUSTER"] = KINDS["TOPIC"]
"""Per DISPLAY, the attributes mqctl shows and can filter on (``WHERE``), with the kind of each value."""

_NOT_MODELLED: dict[str, frozenset[str]] = {
    "TOPIC": IGNORED["TOPIC"] | {"ALTDATE", "ALTTIME", "CLUSDATE", "CLUSTIME", "QMID"},
    "SUB": IGNORED["SUB"] | {"ALTDATE", "ALTTIME", "CRDATE", "CRTIME"},
    "NAMELIST": IGNORED["NAMELIST"] | {"ALTDATE", "ALTTIME"},
    "CHANNEL": IGNORED["CHANNEL"] | {"ALTDATE", "ALTTIME"},
    "CLUSQMGR": frozenset(
        {"ALTDATE", "ALTTIME", "QMID", "STATUS", "SUSPEND", "VERSION", "CLUSDATE", "CLUSTIME", "XMITQ"}
    ),
}
_NOT_MODELLED["TCLUSTER"] = _NOT_MODELLED["TOPIC"]
"""Attributes runmqsc shows (and filters on) that mqctl does not model: asked for, they are counted as
not modelled; in a WHERE, the filter is refused."""


def display(ctx: Context, cmd: Command) -> list[str]:
    """Result lines of a modelled DISPLAY; raises ``Unmodelled`` for objects mqctl does not hold."""
    state = ctx.state
    noun = cmd.noun
    where = _where(ctx, cmd)
    asked = _asked(ctx, cmd)
    if noun == "QMGR":
        return [_HEADERS["QMGR"], *layout(_chosen(qmgr_pairs(state), noun, asked))]
    pattern = ctx.name(cmd, noun.lower(), check=False).text
    items, proxies = _items(ctx, cmd)
    if pattern.endswith("*"):
        shown = [(name, pairs) for name, pairs in items if name.startswith(pattern[:-1])]
    else:
        shown = [(name, pairs) for name, pairs in items if name == pattern]
    if not shown:
        if proxies and pattern.endswith("*"):
            return [f"AMQ8147E: IBM MQ object {pattern} not found."]  # the model knows: none
        if pattern.endswith("*") or is_system(pattern) or noun in ("CHANNEL", "CLUSQMGR"):
            raise Unmodelled(f"no modelled {noun} matches {pattern}")
        raise ctx.fail(f"{noun}({pattern}) not found (AMQ8147E)", cmd.name_pos)
    if where is not None:
        shown = [(name, pairs) for name, pairs in shown if where.holds(pairs)]
    header = _HEADERS["TOPIC" if noun == "TCLUSTER" else noun]
    out: list[str] = []
    for _, pairs in shown:
        out.append(header)
        out.extend(layout(_chosen(pairs, noun, asked)))
    return out


def _chosen(pairs: list[tuple[str, str]], noun: str, asked: frozenset[str] | None) -> list[tuple[str, str]]:
    """Every pair (``asked`` None: ALL, or nothing named), else the key attributes and those asked for."""
    if asked is None:
        return pairs
    keep = asked | frozenset(KEYS[noun])
    return [(k, v) for k, v in pairs if k in keep]


def _asked(ctx: Context, cmd: Command) -> frozenset[str] | None:
    """The attributes named without a value (None: show them all); a valued keyword that does not
    select for this DISPLAY is refused, a named attribute mqctl does not model is counted."""
    noun = cmd.noun
    selections = SELECTIONS[noun]
    kinds = KINDS[noun]
    asked: set[str] = set()
    every = named = False
    for param in cmd.params.values():
        keyword = param.keyword
        if param.values is not None:
            if keyword in selections:
                continue
            if keyword in ("CMDSCOPE", "QSGDISP"):
                raise ctx.fail(
                    f"{keyword} (z/OS queue-sharing groups) is not modelled: mqctl cannot apply it",
                    param.pos,
                    attribute=keyword,
                )
            raise ctx.syntax(
                f"{keyword}(...) does not select objects of DISPLAY {noun}"
                + (f"; it takes {', '.join(sorted(selections))}" if selections else "")
                + " (name an attribute without a value to show it)",
                param.pos,
            )
        if keyword == "ALL":
            every = True
        elif keyword in _FLAGS:
            continue
        elif keyword in kinds or keyword in KEYS[noun]:
            asked.add(keyword)
        else:
            named = True
            ctx.unmodelled[f"{keyword} on {noun}"] += 1
    if every or not (asked or named):
        return None
    return frozenset(asked)


def _where(ctx: Context, cmd: Command) -> Condition | None:
    param = cmd.params.get("WHERE")
    if param is None:
        return None
    if cmd.noun == "QMGR" or param.values is None:
        raise ctx.syntax(
            "DISPLAY QMGR takes no WHERE" if cmd.noun == "QMGR" else "WHERE needs (keyword operator value)",
            param.pos,
        )
    values = param.values
    try:
        return condition(
            [v.text for v in values], KINDS[cmd.noun], unmodelled=_NOT_MODELLED.get(cmd.noun, frozenset())
        )
    except WhereError as err:
        at = values[min(err.part, len(values) - 1)].pos
        if err.unmodelled:
            raise ctx.fail(err.message, at, attribute="WHERE") from None
        raise ctx.syntax(err.message, at, attribute="WHERE") from None


Items = list[tuple[str, list[tuple[str, str]]]]


def _items(ctx: Context, cmd: Command) -> tuple[Items, bool]:
    """(name, attributes) of every object of the command's kind, in display order; and whether the
    proxy subscriptions were asked for (the model knows them all: none is an answer)."""
    state = ctx.state
    if cmd.noun in ("TOPIC", "TCLUSTER"):
        kind = "CLUSTER" if cmd.noun == "TCLUSTER" else _topic_type(ctx, cmd)
        items: Items = []
        if kind != "CLUSTER":
            items += [(k, topic_pairs(v)) for k, v in sorted(state.topics.items())]
        if kind != "LOCAL":
            clusters = _filter(ctx, cmd, "CLUSTER")
            items += [
                (e.object.name, cluster_topic_pairs(e))
                for e in cluster_topics(ctx)
                if clusters(e.object.cluster)
            ]
        return items, False
    if cmd.noun == "CLUSQMGR":
        clusters, channels = _filter(ctx, cmd, "CLUSTER"), _filter(ctx, cmd, "CHANNEL")
        return [
            (q.name, clusqmgr_pairs(q))
            for q in cluster_qmgrs(ctx)
            if clusters(q.cluster) and channels(q.channel.name if q.channel is not None else "")
        ], False
    if cmd.noun == "SUB":
        return _subs(ctx, cmd)
    if cmd.noun == "NAMELIST":
        return [(k, namelist_pairs(v)) for k, v in sorted(state.namelists.items())], False
    types = _filter(ctx, cmd, "CHLTYPE") if "CHLTYPE" in cmd.params else _filter(ctx, cmd, "TYPE")
    return [(k, channel_pairs(v)) for k, v in sorted(state.channels.items()) if types(str(v.chltype))], False


def _subs(ctx: Context, cmd: Command) -> tuple[Items, bool]:
    """DISPLAY SUB's SUBTYPE (USER: ADMIN and API, the default), DURABLE, SUBID and DISTYPE."""
    subtype = _choice(ctx, cmd.params.get("SUBTYPE"), _SUB_TYPES, "USER")
    durable = _choice(ctx, cmd.params.get("DURABLE"), ("ALL", "YES", "NO"), "ALL")
    distype = _choice(ctx, cmd.params.get("DISTYPE"), ("RESOLVED", "DEFINED"), "RESOLVED")
    if distype == "DEFINED":
        param = cmd.params["DISTYPE"]
        raise ctx.fail(
            "DISTYPE(DEFINED) is not modelled: mqctl holds the resolved topic string only",
            param.pos,
            attribute="DISTYPE",
        )
    items: Items = []
    if subtype != "PROXY":
        for name, sub in sorted(ctx.state.subscriptions.items()):
            if subtype in ("USER", "ALL") or str(sub.subtype) == subtype:
                items.append((name, sub_pairs(sub)))
    proxies = subtype in ("PROXY", "ALL")
    if proxies:
        if ctx.proxies is None:
            raise Unmodelled("proxy subscriptions are predicted from the whole model, not available here")
        items += [(pairs[0][1], pairs) for pairs in map(proxy_pairs, ctx.proxies(ctx.state))]
    if durable != "ALL":
        items = [(n, p) for n, p in items if dict(p).get("DURABLE") == durable]
    if "SUBID" in cmd.params:
        wanted = ctx.one(cmd.params["SUBID"]).text
        items = [(n, p) for n, p in items if dict(p).get("SUBID", "").upper() == wanted.upper()]
    return items, proxies


def _choice(ctx: Context, param: Param | None, choices: tuple[str, ...], default: str) -> str:
    return default if param is None else ctx.choice(param, choices)


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
