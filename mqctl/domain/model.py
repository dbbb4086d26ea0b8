"""The objects of semantics §1 as plain dataclasses, shared by the store, the CLI, formats and Spark.

Values are stored as MQSC shows them (enum values upper case). An MQ attribute left at ``ASPARENT``
is resolved through the topic tree (see ``resolution``); a blank ``cluster`` inherits likewise.

``source_file``/``source_line`` record where an imported definition came from (MQSC script, EMS file), so
that ``validate`` findings can point there; objects defined from the shell have none.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class Dialect(StrEnum):
    MQ = "mq"
    EMS = "ems"


class ClRoute(StrEnum):
    DIRECT = "DIRECT"
    TOPICHOST = "TOPICHOST"


class Wildcard(StrEnum):
    PASSTHRU = "PASSTHRU"
    BLOCK = "BLOCK"


class Scope(StrEnum):
    """PUBSCOPE / SUBSCOPE of a topic object."""

    QMGR = "QMGR"
    ALL = "ALL"
    ASPARENT = "ASPARENT"


class SubScope(StrEnum):
    """SUBSCOPE of a subscription (no ASPARENT there)."""

    ALL = "ALL"
    QMGR = "QMGR"


class ProxySub(StrEnum):
    FIRSTUSE = "FIRSTUSE"
    FORCE = "FORCE"


class Enablement(StrEnum):
    """PUB / SUB of a topic object."""

    ENABLED = "ENABLED"
    DISABLED = "DISABLED"
    ASPARENT = "ASPARENT"


class WSchema(StrEnum):
    TOPIC = "TOPIC"
    CHAR = "CHAR"


class SubType(StrEnum):
    """SUBTYPE of an MQ subscription in the model: defined by an administrator, or made by an
    application through the API (seen in a capture of DISPLAY SUB; ``export mqsc`` leaves it out)."""

    ADMIN = "ADMIN"
    API = "API"


class ChannelType(StrEnum):
    CLUSRCVR = "CLUSRCVR"
    CLUSSDR = "CLUSSDR"


class ZoneType(StrEnum):
    MHOP = "mhop"
    ONE_HOP = "1hop"


class Direction(StrEnum):
    """Route selector direction, from the perspective of the server that defines the route."""

    INCOMING = "incoming"
    OUTGOING = "outgoing"


DEFAULT_ZONE = "default_mhop_zone"

PS_ENABLED, PS_DISABLED, PS_COMPAT = "ENABLED", "DISABLED", "COMPAT"
"""The words of a queue manager's PSMODE and PSCLUS (PSCLUS has no COMPAT), spelt here once: the
attribute table's choices (``attributes.PSMODES``) and defaults, and the rules that test one."""


@dataclass(slots=True)
class Node:
    """A broker: an MQ queue manager or an EMS server."""

    name: str
    dialect: Dialect = Dialect.MQ
    psmode: str = PS_ENABLED
    psclus: str = PS_ENABLED
    descr: str = ""
    parent: str | None = None
    """MQ hierarchy: ``ALTER QMGR PARENT(...)``."""
    seq: int = 0
    source_file: str | None = None
    source_line: int | None = None


@dataclass(slots=True)
class Cluster:
    name: str
    seq: int = 0
    descr: str = ""


@dataclass(slots=True)
class Membership:
    node: str
    cluster: str
    full_repository: bool = False
    seq: int = 0


@dataclass(slots=True)
class Namelist:
    node: str
    name: str
    names: tuple[str, ...] = ()
    descr: str = ""
    seq: int = 0
    source_file: str | None = None
    source_line: int | None = None


@dataclass(slots=True)
class Channel:
    """A cluster channel (CLUSRCVR/CLUSSDR); membership is derived from CLUSRCVR channels."""

    node: str
    name: str
    chltype: ChannelType = ChannelType.CLUSRCVR
    cluster: str = ""
    clusnl: str = ""
    conname: str = ""
    descr: str = ""
    clwlrank: int = 0
    """CLWLRANK 0-9: topic hosts of the highest rank are chosen first (semantics §9)."""
    clwlprty: int = 0
    """CLWLPRTY 0-9: among available hosts of that rank, the highest priority."""
    clwlwght: int = 50
    """CLWLWGHT 1-99: the share of publications among the hosts left."""
    seq: int = 0
    source_file: str | None = None
    source_line: int | None = None


@dataclass(slots=True)
class TopicObject:
    """An MQ administrative topic object, or an EMS topic definition (name == topicstr, a pattern).

    For EMS, ``properties`` holds the ``topics.conf`` properties in their written order: a flag maps
    to ``None`` (``global``), a valued property to its text (``maxbytes`` -> ``"64MB"``).
    """

    node: str
    name: str
    topicstr: str
    cluster: str = ""
    clroute: ClRoute = ClRoute.DIRECT
    wildcard: Wildcard = Wildcard.PASSTHRU
    pubscope: Scope = Scope.ASPARENT
    subscope: Scope = Scope.ASPARENT
    proxysub: ProxySub = ProxySub.FIRSTUSE
    pub: Enablement = Enablement.ASPARENT
    sub: Enablement = Enablement.ASPARENT
    descr: str = ""
    properties: dict[str, str | None] = field(default_factory=dict)
    seq: int = 0
    source_file: str | None = None
    source_line: int | None = None

    @property
    def is_global(self) -> bool:
        """EMS: the definition carries the ``global`` flag."""
        return "global" in self.properties


@dataclass(slots=True)
class Subscription:
    """A subscriber: topic pattern, selector, durability (semantics §1, §9)."""

    node: str
    name: str
    topicstr: str
    selector: str | None = None
    durable: bool = True
    subscope: SubScope = SubScope.ALL
    wschema: WSchema = WSchema.TOPIC
    dest: str = ""
    destqmgr: str = ""
    topicobj: str = ""
    properties: dict[str, str | None] = field(default_factory=dict)
    """EMS durables.conf extras (``clientid``, ``route``, ...), kept as given."""
    seq: int = 0
    source_file: str | None = None
    source_line: int | None = None
    subtype: SubType = SubType.ADMIN
    subid: str = ""
    """MQ's subscription identifier as DISPLAY SUB shows it (hex), known from a capture; empty otherwise."""

    @property
    def is_route_durable(self) -> bool:
        """EMS: a ``route`` durable, the store of a peer server's interest (not a client subscriber)."""
        return "route" in self.properties


@dataclass(slots=True)
class Route:
    """An EMS route defined on ``node`` towards ``peer`` (named after the peer's ``server =``)."""

    node: str
    peer: str
    url: str = ""
    zone_name: str = DEFAULT_ZONE
    zone_type: ZoneType = ZoneType.MHOP
    properties: dict[str, str] = field(default_factory=dict)
    """Any other route property, kept as given (ssl_identity, ...)."""
    seq: int = 0
    source_file: str | None = None
    source_line: int | None = None


@dataclass(slots=True)
class RouteSelector:
    """``incoming_topic``/``outgoing_topic`` with a selector, on the route ``node`` -> ``peer``."""

    node: str
    peer: str
    direction: Direction
    topic: str
    selector: str
    seq: int = 0
    source_file: str | None = None
    source_line: int | None = None


@dataclass
class Topology:
    """A whole model, or the slice of it that one question needs.

    The routing engine reads only this. The store builds a slice with indexed queries; tests and the
    Spark job build whole ones.
    """

    nodes: dict[str, Node] = field(default_factory=dict)
    memberships: list[Membership] = field(default_factory=list)
    topics: list[TopicObject] = field(default_factory=list)
    subscriptions: list[Subscription] = field(default_factory=list)
    routes: list[Route] = field(default_factory=list)
    route_selectors: list[RouteSelector] = field(default_factory=list)
    channels: list[Channel] = field(default_factory=list)
    namelists: list[Namelist] = field(default_factory=list)

    def add(self, *objects: object) -> Topology:
        """Add objects of any model type (handy in tests); returns self for chaining."""
        for obj in objects:
            self._add_one(obj)
        return self

    def extend(self, objects: Iterable[object]) -> Topology:
        return self.add(*objects)

    def mapped(self, move: Callable[[Any], Any]) -> Topology:
        """A copy with ``move`` applied to every definition (nodes and what is defined on them; the
        memberships as they are): how a door puts source positions back where the user's files are."""
        return Topology(
            nodes={name: move(n) for name, n in self.nodes.items()},
            memberships=self.memberships,
            topics=[move(t) for t in self.topics],
            subscriptions=[move(s) for s in self.subscriptions],
            routes=[move(r) for r in self.routes],
            route_selectors=[move(r) for r in self.route_selectors],
            channels=[move(c) for c in self.channels],
            namelists=[move(n) for n in self.namelists],
        )

    def _add_one(self, obj: object) -> None:
        if isinstance(obj, Node):
            self.nodes[obj.name] = obj
        elif isinstance(obj, Membership):
            self.memberships.append(obj)
        elif isinstance(obj, TopicObject):
            self.topics.append(obj)
        elif isinstance(obj, Subscription):
            self.subscriptions.append(obj)
        elif isinstance(obj, Route):
            self.routes.append(obj)
        elif isinstance(obj, RouteSelector):
            self.route_selectors.append(obj)
        elif isinstance(obj, Channel):
            self.channels.append(obj)
        elif isinstance(obj, Namelist):
            self.namelists.append(obj)
        else:
            raise TypeError(f"not a model object: {obj!r}")


@dataclass
class NodeState:
    """Everything defined on one node, keyed as MQSC and EMS key it: what an importer edits.

    The store loads one, a format applies commands to it in memory, and the store writes the
    difference back in one transaction.
    """

    node: Node
    memberships: dict[str, Membership] = field(default_factory=dict)
    """By cluster name."""
    topics: dict[str, TopicObject] = field(default_factory=dict)
    """By object name (EMS: the topic pattern)."""
    subscriptions: dict[str, Subscription] = field(default_factory=dict)
    namelists: dict[str, Namelist] = field(default_factory=dict)
    channels: dict[str, Channel] = field(default_factory=dict)
    routes: dict[str, Route] = field(default_factory=dict)
    """By peer name."""
    route_selectors: list[RouteSelector] = field(default_factory=list)


def node_states(topology: Topology) -> dict[str, NodeState]:
    """Each node's definitions as its ``NodeState``, keyed as MQSC and tibemsadmin key them."""
    states = {name: NodeState(node=node) for name, node in topology.nodes.items()}
    for m in topology.memberships:
        if m.node in states:
            states[m.node].memberships[m.cluster] = m
    for t in topology.topics:
        if t.node in states:
            states[t.node].topics[t.name] = t
    for s in topology.subscriptions:
        if s.node in states:
            states[s.node].subscriptions[s.name] = s
    for nl in topology.namelists:
        if nl.node in states:
            states[nl.node].namelists[nl.name] = nl
    for c in topology.channels:
        if c.node in states:
            states[c.node].channels[c.name] = c
    for r in topology.routes:
        if r.node in states:
            states[r.node].routes[r.peer] = r
    for rs in topology.route_selectors:
        if rs.node in states:
            states[rs.node].route_selectors.append(rs)
    return states


def node_dialects(topology: Topology) -> dict[str, Dialect]:
    """Every node named anywhere in ``topology`` and its dialect: a name seen only in a membership is a
    queue manager, only in a route an EMS server (as ``ClusterIndex`` and the EMS engine read them)."""
    out = {m.node: Dialect.MQ for m in topology.memberships}
    for route in topology.routes:
        out.setdefault(route.node, Dialect.EMS)
        out.setdefault(route.peer, Dialect.EMS)
    out.update({name: node.dialect for name, node in topology.nodes.items()})
    return out
