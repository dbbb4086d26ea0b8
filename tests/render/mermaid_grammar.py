"""A strict reader of the Mermaid flowchart subset mqctl writes, after Mermaid's flowchart grammar.

It fails on anything Mermaid could read differently from what was meant, and gives back what a
renderer would show, so a test can compare the picture with the model:

- identifiers: Mermaid's ``idString`` accepts many characters, but a keyword (``end``, ``subgraph``,
  ``graph``, ``style``, ``class``, ``click`` ...) or an id starting with ``o``/``x`` right after a link
  (``A---oB`` is a circle-ended edge) changes the meaning; so only ``[A-Za-z_][A-Za-z0-9_]*``, no
  keyword, no leading ``o``/``x``;
- labels: a ``STR`` token, i.e. ``"`` ... ``"`` with no ``"`` inside; ``#`` only as an entity code
  ``#<decimal>;`` or ``#<name>;`` (Mermaid's ``encodeEntities``); no raw ``<``, ``>``, ``/`` but the
  ``<br/>`` line break; no ``|`` (edge text delimiter), ``;`` (statement end) or ``%`` (comments);
- statements: ``flowchart DIR``, ``subgraph ID[STR]`` ... ``end``, node ``ID`` + a shape (``[`` ``]``,
  ``(`` ``)``, ``([`` ``])``, ``((`` ``))``) around a STR, link ``ID LINK[|STR|] ID`` with LINK one of ``-->``,
  ``---``, ``-.->``, ``-.-``, ``classDef``, ``class``, ``linkStyle``, ``%%`` comments.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

KEYWORDS = {
    "end", "subgraph", "graph", "flowchart", "style", "linkstyle", "classdef", "class", "click", "call",
    "href", "direction", "default", "interpolate", "accTitle", "accDescr",
}  # fmt: skip
ID = r"[A-Za-z_][A-Za-z0-9_]*"
STR = r'"[^"]*"'
SHAPES = {"[": "]", "(": ")", "([": "])", "((": "))"}
LINKS = {"-->": (True, False), "---": (False, False), "-.->": (True, True), "-.-": (False, True)}
_NODE = re.compile(rf"^({ID})(\(\[|\(\(|\[|\()({STR})(\]\)|\)\)|\]|\))$")
_EDGE = re.compile(rf"^({ID}) (-->|---|-\.->|-\.-)(?:\|({STR})\|)? ({ID})$")
_SUBGRAPH = re.compile(rf"^subgraph ({ID})\[({STR})\]$")
_ENTITY = re.compile(r"#(\d+|[a-z]+);")
_NAMED = {"quot": '"', "amp": "&", "lt": "<", "gt": ">", "nbsp": "\xa0"}
_FORBIDDEN = set('"#<>/|;%')


class MermaidError(AssertionError):
    pass


@dataclass
class Flowchart:
    direction: str = ""
    nodes: dict[str, list[str]] = field(default_factory=dict)
    """id -> label lines (decoded, as shown)."""
    shapes: dict[str, str] = field(default_factory=dict)
    groups: dict[str, tuple[list[str], list[str]]] = field(default_factory=dict)
    """id -> (label lines, member ids)."""
    edges: list[tuple[str, str, list[str], bool, bool]] = field(default_factory=list)
    """(tail, head, label lines, directed, dotted)."""
    classes: dict[str, list[str]] = field(default_factory=dict)
    link_styles: dict[int, str] = field(default_factory=dict)
    comments: list[str] = field(default_factory=list)
    legend: list[tuple[str, list[str]]] = field(default_factory=list)
    """The "Legend" subgraph every picture carries, set aside from ``nodes``, ``groups`` and ``classes``:
    (the entry's one line, the classes it is drawn with)."""
    notes: list[list[str]] = field(default_factory=list)
    """The "Notes" subgraph's boxes (sentences beside the picture), set aside likewise: their lines."""

    def node_named(self, first_line: str) -> str:
        found = [i for i, lines in self.nodes.items() if lines[0] == first_line]
        assert len(found) == 1, (first_line, found)
        return found[0]


def check_id(ident: str) -> str:
    if not re.fullmatch(ID, ident):
        raise MermaidError(f"identifier {ident!r} is not a plain word")
    if ident.lower() in {k.lower() for k in KEYWORDS}:
        raise MermaidError(f"identifier {ident!r} is a Mermaid keyword")
    if ident[0] in "ox":
        raise MermaidError(f"identifier {ident!r} starts with o/x (a circle/cross edge end)")
    return ident


def decode(token: str) -> list[str]:
    """A STR token -> the label lines Mermaid shows, after checking every character is safe."""
    if not (token.startswith('"') and token.endswith('"')) or '"' in token[1:-1]:
        raise MermaidError(f"not a single double-quoted string: {token}")
    lines = []
    for part in token[1:-1].split("<br/>"):
        bare = _ENTITY.sub("", part)
        bad = sorted(set(bare) & _FORBIDDEN)
        if bad:
            raise MermaidError(f"raw {bad} in label {token}")
        lines.append(_ENTITY.sub(lambda m: _entity(m.group(1), token), part))
    return lines


def _entity(code: str, token: str) -> str:
    if code.isdigit():
        return chr(int(code))
    if code not in _NAMED:
        raise MermaidError(f"unknown entity #{code}; in {token}")
    return _NAMED[code]


def parse(text: str) -> Flowchart:
    chart = Flowchart()
    group: str | None = None
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        try:
            group = _statement(chart, line, group)
        except MermaidError as err:
            raise MermaidError(f"line {number}: {err}: {raw!r}") from None
    if group is not None:
        raise MermaidError(f"subgraph {group} has no end")
    for tail, head, *_ in chart.edges:
        for end in (tail, head):
            if end not in chart.nodes:
                raise MermaidError(f"edge end {end} is not a declared node")
    for name, ids in chart.classes.items():
        for ident in ids:
            if ident not in chart.nodes:
                raise MermaidError(f"class {name} names unknown node {ident}")
    for index in chart.link_styles:
        if index >= len(chart.edges):
            raise MermaidError(f"linkStyle {index} has no link")
    _set_aside(chart)
    return chart


LEGEND_GROUP = "mqctl_legend"
NOTES_GROUP = "mqctl_notes"


def _set_aside(chart: Flowchart) -> None:
    """The legend and the notes are not the picture: moved out of its nodes, groups and classes."""
    if LEGEND_GROUP not in chart.groups:
        raise MermaidError("the picture has no legend")
    for group in (LEGEND_GROUP, NOTES_GROUP):
        label, members = chart.groups.pop(group, ([], []))
        for ident in members:
            if any(ident in (tail, head) for tail, head, *_ in chart.edges):
                raise MermaidError(f"an edge joins {ident} of the {label[0]}")
            lines = chart.nodes.pop(ident)
            chart.shapes.pop(ident)
            classes = [name for name, ids in chart.classes.items() if ident in ids]
            for name in classes:
                chart.classes[name].remove(ident)
            if group == LEGEND_GROUP:
                if len(lines) != 1:
                    raise MermaidError(f"legend entry {ident} has {len(lines)} lines")
                chart.legend.append((lines[0], classes))
            else:
                chart.notes.append(lines)
    chart.classes = {name: ids for name, ids in chart.classes.items() if ids}


def _statement(chart: Flowchart, line: str, group: str | None) -> str | None:
    if not line:
        return group
    if line.startswith("%%"):
        if line.startswith("%%{"):
            raise MermaidError("a directive, not a comment")
        chart.comments.append(line[2:].strip())
        return group
    if not chart.direction:
        m = re.fullmatch(r"flowchart (LR|RL|TB|TD|BT)", line)
        if m is None:
            raise MermaidError("expected the flowchart header first")
        chart.direction = m.group(1)
        return group
    if m := _SUBGRAPH.fullmatch(line):
        if group is not None:
            raise MermaidError("nested subgraph")
        ident = check_id(m.group(1))
        chart.groups[ident] = (decode(m.group(2)), [])
        return ident
    if line == "end":
        if group is None:
            raise MermaidError("end without subgraph")
        return None
    if m := _NODE.fullmatch(line):
        ident = check_id(m.group(1))
        if SHAPES.get(m.group(2)) != m.group(4):
            raise MermaidError("shape opened and closed differently")
        if ident in chart.nodes:
            raise MermaidError(f"node {ident} declared twice")
        chart.nodes[ident] = decode(m.group(3))
        chart.shapes[ident] = m.group(2)
        if group is not None:
            chart.groups[group][1].append(ident)
        return group
    if m := _EDGE.fullmatch(line):
        directed, dotted = LINKS[m.group(2)]
        lines = decode(m.group(3)) if m.group(3) else []
        chart.edges.append((check_id(m.group(1)), check_id(m.group(4)), lines, directed, dotted))
        return group
    if m := re.fullmatch(rf"classDef ({ID}) ([a-z-]+:[^;\s]+(?:,[a-z-]+:[^;]+?)*)", line):
        return group
    if m := re.fullmatch(rf"class ({ID}(?:,{ID})*) ({ID})", line):
        chart.classes.setdefault(m.group(2), []).extend(check_id(i) for i in m.group(1).split(","))
        return group
    if m := re.fullmatch(r"linkStyle (\d+(?:,\d+)*) ([^;]+)", line):
        for index in m.group(1).split(","):
            chart.link_styles[int(index)] = m.group(2)
        return group
    raise MermaidError("not a flowchart statement mqctl writes")
