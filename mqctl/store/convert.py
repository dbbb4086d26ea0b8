"""Domain objects <-> table rows (plain dicts), shared by the ORM repository and the Core explain slice."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from mqctl.domain import topics as topic_strings
from mqctl.domain.model import (
    Channel,
    ChannelType,
    ClRoute,
    Dialect,
    Direction,
    Enablement,
    Namelist,
    Node,
    ProxySub,
    Route,
    RouteSelector,
    Scope,
    SubScope,
    Subscription,
    TopicObject,
    Wildcard,
    WSchema,
    ZoneType,
)

Row = Mapping[Any, Any]
"""A table row as read (RowMapping or a plain dict)."""


def _props(text: str | None) -> dict[str, Any]:
    return dict(json.loads(text)) if text else {}


def _dump(props: Row) -> str:
    if not props:  # the usual case; json.dumps costs ~4 µs a row in a bulk import
        return "{}"
    return json.dumps(dict(props), separators=(",", ":"))


def node_from_row(row: Row) -> Node:
    return Node(
        name=row["name"],
        dialect=Dialect(row["dialect"]),
        psmode=row["psmode"],
        psclus=row["psclus"],
        descr=row["descr"],
        parent=row["parent"],
        seq=row["seq"],
    )


def node_values(node: Node) -> dict[str, Any]:
    return {
        "name": node.name,
        "dialect": str(node.dialect),
        "psmode": node.psmode,
        "psclus": node.psclus,
        "descr": node.descr,
        "parent": node.parent,
        "seq": node.seq,
    }


def topic_from_row(row: Row, node: str) -> TopicObject:
    return TopicObject(
        node=node,
        name=row["name"],
        topicstr=row["topicstr"],
        cluster=row["cluster"],
        clroute=ClRoute(row["clroute"]),
        wildcard=Wildcard(row["wildcard"]),
        pubscope=Scope(row["pubscope"]),
        subscope=Scope(row["subscope"]),
        proxysub=ProxySub(row["proxysub"]),
        pub=Enablement(row["pub"]),
        sub=Enablement(row["sub"]),
        descr=row["descr"],
        properties=_props(row["properties"]),
        seq=row["seq"],
    )


def topic_values(topic: TopicObject, node_id: int, dialect: Dialect) -> dict[str, Any]:
    return {
        "node_id": node_id,
        "name": topic.name,
        "topicstr": topic.topicstr,
        "prefix_key": topic_strings.pattern_prefix_key(topic.topicstr, dialect),
        "cluster": topic.cluster,
        "clroute": str(topic.clroute),
        "wildcard": str(topic.wildcard),
        "pubscope": str(topic.pubscope),
        "subscope": str(topic.subscope),
        "proxysub": str(topic.proxysub),
        "pub": str(topic.pub),
        "sub": str(topic.sub),
        "descr": topic.descr,
        "properties": _dump(topic.properties),
        "seq": topic.seq,
    }


def subscription_from_row(row: Row, node: str) -> Subscription:
    return Subscription(
        node=node,
        name=row["name"],
        topicstr=row["topicstr"],
        selector=row["selector"],
        durable=bool(row["durable"]),
        subscope=SubScope(row["subscope"]),
        wschema=WSchema(row["wschema"]),
        dest=row["dest"],
        destqmgr=row["destqmgr"],
        topicobj=row["topicobj"],
        properties=_props(row["properties"]),
        seq=row["seq"],
    )


def subscription_prefix_key(sub: Subscription, dialect: Dialect) -> str:
    """The indexed key: a subscription can match topic T only if this is one of T's prefix keys."""
    if sub.wschema is WSchema.CHAR:
        return topic_strings.prefix_key(topic_strings.char_prefix_levels(sub.topicstr), dialect)
    return topic_strings.pattern_prefix_key(sub.topicstr, dialect)


def subscription_values(sub: Subscription, node_id: int, dialect: Dialect) -> dict[str, Any]:
    return {
        "node_id": node_id,
        "name": sub.name,
        "topicstr": sub.topicstr,
        "prefix_key": subscription_prefix_key(sub, dialect),
        "selector": sub.selector,
        "durable": sub.durable,
        "subscope": str(sub.subscope),
        "wschema": str(sub.wschema),
        "dest": sub.dest,
        "destqmgr": sub.destqmgr,
        "topicobj": sub.topicobj,
        "properties": _dump(sub.properties),
        "seq": sub.seq,
    }


def namelist_from_row(row: Row, node: str) -> Namelist:
    return Namelist(
        node=node, name=row["name"], names=tuple(json.loads(row["names"])), descr=row["descr"], seq=row["seq"]
    )


def namelist_values(nl: Namelist, node_id: int) -> dict[str, Any]:
    return {
        "node_id": node_id,
        "name": nl.name,
        "names": json.dumps(list(nl.names)),
        "descr": nl.descr,
        "seq": nl.seq,
    }


def channel_from_row(row: Row, node: str) -> Channel:
    return Channel(
        node=node,
        name=row["name"],
        chltype=ChannelType(row["chltype"]),
        cluster=row["cluster"],
        clusnl=row["clusnl"],
        conname=row["conname"],
        descr=row["descr"],
        seq=row["seq"],
    )


def channel_values(ch: Channel, node_id: int) -> dict[str, Any]:
    return {
        "node_id": node_id,
        "name": ch.name,
        "chltype": str(ch.chltype),
        "cluster": ch.cluster,
        "clusnl": ch.clusnl,
        "conname": ch.conname,
        "descr": ch.descr,
        "seq": ch.seq,
    }


def route_from_row(row: Row, node: str) -> Route:
    return Route(
        node=node,
        peer=row["peer"],
        url=row["url"],
        zone_name=row["zone_name"],
        zone_type=ZoneType(row["zone_type"]),
        properties=_props(row["properties"]),
        seq=row["seq"],
    )


def route_values(route: Route, node_id: int) -> dict[str, Any]:
    return {
        "node_id": node_id,
        "peer": route.peer,
        "url": route.url,
        "zone_name": route.zone_name,
        "zone_type": str(route.zone_type),
        "properties": _dump(route.properties),
        "seq": route.seq,
    }


def route_selector_from_row(row: Row, node: str, peer: str) -> RouteSelector:
    return RouteSelector(
        node=node,
        peer=peer,
        direction=Direction(row["direction"]),
        topic=row["topic"],
        selector=row["selector"],
        seq=row["seq"],
    )


def route_selector_values(rs: RouteSelector, route_id: int) -> dict[str, Any]:
    return {
        "route_id": route_id,
        "direction": str(rs.direction),
        "topic": rs.topic,
        "selector": rs.selector,
        "seq": rs.seq,
    }
