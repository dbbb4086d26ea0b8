"""A ``Diagram`` as Graphviz DOT, for ``dot -Tsvg`` and the tools built on it.

Identifiers are plain words (``diagram.identifiers``), so no name needs DOT's quoting rules; labels are
quoted strings in which ``\\`` and ``"`` are escaped and lines end with ``\\n``. A group is a
``subgraph cluster_…`` (Graphviz draws a box around a subgraph whose name starts with ``cluster``).
"""

from __future__ import annotations

from mqctl.render.diagram import Arrow, Box, Diagram, Line, Mark, Shape, identifiers, legend_entries, wrap

_FONT = 'fontname="Helvetica"'
_STYLES = {
    Shape.QMGR: [],
    Shape.SERVER: ["rounded"],
    Shape.SUBSCRIPTION: ["rounded", "dashed"],
    Shape.CLUSTER: ["dashed"],
}
"""Every box is a ``shape=box`` but a cluster's anchor (a circle); the shape of the thing is told by its
style."""
_FILLS = {
    Mark.TOPIC_HOST: ("#e8f0ff", "#3366cc"),
    Mark.PUBLISHER: ("#fff4cc", "#b38f00"),
    Mark.DELIVERED: ("#e6f4ea", "#2e7d32"),
    Mark.STORED: ("#fff3e0", "#ef6c00"),
    Mark.MISSED: ("#f5f5f5", "#9e9e9e"),
    Mark.DOWN: ("#fdecea", "#c62828"),
}
"""Fill and outline per mark; when a box has several, the later one in this order wins."""
_DOWN = "#c62828"


def quote(text: str) -> str:
    """A DOT quoted string (an escString in a label): backslash and double quote escaped."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def label(lines: list[str]) -> str:
    return quote("\n".join(lines)).replace("\n", "\\n")


def write_dot(diagram: Diagram) -> str:
    ids = identifiers(diagram.boxes, "n_")
    group_ids = identifiers((g.key for g in diagram.groups), "cluster_")
    out = [f"// {' '.join(diagram.title.split())}"]
    out.extend(f"// {' '.join(n.split())}" for n in diagram.notes)
    out += [
        "digraph mqctl {",
        f"  graph [rankdir=LR, {_FONT}, label={quote(diagram.title)}, labelloc=t];",
        f"  node [{_FONT}];",
        f"  edge [{_FONT}, fontsize=10];",
    ]
    groups, loose = diagram.grouped()
    for group, boxes in groups:
        out.append(f"  subgraph {group_ids[group.key]} {{")
        out.append(f'    label={quote(group.label)}; style="rounded"; color="#888888";')
        out.extend(f"    {_box(ids, b)}" for b in boxes)
        out.append("  }")
    out.extend(f"  {_box(ids, b)}" for b in loose)
    if diagram.captions:  # the sentences a shape only names by a short word, beside the picture
        out.append("  subgraph cluster_mqctl_notes {")
        out.append(f'    label={quote("Notes")}; style="rounded"; color="#888888";')
        out.extend(
            f"    note_{i} [label={label(wrap(c, 60))}, shape=note];"
            for i, c in enumerate(diagram.captions, 1)
        )
        out.append("  }")
    out.append("  subgraph cluster_mqctl_legend {")
    out.append(f'    label={quote("Legend")}; style="rounded"; color="#888888";')
    for i, entry in enumerate(legend_entries(diagram), start=1):
        box = Box(f"legend_{i}", [entry.text], entry.shape, {entry.mark} if entry.mark else set())
        out.append(f"    {_box({box.key: box.key}, box)}")
    out.append("  }")
    out.extend(f"  {_arrow(ids, a)}" for a in diagram.arrows)
    out.append("}")
    return "\n".join(out) + "\n"


def _box(ids: dict[str, str], box: Box) -> str:
    attrs = [f"label={label(box.lines)}", "shape=circle" if box.shape is Shape.CLUSTER else "shape=box"]
    styles = list(_STYLES[box.shape])
    if Mark.DOWN in box.marks and "dashed" not in styles:
        styles.append("dashed")  # a border broken, not colour alone (the label says DOWN too)
    fills = [_FILLS[m] for m in _FILLS if m in box.marks]
    if fills:
        fill, outline = fills[-1]
        styles.append("filled")
        attrs.append(f'fillcolor="{fill}", color="{outline}"')
    if styles:
        attrs.append(f'style="{",".join(styles)}"')
    if Mark.FULL_REPOSITORY in box.marks:
        attrs.append("penwidth=3")
    if Mark.GATEWAY in box.marks:
        attrs.append("peripheries=2")
    return f"{ids[box.key]} [{', '.join(attrs)}];"


def _arrow(ids: dict[str, str], arrow: Arrow) -> str:
    attrs = []
    if arrow.lines:
        attrs.append(f"label={label(arrow.lines)}")
    if arrow.down:
        attrs.append("style=dashed")  # broken, not colour alone (the label says "down" too)
    elif arrow.line is not Line.SOLID:
        attrs.append(f"style={arrow.line}")
    if not arrow.directed:
        attrs.append("dir=none")
    if arrow.down:
        attrs.append(f'color="{_DOWN}", fontcolor="{_DOWN}"')
    suffix = f" [{', '.join(attrs)}]" if attrs else ""
    return f"{ids[arrow.tail]} -> {ids[arrow.head]}{suffix};"
