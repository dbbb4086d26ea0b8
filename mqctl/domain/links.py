"""Which pairs of nodes the model links directly: the links a what-if (`explain --link-down A:B`) can cut.

Two nodes are linked when a message can go straight from one to the other: two members of a common
cluster (cluster channels join every pair of members, semantics §4-§5), a hierarchy child and its parent
(§4.3), or two EMS servers with a route defined on either of them (routes are bidirectional, §6). Naming
anything else as a link that is down is a mistake, caught here rather than answered as if it mattered.
"""

from __future__ import annotations

from collections.abc import Iterable

from mqctl.domain.errors import InputError
from mqctl.domain.model import Topology


def linked(topology: Topology, a: str, b: str) -> bool:
    """Is there a cluster, hierarchy or route link between ``a`` and ``b`` in ``topology``?"""
    if a == b:
        return False
    node_a, node_b = topology.nodes.get(a), topology.nodes.get(b)
    if (node_a is not None and node_a.parent == b) or (node_b is not None and node_b.parent == a):
        return True
    clusters_a = {m.cluster for m in topology.memberships if m.node == a}
    if any(m.node == b and m.cluster in clusters_a for m in topology.memberships):
        return True
    return any({route.node, route.peer} == {a, b} for route in topology.routes)


def check_links_down(topology: Topology, links: Iterable[frozenset[str]]) -> None:
    """Every link given as down joins two different nodes that ``linked`` says are linked.

    A pair naming a node the topology does not hold is left alone: the routing engine reports the unknown
    node by name. ``A:A`` arrives as the one-element set ``{A}``."""
    for ends in sorted(sorted(pair) for pair in links):
        if len(ends) == 1:
            raise InputError(
                "a link joins two different nodes", obj=f"{ends[0]}:{ends[0]}", attribute="--link-down"
            )
        a, b = ends
        if a in topology.nodes and b in topology.nodes and not linked(topology, a, b):
            raise InputError(
                f"no link joins {a} and {b} (no cluster in common, neither is the other's hierarchy "
                "parent, no EMS route between them)",
                obj=f"{a}:{b}",
                attribute="--link-down",
            )
