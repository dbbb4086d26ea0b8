"""The slice of the store one publication needs, read with indexed Core queries (no ORM, no full scan).

For MQ: topic objects whose TOPICSTR is a level-prefix of T (and every object sharing a name with a
clustered one among them: a local object of the same name hides it, and same-name clustered objects
conflict), subscriptions whose indexed fixed-prefix key is one of T's prefix keys, the memberships of
the clusters and nodes involved, the hierarchy links, and the cluster channels and namelists of the
queue managers in those clusters (a topic host's CLUSRCVR channel ranks, prioritises and weights it). For EMS: every EMS server, route and route
selector, definitions and subscriptions by prefix key; of a route only what routing reads (its two ends,
zone and sequence: a full mesh of 200 servers has 19,900 routes), so its URL, other properties and
source position are left empty. For each node a
``--link-down`` names, what tells whether the link exists (``domain.links``). The routing engine gives the
same answer on this slice as on the whole model.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Connection

from mqctl.domain import topics as topic_strings
from mqctl.domain.errors import InputError
from mqctl.domain.explanation import Failures
from mqctl.domain.model import Dialect, Membership, Topology
from mqctl.domain.suggest import did_you_mean
from mqctl.store import convert, tables
from mqctl.store.convert import digest

CHUNK = 500


def _chunks(items: Sequence[Any]) -> Iterable[Sequence[Any]]:
    for i in range(0, len(items), CHUNK):
        yield items[i : i + CHUNK]


class _Reader:
    def __init__(self, conn: Connection) -> None:
        self.conn = conn
        self.node_names: dict[int, str] = {}
        self.topology = Topology()

    def load_nodes(self, names: Iterable[str]) -> None:
        wanted = sorted(set(names) - set(self.topology.nodes))
        for chunk in _chunks(wanted):
            for row in self.conn.execute(
                select(tables.nodes).where(tables.nodes.c.name.in_(chunk))
            ).mappings():
                self._add_node(row)

    def _add_node(self, row: Any) -> None:
        self.node_names[row["id"]] = row["name"]
        self.topology.nodes[row["name"]] = convert.node_from_row(row)

    def node_rows(self, where: Any) -> None:
        for row in self.conn.execute(select(tables.nodes).where(where)).mappings():
            if row["name"] not in self.topology.nodes:
                self._add_node(row)

    def per_node(self, table: Any, *where: Any, dialect: Dialect) -> list[tuple[str, Any]]:
        stmt = (
            select(table, tables.nodes.c.name.label("node_name"))
            .join(tables.nodes, tables.nodes.c.id == table.c.node_id)
            .where(tables.nodes.c.dialect == str(dialect), *where)
        )
        return [(row["node_name"], row) for row in self.conn.execute(stmt).mappings()]


def load_slice(conn: Connection, publisher: str, topic: str, failures: Failures) -> Topology:
    """The topology slice for one publication from ``publisher`` on ``topic``."""
    reader = _Reader(conn)
    links = (n for pair in failures.links_down for n in pair)
    reader.load_nodes([publisher, *failures.down, *links, *(node for node, _ in failures.offline)])
    node = reader.topology.nodes.get(publisher)
    if node is None:
        names = conn.execute(select(tables.nodes.c.name)).scalars()  # a mistake's price only
        raise InputError(f"no such node{did_you_mean(publisher, names)}", obj=publisher, attribute="--from")
    _check_offline(reader, failures)
    if node.dialect is Dialect.EMS:
        topic_strings.validate_topic(topic, Dialect.EMS)
        _load_ems(reader, topic)
    else:
        _load_mq(reader, topic)
    _load_link_ends(reader, failures, node.dialect)
    return reader.topology


def _load_link_ends(reader: _Reader, failures: Failures, dialect: Dialect) -> None:
    """What ``domain.links`` needs to judge each --link-down that the publisher's dialect did not load:
    the memberships of queue managers named in an EMS question, the routes of servers named in an MQ one.
    (An MQ slice holds the memberships of every node loaded and the hierarchy; an EMS one every route.)"""
    nodes = reader.topology.nodes
    ends = sorted(
        {n for pair in failures.links_down for n in pair if n in nodes and nodes[n].dialect != dialect}
    )
    if not ends:
        return
    if dialect is Dialect.EMS:
        _load_memberships(reader, set(), set(ends))
    else:
        found = reader.per_node(tables.routes, tables.nodes.c.name.in_(ends), dialect=Dialect.EMS)
        reader.topology.routes = [convert.route_from_row(row, node) for node, row in found]


def _check_offline(reader: _Reader, failures: Failures) -> None:
    """An --offline subscription must exist (it may not match the topic, so the slice alone cannot tell).

    Its node is already loaded when it exists; an unknown node is reported by the routing engine."""
    s, n = tables.subscriptions, tables.nodes
    for node, sub in sorted(failures.offline):
        if node not in reader.topology.nodes:
            continue
        found = reader.conn.execute(
            select(s.c.id).join(n, n.c.id == s.c.node_id).where(n.c.name == node, s.c.name == sub)
        ).first()
        if found is None:
            raise InputError(f"no subscription {sub} on {node}", obj=f"{node}:{sub}", attribute="--offline")


def _load_mq(reader: _Reader, topic: str) -> None:
    topo = reader.topology
    prefixes = topic_strings.topic_level_prefixes(topic, Dialect.MQ)
    rows = [
        (node, row)
        for node, row in reader.per_node(
            tables.topics, tables.topics.c.topicstr_key.in_([digest(p) for p in prefixes]), dialect=Dialect.MQ
        )
        if row["topicstr"] in prefixes
    ]
    clustered_names = sorted({row["name"] for _, row in rows if row["cluster"]})
    seen = {(node, row["name"]) for node, row in rows}
    for chunk in _chunks(clustered_names):
        keys_chunk = [digest(name) for name in chunk]
        for node, row in reader.per_node(
            tables.topics, tables.topics.c.name_key.in_(keys_chunk), dialect=Dialect.MQ
        ):
            if (node, row["name"]) not in seen and row["name"] in chunk:
                rows.append((node, row))
                seen.add((node, row["name"]))
    topo.topics = [convert.topic_from_row(row, node) for node, row in rows]
    keys = topic_strings.topic_prefix_keys(topic, Dialect.MQ)
    subs = reader.per_node(
        tables.subscriptions,
        tables.subscriptions.c.prefix_key.in_([digest(k) for k in keys]),
        dialect=Dialect.MQ,
    )
    topo.subscriptions = [convert.subscription_from_row(row, node) for node, row in subs]
    # hierarchy links: few in practice, found through the index on parent
    reader.node_rows(tables.nodes.c.parent.is_not(None))
    parents = [n.parent for n in list(topo.nodes.values()) if n.parent]
    involved = (
        set(topo.nodes) | set(parents) | {t.node for t in topo.topics} | {s.node for s in topo.subscriptions}
    )
    reader.load_nodes(involved)
    clusters = {t.cluster for t in topo.topics if t.cluster}
    _load_memberships(reader, clusters, set(topo.nodes))
    _load_cluster_channels(reader, {m.node for m in topo.memberships if m.cluster in clusters})


def _load_cluster_channels(reader: _Reader, hosts: set[str]) -> None:
    """The CLUSRCVR channels (and the namelists their CLUSNL may name) of the members of T's clusters."""
    topo = reader.topology
    for table, attr, from_row in (
        (tables.channels, "channels", convert.channel_from_row),
        (tables.namelists, "namelists", convert.namelist_from_row),
    ):
        for chunk in _chunks(sorted(hosts)):
            found = reader.per_node(table, tables.nodes.c.name.in_(chunk), dialect=Dialect.MQ)
            getattr(topo, attr).extend(from_row(row, node) for node, row in found)


def _load_memberships(reader: _Reader, clusters: set[str], nodes: set[str]) -> None:
    m, c, n = tables.memberships, tables.clusters, tables.nodes
    stmt = (
        select(n.c.name.label("node"), c.c.name.label("cluster"), m.c.full_repository, m.c.seq)
        .join(m, m.c.node_id == n.c.id)
        .join(c, c.c.id == m.c.cluster_id)
    )
    found: dict[tuple[str, str], Membership] = {}
    for where in _membership_filters(clusters, nodes):
        for row in reader.conn.execute(stmt.where(where)):
            found[(row.node, row.cluster)] = Membership(
                row.node, row.cluster, bool(row.full_repository), row.seq
            )
    reader.topology.memberships = [found[k] for k in sorted(found)]
    reader.load_nodes(node for node, _ in found)


def _membership_filters(clusters: set[str], nodes: set[str]) -> list[Any]:
    out: list[Any] = []
    for chunk in _chunks(sorted(clusters)):
        out.append(tables.clusters.c.name.in_(chunk))
    for chunk in _chunks(sorted(nodes)):
        out.append(tables.nodes.c.name.in_(chunk))
    return out


def _load_ems(reader: _Reader, topic: str) -> None:
    topo = reader.topology
    reader.node_rows(tables.nodes.c.dialect == str(Dialect.EMS))
    keys = [digest(k) for k in topic_strings.topic_prefix_keys(topic, Dialect.EMS)]
    defs = reader.per_node(tables.topics, tables.topics.c.prefix_key.in_(keys), dialect=Dialect.EMS)
    topo.topics = [convert.topic_from_row(row, node) for node, row in defs]
    subs = reader.per_node(
        tables.subscriptions, tables.subscriptions.c.prefix_key.in_(keys), dialect=Dialect.EMS
    )
    topo.subscriptions = [convert.subscription_from_row(row, node) for node, row in subs]
    # every route of the network, and only what routing reads of a route (convert.ROUTE_ENDS): a full
    # mesh of 200 servers is 19,900 rows, fetched at once; a route can only be defined on an EMS server
    ems_ids = {i: name for i, name in reader.node_names.items() if topo.nodes[name].dialect is Dialect.EMS}
    rows = reader.conn.execute(select(*convert.route_ends_columns())).all()
    topo.routes = convert.routes_from_ends(rows, ems_ids)
    if topo.routes:
        s, r, n = tables.route_selectors, tables.routes, tables.nodes
        stmt = (
            select(s, n.c.name.label("route_node"), r.c.peer.label("route_peer"))
            .join(r, r.c.id == s.c.route_id)
            .join(n, n.c.id == r.c.node_id)
            .where(n.c.dialect == str(Dialect.EMS))
            .order_by(s.c.id)
        )
        for sel in reader.conn.execute(stmt).mappings():
            topo.route_selectors.append(
                convert.route_selector_from_row(sel, sel["route_node"], sel["route_peer"])
            )
    reader.load_nodes({r.peer for r in topo.routes})
