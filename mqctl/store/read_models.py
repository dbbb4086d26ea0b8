"""Read models for DISPLAY: rows as JSON-ready dicts (the documented shapes of docs/cli.md).

Keys are lower-case MQSC attribute names, enum values as MQSC shows them, stored values only.
A trailing ``*`` in a name is generic unless ``exact``; a name without one must match exactly. Each
display is a fixed number of queries, whatever the number of rows.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from functools import partial
from operator import itemgetter
from typing import Any, NamedTuple

from sqlalchemy import ColumnElement, Select, Text, case, func, select, type_coerce, union

from mqctl.domain.errors import escaped
from mqctl.domain.model import ClRoute, Dialect, Membership, TopicObject, Topology
from mqctl.domain.objects import attributes
from mqctl.store import convert, tables
from mqctl.store.repository import Store


def name_filter(column: Any, pattern: str, exact: bool) -> ColumnElement[bool]:
    if not exact and pattern.endswith("*"):
        prefix = pattern[:-1]
        return column.startswith(prefix, autoescape=True) if prefix else column.is_not(None)
    return column == pattern


def _node_clause(node: str | None) -> list[ColumnElement[bool]]:
    return [] if node is None else [tables.nodes.c.name == node]


def _members_by(store: Store, where: ColumnElement[bool], *, node: bool) -> dict[int, list[Any]]:
    """Memberships matching ``where`` in one query: node id -> (cluster, full_repository) pairs in cluster
    order when ``node``, else cluster id -> (qmgr, full_repository) pairs in qmgr order."""
    n, m, c = tables.nodes, tables.memberships, tables.clusters
    key, other = (n.c.id, c.c.name) if node else (c.c.id, n.c.name)
    stmt = (
        select(key, other, m.c.full_repository)
        .join(m, m.c.node_id == n.c.id)
        .join(c, c.c.id == m.c.cluster_id)
        .where(where)
        .order_by(other)
    )
    out: dict[int, list[Any]] = defaultdict(list)
    for owner, name, full in store.conn.execute(stmt):
        out[owner].append((name, full))
    return out


def _routes_by(store: Store, where: ColumnElement[bool]) -> dict[int, list[str]]:
    """Peers of the routes defined on the nodes matching ``where``, in one query: node id -> peers."""
    n, r = tables.nodes, tables.routes
    stmt = select(n.c.id, r.c.peer).join(r, r.c.node_id == n.c.id).where(where).order_by(r.c.peer)
    out: dict[int, list[str]] = defaultdict(list)
    for owner, peer in store.conn.execute(stmt):
        out[owner].append(peer)
    return out


def _attrs(r: Any, table: tuple[attributes.Attribute, ...]) -> dict[str, Any]:
    """A row's attributes in the table's order, as JSON shows them (a list of names as a list)."""
    return {a.field: list(r[a.field]) if a.type is tuple else r[a.field] for a in table}


def _qmgr_row(r: Any, members: list[Any]) -> dict[str, Any]:
    return {
        "name": r["name"],
        "dialect": r["dialect"],
        **_attrs(r, attributes.NODE),
        "clusters": [name for name, _ in members],
        "repos": [name for name, full in members if full],
        "seq": r["seq"],
    }


def _server_row(r: Any, routes: list[str]) -> dict[str, Any]:
    return {
        "name": r["name"],
        "dialect": r["dialect"],
        "descr": r["descr"],
        "routes": routes,
        "seq": r["seq"],
    }


def _per_node(store: Store, table: Any, key: str, pattern: str, exact: bool, node: str | None) -> list[Any]:
    generic = not exact and pattern.endswith("*")
    if not generic and key == "name" and "name_key" in table.c:
        by_name = table.c.name_key == convert.digest(pattern)  # long names are found by their digest
    else:
        by_name = name_filter(table.c[key], pattern, exact)
    stmt = (
        select(table, tables.nodes.c.name.label("qmgr"), tables.nodes.c.dialect.label("node_dialect"))
        .join(tables.nodes, tables.nodes.c.id == table.c.node_id)
        .where(by_name, *_node_clause(node))
        .order_by(tables.nodes.c.name, table.c[key])
    )
    return list(store.conn.execute(stmt).mappings())


MQ_TOPIC_KEYS = tuple(a.field for a in attributes.TOPIC)
"""Every attribute of an MQ topic object, in the table's order (``domain.objects.attributes``)."""
EMS_TOPIC_KEYS = ("topicstr",)
"""An EMS topic definition is a pattern with properties: none of MQ's topic object attributes."""


class ShownTopics(NamedTuple):
    """What ``display topic`` shows: its rows, with the domain's object behind each MQ row."""

    rows: list[dict[str, Any]]
    """The rows in display order (node, name), shaped as docs/cli.md documents."""
    objects: list[TopicObject | None]
    """Row by row, the MQ topic object as the domain reads it (None for an EMS topic definition): whose
    TOPICSTR is resolved in its queue manager's tree."""
    every: bool
    """The rows are every topic object in the store: their MQ objects are the whole topic layer
    (``ReadModels.topic_layer(objects)`` then reads only the memberships)."""


MQ_TOPIC_ROW = ("name", "qmgr", *MQ_TOPIC_KEYS, "properties", "dialect", "seq")
"""The keys of an MQ row of ``display topic``, in order (docs/cli.md)."""
_OBJECT_FIELD = {"qmgr": "node"}
"""A row's key -> the ``TopicObject`` field holding its value, where they differ."""
PART = 4096
"""Rows of a large query read from the driver at a time (``Result.partitions``)."""
EMS_TOPIC_ROW = ("name", "qmgr", *EMS_TOPIC_KEYS, "properties", "dialect", "seq")


TOPIC_SHOWN = tuple(a for a in attributes.TOPIC if a.field not in ("topicstr", "cluster", "clroute"))
"""The attributes of ``display topic``'s ATTRIBUTES column (WILDCARD, PUBSCOPE, SUBSCOPE, PROXYSUB, PUB,
SUB, DESCR: every one of the table but TOPICSTR, CLUSTER and CLROUTE, which have columns of their own)."""
TOPIC_TABLE = ("qmgr", "name", "topicstr", "cluster", "clroute", "attributes", "properties")
"""The columns of ``display topic``'s table, in order: ATTRIBUTES holds those of ``TOPIC_SHOWN`` that
are not their defaults, as MQSC writes them."""
TOPIC_TABLE_ALL = (
    "qmgr",
    "name",
    "topicstr",
    "cluster",
    "clroute",
    *(a.field for a in TOPIC_SHOWN),
    "properties",
)
"""The columns of ``display topic --all``: every attribute in a column of its own."""
_DIRECT = str(ClRoute.DIRECT)
_SHOWN_DEFAULTS = tuple("" if a.default is None else str(a.default) for a in TOPIC_SHOWN)
"""``TOPIC_SHOWN``'s defaults as the store holds them (an enumeration as its text)."""
_SETTINGS = tuple(partial(attributes.mqsc_setting, a) for a in TOPIC_SHOWN)


def _clroute_cell(cluster: str | None, clroute: str | None) -> str | None:
    """CLROUTE as the table shows it: blank for an object in no cluster that keeps the default (DIRECT
    means nothing there); TOPICHOST without a cluster stays (validate's MQC010 is about it)."""
    if clroute is None or cluster or clroute != _DIRECT:
        return clroute
    return ""


def _attributes_cell(values: tuple[Any, ...]) -> str | None:
    """``PUBSCOPE(QMGR) DESCR('EU prices')``: the attributes of ``TOPIC_SHOWN`` that are not their
    default; None for an EMS definition, which has none of them, and for an object that keeps every
    default (a column no row fills is left out of the table)."""
    if values[0] is None or values == _SHOWN_DEFAULTS:  # most objects keep every default: one compare
        return None
    changed = [
        escaped(setting(value))
        for setting, value, default in zip(_SETTINGS, values, _SHOWN_DEFAULTS, strict=True)
        if ("" if value is None else value) != default
    ]
    return " ".join(changed) or None


def _clusters_of(qmgr: str) -> Select[Any]:
    n, m, c = tables.nodes, tables.memberships, tables.clusters
    stmt = select(c.c.name).join(m, m.c.cluster_id == c.c.id).join(n, n.c.id == m.c.node_id)
    return stmt.where(n.c.name == qmgr)


def _in_topic_tree(qmgr: str) -> ColumnElement[bool]:
    """The topic objects of ``qmgr``'s topic tree: its own, and the clustered ones of its clusters (a union
    of two indexed lookups: an OR of the two would scan every topic object)."""
    n, t = tables.nodes, tables.topics
    own = select(t.c.id).join(n, n.c.id == t.c.node_id).where(n.c.name == qmgr)
    clustered = select(t.c.id).where(t.c.cluster.in_(_clusters_of(qmgr)))
    return t.c.id.in_(union(own, clustered))


MQ_SUB_KEYS = tuple(a.field for a in attributes.SUB if a.type is not bool)
"""The subscription's attributes in the table's order; the flags (DURABLE) follow them, as bools."""
SUB_FLAGS = tuple(a.field for a in attributes.SUB if a.type is bool)
EMS_SUB_KEYS = ("topicstr", "selector")
"""An EMS subscriber has a pattern, a selector and durability; its durables.conf extras are properties."""


CHANNEL_KEYS = tuple(a.field for a in attributes.CHANNEL if a.field != "cluster")
"""A channel's attributes after its CLUSTER (shown first, '' for none)."""


class ReadModels:
    """The read models of one command's store (``store.views``): each display a fixed number of queries."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def display_nodes(self, pattern: str, exact: bool) -> list[dict[str, Any]]:
        """A queue manager with its MQ attributes; an EMS server with its description and the peers of the
        routes defined on it (no PSMODE, cluster or hierarchy: EMS has none)."""
        n = tables.nodes
        name = name_filter(n.c.name, pattern, exact)
        rows = self._store.conn.execute(select(n).where(name).order_by(n.c.name)).mappings().all()
        servers = sum(r["dialect"] == str(Dialect.EMS) for r in rows)
        by_node = _members_by(self._store, name, node=True) if len(rows) > servers else {}
        routes = _routes_by(self._store, name) if servers else {}
        return [
            _server_row(r, routes.get(r["id"], []))
            if r["dialect"] == str(Dialect.EMS)
            else _qmgr_row(r, by_node.get(r["id"], []))
            for r in rows
        ]

    def display_clusters(self, pattern: str, exact: bool) -> list[dict[str, Any]]:
        c = tables.clusters
        name = name_filter(c.c.name, pattern, exact)
        rows = self._store.conn.execute(select(c).where(name).order_by(c.c.name)).mappings().all()
        by_cluster = _members_by(self._store, name, node=False) if rows else {}
        out = []
        for r in rows:
            members = by_cluster.get(r["id"], [])
            out.append(
                {
                    "name": r["name"],
                    "descr": r["descr"],
                    "members": [name for name, _ in members],
                    "repos": [name for name, full in members if full],
                    "seq": r["seq"],
                }
            )
        return out

    def display_memberships(self, node: str | None, cluster: str | None) -> list[dict[str, Any]]:
        n, m, c = tables.nodes, tables.memberships, tables.clusters
        stmt = (
            select(n.c.name.label("qmgr"), c.c.name.label("cluster"), m.c.full_repository, m.c.seq)
            .join(m, m.c.node_id == n.c.id)
            .join(c, c.c.id == m.c.cluster_id)
            .order_by(n.c.name, c.c.name)
        )
        if node is not None:
            stmt = stmt.where(n.c.name == node)
        if cluster is not None:
            stmt = stmt.where(c.c.name == cluster)
        return [
            {"qmgr": r.qmgr, "cluster": r.cluster, "full_repository": bool(r.full_repository), "seq": r.seq}
            for r in self._store.conn.execute(stmt)
        ]

    def display_topics(
        self, pattern: str, exact: bool, node: str | None, *, objects: bool = True
    ) -> ShownTopics:
        """The topic objects matching ``pattern`` (on ``node``), in one query read whole: a display of an
        estate is 50,000 rows. Without ``objects`` (a table, which resolves nothing) no domain object is
        made: ``ShownTopics.objects`` is all None.

        Each row is made from the query's tuple by position (one ``itemgetter`` for the stored values it
        shows): not through a dict of every field per row."""
        codec, t, n = convert.TOPIC, tables.topics, tables.nodes
        generic = not exact and pattern.endswith("*")
        by_name = (
            name_filter(t.c.name, pattern, exact) if generic else t.c.name_key == convert.digest(pattern)
        )
        fields, mq = codec.fields, str(Dialect.MQ)
        stmt = (
            select(n.c.name, n.c.dialect, *codec.columns())
            .join(n, n.c.id == t.c.node_id)
            .where(by_name, *_node_clause(node))
            .order_by(n.c.name, t.c.name)
        )
        at = {name: 2 + i for i, name in enumerate(fields)}  # a field's position in the query's tuple
        # each row's values in its keys' order (``MQ_TOPIC_ROW``, ``EMS_TOPIC_ROW``): name, qmgr, ...
        mq_values = itemgetter(at["name"], 0, *[at[k] for k in MQ_TOPIC_KEYS], at["properties"], 1, at["seq"])
        ems_values = itemgetter(
            at["name"], 0, *[at[k] for k in EMS_TOPIC_KEYS], at["properties"], 1, at["seq"]
        )
        # an MQ row made from its object: the same values (enumerations as members, which JSON writes as
        # their text), the row's own copies of the stored texts left to die with the query's row
        head = MQ_TOPIC_ROW[: MQ_TOPIC_ROW.index("properties")]
        object_row = convert.dict_maker(head, [_OBJECT_FIELD.get(k, k) for k in head])
        from_tuple, json_value = codec.from_tuple, convert.json_value
        rows: list[dict[str, Any]] = []
        shown: list[TopicObject | None] = []
        obj: TopicObject | None = None
        # read a part at a time: the driver's rows and their texts are freed as the display's are made
        for part in self._store.conn.execute(stmt).partitions(PART):
            for row in part:
                if row[1] != mq:
                    item = dict(zip(EMS_TOPIC_ROW, ems_values(row), strict=True))
                    item["properties"] = json_value(item["properties"])
                    obj = None
                elif objects:
                    obj = from_tuple(row[2:], (row[0],))
                    item = object_row(obj)
                    item["properties"] = dict(obj.properties)
                    item["dialect"] = mq
                    item["seq"] = obj.seq
                else:
                    item = dict(zip(MQ_TOPIC_ROW, mq_values(row), strict=True))
                    item["cluster"] = item["cluster"] or ""
                    item["properties"] = json_value(item["properties"])
                rows.append(item)
                shown.append(obj)
        return ShownTopics(rows, shown, every=generic and pattern == "*" and node is None)

    def topic_table(
        self, pattern: str, exact: bool, node: str | None, *, every: bool = False
    ) -> list[tuple[Any, ...]]:
        """What ``display topic``'s table shows, and no more: per topic object matching ``pattern`` (on
        ``node``), in display order, its values of ``TOPIC_TABLE`` (``TOPIC_TABLE_ALL`` with ``every``),
        properties decoded. An EMS topic definition has None for MQ's attributes (its row has no such
        column); an MQ object's blank CLUSTER is ''. CLROUTE is blank where it means nothing (DIRECT in no
        cluster) unless ``every``, which shows each stored value as DISPLAY TOPIC ALL does. The rows of
        ``display_topics`` hold the same values: a table reads only its columns and builds no dict.
        """
        t, n = tables.topics, tables.nodes
        generic = not exact and pattern.endswith("*")
        by_name = (
            name_filter(t.c.name, pattern, exact) if generic else t.c.name_key == convert.digest(pattern)
        )
        mq = n.c.dialect == str(Dialect.MQ)
        stmt = (
            select(
                n.c.name,
                t.c.name,
                t.c.topicstr,
                case((mq, func.coalesce(t.c.cluster, ""))),
                case((mq, t.c.clroute)),
                *(case((mq, t.c[a.field])) for a in TOPIC_SHOWN),
                type_coerce(t.c.properties, Text),
            )
            .join(n, n.c.id == t.c.node_id)
            .where(by_name, *_node_clause(node))
            .order_by(n.c.name, t.c.name)
        )
        json_value = convert.json_value
        rows = self._store.conn.execute(stmt).all()
        if every:
            return [(*row[:-1], json_value(row[-1])) for row in rows]
        return [
            (*row[:4], _clroute_cell(row[3], row[4]), _attributes_cell(tuple(row[5:-1])), json_value(row[-1]))
            for row in rows
        ]

    def topic_space(self, qmgr: str) -> Topology:
        """What a queue manager's topic tree is built from: its own objects, the clustered objects of its
        clusters (defined on their members), and those clusters' memberships (semantics §3)."""
        n, m, c, t = tables.nodes, tables.memberships, tables.clusters, tables.topics
        members = (
            select(n.c.name.label("node"), c.c.name.label("cluster"), m.c.full_repository, m.c.seq)
            .join(m, m.c.node_id == n.c.id)
            .join(c, c.c.id == m.c.cluster_id)
            .where(c.c.name.in_(_clusters_of(qmgr)))
        )
        topology = Topology()
        for row in self._store.conn.execute(members):
            topology.memberships.append(Membership(row.node, row.cluster, bool(row.full_repository), row.seq))
        stmt = select(t, n.c.name.label("node_name")).join(n, n.c.id == t.c.node_id)
        rows = self._store.conn.execute(stmt.where(_in_topic_tree(qmgr))).mappings()
        topology.topics = [convert.topic_from_row(row, row["node_name"]) for row in rows]
        return topology

    def tree_slice(self, qmgr: str) -> Topology:
        """What ``display tree --qmgr Q`` shows, and no more: Q's node, its topic space (``topic_space``) and
        its subscriptions. Empty when Q does not exist (``services.views.tree_view`` refuses it first)."""
        ref = self._store.node(qmgr)
        if ref is None:
            return Topology()
        topology = self.topic_space(qmgr)
        topology.nodes[qmgr] = ref.node
        s, codec = tables.subscriptions, convert.SUBSCRIPTION
        rows = self._store.conn.execute(
            select(*codec.columns()).where(s.c.node_id == ref.id).order_by(s.c.name)
        )
        topology.subscriptions = [codec.from_tuple(row, (qmgr,)) for row in rows]
        return topology

    def topic_layer(self, objects: Iterable[TopicObject | None] | None = None) -> Topology:
        """Every MQ topic object and every membership, in three queries: what the topic trees of many queue
        managers are built from at once (``display topic '*'`` over an estate), where one ``topic_space``
        per queue manager would be thousands of queries each re-reading its clusters' objects. With
        ``objects`` (``ShownTopics.objects`` of a display of every topic object), those are the layer's
        topic objects and only the memberships are read."""
        n, m, c, t = tables.nodes, tables.memberships, tables.clusters, tables.topics
        topology = Topology()
        mq_nodes = self._store.conn.execute(
            select(n.c.id, n.c.name).where(n.c.dialect == str(Dialect.MQ))
        ).all()
        names: dict[int, str] = {node_id: name for node_id, name in mq_nodes}
        members = select(m.c.node_id, c.c.name, m.c.full_repository, m.c.seq).join(
            c, c.c.id == m.c.cluster_id
        )
        topology.memberships = [
            Membership(names[node_id], cluster, bool(full), seq)
            for node_id, cluster, full, seq in self._store.conn.execute(
                members
            ).all()  # read whole: 5,000 rows
            if node_id in names
        ]
        if objects is not None:
            topology.topics = [obj for obj in objects if obj is not None]
            return topology
        codec = convert.TOPIC
        rows = self._store.conn.execute(
            select(t.c.node_id, *codec.columns()).order_by(t.c.node_id, t.c.name)
        ).all()
        topology.topics = [codec.from_tuple(row[1:], (names[row[0]],)) for row in rows if row[0] in names]
        return topology

    def drawn_topology(self) -> Topology:
        """What ``graph`` draws without ``--topic``, and no more: every node, membership, route and route
        selector, and the clustered topic objects (listed in their hosts' boxes). Plain topic objects,
        namelists, channels and subscriptions are not read: on an estate they are most of the rows. In the
        orders of ``store.topology.load_topology``."""
        n, m, c, t, r, rs = (
            tables.nodes,
            tables.memberships,
            tables.clusters,
            tables.topics,
            tables.routes,
            tables.route_selectors,
        )
        topology = Topology()
        names: dict[int, str] = {}
        # every query read whole (``all``): rows one by one cost a driver call each, 5,000 nodes and
        # memberships on an estate
        nodes = self._store.conn.execute(select(n.c.id, *convert.NODE.columns()).order_by(n.c.name)).all()
        for row in nodes:
            node = convert.NODE.from_tuple(row[1:])
            names[row[0]] = node.name
            topology.nodes[node.name] = node
        members = select(m.c.node_id, c.c.name, m.c.full_repository, m.c.seq).join(
            c, c.c.id == m.c.cluster_id
        )
        topology.memberships = sorted(
            (
                Membership(names[node_id], cluster, bool(full), seq)
                for node_id, cluster, full, seq in self._store.conn.execute(members).all()
            ),
            key=lambda x: (x.node, x.cluster),
        )
        codec = convert.TOPIC
        clustered = select(t.c.node_id, *codec.columns()).where(t.c.cluster.is_not(None), t.c.cluster != "")
        rows = self._store.conn.execute(clustered.order_by(t.c.node_id, t.c.name)).all()
        topology.topics = [codec.from_tuple(row[1:], (names[row[0]],)) for row in rows]
        route_keys: dict[int, tuple[str, str]] = {}
        for route_id, node_id, *values in self._store.conn.execute(
            select(r.c.id, r.c.node_id, *convert.ROUTE.columns()).order_by(r.c.node_id, r.c.peer)
        ).all():
            route = convert.ROUTE.from_tuple(values, (names[node_id],))
            route_keys[route_id] = (route.node, route.peer)
            topology.routes.append(route)
        selectors = select(rs.c.route_id, *convert.ROUTE_SELECTOR.columns()).order_by(
            rs.c.route_id, rs.c.seq, rs.c.id
        )
        for route_id, *values in self._store.conn.execute(selectors).all():
            topology.route_selectors.append(convert.ROUTE_SELECTOR.from_tuple(values, route_keys[route_id]))
        return topology

    def topic_string_starts(self, qmgr: str) -> set[str]:
        """The first character of each TOPICSTR in ``qmgr``'s topic tree and of each subscription pattern on
        ``qmgr``: enough to tell whether they all start with '/', without reading them."""
        n, t, s = tables.nodes, tables.topics, tables.subscriptions
        objects = (
            select(func.substr(t.c.topicstr, 1, 1)).join(n, n.c.id == t.c.node_id).where(_in_topic_tree(qmgr))
        )
        patterns = (
            select(func.substr(s.c.topicstr, 1, 1)).join(n, n.c.id == s.c.node_id).where(n.c.name == qmgr)
        )
        return {first for (first,) in self._store.conn.execute(union(objects, patterns))}

    def display_subscriptions(self, pattern: str, exact: bool, node: str | None) -> list[dict[str, Any]]:
        out = []
        for r in _per_node(self._store, tables.subscriptions, "name", pattern, exact, node):
            keys = MQ_SUB_KEYS if r["node_dialect"] == str(Dialect.MQ) else EMS_SUB_KEYS
            item: dict[str, Any] = {"name": r["name"], "qmgr": r["qmgr"]}
            item.update({k: r[k] for k in keys})
            item.update({k: bool(r[k]) for k in SUB_FLAGS})
            item["properties"] = dict(r["properties"])
            item["dialect"] = r["node_dialect"]
            item["seq"] = r["seq"]
            out.append(item)
        return out

    def display_namelists(self, pattern: str, exact: bool, node: str | None) -> list[dict[str, Any]]:
        return [
            {
                "name": r["name"],
                "qmgr": r["qmgr"],
                **_attrs(r, attributes.NAMELIST),
                "seq": r["seq"],
            }
            for r in _per_node(self._store, tables.namelists, "name", pattern, exact, node)
        ]

    def display_channels(self, pattern: str, exact: bool, node: str | None) -> list[dict[str, Any]]:
        keys = (*CHANNEL_KEYS, "seq")
        return [
            {"name": r["name"], "qmgr": r["qmgr"], "cluster": r["cluster"] or "", **{k: r[k] for k in keys}}
            for r in _per_node(self._store, tables.channels, "name", pattern, exact, node)
        ]

    def display_routes(self, pattern: str, exact: bool, node: str | None) -> list[dict[str, Any]]:
        rows = _per_node(self._store, tables.routes, "peer", pattern, exact, node)
        selectors: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
        for sel in self.display_route_selectors(node, None) if rows else []:
            selectors[(sel["qmgr"], sel["route"])].append(sel)
        out = []
        for r in rows:
            out.append(
                {
                    "name": r["peer"],
                    "qmgr": r["qmgr"],
                    **_attrs(r, attributes.ROUTE),
                    "properties": dict(r["properties"]),
                    "selectors": selectors.get((r["qmgr"], r["peer"]), []),
                    "seq": r["seq"],
                }
            )
        return out

    def display_route_selectors(self, node: str | None, route: str | None) -> list[dict[str, Any]]:
        rt, rs = tables.routes, tables.route_selectors
        stmt = (
            select(
                tables.nodes.c.name.label("qmgr"),
                rt.c.peer,
                rs.c.direction,
                rs.c.topic,
                rs.c.selector,
                rs.c.seq,
            )
            .join(rt, rt.c.node_id == tables.nodes.c.id)
            .join(rs, rs.c.route_id == rt.c.id)
            .order_by(tables.nodes.c.name, rt.c.peer, rs.c.direction, rs.c.topic)
        )
        if node is not None:
            stmt = stmt.where(tables.nodes.c.name == node)
        if route is not None:
            stmt = stmt.where(rt.c.peer == route)
        return [
            {
                "qmgr": r.qmgr,
                "route": r.peer,
                "direction": r.direction,
                "topic": r.topic,
                "selector": r.selector,
                "seq": r.seq,
            }
            for r in self._store.conn.execute(stmt)
        ]
