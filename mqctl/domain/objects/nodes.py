"""Queue managers and EMS servers: what MQ's ALTER QMGR and an EMS server's identity allow.

A node is deleted with everything defined on it only when asked (``--cascade``): MQ's ``dltmqm`` and
EMS need the broker stopped, and mqctl refuses while it holds objects, has hierarchy children or is the
peer of routes (``check_delete``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from mqctl.domain.errors import InputError
from mqctl.domain.model import PS_ENABLED, Dialect, Node, NodeState
from mqctl.domain.names import check_mq_name, check_node_name, node_label
from mqctl.domain.objects.attributes import PSCLUS, PSMODES
from mqctl.domain.objects.edit import in_use, refuse_existing
from mqctl.domain.objects.text import check_descr
from mqctl.domain.valid_text import check_definition_text


def label(node: Node) -> str:
    return f"{node_label(node.dialect)} {node.name}"


def check(node: Node) -> None:
    """Name, DESCR, PSMODE/PSCLUS and the hierarchy parent's own form (not whether it exists)."""
    check_definition_text(node, label(node))
    check_node_name(node.name, node.dialect)
    obj = label(node)
    check_descr(node.descr, obj)
    if node.dialect is Dialect.EMS:
        if node.parent is not None:
            raise InputError("an EMS server has no hierarchy parent", obj=obj, attribute="PARENT")
        if (node.psmode, node.psclus) != (PS_ENABLED, PS_ENABLED):
            raise InputError("PSMODE and PSCLUS are queue manager attributes", obj=obj, attribute="PSMODE")
        return
    if node.parent is not None:
        check_mq_name(node.parent, "qmgr")
        if node.parent == node.name:
            raise InputError("a queue manager cannot be its own parent", obj=obj, attribute="PARENT")
    for attr, allowed in (("psmode", PSMODES), ("psclus", PSCLUS)):
        value = getattr(node, attr)
        if value not in allowed:
            raise InputError(f"{value!r} is not one of {'|'.join(allowed)}", obj=obj, attribute=attr.upper())


def check_change(old: Node, new: Node) -> None:
    if old.dialect is not new.dialect:
        raise InputError(
            f"is defined as {old.dialect}; delete it first to change its dialect", obj=f"node {old.name}"
        )
    check(new)


def check_parent(node: Node, parent_dialect: Dialect | None) -> None:
    """PARENT names a queue manager: an EMS server cannot be one (None: the parent does not exist yet)."""
    if node.parent is not None and parent_dialect is Dialect.EMS:
        raise InputError(
            f"{node.parent} is an EMS server; a hierarchy parent is a queue manager",
            obj=label(node),
            attribute="PARENT",
        )


def require_dialect(actual: Dialect, wanted: Dialect, what: str, node: str) -> None:
    """Namelists and cluster channels live on queue managers, routes on EMS servers."""
    if actual is not wanted:
        owner = "an EMS server" if actual is Dialect.EMS else "a queue manager"
        raise InputError(f"{owner} has no {what}", obj=f"{node_label(actual)} {node}")


def check_node_dialect(name: str, actual: Dialect, wanted: Dialect) -> None:
    """A command for one dialect addressed to a node of the other (runmqsc on an EMS server...)."""
    if actual is not wanted:
        raise InputError(f"is an {actual.value.upper()} node, not {wanted.value.upper()}", obj=f"node {name}")


def define(
    existing: Node | None, node: Node, *, replace: bool, seq: int, parent_dialect: Dialect | None
) -> Node:
    """DEFINE of a node (``existing``: the one of that name, if any); returns the node to write."""
    refuse_existing(existing, replace, label(node))
    if existing is not None:
        check_change(existing, node)
    else:
        check(node)
    check_parent(node, parent_dialect)
    return dataclasses.replace(node, seq=seq)


def alter(state: NodeState, changes: Mapping[str, Any], *, seq: int, parent_dialect: Dialect | None) -> Node:
    """ALTER QMGR (PARENT, PSMODE, PSCLUS, DESCR); ``parent_dialect``: that of the new PARENT, if known."""
    new = dataclasses.replace(state.node, **changes, seq=seq)
    check_change(state.node, new)
    check_parent(new, parent_dialect)
    state.node = new
    return new


def check_delete(node: Node, dependents: list[str], *, cascade: bool) -> None:
    """Refused while anything depends on the node, unless ``cascade``."""
    if dependents and not cascade:
        raise in_use(label(node), dependents)
