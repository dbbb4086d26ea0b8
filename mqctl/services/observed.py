"""Captures of DISPLAY output into the store: definitions into the model, the rest as observations.

ADMIN and API subscriptions, topic objects (DISPLAY TOPIC) and the queue manager's attributes (DISPLAY
QMGR) become edit values (``Define``, ``Alter``) made through the one edit service (``services.edit``),
by the same domain rules as every other door; an error is placed at the capture's block. Proxy
subscriptions, cluster topics and queue managers, hierarchy relations, channel and subscription
statuses are observations: the capture of a queue manager replaces its previous one. Everything else is
counted by what it is. The caller's one transaction holds it all: any error changes nothing.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import StrEnum
from pathlib import Path
from typing import Any, TypeVar

from mqctl.domain.errors import InputError
from mqctl.domain.model import Dialect, SubScope, Subscription, SubType, TopicObject, WSchema
from mqctl.domain.names import check_ems_server_name, check_mq_name
from mqctl.domain.objects import attributes, topic_objects
from mqctl.domain.objects.edits import Alter, Define, Edit, Kind
from mqctl.domain.objects.kinds import rules_for
from mqctl.domain.objects.text import parse_enum
from mqctl.domain.observed import OBSERVED_KINDS, PROXY, NodeCapture, Observation
from mqctl.domain.suggest import did_you_mean
from mqctl.formats import sniff
from mqctl.formats._located import locate
from mqctl.formats.display import Block, Capture
from mqctl.formats.display import read_captures as read_file_captures
from mqctl.formats.display.ems import DURABLE, ROUTE
from mqctl.formats.text_io import read_text_file
from mqctl.formats.walk import files_under
from mqctl.services.edit import edit
from mqctl.store.observed import captured_at, captured_nodes, load_captures, save_capture
from mqctl.store.repository import Store

E = TypeVar("E", bound=StrEnum)

_NAME_OF = {
    "PROXY": "SUB",
    "TCLUSTER": "TOPIC",
    "CLUSQMGR": "CLUSQMGR",
    "PUBSUB": "QMNAME",
    "CHSTATUS": "CHANNEL",
    "SBSTATUS": "SUB",
    "TPSTATUS": "TOPICSTR",
}


@dataclass
class DisplayImport:
    """What one queue manager's capture (one or more files) brought in."""

    qmgr: str
    files: list[str]
    captured_at: datetime
    commands: list[str]
    in_model: bool
    subscriptions: Counter[str] = field(default_factory=Counter)
    """ADMIN / API subscriptions defined or replaced."""
    topics: int = 0
    qmgr_attributes: int = 0
    observations: Counter[str] = field(default_factory=Counter)
    not_read: Counter[str] = field(default_factory=Counter)
    not_imported: Counter[str] = field(default_factory=Counter)
    """Definitions left out because the queue manager is not in the model."""
    skipped_lines: int = 0
    """Lines outside runmqsc's runs (shell prompts, dspmqver, headings), not read."""
    kept: bool = True
    """False when the store holds a newer capture of the queue manager: this one changed nothing."""

    def to_json(self) -> dict[str, Any]:
        return {
            "qmgr": self.qmgr,
            "files": self.files,
            "captured_at": self.captured_at.isoformat(),
            "commands": self.commands,
            "in_model": self.in_model,
            "subscriptions": dict(sorted(self.subscriptions.items())),
            "topics": self.topics,
            "qmgr_attributes": self.qmgr_attributes,
            "observations": dict(sorted(self.observations.items())),
            "not_read": dict(sorted(self.not_read.items())),
            "not_imported": dict(sorted(self.not_imported.items())),
            "skipped_lines": self.skipped_lines,
            "kept": self.kept,
        }


def _when(capture: Capture, at: datetime | None, path: Path) -> datetime:
    """The output's own time, else ``--at``, else the file's modification time (UTC)."""
    if capture.captured_at is not None:
        return capture.captured_at.astimezone(UTC)
    if at is not None:
        return at if at.tzinfo is not None else at.replace(tzinfo=UTC)
    try:
        return datetime.fromtimestamp(path.stat().st_mtime, UTC)
    except OSError:
        return datetime.now(UTC)


NOT_CAPTURES = frozenset(
    [
        ".md",
        ".rst",
        ".sh",
        ".bash",
        ".ksh",
        ".bat",
        ".cmd",
        ".ps1",
        ".py",
        ".mqsc",
        ".in",
        ".tst",
        ".yaml",
        ".yml",
        ".conf",
        ".ini",
        ".properties",
        ".xml",
        ".html",
        ".pdf",
        ".zip",
        ".gz",
    ]
)
"""Files of a folder that are not captures by their name (scripts, notes, configuration), skipped."""
_NOT_CAPTURE_NAMES = ("README", "LICENSE", "NOTICE", "CHANGELOG", "MAKEFILE")


def _not_a_capture_name(path: Path) -> bool:
    return path.suffix.lower() in NOT_CAPTURES or path.stem.upper() in _NOT_CAPTURE_NAMES


@dataclass
class ReadCaptures:
    """Every capture of the files named, read and checked before the store is touched."""

    captures: list[tuple[Capture, datetime]]
    skipped_files: list[str]
    """Files of the folders named that are not captures by their name (README, scripts, MQSC)."""


def read_captures(
    paths: list[Path], *, qmgr: str | None, at: datetime | None, encoding: str | None = None
) -> ReadCaptures:
    """Every file (and every file of the folders named, but those that are not captures by their name)
    read and checked; a file named is always read."""
    out = []
    files: list[Path] = []
    skipped: list[str] = []
    for path in paths:
        if path.is_dir():
            # files_under: a link out of the folder is refused, never read
            for p in sorted(p for p in files_under(path) if not p.name.startswith(".")):
                if _not_a_capture_name(p):
                    skipped.append(str(p))
                else:
                    files.append(p)
        elif path.is_file():
            files.append(path)
        else:
            raise InputError("no such file or folder", file=str(path))
    for path in files:
        text = read_text_file(path, encoding)
        try:
            captures = read_file_captures(text, file=str(path), qmgr=qmgr)
        except InputError as err:
            err.message += sniff.hint(text, sniff.DISPLAY)  # an MQSC script: runmqsc or import mqsc
            raise
        for capture in captures:
            try:
                if _is_ems(capture):
                    check_ems_server_name(capture.qmgr)
                else:
                    check_mq_name(capture.qmgr, "qmgr")
            except InputError as err:
                line, column = capture.qmgr_at
                raise locate(err, file=capture.file, line=line, column=column) from None
            out.append((capture, _when(capture, at, path)))
    return ReadCaptures(out, skipped)


def import_display(
    store_url: str,
    paths: list[Path],
    *,
    qmgr: str | None = None,
    at: datetime | None = None,
    encoding: str | None = None,
) -> tuple[list[DisplayImport], list[str]]:
    """``mqctl import display``: the captures of ``paths`` read first (a refusal opens no store, so it
    creates none), then grouped by queue manager into the store in one transaction. Returns what each
    queue manager's capture brought and the files skipped by their name."""
    from mqctl.services.store_access import transaction

    found = read_captures(paths, qmgr=qmgr, at=at, encoding=encoding)
    grouped: dict[str, list[tuple[Capture, datetime]]] = {}
    for capture, when in found.captures:
        grouped.setdefault(capture.qmgr, []).append((capture, when))
    with transaction(store_url) as store:
        results = [_import_node(store, name, parts) for name, parts in sorted(grouped.items())]
    return results, found.skipped_files


def _is_ems(capture: Capture) -> bool:
    """A tibemsadmin session (``formats.display.ems``): its blocks are routes and durables."""
    return ROUTE in capture.commands or DURABLE in capture.commands


def _import_node(store: Store, name: str, parts: list[tuple[Capture, datetime]]) -> DisplayImport:
    ref = store.node(name)
    if any(_is_ems(c) for c, _ in parts):
        return _import_ems_node(store, name, parts)
    if ref is not None and ref.dialect is not Dialect.MQ:
        capture = parts[0][0]
        raise InputError(
            "is an EMS server in the model, not a queue manager",
            obj=f"server {name}",
            file=capture.file,
            line=capture.qmgr_at[0],
            column=capture.qmgr_at[1],
        )
    result = DisplayImport(
        name,
        [c.file for c, _ in parts],
        max(when for _, when in parts),
        [],
        ref is not None,
    )
    observations: list[Observation] = []
    taken = _Definitions()
    for capture, _ in parts:
        for kind in capture.commands:
            if kind not in result.commands:
                result.commands.append(kind)
        result.not_read.update(capture.others)
        result.skipped_lines += capture.skipped
        for block in capture.blocks:
            _take(capture, block, result, observations, taken)
    edits, origins = taken.edits()
    if _newer_kept(store, result) or ref is None:
        _check(edits, origins)  # definitions that do not enter the model are still judged
        if not result.kept:
            return result
        result.not_imported.update(
            {k: v for k, v in (("subscriptions", len(taken.subs)), ("definitions", len(taken.objects))) if v}
        )
    elif edits:
        edit(store, name, edits, place=lambda index, err: _placed(err, origins[index]))
    save_capture(
        store,
        NodeCapture(name, result.captured_at, ", ".join(result.files), tuple(result.commands), observations),
    )
    return result


def _import_ems_node(store: Store, name: str, parts: list[tuple[Capture, datetime]]) -> DisplayImport:
    """An EMS server's tibemsadmin session: routes and durables are observations, nothing enters the
    model (``show durables`` lacks the selector and no-local of a static durable: ``durables.conf``,
    read by ``import ems``, stays the definition; docs/observed.md)."""
    ref = store.node(name)
    for capture, _ in parts:
        if not _is_ems(capture) or (ref is not None and ref.dialect is not Dialect.EMS):
            what = "a queue manager in the model" if _is_ems(capture) else "an EMS server"
            raise InputError(
                f"is {what}, not the server of this {'session' if _is_ems(capture) else 'output'}",
                obj=f"server {name}",
                file=capture.file,
                line=capture.qmgr_at[0],
                column=capture.qmgr_at[1],
            )
    result = DisplayImport(name, [c.file for c, _ in parts], max(w for _, w in parts), [], ref is not None)
    observations: list[Observation] = []
    for capture, _ in parts:
        for kind in capture.commands:
            if kind not in result.commands:
                result.commands.append(kind)
        result.not_read.update(capture.others)
        result.skipped_lines += capture.skipped
        routes = {b.attrs["ROUTE"] for b in capture.blocks if b.kind == ROUTE}
        for block in capture.blocks:
            attrs = dict(block.attrs)
            if block.kind == ROUTE:
                key = attrs["ROUTE"]
            else:
                key = f"{attrs['TOPIC']}:{attrs['DURABLE']}"
                # a route's durable is named after the server at the other end of the route
                attrs["ROUTED"] = "YES" if attrs["DURABLE"] in routes else "NO"
            observations.append(Observation(block.kind, key, attrs, block.line))
            result.observations[block.kind] += 1
    if _newer_kept(store, result):
        return result
    save_capture(
        store,
        NodeCapture(name, result.captured_at, ", ".join(result.files), tuple(result.commands), observations),
    )
    return result


def _newer_kept(store: Store, result: DisplayImport) -> bool:
    """The store keeps a capture of the node taken later than this one: it stays, this one changes
    nothing (captures are kept by their own time, not by the order they are imported in)."""
    kept = captured_at(store, result.qmgr)
    result.kept = kept is None or kept <= result.captured_at
    return not result.kept


@dataclass(frozen=True, slots=True)
class _Origin:
    """Where an edit came from: its block, and the keyword an error without one is placed at."""

    file: str
    block: Block
    fallback: str | None = None


@dataclass
class _Definitions:
    """The edits a capture makes, each with its origin: the objects' own definitions (topic objects,
    queue manager attributes) first, as their subscriptions may name them, then the subscriptions."""

    objects: list[tuple[Edit, _Origin]] = field(default_factory=list)
    subs: list[tuple[Edit, _Origin]] = field(default_factory=list)

    def edits(self) -> tuple[list[Edit], list[_Origin]]:
        both = self.objects + self.subs
        return [e for e, _ in both], [o for _, o in both]


def _take(
    capture: Capture,
    block: Block,
    result: DisplayImport,
    observations: list[Observation],
    taken: _Definitions,
) -> None:
    kind, attrs = block.kind, block.attrs
    if kind == "SUB":
        subtype = attrs.get("SUBTYPE", "ADMIN").upper()
        if subtype == PROXY:
            kind = PROXY
        else:
            sub = _subscription(capture, block, subtype)
            taken.subs.append((Define(sub, replace=True, observed=True), _Origin(capture.file, block, "SUB")))
            result.subscriptions[str(sub.subtype)] += 1
            return
    if kind in OBSERVED_KINDS:
        observations.append(Observation(kind, attrs.get(_NAME_OF[kind], ""), attrs, block.line))
        result.observations[kind] += 1
        return
    if kind == "TOPIC":
        if topic_objects.is_system(attrs["TOPIC"]):
            result.not_read["SYSTEM topic objects"] += 1
            return
        taken.objects.append((Define(_topic(capture, block), replace=True), _Origin(capture.file, block)))
        result.topics += 1
        return
    if kind == "QMGR":
        changes = _qmgr_changes(capture, block)
        if changes:
            taken.objects.append((Alter(Kind.NODE, capture.qmgr, changes), _Origin(capture.file, block)))
            result.qmgr_attributes += len(changes)


def _text(attr: attributes.Attribute, block: Block, file: str) -> object:
    """A DISPLAY value as the model holds it: an enumeration's member, a text without MQ's padding."""
    text = block.attrs[attr.keyword]
    enum = attr.enum
    if enum is not None:
        try:
            return parse_enum(enum, text, "", attr.keyword)
        except InputError as err:
            err.obj = None
            line, column = block.at(attr.keyword)
            raise locate(err, file=file, line=line, column=column) from None
    if attr.choices:
        return text.upper()  # PSMODE(enabled): the domain judges the value
    return text if attr.field in ("topicstr", "parent") else text.rstrip(" ")


def _topic(capture: Capture, block: Block) -> TopicObject:
    """A DISPLAY TOPIC block as the object's definition (DEFINE REPLACE: what it does not show is the
    default), its attributes those of the model's one table."""
    topic = TopicObject(node=capture.qmgr, name=block.attrs["TOPIC"], topicstr="")
    for attr in attributes.TOPIC:
        if block.attrs.get(attr.keyword, "") != "":
            setattr(topic, attr.field, _text(attr, block, capture.file))
    return topic


def _qmgr_changes(capture: Capture, block: Block) -> dict[str, object]:
    """A DISPLAY QMGR block's modelled attributes (the model's one table) that it shows a value of."""
    return {
        attr.field: _text(attr, block, capture.file)
        for attr in attributes.NODE
        if block.attrs.get(attr.keyword, "") != ""
    }


def _placed(err: InputError, origin: _Origin) -> InputError:
    """The domain's refusal at the keyword it names in the block, else where the block (or its
    ``fallback`` keyword) stands: positions are the capture file's."""
    block = origin.block
    keyword = (err.attribute or origin.fallback or "").upper()
    if keyword not in block.attrs:
        keyword = origin.fallback or ""
    known = keyword in block.attrs or keyword == origin.fallback
    line, column = block.at(keyword) if known else (block.line, block.column)
    return locate(err, file=origin.file, line=line, column=column)


def _check(edits: list[Edit], origins: list[_Origin]) -> None:
    """The definitions of a capture that do not enter the model, judged by their kind's rules."""
    for one, origin in zip(edits, origins, strict=True):
        if isinstance(one, Define):
            try:
                rules_for(one.kind, Dialect.MQ).check(one.obj, Dialect.MQ)
            except InputError as err:
                raise _placed(err, origin) from None


def _enum(enum: type[E], block: Block, keyword: str, default: E, file: str) -> E:
    text = block.attrs.get(keyword, "")
    if not text or text == default.value:  # the common case, without a lookup
        return default
    text = text.upper()
    try:
        return enum(text)
    except ValueError:
        line, column = block.at(keyword)
        allowed = "|".join(m.value for m in enum)
        raise InputError(
            f"{text!r} is not one of {allowed}", attribute=keyword, file=file, line=line, column=column
        ) from None


def _subscription(capture: Capture, block: Block, subtype: str) -> Subscription:
    """A DISPLAY SUB block (ADMIN or API) as the subscription it shows: TOPICSTR resolved (``Define``'s
    ``observed``), a TOPICOBJ of MQ's predefined objects left out."""
    a = block.attrs
    file = capture.file
    if subtype not in ("ADMIN", "API"):
        line, column = block.at("SUBTYPE")
        raise InputError(
            f"{subtype!r} is not one of ADMIN|API|PROXY",
            attribute="SUBTYPE",
            file=file,
            line=line,
            column=column,
        )
    topicobj = a.get("TOPICOBJ", "")
    if topic_objects.is_system(topicobj):
        topicobj = ""
    return Subscription(
        capture.qmgr,
        a.get("SUB", "") or a.get("SUBID", ""),
        a["TOPICSTR"],
        selector=a.get("SELECTOR") or None,
        durable=a.get("DURABLE", "YES").upper() != "NO",
        subscope=_enum(SubScope, block, "SUBSCOPE", SubScope.ALL, file),
        wschema=_enum(WSchema, block, "WSCHEMA", WSchema.TOPIC, file),
        dest=a.get("DEST", ""),
        destqmgr=a.get("DESTQMGR", ""),
        topicobj=topicobj,
        source_file=file,
        source_line=block.line,
        subtype=SubType.API if subtype == "API" else SubType.ADMIN,
        subid=a.get("SUBID", ""),
    )


# --- display observed --------------------------------------------------------------------------------


def observed(store: Store, qmgr: str | None = None) -> list[dict[str, Any]]:
    """``mqctl display observed``: the captures kept, each with its observations. A queue manager named
    that is neither in the model nor captured is a usage error, as for every display (exit 2)."""
    found = [
        {
            "qmgr": c.node,
            "captured_at": c.captured_at.isoformat(),
            "file": c.file,
            "commands": list(c.commands),
            "observations": [
                {"kind": o.kind, "name": o.name, "line": o.line, "attributes": o.attributes}
                for o in c.observations
            ],
        }
        for c in load_captures(store, None if qmgr is None else [qmgr])
    ]
    if qmgr is not None and not found and store.node(qmgr) is None:
        # the nearest among the names the filter takes: the model's nodes and the nodes captured
        near = did_you_mean(qmgr, [*store.node_names(), *captured_nodes(store)])
        raise InputError(f"no such queue manager {qmgr}{near}", attribute="--qmgr")
    return found


# --- what the model predicts a capture shows ---------------------------------------------------------


def predicted_display(store: Store) -> dict[str, list[Any]]:
    """Per MQ queue manager of the model, the DISPLAY answers of display.mqsc the model predicts
    (``formats.display.DisplayCommand``; lay them out with ``to_runmqsc`` or ``to_json``)."""
    from mqctl.domain.observed import node_views, predict_proxies
    from mqctl.formats.display import predicted_commands

    topology = store.topology()
    proxies = predict_proxies(topology)
    held: dict[str, list[Any]] = {}
    for proxy in proxies.values():
        held.setdefault(proxy.holder, []).append(proxy)
    subs: dict[str, list[Subscription]] = {}
    for sub in topology.subscriptions:
        subs.setdefault(sub.node, []).append(sub)
    return {
        name: predicted_commands(subs.get(name, []), held.get(name, []), view)
        for name, view in node_views(topology).items()
    }


def observed_links_down(store: Store) -> dict[frozenset[str], str]:
    """``explain --observed``: the links the captures show down, each with its observation."""
    from mqctl.domain.observed import links_down
    from mqctl.store.observed import load_channels

    return links_down(load_captures(store), load_channels(store))
