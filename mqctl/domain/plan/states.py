"""A whole model as one ``NodeState`` per node, and back: the unit a step changes is one node."""

from __future__ import annotations

import copy

from mqctl.domain.model import Node, NodeState, Topology


def join(states: dict[str, NodeState]) -> Topology:
    """The model the node states make together (in node order)."""
    out = Topology()
    for name in sorted(states):
        s = states[name]
        out.nodes[name] = s.node
        out.memberships.extend(s.memberships.values())
        out.topics.extend(s.topics.values())
        out.subscriptions.extend(s.subscriptions.values())
        out.namelists.extend(s.namelists.values())
        out.channels.extend(s.channels.values())
        out.routes.extend(s.routes.values())
        out.route_selectors.extend(s.route_selectors)
    return out


def empty_like(node: Node) -> NodeState:
    """A node that does not exist yet: the state a new node's first step starts from."""
    return NodeState(node=copy.copy(node))
