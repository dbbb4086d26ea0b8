"""`diff`: what a configuration change does — to the objects, to validate's findings, and to routing.

Each side is read into a whole model: a store URL (read, never created or changed), a snapshot folder
(``manifest.json``), files and folders as ``validate --file`` reads them (built in memory), or a git
revision's files (``git archive`` into a temporary folder: no checkout; their source positions are
given back as the working tree's paths). The domain (``mqctl.domain.diff``) compares the two models,
derives the probes from the change and routes each on both sides with the one engine.
"""

from __future__ import annotations

import dataclasses
import subprocess
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mqctl.domain.diff import ObjectChange, Probe, ProbeSet, RoutingChange, derive, diff_objects, route_diff
from mqctl.domain.diff.routing import CHANGES, RouteStats, by_subscription
from mqctl.domain.errors import InputError, MqctlError
from mqctl.domain.model import Topology
from mqctl.domain.validation import Finding, validate

DEFAULT_MAX_PROBES = 20000


@dataclass
class Side:
    spec: str
    """As the user gave it (``--git REV:PATH`` spelt ``git:REV:PATH``)."""
    kind: str
    """``store``, ``snapshot``, ``files`` or ``git``."""
    topology: Topology

    def to_json(self) -> dict[str, Any]:
        return {"side": self.spec, "kind": self.kind}


@dataclass
class DiffReport:
    before: Side
    after: Side
    objects: list[ObjectChange]
    introduced: list[Finding]
    resolved: list[Finding]
    routing: list[RoutingChange]
    probes: ProbeSet
    causes: dict[Probe, tuple[int, ...]] = field(default_factory=dict)
    stats: RouteStats = field(default_factory=RouteStats)
    """How many probes went through the engine, were judged from those, or derived from a class
    representative's (``route_diff``)."""

    def subscriptions(self) -> dict[str, int]:
        """How many subscriptions have each kind of change (one may have several kinds)."""
        counts = dict.fromkeys(CHANGES, 0)
        for changes in by_subscription(self.routing).values():
            for kind in {c.change for c in changes}:
                counts[kind] += 1
        return counts

    def to_json(self) -> dict[str, Any]:
        return {
            "before": self.before.to_json(),
            "after": self.after.to_json(),
            "objects": [c.to_json() for c in self.objects],
            "findings": {
                "introduced": [f.to_json() for f in self.introduced],
                "resolved": [f.to_json() for f in self.resolved],
            },
            "routing": [c.to_json() for c in self.routing],
            "probes": {
                "routed": len(self.probes.probes),
                "derived": self.probes.derived,
                "exhaustive": self.probes.exhaustive,
                "how": self.probes.how,
                "engine": self.stats.engine,
                "judged": self.stats.judged,
                "represented": self.stats.represented,
                "classes": self.stats.classes,
                "local": self.stats.local,
            },
            "summary": {
                "objects": len(self.objects),
                "findings_introduced": len(self.introduced),
                "findings_resolved": len(self.resolved),
                "subscriptions": self.subscriptions(),
            },
            "routing_changed": bool(self.routing),
        }

    def cause_of(self, change: RoutingChange) -> ObjectChange | None:
        """The first object change the probe was derived from that is located in a file, else the first."""
        found = [self.objects[i] for i in self.causes.get(change.probe, ())]
        located = [c for c in found if c.source is not None]
        return located[0] if located else (found[0] if found else None)


# --- the sides -----------------------------------------------------------------------------------------


def read_side(spec: str, *, encoding: str | None = None) -> Side:
    """One side from what the user wrote; any failure is one ``InputError`` naming the side (a store
    URL without its password)."""
    label = spec
    try:
        if spec.startswith("git:"):
            return _git_side(spec.removeprefix("git:"), encoding)
        if "://" in spec:
            from mqctl.store.engine import redact

            label = redact(spec)
            return Side(label, "store", _store_topology(spec))
        path = Path(spec.partition("=")[2] if "=" in spec and not Path(spec).exists() else spec)
        if path.is_dir() and (path / "manifest.json").is_file():
            from mqctl.services.snapshot import read_topology

            return Side(spec, "snapshot", read_topology(path))
        return Side(spec, "files", _files_topology([spec], encoding))
    except MqctlError as exc:
        if isinstance(exc, InputError) and (exc.file or exc.obj):
            raise
        raise InputError(f"cannot read this side: {exc.one_line()}", obj=label) from None


def _store_topology(url: str) -> Topology:
    from mqctl.store.topology import topology_at

    return topology_at(url)


def _files_topology(paths: Sequence[str | Path], encoding: str | None) -> Topology:
    from mqctl.services.file_model import read_files

    model = read_files(paths, encoding)
    if model.errors:
        raise model.errors[0]
    return model.topology


def _git(args: list[str]) -> subprocess.CompletedProcess[bytes]:
    try:
        return subprocess.run(["git", *args], capture_output=True, check=False)
    except OSError as exc:
        raise InputError(f"cannot run git: {exc.strerror or exc}", attribute="--git") from None


def _git_side(spec: str, encoding: str | None) -> Side:
    """``REV:PATH`` read through ``git archive`` (no checkout), PATH relative to the current folder."""
    rev, sep, path = spec.partition(":")
    if not sep or not rev:
        raise InputError(f"{spec!r} is not REV:PATH (e.g. origin/main:mq/)", attribute="--git")
    path = path.strip() or "."
    top = _git(["rev-parse", "--show-prefix"])
    if top.returncode != 0:
        raise InputError(
            "not inside a git repository (run diff --git from the repository)", attribute="--git"
        )
    prefix = top.stdout.decode().strip()
    archive = _git(["archive", "--format=tar", rev, "--", path])
    if archive.returncode != 0:
        first = (archive.stderr.decode(errors="replace").strip().splitlines() or ["git archive failed"])[0]
        raise InputError(f"{rev}:{path}: {first.removeprefix('fatal: ')}", attribute="--git")
    import io
    import tarfile

    with tempfile.TemporaryDirectory(prefix="mqctl-diff-") as folder:
        root = Path(folder)
        with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
            tar.extractall(root, filter="data")
        base = root / prefix if (root / prefix / path).exists() else root
        topology = _files_topology([base / path], encoding)
        return Side(f"git:{spec}", "git", _relocated(topology, str(base), path))


def _relocated(topology: Topology, temporary: str, path: str) -> Topology:
    """Source positions in the temporary folder given back as the working tree's paths (``mq/QM1.mqsc``)."""

    def move(obj: Any) -> Any:
        file = getattr(obj, "source_file", None)
        if file is None or not file.startswith(temporary + "/"):
            return obj
        return dataclasses.replace(obj, source_file=file.removeprefix(temporary + "/"))

    return Topology(
        nodes={name: move(n) for name, n in topology.nodes.items()},
        memberships=topology.memberships,
        topics=[move(t) for t in topology.topics],
        subscriptions=[move(s) for s in topology.subscriptions],
        routes=[move(r) for r in topology.routes],
        route_selectors=[move(r) for r in topology.route_selectors],
        channels=[move(c) for c in topology.channels],
        namelists=[move(n) for n in topology.namelists],
    )


def _same_names_same_dialects(before: Side, after: Side) -> None:
    for name, node in before.topology.nodes.items():
        other = after.topology.nodes.get(name)
        if other is not None and other.dialect is not node.dialect:
            raise InputError(
                f"is a {node.dialect} node before and a {other.dialect} node after: the sides are not two "
                "versions of one estate",
                obj=name,
            )


# --- user probes ---------------------------------------------------------------------------------------


def read_publications(path: Path) -> list[Probe]:
    """The Spark job's log (docs/spark.md): Parquet, CSV with a header, or JSON lines; columns ``from``,
    ``topic``, ``properties`` (a JSON object as text, a JSON object, or a Parquet map or struct, read as
    the Spark job reads them). A bad row is one error naming file and row."""
    import json

    from mqctl.domain.publications import parse_properties

    rows, text_values = _rows(path)
    probes: list[Probe] = []
    for number, row in enumerate(rows, start=1):
        publisher, topic = row.get("from"), row.get("topic")
        if not isinstance(publisher, str) or not isinstance(topic, str) or not publisher or not topic:
            raise InputError("needs the columns from and topic, as text", file=str(path), line=number)
        given = row.get("properties")
        if isinstance(given, list):  # a Parquet map: its (key, value) pairs
            given = dict(given)
        if isinstance(given, dict):
            given = json.dumps(given)
        if given is not None and not isinstance(given, str):
            raise InputError("properties are not a JSON object", file=str(path), line=number)
        try:
            props, _headers = parse_properties(given, text_values=text_values)
        except InputError as exc:
            raise InputError(exc.message, file=str(path), line=number) from None
        probes.append(Probe(publisher, topic, tuple(sorted(props.items()))))
    return probes


def _rows(path: Path) -> tuple[list[dict[str, Any]], bool]:
    """The rows, and whether the properties are a map of text (their values typed as ``--prop`` types
    an untyped value, as the Spark job does)."""
    import json

    if not path.is_file():
        raise InputError("no such file", file=str(path), attribute="--publications")
    suffix = path.suffix.lower()
    if suffix == ".parquet":
        import pyarrow as pa
        import pyarrow.parquet as pq

        try:
            table = pq.read_table(path)
        except Exception as exc:  # noqa: BLE001 — pyarrow raises many kinds; all mean a bad file
            raise InputError(f"not a Parquet file: {exc}", file=str(path)) from None
        kind = table.schema.field("properties").type if "properties" in table.schema.names else None
        text_values = (
            kind is not None
            and pa.types.is_map(kind)
            and (pa.types.is_string(kind.item_type) or pa.types.is_large_string(kind.item_type))
        )
        return list(table.to_pylist()), text_values
    try:
        text = path.read_text(encoding="utf-8", errors="strict")
    except UnicodeDecodeError:
        raise InputError("is not UTF-8 text", file=str(path)) from None
    if suffix == ".csv":
        import csv

        return list(csv.DictReader(text.splitlines())), False
    rows = []
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            try:
                row = json.loads(line)
            except ValueError:
                row = None
            if not isinstance(row, dict):
                raise InputError("not a JSON object", file=str(path), line=number)
            rows.append(row)
    return rows, False


# --- the diff ------------------------------------------------------------------------------------------


def _finding_key(f: Finding) -> tuple[str, tuple[str, ...], str]:
    return (f.rule.id, f.objects, f.message)


def run_diff(
    before_spec: str,
    after_spec: str,
    *,
    publications: Path | None = None,
    publishers: Sequence[str] = (),
    topics: Sequence[str] = (),
    max_probes: int = DEFAULT_MAX_PROBES,
    encoding: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> DiffReport:
    if max_probes < 1:
        raise InputError("must be at least 1", attribute="--max-probes")
    extra = read_publications(publications) if publications is not None else []
    before = read_side(before_spec, encoding=encoding)
    after = read_side(after_spec, encoding=encoding)
    _same_names_same_dialects(before, after)
    objects = diff_objects(before.topology, after.topology)
    old = {_finding_key(f): f for f in validate(before.topology)}
    new = {_finding_key(f): f for f in validate(after.topology)}
    introduced = sorted((f for k, f in new.items() if k not in old), key=lambda f: f.sort_key())
    resolved = sorted((f for k, f in old.items() if k not in new), key=lambda f: f.sort_key())
    probes = derive(
        before.topology,
        after.topology,
        objects,
        extra=extra,
        publishers=frozenset(publishers) or None,
        topics=frozenset(topics) or None,
        max_probes=max_probes,
    )
    stats = RouteStats()
    routing = route_diff(before.topology, after.topology, probes.probes, progress=progress, stats=stats)
    if stats.judged or stats.represented:  # the text and Markdown reports say it too, not only -o json
        probes.how += f"; {stats.engine} through the engine, {stats.judged} judged by their selectors"
    if stats.represented:
        probes.how += (
            f", {stats.represented} derived from the representatives of {stats.classes} class(es) of "
            f"publishers alike ({stats.local} routed on their publisher's own subscriptions)"
        )
    return DiffReport(before, after, objects, introduced, resolved, routing, probes, probes.causes, stats)
