"""Load and save domain objects: one ``Store`` per command, on one connection inside one transaction.

Single-object edits (the object commands) read and write that object and the few facts the rules need,
through indexed queries: their cost does not grow with the size of the node. Whole-file imports load a
node's objects into a ``NodeState``, let the format edit it, and write back only the difference with bulk
statements (``load_node_state`` / ``save_node_state``). A snapshot writes its thousands of new nodes at once
(``add_nodes``): one bulk insert per table, not statements per node.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cached_property
from itertools import islice
from operator import itemgetter
from typing import TYPE_CHECKING, Any, TypeVar

from sqlalchemy import bindparam, delete, func, insert, select, text, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import DBAPIError

from mqctl.domain.errors import NotFoundError
from mqctl.domain.model import (
    Dialect,
    Membership,
    Node,
    NodeState,
    RouteSelector,
    Topology,
)
from mqctl.domain.names import node_label
from mqctl.store import convert, tables
from mqctl.store.convert import Codec, digest
from mqctl.store.engine import lock_timeout_ms

if TYPE_CHECKING:
    from mqctl.store.observed import ObservedRepository
    from mqctl.store.read_models import ReadModels

T = TypeVar("T")
ALL_PARTS = frozenset({"memberships", "topics", "subscriptions", "namelists", "channels", "routes"})
"""The collections of a ``NodeState``; a whole-file import loads them all, a cluster edit a few."""
CLUSTER_PARTS = frozenset({"memberships", "namelists", "channels"})
"""What deriving memberships needs (``domain.memberships``)."""
BULK_ROWS = 20_000
"""Rows per bulk insert when loading many nodes at once (``add_nodes``)."""


@dataclass(frozen=True)
class Kind:
    """How one per-node object kind is stored: its table, how its key is looked up, its row values."""

    attr: str
    """The ``NodeState`` collection."""
    codec: Codec[Any]
    key_field: str
    key_column: str
    digested: bool
    values: Callable[[Any, int, Dialect], dict[str, Any]]

    @property
    def table(self) -> Any:
        return self.codec.table

    def key_value(self, key: str) -> str:
        return digest(key) if self.digested else key

    def from_row(self, row: Any, node: str) -> Any:
        return self.codec.from_row(row, node=node)


TOPICS = Kind("topics", convert.TOPIC, "name", "name_key", True, convert.topic_values)
SUBSCRIPTIONS = Kind(
    "subscriptions", convert.SUBSCRIPTION, "name", "name_key", True, convert.subscription_values
)
NAMELISTS = Kind(
    "namelists",
    convert.NAMELIST,
    "name",
    "name",
    False,
    lambda o, i, d: convert.owned_values(convert.NAMELIST, o, i),
)
CHANNELS = Kind(
    "channels",
    convert.CHANNEL,
    "name",
    "name",
    False,
    lambda o, i, d: convert.owned_values(convert.CHANNEL, o, i),
)
ROUTES = Kind(
    "routes", convert.ROUTE, "peer", "peer", False, lambda o, i, d: convert.owned_values(convert.ROUTE, o, i)
)
KINDS = (TOPICS, SUBSCRIPTIONS, NAMELISTS, CHANNELS, ROUTES)


@dataclass(frozen=True)
class NodeRef:
    """A node as the store knows it: its row id and its definition."""

    id: int
    node: Node

    @property
    def name(self) -> str:
        return self.node.name

    @property
    def dialect(self) -> Dialect:
        return self.node.dialect


class Store:
    """Every read and write of one command, on ``conn`` (the caller owns the transaction)."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn
        self._seq: int | None = None
        self._inserts: dict[tuple[str, tuple[str, ...]], tuple[str, list[str]]] = {}

    # -- definition sequence -------------------------------------------------------------------
    def lock(self) -> None:
        """Serialise writers: take the sequence counter's row lock before reading anything.

        Every write command starts here, so it reads the store after the previous writer committed
        and no update is ever lost (SQLite gets the same from ``BEGIN IMMEDIATE``). A writer waits at most
        the lock timeout for the one before it."""
        if self.conn.dialect.name == "postgresql":
            self.conn.execute(text(f"SET LOCAL lock_timeout = {lock_timeout_ms()}"))
        self._read_seq()

    def _read_seq(self) -> int:
        c = tables.counters
        value = self.conn.execute(select(c.c.value).where(c.c.name == "seq").with_for_update()).scalar()
        if value is None:
            self.conn.execute(insert(c).values(name="seq", value=0))
            value = 0
        return int(value)

    def next_seq(self) -> int:
        """Monotonic definition sequence (semantics §1): read once per command, kept in memory, written
        back by ``flush_seq`` when the command commits (one statement, however many objects it defines)."""
        if self._seq is None:
            self._seq = self._read_seq()
        self._seq += 1
        return self._seq

    def continue_after(self, seq: int) -> None:
        """Make the sequence continue after ``seq`` (a snapshot loaded with its own sequences)."""
        current = self._read_seq() if self._seq is None else self._seq
        self._seq = max(current, seq)

    def flush_seq(self) -> None:
        if self._seq is not None:
            c = tables.counters
            self.conn.execute(update(c).where(c.c.name == "seq").values(value=self._seq))

    # -- nodes -----------------------------------------------------------------------------------
    def node(self, name: str) -> NodeRef | None:
        n = tables.nodes
        row = self.conn.execute(select(n).where(n.c.name == name)).mappings().first()
        return None if row is None else NodeRef(row["id"], convert.node_from_row(row))

    def require_node(self, name: str, dialect: Dialect | None = None) -> NodeRef:
        ref = self.node(name)
        if ref is None:
            what = "node" if dialect is None else node_label(dialect)
            raise NotFoundError("does not exist", obj=f"{what} {name}")
        return ref

    def dialects(self, names: Iterable[str]) -> dict[str, Dialect]:
        """The dialect of each named node that exists."""
        wanted = sorted(set(names))
        n = tables.nodes
        out: dict[str, Dialect] = {}
        for chunk in _chunks(wanted, 500):
            for name, dialect in self.conn.execute(select(n.c.name, n.c.dialect).where(n.c.name.in_(chunk))):
                out[name] = Dialect(dialect)
        return out

    def node_names(self, dialect: Dialect | None = None) -> list[str]:
        n = tables.nodes
        stmt = select(n.c.name).order_by(n.c.name)
        if dialect is not None:
            stmt = stmt.where(n.c.dialect == str(dialect))
        return list(self.conn.execute(stmt).scalars())

    def is_empty(self) -> bool:
        """No node and no cluster: nothing a whole-model load could collide with."""
        for table in (tables.nodes, tables.clusters):
            if self.conn.execute(select(table.c.id).limit(1)).first() is not None:
                return False
        return True

    def add_node(self, node: Node) -> NodeRef:
        row_id = self.conn.execute(
            insert(tables.nodes).values(**convert.node_values(node)).returning(tables.nodes.c.id)
        ).scalar_one()
        return NodeRef(row_id, node)

    def update_node(self, ref: NodeRef, node: Node) -> NodeRef:
        self.conn.execute(
            update(tables.nodes).where(tables.nodes.c.id == ref.id).values(**convert.node_values(node))
        )
        return NodeRef(ref.id, node)

    def delete_node(self, ref: NodeRef) -> None:
        self.conn.execute(delete(tables.nodes).where(tables.nodes.c.id == ref.id))

    def children(self, name: str) -> list[str]:
        n = tables.nodes
        return list(
            self.conn.execute(select(n.c.name).where(n.c.parent == name).order_by(n.c.name)).scalars()
        )

    # -- clusters --------------------------------------------------------------------------------
    def cluster(self, name: str) -> tuple[str, int] | None:
        """(DESCR, seq) of a cluster, or None."""
        c = tables.clusters
        row = self.conn.execute(select(c.c.descr, c.c.seq).where(c.c.name == name)).first()
        return None if row is None else (row.descr, row.seq)

    def cluster_names(self) -> list[str]:
        c = tables.clusters
        return list(self.conn.execute(select(c.c.name).order_by(c.c.name)).scalars())

    def put_cluster(self, name: str, descr: str, seq: int) -> None:
        c = tables.clusters
        if self.cluster(name) is None:
            self.conn.execute(insert(c).values(name=name, descr=descr, seq=seq))
        else:
            self.conn.execute(update(c).where(c.c.name == name).values(descr=descr, seq=seq))

    def delete_cluster(self, name: str) -> None:
        self.conn.execute(delete(tables.clusters).where(tables.clusters.c.name == name))

    def ensure_clusters(self, names: Iterable[str]) -> dict[str, int]:
        """Clusters referenced by a node, a topic or a channel are created on first reference."""
        wanted = sorted({n for n in names if n})
        if not wanted:
            return {}
        c = tables.clusters
        ids: dict[str, int] = {}
        for chunk in _chunks(wanted, 500):
            ids.update(
                {
                    name: cid
                    for name, cid in self.conn.execute(select(c.c.name, c.c.id).where(c.c.name.in_(chunk)))
                }
            )
        for name in wanted:
            if name not in ids:
                ids[name] = self.conn.execute(
                    insert(c).values(name=name, descr="", seq=self.next_seq()).returning(c.c.id)
                ).scalar_one()
        return ids

    def cluster_members(self, name: str) -> list[str]:
        n, m, c = tables.nodes, tables.memberships, tables.clusters
        stmt = (
            select(n.c.name)
            .join(m, m.c.node_id == n.c.id)
            .join(c, c.c.id == m.c.cluster_id)
            .where(c.c.name == name)
            .order_by(n.c.name)
        )
        return list(self.conn.execute(stmt).scalars())

    def cluster_users(self, name: str) -> list[str]:
        """Topic objects and channels that name a cluster, as ``topic T on QM``."""
        out: list[str] = []
        n = tables.nodes
        for table, label in ((tables.topics, "topic"), (tables.channels, "channel")):
            rows = self.conn.execute(
                select(n.c.name, table.c.name)
                .join(table, table.c.node_id == n.c.id)
                .where(table.c.cluster == name)
                .order_by(n.c.name, table.c.name)
            ).all()
            out += [f"{label} {obj} on {node}" for node, obj in rows]
        return out

    # -- per-node objects, one at a time --------------------------------------------------------
    def find(self, kind: Kind, ref: NodeRef, key: str) -> tuple[int, Any] | None:
        """(row id, object) of the object ``key`` on the node, or None."""
        t = kind.table
        row = (
            self.conn.execute(
                select(t).where(t.c.node_id == ref.id, t.c[kind.key_column] == kind.key_value(key))
            )
            .mappings()
            .first()
        )
        if row is None or row[kind.key_field] != key:
            return None
        return row["id"], kind.from_row(row, ref.name)

    def insert(self, kind: Kind, ref: NodeRef, obj: Any) -> int:
        t = kind.table
        return int(
            self.conn.execute(
                insert(t).values(**kind.values(obj, ref.id, ref.dialect)).returning(t.c.id)
            ).scalar_one()
        )

    def update(self, kind: Kind, row_id: int, ref: NodeRef, obj: Any) -> None:
        t = kind.table
        self.conn.execute(update(t).where(t.c.id == row_id).values(**kind.values(obj, ref.id, ref.dialect)))

    def delete_row(self, kind: Kind, row_id: int) -> None:
        self.conn.execute(delete(kind.table).where(kind.table.c.id == row_id))

    def count(self, kind: Kind, ref: NodeRef) -> int:
        t = kind.table
        return int(
            self.conn.execute(select(func.count()).select_from(t).where(t.c.node_id == ref.id)).scalar_one()
        )

    def topic_named_by_topicstr(self, ref: NodeRef, topicstr: str) -> str | None:
        """The topic object on the node that has this TOPICSTR (MQ allows one)."""
        t = tables.topics
        rows = self.conn.execute(
            select(t.c.name, t.c.topicstr).where(t.c.node_id == ref.id, t.c.topicstr_key == digest(topicstr))
        ).all()
        return next((name for name, text in rows if text == topicstr), None)

    def subscriptions_naming_topic(self, ref: NodeRef, topic: str) -> list[tuple[int, str]]:
        """(row id, name) of the subscriptions whose TOPICOBJ is ``topic``."""
        s = tables.subscriptions
        rows = self.conn.execute(
            select(s.c.id, s.c.name).where(s.c.node_id == ref.id, s.c.topicobj == topic).order_by(s.c.name)
        )
        return [(row.id, row.name) for row in rows]

    def routes_to(self, peer: str) -> list[str]:
        """Servers that define a route towards ``peer``."""
        n, r = tables.nodes, tables.routes
        return list(
            self.conn.execute(
                select(n.c.name).join(r, r.c.node_id == n.c.id).where(r.c.peer == peer).order_by(n.c.name)
            ).scalars()
        )

    def node_object_counts(self, ref: NodeRef) -> list[tuple[str, int]]:
        """How many objects of each kind a node holds (for a refused delete's message)."""
        out = [
            (label, self.count(kind, ref))
            for label, kind in (
                ("topic", TOPICS),
                ("sub", SUBSCRIPTIONS),
                ("namelist", NAMELISTS),
                ("channel", CHANNELS),
                ("route", ROUTES),
            )
        ]
        m = tables.memberships
        memberships = int(
            self.conn.execute(select(func.count()).select_from(m).where(m.c.node_id == ref.id)).scalar_one()
        )
        out.append(("cluster membership", memberships))
        return [(label, n) for label, n in out if n]

    # -- route selectors -------------------------------------------------------------------------
    def route_selectors(self, route_id: int, node: str, peer: str) -> list[tuple[int, RouteSelector]]:
        rs = tables.route_selectors
        rows = self.conn.execute(
            select(rs).where(rs.c.route_id == route_id).order_by(rs.c.seq, rs.c.id)
        ).mappings()
        return [(r["id"], convert.route_selector_from_row(r, node, peer)) for r in rows]

    def insert_route_selector(self, route_id: int, rs: RouteSelector) -> None:
        self.conn.execute(
            insert(tables.route_selectors).values(**convert.route_selector_values(rs, route_id))
        )

    def update_route_selector(self, row_id: int, route_id: int, rs: RouteSelector) -> None:
        t = tables.route_selectors
        self.conn.execute(
            update(t).where(t.c.id == row_id).values(**convert.route_selector_values(rs, route_id))
        )

    def delete_route_selector(self, row_id: int) -> None:
        t = tables.route_selectors
        self.conn.execute(delete(t).where(t.c.id == row_id))

    # -- the whole model, and the slices questions need (services ask here, never for ``conn``) -----
    def topology(self, *, subscriptions: bool = True) -> Topology:
        """Every object of the store (``store.topology.load_topology``)."""
        from mqctl.store.topology import load_topology

        return load_topology(self.conn, subscriptions=subscriptions)

    def clusters(self) -> list[tuple[str, str, int]]:
        """(name, DESCR, seq) of every cluster, by name."""
        from mqctl.store.topology import load_clusters

        return load_clusters(self.conn)

    def cluster_view(self, clusters: Iterable[str]) -> Topology:
        """What the members of ``clusters`` define that MQ shares in them (``load_cluster_view``)."""
        from mqctl.store.topology import load_cluster_view

        return load_cluster_view(self.conn, clusters)

    def publication_slice(self, publisher: str, topic: str, failures: Any) -> Topology:
        """The slice of the model one publication's explain reads (``store.slice.load_slice``)."""
        from mqctl.store.slice import load_slice

        return load_slice(self.conn, publisher, topic, failures)

    @cached_property
    def views(self) -> ReadModels:
        """The read models for display and drawing, on this store (``store.read_models``)."""
        from mqctl.store.read_models import ReadModels

        return ReadModels(self)

    @cached_property
    def observed(self) -> ObservedRepository:
        """The captures kept of the queue managers, on this store (``store.observed``)."""
        from mqctl.store.observed import ObservedRepository

        return ObservedRepository(self)

    # -- node state (whole-file imports, membership derivation) -----------------------------------
    def load_node_state(self, ref: NodeRef, parts: frozenset[str] = ALL_PARTS) -> NodeState:
        """The node's objects of the given ``parts`` (the others stay empty)."""
        state = NodeState(node=ref.node)
        for kind in KINDS:
            if kind.attr in parts:
                rows = self.conn.execute(select(kind.table).where(kind.table.c.node_id == ref.id)).mappings()
                getattr(state, kind.attr).update(
                    {r[kind.key_field]: kind.from_row(r, ref.name) for r in rows}
                )
        if "memberships" in parts:
            state.memberships = self.memberships_of(ref)
        if "routes" in parts:
            state.route_selectors = self._node_route_selectors(ref)
        return state

    def load_node_slice(
        self, ref: NodeRef, keys: Mapping[str, Iterable[str]], parts: frozenset[str] = frozenset()
    ) -> NodeState:
        """A ``NodeState`` holding only the named objects (``keys``: collection -> object keys; routes
        come with their selectors) and the whole of ``parts``: what one object command reads, with
        indexed queries, so its cost does not grow with the node."""
        state = self.load_node_state(ref, parts) if parts else NodeState(node=ref.node)
        for kind in KINDS:
            if kind.attr in parts:
                continue
            collection = getattr(state, kind.attr)
            for key in dict.fromkeys(keys.get(kind.attr, ())):
                found = self.find(kind, ref, key)
                if found is None:
                    continue
                collection[key] = found[1]
                if kind is ROUTES:
                    state.route_selectors += [rs for _, rs in self.route_selectors(found[0], ref.name, key)]
        return state

    def memberships_of(self, ref: NodeRef) -> dict[str, Membership]:
        c, m = tables.clusters, tables.memberships
        members = self.conn.execute(
            select(c.c.name, m.c.full_repository, m.c.seq)
            .join(c, c.c.id == m.c.cluster_id)
            .where(m.c.node_id == ref.id)
            .order_by(c.c.name)
        ).all()
        return {name: Membership(ref.name, name, bool(full), seq) for name, full, seq in members}

    def _node_route_selectors(self, ref: NodeRef) -> list[RouteSelector]:
        r, rs = tables.routes, tables.route_selectors
        rows = self.conn.execute(
            select(rs, r.c.peer.label("route_peer"))
            .join(r, r.c.id == rs.c.route_id)
            .where(r.c.node_id == ref.id)
            .order_by(rs.c.seq, rs.c.id)
        ).mappings()
        return [convert.route_selector_from_row(row, ref.name, row["route_peer"]) for row in rows]

    def save_node_state(self, ref: NodeRef, before: NodeState, after: NodeState) -> NodeRef:
        """Write the difference between two states of one node (bulk statements, same transaction)."""
        if after.node != before.node:
            ref = self.update_node(ref, after.node)
        self.ensure_clusters(
            [m.cluster for m in after.memberships.values()]
            + [t.cluster for t in after.topics.values()]
            + [c.cluster for c in after.channels.values()]
        )
        recreated_routes: set[str] = set()
        for kind in KINDS:
            old: dict[str, Any] = getattr(before, kind.attr)
            new: dict[str, Any] = getattr(after, kind.attr)
            if old is new:
                continue
            gone = [k for k in old if k not in new or new[k] != old[k]]
            added = [new[k] for k in new if k not in old or new[k] != old[k]]
            if kind is ROUTES:
                recreated_routes = set(gone) | {r.peer for r in added}
            for chunk in _chunks(gone, 500):
                self.conn.execute(
                    delete(kind.table).where(
                        kind.table.c.node_id == ref.id,
                        kind.table.c[kind.key_column].in_([kind.key_value(k) for k in chunk]),
                    )
                )
            if added:
                self._insert_many(kind, [kind.values(obj, ref.id, ref.dialect) for obj in added])
        self._save_memberships(ref.id, before.memberships, after.memberships)
        self._save_route_selectors(ref.id, before.route_selectors, after.route_selectors, recreated_routes)
        return ref

    def add_nodes(self, states: Sequence[NodeState]) -> dict[str, NodeRef]:
        """Nodes new to the store, each with every object of its state (a snapshot loaded into an empty
        store): one bulk insert per table for them all, not statements per node, so the number of round
        trips to the database does not grow with the number of nodes."""
        n = tables.nodes
        if not states:
            return {}
        unparented = [dataclasses.replace(s.node, parent=None) for s in states]
        self._bulk_insert(n, convert.NODE.json_columns, [convert.node_values(node) for node in unparented])
        ids: dict[str, int] = {}
        for chunk in _chunks([s.node.name for s in states], 500):
            ids.update(self.conn.execute(select(n.c.name, n.c.id).where(n.c.name.in_(chunk))).all())
        parents = [{"b_name": s.node.name, "b_parent": s.node.parent} for s in states if s.node.parent]
        if parents:  # once every node exists: a parent is a node of the same load
            self.conn.execute(
                update(n).where(n.c.name == bindparam("b_name")).values(parent=bindparam("b_parent")), parents
            )
        refs = {s.node.name: NodeRef(ids[s.node.name], s.node) for s in states}
        cluster_ids = self.ensure_clusters(
            [m.cluster for s in states for m in s.memberships.values()]
            + [t.cluster for s in states for t in s.topics.values()]
            + [c.cluster for s in states for c in s.channels.values()]
        )
        for kind in KINDS:
            rows = (
                kind.values(obj, refs[s.node.name].id, s.node.dialect)
                for s in states
                for obj in getattr(s, kind.attr).values()
            )
            for batch in _batches(rows, BULK_ROWS):  # a batch's rows in memory, not the whole table's
                self._insert_many(kind, batch)
        members = [
            {
                "node_id": refs[s.node.name].id,
                "cluster_id": cluster_ids[m.cluster],
                "full_repository": m.full_repository,
                "seq": m.seq,
            }
            for s in states
            for m in s.memberships.values()
        ]
        if members:
            self._bulk_insert(tables.memberships, frozenset(), members)
        self._add_route_selectors([(refs[s.node.name].id, s.route_selectors) for s in states])
        return refs

    def _add_route_selectors(self, owned: list[tuple[int, list[RouteSelector]]]) -> None:
        """The selectors of new routes (per node, by peer, in their order), given their node's row id."""
        owned = [(node_id, selectors) for node_id, selectors in owned if selectors]
        if not owned:
            return
        r = tables.routes
        route_ids: dict[tuple[int, str], int] = {}
        for chunk in _chunks([node_id for node_id, _ in owned], 500):
            rows = self.conn.execute(select(r.c.node_id, r.c.peer, r.c.id).where(r.c.node_id.in_(chunk)))
            route_ids.update({(node_id, peer): route_id for node_id, peer, route_id in rows})
        values = [
            convert.route_selector_values(rs, route_ids[node_id, rs.peer])
            for node_id, selectors in owned
            for rs in sorted(selectors, key=lambda x: x.peer)
            if (node_id, rs.peer) in route_ids
        ]
        if values:
            self._bulk_insert(tables.route_selectors, convert.ROUTE_SELECTOR.json_columns, values)

    def _insert_many(self, kind: Kind, rows: list[dict[str, Any]]) -> None:
        self._bulk_insert(kind.table, kind.codec.json_columns, rows)

    def _bulk_insert(self, table: Any, json_columns: frozenset[str], rows: list[dict[str, Any]]) -> None:
        """Bulk insert on the driver's connection, inside the command's transaction.

        ``conn.execute(insert(table), rows)`` processes every row's parameters in Python (about 6 µs a
        row); an import writes hundreds of thousands of rows. Values are plain str/int/bool/None, and
        JSON columns are serialised here as SQLAlchemy would. PostgreSQL through psycopg: ``COPY ...
        FROM STDIN`` (psycopg's ``executemany`` sends one statement per row, and SQLAlchemy's multi-row
        ``INSERT`` batches make psycopg parse every batch's long query again in Python: both several
        times slower, in the client and in the server). Otherwise ``executemany`` with the statement
        compiled once."""
        present = [c for c in json_columns if c in rows[0]]
        for row in rows:
            for column in present:
                value = row[column]
                row[column] = "{}" if value == {} else json.dumps(value, separators=(",", ":"))
        dialect = self.conn.dialect
        keys = tuple(rows[0])
        if dialect.name == "postgresql" and dialect.driver == "psycopg":
            self._copy(table.name, keys, rows)
            return
        cache_key = (table.name, keys)
        statement = self._inserts.get(cache_key)
        if statement is None:  # compiled once per command and column set (a snapshot: once, not per node)
            compiled = insert(table).compile(dialect=dialect, column_keys=list(keys))
            statement = self._inserts[cache_key] = (str(compiled), list(compiled.positiontup or []))
        sql, order = statement
        params: list[Any]
        if dialect.paramstyle in ("qmark", "numeric", "format"):
            pick = itemgetter(*order)
            params = [pick(r) for r in rows] if len(order) > 1 else [(pick(r),) for r in rows]
        else:
            params = rows
        with self._driver_cursor(sql) as cursor:
            cursor.executemany(sql, params)

    def _copy(self, table: str, keys: tuple[str, ...], rows: list[dict[str, Any]]) -> None:
        """``COPY table (keys) FROM STDIN`` of ``rows`` through psycopg (PostgreSQL)."""
        from psycopg import sql

        statement = sql.SQL("COPY {} ({}) FROM STDIN").format(
            sql.Identifier(table), sql.SQL(", ").join(map(sql.Identifier, keys))
        )
        pick = itemgetter(*keys)
        with self._driver_cursor(f"COPY {table}") as cursor, cursor.copy(statement) as copy:
            if len(keys) > 1:
                for row in rows:
                    copy.write_row(pick(row))
            else:
                for row in rows:
                    copy.write_row((pick(row),))

    @contextmanager
    def _driver_cursor(self, statement: str) -> Iterator[Any]:
        """A cursor of the driver's connection; its errors raised as SQLAlchemy's (``DBAPIError``,
        ``IntegrityError``), as a statement run through SQLAlchemy would raise them."""
        dbapi = self.conn.dialect.loaded_dbapi
        cursor = self.conn.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
        try:
            yield cursor
        except dbapi.Error as exc:
            raise DBAPIError.instance(statement, None, exc, dbapi.Error) from exc
        finally:
            cursor.close()

    def _save_memberships(self, node_id: int, old: dict[str, Membership], new: dict[str, Membership]) -> None:
        if old == new:
            return
        ids = self.ensure_clusters(list(old) + list(new))
        m = tables.memberships
        for cluster in old:
            if cluster not in new or new[cluster] != old[cluster]:
                self.conn.execute(delete(m).where(m.c.node_id == node_id, m.c.cluster_id == ids[cluster]))
        for cluster, membership in new.items():
            if cluster not in old or old[cluster] != membership:
                self.conn.execute(
                    insert(m).values(
                        node_id=node_id,
                        cluster_id=ids[cluster],
                        full_repository=membership.full_repository,
                        seq=membership.seq,
                    )
                )

    def _save_route_selectors(
        self, node_id: int, old: Sequence[RouteSelector], new: Sequence[RouteSelector], recreated: set[str]
    ) -> None:
        def by_peer(items: Sequence[RouteSelector]) -> dict[str, list[RouteSelector]]:
            out: dict[str, list[RouteSelector]] = {}
            for rs in items:
                out.setdefault(rs.peer, []).append(rs)
            return out

        old_by, new_by = by_peer(old), by_peer(new)
        peers = {p for p in set(old_by) | set(new_by) if p in recreated or old_by.get(p) != new_by.get(p)}
        if not peers:
            return
        r, rs = tables.routes, tables.route_selectors
        route_ids = dict(
            self.conn.execute(
                select(r.c.peer, r.c.id).where(r.c.node_id == node_id, r.c.peer.in_(peers))
            ).all()
        )
        for peer in sorted(peers):
            route_id = route_ids.get(peer)
            if route_id is None:
                continue
            self.conn.execute(delete(rs).where(rs.c.route_id == route_id))
            for sel in new_by.get(peer, []):
                self.insert_route_selector(route_id, sel)


def _batches(items: Iterable[T], size: int) -> Iterator[list[T]]:
    it = iter(items)
    while batch := list(islice(it, size)):
        yield batch


def _chunks(items: Sequence[T], size: int) -> Iterable[Sequence[T]]:
    for i in range(0, len(items), size):
        yield items[i : i + size]
