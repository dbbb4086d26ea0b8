"""Publications as a log holds them (``from``, ``topic``, ``properties`` as JSON text), typed for routing.

A replay of millions of publications routes each *routing key* once: the publisher, the topic and only the
properties and headers that some selector of the model reads (a subscription's or a route's). Two
publications with the same key get the same answer from the engine, whatever else they carry, because a
selector's verdict depends on the names it reads and nothing else (``Selector.identifiers``).

The key is text (canonical JSON) so that Spark can group on it; ``decode_key`` gives back what the engine
needs. Pure: the Spark job and its tests call these, and so could any other replay.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Any

from mqctl.domain.errors import InputError, clip
from mqctl.domain.explanation import Publication
from mqctl.domain.messages import (
    HEADER_TYPES,
    INTEGRAL_RANGES,
    JmsValue,
    Message,
    parse_header,
    parse_property,
)
from mqctl.domain.model import Topology
from mqctl.domain.selector import compile_selector
from mqctl.domain.valid_text import check_text

__all__ = [
    "decode_key",
    "parse_properties",
    "routing_key",
    "selector_identifiers",
    "to_publication",
]


def selector_identifiers(topology: Topology) -> frozenset[str]:
    """Every property and header name read by a selector of the model (subscriptions, route selectors)."""
    texts = {s.selector for s in topology.subscriptions if s.selector}
    texts |= {rs.selector for rs in topology.route_selectors if rs.selector}
    names: set[str] = set()
    for text in texts:
        names |= compile_selector(text).identifiers
    return frozenset(names)


def _typed(name: str, value: Any, text_values: bool) -> JmsValue:
    """A JSON value as a JMS value: strings are strings (or, for a map of text, typed as ``--prop``
    types an untyped value), booleans booleans, integers int (long beyond), other numbers double."""
    if isinstance(value, str):
        check_text(value, what=f"the value of property {name!r}")
        if text_values:
            return parse_property(f"{name}={value}")[1]
        return JmsValue("string", value)
    if isinstance(value, bool):
        return JmsValue("boolean", value)
    if isinstance(value, int):
        for kind in ("int", "long"):
            lo, hi = INTEGRAL_RANGES[kind]
            if lo <= value <= hi:
                return JmsValue(kind, value)
        raise InputError(f"property {name!r}: {clip(str(value))} is beyond the range of long")
    if isinstance(value, float):
        if math.isinf(value):
            raise InputError(f"property {name!r}: a number beyond the range of double")
        return JmsValue("double", value)
    raise InputError(f"property {name!r}: {type(value).__name__} is not a JMS property value")


def parse_properties(
    text: str | None, *, text_values: bool = False
) -> tuple[dict[str, JmsValue], dict[str, JmsValue]]:
    """(properties, headers) of a publication's ``properties`` column: a JSON object, or empty/None.

    ``NAME:TYPE`` keys type the value as ``--prop NAME:TYPE=VALUE`` does; the six JMS header names
    (``JMSPriority`` ...) set headers as ``--header`` does. Raises ``InputError`` naming the property."""
    if text is None or not text.strip():
        return {}, {}
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise InputError(f"properties {clip(text)!r} are not a JSON object") from None
    if not isinstance(data, dict):
        raise InputError(f"properties {clip(text)!r} are not a JSON object")
    properties: dict[str, JmsValue] = {}
    headers: dict[str, JmsValue] = {}
    for key, value in data.items():
        if value is None:
            continue  # an absent property: a selector reads NULL either way
        if isinstance(value, dict | list):
            raise InputError(f"property {key!r}: a JSON {type(value).__name__} is not a JMS property value")
        if key in HEADER_TYPES:
            name, typed = parse_header(f"{key}={_text(value)}")
            headers[name] = typed
        elif ":" in key:
            name, typed = parse_property(f"{key}={_text(value)}")
            properties[name] = typed
        else:
            properties[parse_property(f"{key}=0")[0]] = _typed(key, value, text_values)
    return properties, headers


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def routing_key(
    properties: Mapping[str, JmsValue], headers: Mapping[str, JmsValue], relevant: Iterable[str]
) -> str:
    """Canonical text of the properties and headers a selector of the model could read."""
    wanted = set(relevant)
    kept = [[n, v.type, v.value] for n, v in sorted(properties.items()) if n in wanted]
    kept += [[n, "header:" + v.type, v.value] for n, v in sorted(headers.items()) if n in wanted]
    return json.dumps(kept, separators=(",", ":"), ensure_ascii=False) if kept else ""


def decode_key(key: str) -> tuple[dict[str, JmsValue], dict[str, JmsValue]]:
    """The (properties, headers) a ``routing_key`` was made of."""
    properties: dict[str, JmsValue] = {}
    headers: dict[str, JmsValue] = {}
    for name, kind, value in json.loads(key) if key else []:
        if kind.startswith("header:"):
            headers[name] = JmsValue(kind.removeprefix("header:"), value)
        else:
            properties[name] = JmsValue(kind, value)
    return properties, headers


def to_publication(from_node: str, topic: str, key: str) -> Publication:
    """The publication the engine routes for a key, with the default headers under the given ones (as
    ``explain`` builds it).

    A replay's keys repeat the same few property texts over many publishers and topics: the decoded
    properties and headers are kept per text (up to ``_CONTENT_CACHE``) and shared, read-only, by the
    publications made from it."""
    content = _contents.get(key)
    if content is None:
        properties, headers = decode_key(key)
        message = Message.create(properties, headers)
        content = (MappingProxyType(properties), MappingProxyType(dict(message.headers)))
        if len(_contents) >= _CONTENT_CACHE:
            _contents.clear()
        _contents[key] = content
    return Publication(from_node, topic, *content)


_CONTENT_CACHE = 4096
_contents: dict[str, tuple[Mapping[str, JmsValue], Mapping[str, JmsValue]]] = {}
