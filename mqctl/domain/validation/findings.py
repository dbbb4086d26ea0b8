"""A finding: one rule broken by named objects on named nodes, with where the first object came from.

Objects are written as users name them in mqctl commands (``topic SPORT on QM1``, ``route B on A``,
``cluster CL1``), so a finding can be acted on without looking anything up. ``source`` is the file and
line of the first object that came from an imported file (model objects carry ``source_file`` and
``source_line``); the others' sources are kept for SARIF related locations.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from mqctl.domain.model import (
    Channel,
    Namelist,
    Node,
    Route,
    RouteSelector,
    Subscription,
    TopicObject,
)
from mqctl.domain.names import node_label
from mqctl.domain.validation.catalogue import Rule, Severity


@dataclass(frozen=True, slots=True)
class ClusterRef:
    """A cluster named in a finding (the model has no cluster object with a source)."""

    name: str


@dataclass(frozen=True, slots=True)
class FileRef:
    """A file named in a finding that no model object stands for (an import error)."""

    file: str
    line: int | None = None
    column: int | None = None


Subject = (
    Node | TopicObject | Subscription | Route | RouteSelector | Channel | Namelist | ClusterRef | FileRef
)


@dataclass(frozen=True, slots=True)
class Source:
    file: str
    line: int | None
    column: int | None = None
    """Known for an import error (SARIF's ``startColumn``); not in the JSON shape."""

    def to_json(self) -> dict[str, Any]:
        return {"file": self.file, "line": self.line}


@dataclass(frozen=True, slots=True)
class Finding:
    rule: Rule
    message: str
    objects: tuple[str, ...]
    nodes: tuple[str, ...]
    sources: tuple[Source, ...] = ()
    """Every distinct source of the objects, in object order; the first is ``source``."""

    @property
    def severity(self) -> Severity:
        return self.rule.severity

    @property
    def source(self) -> Source | None:
        return self.sources[0] if self.sources else None

    def sort_key(self) -> tuple[int, str, tuple[str, ...], int, str]:
        """Most severe first, then by rule, objects, line and message: the same model gives the same
        order (the errors of one file in file order)."""
        line = self.source.line if self.source is not None and self.source.line is not None else 0
        return (-self.rule.severity.rank, self.rule.id, self.objects, line, self.message)

    def to_json(self) -> dict[str, Any]:
        source = self.source
        return {
            "id": self.rule.id,
            "code": self.rule.code,
            "severity": str(self.rule.severity),
            "message": self.message,
            "objects": list(self.objects),
            "nodes": list(self.nodes),
            "source": source.to_json() if source is not None else None,
        }


def finding(
    rule: Rule,
    message: str,
    subjects: Iterable[Subject],
    *,
    nodes: Iterable[str] = (),
    at: Iterable[Subject] = (),
) -> Finding:
    """Build a finding; its nodes are those given plus the nodes the subjects live on, sorted. ``at``
    are definitions that place it in a file when its subjects came from none (a cluster's finding at its
    members' CLUSRCVR channels): their sources only, after the subjects' own."""
    labels: list[str] = []
    sources: list[Source] = []
    found_nodes = set(nodes)
    for subject in subjects:
        label = label_of(subject)
        if label not in labels:
            labels.append(label)
        source = source_of(subject)
        if source is not None and source not in sources:
            sources.append(source)
        node = node_of(subject)
        if node is not None:
            found_nodes.add(node)
    for anchor in at:
        source = source_of(anchor)
        if source is not None and source not in sources:
            sources.append(source)
    return Finding(rule, message, tuple(labels), tuple(sorted(found_nodes)), tuple(sources))


def label_of(subject: Subject) -> str:
    """How the object is named in ``objects``: the words of the mqctl command that defines it."""
    if isinstance(subject, Node):
        return f"{node_label(subject.dialect)} {subject.name}"
    if isinstance(subject, ClusterRef):
        return f"cluster {subject.name}"
    if isinstance(subject, FileRef):
        return f"file {subject.file}"
    if isinstance(subject, TopicObject):
        return f"topic {subject.name} on {subject.node}"
    if isinstance(subject, Subscription):
        return f"sub {subject.name} on {subject.node}"
    if isinstance(subject, Route):
        return f"route {subject.peer} on {subject.node}"
    if isinstance(subject, RouteSelector):
        return f"route {subject.peer} on {subject.node} {subject.direction}_topic={subject.topic}"
    if isinstance(subject, Channel):
        return f"channel {subject.name} on {subject.node}"
    return f"namelist {subject.name} on {subject.node}"


def source_of(subject: Subject) -> Source | None:
    if isinstance(subject, FileRef):
        return Source(subject.file, subject.line, subject.column)
    if isinstance(subject, ClusterRef) or subject.source_file is None:
        return None
    return Source(subject.source_file, subject.source_line)


def node_of(subject: Subject) -> str | None:
    if isinstance(subject, Node):
        return subject.name
    if isinstance(subject, ClusterRef | FileRef):
        return None
    return subject.node


def summary(findings: Sequence[Finding]) -> dict[str, int]:
    """``{"error": n, "warning": n, "info": n}``: the JSON summary, every severity present."""
    counts = Counter(str(f.severity) for f in findings)
    return {str(s): counts.get(str(s), 0) for s in Severity}


def failing(findings: Sequence[Finding], fail_on: Severity) -> list[Finding]:
    """Findings at or above ``--fail-on``: any of them makes validate exit 1."""
    return [f for f in findings if f.severity.rank >= fail_on.rank]


def listing(items: Iterable[str], limit: int = 5) -> str:
    """'A, B and C'; more than ``limit`` items end with 'and N more' so a message stays one line."""
    names = list(items)
    if len(names) > limit:
        shown, rest = names[:limit], len(names) - limit
        return f"{', '.join(shown)} and {rest} more"
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"
