"""Read an EMS server from its JSON configuration (``tibemsd.json``, EMS 8.3+), tolerantly.

What is read (other members are ignored; a missing array means none):

- the server name: ``tibemsd.server`` or ``tibemsd.name``, else a top-level ``server`` or ``name``;
- ``topics``: objects with ``name`` and properties; ``true`` is a flag (``"global": true`` ->
  ``global``), ``false``/``null`` is left out, numbers and strings are kept as text;
- ``routes``: objects with ``name`` (the peer), ``url``, ``zone_name``, ``zone_type``, selectors
  either as ``selectors`` / ``topic_selectors`` arrays of ``{"incoming": bool | "direction":
  "incoming"|"outgoing", "topic"|"name": T, "selector": S}`` or as ``incoming_topic``/``outgoing_topic``
  arrays of ``{"topic"|"name": T, "selector": S}``; every other scalar member is kept as a property;
- ``durables``: objects with ``topic_name``/``topic``, ``durable_name``/``name``, ``clientid``,
  ``route``, ``nolocal``, ``selector``.

JSON syntax errors carry line and column; a wrong value names its JSON path (no line: the JSON
decoder does not keep positions of values).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mqctl.domain.errors import InputError, collected, raise_all
from mqctl.domain.model import (
    Dialect,
    Direction,
    Node,
    NodeState,
    Route,
    RouteSelector,
    Subscription,
    TopicObject,
)
from mqctl.domain.objects.edits import Define
from mqctl.formats._checks import check_selector_at
from mqctl.formats.ems.conf import (
    EmsServerConfig,
    read_durables_conf,
    read_routes_conf,
    read_topics_conf,
)
from mqctl.formats.ems.model_edit import check_pattern, check_server, define, sourced, zone_type
from mqctl.formats.text_io import read_text_file

KNOWN_SECTIONS = frozenset(
    {
        "tibemsd",
        "model_version",
        "acls",
        "bridges",
        "channels",
        "durables",
        "factories",
        "groups",
        "queues",
        "routes",
        "stores",
        "tibrvcm",
        "topics",
        "transports",
        "users",
    }
)
"""The top-level members of tibemsd.json (TIBCO EMS, "tibemsd.json" configuration file: one array or
object per kind of definition, ``tibemsd`` for the server's own parameters); any other is ignored by
the server without a word."""

_LONG_NUMBER = re.compile(r"(?<![0-9])[0-9]{4000,}")
_ROUTE_KEYS = frozenset(
    {
        "name",
        "url",
        "zone_name",
        "zone_type",
        "selectors",
        "topic_selectors",
        "incoming_topic",
        "outgoing_topic",
    }
)


def _text(value: Any, where: str, file: str) -> str | None:
    """A scalar member as property text (None: absent or false, "": a flag); arrays and objects are
    refused with their path, never stored as their Python spelling."""
    if value is None or value is False:
        return None
    if value is True:
        return ""
    if isinstance(value, dict | list):
        raise _fail(f"expected a string, number or boolean, found {type(value).__name__}", where, file)
    return str(value)


def _server(name: str, where: str, file: str) -> str:
    try:
        return check_server(name, line=None, column=None, file=file)
    except InputError as err:
        raise _fail(err.message, where, file) from None


def _fail(message: str, path: str, file: str) -> InputError:
    return InputError(message, obj=path, file=file)


def read_json_server(
    path: Path,
    *,
    server: str | None,
    topics: Path | None,
    routes: Path | None,
    durables: Path | None,
    next_seq: Callable[[], int],
    encoding: str | None = None,
) -> EmsServerConfig:
    file = str(path)
    text = read_text_file(path, encoding)
    doc = _load(text, file)
    if not isinstance(doc, dict):
        raise InputError("expected a JSON object at the top", file=file, line=1, column=1)
    head: dict[str, Any] = doc["tibemsd"] if isinstance(doc.get("tibemsd"), dict) else {}
    name = server or head.get("server") or head.get("name") or doc.get("server") or doc.get("name")
    if not isinstance(name, str) or not name:
        raise InputError("no server name: give --server or tibemsd.server in the JSON", file=file)
    check_server(name, line=None, column=None, file=file)
    state = NodeState(node=Node(name=name, dialect=Dialect.EMS))
    config = EmsServerConfig(name=name, state=state, files=[file])
    for key in doc:
        if key not in KNOWN_SECTIONS and not (key in ("server", "name") and not head):
            config.unknown_keys.append((key, _line_of_key(text, key)))
    for key in ("queues", "users", "groups", "acls", "factories", "bridges", "channels", "stores"):
        if doc.get(key):
            count = f"{len(doc[key])} entries" if isinstance(doc[key], list | dict) else "present"
            config.not_modelled.append(f"{key} ({count}, not modelled)")
    errors: list[InputError] = []  # each section and file read, whatever the one before held
    readers = {"topics": read_topics_conf, "routes": read_routes_conf, "durables": read_durables_conf}
    for explicit, key in ((topics, "topics"), (routes, "routes"), (durables, "durables")):
        try:
            if explicit is not None:
                text = read_text_file(explicit, encoding)
                read = readers[key](state, text, file=str(explicit), next_seq=next_seq)
            elif key == "topics":
                _topics(state, _array(doc, key, key, file), file, next_seq, errors)
                continue
            elif key == "routes":
                read = _routes(state, _array(doc, key, key, file), file, next_seq, errors)
            else:
                read = _durables(state, _array(doc, key, key, file), file, next_seq, errors)
            config.peers |= read or set()
        except InputError as err:
            collected(errors, err)
    raise_all(errors)
    return config


def _line_of_key(text: str, key: str) -> int | None:
    """The line of the first ``"key":`` (the JSON decoder keeps no positions of members)."""
    pattern = re.compile(r'"' + re.escape(key) + r'"\s*:')
    for number, line in enumerate(text.splitlines(), start=1):
        if pattern.search(line):
            return number
    return None


def _array(container: dict[str, Any], key: str, where: str, file: str) -> list[Any]:
    """``container[key]`` as a list (missing or null: empty); anything else names its JSON path."""
    value = container.get(key)
    if value is None:
        return []
    if not isinstance(value, list):
        raise _fail(f"expected an array, found {type(value).__name__}", where, file)
    return value


def _load(text: str, file: str) -> Any:
    """The JSON document; its syntax errors, and what ``json`` cannot hold, as positioned input errors."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise InputError(f"not valid JSON: {err.msg}", file=file, line=err.lineno, column=err.colno) from None
    except RecursionError:
        raise InputError("JSON nested too deeply to be a tibemsd.json", file=file, line=1, column=1) from None
    except ValueError:  # Python refuses to convert an integer of thousands of digits
        m = _LONG_NUMBER.search(text)
        at = m.start() if m else 0
        line = text.count("\n", 0, at) + 1
        raise InputError(
            "a number of thousands of digits", file=file, line=line, column=at - text.rfind("\n", 0, at)
        ) from None


def _topics(
    state: NodeState, items: list[Any], file: str, next_seq: Callable[[], int], errors: list[InputError]
) -> None:
    """Each item read, whatever the one before held (its error collected in ``errors``)."""
    for i, item in enumerate(items):
        try:
            _topic(state, i, item, file, next_seq)
        except InputError as err:
            collected(errors, err)


def _topic(state: NodeState, i: int, item: Any, file: str, next_seq: Callable[[], int]) -> None:
    where = f"topics[{i}]"
    if not isinstance(item, dict) or not isinstance(item.get("name"), str):
        raise _fail("expected an object with a string 'name'", where, file)
    name = item["name"]
    _pattern(name, where, file)
    if name in state.topics:
        raise _fail(f"topic {name} is defined twice", where, file)
    props: dict[str, str | None] = {}
    for key, value in item.items():
        text = _text(value, f"{where}.{key}", file)
        if key != "name" and text is not None:
            props[key] = None if text == "" and value is True else text
    topic = sourced(TopicObject(node=state.node.name, name=name, topicstr=name, properties=props), file, None)
    _rule(define, state, Define(topic), next_seq(), where=where, file=file)


def _rule(check: Callable[..., None], *args: object, where: str, file: str) -> None:
    """A domain rule on what one JSON item built; an error names the item's path in the document."""
    try:
        check(*args)
    except InputError as err:
        err.obj = f"{where}: {err.obj}" if err.obj else where
        err.file = file
        raise


def _pattern(topic: Any, where: str, file: str) -> None:
    if not isinstance(topic, str):
        raise _fail("expected a topic name (a string)", where, file)
    try:
        check_pattern(topic, line=0, column=1, file=file)
    except InputError as err:
        err.line = err.column = None
        err.obj = where
        raise


def _selector(text: str, where: str, file: str) -> None:
    """Check a selector: an error names its JSON path and the column inside the selector."""
    try:
        check_selector_at(text, lambda k: (0, k + 1), file=file)
    except InputError as err:
        err.line, err.obj, err.column = None, f"{where} (column {err.column})", None
        raise


def _routes(
    state: NodeState, items: list[Any], file: str, next_seq: Callable[[], int], errors: list[InputError]
) -> set[str]:
    """Each item read, whatever the one before held (its error collected in ``errors``)."""
    peers: set[str] = set()
    for i, item in enumerate(items):
        try:
            _route(state, i, item, file, next_seq, peers)
        except InputError as err:
            collected(errors, err)
    return peers


def _route(
    state: NodeState, i: int, item: Any, file: str, next_seq: Callable[[], int], peers: set[str]
) -> None:
    where = f"routes[{i}]"
    if not isinstance(item, dict) or not isinstance(item.get("name"), str):
        raise _fail("expected an object with a string 'name'", where, file)
    peer = _server(item["name"], f"{where}.name", file)
    if peer in state.routes:
        raise _fail(f"route {peer} is defined twice", where, file)
    url = _text(item.get("url"), f"{where}.url", file)
    route = Route(node=state.node.name, peer=peer, url=url or "", seq=next_seq())
    zone_name = _text(item.get("zone_name"), f"{where}.zone_name", file)
    if zone_name:
        route.zone_name = zone_name
    kind = _text(item.get("zone_type"), f"{where}.zone_type", file)
    if kind:
        try:
            route.zone_type = zone_type(kind, line=0, column=0, file=file)
        except InputError as err:
            raise _fail(err.message, f"{where}.zone_type", file) from None
    for key, value in item.items():
        if key not in _ROUTE_KEYS and not isinstance(value, dict | list):
            text = _text(value, f"{where}.{key}", file)
            if text is not None:
                route.properties[key] = text
    _rule(define, state, Define(sourced(route, file, None)), route.seq, where=where, file=file)
    for path, rs in _selectors(item, route, where, file):  # a later one replaces an earlier one
        _rule(define, state, Define(rs, replace=True), next_seq(), where=path, file=file)
    peers.add(peer)


def _selectors(item: dict[str, Any], route: Route, where: str, file: str) -> list[tuple[str, RouteSelector]]:
    found: list[tuple[Direction, Any, str]] = []
    for key in ("selectors", "topic_selectors"):
        for j, sel in enumerate(_array(item, key, f"{where}.{key}", file)):
            if not isinstance(sel, dict):
                raise _fail("expected an object", f"{where}.{key}[{j}]", file)
            raw = sel.get("direction", "incoming" if sel.get("incoming") else "outgoing")
            try:
                direction = Direction(str(raw).lower())
            except ValueError:
                raise _fail(
                    f"bad direction {raw!r}; expected incoming or outgoing", f"{where}.{key}[{j}]", file
                ) from None
            found.append((direction, sel, f"{where}.{key}[{j}]"))
    for key, direction in (("incoming_topic", Direction.INCOMING), ("outgoing_topic", Direction.OUTGOING)):
        for j, sel in enumerate(_array(item, key, f"{where}.{key}", file)):
            found.append((direction, sel, f"{where}.{key}[{j}]"))
    out: list[tuple[str, RouteSelector]] = []
    for direction, sel, path in found:
        if not isinstance(sel, dict):
            raise _fail("expected an object with 'topic' and 'selector'", path, file)
        topic, text = sel.get("topic", sel.get("name")), sel.get("selector")
        _pattern(topic, path, file)
        if not isinstance(text, str):
            raise _fail("expected a string 'selector'", path, file)
        _selector(text, f"{path}.selector", file)
        rs = RouteSelector(
            node=route.node,
            peer=route.peer,
            direction=direction,
            topic=str(topic),
            selector=text,
        )
        out.append((path, sourced(rs, file, None)))
    return out


def _durables(
    state: NodeState, items: list[Any], file: str, next_seq: Callable[[], int], errors: list[InputError]
) -> set[str]:
    """Each item read, whatever the one before held (its error collected in ``errors``)."""
    peers: set[str] = set()
    for i, item in enumerate(items):
        try:
            _durable(state, i, item, file, next_seq, peers)
        except InputError as err:
            collected(errors, err)
    return peers


def _durable(
    state: NodeState, i: int, item: Any, file: str, next_seq: Callable[[], int], peers: set[str]
) -> None:
    where = f"durables[{i}]"
    if not isinstance(item, dict):
        raise _fail("expected an object", where, file)
    topic = item.get("topic_name", item.get("topic"))
    name = item.get("durable_name", item.get("name"))
    _pattern(topic, where, file)
    if not isinstance(name, str) or not name:
        raise _fail("expected a string 'durable_name'", where, file)
    sub = Subscription(node=state.node.name, name=name, topicstr=str(topic), durable=True)
    if isinstance(item.get("selector"), str) and item["selector"]:
        _selector(item["selector"], f"{where}.selector", file)
        sub.selector = item["selector"]
    for key in ("route", "clientid", "nolocal"):
        text = _text(item.get(key), f"{where}.{key}", file)
        if text is not None:
            sub.properties[key] = None if item.get(key) is True else text
    if name in state.subscriptions:
        raise _fail(f"durable {name} is defined twice", where, file)
    if sub.is_route_durable:
        peers.add(_server(name, f"{where}.durable_name", file))
    _rule(define, state, Define(sourced(sub, file, None)), next_seq(), where=where, file=file)
