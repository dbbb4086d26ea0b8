"""The whole model as one ``Topology``: what validate, snapshots and Spark read.

One query per table, whatever the size of the store (never one query per node or per object).
"""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import select
from sqlalchemy.engine import Connection

from mqctl.domain.model import Membership, Topology
from mqctl.store import convert, tables


def load_topology(conn: Connection, *, subscriptions: bool = True) -> Topology:
    """Every node, membership, namelist, channel, topic object, subscription, route and route selector.

    Rows are read positionally and decoded by the codecs' per-field decoders: a whole estate is
    millions of values, and this is what validate, snapshots and Spark wait for."""
    n = tables.nodes
    topology = Topology()
    names: dict[int, str] = {}
    for row in conn.execute(select(n.c.id, *convert.NODE.columns()).order_by(n.c.name)):
        node = convert.NODE.from_tuple(row[1:])
        names[row[0]] = node.name
        topology.nodes[node.name] = node
    m, c = tables.memberships, tables.clusters
    members = select(m.c.node_id, c.c.name, m.c.full_repository, m.c.seq).join(c, c.c.id == m.c.cluster_id)
    topology.memberships = sorted(
        (
            Membership(names[node_id], cluster, bool(full), seq)
            for node_id, cluster, full, seq in conn.execute(members)
        ),
        key=lambda x: (x.node, x.cluster),
    )
    for codec, attr in (
        (convert.NAMELIST, "namelists"),
        (convert.CHANNEL, "channels"),
        (convert.TOPIC, "topics"),
        (convert.SUBSCRIPTION, "subscriptions"),
    ):
        if attr == "subscriptions" and not subscriptions:
            continue  # a picture of the estate without a topic draws no subscription: 10x the other rows
        t = codec.table
        rows = conn.execute(select(t.c.node_id, *codec.columns()).order_by(t.c.node_id, t.c.name))
        setattr(topology, attr, [codec.from_tuple(row[1:], (names[row[0]],)) for row in rows])
    route_keys: dict[int, tuple[str, str]] = {}
    r = tables.routes
    for row in conn.execute(
        select(r.c.id, r.c.node_id, *convert.ROUTE.columns()).order_by(r.c.node_id, r.c.peer)
    ):
        route = convert.ROUTE.from_tuple(row[2:], (names[row[1]],))
        route_keys[row[0]] = (route.node, route.peer)
        topology.routes.append(route)
    rs = tables.route_selectors
    selectors = select(rs.c.route_id, *convert.ROUTE_SELECTOR.columns()).order_by(
        rs.c.route_id, rs.c.seq, rs.c.id
    )
    for row in conn.execute(selectors):
        topology.route_selectors.append(convert.ROUTE_SELECTOR.from_tuple(row[1:], route_keys[row[0]]))
    return topology


def load_clusters(conn: Connection) -> list[tuple[str, str, int]]:
    """(name, DESCR, seq) of every cluster, by name (clusters are not part of a ``Topology``)."""
    c = tables.clusters
    return [
        (name, descr, seq)
        for name, descr, seq in conn.execute(select(c.c.name, c.c.descr, c.c.seq).order_by(c.c.name))
    ]


def load_cluster_view(conn: Connection, clusters: Iterable[str]) -> Topology:
    """What the members of ``clusters`` define that MQ shares in them: the members (nodes), the
    memberships, their channels and namelists, and the clustered topic objects (for runmqsc's DISPLAY
    TCLUSTER, TOPIC CLUSINFO and CLUSQMGR)."""
    wanted = sorted(set(clusters))
    topology = Topology()
    if not wanted:
        return topology
    n, m, c = tables.nodes, tables.memberships, tables.clusters
    members = (
        select(n.c.name.label("node"), c.c.name.label("cluster"), m.c.full_repository, m.c.seq)
        .join(m, m.c.node_id == n.c.id)
        .join(c, c.c.id == m.c.cluster_id)
    )
    topology.memberships = [
        Membership(r.node, r.cluster, bool(r.full_repository), r.seq)
        for r in conn.execute(members.where(c.c.name.in_(wanted)).order_by(n.c.name, c.c.name))
    ]
    names = sorted({x.node for x in topology.memberships})
    ids: dict[int, str] = {}
    for row in conn.execute(select(n).where(n.c.name.in_(names))).mappings():
        ids[row["id"]] = row["name"]
        topology.nodes[row["name"]] = convert.node_from_row(row)
    for table, attr, from_row in (
        (tables.namelists, "namelists", convert.namelist_from_row),
        (tables.channels, "channels", convert.channel_from_row),
    ):
        rows = conn.execute(select(table).where(table.c.node_id.in_(list(ids)))).mappings()
        setattr(topology, attr, [from_row(r, ids[r["node_id"]]) for r in rows])
    t = tables.topics
    clustered = (
        select(t, n.c.name.label("node_name")).join(n, n.c.id == t.c.node_id).where(t.c.cluster.in_(wanted))
    )
    topology.topics = [convert.topic_from_row(r, r["node_name"]) for r in conn.execute(clustered).mappings()]
    return topology


def topology_at(url: str) -> Topology:
    """The whole model of another store, read without initialising it (``diff`` of two stores): a URL
    that is none, or an SQLite file that does not exist, is bad input."""
    from pathlib import Path

    from sqlalchemy.engine import make_url

    from mqctl.domain.errors import InputError
    from mqctl.store.engine import open_store

    try:
        parsed = make_url(url)
    except Exception:  # noqa: BLE001 — the driver's own words say less than this
        raise InputError("not a database URL") from None
    database = parsed.database
    if (
        parsed.get_backend_name() == "sqlite"
        and database
        and database != ":memory:"
        and not Path(database).is_file()
    ):
        raise InputError(f"no such store file {database}")
    engine = open_store(url, initialise=False)
    try:
        with engine.connect() as conn:
            return load_topology(conn)
    finally:
        engine.dispose()
