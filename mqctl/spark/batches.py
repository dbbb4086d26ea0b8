"""What runs on the executors: Arrow batches in, Arrow batches out (``mapInArrow``), no Spark import.

One ``mapInArrow`` (``route_log_rows``), pure functions of a task's rows and the broadcast ``Payload``:

- ``_LogRows``: each *distinct* publication row (the driver groups identical rows first and passes
  how many there were; a key's rows all come to one task: ``job.ROUTED_BY``) checked and typed (node known, topic
  concrete, properties a JSON object of JMS values, count and bytes whole numbers) and given its routing
  key (``mqctl.domain.publications``), the rows of a key merged; a bad row gets its reason instead and
  leaves as a ``rejected`` fact. Within a task, a properties text, a (publisher, topic) pair and a
  count or bytes text is checked once, however many rows repeat it.
- ``route_batches``: each distinct routing key routed by the domain engine and summed as it is decided
  (``routing.tally``: the rows of ``routing.explain(..., detail=False)`` without the explanation, over a
  ``RoutingModel`` built once per Python worker, per variant, added to the task's ``Tally``), then
  the task's totals made facts: publications per publisher, deliveries, misses, the links crossed
  (with ``per_key``, deliveries and misses per key, batch by batch). The rows a publisher and topic's
  keys share are counted once per plan and spread with Arrow when the task is done; only the
  selectors are judged per key.

The model is built on first use in a worker and kept for the worker's life (Spark reuses Python workers),
and the garbage collector is frozen over it: a full collection would otherwise walk the millions of
objects of a large estate on every batch.
"""

from __future__ import annotations

import gc
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import chain, repeat
from operator import itemgetter
from typing import Any

import pyarrow as pa

from mqctl.domain.errors import MqctlError
from mqctl.domain.explanation import Failures, Publication, Reason, Status, Via
from mqctl.domain.model import Dialect, Topology
from mqctl.domain.publications import parse_properties, routing_key, selector_identifiers, to_publication
from mqctl.domain.routing import RoutingModel, Tally, tally
from mqctl.domain.topics import has_wildcards, validate_topic
from mqctl.domain.what_if import CURRENT, Variant, apply_variant
from mqctl.formats import snapshot as snapshot_format
from mqctl.memory import gc_paused
from mqctl.spark.log_rows import GIVEN  # a tuple of names: log_rows imports Spark only in its functions

__all__ = ["KEYS_SCHEMA", "ROUTED_SCHEMA", "Keying", "Payload", "route_batches", "route_log_rows"]

KEYS_SCHEMA = pa.schema(
    [
        ("from", pa.string()),
        ("topic", pa.string()),
        ("key", pa.string()),
        ("messages", pa.int64()),
        ("bytes", pa.int64()),
    ]
)
"""A routing key with its totals over the log, as ``route_batches`` routes it: ``messages`` the
publications (rows times their count), ``bytes`` their sizes (each publication's size times the count)."""
_KEY_TYPES = [f.type for f in KEYS_SCHEMA]

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
        ("properties", pa.string()),
        ("count_text", pa.string()),
        ("bytes_text", pa.string()),
        ("record", pa.string()),
    ]
)
"""A fact in one variant; ``kind`` says which columns are set. Per routing key (``from``, ``topic``,
``key``; ``messages`` and ``bytes`` the key's totals): ``refused`` (reason: the engine refused the
publication), and with ``per_key`` ``delivery`` (subscription, node, status, stored_at, hops) and
``missed`` (subscription, node, reason). Summed over the keys of one batch (no key columns), as only
totals of them are written: ``link`` (link_from, link_to, via, messages, bytes), ``tally`` (status
``published``, ``delivered``, ``stored`` or ``missed``; node; stored_at; messages), and without
``per_key`` ``delivery`` and ``missed``. In no variant: ``rejected``, a distinct log row as given
(``from``, ``topic``, ``properties``, ``count_text``, ``bytes_text``, ``record``: ``log_rows.GIVEN``)
with the reason it is not routed (refused by the checks, or behind a key the engine refused), read
back from the log for ``rejected/`` (``route_log_rows``)."""


@dataclass(frozen=True)
class Keying:
    """What checking and keying rows needs: small, made in the driver (which knows the log's schema)
    and shipped in the routing payload beside the snapshot (``Payload.keying``)."""

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
    packed: dict[str, bytes] | None = field(default=None, repr=False)
    """The topology already packed (a Parquet snapshot's files, ``services.snapshot.Snapshot.packed``):
    shipped as it is instead of packing the model again in the driver."""
    keying: Keying | None = None
    """How the routing stage checks and keys the log's rows (``route_log_rows``): made in the driver,
    which knows the log's schema, and shipped as it is (node names and dialects, the selector-read
    names)."""
    _models: list[tuple[str, RoutingModel, Failures]] | None = field(default=None, repr=False)

    def __getstate__(self) -> dict[str, Any]:
        packed = self.packed if self.packed is not None else snapshot_format.pack(self.topology)
        return {"packed": packed, "variants": self.variants, "token": self.token, "keying": self.keying}

    def __setstate__(self, state: dict[str, Any]) -> None:
        with gc_paused():
            topology = snapshot_format.unpack(state["packed"])
        self.__init__(topology, state["variants"], state["token"], keying=state["keying"])  # type: ignore[misc]

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
    sizes. At most ``KEPT`` answers of properties and of sizes (properties may hold a message id, unique
    per row); every (publisher, topic) answer is kept for the task, as the task keeps a key per row and
    totals per key anyway (forgetting them made a task of 200,000 pairs check each pair twice)."""

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
        """Forget the properties' or the sizes' answers once there are more than ``KEPT``."""
        for answers in (self.properties, self.numbers):
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


class _LogRows:
    """A routing task's distinct log rows (each with how many times the log holds it, ``rows``, and the
    plain sizes Spark summed over them, ``bytes_sum``: ``job.distinct_rows``), checked and keyed: the
    routing keys with their ``messages`` and ``bytes`` totals, and the rows refused with their reason.

    The task holds every row of its (topic, publisher) pairs (``job.ROUTED_BY``), so the rows of a key
    are all here: the key is merged over them and routed once. The checks' answers are kept for the
    whole task (a log repeats publishers, topics, properties and sizes), and rows are read column by
    column, not as one dict per row."""

    def __init__(self, batches: Iterator[pa.RecordBatch], keying: Keying) -> None:
        tables = [pa.Table.from_batches([b]) for b in batches if b.num_rows]
        self.table = pa.concat_tables(tables) if tables else _NO_ROWS.empty_table()
        self.row_keys: list[tuple[str, str, str] | None] = []
        """Per row, its routing key (``from``, ``topic``, ``key``), or None when it is refused."""
        self.totals: dict[tuple[str, str, str], list[int]] = {}
        """Per key: [messages, bytes] summed over its rows."""
        refused: list[int] = []
        reasons: list[str | None] = []
        checks = _Checks(keying)
        columns = [self.table.column(name).to_pylist() for name in (*_CHECKED, "rows", "bytes_sum")]
        for i, (record, node_name, topic, count_text, bytes_text, properties, rows, bytes_sum) in enumerate(
            zip(*columns, strict=True)
        ):
            if i % _TRIM_EVERY == 0:
                checks.trim()
            key, count, size, reason = checks.row(
                record, node_name, topic, count_text, bytes_text, properties
            )
            if reason is not None:
                self.row_keys.append(None)
                refused.append(i)
                reasons.append(reason)
                continue
            routing = (node_name, topic, key or "")  # checked: a publisher, a topic and a key
            self.row_keys.append(routing)
            messages = rows * count
            total = self.totals.get(routing)
            if total is None:
                self.totals[routing] = total = [0, 0]
            total[0] += messages
            total[1] += messages * size + count * bytes_sum
        self.rejected = self._rejected(refused, reasons)
        """The rows refused by the checks, as ``rejected`` facts."""
        self._by_key: dict[tuple[str, str, str], list[int]] | None = None

    def keys(self) -> Iterator[pa.RecordBatch]:
        """The routing keys with their totals, in batches of ``KEYS_PER_BATCH``: the keys of a topic side
        by side (sorted by topic, publisher, key), as the engine keeps a topic's publisher-independent
        work (matching subscriptions, proxies) in its cache for the next key of that topic."""
        ordered = sorted(self.totals, key=_BY_TOPIC)
        for at in range(0, len(ordered), KEYS_PER_BATCH):
            chunk = ordered[at : at + KEYS_PER_BATCH]
            froms, topics, keys = zip(*chunk, strict=True)
            messages, sizes = zip(*map(self.totals.__getitem__, chunk), strict=True)
            yield pa.RecordBatch.from_arrays(
                [
                    pa.array(c, t)
                    for c, t in zip((froms, topics, keys, messages, sizes), _KEY_TYPES, strict=True)
                ],
                schema=KEYS_SCHEMA,
            )

    def behind_refused(self, facts: pa.RecordBatch) -> pa.Table | None:
        """The rows behind the keys ``facts`` says the engine refused, as ``rejected`` facts with the
        engine's reason (one per refusal, as ``rejected/`` has a log row per refusal); None if none."""
        import pyarrow.compute as pc

        refusals = facts.filter(pc.equal(facts.column("kind"), "refused"))
        if not refusals.num_rows:
            return None
        if self._by_key is None:
            self._by_key = {}
            for i, routing in enumerate(self.row_keys):
                if routing is not None:
                    self._by_key.setdefault(routing, []).append(i)
        indices: list[int] = []
        reasons: list[str | None] = []
        for fact in refusals.select(["from", "topic", "key", "reason"]).to_pylist():
            behind = self._by_key.get((fact["from"], fact["topic"], fact["key"]), [])
            indices += behind
            reasons += [fact["reason"]] * len(behind)
        return self._rejected(indices, reasons)

    def _rejected(self, indices: list[int], reasons: list[str | None]) -> pa.Table:
        """Rows ``indices`` of the task's rows as ``rejected`` facts with their ``reasons``."""
        given = self.table.select(list(GIVEN)).take(pa.array(indices, pa.int64()))
        return _rows("rejected", given.append_column("reason", pa.array(reasons, pa.string())))


def route_log_rows(
    batches: Iterator[pa.RecordBatch], payload: Payload, per_key: bool = False
) -> Iterator[pa.RecordBatch]:
    """``mapInArrow``, the routing stage: a task's distinct log rows (``job.distinct_rows``, a key's
    rows all in one task) checked and keyed (``_LogRows``: the payload's ``Keying``), each routing key
    routed once (``route_batches``), and the rows not routed as ``rejected`` facts: those refused by the
    checks, and those behind a key the engine refused."""
    payload = worker_payload(payload)
    if payload.keying is None:
        raise ValueError("the payload has no keying: made without the log's Keying")
    rows = _LogRows(batches, payload.keying)
    yield from rows.rejected.to_batches()
    for facts in route_batches(rows.keys(), payload, per_key):
        yield facts
        refused = rows.behind_refused(facts)
        if refused is not None:
            yield from refused.to_batches()


_CHECKED = ("record", "from", "topic", "count_text", "bytes_text", "properties")
"""The columns a row's checks read, in ``_Checks.row``'s order."""
_TRIM_EVERY = 10_000
"""Rows checked between two trims of the checks' answers (``_Checks.KEPT``)."""
KEYS_PER_BATCH = 10_000
"""Routing keys per batch given to ``route_batches`` (Spark's own Arrow batch size): with ``per_key``
its keys' rows leave batch by batch."""
_BY_TOPIC = itemgetter(1, 0, 2)
_NO_ROWS = pa.schema([*((c, pa.string()) for c in GIVEN), ("rows", pa.int64()), ("bytes_sum", pa.int64())])
"""An empty task's rows."""


_DELIVERY = ("variant", "subscription", "node", "status", "stored_at", "hops")
"""The columns a row of the aggregated ``deliveries`` is summed by."""
_MISSED = ("variant", "subscription", "node", "reason")
"""The columns a row of the aggregated ``not_delivered`` is summed by."""
_LINK = ("variant", "link_from", "link_to", "via")
_KEY = ("from", "topic", "key")
_MEASURES = ("messages", "bytes")
_TYPES = {f.name: f.type for f in ROUTED_SCHEMA}


class _Facts:
    """The facts of a task's keys, summed as the engine decides them (``routing.tally``: a ``Tally``
    per variant, messages and bytes per delivered row, missed row, link and publisher), made Arrow
    tables when the task's last key is routed (``totals``): a publication log crosses the same links and
    reaches the same nodes key after key, and only their totals are written. With ``per_key``, each key
    also keeps its own tally, written with the key's columns batch by batch (``keyed_batch``); links
    and tallies are summed either way."""

    def __init__(self, per_key: bool = False) -> None:
        self.per_key = per_key
        self.refused: dict[str, list[Any]] = {name: [] for name in ("variant", *_KEY, "reason", *_MEASURES)}
        self.tallies: dict[str, Tally] = {}
        """Per variant: the task's keys summed."""
        self.keyed: list[tuple[str, tuple[str, str, str], Tally]] = []
        """With ``per_key``: (variant, key, the key's own tally)."""

    def route(
        self,
        variant: str,
        model: RoutingModel,
        key: tuple[str, str, str],
        publication: Publication,
        failures: Failures,
        messages: int,
        size: int,
    ) -> None:
        """One key routed in one variant, its answer summed (raises what ``routing.tally`` raises)."""
        summed = self.tallies.get(variant)
        if summed is None:
            summed = self.tallies[variant] = Tally()
        if not self.per_key:
            tally(model, publication, failures, summed, messages, size)
            return
        own = Tally()
        tally(model, publication, failures, own, messages, size)
        summed.merge(own)
        self.keyed.append((variant, key, own))

    def keyed_batch(self) -> pa.Table:
        """With ``per_key``: the refused keys, and the deliveries and misses per key, of the keys routed
        since the last call (then forgotten: a task's keys are written batch by batch)."""
        delivered = _table(_columns(self.keyed, "delivered", _DELIVERY[1:], by_key=True))
        missed = _table(_columns(self.keyed, "missed", _MISSED[1:], by_key=True))
        deliveries, misses = _summed(delivered, (*_DELIVERY, *_KEY)), _summed(missed, (*_MISSED, *_KEY))
        self.keyed.clear()
        return pa.concat_tables([self._refused(), _rows("delivery", deliveries), _rows("missed", misses)])

    def totals(self) -> pa.Table:
        """The task's totals in ROUTED_SCHEMA: refused keys not yet given, links crossed and tallies,
        and without ``per_key`` the deliveries and misses summed (a few rows per subscription and link
        for the whole task, not for each batch of keys)."""
        summed: list[_Keyed] = [(variant, None, t) for variant, t in self.tallies.items()]
        deliveries = _summed(_table(_columns(summed, "delivered", _DELIVERY[1:])), _DELIVERY)
        misses = _summed(_table(_columns(summed, "missed", _MISSED[1:])), _MISSED)
        links = _summed(_table(_columns(summed, "links", _LINK[1:])), _LINK)
        parts = [self._refused(), _rows("link", links)]
        if not self.per_key:
            parts += [_rows("delivery", deliveries), _rows("missed", misses)]
        published: dict[str, list[Any]] = {"variant": [], "node": [], "messages": []}
        for variant, _, of_variant in summed:
            published["variant"] += [variant] * len(of_variant.published)
            published["node"] += of_variant.published.keys()
            published["messages"] += of_variant.published.values()
        table = _table(published)
        reached = deliveries.group_by(["variant", "status", "node", "stored_at"], use_threads=False)
        missed = misses.group_by(["variant", "node"], use_threads=False).aggregate([("messages", "sum")])
        parts += [
            _rows("tally", table.append_column("status", pa.repeat("published", table.num_rows))),
            _rows(
                "tally",
                reached.aggregate([("messages", "sum")]).rename_columns(
                    ["variant", "status", "node", "stored_at", "messages"]
                ),
            ),
            _rows(
                "tally",
                missed.rename_columns(["variant", "node", "messages"]).append_column(
                    "status", pa.repeat("missed", missed.num_rows)
                ),
            ),
        ]
        return pa.concat_tables(parts)

    def _refused(self) -> pa.Table:
        """The keys refused since the last call, as ``refused`` facts (then forgotten)."""
        table = _rows("refused", _table(self.refused))
        for values in self.refused.values():
            values.clear()
        return table


_Keyed = tuple[str, tuple[str, str, str] | None, Tally]
"""(variant, the key with ``per_key`` else None, its tally)."""


def _columns(
    keyed: Sequence[_Keyed], part: str, names: tuple[str, ...], by_key: bool = False
) -> dict[str, list[Any]]:
    """One of the tallies' parts (``delivered``, ``missed`` or ``links``: rows of ``names``, then
    messages and bytes) as columns, with the variant, and with ``by_key`` the key's columns;
    statuses, reasons and vias as text (a delivered row's status from its stored_at). A row may come
    more than once (summed, and in runs: ``Tally.runs``): the caller sums by the columns.

    The loop over tallies (one per key with ``--per-key``) only gathers pieces: the rows, the runs'
    sums and each tally's row count; the columns are then made in one pass each with ``chain`` and
    ``repeat`` (C loops), not per tally and column."""
    rows: list[Iterable[tuple[Any, ...]]] = []
    messages: list[Iterable[int]] = []
    sizes: list[Iterable[int]] = []
    counts: list[int] = []
    for _, _, summed in keyed:
        direct, runs = summed.runs(part)
        sums = direct.values()
        rows.append(direct)
        messages.append(map(itemgetter(0), sums))
        sizes.append(map(itemgetter(1), sums))
        n = len(direct)
        for run, m, b in runs:
            rows.append(run)
            messages.append(repeat(m, len(run)))
            sizes.append(repeat(b, len(run)))
            n += len(run)
        counts.append(n)
    out: dict[str, list[Any]] = {"variant": _spread([v for v, _, _ in keyed], counts)}
    if by_key:  # the key's columns even when there is no key (every key of a batch refused)
        for i, name in enumerate(_KEY):
            out[name] = _spread([key[i] if key else None for _, key, _ in keyed], counts)
    plain = [n for n in names if n != "status"]
    flat = list(chain.from_iterable(rows))
    columns = zip(*flat, strict=True) if flat else [()] * len(plain)
    for name, column in zip(plain, columns, strict=True):
        out[name] = list(map(_TEXT.__getitem__, column)) if name in _ENUMERATED else list(column)
    if "status" in names:
        out["status"] = [_DELIVERED if at is None else _STORED for at in out["stored_at"]]
    out["messages"] = list(chain.from_iterable(messages))
    out["bytes"] = list(chain.from_iterable(sizes))
    return out


def _spread(values: list[Any], counts: list[int]) -> list[Any]:
    """Each value repeated its count of times, in order (a tally's variant or key over its rows)."""
    return list(chain.from_iterable(map(repeat, values, counts)))


_ENUMERATED = frozenset({"reason", "via"})
"""Columns of enumeration members, written as their text."""


def _table(columns: dict[str, list[Any]]) -> pa.Table:
    return pa.table({name: pa.array(values, _TYPES[name]) for name, values in columns.items()})


def _summed(table: pa.Table, by: tuple[str, ...], measures: tuple[str, ...] = _MEASURES) -> pa.Table:
    """``measures`` summed per ``by``."""
    summed = table.group_by(list(by), use_threads=False).aggregate([(m, "sum") for m in measures])
    return summed.rename_columns([*by, *measures])


def _rows(kind: str, table: pa.Table) -> pa.Table:
    """``table``'s rows in ROUTED_SCHEMA: ``kind`` set, the columns it lacks null."""
    n = table.num_rows
    columns = []
    for f in ROUTED_SCHEMA:
        if f.name == "kind":
            columns.append(pa.repeat(kind, n))
        elif f.name in table.column_names:
            columns.append(table.column(f.name).cast(f.type))
        else:
            columns.append(pa.nulls(n, f.type))
    return pa.Table.from_arrays(columns, schema=ROUTED_SCHEMA)


_TEXT: dict[str, str] = {member: str(member) for kind in (Status, Via, Reason) for member in kind}
"""Each status, via and reason as plain text (``str`` of an enum member makes a new string each time)."""
_DELIVERED, _STORED = _TEXT[Status.DELIVERED], _TEXT[Status.STORED]


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
    Deliveries and misses come out per key with ``per_key``, batch by batch; else summed over the
    task's keys, with the links and tallies, when the last batch is done (``_Facts.totals``)."""
    payload = worker_payload(payload)
    models = payload.models()
    gc.freeze()  # the model's objects live as long as the worker: no collection walks them again
    facts = _Facts(per_key)
    for batch in batches:
        with gc_paused():  # ``_freeze_new`` collects every FREEZE_EVERY keys: a collection between would
            # only walk what that one walks again (most of what routing makes is kept)
            columns = (batch.column(name).to_pylist() for name in KEYS_SCHEMA.names)
            for done, (from_node, topic, text, messages, size) in enumerate(zip(*columns, strict=True), 1):
                if done % FREEZE_EVERY == 0:
                    _freeze_new()
                key = (from_node, topic, text)
                publication = to_publication(*key)
                for variant, model, failures in models:
                    try:
                        facts.route(variant, model, key, publication, failures, messages, size)
                    except MqctlError as exc:
                        values = (variant, *key, exc.one_line(), messages, size)
                        for name, value in zip(facts.refused, values, strict=True):
                            facts.refused[name].append(value)
                        break  # refused for what it is, not for a variant: the same in every one
            _freeze_new()
            keyed = facts.keyed_batch() if per_key else None
        if keyed is not None:
            yield from keyed.to_batches()
    with gc_paused():
        table = facts.totals()
    yield from table.to_batches()
