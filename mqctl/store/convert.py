"""Domain objects <-> table rows, derived from the attribute table (``domain.objects.attributes``) and
the dataclasses' fields (the columns share their names).

Each ``Codec`` reads a dataclass's fields once and converts an attribute by its type in the attribute
table, any other field (properties, sequence, source position) by its annotation: enumerations are stored
as their values, tuples as JSON lists, mappings as JSON objects, and a blank cluster as NULL (the column
is a foreign key to ``clusters.name``). A model field that is neither an attribute of the table nor
bookkeeping is refused when the codec is built. Columns the store adds for its own indexes — digests of long
keys, the fixed-prefix key of a pattern — are computed here too, from the same objects.
"""

from __future__ import annotations

import hashlib
import json
import typing
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import fields
from enum import Enum
from operator import attrgetter
from typing import Any, Generic, TypeVar

from mqctl.domain import topics as topic_strings
from mqctl.domain.model import (
    Channel,
    Dialect,
    Namelist,
    Node,
    Route,
    RouteSelector,
    Subscription,
    TopicObject,
    WSchema,
    ZoneType,
)
from mqctl.domain.objects.attributes import BOOKKEEPING, TABLES
from mqctl.store import tables

Row = Mapping[Any, Any]
"""A table row as read (RowMapping or a plain dict)."""
T = TypeVar("T")

BLANK_AS_NULL = frozenset({"cluster"})
"""Fields whose '' (none) is stored as NULL: the column references another table by name."""


def digest(text: str) -> str:
    """The indexed stand-in for a key that may be too long to index (128-bit BLAKE2b, hex)."""
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


def json_value(value: Any) -> Any:
    """A JSON column read as text (SQLite, or ``Codec.columns``) or already decoded (psycopg); ``{}``
    without the parser (most objects have no properties)."""
    if isinstance(value, str):
        return {} if value == "{}" else json.loads(value)
    return value


def _identity(value: Any) -> Any:
    return value


def _decoder(annotation: Any, name: str) -> Callable[[Any], Any]:
    """How a stored value becomes the field's value (hot: a whole model is millions of values)."""
    origin = typing.get_origin(annotation)
    if isinstance(annotation, type) and issubclass(annotation, Enum):
        return {m.value: m for m in annotation}.__getitem__
    if annotation is bool:
        return bool
    if origin is tuple or annotation is tuple:
        return lambda v: tuple(json_value(v))
    if origin is dict:
        return lambda v: dict(json_value(v))
    if name in BLANK_AS_NULL:
        return lambda v: v or ""
    return _identity


def _encoder(annotation: Any, name: str) -> Callable[[Any], Any]:
    """How a field's value is stored (JSON columns take Python lists and dicts)."""
    origin = typing.get_origin(annotation)
    if isinstance(annotation, type) and issubclass(annotation, Enum):
        return {m: m.value for m in annotation}.__getitem__  # not ``v.value``: a Python property call
    if origin is tuple or annotation is tuple:
        return list
    if origin is dict:
        return dict
    if name in BLANK_AS_NULL:
        return lambda v: v or None
    return _identity


def _tuple_reader(cls: type[T], decoders: Sequence[Callable[[Any], Any]]) -> Callable[..., T]:
    """``Codec.from_tuple`` for one dataclass, written out: the values unpacked at once and each one that
    needs it decoded inline, as ``dataclasses`` writes an ``__init__`` (a display of an estate reads
    50,000 topic objects: the loop over the fields to decode was a third of making one)."""
    names = [f"v{i}" for i in range(len(decoders))]
    values = ", ".join(
        n if d is _identity else f"d{i}({n})" for i, (n, d) in enumerate(zip(names, decoders, strict=True))
    )
    source = (
        "def from_tuple(values, owner=()):\n"
        "    try:\n"
        f"        {', '.join(names)}, = values\n"
        "    except ValueError:\n"
        f"        raise ValueError(f'{{len(values)}} values for the {len(names)} fields of {cls.__name__}')"
        " from None\n"
        f"    return cls(*owner, {values})\n"
    )
    scope: dict[str, Any] = {"cls": cls, **{f"d{i}": d for i, d in enumerate(decoders)}}
    exec(source, scope)  # noqa: S102  (our own text: field positions and decoders, nothing read)
    reader: Callable[..., T] = scope["from_tuple"]
    return reader


def dict_maker(keys: Sequence[str], attributes: Sequence[str]) -> Callable[[Any], dict[str, Any]]:
    """``lambda obj: dict(zip(keys, attrgetter(*attributes)(obj)))``, written out as one dict display: a
    display of an estate makes 50,000 rows from topic objects, and the display is a third of the cost of
    going through a tuple and ``zip``."""
    if len(keys) != len(attributes) or not all(a.isidentifier() for a in attributes):
        raise ValueError(f"keys {list(keys)} and attributes {list(attributes)} do not pair up")
    items = ", ".join(f"{k!r}: obj.{a}" for k, a in zip(keys, attributes, strict=True))
    scope: dict[str, Any] = {}
    exec(f"def make(obj):\n    return {{{items}}}\n", scope)  # noqa: S102  (our own names, nothing read)
    maker: Callable[[Any], dict[str, Any]] = scope["make"]
    return maker


class Codec(Generic[T]):
    """Rows of one table <-> objects of one dataclass."""

    def __init__(self, cls: type[T], table: Any, owners: tuple[str, ...] = ("node",)) -> None:
        """``owners``: fields held by the row's owner (``node_id``, a route selector's ``route_id``)."""
        self.cls = cls
        self.table = table
        hints = typing.get_type_hints(cls)
        every = [f.name for f in fields(cls)]  # type: ignore[arg-type]
        if every[: len(owners)] != list(owners):
            raise TypeError(f"{cls.__name__}: the owner fields {owners} must come first")
        names = every[len(owners) :]
        missing = [n for n in names if n not in table.c]
        if missing:
            raise TypeError(f"table {table.name} lacks columns for {cls.__name__}: {missing}")
        attrs = {a.field: a.type for a in TABLES[cls]}
        strays = [n for n in every if n not in attrs and n not in BOOKKEEPING]
        if strays or not attrs.keys() <= set(every):
            raise TypeError(f"{cls.__name__}: fields {strays} or attributes {list(attrs)} out of the table")
        kinds = {n: attrs.get(n, hints[n]) for n in names}
        self.fields = names
        self._decode = [(n, _decoder(kinds[n], n)) for n in names]
        # decodes only the values that need it (enums, JSON, the blank-as-NULL references): a display
        # of an estate reads 50,000 objects of a dozen plain text fields
        self.from_tuple: Callable[..., T] = _tuple_reader(cls, [d for _, d in self._decode])
        """``from_tuple(values, owner=())``: an object from a row of ``columns()`` (positional), the
        owner fields first."""
        self._encode = [(n, _encoder(kinds[n], n)) for n in names]
        # an import encodes every object it writes: read all fields at C speed, encode only those that
        # need it (enums, JSON, the blank-as-NULL references), not one call per field
        self._read_all = attrgetter(*names) if len(names) > 1 else lambda obj: (getattr(obj, names[0]),)
        self._encoded = [(n, e) for n, e in self._encode if e is not _identity]
        self.json_columns = frozenset(
            n for n in names if kinds[n] is tuple or typing.get_origin(kinds[n]) in (dict, tuple)
        )

    def from_row(self, row: Row, **owner: Any) -> T:
        values = {n: decode(row[n]) for n, decode in self._decode}
        return self.cls(**owner, **values)

    def columns(self) -> list[Any]:
        """The field columns in field order, JSON ones read as text (decoded by ``from_tuple``, which
        skips the parser for the common empty object): for reading many rows at once."""
        from sqlalchemy import Text, type_coerce

        return [
            type_coerce(self.table.c[n], Text).label(n) if n in self.json_columns else self.table.c[n]
            for n in self.fields
        ]

    def values(self, obj: T) -> dict[str, Any]:
        values = dict(zip(self.fields, self._read_all(obj), strict=True))
        for n, encode in self._encoded:
            values[n] = encode(values[n])
        return values


NODE = Codec(Node, tables.nodes, owners=())
NAMELIST = Codec(Namelist, tables.namelists)
CHANNEL = Codec(Channel, tables.channels)
TOPIC = Codec(TopicObject, tables.topics)
SUBSCRIPTION = Codec(Subscription, tables.subscriptions)
ROUTE = Codec(Route, tables.routes)
ROUTE_SELECTOR = Codec(RouteSelector, tables.route_selectors, owners=("node", "peer"))


def subscription_prefix(sub: Subscription, dialect: Dialect) -> str:
    """The fixed prefix a subscription is indexed by: it can match T only if this is one of T's keys."""
    if sub.wschema is WSchema.CHAR:
        return topic_strings.prefix_key(topic_strings.char_prefix_levels(sub.topicstr), dialect)
    return topic_strings.pattern_prefix_key(sub.topicstr, dialect)


def node_values(node: Node) -> dict[str, Any]:
    return NODE.values(node)


def topic_values(topic: TopicObject, node_id: int, dialect: Dialect) -> dict[str, Any]:
    values = TOPIC.values(topic)
    values["node_id"] = node_id
    values["name_key"] = digest(topic.name)
    values["topicstr_key"] = digest(topic.topicstr)
    values["prefix_key"] = digest(topic_strings.pattern_prefix_key(topic.topicstr, dialect))
    return values


def subscription_values(sub: Subscription, node_id: int, dialect: Dialect) -> dict[str, Any]:
    values = SUBSCRIPTION.values(sub)
    values["node_id"] = node_id
    values["name_key"] = digest(sub.name)
    values["prefix_key"] = digest(subscription_prefix(sub, dialect))
    return values


def owned_values(codec: Codec[Any], obj: Any, node_id: int) -> dict[str, Any]:
    """Namelists, channels and routes: the fields plus the owning node."""
    values = codec.values(obj)
    values["node_id"] = node_id
    return values


def route_selector_values(rs: RouteSelector, route_id: int) -> dict[str, Any]:
    values = ROUTE_SELECTOR.values(rs)
    values["route_id"] = route_id
    values["topic_key"] = digest(rs.topic)
    return values


def node_from_row(row: Row) -> Node:
    return NODE.from_row(row)


def topic_from_row(row: Row, node: str) -> TopicObject:
    return TOPIC.from_row(row, node=node)


def subscription_from_row(row: Row, node: str) -> Subscription:
    return SUBSCRIPTION.from_row(row, node=node)


def namelist_from_row(row: Row, node: str) -> Namelist:
    return NAMELIST.from_row(row, node=node)


def channel_from_row(row: Row, node: str) -> Channel:
    return CHANNEL.from_row(row, node=node)


def route_from_row(row: Row, node: str) -> Route:
    return ROUTE.from_row(row, node=node)


ROUTE_ENDS = ("node_id", "peer", "zone_name", "zone_type", "seq")
"""What routing reads of an EMS route (``domain.routing.ems_network``, ``domain.links``, the route phrases
of ``render``); the URL, other properties and source position are not needed to route."""

_ZONE_TYPES = {m.value: m for m in ZoneType}


def route_ends_columns() -> list[Any]:
    """The ``ROUTE_ENDS`` columns of the routes table, in that order (for ``routes_from_ends``)."""
    return [tables.routes.c[n] for n in ROUTE_ENDS]


def routes_from_ends(rows: Iterable[Sequence[Any]], node_names: Mapping[int, str]) -> list[Route]:
    """Routes from rows of ``route_ends_columns()``, URL, properties and source left empty; a row whose
    ``node_id`` is not in ``node_names`` is skipped. Hot: a full mesh of 200 servers is 19,900 rows."""
    zone_types = _ZONE_TYPES
    return [
        Route(name, peer, "", zone_name, zone_types[zone_type], {}, seq)
        for node_id, peer, zone_name, zone_type, seq in rows
        if (name := node_names.get(node_id)) is not None
    ]


def route_selector_from_row(row: Row, node: str, peer: str) -> RouteSelector:
    return ROUTE_SELECTOR.from_row(row, node=node, peer=peer)
