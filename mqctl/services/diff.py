"""`diff`: what a configuration change does — to the objects, to validate's findings, and to routing.

Each side is read into a whole model: a store URL (read, never created or changed), a snapshot folder
(``manifest.json``), files and folders as ``validate --file`` reads them (built in memory), or a git
revision's files (``git archive`` into a temporary folder: no checkout; their source positions are
given back as the working tree's paths). The domain (``mqctl.domain.diff``) compares the two models,
derives the probes from the change and routes each on both sides with the one engine.
"""

from __future__ import annotations

import dataclasses
import os
import re
import subprocess
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mqctl.domain.diff import ObjectChange, Probe, ProbeSet, RoutingChange, derive, diff_objects, route_diff
from mqctl.domain.diff.routing import CHANGES, RouteStats, by_subscription
from mqctl.domain.errors import InputError, MqctlError, clip
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
    notes: list[str] = field(default_factory=list)
    """What the side's files held and the model leaves out (YAML kinds skipped, ConfigMaps not mounted)."""
    autoconfig: frozenset[str] = frozenset()
    """Queue managers whose definitions came from auto-configuration files (``FileModel.autoconfig``)."""

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
    blamed: dict[tuple[Probe, str, str], int] = field(default_factory=dict)
    """(probe, node, subscription) -> the object change that causes it (``attribution.blame``)."""

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
        """The object change that causes it (``attribution``), else the first the probe was derived from
        that is located in a file, else the first."""
        blamed = self.blamed.get((change.probe, change.node, change.subscription))
        if blamed is not None:
            return self.objects[blamed]
        found = [self.objects[i] for i in self.causes.get(change.probe, ())]
        located = [c for c in found if c.source is not None]
        return located[0] if located else (found[0] if found else None)


# --- the sides -----------------------------------------------------------------------------------------


def read_side(spec: str, *, encoding: str | None = None, role: str = "side") -> Side:
    """One side from what the user wrote; any failure is one ``InputError`` naming the side (``role``,
    BEFORE or AFTER, and what was written: a store URL without its password)."""
    label = spec
    try:
        if spec.startswith("git:"):
            return _git_side(spec.removeprefix("git:"), encoding)
        if "://" in spec:
            from mqctl.store.engine import redact

            label = redact(spec)
            return Side(label, "store", _store_topology(spec))
        path = Path(spec.partition("=")[2] if "=" in spec and not Path(spec).exists() else spec)
        if not path.exists():
            raise InputError(
                "no such file or folder (a side is MQSC or EMS files, a folder of them, a snapshot "
                "folder, a store URL or git:REV:PATH)",
                obj=f"{role} {spec}",
            )
        if path.is_dir() and (path / "manifest.json").is_file():
            from mqctl.services.snapshot import read_topology

            return Side(spec, "snapshot", read_topology(path))
        notes: list[str] = []
        auto: set[str] = set()
        return Side(spec, "files", _files_topology([spec], encoding, notes, auto), notes, frozenset(auto))
    except MqctlError as exc:
        if isinstance(exc, InputError) and (exc.file or exc.obj):
            raise
        raise InputError(f"cannot read this side: {exc.plain_line()}", obj=label) from None


def _store_topology(url: str) -> Topology:
    from mqctl.store.topology import topology_at

    return topology_at(url)


def _files_topology(
    paths: Sequence[str | Path],
    encoding: str | None,
    notes: list[str] | None = None,
    autoconfig: set[str] | None = None,
) -> Topology:
    from mqctl.services.file_model import read_files

    model = read_files(paths, encoding)
    if model.errors:
        raise model.errors[0]
    if notes is not None:
        notes += model.notes
    if autoconfig is not None:
        autoconfig.update(model.autoconfig)
    return model.topology


def _git(args: list[str]) -> subprocess.CompletedProcess[bytes]:
    """``git ARGS``: pathspecs literal (no ``:(magic)``), no pager, no prompt; the caller separates what
    came from the user from the options (``--end-of-options``, ``--``)."""
    try:
        return subprocess.run(
            ["git", "--literal-pathspecs", "--no-pager", *args],
            capture_output=True,
            check=False,
            stdin=subprocess.DEVNULL,
            env={**os.environ, "GIT_TERMINAL_PROMPT": "0"},
        )
    except OSError as exc:
        raise InputError(f"cannot run git: {exc.strerror or exc}", attribute="--git") from None


def _commit(rev: str) -> str:
    """The commit ``rev`` names, checked before anything else sees it: a revision that begins with ``-``
    is a revision here (``--end-of-options``), never an option of git's."""
    if not rev or "\0" in rev or "\n" in rev:
        raise InputError(f"{clip(rev)!r} is not a revision", attribute="--git")
    found = _git(["rev-parse", "--verify", "--quiet", "--end-of-options", f"{rev}^{{commit}}"])
    sha = found.stdout.decode(errors="replace").strip()
    if found.returncode != 0 or not _SHA.fullmatch(sha):
        raise InputError(f"{clip(rev)!r} is not a commit of this repository", attribute="--git")
    return sha


_SHA = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")


def _git_side(spec: str, encoding: str | None) -> Side:
    """``REV:PATH`` read through ``git archive`` (no checkout), PATH relative to the current folder.

    Untrusted (a pull request's CI runs it): REV is resolved to a commit first and handed over after
    ``--end-of-options`` (PATH after it too, a literal pathspec); the tree is unpacked into mqctl's own
    temporary folder only, refusing links that lead out of it; errors name the repository's paths."""
    rev, sep, path = spec.partition(":")
    if not sep or not rev:
        raise InputError(f"{clip(spec)!r} is not REV:PATH (e.g. origin/main:mq/)", attribute="--git")
    path = path.strip() or "."
    top = _git(["rev-parse", "--show-prefix"])
    if top.returncode != 0:
        raise InputError(
            "not inside a git repository (run diff --git from the repository)", attribute="--git"
        )
    prefix = top.stdout.decode(errors="replace").strip()
    sha = _commit(rev)
    archive = _git(["archive", "--format=tar", "--end-of-options", sha, path])
    if archive.returncode != 0:
        first = (archive.stderr.decode(errors="replace").strip().splitlines() or ["git archive failed"])[0]
        raise InputError(f"{clip(rev)}:{path}: {clip(first.removeprefix('fatal: '), 200)}", attribute="--git")
    import io
    import tarfile

    with tempfile.TemporaryDirectory(prefix="mqctl-diff-") as folder:
        root = Path(folder)
        try:
            with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
                _unpack(tar, root)
            base = root / prefix if (root / prefix / path).exists() else root
            auto: set[str] = set()
            notes: list[str] = []
            topology = _files_topology([base / path], encoding, notes, auto)
        except MqctlError as exc:
            raise _in_repository(exc, str(root), prefix) from None
        return Side(
            f"git:{spec}",
            "git",
            _relocated(topology, str(base), path),
            [_in_repository_text(note, str(root), prefix) for note in notes],
            frozenset(auto),
        )


def _unpack(tar: Any, root: Path) -> None:
    """The archive's files under ``root`` by tarfile's ``data`` filter: a symbolic link to an absolute
    path or out of the tree, a device, a path out of ``root`` is refused, naming the member."""
    import tarfile

    try:
        tar.extractall(root, filter="data")
    except tarfile.FilterError as exc:
        member = getattr(exc, "tarinfo", None)
        name = member.name if member is not None else "?"
        what = (
            "a symbolic link that leads outside the tree"
            if member is not None and member.issym()
            else ("a link or path that leads outside the tree, or a special file")
        )
        raise InputError(f"is {what}; not followed", file=name, attribute="--git") from None
    except (tarfile.TarError, OSError) as exc:
        raise InputError(f"cannot unpack git archive's output: {exc}", attribute="--git") from None


def _in_repository_text(text: str, temporary: str, prefix: str) -> str:
    """``text`` naming the repository's paths (``mq/QM1.mqsc``) instead of the temporary folder's, which
    is gone once the side is read."""
    base = temporary + "/" + prefix if prefix else temporary + "/"
    base = base if base.endswith("/") else base + "/"
    return text.replace(base, "").replace(temporary + "/", "").replace(temporary, ".")


def _in_repository(exc: MqctlError, temporary: str, prefix: str) -> MqctlError:
    """``exc`` naming the repository's paths (``_in_repository_text``)."""

    def moved(text: str | None) -> str | None:
        return None if text is None else _in_repository_text(text, temporary, prefix)

    exc.file = moved(exc.file)
    exc.message = moved(exc.message) or ""
    exc.obj = moved(exc.obj)
    return exc


def _relocated(topology: Topology, temporary: str, path: str) -> Topology:
    """Source positions in the temporary folder given back as the working tree's paths (``mq/QM1.mqsc``)."""

    def move(obj: Any) -> Any:
        file = getattr(obj, "source_file", None)
        if file is None or not file.startswith(temporary + "/"):
            return obj
        return dataclasses.replace(obj, source_file=file.removeprefix(temporary + "/"))

    return topology.mapped(move)


def check_same_estate(before: Side, after: Side) -> None:
    """Refuse sides in which one node name is a queue manager on one side and an EMS server on the other
    (``diff`` and ``plan`` compare two versions of one estate)."""
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
    before = read_side(before_spec, encoding=encoding, role="BEFORE")
    after = read_side(after_spec, encoding=encoding, role="AFTER")
    check_same_estate(before, after)
    objects = diff_objects(before.topology, after.topology)
    old = {_finding_key(f): f for f in validate(before.topology)}
    new = {_finding_key(f): f for f in validate(after.topology)}
    from mqctl.domain.diff.refused import refused

    introduced = sorted(
        [*(f for k, f in new.items() if k not in old), *refused(objects, before.topology, after.topology)],
        key=lambda f: f.sort_key(),
    )
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
    from mqctl.domain.diff.attribution import blame

    blamed = blame(before.topology, after.topology, objects, routing, probes.causes)
    return DiffReport(
        before, after, objects, introduced, resolved, routing, probes, probes.causes, stats, blamed
    )
