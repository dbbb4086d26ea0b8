"""Edits as values: ``Define``, ``Alter`` and ``Delete`` of any object kind, and the ``Facts`` from outside
the node that some of them need.

Every door — the shell, runmqsc and MQSC files, tibemsadmin and the EMS files, snapshots — reads its
input into these values and hands them to ``mqctl.domain.objects.apply.apply`` (one function for every
kind); the door keeps only positions and the product's reply text. An ``Alter`` names the attributes it
changes by their model field, checked against the kind's attribute table (``attributes.TABLES``), so a
misspelt field is a bug found where the value is built, not a silent no-op.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cache
from typing import Any

from mqctl.domain.model import (
    Channel,
    Cluster,
    Dialect,
    Membership,
    Namelist,
    Node,
    Route,
    RouteSelector,
    Subscription,
    TopicObject,
)
from mqctl.domain.objects import attributes


class Kind(StrEnum):
    """The object kinds an edit names (an MQ topic object and an EMS topic definition are both
    ``TOPIC``: the node's dialect chooses the rules)."""

    NODE = "qmgr"
    CLUSTER = "cluster"
    MEMBERSHIP = "membership"
    TOPIC = "topic"
    SUB = "sub"
    NAMELIST = "namelist"
    CHANNEL = "channel"
    ROUTE = "route"
    ROUTE_SELECTOR = "route selector"


KIND_OF: dict[type, Kind] = {
    Node: Kind.NODE,
    Cluster: Kind.CLUSTER,
    Membership: Kind.MEMBERSHIP,
    TopicObject: Kind.TOPIC,
    Subscription: Kind.SUB,
    Namelist: Kind.NAMELIST,
    Channel: Kind.CHANNEL,
    Route: Kind.ROUTE,
    RouteSelector: Kind.ROUTE_SELECTOR,
}
"""The kind of each model class a ``Define`` carries."""

NODE_CLUSTER_CHANGES = frozenset({"repos", "join", "full_repositories", "leave"})
"""What an ``Alter`` of a queue manager may say of its cluster memberships besides its attributes: MQ's
REPOS/REPOSNL (``repos``: the full-repository clusters, replacing the set), and the shell's
``--cluster``/``--full-repository`` (``join``, ``full_repositories``) and ``--remove-cluster``
(``leave``), which define or delete the CLUSRCVR channels that give memberships."""

FREE = frozenset({"properties"})
"""EMS free properties (topic definitions, durables, routes): kept as given, not in the table."""
PROPERTY_EDITS = frozenset({"set_properties", "remove_properties"})
"""Free properties to add or set (a mapping) and to remove (names), on those the object has."""

_TABLE_CLASS = {kind: cls for cls, kind in KIND_OF.items() if cls in attributes.TABLES}
_EXTRA: dict[Kind, frozenset[str]] = {
    Kind.NODE: NODE_CLUSTER_CHANGES,
    Kind.CLUSTER: frozenset({"descr"}),
    Kind.MEMBERSHIP: frozenset({"full_repository"}),
    Kind.TOPIC: FREE | PROPERTY_EDITS,
    Kind.SUB: FREE,
    Kind.ROUTE: FREE | PROPERTY_EDITS,
}


@cache
def alterable(kind: Kind) -> frozenset[str]:
    """The fields an ``Alter`` of ``kind`` may name: the attribute table's, and ``_EXTRA``."""
    cls = _TABLE_CLASS.get(kind)
    table = attributes.TABLES[cls] if cls is not None else ()
    return frozenset(a.field for a in table) | _EXTRA.get(kind, frozenset())


Key = str | tuple[str, str, str]
"""What names an object on its node: its name (a route: its peer; a membership: its cluster), or for a
route selector (peer, direction, topic)."""


@dataclass(frozen=True, slots=True)
class Define:
    """DEFINE (with REPLACE: of an object that may exist), ``create``, a configuration line."""

    obj: object
    replace: bool = False
    observed: bool = False
    """The object as a DISPLAY capture shows it (semantics §9, "Observed state"): a subscription's
    TOPICSTR is the resolved topic string, its TOPICOBJ a record of how it was made, not composed again
    (the object named need not be in the model)."""

    @property
    def kind(self) -> Kind:
        return KIND_OF[type(self.obj)]


@dataclass(frozen=True, slots=True)
class Alter:
    """ALTER: only the named fields change (``changes``: model field -> new value)."""

    kind: Kind
    key: Key
    changes: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        unknown = set(self.changes) - alterable(self.kind)
        if unknown:
            raise TypeError(f"not attributes of a {self.kind}: {sorted(unknown)}")


@dataclass(frozen=True, slots=True)
class Delete:
    """DELETE; ``cascade``: with what depends on it (a node, a cluster), as the shell's --cascade."""

    kind: Kind
    key: Key
    cascade: bool = False


Edit = Define | Alter | Delete


@dataclass(frozen=True, slots=True)
class Facts:
    """What the node's state cannot tell and a door finds its own way (an indexed query, the script's
    working state): given to ``apply`` with the edit. Each field is read by the kinds named."""

    parent_dialect: Dialect | None = None
    """Node: the dialect of the PARENT named (None: no parent, or one not defined yet)."""
    peer_dialect: Dialect | None = None
    """Route: the peer's dialect (None: not defined yet; it is created as an EMS server)."""
    topicstr_holder: str | None = None
    """MQ topic object: the other object of the queue manager holding this TOPICSTR, if any."""
    node_exists: bool = True
    """Node ``Define``: False when the node is new (``state.node`` is then only its name)."""
    dependents: tuple[str, ...] = ()
    """Node or cluster ``Delete``: what depends on it (refused unless ``cascade``)."""
    cluster: tuple[str, int] | None = None
    """Cluster: (DESCR, seq) of the cluster as stored, None when it does not exist."""


NO_FACTS = Facts()


@dataclass(slots=True)
class Change:
    """What an edit did: the object before and after (None: it did not exist / no longer does), and the
    objects that went with it (a route's selectors). ``replaced``: a ``Define`` of an object that
    existed (runmqsc answers "changed" rather than "created")."""

    edit: Edit
    before: object | None = None
    after: object | None = None
    also_deleted: tuple[object, ...] = ()
    notes: tuple[str, ...] = ()
    """What a user should know and the edit accepts (a CLUSNL naming a namelist not defined yet)."""

    @property
    def replaced(self) -> bool:
        return self.before is not None and self.after is not None


CLUSTER_PARTS = frozenset({"memberships", "namelists", "channels"})
"""What deriving memberships reads (``domain.memberships``): the node's channels, namelists and
memberships, whole."""


def reads(edits: Sequence[Edit]) -> tuple[dict[str, list[str]], frozenset[str]]:
    """What ``edits`` read of their node: the objects by collection and key (``NodeState`` attribute ->
    keys; a route comes with its selectors), and the collections read whole. A door that loads a slice
    of the node loads this."""
    keys: dict[str, list[str]] = {}
    parts: set[str] = set()
    for one in edits:
        if type(one) is Define and type(sub := one.obj) is Subscription:  # a capture's thousands: briefly
            keys.setdefault("subscriptions", []).append(sub.name)
            if sub.topicobj and not one.observed:  # composed from the object's TOPICSTR
                keys.setdefault("topics", []).append(sub.topicobj)
            continue
        kind = one.kind
        if isinstance(one, Define):
            key = _key(kind, one.obj)
        else:
            key = one.key if isinstance(one.key, str) else one.key[0]
        if kind in (Kind.MEMBERSHIP, Kind.NAMELIST, Kind.CHANNEL):
            parts |= CLUSTER_PARTS
        elif kind is Kind.NODE:
            if isinstance(one, Alter) and set(one.changes) & NODE_CLUSTER_CHANGES:
                parts |= CLUSTER_PARTS
        elif kind is Kind.TOPIC:
            keys.setdefault("topics", []).append(key)
        elif kind is Kind.SUB:
            keys.setdefault("subscriptions", []).append(key)
            topicobj = getattr(one.obj, "topicobj", "") if isinstance(one, Define) else ""
            if topicobj:
                keys.setdefault("topics", []).append(topicobj)
        elif kind in (Kind.ROUTE, Kind.ROUTE_SELECTOR):
            keys.setdefault("routes", []).append(key)
    return keys, frozenset(parts)


def _key(kind: Kind, obj: Any) -> str:
    if kind in (Kind.ROUTE, Kind.ROUTE_SELECTOR):
        return str(obj.peer)
    if kind is Kind.MEMBERSHIP:
        return str(obj.cluster)
    return str(obj.name)
