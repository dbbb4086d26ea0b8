"""A ``Diagram`` as a Mermaid flowchart, the kind code-review tools render inside markdown.

Mermaid's flowchart grammar decides the spelling: identifiers are plain words (``diagram.identifiers``);
every label is a double-quoted string, inside which a character other than letters, digits and a few
harmless signs is written as an entity code ``#<decimal>;`` (so ``"``, ``#``, ``/``, ``>``, ``<``, ``|``,
``%`` and ``;`` can never end a string, start a comment or open a shape); label lines are joined with
``<br/>``. Marks become ``classDef`` styles; a link down is drawn broken (Mermaid's dotted link) with a
red ``linkStyle`` and the word "down" in its label. Every chart ends with a "Legend" subgraph (one box
per shape, mark and kind of line drawn) and, when the builder has sentences to say beside the picture, a
"Notes" subgraph of plain boxes.
"""

from __future__ import annotations

import re
import string

from mqctl.render.diagram import Arrow, Box, Diagram, Line, Mark, Shape, identifiers, legend_entries, wrap
from mqctl.render.safe_text import safe

_SAFE = frozenset(string.ascii_letters + string.digits + " ._-:,=()*+!?@$'~[]{}^")
_SHAPES = {
    Shape.QMGR: ("[", "]"),
    Shape.SERVER: ("(", ")"),
    Shape.SUBSCRIPTION: ("([", "])"),
    Shape.CLUSTER: ("((", "))"),
}
_STYLES = {
    Mark.FULL_REPOSITORY: "stroke-width:3px",
    Mark.GATEWAY: "stroke-width:3px,stroke-dasharray:6 3",
    Mark.TOPIC_HOST: "fill:#e8f0ff,stroke:#3366cc",
    Mark.PUBLISHER: "fill:#fff4cc,stroke:#b38f00",
    Mark.DELIVERED: "fill:#e6f4ea,stroke:#2e7d32",
    Mark.STORED: "fill:#fff3e0,stroke:#ef6c00",
    Mark.MISSED: "fill:#f5f5f5,stroke:#9e9e9e,color:#616161",
    Mark.DOWN: "fill:#fdecea,stroke:#c62828,stroke-dasharray:5 5",
}
_DOWN_LINK = "stroke:#c62828,stroke-width:2px,stroke-dasharray:5 5"
_LINKS = {(True, False): "-->", (True, True): "-.->", (False, False): "---", (False, True): "-.-"}
"""(directed, dotted) -> Mermaid link; Mermaid has one broken line style, the dotted one."""
LINE_BREAK = "<br/>"


_UNSAFE = re.compile("[^" + re.escape("".join(sorted(_SAFE))) + "]")
"""A character outside ``_SAFE``: one regular-expression pass finds them (a diagram of an estate has
hundreds of thousands of label characters, nearly all safe)."""


def _code(found: re.Match[str]) -> str:
    c = found.group()
    return c if c.isalnum() and not c.isascii() else f"#{ord(c)};"


def escape(text: str) -> str:
    """One label line as Mermaid string content: anything but safe characters (and letters and digits
    beyond ASCII) as ``#<code>;``."""
    return _UNSAFE.sub(_code, text)


def label(lines: list[str]) -> str:
    return '"' + LINE_BREAK.join(escape(line) for line in lines) + '"'


def _comment(text: str) -> str:
    return "%% " + " ".join(safe(text).split())


LEGEND = "Legend"
NOTES = "Notes"


def write_mermaid(diagram: Diagram) -> str:
    ids = identifiers(diagram.boxes, "n_")
    group_ids = identifiers((g.key for g in diagram.groups), "g_")
    out = [
        _comment(diagram.title),
        *(_comment(n) for n in diagram.notes),
        *(_comment(c) for c in diagram.captions),
        "flowchart LR",
    ]
    groups, loose = diagram.grouped()
    for group, boxes in groups:
        out.append(f"  subgraph {group_ids[group.key]}[{label([group.label])}]")
        out.extend(f"    {_box(ids, b)}" for b in boxes)
        out.append("  end")
    out.extend(f"  {_box(ids, b)}" for b in loose)
    if diagram.captions:  # the sentences a shape only names by a short word, beside the picture
        out.append(f"  subgraph mqctl_notes[{label([NOTES])}]")
        out.extend(
            f"    note_{i}[{label(wrap(caption, 60))}]" for i, caption in enumerate(diagram.captions, start=1)
        )
        out.append("  end")
    legend = legend_entries(diagram)
    out.append(f"  subgraph mqctl_legend[{label([LEGEND])}]")
    for i, entry in enumerate(legend, start=1):
        opening, closing = _SHAPES[entry.shape]
        out.append(f"    legend_{i}{opening}{label([entry.text])}{closing}")
    out.append("  end")
    broken: list[str] = []
    for index, arrow in enumerate(diagram.arrows):
        out.append(f"  {_arrow(ids, arrow)}")
        if arrow.down:
            broken.append(str(index))
    if broken:
        out.append(f"  linkStyle {','.join(broken)} {_DOWN_LINK}")
    for mark, style in _STYLES.items():
        marked = [ids[k] for k, b in diagram.boxes.items() if mark in b.marks]
        marked += [f"legend_{i}" for i, e in enumerate(legend, start=1) if e.mark is mark]
        if marked:
            out.append(f"  classDef {mark} {style}")
            out.append(f"  class {','.join(marked)} {mark}")
    return "\n".join(out) + "\n"


def _box(ids: dict[str, str], box: Box) -> str:
    opening, closing = _SHAPES[box.shape]
    return f"{ids[box.key]}{opening}{label(box.lines)}{closing}"


def _arrow(ids: dict[str, str], arrow: Arrow) -> str:
    link = _LINKS[
        (arrow.directed, arrow.line is not Line.SOLID or arrow.down)
    ]  # down: broken, not colour alone
    text = f"|{label(arrow.lines)}|" if arrow.lines else ""
    return f"{ids[arrow.tail]} {link}{text} {ids[arrow.head]}"
