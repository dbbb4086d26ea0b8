"""Captures of DISPLAY output into the store: definitions into the model, the rest as observations.

The format reads the files and says what their blocks are (``formats.display.files``, ``.edits``): ADMIN
and API subscriptions, topic objects and the queue manager's attributes as edit values (``Define``,
``Alter``), made here through the one edit service (``services.edit``) by the same domain rules as every
other door, an error placed at the capture's block; proxy subscriptions, cluster topics and queue
managers, hierarchy relations, channel and subscription statuses as observations: the capture of a queue
manager replaces its previous one. The caller's one transaction holds it all: any error changes nothing.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from mqctl.domain.errors import InputError
from mqctl.domain.model import Dialect, Subscription
from mqctl.domain.objects.edits import Define, Edit
from mqctl.domain.objects.kinds import rules_for
from mqctl.domain.observed import NodeCapture
from mqctl.domain.suggest import did_you_mean
from mqctl.formats.display import Capture
from mqctl.formats.display.edits import CaptureContent, Origin, ems_content, mq_content
from mqctl.formats.display.ems import is_ems_capture
from mqctl.formats.display.files import read_capture_files
from mqctl.services.edit import edit
from mqctl.store.repository import Store


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

    found = read_capture_files(paths, qmgr=qmgr, at=at, encoding=encoding)
    grouped: dict[str, list[tuple[Capture, datetime]]] = {}
    for capture, when in found.captures:
        grouped.setdefault(capture.qmgr, []).append((capture, when))
    with transaction(store_url) as store:
        results = [_import_node(store, name, parts) for name, parts in sorted(grouped.items())]
    return results, found.skipped_files


def _import_node(store: Store, name: str, parts: list[tuple[Capture, datetime]]) -> DisplayImport:
    ref = store.node(name)
    if any(is_ems_capture(c) for c, _ in parts):
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
    content = mq_content(c for c, _ in parts)
    result = _result(name, parts, content, in_model=ref is not None)
    edits, origins = content.edits()
    if _newer_kept(store, result) or ref is None:
        _check(edits, origins)  # definitions that do not enter the model are still judged
        if not result.kept:
            return result
        left_out = {"subscriptions": len(content.subs), "definitions": len(content.objects)}
        result.not_imported.update({k: v for k, v in left_out.items() if v})
    elif edits:
        edit(store, name, edits, place=lambda index, err: origins[index].place(err))
    _save(store, result, content)
    return result


def _import_ems_node(store: Store, name: str, parts: list[tuple[Capture, datetime]]) -> DisplayImport:
    """An EMS server's tibemsadmin sessions: observations only (``formats.display.edits.ems_content``)."""
    ref = store.node(name)
    for capture, _ in parts:
        if not is_ems_capture(capture) or (ref is not None and ref.dialect is not Dialect.EMS):
            what = "a queue manager in the model" if is_ems_capture(capture) else "an EMS server"
            raise InputError(
                f"is {what}, not the server of this {'session' if is_ems_capture(capture) else 'output'}",
                obj=f"server {name}",
                file=capture.file,
                line=capture.qmgr_at[0],
                column=capture.qmgr_at[1],
            )
    content = ems_content(c for c, _ in parts)
    result = _result(name, parts, content, in_model=ref is not None)
    if not _newer_kept(store, result):
        _save(store, result, content)
    return result


def _result(
    name: str, parts: list[tuple[Capture, datetime]], content: CaptureContent, *, in_model: bool
) -> DisplayImport:
    return DisplayImport(
        name,
        [c.file for c, _ in parts],
        max(when for _, when in parts),
        content.commands,
        in_model,
        subscriptions=content.subscriptions,
        topics=content.topics,
        qmgr_attributes=content.qmgr_attributes,
        observations=content.observed,
        not_read=content.not_read,
        skipped_lines=content.skipped_lines,
    )


def _save(store: Store, result: DisplayImport, content: CaptureContent) -> None:
    """The node's capture replaces its previous one."""
    capture = NodeCapture(
        result.qmgr, result.captured_at, ", ".join(result.files), tuple(result.commands), content.observations
    )
    store.observed.save_capture(capture)


def _newer_kept(store: Store, result: DisplayImport) -> bool:
    """The store keeps a capture of the node taken later than this one: it stays, this one changes
    nothing (captures are kept by their own time, not by the order they are imported in)."""
    kept = store.observed.captured_at(result.qmgr)
    result.kept = kept is None or kept <= result.captured_at
    return not result.kept


def _check(edits: list[Edit], origins: list[Origin]) -> None:
    """The definitions of a capture that do not enter the model, judged by their kind's rules."""
    for one, origin in zip(edits, origins, strict=True):
        if isinstance(one, Define):
            try:
                rules_for(one.kind, Dialect.MQ).check(one.obj, Dialect.MQ)
            except InputError as err:
                raise origin.place(err) from None


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
        for c in store.observed.load_captures(None if qmgr is None else [qmgr])
    ]
    if qmgr is not None and not found and store.node(qmgr) is None:
        # the nearest among the names the filter takes: the model's nodes and the nodes captured
        near = did_you_mean(qmgr, [*store.node_names(), *store.observed.captured_nodes()])
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

    return links_down(store.observed.load_captures(), store.observed.load_channels())
