"""The store's tables in SQLAlchemy Core: every query of the store is written against them.

Columns carry the domain dataclasses' field names (``convert`` maps rows and objects by those names),
so an attribute is spelt once in the model, once here and once in the migration. The database keeps
what it can: enumerations by CHECK constraints, references between rows (a topic's or channel's
cluster, a queue manager's hierarchy parent, a route's peer) by foreign keys on names, and uniqueness
of names and TOPICSTRs per node by unique indexes on digests (a subscription name or a TOPICSTR may be
10,240 characters: PostgreSQL cannot index text that long, so a 128-bit digest of it is indexed).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    CheckConstraint,
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
from sqlalchemy.engine import Dialect as SqlDialect
from sqlalchemy.types import TypeDecorator, TypeEngine

from mqctl.domain.model import (
    ChannelType,
    ClRoute,
    Dialect,
    Direction,
    Enablement,
    ProxySub,
    Scope,
    SubScope,
    SubType,
    Wildcard,
    WSchema,
    ZoneType,
)
from mqctl.domain.objects.attributes import PSCLUS, PSMODES

NAMING = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

metadata = MetaData(naming_convention=NAMING)

NAME = 64
"""Node and cluster names (MQ: 48; EMS servers: 64)."""
DIGEST = 32
"""Hex of a 128-bit BLAKE2b digest (``convert.digest``)."""


class JsonDocument(TypeDecorator[Any]):
    """JSON, stored as JSONB on PostgreSQL. The PostgreSQL dialect is imported when a PostgreSQL
    connection first needs the type, not by every command: it pulls in asyncio (50–100 ms of start-up)."""

    impl = JSON
    cache_ok = True

    def load_dialect_impl(self, dialect: SqlDialect) -> TypeEngine[Any]:
        if dialect.name == "postgresql":
            from sqlalchemy.dialects.postgresql import JSONB

            return dialect.type_descriptor(JSONB())
        return dialect.type_descriptor(JSON())


JSON_DOC = JsonDocument()


def one_of(column: str, values: object, *, by_equality: bool = False) -> CheckConstraint:
    """A CHECK that ``column`` holds one of an enumeration's values: ``column IN (...)``, or with
    ``by_equality`` ``column = ... OR column = ...``, the same test, for the tables written in bulk:
    SQLite evaluates an IN list of three values or more by building a temporary index for every row
    inserted (a third of the cost of inserting a topic object's row), a chain of equalities it does not."""
    allowed = [f"'{v}'" for v in values]  # type: ignore[attr-defined]
    if by_equality:
        return CheckConstraint(" OR ".join(f"{column} = {v}" for v in allowed), name=column)
    return CheckConstraint(f"{column} IN ({', '.join(allowed)})", name=column)


def source_columns() -> list[Column[object]]:
    """Where an imported definition came from (file, line), for validate's findings."""
    return [Column("source_file", Text, nullable=True), Column("source_line", Integer, nullable=True)]


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
    Column("psmode", String(16), nullable=False),
    Column("psclus", String(16), nullable=False),
    Column("descr", Text, nullable=False),
    Column("parent", String(NAME), ForeignKey("nodes.name", ondelete="SET NULL"), nullable=True, index=True),
    Column("seq", Integer, nullable=False),
    *source_columns(),
    one_of("dialect", Dialect),
    one_of("psmode", PSMODES),
    one_of("psclus", PSCLUS),
)

clusters = Table(
    "clusters",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(NAME), nullable=False, unique=True),
    Column("descr", Text, nullable=False),
    Column("seq", Integer, nullable=False),
)

memberships = Table(
    "memberships",
    metadata,
    Column("node_id", Integer, ForeignKey("nodes.id", ondelete="CASCADE"), primary_key=True),
    Column(
        "cluster_id", Integer, ForeignKey("clusters.id", ondelete="CASCADE"), primary_key=True, index=True
    ),
    Column("full_repository", Boolean, nullable=False),
    Column("seq", Integer, nullable=False),
)

namelists = Table(
    "namelists",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("node_id", Integer, ForeignKey("nodes.id", ondelete="CASCADE"), nullable=False),
    Column("name", String(NAME), nullable=False),
    Column("names", JSON_DOC, nullable=False),
    Column("descr", Text, nullable=False),
    Column("seq", Integer, nullable=False),
    *source_columns(),
    UniqueConstraint("node_id", "name"),
)

channels = Table(
    "channels",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("node_id", Integer, ForeignKey("nodes.id", ondelete="CASCADE"), nullable=False),
    Column("name", String(NAME), nullable=False),
    Column("chltype", String(16), nullable=False),
    Column(
        "cluster", String(NAME), ForeignKey("clusters.name", ondelete="CASCADE"), nullable=True, index=True
    ),
    Column("clusnl", String(NAME), nullable=False),
    Column("conname", Text, nullable=False),
    Column("descr", Text, nullable=False),
    Column("clwlrank", Integer, nullable=False),
    Column("clwlprty", Integer, nullable=False),
    Column("clwlwght", Integer, nullable=False),
    Column("seq", Integer, nullable=False),
    *source_columns(),
    UniqueConstraint("node_id", "name"),
    one_of("chltype", ChannelType),
)

topics = Table(
    "topics",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("node_id", Integer, ForeignKey("nodes.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("name", Text, nullable=False),
    Column("name_key", String(DIGEST), nullable=False),
    Column("topicstr", Text, nullable=False),
    Column("topicstr_key", String(DIGEST), nullable=False),
    Column("prefix_key", String(DIGEST), nullable=False, index=True),
    Column(
        "cluster", String(NAME), ForeignKey("clusters.name", ondelete="CASCADE"), nullable=True, index=True
    ),
    Column("clroute", String(16), nullable=False),
    Column("wildcard", String(16), nullable=False),
    Column("pubscope", String(16), nullable=False),
    Column("subscope", String(16), nullable=False),
    Column("proxysub", String(16), nullable=False),
    Column("pub", String(16), nullable=False),
    Column("sub", String(16), nullable=False),
    Column("descr", Text, nullable=False),
    Column("properties", JSON_DOC, nullable=False),
    Column("seq", Integer, nullable=False),
    *source_columns(),
    # the digest first: the keys serve lookups by name or TOPICSTR on every node (explain's slice, display)
    # as well as on one, and a topic row updates no separate digest index (migration 0004)
    UniqueConstraint("name_key", "node_id"),
    UniqueConstraint("topicstr_key", "node_id"),
    one_of("clroute", ClRoute, by_equality=True),
    one_of("wildcard", Wildcard, by_equality=True),
    one_of("pubscope", Scope, by_equality=True),
    one_of("subscope", Scope, by_equality=True),
    one_of("proxysub", ProxySub, by_equality=True),
    one_of("pub", Enablement, by_equality=True),
    one_of("sub", Enablement, by_equality=True),
)

subscriptions = Table(
    "subscriptions",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("node_id", Integer, ForeignKey("nodes.id", ondelete="CASCADE"), nullable=False),
    Column("name", Text, nullable=False),
    Column("name_key", String(DIGEST), nullable=False),
    Column("topicstr", Text, nullable=False),
    Column("prefix_key", String(DIGEST), nullable=False, index=True),
    Column("selector", Text, nullable=True),
    Column("durable", Boolean, nullable=False),
    Column("subscope", String(16), nullable=False),
    Column("wschema", String(16), nullable=False),
    Column("dest", String(NAME), nullable=False),
    Column("destqmgr", String(NAME), nullable=False),
    Column("topicobj", String(NAME), nullable=False),
    Column("properties", JSON_DOC, nullable=False),
    Column("seq", Integer, nullable=False),
    *source_columns(),
    Column("subtype", String(8), nullable=False, server_default=SubType.ADMIN.value),
    Column("subid", Text, nullable=False, server_default=""),
    UniqueConstraint("node_id", "name_key"),
    Index("ix_subscriptions_node_id_topicobj", "node_id", "topicobj"),
    one_of("subscope", SubScope),
    one_of("wschema", WSchema),
    one_of("subtype", SubType),
)

routes = Table(
    "routes",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("node_id", Integer, ForeignKey("nodes.id", ondelete="CASCADE"), nullable=False),
    Column("peer", String(NAME), ForeignKey("nodes.name", ondelete="CASCADE"), nullable=False, index=True),
    Column("url", Text, nullable=False),
    Column("zone_name", String(NAME), nullable=False),
    Column("zone_type", String(8), nullable=False),
    Column("properties", JSON_DOC, nullable=False),
    Column("seq", Integer, nullable=False),
    *source_columns(),
    UniqueConstraint("node_id", "peer"),
    one_of("zone_type", ZoneType),
)

route_selectors = Table(
    "route_selectors",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("route_id", Integer, ForeignKey("routes.id", ondelete="CASCADE"), nullable=False),
    Column("direction", String(8), nullable=False),
    Column("topic", Text, nullable=False),
    Column("topic_key", String(DIGEST), nullable=False),
    Column("selector", Text, nullable=False),
    Column("seq", Integer, nullable=False),
    *source_columns(),
    UniqueConstraint("route_id", "direction", "topic_key"),
    one_of("direction", Direction),
)

# -- observed state (issue 22): what captures of DISPLAY output showed, never definitions ---------------

captures = Table(
    "captures",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("node", String(NAME), nullable=False, unique=True),
    Column("captured_at", String(40), nullable=False),
    Column("file", Text, nullable=False),
    Column("commands", JSON_DOC, nullable=False),
)
"""The latest capture of each queue manager (a node name, not a reference: a capture may name a queue
manager the model does not know, which reconcile reports). ``captured_at`` is ISO 8601 in UTC."""

observations = Table(
    "observations",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("capture_id", Integer, ForeignKey("captures.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("kind", String(16), nullable=False),
    Column("name", Text, nullable=False),
    Column("attributes", JSON_DOC, nullable=False),
    Column("line", Integer, nullable=True),
)
