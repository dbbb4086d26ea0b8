"""One model: foreign keys between rows, CHECKed enumerations, JSON documents, digests for long keys,
source positions, cluster workload attributes of channels.

- nodes.parent, routes.peer -> nodes.name; topics.cluster, channels.cluster -> clusters.name (a blank
  cluster is NULL); references that were dangling are created (a parent or peer as a node, a cluster).
- properties and namelist names become JSON (JSONB on PostgreSQL); enumerations get CHECK constraints.
- Names, TOPICSTRs and prefix keys of topics and subscriptions are indexed by a 128-bit digest, so a
  10,240-character subscription name or TOPICSTR can be stored and looked up on PostgreSQL too.
- channels gain CLWLRANK (0), CLWLPRTY (0), CLWLWGHT (50); definitions gain source_file/source_line.

Rows are copied table by table through scratch copies (``mig_*``), keeping their ids; the downgrade
copies them back into the 0001 tables.

Revision ID: 0002_one_model
Revises: 0001_initial
Create Date: 2026-11-22 12:00:00
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0002_one_model"
down_revision = "0001_initial"
branch_labels = None
depends_on = None

TABLES = (
    "nodes",
    "clusters",
    "memberships",
    "namelists",
    "channels",
    "topics",
    "subscriptions",
    "routes",
    "route_selectors",
)
"""Parents before children."""
CHUNK = 5000


def _digest(text: str) -> str:
    """As ``mqctl.store.convert.digest`` (frozen here: this revision's rows must keep their keys)."""
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


def _create_new_tables() -> None:
    op.create_table(
        "clusters",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("descr", sa.Text(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_clusters")),
        sa.UniqueConstraint("name", name=op.f("uq_clusters_name")),
    )
    op.create_table(
        "nodes",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("dialect", sa.String(length=8), nullable=False),
        sa.Column("psmode", sa.String(length=16), nullable=False),
        sa.Column("psclus", sa.String(length=16), nullable=False),
        sa.Column("descr", sa.Text(), nullable=False),
        sa.Column("parent", sa.String(length=64), nullable=True),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("source_file", sa.Text(), nullable=True),
        sa.Column("source_line", sa.Integer(), nullable=True),
        sa.CheckConstraint("dialect IN ('mq', 'ems')", name=op.f("ck_nodes_dialect")),
        sa.CheckConstraint("psclus IN ('ENABLED', 'DISABLED')", name=op.f("ck_nodes_psclus")),
        sa.CheckConstraint("psmode IN ('ENABLED', 'DISABLED', 'COMPAT')", name=op.f("ck_nodes_psmode")),
        sa.ForeignKeyConstraint(
            ["parent"], ["nodes.name"], name=op.f("fk_nodes_parent_nodes"), ondelete="SET NULL"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_nodes")),
        sa.UniqueConstraint("name", name=op.f("uq_nodes_name")),
    )
    op.create_index(op.f("ix_nodes_parent"), "nodes", ["parent"], unique=False)
    op.create_table(
        "channels",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("node_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("chltype", sa.String(length=16), nullable=False),
        sa.Column("cluster", sa.String(length=64), nullable=True),
        sa.Column("clusnl", sa.String(length=64), nullable=False),
        sa.Column("conname", sa.Text(), nullable=False),
        sa.Column("descr", sa.Text(), nullable=False),
        sa.Column("clwlrank", sa.Integer(), nullable=False),
        sa.Column("clwlprty", sa.Integer(), nullable=False),
        sa.Column("clwlwght", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("source_file", sa.Text(), nullable=True),
        sa.Column("source_line", sa.Integer(), nullable=True),
        sa.CheckConstraint("chltype IN ('CLUSRCVR', 'CLUSSDR')", name=op.f("ck_channels_chltype")),
        sa.ForeignKeyConstraint(
            ["cluster"], ["clusters.name"], name=op.f("fk_channels_cluster_clusters"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["node_id"], ["nodes.id"], name=op.f("fk_channels_node_id_nodes"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_channels")),
        sa.UniqueConstraint("node_id", "name", name=op.f("uq_channels_node_id_name")),
    )
    op.create_index(op.f("ix_channels_cluster"), "channels", ["cluster"], unique=False)
    op.create_table(
        "memberships",
        sa.Column("node_id", sa.Integer(), nullable=False),
        sa.Column("cluster_id", sa.Integer(), nullable=False),
        sa.Column("full_repository", sa.Boolean(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["cluster_id"],
            ["clusters.id"],
            name=op.f("fk_memberships_cluster_id_clusters"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["node_id"], ["nodes.id"], name=op.f("fk_memberships_node_id_nodes"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("node_id", "cluster_id", name=op.f("pk_memberships")),
    )
    op.create_index(op.f("ix_memberships_cluster_id"), "memberships", ["cluster_id"], unique=False)
    op.create_table(
        "namelists",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("node_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column(
            "names",
            sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"),
            nullable=False,
        ),
        sa.Column("descr", sa.Text(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("source_file", sa.Text(), nullable=True),
        sa.Column("source_line", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["node_id"], ["nodes.id"], name=op.f("fk_namelists_node_id_nodes"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_namelists")),
        sa.UniqueConstraint("node_id", "name", name=op.f("uq_namelists_node_id_name")),
    )
    op.create_table(
        "routes",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("node_id", sa.Integer(), nullable=False),
        sa.Column("peer", sa.String(length=64), nullable=False),
        sa.Column("url", sa.Text(), nullable=False),
        sa.Column("zone_name", sa.String(length=64), nullable=False),
        sa.Column("zone_type", sa.String(length=8), nullable=False),
        sa.Column(
            "properties",
            sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"),
            nullable=False,
        ),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("source_file", sa.Text(), nullable=True),
        sa.Column("source_line", sa.Integer(), nullable=True),
        sa.CheckConstraint("zone_type IN ('mhop', '1hop')", name=op.f("ck_routes_zone_type")),
        sa.ForeignKeyConstraint(
            ["node_id"], ["nodes.id"], name=op.f("fk_routes_node_id_nodes"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["peer"], ["nodes.name"], name=op.f("fk_routes_peer_nodes"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_routes")),
        sa.UniqueConstraint("node_id", "peer", name=op.f("uq_routes_node_id_peer")),
    )
    op.create_index(op.f("ix_routes_peer"), "routes", ["peer"], unique=False)
    op.create_table(
        "subscriptions",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("node_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("name_key", sa.String(length=32), nullable=False),
        sa.Column("topicstr", sa.Text(), nullable=False),
        sa.Column("prefix_key", sa.String(length=32), nullable=False),
        sa.Column("selector", sa.Text(), nullable=True),
        sa.Column("durable", sa.Boolean(), nullable=False),
        sa.Column("subscope", sa.String(length=16), nullable=False),
        sa.Column("wschema", sa.String(length=16), nullable=False),
        sa.Column("dest", sa.String(length=64), nullable=False),
        sa.Column("destqmgr", sa.String(length=64), nullable=False),
        sa.Column("topicobj", sa.String(length=64), nullable=False),
        sa.Column(
            "properties",
            sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"),
            nullable=False,
        ),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("source_file", sa.Text(), nullable=True),
        sa.Column("source_line", sa.Integer(), nullable=True),
        sa.CheckConstraint("subscope IN ('ALL', 'QMGR')", name=op.f("ck_subscriptions_subscope")),
        sa.CheckConstraint("wschema IN ('TOPIC', 'CHAR')", name=op.f("ck_subscriptions_wschema")),
        sa.ForeignKeyConstraint(
            ["node_id"], ["nodes.id"], name=op.f("fk_subscriptions_node_id_nodes"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_subscriptions")),
        sa.UniqueConstraint("node_id", "name_key", name=op.f("uq_subscriptions_node_id_name_key")),
    )
    op.create_index(
        "ix_subscriptions_node_id_topicobj", "subscriptions", ["node_id", "topicobj"], unique=False
    )
    op.create_index(op.f("ix_subscriptions_prefix_key"), "subscriptions", ["prefix_key"], unique=False)
    op.create_table(
        "topics",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("node_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("name_key", sa.String(length=32), nullable=False),
        sa.Column("topicstr", sa.Text(), nullable=False),
        sa.Column("topicstr_key", sa.String(length=32), nullable=False),
        sa.Column("prefix_key", sa.String(length=32), nullable=False),
        sa.Column("cluster", sa.String(length=64), nullable=True),
        sa.Column("clroute", sa.String(length=16), nullable=False),
        sa.Column("wildcard", sa.String(length=16), nullable=False),
        sa.Column("pubscope", sa.String(length=16), nullable=False),
        sa.Column("subscope", sa.String(length=16), nullable=False),
        sa.Column("proxysub", sa.String(length=16), nullable=False),
        sa.Column("pub", sa.String(length=16), nullable=False),
        sa.Column("sub", sa.String(length=16), nullable=False),
        sa.Column("descr", sa.Text(), nullable=False),
        sa.Column(
            "properties",
            sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"),
            nullable=False,
        ),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("source_file", sa.Text(), nullable=True),
        sa.Column("source_line", sa.Integer(), nullable=True),
        sa.CheckConstraint("clroute IN ('DIRECT', 'TOPICHOST')", name=op.f("ck_topics_clroute")),
        sa.CheckConstraint("proxysub IN ('FIRSTUSE', 'FORCE')", name=op.f("ck_topics_proxysub")),
        sa.CheckConstraint("pub IN ('ENABLED', 'DISABLED', 'ASPARENT')", name=op.f("ck_topics_pub")),
        sa.CheckConstraint("pubscope IN ('QMGR', 'ALL', 'ASPARENT')", name=op.f("ck_topics_pubscope")),
        sa.CheckConstraint("sub IN ('ENABLED', 'DISABLED', 'ASPARENT')", name=op.f("ck_topics_sub")),
        sa.CheckConstraint("subscope IN ('QMGR', 'ALL', 'ASPARENT')", name=op.f("ck_topics_subscope")),
        sa.CheckConstraint("wildcard IN ('PASSTHRU', 'BLOCK')", name=op.f("ck_topics_wildcard")),
        sa.ForeignKeyConstraint(
            ["cluster"], ["clusters.name"], name=op.f("fk_topics_cluster_clusters"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["node_id"], ["nodes.id"], name=op.f("fk_topics_node_id_nodes"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_topics")),
        sa.UniqueConstraint("node_id", "name_key", name=op.f("uq_topics_node_id_name_key")),
        sa.UniqueConstraint("node_id", "topicstr_key", name=op.f("uq_topics_node_id_topicstr_key")),
    )
    op.create_index(op.f("ix_topics_cluster"), "topics", ["cluster"], unique=False)
    op.create_index(op.f("ix_topics_name_key"), "topics", ["name_key"], unique=False)
    op.create_index(op.f("ix_topics_prefix_key"), "topics", ["prefix_key"], unique=False)
    op.create_index(op.f("ix_topics_topicstr_key"), "topics", ["topicstr_key"], unique=False)
    op.create_table(
        "route_selectors",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("route_id", sa.Integer(), nullable=False),
        sa.Column("direction", sa.String(length=8), nullable=False),
        sa.Column("topic", sa.Text(), nullable=False),
        sa.Column("topic_key", sa.String(length=32), nullable=False),
        sa.Column("selector", sa.Text(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("source_file", sa.Text(), nullable=True),
        sa.Column("source_line", sa.Integer(), nullable=True),
        sa.CheckConstraint(
            "direction IN ('incoming', 'outgoing')", name=op.f("ck_route_selectors_direction")
        ),
        sa.ForeignKeyConstraint(
            ["route_id"], ["routes.id"], name=op.f("fk_route_selectors_route_id_routes"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_route_selectors")),
        sa.UniqueConstraint(
            "route_id", "direction", "topic_key", name=op.f("uq_route_selectors_route_id_direction_topic_key")
        ),
    )


def _stash(conn: sa.Connection) -> None:
    """Copy every table's rows aside (no constraints, no indexes), then drop the tables."""
    for name in TABLES:
        conn.execute(sa.text(f"CREATE TABLE mig_{name} AS SELECT * FROM {name}"))
    for name in reversed(TABLES):
        op.drop_table(name)


def _rows(conn: sa.Connection, name: str) -> Iterator[list[dict[str, Any]]]:
    """The stashed rows of a table in chunks, by id (memberships by their keys)."""
    order = "node_id, cluster_id" if name == "memberships" else "id"
    result = conn.execute(sa.text(f"SELECT * FROM mig_{name} ORDER BY {order}")).mappings()
    while chunk := result.fetchmany(CHUNK):
        yield [dict(row) for row in chunk]


def _copy(conn: sa.Connection, name: str, change: Callable[[dict[str, Any]], dict[str, Any]]) -> None:
    table = sa.Table(name, sa.MetaData(), autoload_with=conn)
    for chunk in _rows(conn, name):
        conn.execute(table.insert(), [change(row) for row in chunk])


def _drop_stash(conn: sa.Connection) -> None:
    for name in TABLES:
        conn.execute(sa.text(f"DROP TABLE mig_{name}"))


def _reset_ids(conn: sa.Connection) -> None:
    """PostgreSQL: rows were inserted with their ids; the id sequences continue after them."""
    if conn.dialect.name != "postgresql":
        return
    for name in TABLES:
        if name != "memberships":
            conn.execute(
                sa.text(
                    f"SELECT setval(pg_get_serial_sequence('{name}', 'id'), "
                    f"COALESCE((SELECT MAX(id) FROM {name}), 0) + 1, false)"
                )
            )


def _load(text: Any) -> Any:
    return json.loads(text) if isinstance(text, str) else text


def _dump(value: Any) -> str:
    return json.dumps(value if isinstance(value, dict | list) else _load(value), separators=(",", ":"))


def _prefix(pattern: str, dialect: str, char_wildcards: bool) -> str:
    from mqctl.domain import topics
    from mqctl.domain.model import Dialect

    d = Dialect(dialect)
    if char_wildcards:
        return topics.prefix_key(topics.char_prefix_levels(pattern), d)
    return topics.pattern_prefix_key(pattern, d)


def _dialects(conn: sa.Connection, table: str) -> dict[int, str]:
    return dict(conn.execute(sa.text(f"SELECT id, dialect FROM {table}")).all())


def _missing_references(conn: sa.Connection) -> None:
    """Create what the new foreign keys need and an older mqctl may not have created."""
    nodes = {name for (name,) in conn.execute(sa.text("SELECT name FROM mig_nodes"))}
    seq = conn.execute(sa.text("SELECT value FROM counters WHERE name = 'seq'")).scalar() or 0
    next_id = (conn.execute(sa.text("SELECT MAX(id) FROM mig_nodes")).scalar() or 0) + 1
    wanted = [
        (p, "mq")
        for (p,) in conn.execute(sa.text("SELECT DISTINCT parent FROM mig_nodes WHERE parent IS NOT NULL"))
    ]
    wanted += [(p, "ems") for (p,) in conn.execute(sa.text("SELECT DISTINCT peer FROM mig_routes"))]
    for name, dialect in sorted(set(wanted)):
        if name not in nodes:
            nodes.add(name)
            conn.execute(
                sa.text(
                    "INSERT INTO mig_nodes (id, name, dialect, psmode, psclus, descr, parent, seq) "
                    "VALUES (:id, :name, :dialect, 'ENABLED', 'ENABLED', '', NULL, :seq)"
                ),
                {"id": next_id, "name": name, "dialect": dialect, "seq": seq},
            )
            next_id += 1
    clusters = {name for (name,) in conn.execute(sa.text("SELECT name FROM mig_clusters"))}
    used = {
        c
        for (c,) in conn.execute(
            sa.text("SELECT cluster FROM mig_topics UNION SELECT cluster FROM mig_channels")
        )
        if c
    }
    next_id = (conn.execute(sa.text("SELECT MAX(id) FROM mig_clusters")).scalar() or 0) + 1
    for name in sorted(used - clusters):
        conn.execute(
            sa.text("INSERT INTO mig_clusters (id, name, descr, seq) VALUES (:id, :name, '', :seq)"),
            {"id": next_id, "name": name, "seq": seq},
        )
        next_id += 1


def upgrade() -> None:
    conn = op.get_bind()
    _stash(conn)
    _create_new_tables()
    _missing_references(conn)
    node_dialect = _dialects(conn, "mig_nodes")
    no_source = {"source_file": None, "source_line": None}
    parents: list[dict[str, Any]] = []

    def node(row: dict[str, Any]) -> dict[str, Any]:
        if row["parent"] is not None:
            parents.append({"id": row["id"], "parent": row["parent"]})
        return {**row, "parent": None, **no_source}

    _copy(conn, "nodes", node)
    nodes_table = sa.table("nodes", sa.column("id"), sa.column("parent"))
    for item in parents:
        conn.execute(nodes_table.update().where(nodes_table.c.id == item["id"]).values(parent=item["parent"]))
    _copy(conn, "clusters", lambda row: row)
    _copy(conn, "memberships", lambda row: row)
    _copy(conn, "namelists", lambda row: {**row, "names": _load(row["names"]), **no_source})
    _copy(
        conn,
        "channels",
        lambda row: {
            **row,
            "cluster": row["cluster"] or None,
            "clwlrank": 0,
            "clwlprty": 0,
            "clwlwght": 50,
            **no_source,
        },
    )
    _copy(
        conn,
        "topics",
        lambda row: {
            **row,
            "cluster": row["cluster"] or None,
            "properties": _load(row["properties"]),
            "name_key": _digest(row["name"]),
            "topicstr_key": _digest(row["topicstr"]),
            "prefix_key": _digest(_prefix(row["topicstr"], node_dialect[row["node_id"]], False)),
            **no_source,
        },
    )
    _copy(
        conn,
        "subscriptions",
        lambda row: {
            **row,
            "properties": _load(row["properties"]),
            "name_key": _digest(row["name"]),
            "prefix_key": _digest(
                _prefix(row["topicstr"], node_dialect[row["node_id"]], row["wschema"] == "CHAR")
            ),
            **no_source,
        },
    )
    _copy(conn, "routes", lambda row: {**row, "properties": _load(row["properties"]), **no_source})
    _copy(conn, "route_selectors", lambda row: {**row, "topic_key": _digest(row["topic"]), **no_source})
    _drop_stash(conn)
    _reset_ids(conn)
    if conn.execute(sa.text("SELECT COUNT(*) FROM counters WHERE name = 'seq'")).scalar() == 0:
        conn.execute(sa.text("INSERT INTO counters (name, value) VALUES ('seq', 0)"))


def _initial_revision() -> Any:
    """The 0001 revision module, whose upgrade creates the tables this downgrade returns to."""
    path = Path(__file__).with_name("0001_initial.py")
    spec = importlib.util.spec_from_file_location("mqctl_migration_0001", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def downgrade() -> None:
    conn = op.get_bind()
    _stash(conn)
    seq = conn.execute(sa.text("SELECT value FROM counters WHERE name = 'seq'")).scalar()
    op.drop_table("counters")
    _initial_revision().upgrade()
    if seq is not None:
        conn.execute(sa.text("INSERT INTO counters (name, value) VALUES ('seq', :v)"), {"v": seq})
    node_dialect = _dialects(conn, "mig_nodes")
    drop = ("source_file", "source_line")

    def without(row: dict[str, Any], *keys: str) -> dict[str, Any]:
        return {k: v for k, v in row.items() if k not in (*drop, *keys)}

    parents: list[dict[str, Any]] = []

    def node(row: dict[str, Any]) -> dict[str, Any]:
        if row["parent"] is not None:
            parents.append({"id": row["id"], "parent": row["parent"]})
        return without(row)

    _copy(conn, "nodes", node)
    _copy(conn, "clusters", lambda row: row)
    _copy(conn, "memberships", lambda row: row)
    _copy(conn, "namelists", lambda row: {**without(row), "names": _dump(row["names"])})
    _copy(
        conn,
        "channels",
        lambda row: {**without(row, "clwlrank", "clwlprty", "clwlwght"), "cluster": row["cluster"] or ""},
    )
    _copy(
        conn,
        "topics",
        lambda row: {
            **without(row, "name_key", "topicstr_key"),
            "cluster": row["cluster"] or "",
            "properties": _dump(row["properties"]),
            "prefix_key": _prefix(row["topicstr"], node_dialect[row["node_id"]], False),
        },
    )
    _copy(
        conn,
        "subscriptions",
        lambda row: {
            **without(row, "name_key"),
            "properties": _dump(row["properties"]),
            "prefix_key": _prefix(row["topicstr"], node_dialect[row["node_id"]], row["wschema"] == "CHAR"),
        },
    )
    _copy(conn, "routes", lambda row: {**without(row), "properties": _dump(row["properties"])})
    _copy(conn, "route_selectors", lambda row: without(row, "topic_key"))
    _drop_stash(conn)
    _reset_ids(conn)
