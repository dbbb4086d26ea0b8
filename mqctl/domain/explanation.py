"""What ``explain`` answers (semantics §8), as dataclasses with the JSON contract of docs/cli.md.

The routing engines fill these; the CLI renders them (Rich tree or JSON); the Spark job aggregates them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, NamedTuple, TypeVar

_T = TypeVar("_T", bound=type)


def _same_kind_eq(self: tuple[Any, ...], other: object) -> bool:
    return type(other) is type(self) and tuple.__eq__(self, other)


def _same_kind_ne(self: tuple[Any, ...], other: object) -> bool:
    return type(other) is not type(self) or tuple.__ne__(self, other)


def own_kind(cls: _T) -> _T:
    """A named tuple that equals only a value of its own kind: a plain named tuple equals any tuple with
    the same items (a ``Hop`` would equal a ``("A", "B", ...)`` or another kind's tuple). Making one
    stays as cheap as a named tuple's (routing makes one per node reached); only comparing calls Python."""
    cls.__eq__ = _same_kind_eq  # type: ignore[assignment]
    cls.__ne__ = _same_kind_ne  # type: ignore[assignment]
    cls.__hash__ = tuple.__hash__  # type: ignore[assignment]
    return cls


class Via(StrEnum):
    CLUSTER = "cluster"
    TOPICHOST = "topichost"
    HIERARCHY = "hierarchy"
    ROUTE = "route"


class Status(StrEnum):
    DELIVERED = "delivered"
    STORED = "stored"


class Reason(StrEnum):
    SELECTOR_FALSE = "SELECTOR_FALSE"
    ROUTE_SELECTOR = "ROUTE_SELECTOR"
    WILDCARD_ABOVE_CLUSTER = "WILDCARD_ABOVE_CLUSTER"
    WILDCARD_BLOCKED = "WILDCARD_BLOCKED"
    NO_PATH = "NO_PATH"
    NOT_GLOBAL = "NOT_GLOBAL"
    SCOPE = "SCOPE"
    ONE_HOP_ZONE = "ONE_HOP_ZONE"
    DOWN = "DOWN"
    SUBSCRIBER_OFFLINE = "SUBSCRIBER_OFFLINE"


class WarningCode(StrEnum):
    CONFLICT = "CONFLICT"
    ORDER_NOT_PRESERVED = "ORDER_NOT_PRESERVED"
    NO_SUBSCRIBERS_AT_HOST = "NO_SUBSCRIBERS_AT_HOST"
    STORAGE_UNBOUNDED = "STORAGE_UNBOUNDED"
    DUPLICATES_POSSIBLE = "DUPLICATES_POSSIBLE"
    GAP = "GAP"
    LITERAL_WILDCARD = "LITERAL_WILDCARD"
    NO_FULL_REPOSITORY = "NO_FULL_REPOSITORY"
    SEARCH_LIMIT = "SEARCH_LIMIT"
    """A limit of the path search was reached: the message says which and what it means for the answer."""


@dataclass(frozen=True, slots=True)
class Failures:
    """The what-if of one question: nodes down, links down, subscribers offline."""

    down: frozenset[str] = frozenset()
    links_down: frozenset[frozenset[str]] = frozenset()
    offline: frozenset[tuple[str, str]] = frozenset()
    """(node, subscription) pairs."""

    def node_down(self, node: str) -> bool:
        return node in self.down

    def link_down(self, a: str, b: str) -> bool:
        return frozenset((a, b)) in self.links_down

    def hop_fails(self, a: str, b: str) -> bool:
        """A hop a->b cannot be made now: the far node is down or the link between them is."""
        return b in self.down or frozenset((a, b)) in self.links_down


@dataclass(frozen=True, slots=True)
class Publication:
    from_node: str
    topic: str
    properties: Mapping[str, Any] = field(default_factory=dict)
    """Property name -> typed value (``mqctl.domain.messages.JmsValue``)."""
    headers: Mapping[str, Any] = field(default_factory=dict)
    """JMS header name -> typed value; defaults applied by ``messages``."""


@own_kind
class Hop(NamedTuple):
    """One hop of a path. (A named tuple, not a frozen dataclass: routing makes one per queue manager
    or server a publication reaches, and a named tuple is made three times as fast; ``own_kind``: equal
    only to a ``Hop``.)"""

    from_node: str
    to_node: str
    via: Via
    name: str
    """The cluster, ``CHILD->PARENT``, or the EMS route's name."""
    selector: str | None = None
    """EMS: the effective route selector applied on this hop, if any."""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "from": self.from_node,
            "to": self.to_node,
            "via": str(self.via),
            "name": self.name,
        }
        if self.selector is not None:
            out["selector"] = self.selector
        return out


@dataclass(frozen=True, slots=True)
class Unsupported:
    """On a delivery: its path is one IBM does not support; the validate rule (``rule``, ``code``) that
    reports it, and a sentence saying why (``mqctl.domain.unsupported``)."""

    rule: str
    code: str
    link: str
    """The hierarchy link of the path IBM does not support (``CHILD->PARENT``, as its hop names it)."""
    message: str

    def to_json(self) -> dict[str, Any]:
        return {"rule": self.rule, "code": self.code, "link": self.link, "message": self.message}


MAX_ALTERNATIVES = 8
"""A delivery lists at most this many alternative paths; ``more_alternatives`` counts the rest."""


@dataclass(slots=True)
class Delivery:
    subscription: str
    node: str
    status: Status
    stored_at: str | None
    path: list[str]
    hops: list[Hop]
    alternatives: list[list[str]] = field(default_factory=list)
    """The next best paths, best first, at most ``MAX_ALTERNATIVES``."""
    more_alternatives: int = 0
    """How many further paths there are beyond ``alternatives`` (0 unless they were cut)."""
    unsupported: Unsupported | None = None
    """The path crosses a hierarchy link joining a topic-host routed cluster (IBM does not support it)."""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "subscription": self.subscription,
            "node": self.node,
            "status": str(self.status),
            "stored_at": self.stored_at,
            "path": list(self.path),
            "hops": [h.to_json() for h in self.hops],
            "alternatives": [list(a) for a in self.alternatives],
            "more_alternatives": self.more_alternatives,
        }
        if self.unsupported is not None:  # present only then: every other answer keeps its bytes
            out["unsupported"] = self.unsupported.to_json()
        return out


@dataclass(frozen=True, slots=True)
class ObjectRef:
    """A topic object named in an answer: where it is defined, its name, topic string and cluster."""

    node: str
    name: str
    topicstr: str
    cluster: str

    def to_json(self) -> dict[str, Any]:
        return {"node": self.node, "name": self.name, "topicstr": self.topicstr, "cluster": self.cluster}


@dataclass(frozen=True, slots=True)
class ConflictNote:
    """A topic-object conflict in the subscriber's own topic tree (semantics §3), named in a miss."""

    kind: str
    """``SAME_TOPICSTR``, ``SAME_NAME``, ``DIFFERENT_ATTRIBUTES`` or ``INTERFERENCE``."""
    objects: tuple[ObjectRef, ...]
    winner: ObjectRef | None
    """The definition the queue manager uses (the most recent); ``None`` for an interference."""

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "objects": [o.to_json() for o in self.objects],
            "winner": self.winner.to_json() if self.winner is not None else None,
        }


@dataclass(slots=True)
class NotDelivered:
    subscription: str
    node: str
    reason: Reason
    detail: str
    conflict: ConflictNote | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "subscription": self.subscription,
            "node": self.node,
            "reason": str(self.reason),
            "detail": self.detail,
            "conflict": self.conflict.to_json() if self.conflict is not None else None,
        }


@dataclass(frozen=True, slots=True)
class TopicHost:
    """One topic host as the publisher's workload choice sees it (semantics §9 "Topic host choice")."""

    node: str
    rank: int
    priority: int
    weight: int
    available: bool
    share: float
    """Its share of the publications: weight over the sum of the weights of the hosts that share them."""
    chosen: bool
    """``path`` goes through this host."""

    def to_json(self) -> dict[str, Any]:
        return {
            "node": self.node,
            "rank": self.rank,
            "priority": self.priority,
            "weight": self.weight,
            "available": self.available,
            "share": self.share,
            "chosen": self.chosen,
        }


@dataclass(slots=True)
class Warning:
    code: WarningCode
    message: str

    def to_json(self) -> dict[str, Any]:
        return {"code": str(self.code), "message": self.message}


@dataclass(slots=True)
class Resolved:
    node: str
    object: str | None
    topicstr: str | None
    cluster: str | None
    clroute: str | None

    def to_json(self) -> dict[str, Any]:
        return {
            "node": self.node,
            "object": self.object,
            "topicstr": self.topicstr,
            "cluster": self.cluster,
            "clroute": self.clroute,
        }


@dataclass(slots=True)
class Explanation:
    publication: Publication
    resolved: Resolved
    deliveries: list[Delivery] = field(default_factory=list)
    not_delivered: list[NotDelivered] = field(default_factory=list)
    warnings: list[Warning] = field(default_factory=list)
    topic_hosts: list[TopicHost] = field(default_factory=list)
    """The hosts a non-host publisher chooses among for a topic-host routed topic, by name; else empty."""

    def sort(self) -> Explanation:
        """Arrays sorted by (node, subscription); warnings by (code, message), duplicates dropped."""
        self.deliveries.sort(key=lambda d: (d.node, d.subscription))
        self.not_delivered.sort(key=lambda n: (n.node, n.subscription))
        seen: set[tuple[str, str]] = set()
        unique: list[Warning] = []
        for w in sorted(self.warnings, key=lambda w: (str(w.code), w.message)):
            key = (str(w.code), w.message)
            if key not in seen:
                seen.add(key)
                unique.append(w)
        self.warnings = unique
        return self

    def warn(self, code: WarningCode, message: str) -> None:
        self.warnings.append(Warning(code, message))

    def to_json(self) -> dict[str, Any]:
        return {
            "publication": {
                "from": self.publication.from_node,
                "topic": self.publication.topic,
                "properties": {k: _json_value(v) for k, v in sorted(self.publication.properties.items())},
                "property_types": {
                    k: getattr(v, "type", type(v).__name__)
                    for k, v in sorted(self.publication.properties.items())
                },
                "headers": {k: _json_value(v) for k, v in sorted(self.publication.headers.items())},
            },
            "resolved": self.resolved.to_json(),
            "deliveries": [d.to_json() for d in self.deliveries],
            "not_delivered": [n.to_json() for n in self.not_delivered],
            "warnings": [w.to_json() for w in self.warnings],
            "topic_hosts": [h.to_json() for h in self.topic_hosts],
        }


def _json_value(value: Any) -> Any:
    """Typed JMS values expose ``.value``; plain Python values pass through."""
    return getattr(value, "value", value)
