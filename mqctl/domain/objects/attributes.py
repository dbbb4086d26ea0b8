"""The attributes of each object kind, written once: model field, MQSC or EMS keyword, type, default,
allowed values, and whether routing reads them.

The parts of mqctl that list an object's attributes take them from here: the MQSC vocabulary of
modelled keywords, the MQSC reader's loop over a DEFINE/ALTER of each kind (``formats.mqsc.values.alike``:
only what a rule ties to another attribute is read apart), the MQSC writer and DISPLAY (in the
product's layout, ``laid_out``), the store's converters, the DISPLAY read models and ``effective``
values, the tree view's JSON, the shell's enumerated options, reconcile's compared attributes and
EMS's MQ defaults. What cannot be
derived (the model's dataclasses, the store's tables and migrations, the snapshot schema, the CLI's
static option lists) is held to this table by ``tests/formats/test_attribute_table.py``, which fails
when an attribute is added in one place only. EMS topic properties are free (``properties``) and not
listed.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from mqctl.domain.model import (
    PS_COMPAT,
    PS_DISABLED,
    PS_ENABLED,
    Channel,
    ChannelType,
    ClRoute,
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
    SubType,
    TopicObject,
    Wildcard,
    WSchema,
    ZoneType,
)


@dataclass(frozen=True, slots=True)
class Attribute:
    field: str
    """The model's field."""
    keyword: str
    """MQSC keyword (EMS: the configuration key)."""
    type: Any
    """str, int, bool, tuple (a list of names), or the enumeration (a class)."""
    default: object
    routing: bool = False
    """Read by resolution or the routing engine (changing it can change an explain)."""
    command: bool = True
    """Given in DEFINE/ALTER (MQSC) or the EMS files; False for what the product implies (DURABLE of a
    DEFINE SUB) or mqctl alone holds."""
    choices: tuple[str, ...] = ()
    """Allowed values of a text attribute that is not an enumeration of the model (PSMODE)."""

    @property
    def enum(self) -> type[StrEnum] | None:
        kind = self.type
        return kind if isinstance(kind, type) and issubclass(kind, StrEnum) else None


A = Attribute

TOPIC = (
    A("topicstr", "TOPICSTR", str, "", routing=True),
    A("cluster", "CLUSTER", str, "", routing=True),
    A("clroute", "CLROUTE", ClRoute, ClRoute.DIRECT, routing=True),
    A("wildcard", "WILDCARD", Wildcard, Wildcard.PASSTHRU, routing=True),
    A("pubscope", "PUBSCOPE", Scope, Scope.ASPARENT, routing=True),
    A("subscope", "SUBSCOPE", Scope, Scope.ASPARENT, routing=True),
    A("proxysub", "PROXYSUB", ProxySub, ProxySub.FIRSTUSE, routing=True),
    A("pub", "PUB", Enablement, Enablement.ASPARENT, routing=True),
    A("sub", "SUB", Enablement, Enablement.ASPARENT, routing=True),
    A("descr", "DESCR", str, ""),
)
"""An MQ administrative topic object (``TopicObject``; an EMS definition uses ``properties`` only)."""

SUB = (
    A("topicstr", "TOPICSTR", str, "", routing=True),
    A("selector", "SELECTOR", str, None, routing=True),
    A("durable", "DURABLE", bool, True, routing=True, command=False),
    A("subscope", "SUBSCOPE", SubScope, SubScope.ALL, routing=True),
    A("wschema", "WSCHEMA", WSchema, WSchema.TOPIC, routing=True),
    A("dest", "DEST", str, ""),
    A("destqmgr", "DESTQMGR", str, ""),
    A("topicobj", "TOPICOBJ", str, ""),
    # DISPLAY SUB shows it; DEFINE SUB makes ADMIN ones only (API ones come from captures)
    A("subtype", "SUBTYPE", SubType, SubType.ADMIN, command=False),
    # DISPLAY SUB shows it; MQ assigns it (DEFINE SUB takes none), so it too comes from captures
    A("subid", "SUBID", str, "", command=False),
)

CHANNEL = (
    A("chltype", "CHLTYPE", ChannelType, ChannelType.CLUSRCVR, routing=True),
    A("cluster", "CLUSTER", str, "", routing=True),
    A("clusnl", "CLUSNL", str, "", routing=True),
    A("conname", "CONNAME", str, ""),
    A("descr", "DESCR", str, ""),
    A("clwlrank", "CLWLRANK", int, 0, routing=True),
    A("clwlprty", "CLWLPRTY", int, 0, routing=True),
    A("clwlwght", "CLWLWGHT", int, 50, routing=True),
)

NAMELIST = (
    A("names", "NAMES", tuple, (), routing=True),
    A("descr", "DESCR", str, ""),
)

NODE = (
    A("psmode", "PSMODE", str, PS_ENABLED, routing=True, choices=(PS_ENABLED, PS_DISABLED, PS_COMPAT)),
    A("psclus", "PSCLUS", str, PS_ENABLED, routing=True, choices=(PS_ENABLED, PS_DISABLED)),
    A("descr", "DESCR", str, ""),
    A("parent", "PARENT", str, None, routing=True),
)
"""A queue manager (ALTER QMGR); ``dialect`` says which product the node is, not an attribute."""

ROUTE = (
    A("url", "url", str, ""),
    A("zone_name", "zone_name", str, "default_mhop_zone", routing=True),
    A("zone_type", "zone_type", ZoneType, ZoneType.MHOP, routing=True),
)

ROUTE_SELECTOR = (
    A("direction", "direction", Direction, None, routing=True),
    A("topic", "topic", str, None, routing=True),
    A("selector", "selector", str, None, routing=True),
)

TABLES: dict[type, tuple[Attribute, ...]] = {
    TopicObject: TOPIC,
    Subscription: SUB,
    Channel: CHANNEL,
    Namelist: NAMELIST,
    Node: NODE,
    Route: ROUTE,
    RouteSelector: ROUTE_SELECTOR,
}
"""The table of each model class."""

BOOKKEEPING = frozenset(
    {"node", "name", "peer", "dialect", "properties", "seq", "source_file", "source_line"}
)
"""Model fields that are not attributes: keys, owner, EMS free properties, sequence, source position."""


def attribute(table: tuple[Attribute, ...], field: str) -> Attribute:
    """The attribute of ``table`` held in the model's ``field``."""
    return next(a for a in table if a.field == field)


PSMODES = attribute(NODE, "psmode").choices
"""PSMODE's values, spelt here once (the domain's rule, the MQSC reader, the store's CHECK, the shell)."""
PSCLUS = attribute(NODE, "psclus").choices


def keywords(table: tuple[Attribute, ...]) -> frozenset[str]:
    """The keywords a DEFINE/ALTER (or the EMS files) give."""
    return frozenset(a.keyword for a in table if a.command)


def enums(table: tuple[Attribute, ...]) -> dict[str, type[StrEnum]]:
    """Field -> enumeration, for the attributes that have one."""
    out: dict[str, type[StrEnum]] = {}
    for attr in table:
        enum = attr.enum
        if enum is not None:
            out[attr.field] = enum
    return out


def laid_out(table: tuple[Attribute, ...], layout: tuple[str, ...]) -> tuple[Attribute, ...]:
    """The attributes in a product's layout (dmpmqcfg's, runmqsc DISPLAY's): the keywords of ``layout``
    first, in its order, then those it does not name in the table's order, so that an attribute added
    to the table is written and shown before its place is chosen. A keyword the table lacks is an error."""
    by_keyword = {a.keyword: a for a in table}
    unknown = [k for k in layout if k not in by_keyword]
    if unknown:
        raise KeyError(f"not in the attribute table: {unknown}")
    named = set(layout)
    return tuple(by_keyword[k] for k in layout) + tuple(a for a in table if a.keyword not in named)


def mqsc_setting(attr: Attribute, value: object) -> str:
    """``PUBSCOPE(QMGR)``, ``DESCR('EU prices')``: one attribute as MQSC writes it (a text quoted, its
    quotes doubled), for a table cell (``display topic``'s ATTRIBUTES)."""
    if attr.type is str:
        text = str(value).replace("'", "''")
        return f"{attr.keyword}('{text}')"
    return f"{attr.keyword}({value})"
