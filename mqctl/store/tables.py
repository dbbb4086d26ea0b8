"""The store's tables in SQLAlchemy Core: the ORM maps onto them, explain queries them directly.

Keeping the tables in Core lets the explain path run indexed queries without importing the ORM
(start-up time is part of the explain budget). Columns follow MQSC attribute names.
"""

from __future__ import annotations

from sqlalchemy import (
    Boolean,
    Column,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
)

NAMING = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

metadata = MetaData(naming_convention=NAMING)

NAME = 64
TOPIC = 1024

counters = Table(
    "counters",
    metadata,
    Column("name", String(32), primary_key=True),
    Column("value", Integer, nullable=False),
)

nodes = Table(
    "nodes",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(NAME), nullable=False, unique=True),
    Column("dialect", String(8), nullable=False),
    Column("psmode", String(16), nullable=False, default="ENABLED"),
    Column("psclus", String(16), nullable=False, default="ENABLED"),
    Column("descr", String(256), nullable=False, default=""),
    Column("parent", String(NAME), nullable=True, index=True),
    Column("seq", Integer, nullable=False),
)

clusters = Table(
    "clusters",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(NAME), nullable=False, unique=True),
    Column("descr", String(256), nullable=False, default=""),
    Column("seq", Integer, nullable=False),
)

memberships = Table(
    "memberships",
    metadata,
    Column("node_id", Integer, ForeignKey("nodes.id", ondelete="CASCADE"), primary_key=True),
    Column(
        "cluster_id", Integer, ForeignKey("clusters.id", ondelete="CASCADE"), primary_key=True, index=True
    ),
    Column("full_repository", Boolean, nullable=False, default=False),
    Column("seq", Integer, nullable=False),
)

namelists = Table(
    "namelists",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("node_id", Integer, ForeignKey("nodes.id", ondelete="CASCADE"), nullable=False),
    Column("name", String(NAME), nullable=False),
    Column("names", Text, nullable=False, default="[]"),
    Column("descr", String(256), nullable=False, default=""),
    Column("seq", Integer, nullable=False),
    UniqueConstraint("node_id", "name"),
)

channels = Table(
    "channels",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("node_id", Integer, ForeignKey("nodes.id", ondelete="CASCADE"), nullable=False),
    Column("name", String(NAME), nullable=False),
    Column("chltype", String(16), nullable=False),
    Column("cluster", String(NAME), nullable=False, default=""),
    Column("clusnl", String(NAME), nullable=False, default=""),
    Column("conname", String(TOPIC), nullable=False, default=""),
    Column("descr", String(256), nullable=False, default=""),
    Column("seq", Integer, nullable=False),
    UniqueConstraint("node_id", "name"),
)

topics = Table(
    "topics",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("node_id", Integer, ForeignKey("nodes.id", ondelete="CASCADE"), nullable=False),
    Column("name", String(TOPIC), nullable=False, index=True),
    Column("topicstr", String(TOPIC), nullable=False, index=True),
    Column("prefix_key", String(TOPIC), nullable=False, index=True),
    Column("cluster", String(NAME), nullable=False, default="", index=True),
    Column("clroute", String(16), nullable=False, default="DIRECT"),
    Column("wildcard", String(16), nullable=False, default="PASSTHRU"),
    Column("pubscope", String(16), nullable=False, default="ASPARENT"),
    Column("subscope", String(16), nullable=False, default="ASPARENT"),
    Column("proxysub", String(16), nullable=False, default="FIRSTUSE"),
    Column("pub", String(16), nullable=False, default="ASPARENT"),
    Column("sub", String(16), nullable=False, default="ASPARENT"),
    Column("descr", String(256), nullable=False, default=""),
    Column("properties", Text, nullable=False, default="{}"),
    Column("seq", Integer, nullable=False),
    UniqueConstraint("node_id", "name"),
)

subscriptions = Table(
    "subscriptions",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("node_id", Integer, ForeignKey("nodes.id", ondelete="CASCADE"), nullable=False),
    Column("name", Text, nullable=False),
    Column("topicstr", String(TOPIC), nullable=False),
    Column("prefix_key", String(TOPIC), nullable=False, index=True),
    Column("selector", Text, nullable=True),
    Column("durable", Boolean, nullable=False, default=True),
    Column("subscope", String(16), nullable=False, default="ALL"),
    Column("wschema", String(16), nullable=False, default="TOPIC"),
    Column("dest", String(NAME), nullable=False, default=""),
    Column("destqmgr", String(NAME), nullable=False, default=""),
    Column("topicobj", String(NAME), nullable=False, default=""),
    Column("properties", Text, nullable=False, default="{}"),
    Column("seq", Integer, nullable=False),
    Index("ix_subscriptions_node_id_name", "node_id", "name", unique=True),
)

routes = Table(
    "routes",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("node_id", Integer, ForeignKey("nodes.id", ondelete="CASCADE"), nullable=False),
    Column("peer", String(NAME), nullable=False, index=True),
    Column("url", String(TOPIC), nullable=False, default=""),
    Column("zone_name", String(NAME), nullable=False, default="default_mhop_zone"),
    Column("zone_type", String(8), nullable=False, default="mhop"),
    Column("properties", Text, nullable=False, default="{}"),
    Column("seq", Integer, nullable=False),
    UniqueConstraint("node_id", "peer"),
)

route_selectors = Table(
    "route_selectors",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("route_id", Integer, ForeignKey("routes.id", ondelete="CASCADE"), nullable=False),
    Column("direction", String(8), nullable=False),
    Column("topic", String(TOPIC), nullable=False),
    Column("selector", Text, nullable=False),
    Column("seq", Integer, nullable=False),
    UniqueConstraint("route_id", "direction", "topic"),
)
