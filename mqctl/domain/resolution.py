"""The MQ topic tree at one queue manager and how a topic string resolves in it (semantics §3, §9).

The tree at queue manager Q holds Q's own topic objects plus every clustered object of every cluster Q
belongs to (pushed by the full repositories). A topic string resolves to the object whose TOPICSTR is
its longest level-prefix; ``ASPARENT`` attributes and a blank ``CLUSTER`` are taken from further up, and
``CLROUTE`` and the topic hosts come from the *cluster point* (the nearest object naming the cluster).

Conflict detection (``find_conflicts``, ``find_interferences``) is kept apart from the tree so that the
validator can run it over any set of definitions. Everything here is pure and reads only the topology
(or the slice of it that one question needs): it never mutates it.

Usage::

    trees = TopicTrees(topology)
    res = trees.at("QM1").resolve("/USA/Alabama/Mobile")
    res.cluster, res.clroute, res.hosts, res.chain
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from operator import attrgetter
from typing import NamedTuple, TypeVar

from mqctl.domain.model import (
    ClRoute,
    Dialect,
    Enablement,
    ProxySub,
    Scope,
    TopicObject,
    Topology,
    Wildcard,
)
from mqctl.domain.topics import MAX_TOPIC_LENGTH, levels

__all__ = [
    "ROOT_NAME",
    "ROUTING_ATTRIBUTES",
    "ClusterIndex",
    "ClusterPoint",
    "Conflict",
    "ConflictKind",
    "Reached",
    "Resolution",
    "TopicTree",
    "TopicTrees",
    "chain_topicstrs",
    "differing_attributes",
    "find_conflicts",
    "find_interferences",
]

ROOT_NAME = "SYSTEM.BASE.TOPIC"
"""The root of every MQ topic tree; its defaults apply where no object resolves a topic."""

RESOLUTION_CACHE = 64
"""Resolutions kept per tree (see ``TopicTree.resolve``)."""

POINT_CACHE = 65536
"""Cluster points kept per index, over all the sets of clusters (see ``ClusterIndex.point_among``)."""

SHARED_RESOLUTIONS = 16384
"""Resolutions kept per index, over all the sets of clusters (``ClusterIndex.resolution_among``): each
holds its chain and the TOPICSTRs above it, some kilobyte, so fewer than the cluster points."""

_SEP = "/"
_E = TypeVar("_E", bound=StrEnum)


def chain_topicstrs(topic_levels: Sequence[str]) -> list[str]:
    """TOPICSTRs an object would need to lie on the chain of these levels, root ('') first.

    ``["", "USA", "Alabama"]`` -> ``["", "/USA", "/USA/Alabama"]``: the root and the empty first level
    share ``''``, as they do in MQ (no object can have an empty TOPICSTR but the root).
    """
    out = [""]
    text = ""
    for i, level in enumerate(topic_levels):
        text = f"{text}{_SEP}{level}" if i else level
        if text != out[-1]:
            out.append(text)
    return out


# --- conflicts ---------------------------------------------------------------------------------------


class ConflictKind(StrEnum):
    SAME_TOPICSTR = "SAME_TOPICSTR"
    """Clustered objects of different clusters with the same TOPICSTR (reference 001)."""
    SAME_NAME = "SAME_NAME"
    """Clustered objects of different clusters with the same name (reference 001)."""
    DIFFERENT_ATTRIBUTES = "DIFFERENT_ATTRIBUTES"
    """One cluster, same name or TOPICSTR, different attributes (§3)."""
    INTERFERENCE = "INTERFERENCE"
    """A clustered object above or below one of another cluster (§3: a warning, not an error)."""


@dataclass(frozen=True, slots=True)
class Conflict:
    """A set of clustered definitions a queue manager cannot all honour.

    ``winner`` is the definition MQ keeps (the most recent, §3); ``None`` for an interference, where
    both objects stay in the tree.
    """

    kind: ConflictKind
    objects: tuple[TopicObject, ...]
    winner: TopicObject | None

    def describe(self) -> str:
        """One plain-English sentence naming the objects, their clusters and queue managers."""
        listed = ", ".join(_label(o) for o in self.objects)
        if self.kind is ConflictKind.INTERFERENCE:
            return f"clustered topic objects of different clusters lie above one another: {listed}"
        what = {
            ConflictKind.SAME_TOPICSTR: "clustered topic objects of different clusters share a topic string",
            ConflictKind.SAME_NAME: "clustered topic objects of different clusters share a name",
            ConflictKind.DIFFERENT_ATTRIBUTES: "clustered definitions in one cluster disagree",
        }[self.kind]
        won = f"; only the most recent, {_label(self.winner)}, is used" if self.winner else ""
        return f"{what}: {listed}{won}, so behaviour is nondeterministic"

    @property
    def losers(self) -> tuple[TopicObject, ...]:
        """Definitions dropped from the tree: those not equivalent to the winner."""
        if self.winner is None:
            return ()
        key = _routing_key(self.winner)
        return tuple(o for o in self.objects if _routing_key(o) != key)


def _label(obj: TopicObject) -> str:
    return f"{obj.name} ('{obj.topicstr}', cluster {obj.cluster or '(none)'}, on {obj.node})"


ROUTING_ATTRIBUTES = (
    "cluster",
    "topicstr",
    "clroute",
    "wildcard",
    "pubscope",
    "subscope",
    "proxysub",
    "pub",
    "sub",
)
"""What must agree between two definitions of one clustered topic (the name may differ)."""


_routing_key = attrgetter(*ROUTING_ATTRIBUTES)
"""The routing attributes of a definition as a tuple (enum members compare and hash as their text)."""


def differing_attributes(objects: Iterable[TopicObject]) -> list[str]:
    """The routing attributes on which these definitions disagree, as MQSC names them (``CLROUTE``)."""
    objs = list(objects)
    return [a.upper() for a in ROUTING_ATTRIBUTES if len({str(getattr(o, a)) for o in objs}) > 1]


def _recency(obj: TopicObject) -> tuple[int, str, str]:
    """Most recent definition last; ties broken by node then name so the answer never wavers."""
    return (obj.seq, obj.node, obj.name)


def _sorted_objects(objs: Iterable[TopicObject]) -> tuple[TopicObject, ...]:
    return tuple(sorted(objs, key=lambda o: (o.topicstr, o.cluster, o.node, o.name)))


def find_conflicts(clustered: Iterable[TopicObject]) -> list[Conflict]:
    """Conflicts among clustered definitions that one queue manager sees together (§3, reference 001).

    Groups by TOPICSTR and by name: several clusters in a group is a SAME_TOPICSTR / SAME_NAME
    conflict; one cluster whose definitions differ in routing attributes is DIFFERENT_ATTRIBUTES.
    Several hosts defining the same topic alike are not a conflict.
    """
    defs = [o for o in clustered if o.cluster]
    out: list[Conflict] = []
    for by_name, across in ((False, ConflictKind.SAME_TOPICSTR), (True, ConflictKind.SAME_NAME)):
        groups: dict[str, list[TopicObject]] = defaultdict(list)
        for obj in defs:
            groups[obj.name if by_name else obj.topicstr].append(obj)
        for key in sorted(groups):
            group = groups[key]
            if len({o.cluster for o in group}) > 1:
                kind = across
            elif len({_routing_key(o) for o in group}) > 1:
                kind = ConflictKind.DIFFERENT_ATTRIBUTES
            else:
                continue
            out.append(Conflict(kind, _sorted_objects(group), max(group, key=_recency)))
    return _dedupe(out)


def _dedupe(conflicts: list[Conflict]) -> list[Conflict]:
    """A pair that shares both name and TOPICSTR is reported once."""
    seen: set[tuple[tuple[str, str], ...]] = set()
    out: list[Conflict] = []
    for c in conflicts:
        key = tuple((o.node, o.name) for o in c.objects)
        if key not in seen:
            seen.add(key)
            out.append(c)
    return out


def find_interferences(entries: Iterable[TopicObject]) -> list[Conflict]:
    """Pairs of tree objects, one above the other, that name different clusters (§3: a warning)."""
    by_str = {o.topicstr: o for o in entries}
    out: list[Conflict] = []
    for topicstr in sorted(by_str):
        below = by_str[topicstr]
        if not below.cluster:
            continue
        for above_str in chain_topicstrs(levels(topicstr, Dialect.MQ))[:-1]:
            above = by_str.get(above_str)
            if above is not None and above.cluster and above.cluster != below.cluster:
                out.append(Conflict(ConflictKind.INTERFERENCE, (above, below), None))
    return out


# --- the index over a topology --------------------------------------------------------------------------


class ClusterIndex:
    """Memberships and definitions of a topology, indexed once so trees build in time of their size.

    A name seen only in a membership is an MQ queue manager (the store's slice may omit the node).
    Topic objects on EMS servers are left out.
    """

    def __init__(self, topology: Topology) -> None:
        self._clusters: dict[str, set[str]] = defaultdict(set)
        self._members: dict[str, set[str]] = defaultdict(set)
        for m in topology.memberships:
            self._clusters[m.node].add(m.cluster)
            self._members[m.cluster].add(m.node)
        self._local: dict[str, list[TopicObject]] = defaultdict(list)
        self._clustered: dict[str, list[TopicObject]] = defaultdict(list)
        hosts: dict[tuple[str, str], set[str]] = defaultdict(set)
        for obj in topology.topics:
            node = topology.nodes.get(obj.node)
            if node is not None and node.dialect != Dialect.MQ:
                continue
            self._local[obj.node].append(obj)
            if obj.cluster and obj.node in self._members.get(obj.cluster, ()):
                self._clustered[obj.cluster].append(obj)
                hosts[(obj.cluster, obj.topicstr)].add(obj.node)
        self._hosts = {key: tuple(sorted(nodes)) for key, nodes in hosts.items()}
        self._conflicts: dict[
            frozenset[str], tuple[list[Conflict], set[tuple[str, str]], dict[str, TopicObject]]
        ] = {}
        self._keys: dict[frozenset[str], tuple[frozenset[str], frozenset[str]]] = {}
        self._values: dict[frozenset[str], frozenset[tuple[str, str]]] = {}
        self._named: dict[frozenset[str], int] = {}
        self._points: dict[tuple[frozenset[str], tuple[str, ...]], tuple[frozenset[str], ClusterPoint]] = {}
        self._resolutions: dict[tuple[frozenset[str], str], tuple[frozenset[str], Resolution]] = {}

    def clusters_of(self, node: str) -> frozenset[str]:
        return frozenset(self._clusters.get(node, ()))

    def members(self, cluster: str) -> tuple[str, ...]:
        """Members in name order."""
        return tuple(sorted(self._members.get(cluster, ())))

    def is_member(self, node: str, cluster: str) -> bool:
        return node in self._members.get(cluster, ())

    def local(self, node: str) -> Sequence[TopicObject]:
        return self._local.get(node, ())

    def plain(self, node: str) -> list[TopicObject]:
        """``node``'s objects that are local to it alone: those with no CLUSTER and those naming a cluster
        it is not a member of (such a definition reaches nobody, §9, so it is shared with no cluster).
        At ``node`` they win over every clustered definition with the same TOPICSTR or name (§3 "the
        local one wins", §9 "a local object hides a cluster object") and take part in no conflict."""
        mine = self._clusters.get(node, ())
        return [o for o in self.local(node) if not o.cluster or o.cluster not in mine]

    def clustered(self, cluster: str) -> Sequence[TopicObject]:
        """Definitions naming ``cluster`` made on its members (a non-member's reach nobody, §9)."""
        return self._clustered.get(cluster, ())

    def conflicts_among(
        self, clusters: frozenset[str]
    ) -> tuple[list[Conflict], set[tuple[str, str]], dict[str, TopicObject]]:
        """Conflicts among every definition of these clusters, the (node, name) of their losers, and the
        most recent definition kept per TOPICSTR.

        Computed once per set of clusters: every queue manager in the same clusters sees the same ones.
        """
        found = self._conflicts.get(clusters)
        if found is None:
            clustered = [o for c in sorted(clusters) for o in self.clustered(c)]
            conflicts = find_conflicts(clustered)
            losers = {(o.node, o.name) for c in conflicts for o in c.losers}
            entries = {
                o.topicstr: o for o in sorted(clustered, key=_recency) if (o.node, o.name) not in losers
            }
            found = self._conflicts[clusters] = (conflicts, losers, entries)
        return found

    def keys_among(self, clusters: frozenset[str]) -> tuple[frozenset[str], frozenset[str]]:
        """The TOPICSTRs and the names of every definition of these clusters (computed once per set)."""
        found = self._keys.get(clusters)
        if found is None:
            objs = [o for c in clusters for o in self.clustered(c)]
            found = self._keys[clusters] = (
                frozenset(o.topicstr for o in objs),
                frozenset(o.name for o in objs),
            )
        return found

    def values_among(self, clusters: frozenset[str]) -> frozenset[tuple[str, str]]:
        """Every (attribute, value) of ``TopicTree.uses`` set by some definition of these clusters."""
        found = self._values.get(clusters)
        if found is None:
            found = self._values[clusters] = frozenset(
                (attribute, str(getattr(o, attribute)))
                for c in clusters
                for o in self.clustered(c)
                for attribute in _USED
            )
        return found

    def clusters_named(self, clusters: frozenset[str]) -> int:
        """How many clusters the definitions kept for these clusters name (``TopicTree.conflicts_on``)."""
        found = self._named.get(clusters)
        if found is None:
            entries = self.conflicts_among(clusters)[2]
            found = self._named[clusters] = len({o.cluster for o in entries.values() if o.cluster})
        return found

    def point_among(
        self, clusters: frozenset[str], prefix_levels: tuple[str, ...]
    ) -> tuple[frozenset[str], ClusterPoint]:
        """The cluster point of these levels among the definitions kept for these clusters, with the
        TOPICSTRs of their chain: what every member of exactly these clusters sees, unless one of its
        plain objects lies on that chain (``TopicTree.point``). Kept, up to ``POINT_CACHE``."""
        key = (clusters, prefix_levels)
        found = self._points.get(key)
        if found is None:
            entries = self.conflicts_among(clusters)[2]
            strs = chain_topicstrs(prefix_levels)
            chain = [entries[s] for s in strs if s in entries]
            if len(self._points) >= POINT_CACHE:
                self._points.clear()
            found = self._points[key] = (frozenset(strs), ClusterPoint.of(self, chain))
        return found

    def resolution_among(
        self, clusters: frozenset[str], topicstr: str, node: str
    ) -> tuple[frozenset[str], Resolution]:
        """How ``topicstr`` resolves among the definitions kept for these clusters, with
        the TOPICSTRs of its chain: what every member of exactly these clusters gets, unless one of its own
        objects (plain, or a clustered one of its own that goes over the shared one) lies on that chain
        (``TopicTree.resolve``). A replay asks each publisher once for its topic: a cold resolution per
        key, though a cluster's members mostly agree. Kept, up to ``SHARED_RESOLUTIONS``; made for
        ``node``, the first to ask (its ``node`` is the first asker's: ``_at_node`` for the others)."""
        key = (clusters, topicstr)
        found = self._resolutions.get(key)
        if found is None:
            topic_levels = levels(topicstr, Dialect.MQ)
            strs = chain_topicstrs(topic_levels)
            entries = self.conflicts_among(clusters)[2]
            res = _resolve_chain(self, node, topic_levels, [entries[s] for s in strs if s in entries])
            if len(self._resolutions) >= SHARED_RESOLUTIONS:
                self._resolutions.clear()
            found = self._resolutions[key] = (frozenset(strs), res)
        return found

    def hosts(self, cluster: str, topicstr: str) -> tuple[str, ...]:
        """Topic hosts: members of ``cluster`` defining an object with ``topicstr`` for it, by name."""
        return self._hosts.get((cluster, topicstr), ())


_USED = ("subscope", "pubscope", "wildcard", "proxysub")
"""Attributes whose values ``ClusterIndex.values_among`` gathers for ``TopicTree.uses``."""


# --- resolution -------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ClusterPoint:
    """What a resolution says about clustering, and its subscription scope: all that the proxy
    subscriptions of a pattern need (fellow members of the same clusters mostly share it)."""

    cluster: str
    clroute: ClRoute
    hosts: tuple[str, ...]
    subscope: Scope

    @classmethod
    def of(cls, index: ClusterIndex, chain: Sequence[TopicObject]) -> ClusterPoint:
        point = next((o for o in reversed(chain) if o.cluster), None)
        if point is None:
            return cls("", ClRoute.DIRECT, (), _inherit(chain, "subscope", Scope.ASPARENT, Scope.ALL))
        return cls(
            point.cluster,
            point.clroute,
            index.hosts(point.cluster, point.topicstr),
            _inherit(chain, "subscope", Scope.ASPARENT, Scope.ALL),
        )


@dataclass(frozen=True, slots=True)
class Resolution:
    """Where a topic string lands in one queue manager's tree, with every attribute made effective.

    ``object`` is ``None`` at the root (SYSTEM.BASE.TOPIC defaults). ``cluster`` is ``''`` when the
    topic is not clustered there; ``clroute`` and ``hosts`` then mean nothing.
    """

    node: str
    topicstr: str
    object: TopicObject | None
    chain: tuple[TopicObject, ...]
    """Objects on the way from the root down to ``object``, root side first."""
    cluster: str
    cluster_point: TopicObject | None
    clroute: ClRoute
    hosts: tuple[str, ...]
    pubscope: Scope
    subscope: Scope
    pub: Enablement
    sub: Enablement
    wildcard: Wildcard
    proxysub: ProxySub

    @property
    def clustered(self) -> bool:
        return bool(self.cluster)

    @property
    def object_name(self) -> str:
        return self.object.name if self.object is not None else ROOT_NAME

    def describe(self) -> str:
        """Short phrase for sentences: "topic object SPORT ('/Sport', cluster CL1)"."""
        if self.object is None:
            return f"the root topic {ROOT_NAME}"
        where = f", cluster {self.cluster}" if self.cluster else ""
        return f"topic object {self.object.name} ('{self.object.topicstr}'{where})"


class Reached(NamedTuple):
    """Where a topic string lands in a tree, less the string itself (``TopicTree.reach_many``): its
    chain, its object (the chain's last), its cluster point, and the four inherited attributes as the
    chain leaves them (``ASPARENT`` up to the root: the root's defaults are applied by the reader)."""

    chain: tuple[TopicObject, ...]
    object: TopicObject | None
    point: TopicObject | None
    pubscope: Scope
    subscope: Scope
    pub: Enablement
    sub: Enablement

    def below(self, obj: TopicObject) -> Reached:
        """The chain extended by ``obj`` one level down: its own values where it sets them, ``ASPARENT``
        ones and a blank cluster from here (as ``_inherit`` reads the chain from the bottom up)."""
        chain, _, point, pubscope, subscope, pub, sub = self
        return _new_tuple(  # as ``Reached(...)``, without its Python-level ``__new__``: 50,000 a display
            Reached,
            (
                (*chain, obj),
                obj,
                obj if obj.cluster else point,
                pubscope if obj.pubscope == _SCOPE_ASPARENT else obj.pubscope,
                subscope if obj.subscope == _SCOPE_ASPARENT else obj.subscope,
                pub if obj.pub == _ENABLEMENT_ASPARENT else obj.pub,
                sub if obj.sub == _ENABLEMENT_ASPARENT else obj.sub,
            ),
        )


_new_tuple = tuple.__new__
_SCOPE_ASPARENT = Scope.ASPARENT
_ENABLEMENT_ASPARENT = Enablement.ASPARENT


_ROOT_REACHED = Reached(
    (), None, None, Scope.ASPARENT, Scope.ASPARENT, Enablement.ASPARENT, Enablement.ASPARENT
)
"""Above every object: nothing on the chain yet."""


@dataclass(slots=True)
class TopicTree:
    """The topic tree at one queue manager: its entries by TOPICSTR and the conflicts seen there."""

    node: str
    index: ClusterIndex
    _own: dict[str, TopicObject] = field(default_factory=dict)
    """Q's entries, or (with ``_base``) those it has over the entries its clusters share."""
    _base: dict[str, TopicObject] | None = None
    """The entries kept for Q's clusters (``ClusterIndex.conflicts_among``), shared with every fellow
    member of the same clusters rather than copied: a model over thousands of queue managers keeps
    their trees, and every full collection of the garbage collector walks what they hold."""
    _entries: dict[str, TopicObject] | None = None
    conflicts: list[Conflict] = field(default_factory=list)
    """Definition conflicts (not interferences) among the clustered objects Q sees."""
    hidden: list[TopicObject] = field(default_factory=list)
    """Clustered definitions Q sees but hides behind one of its plain objects (same TOPICSTR or name)."""
    _cache: dict[str, Resolution] = field(default_factory=dict)
    _clusters: int | None = None
    """How many clusters the tree's objects name (counted on first need)."""
    _uses: dict[tuple[str, str], bool] = field(default_factory=dict)
    _overlay: list[TopicObject] | None = None
    """When the entries are the clusters' shared ones plus these (Q's own clustered and plain objects):
    lets ``uses`` answer most questions without walking the whole tree."""
    _plain: frozenset[str] | None = None
    """With ``_overlay``: the TOPICSTRs of Q's plain objects (Q's own clustered ones are alike to the
    shared ones in every routing attribute, so only a plain one can make Q's answer differ)."""
    _cluster_set: frozenset[str] = frozenset()
    _points: dict[tuple[str, ...], ClusterPoint] = field(default_factory=dict)

    @classmethod
    def for_node(cls, topology: Topology | ClusterIndex, qmgr: str) -> TopicTree:
        """Build Q's tree (§3, §9 Definitions).

        Q's plain objects (no CLUSTER, or a cluster Q is not a member of: ``ClusterIndex.plain``) always
        win and hide clustered ones with the same TOPICSTR or name. Clustered definitions, Q's own included, go through conflict detection; the losers drop
        out. Among alike definitions of one clustered topic, Q's own is the one kept.
        """
        index = topology if isinstance(topology, ClusterIndex) else ClusterIndex(topology)
        tree = cls(qmgr, index)
        plain = sorted(index.plain(qmgr), key=_recency)
        strs, names = {o.topicstr for o in plain}, {o.name for o in plain}
        clusters = index.clusters_of(qmgr)
        own = [o for o in index.local(qmgr) if o.cluster and o.cluster in clusters]
        shared_strs, shared_names = index.keys_among(clusters)
        if (
            all(o.cluster in clusters for o in own)
            and strs.isdisjoint(shared_strs)
            and names.isdisjoint(shared_names)
            and not any(o.topicstr in strs or o.name in names for o in own)
        ):
            # the usual case, told without listing the clusters' definitions: no plain object of Q
            # hides one, so what Q sees is exactly its clusters' definitions, as for its fellow members
            shared, losers, entries = index.conflicts_among(clusters)
            tree.conflicts = list(shared)
            tree._base = entries
            tree._overlay = [*own, *plain]
            tree._plain = frozenset(strs)
            tree._cluster_set = clusters
            clustered = own  # Q's own definitions go over the shared ones
            return tree._finish(clustered, losers, plain)
        remote = [o for c in sorted(clusters) for o in index.clustered(c) if o.node != qmgr]
        clustered = [o for o in [*own, *remote] if o.topicstr not in strs and o.name not in names]
        tree.hidden = [o for o in [*own, *remote] if o.topicstr in strs or o.name in names]
        if len(clustered) == len(own) + len(remote) and all(o.cluster in clusters for o in own):
            # the usual case: what Q sees is exactly its clusters' definitions, as for its fellow members
            shared, losers, entries = index.conflicts_among(clusters)
            tree.conflicts = list(shared)
            tree._base = entries
            clustered = own  # Q's own definitions go over the shared ones
        else:
            tree.conflicts = find_conflicts(clustered)
            losers = {(o.node, o.name) for c in tree.conflicts for o in c.losers}
        return tree._finish(clustered, losers, plain)

    def _finish(
        self, clustered: list[TopicObject], losers: set[tuple[str, str]], plain: list[TopicObject]
    ) -> TopicTree:
        """Q's clustered definitions (its own last: they win among alike ones), then its plain ones."""
        for obj in sorted(clustered, key=lambda o: (o.node == self.node, *_recency(o))):
            if (obj.node, obj.name) not in losers:
                self._own[obj.topicstr] = obj
        for obj in plain:
            self._own[obj.topicstr] = obj
        return self

    @property
    def entries(self) -> dict[str, TopicObject]:
        """Every entry of Q's tree by TOPICSTR (made on first need when Q shares its clusters' entries;
        never to be mutated)."""
        if self._base is None:
            return self._own
        if self._entries is None:
            self._entries = {**self._base, **self._own}
        return self._entries

    def get(self, topicstr: str) -> TopicObject | None:
        """The entry for ``topicstr``, if Q's tree has one."""
        found = self._own.get(topicstr)
        if found is None and self._base is not None:
            found = self._base.get(topicstr)
        return found

    def resolve(self, topicstr: str) -> Resolution:
        """Resolve a concrete topic string (any '#'/'+' in it is literal).

        Answers are kept, up to ``RESOLUTION_CACHE`` topic strings: a tree that lives as long as a routing
        model sees a stream of distinct publications, and must not grow with it.
        """
        cached = self._cache.get(topicstr)
        if cached is None:
            if self._plain is not None:  # Q's entries are its clusters' shared ones under its own
                strs, shared = self.index.resolution_among(self._cluster_set, topicstr, self.node)
                if self._own.keys().isdisjoint(strs):
                    cached = shared if shared.node == self.node else _at_node(shared, self.node)
            if cached is None:
                cached = self.resolve_levels(levels(topicstr, Dialect.MQ))
            if len(self._cache) >= RESOLUTION_CACHE:
                self._cache.clear()
            self._cache[topicstr] = cached
        return cached

    def point_group(self, prefix_levels: tuple[str, ...]) -> frozenset[str] | str:
        """Whose ``point`` for these levels Q's is: its clusters' (every member of exactly those
        clusters whose own objects lie off the chain gets the same one), else Q's own (its name)."""
        if self._plain is not None:
            strs, _ = self.index.point_among(self._cluster_set, prefix_levels)
            if self._plain.isdisjoint(strs):
                return self._cluster_set
        return self.node

    def point_groups(self, prefixes: list[tuple[str, ...]]) -> list[frozenset[str] | str]:
        """``point_group`` of each of ``prefixes`` (a queue manager's subscriptions, column-wise)."""
        if self._plain is None:
            return [self.node] * len(prefixes)
        clusters, plain, node, among = self._cluster_set, self._plain, self.node, self.index.point_among
        return [clusters if plain.isdisjoint(among(clusters, p)[0]) else node for p in prefixes]

    def point(self, prefix_levels: tuple[str, ...]) -> ClusterPoint:
        """The cluster point and subscription scope of a pattern with this fixed prefix, as
        ``resolve_pattern`` would give them, but shared with fellow members of the same clusters."""
        if self._plain is not None:
            strs, point = self.index.point_among(self._cluster_set, prefix_levels)
            if self._plain.isdisjoint(strs):
                return point
        found = self._points.get(prefix_levels)
        if found is None:
            res = self.resolve_pattern(prefix_levels)
            if len(self._points) >= RESOLUTION_CACHE:
                self._points.clear()
            found = self._points[prefix_levels] = ClusterPoint(
                res.cluster, res.clroute, res.hosts, res.subscope
            )
        return found

    def resolve_pattern(self, prefix_levels: Sequence[str]) -> Resolution:
        """Resolve a subscription by its fixed prefix (``topics.fixed_prefix_levels``, §3)."""
        return self.resolve(_SEP.join(prefix_levels))

    def resolve_levels(self, topic_levels: Sequence[str]) -> Resolution:
        own, base = self._own, self._base or {}
        found = (own.get(s) or base.get(s) for s in chain_topicstrs(topic_levels))
        return _resolve_chain(self.index, self.node, topic_levels, [o for o in found if o is not None])

    def resolve_many(self, topicstrs: Iterable[str]) -> list[Resolution]:
        """``[self.resolve(t) for t in topicstrs]``, for many topic strings at once (``display topic`` over
        an estate resolves every object's TOPICSTR): no cache to churn, each level of the strings'
        common prefixes looked up once (``reach_many``)."""
        strings = list(topicstrs)
        hosts, node = self.index.hosts, self.node
        return [
            Resolution(
                node=node,
                topicstr=topicstr,
                object=r.object,
                chain=r.chain,
                cluster=r.point.cluster if r.point is not None else "",
                cluster_point=r.point,
                clroute=r.point.clroute if r.point is not None else ClRoute.DIRECT,
                hosts=hosts(r.point.cluster, r.point.topicstr) if r.point is not None else (),
                pubscope=Scope.ALL if r.pubscope == Scope.ASPARENT else r.pubscope,
                subscope=Scope.ALL if r.subscope == Scope.ASPARENT else r.subscope,
                pub=Enablement.ENABLED if r.pub == Enablement.ASPARENT else r.pub,
                sub=Enablement.ENABLED if r.sub == Enablement.ASPARENT else r.sub,
                wildcard=r.object.wildcard if r.object is not None else Wildcard.PASSTHRU,
                proxysub=r.object.proxysub if r.object is not None else ProxySub.FIRSTUSE,
            )
            for topicstr, r in zip(strings, self.reach_many(strings), strict=True)
        ]

    def reach_many(self, topicstrs: Iterable[str]) -> list[Reached]:
        """Where each topic string lands in the tree (``Reached``: what its ``Resolution`` is made of),
        each level of the strings' common prefixes looked up once.

        A string's chain is its parent level's chain plus the object at the string itself, if any (the
        parent of ``/a/b`` is ``/a``, of ``/a`` and of ``a`` the root ``''``): ``display topic '*'``
        resolves the 50,000 TOPICSTRs of an estate, most of them under a few shared levels of their
        queue manager. Strings that reach no further object share their parent's ``Reached``."""
        own, base = self._own, self._base or {}
        root = own.get("") or base.get("")
        known: dict[str, Reached] = {"": _ROOT_REACHED if root is None else _ROOT_REACHED.below(root)}
        out: list[Reached] = []
        for topicstr in topicstrs:
            found = known.get(topicstr)
            if found is None:
                if len(topicstr) > MAX_TOPIC_LENGTH:
                    levels(topicstr, Dialect.MQ)  # refused as ``resolve`` refuses it
                pending = [topicstr]
                parent = topicstr.rpartition(_SEP)[0]
                while parent not in known:
                    pending.append(parent)
                    parent = parent.rpartition(_SEP)[0]
                found = known[parent]
                for level in reversed(pending):
                    obj = own.get(level) or base.get(level)
                    if obj is not None:
                        found = found.below(obj)
                    known[level] = found
            out.append(found)
        return out

    def uses(self, attribute: str, value: StrEnum) -> bool:
        """Some object in the tree has ``attribute`` set to ``value`` (e.g. ``wildcard``, BLOCK): when none
        does, a caller can skip resolving a topic to find out."""
        key = (attribute, str(value))
        found = self._uses.get(key)
        if found is None:
            if (
                self._overlay is not None
                and attribute in _USED
                and key not in self.index.values_among(self.index.clusters_of(self.node))
                and not any(getattr(o, attribute) == value for o in self._overlay)
            ):
                found = False  # the entries are drawn from the clusters' definitions and the overlay
            else:
                found = any(getattr(o, attribute) == value for o in self.entries.values())
            self._uses[key] = found
        return found

    def conflicts_on(self, topicstr: str) -> list[Conflict]:
        """Conflicts with a definition on the chain of ``topicstr``, and interferences along that chain."""
        found: list[Conflict] = []
        if self.conflicts:
            on_chain = set(chain_topicstrs(levels(topicstr, Dialect.MQ)))
            found = [c for c in self.conflicts if any(o.topicstr in on_chain for o in c.objects)]
        if self._clusters is None:
            self._clusters = (
                self.index.clusters_named(self._cluster_set)
                if self._overlay is not None  # Q's own clustered objects are alike to shared ones
                else len({o.cluster for o in self.entries.values() if o.cluster})
            )
        if self._clusters < 2:
            return found  # one cluster in the whole tree: nothing can interfere (and nothing to resolve)
        chain = self.resolve(topicstr).chain
        if sum(1 for o in chain if o.cluster) > 1:  # an interference needs two clustered objects
            found += find_interferences(chain)
        return found

    def interferences(self) -> list[Conflict]:
        """Every interference in this tree (for the validator)."""
        return find_interferences(self.entries.values())


def _resolve_chain(
    index: ClusterIndex, node: str, topic_levels: Sequence[str], found: Sequence[TopicObject]
) -> Resolution:
    """The resolution at ``node`` of a topic whose chain of objects, root side first, is ``found``."""
    chain = tuple(found)
    obj = chain[-1] if chain else None
    point = next((o for o in reversed(chain) if o.cluster), None)
    cluster = point.cluster if point is not None else ""
    return Resolution(
        node=node,
        topicstr=_SEP.join(topic_levels),
        object=obj,
        chain=chain,
        cluster=cluster,
        cluster_point=point,
        clroute=point.clroute if point is not None else ClRoute.DIRECT,
        hosts=index.hosts(cluster, point.topicstr) if point is not None else (),
        pubscope=_inherit(chain, "pubscope", Scope.ASPARENT, Scope.ALL),
        subscope=_inherit(chain, "subscope", Scope.ASPARENT, Scope.ALL),
        pub=_inherit(chain, "pub", Enablement.ASPARENT, Enablement.ENABLED),
        sub=_inherit(chain, "sub", Enablement.ASPARENT, Enablement.ENABLED),
        wildcard=obj.wildcard if obj is not None else Wildcard.PASSTHRU,
        proxysub=obj.proxysub if obj is not None else ProxySub.FIRSTUSE,
    )


def _at_node(shared: Resolution, node: str) -> Resolution:
    """``shared`` (a resolution among a set of clusters' definitions) as ``node`` has it: the same
    objects and attributes, its own node."""
    s = shared
    return Resolution(
        node, s.topicstr, s.object, s.chain, s.cluster, s.cluster_point, s.clroute, s.hosts,
        s.pubscope, s.subscope, s.pub, s.sub, s.wildcard, s.proxysub,
    )  # fmt: skip


def _inherit(chain: Sequence[TopicObject], attr: str, asparent: _E, default: _E) -> _E:
    """ASPARENT takes the value of the next object up; the root's value is ``default``."""
    for obj in reversed(chain):
        value: _E = getattr(obj, attr)
        if value != asparent:
            return value
    return default


class TopicTrees:
    """Trees of many queue managers over one topology, built on first use and kept."""

    def __init__(self, topology: Topology | ClusterIndex) -> None:
        self.index = topology if isinstance(topology, ClusterIndex) else ClusterIndex(topology)
        self._trees: dict[str, TopicTree] = {}

    def at(self, qmgr: str) -> TopicTree:
        tree = self._trees.get(qmgr)
        if tree is None:
            tree = TopicTree.for_node(self.index, qmgr)
            self._trees[qmgr] = tree
        return tree

    def resolve(self, qmgr: str, topicstr: str) -> Resolution:
        return self.at(qmgr).resolve(topicstr)
