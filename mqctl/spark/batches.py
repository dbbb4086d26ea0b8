"""What runs on the executors: Arrow batches in, Arrow batches out (``mapInArrow``), no Spark import.

Two steps, both pure functions of a batch and the broadcast ``Payload``:

- ``key_batches``: each *distinct* publication row (the driver groups identical rows first and passes
  how many there were) checked and typed (node known, topic concrete, properties a JSON object of JMS
  values, count and bytes whole numbers) and given its routing key (``mqctl.domain.publications``); a bad
  row gets its reason instead. Within a partition, a properties text, a (publisher, topic) pair and a
  count or bytes text is checked once, however many rows repeat it.
- ``route_batches``: each distinct routing key routed by the domain engine (``routing.route``: the rows
  of ``routing.explain(..., detail=False)`` without the explanation, over a ``RoutingModel`` built once
  per Python worker, per variant: the facts need no warnings, sentences or alternative paths, nor a
  ``Delivery`` per subscription reached) into rows of facts: where it was published,
  deliveries, misses, the links crossed. Facts are appended column by column, a key's
  deliveries (or misses, or links) in one go.

The model is built on first use in a worker and kept for the worker's life (Spark reuses Python workers),
and the garbage collector is frozen over it: a full collection would otherwise walk the millions of
objects of a large estate on every batch.
"""

from __future__ import annotations

import gc
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from itertools import repeat
from typing import Any

import pyarrow as pa

from mqctl.domain.errors import MqctlError
from mqctl.domain.explanation import Failures, Reason, Status, Via
from mqctl.domain.model import Dialect, Topology
from mqctl.domain.publications import parse_properties, routing_key, selector_identifiers, to_publication
from mqctl.domain.routing import RoutingModel, Rows, route
from mqctl.domain.topics import has_wildcards, validate_topic
from mqctl.domain.what_if import CURRENT, Variant, apply_variant
from mqctl.formats import snapshot as snapshot_format
from mqctl.memory import gc_paused

__all__ = ["KEYED_SCHEMA", "ROUTED_SCHEMA", "Keying", "Payload", "key_batches", "route_batches"]

KEYED_SCHEMA = pa.schema(
    [
        ("from", pa.string()),
        ("topic", pa.string()),
        ("properties", pa.string()),
        ("count_text", pa.string()),
        ("bytes_text", pa.string()),
        ("record", pa.string()),
        ("rows", pa.int64()),
        ("bytes_sum", pa.int64()),
        ("key", pa.string()),
        ("count", pa.int64()),
        ("bytes", pa.int64()),
        ("reason", pa.string()),
    ]
)
"""A distinct publication row as given (text) with how many times the log holds it, its routing key,
count and bytes, or the reason it is refused. ``bytes_sum``: the sizes Spark summed over those rows
(``job.routing_keys``: a size of plain digits is summed there, and its ``bytes_text`` left empty)."""

ROUTED_SCHEMA = pa.schema(
    [
        ("variant", pa.string()),
        ("kind", pa.string()),
        ("from", pa.string()),
        ("topic", pa.string()),
        ("key", pa.string()),
        ("subscription", pa.string()),
        ("node", pa.string()),
        ("status", pa.string()),
        ("stored_at", pa.string()),
        ("hops", pa.int32()),
        ("reason", pa.string()),
        ("link_from", pa.string()),
        ("link_to", pa.string()),
        ("via", pa.string()),
        ("messages", pa.int64()),
        ("bytes", pa.int64()),
    ]
)
"""A fact in one variant; ``kind`` says which columns are set. Per routing key (``from``, ``topic``,
``key``; ``messages`` and ``bytes`` the key's totals): ``refused`` (reason: the engine refused the
publication), and with ``per_key`` ``delivery`` (subscription, node, status, stored_at, hops) and
``missed`` (subscription, node, reason). Summed over the keys of one batch (no key columns), as only
totals of them are written: ``link`` (link_from, link_to, via, messages, bytes), ``tally`` (status
``published``, ``delivered``, ``stored`` or ``missed``; node; stored_at; messages), and without
``per_key`` ``delivery`` and ``missed``."""


@dataclass(frozen=True)
class Keying:
    """What checking and keying rows needs: small, broadcast apart from the model, so that the first
    step does not wait for the whole snapshot to reach each worker."""

    dialects: dict[str, Dialect]
    """Each node of the snapshot, with its dialect."""
    relevant: frozenset[str]
    """Property and header names some selector reads: the rest are left out of routing keys."""
    text_values: bool = False
    """The properties column was a map of text: values are typed as ``--prop`` types an untyped one."""

    @classmethod
    def of(cls, topology: Topology, text_values: bool = False) -> Keying:
        return cls(
            {name: node.dialect for name, node in topology.nodes.items()},
            selector_identifiers(topology),
            text_values,
        )


@dataclass
class Payload:
    """What the driver broadcasts for routing: the whole snapshot and the variants.

    It travels as the snapshot's own Parquet tables (``formats.snapshot.pack``), not as pickled
    objects: an estate of 500,000 subscriptions is a few megabytes that way, over 100 MB pickled."""

    topology: Topology
    variants: list[Variant]
    token: str = ""
    """Identifies this payload in a worker's cache of built models."""
    _models: list[tuple[str, RoutingModel, Failures]] | None = field(default=None, repr=False)

    def __getstate__(self) -> dict[str, Any]:
        return {"packed": snapshot_format.pack(self.topology), "variants": self.variants, "token": self.token}

    def __setstate__(self, state: dict[str, Any]) -> None:
        with gc_paused():
            topology = snapshot_format.unpack(state["packed"])
        self.__init__(topology, state["variants"], state["token"])  # type: ignore[misc]

    def models(self) -> list[tuple[str, RoutingModel, Failures]]:
        """(variant name, model, failures), ``current`` first; built on first use, then kept."""
        if self._models is None:
            # built at once and frozen before the collector runs again: the models live as long as the
            # worker, and a collection right after the build would walk all of their objects
            with gc_paused():
                current = RoutingModel(self.topology).prepare()
                built = [(CURRENT, current, Failures())]
                for variant in self.variants:
                    topology, failures = apply_variant(self.topology, variant)
                    # a down: variant keeps the topology: it shares the current model (its indexes and
                    # caches do not depend on failures) instead of building a second one
                    model = current if topology is self.topology else RoutingModel(topology).prepare()
                    built.append((variant.text, model, failures))
                gc.freeze()
            self._models = built
        return self._models


_WORKER_PAYLOADS: dict[str, Payload] = {}
"""Per Python worker: the payloads seen, by token, with their built models."""


def worker_payload(payload: Payload) -> Payload:
    """The worker's own copy of ``payload`` (a broadcast value is unpickled once per worker)."""
    kept = _WORKER_PAYLOADS.get(payload.token)
    if kept is None:
        _WORKER_PAYLOADS.clear()
        _WORKER_PAYLOADS[payload.token] = kept = payload
    return kept


def _whole(text: str | None, default: int, minimum: int, what: str) -> int:
    if text is None or not text.strip():
        return default
    try:
        value = int(float(text)) if "." in text and float(text).is_integer() else int(text)
    except ValueError:
        raise ValueError(f"{what} {text!r} is not a whole number") from None
    if value < minimum:
        raise ValueError(f"{what} {text!r} must be at least {minimum}")
    return value


class _Checks:
    """A publication row's checks, each answer kept: logs repeat publishers, topics, properties and
    sizes. At most ``KEPT`` answers of each kind (properties may hold a message id, unique per row)."""

    KEPT = 65_536

    def __init__(self, keying: Keying) -> None:
        self.keying = keying
        self.publishers: dict[tuple[str | None, str | None], str | None] = {}
        self.properties: dict[str | None, tuple[str | None, str | None]] = {}
        self.numbers: dict[tuple[str | None, int, int, str], tuple[int, str | None]] = {}

    def publisher(self, node_name: str | None, topic: str | None) -> str | None:
        """Why (node, topic) cannot publish, or None."""
        pair = (node_name, topic)
        if pair not in self.publishers:
            self.publishers[pair] = _publisher_reason(self.keying.dialects, node_name, topic)
        return self.publishers[pair]

    def key(self, text: str | None) -> tuple[str | None, str | None]:
        """(routing key, None) of a properties text, or (None, reason)."""
        if text not in self.properties:
            try:
                properties, headers = parse_properties(text, text_values=self.keying.text_values)
                self.properties[text] = (routing_key(properties, headers, self.keying.relevant), None)
            except MqctlError as exc:
                self.properties[text] = (None, exc.one_line())
            except ValueError as exc:
                self.properties[text] = (None, str(exc))
        return self.properties[text]

    def trim(self) -> None:
        """Forget the answers of a kind once there are more than ``KEPT``."""
        for answers in (self.publishers, self.properties, self.numbers):
            if len(answers) > self.KEPT:
                answers.clear()

    def number(self, text: str | None, default: int, minimum: int, what: str) -> tuple[int, str | None]:
        """(value, None) of a count or bytes text, or (0, reason)."""
        memo = (text, default, minimum, what)
        if memo not in self.numbers:
            try:
                self.numbers[memo] = (_whole(text, default, minimum, what), None)
            except ValueError as exc:
                self.numbers[memo] = (0, str(exc))
        return self.numbers[memo]

    def row(
        self,
        record: str | None,
        node_name: str | None,
        topic: str | None,
        count_text: str | None,
        bytes_text: str | None,
        properties: str | None,
    ) -> tuple[str | None, int, int, str | None]:
        """(key, count, bytes, reason) of one publication row; key is None when reason says why not.

        The checks come in the order a user fixes a row: the line, the publisher and topic, the count
        and bytes, the properties."""
        if record is not None:
            return None, 0, 0, "not a JSON object (Spark could not read the line)"
        reason = self.publisher(node_name, topic)
        if reason is not None:
            return None, 0, 0, reason
        count, reason = self.number(count_text, 1, 1, "count")
        if reason is not None:
            return None, 0, 0, reason
        size, reason = self.number(bytes_text, 0, 0, "bytes")
        if reason is not None:
            return None, 0, 0, reason
        key, reason = self.key(properties)
        if reason is not None:
            return None, 0, 0, reason
        return key, count, size, None


def _publisher_reason(dialects: dict[str, Dialect], node_name: str | None, topic: str | None) -> str | None:
    if not node_name:
        return "no publisher (the from column is empty)"
    dialect = dialects.get(node_name)
    if dialect is None:
        return f"no such node {node_name!r} in the snapshot"
    if not topic:
        return "no topic"
    try:
        validate_topic(topic, dialect)
    except MqctlError as exc:
        return exc.one_line()
    if has_wildcards(topic, dialect):
        return f"{topic!r} is a wildcard pattern, not a topic a publisher publishes on"
    return None


def key_batches(batches: Iterator[pa.RecordBatch], keying: Keying) -> Iterator[pa.RecordBatch]:
    """``mapInArrow`` step 1: each distinct publication row keyed, or refused with its reason.

    The checks' answers are kept for the whole partition (a log repeats publishers, topics, properties
    and sizes across batches), and rows are read column by column, not as one dict per row."""
    checks = _Checks(keying)
    for batch in batches:
        checks.trim()
        keys: list[str | None] = []
        counts: list[int] = []
        sizes: list[int] = []
        reasons: list[str | None] = []
        columns = [batch.column(name).to_pylist() for name in _CHECKED]
        for record, node_name, topic, count_text, bytes_text, properties in zip(*columns, strict=True):
            key, count, size, reason = checks.row(
                record, node_name, topic, count_text, bytes_text, properties
            )
            keys.append(key)
            counts.append(count)
            sizes.append(size)
            reasons.append(reason)
        yield pa.RecordBatch.from_arrays(
            [
                *(batch.column(name) for name in ("from", "topic", "properties", "count_text")),
                *(batch.column(name) for name in ("bytes_text", "record", "rows", "bytes_sum")),
                pa.array(keys, pa.string()),
                pa.array(counts, pa.int64()),
                pa.array(sizes, pa.int64()),
                pa.array(reasons, pa.string()),
            ],
            schema=KEYED_SCHEMA,
        )


_CHECKED = ("record", "from", "topic", "count_text", "bytes_text", "properties")
"""The columns a row's checks read, in ``_Checks.row``'s order."""


DeliveryKey = tuple[str, str, str, str, str | None, int]
"""(variant, subscription, node, status, stored_at, hops): a row of the aggregated ``deliveries``."""
MissKey = tuple[str, str, str, str]
"""(variant, subscription, node, reason): a row of the aggregated ``not_delivered``."""


class _Facts:
    """Columns of ROUTED_SCHEMA being filled, several rows at a time, and the batch's sums of links and
    tallies: a publication log crosses the same links and reaches the same nodes key after key, and
    only their totals are written. Unless ``per_key``, deliveries and misses are summed per batch
    too (capacity planning reads totals per subscription, not which key reached it)."""

    def __init__(self, per_key: bool = False) -> None:
        self.per_key = per_key
        self.columns: dict[str, list[Any]] = {f.name: [] for f in ROUTED_SCHEMA}
        self.links: dict[tuple[str, str, str, str], list[int]] = {}
        """(variant, from, to, via) -> [messages, bytes]"""
        self.tallies: dict[tuple[str, str, str, str | None], int] = {}
        """(variant, status, node, stored_at) -> messages"""
        self.deliveries: dict[DeliveryKey, list[int]] = {}
        """Without per_key: (variant, subscription, node, status, stored_at, hops) -> [messages, bytes]"""
        self.misses: dict[MissKey, list[int]] = {}
        """Without per_key: (variant, subscription, node, reason) -> [messages, bytes]"""

    def add(self, rows: int, **values: Any) -> None:
        """``rows`` rows: a list value gives each row its own, any other value is the same in each."""
        if rows == 0:
            return
        for name, column in self.columns.items():
            value = values.get(name)
            column.extend(value if type(value) is list else [value] * rows)

    def link(self, links: Iterable[tuple[str, str, str, str]], messages: int, size: int) -> None:
        """Each of ``links`` (variant, from, to, via) crossed by ``messages`` messages of ``size`` bytes."""
        _sum(self.links, links, messages, size)

    def batch(self) -> pa.RecordBatch:
        for kind, totals in (("delivery", self.deliveries), ("missed", self.misses)):
            if not totals:
                continue
            columns = ("variant", "subscription", "node") + (
                ("status", "stored_at", "hops") if kind == "delivery" else ("reason",)
            )
            values = dict(zip(columns, map(list, zip(*totals, strict=True)), strict=True))
            messages, size = map(list, zip(*totals.values(), strict=True))
            self.add(len(messages), kind=kind, messages=messages, bytes=size, **values)
        if self.links:
            variant, link_from, link_to, via = map(list, zip(*self.links, strict=True))
            messages, size = map(list, zip(*self.links.values(), strict=True))
            self.add(
                len(variant),
                kind="link",
                variant=variant,
                link_from=link_from,
                link_to=link_to,
                via=via,
                messages=messages,
                bytes=size,
            )
        if self.tallies:
            variant, status, node, stored_at = map(list, zip(*self.tallies, strict=True))
            self.add(
                len(variant),
                kind="tally",
                variant=variant,
                status=status,
                node=node,
                stored_at=stored_at,
                messages=list(self.tallies.values()),
            )
        return pa.RecordBatch.from_pydict(self.columns, schema=ROUTED_SCHEMA)

    def tally(self, counts: Iterable[tuple[tuple[str, str, str, str | None], int]], messages: int) -> None:
        """Each (variant, status, node, stored_at), counted ``n`` times, for ``messages * n`` messages."""
        tallies = self.tallies
        for key, n in counts:
            tallies[key] = tallies.get(key, 0) + messages * n


def _sum(totals: dict[Any, list[int]], keys: Iterable[Any], messages: int, size: int) -> None:
    """Each of ``keys`` in ``totals`` gains ``messages`` messages and ``size`` bytes."""
    for key in keys:
        total = totals.get(key)
        if total is None:
            totals[key] = [messages, size]
        else:
            total[0] += messages
            total[1] += size


_TEXT: dict[str, str] = {member: str(member) for kind in (Status, Via, Reason) for member in kind}
"""Each status, via and reason as plain text (``str`` of an enum member makes a new string each time)."""
_DELIVERED, _STORED = _TEXT[Status.DELIVERED], _TEXT[Status.STORED]


def routed_facts(
    facts: _Facts, variant: str, key: tuple[str, str, str], rows: Rows, messages: int, size: int
) -> None:
    """The facts of one routed key: one message per link a publication crosses, however many
    subscriptions it then serves; a stored delivery has crossed the links up to where it is stored."""
    from_node, topic, pkey = key
    facts.tally((((variant, "published", from_node, None), 1),), messages)
    links: dict[tuple[str, str, str, str], None] = {}
    delivered = rows.delivered
    text = _TEXT
    for _, arrival, stored_at in delivered:
        for hop in arrival.hops:
            if hop.from_node == stored_at:
                break  # a stored message waits here: the hops after are the path it will take, not taken
            links[(variant, hop.from_node, hop.to_node, text[hop.via])] = None
    statuses = [_DELIVERED if stored_at is None else _STORED for _, _, stored_at in delivered]
    nodes = [sub.node for sub, _, _ in delivered]
    stored = [stored_at for _, _, stored_at in delivered]
    facts.tally(Counter(zip(repeat(variant), statuses, nodes, stored)).items(), messages)
    subscriptions = [sub.name for sub, _, _ in delivered]
    hops = [len(arrival.hops) for _, arrival, _ in delivered]
    missed = rows.missed
    missed_nodes = [sub.node for sub, _ in missed]
    facts.tally(Counter(zip(repeat(variant), repeat("missed"), missed_nodes, repeat(None))).items(), messages)
    missed_subscriptions = [sub.name for sub, _ in missed]
    reasons = [text[miss.reason] for _, miss in missed]
    facts.link(links, messages, size)
    if not facts.per_key:
        _sum(
            facts.deliveries,
            zip(repeat(variant), subscriptions, nodes, statuses, stored, hops),
            messages,
            size,
        )
        _sum(facts.misses, zip(repeat(variant), missed_subscriptions, missed_nodes, reasons), messages, size)
        return
    common = {
        "variant": variant,
        "from": from_node,
        "topic": topic,
        "key": pkey,
        "messages": messages,
        "bytes": size,
    }
    facts.add(
        len(delivered),
        kind="delivery",
        subscription=subscriptions,
        node=nodes,
        status=statuses,
        stored_at=stored,
        hops=hops,
        **common,
    )
    facts.add(
        len(missed),
        kind="missed",
        subscription=missed_subscriptions,
        node=missed_nodes,
        reason=reasons,
        **common,
    )


FREEZE_EVERY = 256
"""Keys routed between two freezes of what the engine keeps (topic trees, per-topic caches)."""


def _freeze_new() -> None:
    """What the model built since the last freeze joins the frozen generation: a full collection would
    otherwise walk it again and again. Young garbage is collected first (cheap) so as not to keep it."""
    gc.collect(1)
    gc.freeze()


def route_batches(
    batches: Iterator[pa.RecordBatch], payload: Payload, per_key: bool = False
) -> Iterator[pa.RecordBatch]:
    """``mapInArrow`` step 2: each distinct routing key (``from``, ``topic``, ``key``, with its
    ``messages`` and ``bytes`` totals) routed in every variant by the same engine as ``explain``.
    Deliveries and misses come out per key with ``per_key``, else summed over the batch's keys."""
    payload = worker_payload(payload)
    models = payload.models()
    gc.freeze()  # the model's objects live as long as the worker: no collection walks them again
    for batch in batches:
        facts = _Facts(per_key)
        for done, row in enumerate(batch.to_pylist(), 1):
            if done % FREEZE_EVERY == 0:
                _freeze_new()
            key = (row["from"], row["topic"], row["key"])
            publication = to_publication(*key)
            for variant, model, failures in models:
                try:
                    rows = route(model, publication, failures)
                except MqctlError as exc:
                    facts.add(
                        1,
                        variant=variant,
                        kind="refused",
                        reason=exc.one_line(),
                        messages=row["messages"],
                        bytes=row["bytes"],
                        **{"from": key[0], "topic": key[1], "key": key[2]},
                    )
                    break  # refused for what it is, not for a variant: the same in every one
                routed_facts(facts, variant, key, rows, row["messages"], row["bytes"])
        _freeze_new()
        yield facts.batch()
