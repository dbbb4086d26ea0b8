"""What the file doors share (``runmqsc``, ``import_mqsc``, ``tibemsadmin``, ``import_ems``, ``kube``):
the node a script goes to, created on demand, and what one script did to it.

A format edits a ``NodeState`` in memory (``mqctl.formats``); each door loads it, lets the format work,
creates what the files reference (clusters, hierarchy parents, route peers) and writes the difference
back (``services.edit.run_script``), all inside the caller's one transaction.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from mqctl.domain.errors import InputError
from mqctl.domain.model import Dialect, Node
from mqctl.domain.names import node_label
from mqctl.domain.objects import nodes
from mqctl.formats.script_run import ScriptRun
from mqctl.services.edit import create_node
from mqctl.store.repository import NodeRef, Store


@dataclass
class FileResult:
    """One script applied to one node: where it came from, and what the format's run reported."""

    file: str
    node: str
    run: ScriptRun = field(default_factory=ScriptRun)


def ensure_node(store: Store, name: str, dialect: Dialect, create: bool) -> NodeRef:
    """The node a script applies to; one that does not exist is created with ``create`` (``--create``,
    or an import), refused otherwise. A node of the other product is refused."""
    ref = store.node(name)
    if ref is None:
        if not create:
            raise InputError(
                f"does not exist (define it with `mqctl define qmgr {name}"
                f"{' --dialect ems' if dialect is Dialect.EMS else ''}` or use --create)",
                obj=f"{node_label(dialect)} {name}",
            )
        return create_node(store, Node(name, dialect))
    nodes.check_node_dialect(name, ref.dialect, dialect)
    return ref
