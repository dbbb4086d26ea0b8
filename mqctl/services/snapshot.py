"""Snapshots: the whole model out to a folder of Parquet (or JSON lines) files, and back in.

A snapshot is a door like MQSC and the EMS files: every row goes through the rules of
``mqctl.domain.objects`` (``check_definition``) and the cross-object rules the other doors apply (one
TOPICSTR per queue manager, a hierarchy parent is a queue manager, a route peer is an EMS server, a
membership's node can join clusters), with the facts those rules need found in the snapshot itself.
``read_snapshot`` checks everything before anything is written, so a refused snapshot leaves the store
untouched; ``read_topology`` is the same check without a store, for the Spark job.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from mqctl.domain.errors import ConflictError, InputError
from mqctl.domain.model import (
    Channel,
    Dialect,
    Membership,
    Namelist,
    Node,
    NodeState,
    Route,
    RouteSelector,
    Subscription,
    TopicObject,
    Topology,
)
from mqctl.domain.names import node_label
from mqctl.domain.objects import (
    check_definition,
    clusters,
    nodes,
    route_selectors,
    routes,
    subscriptions,
    topic_objects,
)
from mqctl.formats import snapshot as snapshot_format
from mqctl.formats.snapshot import ClusterRow, HierarchyRow

T = TypeVar("T")


@dataclass
class Snapshot:
    """A checked snapshot: its manifest, the model it holds, and the clusters with their DESCR."""

    manifest: dict[str, Any]
    topology: Topology
    clusters: list[ClusterRow]
    counts: dict[str, int]
    """Rows per table."""
    packed: dict[str, bytes] | None = None
    """The model's tables as ``formats.snapshot.pack`` packs them (the Parquet files as read), or None
    for a snapshot of JSON lines: what the Spark job broadcasts."""

    @property
    def newer_revision(self) -> str | None:
        """The store revision that wrote it, when this mqctl does not know it (a newer mqctl)."""
        from mqctl.store.revision import KNOWN_REVISIONS

        revision = self.manifest.get("store_revision")
        return revision if revision not in KNOWN_REVISIONS else None


# -- reading and checking ---------------------------------------------------------------------------


def _at(file: str, row: int, label: str, key: str, exc: InputError) -> InputError:
    """A rule's error placed at its row: ``snapshot FILE row N: LABEL: [ATTRIBUTE: ]message``.

    The rule's own subject is dropped when it only repeats the object's name (``sub S1``)."""
    subject = exc.obj
    if subject is not None and subject.split(" ", 1)[-1] == key:
        subject = None
    detail = InputError(exc.message, obj=subject, attribute=exc.attribute).plain_line()
    return type(exc)(detail, obj=f"snapshot {file} row {row}: {label}")


def _each(
    rows: Sequence[T], file: str, label: Callable[[T], tuple[str, str]], check: Callable[[T], None]
) -> None:
    """``check`` every row; the first refusal names the file, the row (from 1) and the object."""
    done = 0
    try:
        for obj in rows:
            check(obj)
            done += 1
    except InputError as exc:
        what, key = label(rows[done])
        raise _at(file, done + 1, what, key, exc) from None


class _Checker:
    """The rules over a decoded snapshot, table by table, with the facts they need (seen rows)."""

    def __init__(self, content: snapshot_format.Content) -> None:
        self.rows = content.rows
        self.files = {t: e["file"] for t, e in content.manifest["tables"].items()}
        self.dialect: dict[str, Dialect] = {}
        self.clusters: set[str] = set()

    def _unique(self, seen: dict[Any, int], key: Any, row_of: Callable[[], int]) -> None:
        if key in seen:
            raise ConflictError(f"is defined twice (also row {seen[key]})")
        seen[key] = row_of()

    def _node(self, name: str) -> Dialect:
        dialect = self.dialect.get(name)
        if dialect is None:
            raise InputError(f"node {name} is not in {self.files['nodes']}")
        return dialect

    def _cluster(self, name: str) -> None:
        if name and name not in self.clusters:
            raise InputError(f"cluster {name} is not in {self.files['clusters']}")

    def run(self) -> None:
        for table in snapshot_format.TABLES:
            getattr(self, f"_{table}")(self.rows[table], self.files[table])

    def _counter(self) -> Callable[[], int]:
        count = 0

        def next_row() -> int:
            nonlocal count
            count += 1
            return count

        return next_row

    def _nodes(self, rows: list[Node], file: str) -> None:
        seen: dict[Any, int] = {}
        row = self._counter()

        def check(node: Node) -> None:
            self._unique(seen, node.name, row)
            check_definition(node, node.dialect)
            self.dialect[node.name] = node.dialect

        _each(rows, file, lambda n: (f"{node_label(n.dialect)} {n.name}", n.name), check)

    def _clusters(self, rows: list[ClusterRow], file: str) -> None:
        seen: dict[Any, int] = {}
        row = self._counter()

        def check(c: ClusterRow) -> None:
            self._unique(seen, c.name, row)
            clusters.check(c.name, c.descr)
            self.clusters.add(c.name)

        _each(rows, file, lambda c: (f"cluster {c.name}", c.name), check)

    def _hierarchy(self, rows: list[HierarchyRow], file: str) -> None:
        seen: dict[Any, int] = {}
        row = self._counter()
        by_name = {node.name: node for node in self.rows["nodes"]}

        def check(link: HierarchyRow) -> None:
            self._unique(seen, link.child, row)
            self._node(link.child)
            parent_dialect = self._node(link.parent)
            child = dataclasses.replace(by_name[link.child], parent=link.parent)
            nodes.check(child)
            nodes.check_parent(child, parent_dialect)

        _each(rows, file, lambda h: (f"hierarchy {h.child} PARENT({h.parent})", h.child), check)

    def _memberships(self, rows: list[Membership], file: str) -> None:
        seen: dict[Any, int] = {}
        row = self._counter()

        def check(m: Membership) -> None:
            self._unique(seen, (m.node, m.cluster), row)
            dialect = self._node(m.node)
            clusters.check_member(m.node, dialect, m.cluster)
            self._cluster(m.cluster)

        _each(rows, file, lambda m: (f"membership {m.node}/{m.cluster}", m.cluster), check)

    def _namelists(self, rows: list[Namelist], file: str) -> None:
        seen: dict[Any, int] = {}
        row = self._counter()

        def check(nl: Namelist) -> None:
            self._unique(seen, (nl.node, nl.name), row)
            check_definition(nl, self._node(nl.node))

        _each(rows, file, lambda n: (f"namelist {n.node}/{n.name}", n.name), check)

    def _channels(self, rows: list[Channel], file: str) -> None:
        seen: dict[Any, int] = {}
        row = self._counter()

        def check(ch: Channel) -> None:
            self._unique(seen, (ch.node, ch.name), row)
            check_definition(ch, self._node(ch.node))
            self._cluster(ch.cluster)

        _each(rows, file, lambda c: (f"channel {c.node}/{c.name}", c.name), check)

    def _topics(self, rows: list[TopicObject], file: str) -> None:
        seen: dict[Any, int] = {}
        topicstrs: dict[tuple[str, str], str] = {}
        row = self._counter()

        def check(t: TopicObject) -> None:
            self._unique(seen, (t.node, t.name), row)
            if self._node(t.node) is not Dialect.MQ:
                raise InputError(f"{t.node} is an EMS server: its topic definitions are in ems_topics")
            check_definition(t, Dialect.MQ)
            topic_objects.check_unique_topicstr(t, topicstrs.setdefault((t.node, t.topicstr), t.name))
            self._cluster(t.cluster)

        _each(rows, file, lambda t: (f"topic {t.node}/{t.name}", t.name), check)

    def _ems_topics(self, rows: list[TopicObject], file: str) -> None:
        seen: dict[Any, int] = {}
        row = self._counter()

        def check(t: TopicObject) -> None:
            self._unique(seen, (t.node, t.name), row)
            if self._node(t.node) is not Dialect.EMS:
                raise InputError(f"{t.node} is a queue manager: its topic objects are in topics")
            check_definition(t, Dialect.EMS)

        _each(rows, file, lambda t: (f"topic {t.node}/{t.name}", t.name), check)

    def _subscriptions(self, rows: list[Subscription], file: str) -> None:
        # the table of a large estate (500,000 rows): the door's own work per row kept to two lookups;
        # the rules are the domain's (check_definition of a Subscription is subscriptions.check)
        seen: dict[tuple[str, str], int] = {}
        dialects = self.dialect
        nodes_file = self.files["nodes"]
        check_subscription = subscriptions.check

        def check(s: Subscription) -> None:
            key = (s.node, s.name)
            if key in seen:
                raise ConflictError(f"is defined twice (also row {seen[key]})")
            seen[key] = len(seen) + 1  # every earlier row was added: this is its row number
            dialect = dialects.get(s.node)
            if dialect is None:
                raise InputError(f"node {s.node} is not in {nodes_file}")
            check_subscription(s, dialect)  # API and SUBID are MQ only: the domain's rule

        _each(rows, file, lambda s: (f"subscription {s.node}/{s.name}", s.name), check)

    def _routes(self, rows: list[Route], file: str) -> None:
        seen: dict[Any, int] = {}
        row = self._counter()

        def check(r: Route) -> None:
            self._unique(seen, (r.node, r.peer), row)
            check_definition(r, self._node(r.node))
            routes.check_peer(r, self._node(r.peer))

        _each(rows, file, lambda r: (f"route {r.node}/{r.peer}", r.peer), check)

    def _route_selectors(self, rows: list[RouteSelector], file: str) -> None:
        seen: dict[Any, int] = {}
        row = self._counter()
        defined = {(r.node, r.peer) for r in self.rows["routes"]}

        def check(rs: RouteSelector) -> None:
            self._unique(seen, (rs.node, rs.peer, rs.direction, rs.topic), row)
            dialect = self._node(rs.node)
            route_selectors.check_route_exists(rs, (rs.node, rs.peer) in defined)
            check_definition(rs, dialect)

        _each(
            rows,
            file,
            lambda rs: (f"route selector {rs.node}/{rs.peer} {rs.direction}_topic={rs.topic}", rs.topic),
            check,
        )


def read_snapshot(path: Path) -> Snapshot:
    """The snapshot in ``path``, checked: manifest, checksums, schema, then every row by the rules."""
    content = snapshot_format.read(path)
    _Checker(content).run()
    counts = {table: len(rows) for table, rows in content.rows.items()}
    return Snapshot(
        content.manifest,
        snapshot_format.topology_of(content.rows),
        list(content.rows["clusters"]),
        counts,
        content.packed,
    )


def read_topology(path: Path) -> Topology:
    """The whole model a snapshot holds, checked as ``import snapshot`` checks it; no store involved
    (the Spark job builds its broadcast model with this)."""
    return read_snapshot(path).topology


# -- export ---------------------------------------------------------------------------------------------


def export_snapshot(
    store: Any, out: Path, *, file_format: str = "parquet", force: bool = False, mode: int | None = None
) -> dict[str, Any]:
    """Write the whole model to ``out``; returns the manifest. A folder holding anything needs ``force``
    (the snapshot files of an earlier one there are replaced, other files left alone)."""
    from mqctl.formats.snapshot_schema import FILE_FORMATS, MANIFEST, TABLES, file_name
    from mqctl.services.files import DEFAULT_MODE, write_files
    from mqctl.services.out_folder import check_out_folder
    from mqctl.store.revision import HEAD

    if file_format not in FILE_FORMATS:
        raise InputError(f"{file_format!r} is not one of {'|'.join(FILE_FORMATS)}", attribute="--format")
    check_out_folder(out, force=force, what="snapshot")
    topology = store.topology()
    cluster_rows = [ClusterRow(name, descr, seq) for name, descr, seq in store.clusters()]
    meta, files = snapshot_format.write_plan(topology, cluster_rows, file_format, HEAD)
    stale = [file_name(t, other) for t in TABLES for other in FILE_FORMATS if other != file_format]
    write_files(out, files, mode=DEFAULT_MODE if mode is None else mode, last=MANIFEST, obsolete=stale)
    return meta


# -- import ---------------------------------------------------------------------------------------------


def import_snapshot(store: Any, path: Path) -> Snapshot:
    """Load a snapshot into an empty store (the caller's one transaction): every row checked first, then
    written through the Store with the snapshot's definition sequences; the store's counter continues
    after the highest of them."""
    if not store.is_empty():
        raise InputError(
            "the store is not empty: a snapshot loads into an empty store only (name one with --db)"
        )
    snap = read_snapshot(path)
    topology = snap.topology
    for cluster in snap.clusters:
        store.put_cluster(cluster.name, cluster.descr, cluster.seq)
    states = {name: NodeState(node=node) for name, node in topology.nodes.items()}
    for m in topology.memberships:
        states[m.node].memberships[m.cluster] = m
    for nl in topology.namelists:
        states[nl.node].namelists[nl.name] = nl
    for ch in topology.channels:
        states[ch.node].channels[ch.name] = ch
    for t in topology.topics:
        states[t.node].topics[t.name] = t
    for s in topology.subscriptions:
        states[s.node].subscriptions[s.name] = s
    for r in topology.routes:
        states[r.node].routes[r.peer] = r
    for rs in topology.route_selectors:
        states[rs.node].route_selectors.append(rs)
    store.add_nodes(list(states.values()))
    store.continue_after(_max_seq(snap))
    return snap


def _max_seq(snap: Snapshot) -> int:
    t = snap.topology
    groups: list[Sequence[Any]] = [
        list(t.nodes.values()),
        snap.clusters,
        t.memberships,
        t.namelists,
        t.channels,
        t.topics,
        t.subscriptions,
        t.routes,
        t.route_selectors,
    ]
    return max((max((o.seq for o in group), default=0) for group in groups), default=0)
