"""What changed between two models, object by object and attribute by attribute, in MQSC and EMS terms.

Objects are matched by their key as the product keys them (a queue manager or server by name, a topic
object by node and name, an EMS route by node and peer, a route selector by route, direction and
topic...). Definition sequences and source positions are not attributes: a model read from files and
the same model read from a store do not differ.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import Enum
from itertools import compress
from operator import attrgetter, ne
from typing import Any

from mqctl.domain.model import Dialect, Topology

NOT_ATTRIBUTES = frozenset({"node", "name", "seq", "source_file", "source_line"})


@dataclass(frozen=True, slots=True)
class AttributeChange:
    """One attribute, as the product writes it: ``CLROUTE(DIRECT)`` before, ``CLROUTE(TOPICHOST)`` after;
    ``None`` where it is not set on that side."""

    name: str
    before: str | None
    after: str | None

    def text(self) -> str:
        return f"{self.before or '(not set)'} -> {self.after or '(not set)'}"


@dataclass(frozen=True, slots=True)
class ObjectChange:
    kind: str
    """``qmgr``, ``server``, ``membership``, ``topic``, ``sub``, ``route``, ``route-selector``,
    ``channel``, ``namelist``."""
    node: str
    name: str
    change: str
    """``added``, ``removed`` or ``changed``."""
    attributes: tuple[AttributeChange, ...]
    source: tuple[str, int | None] | None
    """Where the object is defined: on the after side, or the before side for a removed one."""
    dialect: Dialect

    def label(self) -> str:
        return self.name if self.kind in ("qmgr", "server") else f"{self.name} at {self.node}"

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "node": self.node,
            "name": self.name,
            "change": self.change,
            "attributes": [{"name": a.name, "before": a.before, "after": a.after} for a in self.attributes],
            "source": None if self.source is None else {"file": self.source[0], "line": self.source[1]},
        }


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "YES" if value else "NO"
    if isinstance(value, Enum):
        return str(value.value)
    if isinstance(value, tuple | list):
        return ",".join(_text(v) for v in value)
    return "" if value is None else str(value)


def written(dialect: Dialect, name: str, value: Any) -> str:
    """``KEYWORD(value)`` for MQ, ``name=value`` for EMS (a flag property alone)."""
    text = _text(value)
    if dialect is Dialect.EMS:
        return name if value is None else f"{name}={text}"
    if text == "" or any(c in text for c in " ,()'") or text != text.upper():
        text = "'" + text.replace("'", "''") + "'"
    return f"{name.upper()}({text})"


def _attributes(obj: Any, dialect: Dialect, skip: frozenset[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for f in dataclasses.fields(obj):
        if f.name in NOT_ATTRIBUTES or f.name in skip:
            continue
        value = getattr(obj, f.name)
        if f.name == "properties":
            for key, prop in sorted(value.items()):
                out[f"property {key}"] = written(Dialect.EMS, key, prop)
            continue
        out[f.name] = written(dialect, f.name, value)
    return out


Keyed = dict[tuple[str, ...], Any]
"""key -> object (its node and name are read off the key: ``_named``)."""


def _index(topology: Topology, topics: list[Any], subscriptions: list[Any]) -> dict[str, Keyed]:
    """Every object by kind and key; of the topic objects and subscriptions, those given (``_unlike``)."""
    out: dict[str, Keyed] = {k: {} for k in KINDS}
    for n in topology.nodes.values():
        out["qmgr" if n.dialect is Dialect.MQ else "server"][(n.name,)] = n
    out["membership"] = {(m.node, m.cluster): m for m in topology.memberships}
    out["topic"] = {(t.node, t.name): t for t in topics}
    out["sub"] = {(s.node, s.name): s for s in subscriptions}
    out["route"] = {(r.node, r.peer): r for r in topology.routes}
    by_key: dict[tuple[str, ...], list[Any]] = {}
    for rs in topology.route_selectors:
        by_key.setdefault((rs.node, rs.peer, str(rs.direction), rs.topic), []).append(rs)
    for key, items in by_key.items():
        first = sorted(items, key=lambda r: r.seq)[0]
        out["route-selector"][key] = dataclasses.replace(
            first, selector=" | ".join(sorted(r.selector for r in items))
        )
    out["channel"] = {(c.node, c.name): c for c in topology.channels}
    out["namelist"] = {(nl.node, nl.name): nl for nl in topology.namelists}
    return out


def _named(kind: str, key: tuple[str, ...]) -> tuple[str, str]:
    """(node, name) of the object with this key."""
    if kind == "route-selector":
        node, peer, direction, topic = key
        return node, f"{peer} {direction}_topic={topic}"
    return key[0], key[-1]


KINDS = ("qmgr", "server", "membership", "topic", "sub", "route", "route-selector", "channel", "namelist")
KEY_FIELDS: dict[str, frozenset[str]] = {
    "membership": frozenset({"cluster"}),
    "route": frozenset({"peer"}),
    "route-selector": frozenset({"peer", "direction", "topic"}),
}
EMS_ONLY = frozenset({"route", "route-selector"})


def _source(obj: Any) -> tuple[str, int | None] | None:
    file = getattr(obj, "source_file", None)
    return None if file is None else (file, getattr(obj, "source_line", None))


def diff_objects(before: Topology, after: Topology) -> list[ObjectChange]:
    """Added, removed and changed objects, by kind then node then name."""
    dialects = (
        {name: node.dialect for name, node in before.nodes.items()},
        {name: node.dialect for name, node in after.nodes.items()},
    )

    def dialect(side: int, kind: str, node: str) -> Dialect:
        return Dialect.EMS if kind in EMS_ONLY else dialects[side].get(node, Dialect.MQ)

    # a node of one product on one side and of the other on the other: its objects are removed and added
    switched = {
        n for n in dialects[0].keys() | dialects[1].keys() if dialect(0, "", n) is not dialect(1, "", n)
    }
    topics = (before.topics, after.topics) if switched else _unlike(before.topics, after.topics)
    subscriptions = (
        (before.subscriptions, after.subscriptions)
        if switched
        else _unlike(before.subscriptions, after.subscriptions)
    )
    old = _index(before, topics[0], subscriptions[0])
    new = _index(after, topics[1], subscriptions[1])
    changes: list[ObjectChange] = []
    for kind in KINDS:
        skip = KEY_FIELDS.get(kind, frozenset())
        a, b = old[kind], new[kind]
        # only the keys that differ are sorted: on an estate nearly all are alike
        keys = [k for k, v in a.items() if (w := b.get(k)) is None or k[0] in switched or not _same(v, w)]
        keys += [k for k in b.keys() - a.keys()]
        for key in sorted(keys):
            x, y = a.get(key), b.get(key)
            node, name = _named(kind, key)
            was = None if x is None else (node, name, x, dialect(0, kind, node))
            now = None if y is None else (node, name, y, dialect(1, kind, node))
            if was is not None and now is not None:
                if was[3] is not now[3]:  # the same name, another product: removed and added
                    changes.append(_whole(kind, was, "removed", skip))
                    changes.append(_whole(kind, now, "added", skip))
                    continue
                attrs_a = _attributes(was[2], was[3], skip)
                attrs_b = _attributes(now[2], now[3], skip)
                changed = tuple(
                    AttributeChange(name, attrs_a.get(name), attrs_b.get(name))
                    for name in sorted(attrs_a.keys() | attrs_b.keys(), key=_order(attrs_a, attrs_b))
                    if attrs_a.get(name) != attrs_b.get(name)
                )
                if changed:
                    changes.append(
                        ObjectChange(kind, now[0], now[1], "changed", changed, _source(now[2]), now[3])
                    )
            elif now is not None:
                changes.append(_whole(kind, now, "added", skip))
            elif was is not None:
                changes.append(_whole(kind, was, "removed", skip))
    return changes


_GETTERS: dict[type, Callable[[Any], Any]] = {}


def _getter(kind: type) -> Callable[[Any], Any]:
    """The object's key and attributes (not its sequence or source) as a tuple, read in C."""
    get = _GETTERS.get(kind)
    if get is None:
        names = (
            f.name
            for f in dataclasses.fields(kind)
            if f.name not in NOT_ATTRIBUTES or f.name in ("node", "name")
        )
        get = _GETTERS[kind] = attrgetter(*names)
    return get


def _unlike(xs: list[Any], ys: list[Any]) -> tuple[list[Any], list[Any]]:
    """The objects of two lists but those alike (key and attributes) at the same position. Two readings
    of one estate list its 500,000 subscriptions in the same order, so comparing in order, in C, sets
    nearly all aside before any is keyed. The last object of a key counts (``_index``), which an order
    cannot tell when a key is there twice: then, unless every object was set aside (both lists are the
    same), both lists are given back whole; and so are they when a node changed product (the caller)."""
    kinds = set(map(type, xs)) | set(map(type, ys))
    if len(kinds) != 1:
        return xs, ys
    get = _getter(kinds.pop())
    n = min(len(xs), len(ys))
    apart = list(compress(range(n), map(ne, map(get, xs[:n]), map(get, ys[:n]))))
    if not apart and len(xs) == len(ys):
        return [], []
    key = attrgetter("node", "name")
    if len(set(map(key, xs))) != len(xs) or len(set(map(key, ys))) != len(ys):
        return xs, ys
    return [xs[i] for i in apart] + xs[n:], [ys[i] for i in apart] + ys[n:]


def _same(x: Any, y: Any) -> bool:
    """Two objects of a kind with the same attributes (not sequence or source)."""
    return type(x) is type(y) and bool(_getter(type(x))(x) == _getter(type(y))(y))


def _order(a: dict[str, str], b: dict[str, str]) -> Callable[[str], tuple[int, str]]:
    names = list(dict.fromkeys([*a, *b]))
    return lambda name: (names.index(name), name)


def _whole(kind: str, item: tuple[str, str, Any, Dialect], change: str, skip: frozenset[str]) -> ObjectChange:
    node, name, obj, dialect = item
    attrs = _attributes(obj, dialect, skip)
    pairs: Iterable[AttributeChange] = (
        AttributeChange(k, None, v) if change == "added" else AttributeChange(k, v, None)
        for k, v in attrs.items()
    )
    return ObjectChange(kind, node, name, change, tuple(pairs), _source(obj), dialect)
