"""A drawing as plain data: boxes, arrows and groups with their text, independent of the output format.

The builders (``graph``, ``journey``) say *what* is drawn; the writers (``mermaid``, ``dot``) say how
each format spells it. Keys are the model's own names (a node's name, ``sub:NODE:NAME``); each writer
turns them into identifiers its grammar accepts.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class Shape(StrEnum):
    QMGR = "qmgr"
    """An MQ queue manager: a rectangle."""
    SERVER = "server"
    """An EMS server: a rounded box."""
    SUBSCRIPTION = "subscription"
    """A subscriber: a stadium (pill)."""
    CLUSTER = "cluster"
    """A cluster's anchor inside its group, which the gateways outside it are joined to: a circle."""


class Mark(StrEnum):
    """What a box stands out for; each writer gives every mark one style."""

    FULL_REPOSITORY = "fullrepo"
    GATEWAY = "gateway"
    """A queue manager in several of the drawn clusters, drawn outside them."""
    TOPIC_HOST = "host"
    PUBLISHER = "publisher"
    DELIVERED = "delivered"
    STORED = "stored"
    MISSED = "missed"
    DOWN = "down"


class Line(StrEnum):
    SOLID = "solid"
    DASHED = "dashed"
    DOTTED = "dotted"


@dataclass(slots=True)
class Box:
    key: str
    lines: list[str]
    """The label: the first line names the thing, the others say what matters about it."""
    shape: Shape = Shape.QMGR
    marks: set[Mark] = field(default_factory=set)


@dataclass(slots=True)
class Arrow:
    tail: str
    head: str
    lines: list[str] = field(default_factory=list)
    line: Line = Line.SOLID
    directed: bool = True
    down: bool = False
    """Drawn as broken: the link or the far node is down."""


@dataclass(slots=True)
class Group:
    key: str
    label: str
    members: list[str] = field(default_factory=list)


MARK_MEANINGS = {
    Mark.PUBLISHER: "publisher",
    Mark.FULL_REPOSITORY: "full repository (thick border)",
    Mark.GATEWAY: "gateway: in several clusters (double or dashed thick border)",
    Mark.TOPIC_HOST: "topic host",
    Mark.DELIVERED: "delivered",
    Mark.STORED: "stored for later",
    Mark.MISSED: "not delivered, or reaches no subscriber",
    Mark.DOWN: "DOWN: node down (dashed border)",
}
"""What each mark means, as the legend says it (its box drawn with the mark's style)."""
SHAPE_MEANINGS = {
    Shape.QMGR: "MQ queue manager",
    Shape.SERVER: "EMS server",
    Shape.SUBSCRIPTION: "subscription",
    Shape.CLUSTER: "cluster anchor",
}
BROKEN = "broken line marked down: the link, or the node beyond it, is down"


@dataclass(frozen=True, slots=True)
class LegendEntry:
    """One line of a picture's legend, drawn as a small box in the legend group (with ``mark``'s style,
    or ``shape``), or said of a line kind (``line``)."""

    text: str
    mark: Mark | None = None
    shape: Shape = Shape.QMGR
    line: Line | None = None


@dataclass(slots=True)
class Diagram:
    title: str
    boxes: dict[str, Box] = field(default_factory=dict)
    arrows: list[Arrow] = field(default_factory=list)
    groups: list[Group] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    """Said beside the picture (comments in the text): warnings, what was left out."""
    captions: list[str] = field(default_factory=list)
    """Sentences shown beside the picture (a "notes" group of plain boxes, and comments): what a shape
    only names by a short word or code, said in full."""
    line_meanings: dict[Line, str] = field(default_factory=dict)
    """What each kind of line drawn means in this picture (the legend says it)."""
    _drawn: dict[tuple[object, ...], Arrow] = field(default_factory=dict, repr=False)

    def box(self, key: str, first_line: str, shape: Shape = Shape.QMGR) -> Box:
        """The box ``key``, made with its first line on first use."""
        found = self.boxes.get(key)
        if found is None:
            found = self.boxes[key] = Box(key, [first_line], shape)
        return found

    def arrow(self, arrow: Arrow) -> Arrow:
        """Add ``arrow`` unless the same one (ends, text, kind) is drawn already; return the drawn one."""
        key = (arrow.tail, arrow.head, tuple(arrow.lines), arrow.line, arrow.directed)
        drawn = self._drawn.get(key)
        if drawn is not None:
            drawn.down = drawn.down or arrow.down
            return drawn
        self._drawn[key] = arrow
        self.arrows.append(arrow)
        return arrow

    def grouped(self) -> tuple[list[tuple[Group, list[Box]]], list[Box]]:
        """Groups with their boxes (those drawn), and the boxes in no group, each in a stable order."""
        placed: set[str] = set()
        out: list[tuple[Group, list[Box]]] = []
        for group in self.groups:
            boxes = [self.boxes[k] for k in group.members if k in self.boxes and k not in placed]
            placed.update(b.key for b in boxes)
            if boxes:
                out.append((group, boxes))
        loose = [b for k, b in self.boxes.items() if k not in placed]
        return out, loose


def legend_entries(diagram: Diagram) -> list[LegendEntry]:
    """The legend every picture carries: the shapes and marks it draws, the kinds of line it draws with
    what they mean, and broken lines when something is down."""
    out = [
        LegendEntry(SHAPE_MEANINGS[shape], shape=shape)
        for shape in Shape
        if any(b.shape is shape for b in diagram.boxes.values())
    ]
    marks = {m for b in diagram.boxes.values() for m in b.marks}
    out += [LegendEntry(text, mark=mark) for mark, text in MARK_MEANINGS.items() if mark in marks]
    drawn = {a.line for a in diagram.arrows}
    out += [
        LegendEntry(f"{line} line: {text}", line=line)
        for line, text in diagram.line_meanings.items()
        if line in drawn
    ]
    if any(a.down for a in diagram.arrows):
        out.append(LegendEntry(BROKEN, line=Line.DASHED))
    return out


def wrap(text: str, width: int = 48) -> list[str]:
    """Split a sentence into lines of at most ``width`` characters (a longer word stays whole)."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        if current and len(current) + 1 + len(word) > width:
            lines.append(current)
            current = word
        else:
            current = f"{current} {word}" if current else word
    if current:
        lines.append(current)
    return lines


_ID_CHAR = re.compile(r"[^A-Za-z0-9_]")


def identifiers(keys: Iterable[str], prefix: str) -> dict[str, str]:
    """A plain identifier per key (``prefix`` + the key with every other character as ``_``), unique.

    Both Mermaid and DOT accept ``[A-Za-z_][A-Za-z0-9_]*`` unquoted; the prefix keeps an identifier from
    being a keyword (Mermaid's ``end``, DOT's ``node``) or starting with Mermaid's ``o``/``x`` edge ends.
    """
    out: dict[str, str] = {}
    taken: set[str] = set()
    for key in keys:
        base = prefix + _ID_CHAR.sub("_", key)
        ident, n = base, 1
        while ident in taken:
            n += 1
            ident = f"{base}_{n}"
        taken.add(ident)
        out[key] = ident
    return out


def diagram_json(diagram: Diagram) -> dict[str, Any]:
    """The documented JSON shape of a picture (docs/cli.md, ``mqctl graph -o json``)."""
    return {
        "title": diagram.title,
        "groups": [{"key": g.key, "label": g.label, "members": list(g.members)} for g in diagram.groups],
        "boxes": [
            {
                "key": b.key,
                "lines": list(b.lines),
                "shape": str(b.shape),
                "marks": sorted(str(m) for m in b.marks),
            }
            for b in diagram.boxes.values()
        ],
        "arrows": [
            {
                "from": a.tail,
                "to": a.head,
                "lines": list(a.lines),
                "line": str(a.line),
                "directed": a.directed,
                "down": a.down,
            }
            for a in diagram.arrows
        ],
        "notes": list(diagram.notes),
        "captions": list(diagram.captions),
        "legend": [
            {"text": e.text, "mark": str(e.mark) if e.mark else None, "line": str(e.line) if e.line else None}
            for e in legend_entries(diagram)
        ],
    }
