"""A whole model as one ``NodeState`` per node, and back: the unit a step changes is one node."""

from __future__ import annotations

import copy

from mqctl.domain.model import Node, NodeState, Topology


def split(topology: Topology) -> dict[str, NodeState]:
    """Each node's definitions, keyed as MQSC and tibemsadmin key them."""
    states = {name: NodeState(node=node) for name, node in topology.nodes.items()}
    for m in topology.memberships:
        if m.node in states:
            states[m.node].memberships[m.cluster] = m
    for t in topology.topics:
        if t.node in states:
            states[t.node].topics[t.name] = t
    for s in topology.subscriptions:
        if s.node in states:
            states[s.node].subscriptions[s.name] = s
    for nl in topology.namelists:
        if nl.node in states:
            states[nl.node].namelists[nl.name] = nl
    for c in topology.channels:
        if c.node in states:
            states[c.node].channels[c.name] = c
    for r in topology.routes:
        if r.node in states:
            states[r.node].routes[r.peer] = r
    for rs in topology.route_selectors:
        if rs.node in states:
            states[rs.node].route_selectors.append(rs)
    return states


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
