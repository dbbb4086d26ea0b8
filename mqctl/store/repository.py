"""Load and save domain objects: one ``Repository`` per command, inside one transaction.

A node's objects are read into a ``NodeState``; the command (CLI, MQSC, EMS) edits it in memory and
``save_node_state`` writes back only the difference, with bulk statements.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from operator import itemgetter
from typing import Any, TypeVar

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.orm import Session

from mqctl.domain.errors import InputError, NotFoundError
from mqctl.domain.model import (
    Dialect,
    Membership,
    Node,
    NodeState,
    RouteSelector,
)
from mqctl.store import convert, tables
from mqctl.store.orm import ClusterRow, NodeRow

T = TypeVar("T")


@dataclass(frozen=True)
class _Kind:
    """How one per-node object kind is stored: table, key column and row converters."""

    table: Any
    key: str
    attr: str
    from_row: Callable[[Mapping[Any, Any], str], Any]
    values: Callable[[Any, int, Dialect], dict[str, Any]]


_KINDS = (
    _Kind(tables.topics, "name", "topics", convert.topic_from_row, convert.topic_values),
    _Kind(
        tables.subscriptions,
        "name",
        "subscriptions",
        convert.subscription_from_row,
        convert.subscription_values,
    ),
    _Kind(
        tables.namelists,
        "name",
        "namelists",
        convert.namelist_from_row,
        lambda o, i, d: convert.namelist_values(o, i),
    ),
    _Kind(
        tables.channels,
        "name",
        "channels",
        convert.channel_from_row,
        lambda o, i, d: convert.channel_values(o, i),
    ),
    _Kind(
        tables.routes, "peer", "routes", convert.route_from_row, lambda o, i, d: convert.route_values(o, i)
    ),
)


class Repository:
    def __init__(self, session: Session) -> None:
        self.session = session
        self._seq: int | None = None

    # -- definition sequence -------------------------------------------------------------------
    def next_seq(self) -> int:
        """Monotonic definition sequence (SEMANTICS §1): read once per command, kept in memory, written back
        by ``flush_seq`` when the command commits (one statement, however many objects it defines)."""
        if self._seq is None:
            value = self.session.execute(
                select(tables.counters.c.value).where(tables.counters.c.name == "seq").with_for_update()
            ).scalar_one_or_none()
            if value is None:
                self.session.execute(insert(tables.counters).values(name="seq", value=0))
                value = 0
            self._seq = int(value)
        self._seq += 1
        return self._seq

    def flush_seq(self) -> None:
        if self._seq is not None:
            self.session.execute(
                update(tables.counters).where(tables.counters.c.name == "seq").values(value=self._seq)
            )

    # -- nodes -----------------------------------------------------------------------------------
    def node_row(self, name: str) -> NodeRow | None:
        return self.session.execute(select(NodeRow).where(NodeRow.name == name)).scalar_one_or_none()

    def require_node(self, name: str, kind: str = "qmgr") -> NodeRow:
        row = self.node_row(name)
        if row is None:
            raise NotFoundError(
                f"{kind} {name} is not defined (define it first with `mqctl define qmgr {name}`)"
            )
        return row

    def node_names(self) -> dict[str, str]:
        """Every node name -> dialect."""
        return {r.name: r.dialect for r in self.session.execute(select(NodeRow)).scalars()}

    def add_node(self, node: Node) -> NodeRow:
        row = NodeRow(**convert.node_values(node))
        self.session.add(row)
        self.session.flush()
        return row

    def update_node(self, row: NodeRow, node: Node) -> None:
        for key, value in convert.node_values(node).items():
            setattr(row, key, value)
        self.session.flush()

    def delete_node(self, row: NodeRow) -> None:
        self.session.execute(delete(tables.nodes).where(tables.nodes.c.id == row.id))

    # -- clusters --------------------------------------------------------------------------------
    def cluster_row(self, name: str) -> ClusterRow | None:
        return self.session.execute(select(ClusterRow).where(ClusterRow.name == name)).scalar_one_or_none()

    def ensure_clusters(self, names: Iterable[str]) -> dict[str, int]:
        """Clusters referenced by a node or a topic are created on first reference."""
        wanted = {n for n in names if n}
        if not wanted:
            return {}
        rows = self.session.execute(
            select(tables.clusters.c.name, tables.clusters.c.id).where(tables.clusters.c.name.in_(wanted))
        ).all()
        ids = {name: cid for name, cid in rows}
        for name in sorted(wanted - ids.keys()):
            ids[name] = self.session.execute(
                insert(tables.clusters)
                .values(name=name, descr="", seq=self.next_seq())
                .returning(tables.clusters.c.id)
            ).scalar_one()
        return ids

    # -- node state ------------------------------------------------------------------------------
    def load_node_state(self, name: str) -> NodeState:
        row = self.require_node(name)
        node = convert.node_from_row(_row_dict(row, tables.nodes))
        state = NodeState(node=node)
        for kind in _KINDS:
            rows = self.session.execute(select(kind.table).where(kind.table.c.node_id == row.id)).mappings()
            getattr(state, kind.attr).update({r[kind.key]: kind.from_row(r, name) for r in rows})
        members = self.session.execute(
            select(tables.clusters.c.name, tables.memberships.c.full_repository, tables.memberships.c.seq)
            .join(tables.clusters, tables.clusters.c.id == tables.memberships.c.cluster_id)
            .where(tables.memberships.c.node_id == row.id)
        ).all()
        state.memberships = {c: Membership(name, c, bool(fr), seq) for c, fr, seq in members}
        route_ids = {
            r.id: r.peer
            for r in self.session.execute(
                select(tables.routes.c.id, tables.routes.c.peer).where(tables.routes.c.node_id == row.id)
            )
        }
        if route_ids:
            sel_rows = self.session.execute(
                select(tables.route_selectors)
                .where(tables.route_selectors.c.route_id.in_(route_ids))
                .order_by(tables.route_selectors.c.seq)
            ).mappings()
            state.route_selectors = [
                convert.route_selector_from_row(r, name, route_ids[r["route_id"]]) for r in sel_rows
            ]
        return state

    def save_node_state(self, before: NodeState, after: NodeState) -> None:
        """Write the difference between two states of one node (bulk statements, same transaction)."""
        row = self.require_node(before.node.name)
        if after.node != before.node:
            self.update_node(row, after.node)
        dialect = after.node.dialect
        self.ensure_clusters(
            [m.cluster for m in after.memberships.values()] + [t.cluster for t in after.topics.values()]
        )
        recreated_routes: set[str] = set()
        for kind in _KINDS:
            old: dict[str, Any] = getattr(before, kind.attr)
            new: dict[str, Any] = getattr(after, kind.attr)
            gone = [k for k in old if k not in new or new[k] != old[k]]
            added = [new[k] for k in new if k not in old or new[k] != old[k]]
            if kind.attr == "routes":
                recreated_routes = set(gone) | {r.peer for r in added}
            for chunk in _chunks(gone, 500):
                self.session.execute(
                    delete(kind.table).where(
                        kind.table.c.node_id == row.id, kind.table.c[kind.key].in_(chunk)
                    )
                )
            if added:
                self._insert_many(kind.table, [kind.values(obj, row.id, dialect) for obj in added])
        self._save_memberships(row.id, before.memberships, after.memberships)
        self._save_route_selectors(row.id, before.route_selectors, after.route_selectors, recreated_routes)

    def _insert_many(self, table: Any, rows: list[dict[str, Any]]) -> None:
        """Bulk insert through the driver's ``executemany`` with the statement compiled once.

        ``session.execute(insert(table), rows)`` processes every row's parameters in Python (about
        6 µs a row); an import writes hundreds of thousands of rows. The values are plain str/int/bool/
        None, which sqlite3 and psycopg bind as SQLAlchemy would.
        """
        conn = self.session.connection()
        dialect = conn.dialect
        keys = list(rows[0])
        compiled = insert(table).compile(dialect=dialect, column_keys=keys)
        params: list[Any]
        if dialect.paramstyle in ("qmark", "numeric", "format"):
            order = compiled.positiontup or []
            pick = itemgetter(*order)
            params = [pick(r) for r in rows] if len(order) > 1 else [(pick(r),) for r in rows]
        else:
            params = rows
        cursor = conn.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
        try:
            cursor.executemany(str(compiled), params)
        finally:
            cursor.close()

    def _save_memberships(self, node_id: int, old: dict[str, Membership], new: dict[str, Membership]) -> None:
        if old == new:
            return
        ids = self.ensure_clusters(list(old) + list(new))
        changed = [c for c in old if c not in new or new[c] != old[c]]
        for cluster in changed:
            self.session.execute(
                delete(tables.memberships).where(
                    tables.memberships.c.node_id == node_id, tables.memberships.c.cluster_id == ids[cluster]
                )
            )
        for cluster, m in new.items():
            if cluster not in old or old[cluster] != m:
                self.session.execute(
                    insert(tables.memberships).values(
                        node_id=node_id, cluster_id=ids[cluster], full_repository=m.full_repository, seq=m.seq
                    )
                )

    def _save_route_selectors(
        self, node_id: int, old: list[RouteSelector], new: list[RouteSelector], recreated: set[str]
    ) -> None:
        def by_peer(items: list[RouteSelector]) -> dict[str, list[RouteSelector]]:
            out: dict[str, list[RouteSelector]] = {}
            for rs in items:
                out.setdefault(rs.peer, []).append(rs)
            return out

        old_by, new_by = by_peer(old), by_peer(new)
        peers = {p for p in set(old_by) | set(new_by) if p in recreated or old_by.get(p) != new_by.get(p)}
        if not peers:
            return
        route_ids = dict(
            self.session.execute(
                select(tables.routes.c.peer, tables.routes.c.id).where(
                    tables.routes.c.node_id == node_id, tables.routes.c.peer.in_(peers)
                )
            ).all()
        )
        for peer in sorted(peers):
            route_id = route_ids.get(peer)
            if route_id is None:
                if new_by.get(peer):
                    raise InputError(f"route {peer} is not defined", obj=f"route selector on {peer}")
                continue
            self.session.execute(
                delete(tables.route_selectors).where(tables.route_selectors.c.route_id == route_id)
            )
            rows = [convert.route_selector_values(rs, route_id) for rs in new_by.get(peer, [])]
            if rows:
                self.session.execute(insert(tables.route_selectors), rows)

    # -- queries across nodes ---------------------------------------------------------------------
    def count(self, table: Any, *where: Any) -> int:
        return int(self.session.execute(select(func.count()).select_from(table).where(*where)).scalar_one())


def edit_node(repo: Repository, name: str, change: Callable[[NodeState], T]) -> T:
    """Load a node's state, let ``change`` edit a copy, write the difference back."""
    before = repo.load_node_state(name)
    after = copy.deepcopy(before)
    result = change(after)
    repo.save_node_state(before, after)
    return result


def _row_dict(row: Any, table: Any) -> dict[str, Any]:
    return {c.name: getattr(row, c.name) for c in table.columns}


def _chunks(items: list[T], size: int) -> Iterable[list[T]]:
    for i in range(0, len(items), size):
        yield items[i : i + size]
