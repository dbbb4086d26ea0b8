"""Typed ORM classes mapped onto the Core tables (``tables.py``): used by the object commands."""

from __future__ import annotations

from sqlalchemy.orm import DeclarativeBase, Mapped, relationship

from mqctl.store import tables


class Base(DeclarativeBase):
    metadata = tables.metadata


class NodeRow(Base):
    __table__ = tables.nodes
    id: Mapped[int]
    name: Mapped[str]
    dialect: Mapped[str]
    psmode: Mapped[str]
    psclus: Mapped[str]
    descr: Mapped[str]
    parent: Mapped[str | None]
    seq: Mapped[int]


class ClusterRow(Base):
    __table__ = tables.clusters
    id: Mapped[int]
    name: Mapped[str]
    descr: Mapped[str]
    seq: Mapped[int]


class MembershipRow(Base):
    __table__ = tables.memberships
    node_id: Mapped[int]
    cluster_id: Mapped[int]
    full_repository: Mapped[bool]
    seq: Mapped[int]
    node: Mapped[NodeRow] = relationship(lazy="joined", viewonly=True)
    cluster: Mapped[ClusterRow] = relationship(lazy="joined", viewonly=True)


class NamelistRow(Base):
    __table__ = tables.namelists
    id: Mapped[int]
    node_id: Mapped[int]
    name: Mapped[str]
    names: Mapped[str]
    descr: Mapped[str]
    seq: Mapped[int]


class ChannelRow(Base):
    __table__ = tables.channels
    id: Mapped[int]
    node_id: Mapped[int]
    name: Mapped[str]
    chltype: Mapped[str]
    cluster: Mapped[str]
    clusnl: Mapped[str]
    conname: Mapped[str]
    descr: Mapped[str]
    seq: Mapped[int]


class TopicRow(Base):
    __table__ = tables.topics
    id: Mapped[int]
    node_id: Mapped[int]
    name: Mapped[str]
    topicstr: Mapped[str]
    prefix_key: Mapped[str]
    cluster: Mapped[str]
    clroute: Mapped[str]
    wildcard: Mapped[str]
    pubscope: Mapped[str]
    subscope: Mapped[str]
    proxysub: Mapped[str]
    pub: Mapped[str]
    sub: Mapped[str]
    descr: Mapped[str]
    properties: Mapped[str]
    seq: Mapped[int]


class SubscriptionRow(Base):
    __table__ = tables.subscriptions
    id: Mapped[int]
    node_id: Mapped[int]
    name: Mapped[str]
    topicstr: Mapped[str]
    prefix_key: Mapped[str]
    selector: Mapped[str | None]
    durable: Mapped[bool]
    subscope: Mapped[str]
    wschema: Mapped[str]
    dest: Mapped[str]
    destqmgr: Mapped[str]
    topicobj: Mapped[str]
    properties: Mapped[str]
    seq: Mapped[int]


class RouteRow(Base):
    __table__ = tables.routes
    id: Mapped[int]
    node_id: Mapped[int]
    peer: Mapped[str]
    url: Mapped[str]
    zone_name: Mapped[str]
    zone_type: Mapped[str]
    properties: Mapped[str]
    seq: Mapped[int]


class RouteSelectorRow(Base):
    __table__ = tables.route_selectors
    id: Mapped[int]
    route_id: Mapped[int]
    direction: Mapped[str]
    topic: Mapped[str]
    selector: Mapped[str]
    seq: Mapped[int]
