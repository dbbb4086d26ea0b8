"""The diagram outputs shared by `graph` and `explain`: Mermaid for review tools, DOT for Graphviz."""

from __future__ import annotations

import sys
from enum import StrEnum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mqctl.render.diagram import Diagram


class ExplainOutput(StrEnum):
    table = "table"
    json = "json"
    mermaid = "mermaid"
    dot = "dot"


class GraphOutput(StrEnum):
    mermaid = "mermaid"
    dot = "dot"
    json = "json"


def emit_diagram(diagram: Diagram, output: str) -> None:
    """Write ``diagram`` to stdout as ``mermaid``, ``dot`` or ``json``."""
    if output == "json":
        from mqctl.cli.common import emit_json
        from mqctl.render.diagram import diagram_json

        emit_json(diagram_json(diagram))
        return
    if output == "dot":
        from mqctl.render.dot import write_dot

        sys.stdout.write(write_dot(diagram))
        return
    from mqctl.render.mermaid import write_mermaid

    sys.stdout.write(write_mermaid(diagram))
