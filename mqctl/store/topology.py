"""The whole model as one ``Topology``: what validate, snapshots and Spark read.

One query per table, whatever the size of the store (never one query per node or per object).
"""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import select
from sqlalchemy.engine import Connection

from mqctl.domain.model import Membership, Topology
from mqctl.store import convert, tables


def load_topology(conn: Connection) -> Topology:
    """Every node, membership, namelist, channel, topic object, subscription, route and route selector."""
    n = tables.nodes
    topology = Topology()
    names: dict[int, str] = {}
    for row in conn.execute(select(n).order_by(n.c.name)).mappings():
        names[row["id"]] = row["name"]
        topology.nodes[row["name"]] = convert.node_from_row(row)
    m, c = tables.memberships, tables.clusters
    members = select(m.c.node_id, c.c.name.label("cluster"), m.c.full_repository, m.c.seq).join(
        c, c.c.id == m.c.cluster_id
    )
    topology.memberships = sorted(
        (
            Membership(names[r.node_id], r.cluster, bool(r.full_repository), r.seq)
            for r in conn.execute(members)
        ),
        key=lambda x: (x.node, x.cluster),
    )
    for table, attr, from_row in (
        (tables.namelists, "namelists", convert.namelist_from_row),
        (tables.channels, "channels", convert.channel_from_row),
        (tables.topics, "topics", convert.topic_from_row),
        (tables.subscriptions, "subscriptions", convert.subscription_from_row),
    ):
        rows = conn.execute(select(table).order_by(table.c.node_id, table.c.name)).mappings()
        setattr(topology, attr, [from_row(r, names[r["node_id"]]) for r in rows])
    route_keys: dict[int, tuple[str, str]] = {}
    r = tables.routes
    for row in conn.execute(select(r).order_by(r.c.node_id, r.c.peer)).mappings():
        route = convert.route_from_row(row, names[row["node_id"]])
        route_keys[row["id"]] = (route.node, route.peer)
        topology.routes.append(route)
    rs = tables.route_selectors
    for row in conn.execute(select(rs).order_by(rs.c.route_id, rs.c.seq, rs.c.id)).mappings():
        node, peer = route_keys[row["route_id"]]
        topology.route_selectors.append(convert.route_selector_from_row(row, node, peer))
    return topology


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
