"""One queue manager's single topic tree, as an administrator reads it (reference 001, semantics §3, §9).

Everything the queue manager holds in its tree: its own objects and every clustered object of its
clusters, each at its TOPICSTR with the attributes MQ uses there (``ASPARENT`` and a blank ``CLUSTER``
resolved, the cluster point with its ``CLROUTE`` and hosts, ``WILDCARD``, ``PROXYSUB``); the definitions
set aside where two collide, with the one that wins and why; and each subscription of the queue manager
at the point where it resolves (its fixed prefix), with a note when it is a wildcard above clustered
points (reference 001's ``/Sport/#``: no proxy subscription is sent for it).

Pure: built from a ``Topology`` with ``resolution``; the CLI draws it as a Rich tree or writes its JSON.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, fields
from enum import StrEnum
from typing import Any

from mqctl.domain.errors import InputError
from mqctl.domain.model import (
    Dialect,
    Enablement,
    ProxySub,
    Scope,
    Subscription,
    TopicObject,
    Topology,
    Wildcard,
)
from mqctl.domain.objects import attributes
from mqctl.domain.resolution import (
    ROOT_NAME,
    ClusterIndex,
    Conflict,
    Resolution,
    TopicTree,
    chain_topicstrs,
)
from mqctl.domain.subscriptions import has_wildcards, prefix_levels
from mqctl.domain.topics import levels

__all__ = [
    "SetAside",
    "SetAsideReason",
    "SubscriptionAt",
    "TreeNode",
    "TreeView",
    "effective_json",
    "effective_many",
    "tree_view",
]


class SetAsideReason(StrEnum):
    HIDDEN_BY_LOCAL = "HIDDEN_BY_LOCAL"
    """A local object with the same TOPICSTR or name wins over a clustered one (§9 Definitions)."""
    CONFLICT = "CONFLICT"
    """Conflicting clustered definitions: only the most recent is used (§3, reference 001)."""


@dataclass(frozen=True, slots=True)
class SetAside:
    """A definition the queue manager sees but does not use, and the one used instead."""

    object: TopicObject
    reason: SetAsideReason
    winner: TopicObject
    detail: str


@dataclass(frozen=True, slots=True)
class SubscriptionAt:
    subscription: Subscription
    note: str | None = None


@dataclass(slots=True)
class TreeNode:
    """One point of the tree: a TOPICSTR holding an object, a set-aside definition or a subscription."""

    topicstr: str
    parent: str | None
    depth: int
    resolution: Resolution
    object: TopicObject | None = None
    """The object used at exactly this TOPICSTR (None: the point only carries subscriptions)."""
    defined_on: tuple[str, ...] = ()
    """For a clustered object: every member defining it for its cluster (its hosts)."""
    set_aside: list[SetAside] = field(default_factory=list)
    conflicts: list[Conflict] = field(default_factory=list)
    subscriptions: list[SubscriptionAt] = field(default_factory=list)

    @property
    def is_root(self) -> bool:
        return self.parent is None


@dataclass(slots=True)
class TreeView:
    qmgr: str
    clusters: tuple[str, ...]
    topic: str | None
    nodes: list[TreeNode]
    """Root first, then depth first, children in TOPICSTR order."""

    def to_json(self) -> dict[str, Any]:
        return {
            "qmgr": self.qmgr,
            "clusters": list(self.clusters),
            "topic": self.topic,
            "nodes": [_node_json(n) for n in self.nodes],
        }


def tree_view(topology: Topology, qmgr: str, topic: str | None = None) -> TreeView:
    """The tree of ``qmgr``; with ``topic``, only that branch (and the objects above it, which it inherits)."""
    node = topology.nodes.get(qmgr)
    if node is None:
        raise InputError("no such queue manager", obj=f"qmgr {qmgr}")
    if node.dialect is not Dialect.MQ:
        raise InputError(
            "is an EMS server: the topic tree is an MQ queue manager's (see `display topic`)",
            obj=f"server {qmgr}",
        )
    index = ClusterIndex(topology)
    tree = TopicTree.for_node(index, qmgr)
    points: dict[str, TreeNode] = {}

    def point(topicstr: str) -> TreeNode:
        found = points.get(topicstr)
        if found is None:
            found = points[topicstr] = TreeNode(topicstr, None, 0, tree.resolve(topicstr))
        return found

    point("")
    for topicstr, obj in tree.entries.items():
        here = point(topicstr)
        here.object = obj
        if obj.cluster:
            here.defined_on = index.hosts(obj.cluster, topicstr) or (obj.node,)
    _set_aside(tree, point)
    for conflict in tree.conflicts:
        for topicstr in sorted({o.topicstr for o in conflict.objects}):
            point(topicstr).conflicts.append(conflict)
    for interference in tree.interferences():
        point(interference.objects[-1].topicstr).conflicts.append(interference)
    below = _clustered_below(tree)
    subs = sorted((s for s in topology.subscriptions if s.node == qmgr), key=lambda s: s.name)
    for sub in subs:
        at = "/".join(prefix_levels(sub))
        point(at).subscriptions.append(SubscriptionAt(sub, _above_cluster_note(tree, below, sub, at)))
    if topic is not None:
        point(topic)
    return TreeView(qmgr, tuple(sorted(index.clusters_of(qmgr))), topic, _ordered(points, topic))


def _set_aside(tree: TopicTree, point: Callable[[str], TreeNode]) -> None:
    plain = {o.topicstr: o for o in tree.index.plain(tree.node)}
    plain_by_name = {o.name: o for o in plain.values()}
    for obj in tree.hidden:
        by = plain.get(obj.topicstr) or plain_by_name[obj.name]
        same = "TOPICSTR" if by.topicstr == obj.topicstr else "name"
        detail = f"the local object {by.name} with the same {same} wins over the clustered one"
        point(obj.topicstr).set_aside.append(SetAside(obj, SetAsideReason.HIDDEN_BY_LOCAL, by, detail))
    for conflict in tree.conflicts:
        won = conflict.winner
        assert won is not None  # definition conflicts always have one
        detail = (
            f"{conflict.kind}: the most recent definition, {won.name} ('{won.topicstr}', cluster "
            f"{won.cluster}, on {won.node}), is used instead"
        )
        for obj in conflict.losers:
            point(obj.topicstr).set_aside.append(SetAside(obj, SetAsideReason.CONFLICT, won, detail))


def _clustered_below(tree: TopicTree) -> dict[str, list[TopicObject]]:
    """TOPICSTR -> the clustered objects of the tree strictly below it, in TOPICSTR order."""
    out: dict[str, list[TopicObject]] = defaultdict(list)
    for topicstr in sorted(tree.entries):
        obj = tree.entries[topicstr]
        if obj.cluster:
            for above in _chain(topicstr)[:-1]:
                out[above].append(obj)
    return out


def _above_cluster_note(
    tree: TopicTree, below: dict[str, list[TopicObject]], sub: Subscription, at: str
) -> str | None:
    """Reference 001: a wildcard resolving above every clustered point below it sends no proxy."""
    clustered = below.get(at)
    if not clustered or not has_wildcards(sub, Dialect.MQ) or tree.resolve(at).clustered:
        return None
    points = ", ".join(f"'{o.topicstr}' ({o.cluster})" for o in clustered[:3])
    more = f" and {len(clustered) - 3} more" if len(clustered) > 3 else ""
    return (
        f"a wildcard above the clustered points {points}{more}: no proxy subscription is sent for it, "
        "so it receives only what other subscriptions bring to this queue manager"
    )


def _chain(topicstr: str) -> list[str]:
    return chain_topicstrs(levels(topicstr, Dialect.MQ))


def _ordered(points: dict[str, TreeNode], topic: str | None) -> list[TreeNode]:
    """Link each point to the nearest point above it, keep the branch of ``topic``, walk depth first."""
    children: dict[str, list[str]] = defaultdict(list)
    for topicstr, here in points.items():
        if topicstr:
            here.parent = next(s for s in reversed(_chain(topicstr)[:-1]) if s in points)
            children[here.parent].append(topicstr)
    wanted: set[str] | None = None
    if topic is not None:
        above = set(_chain(topic))
        wanted = {s for s in points if s in above or topic in _chain(s)}
    out: list[TreeNode] = []
    stack = [("", 0)]
    while stack:
        topicstr, depth = stack.pop()
        here = points[topicstr]
        here.depth = depth
        out.append(here)
        below = [c for c in sorted(children[topicstr]) if wanted is None or c in wanted]
        stack.extend((c, depth + 1) for c in reversed(below))
    return out


# --- JSON ------------------------------------------------------------------------------------------------


def _ref(obj: TopicObject) -> dict[str, Any]:
    return {"name": obj.name, "qmgr": obj.node, "cluster": obj.cluster, "topicstr": obj.topicstr}


OBJECT_KEYS = tuple(a.field for a in attributes.TOPIC if a.enum is not None)
"""A topic object's enumerated attributes (the table's order): what routing reads beyond its cluster."""
SUBSCRIPTION_KEYS = tuple(a.field for a in attributes.SUB if a.routing)
"""A subscription's attributes that routing reads (the table's order)."""
EFFECTIVE_KEYS = tuple(f.name for f in fields(Resolution) if f.name not in ("node", "topicstr", "chain"))
"""What a resolution makes effective at a TOPICSTR, in ``Resolution``'s order: the object used, the
cluster and its point, CLROUTE and hosts, and each routing attribute of the topic object table."""


def _text(value: Any) -> Any:
    """An attribute's value as JSON shows it (an enumeration as MQSC spells it)."""
    return str(value) if isinstance(value, StrEnum) else value


def effective_json(res: Resolution) -> dict[str, Any]:
    """The values MQ uses at a TOPICSTR once ``ASPARENT`` and a blank CLUSTER are resolved through the
    topic tree (``display tree`` and ``display topic``'s ``effective``): ``EFFECTIVE_KEYS`` in order,
    enumerations as MQSC spells them. Written out key by key: ``display topic '*'`` makes 50,000."""
    point = res.cluster_point
    return {
        "object": res.object_name,
        "cluster": res.cluster,
        "cluster_point": point.name if point is not None else None,
        "clroute": str(res.clroute) if res.cluster else None,
        "hosts": list(res.hosts),
        "pubscope": str(res.pubscope),
        "subscope": str(res.subscope),
        "pub": str(res.pub),
        "sub": str(res.sub),
        "wildcard": str(res.wildcard),
        "proxysub": str(res.proxysub),
    }


def effective_many(tree: TopicTree, topicstrs: Iterable[str]) -> list[dict[str, Any]]:
    """``[effective_json(r) for r in tree.resolve_many(topicstrs)]``, made from where each string lands
    (``TopicTree.reach_many``) without a ``Resolution`` each: ``display topic '*' -o json`` over an
    estate writes 50,000 of them, and a frozen dataclass of fourteen fields costs more to make than the
    walk that finds its values (``tests/domain/test_resolution_shared.py`` holds the two equal).

    Strings that land alike (the same cluster point, the same inherited and own values: most of a queue
    manager's objects) share one map of their values, copied with its object's name: the copies share
    its ``hosts`` list, the maps are for writing out."""
    hosts = tree.index.hosts
    asparent, enabled, all_ = Enablement.ASPARENT, str(Enablement.ENABLED), str(Scope.ALL)
    alike: dict[tuple[Any, ...], dict[str, Any]] = {}
    out: list[dict[str, Any]] = []
    for _, obj, point, pubscope, subscope, pub, sub in tree.reach_many(topicstrs):
        own = (obj.wildcard, obj.proxysub) if obj is not None else (Wildcard.PASSTHRU, ProxySub.FIRSTUSE)
        key = (id(point), pubscope, subscope, pub, sub, *own)  # ``point`` is the tree's: alive throughout
        value = alike.get(key)
        if value is None:
            value = alike[key] = {
                "object": None,
                "cluster": point.cluster if point is not None else "",
                "cluster_point": point.name if point is not None else None,
                "clroute": str(point.clroute) if point is not None and point.cluster else None,
                "hosts": list(hosts(point.cluster, point.topicstr)) if point is not None else [],
                "pubscope": all_ if pubscope == Scope.ASPARENT else str(pubscope),
                "subscope": all_ if subscope == Scope.ASPARENT else str(subscope),
                "pub": enabled if pub == asparent else str(pub),
                "sub": enabled if sub == asparent else str(sub),
                "wildcard": str(own[0]),
                "proxysub": str(own[1]),
            }
        value = value.copy()  # "object" stays the first key
        value["object"] = obj.name if obj is not None else ROOT_NAME
        out.append(value)
    return out


def _node_json(node: TreeNode) -> dict[str, Any]:
    res = node.resolution
    obj = node.object
    return {
        "topicstr": node.topicstr,
        "parent": node.parent,
        "depth": node.depth,
        "object": None
        if obj is None
        else {
            **_ref(obj),
            **{k: str(getattr(obj, k)) for k in OBJECT_KEYS},
            "defined_on": list(node.defined_on),
        },
        "effective": effective_json(res),
        "set_aside": [
            {**_ref(s.object), "reason": str(s.reason), "winner": _ref(s.winner), "detail": s.detail}
            for s in node.set_aside
        ],
        "conflicts": [
            {
                "kind": str(c.kind),
                "objects": [_ref(o) for o in c.objects],
                "winner": _ref(c.winner) if c.winner is not None else None,
                "detail": c.describe(),
            }
            for c in node.conflicts
        ],
        "subscriptions": [
            {
                "name": s.subscription.name,
                **{k: _text(getattr(s.subscription, k)) for k in SUBSCRIPTION_KEYS},
                "note": s.note,
            }
            for s in node.subscriptions
        ],
    }
