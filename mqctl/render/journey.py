"""One publication as a picture (``mqctl explain -o mermaid|dot``).

The publisher, every hop taken (each drawn once however many deliveries share it), each subscription
that receives the publication (delivered, or stored and where), and each matching subscription that
does not, with its reason. A hop to a topic host that no delivery goes on from carries the publication
too: it is drawn dashed, to a grey host marked as reaching no subscriber (as the explain tree shows it).
Nodes that are down and links that are down are drawn broken; a node that holds messages for later is
marked as storing them, and alternative paths are dotted.
"""

from __future__ import annotations

from mqctl.domain.explanation import Delivery, Explanation, Failures, Hop, Status
from mqctl.domain.model import Dialect, Topology
from mqctl.render.diagram import Arrow, Box, Diagram, Line, Mark, Shape, wrap
from mqctl.render.wording import (
    NO_SUBSCRIBER,
    Links,
    delivery_status,
    hop_links,
    hop_phrase,
    unreached_host_hops,
)

__all__ = ["journey_diagram"]


def journey_diagram(
    result: Explanation, failures: Failures | None = None, topology: Topology | None = None
) -> Diagram:
    """``failures`` marks what is down; ``topology`` (the model explained) names who defines each route."""
    failures = failures or Failures()
    pub = result.publication
    links = hop_links(result, topology.routes) if topology is not None else None
    diagram = Diagram(f"mqctl explain: '{pub.topic}' published on {pub.from_node}")
    shapes = _shapes(topology)
    origin = _node(diagram, pub.from_node, shapes)
    origin.marks.add(Mark.PUBLISHER)
    origin.lines.append(f"publishes '{pub.topic}'")
    res = result.resolved
    if res.object:
        origin.lines.append(
            f"resolves to {res.object}" + (f", cluster {res.cluster} ({res.clroute})" if res.cluster else "")
        )
    for name in sorted(failures.down):
        _node(diagram, name, shapes).marks.add(Mark.DOWN)
    for delivery in result.deliveries:
        _delivery(diagram, delivery, failures, links, shapes)
    for hop in unreached_host_hops(result):  # it carries the publication even when nobody gets it
        host = _node(diagram, hop.to_node, shapes)
        host.marks.add(Mark.MISSED)
        host.lines.append(NO_SUBSCRIBER)
        diagram.arrow(Arrow(hop.from_node, hop.to_node, [hop_phrase(hop)], Line.DASHED))
    for missed in result.not_delivered:
        _node(diagram, missed.node, shapes)
        box = diagram.box(
            _sub_key(missed.node, missed.subscription), f"sub {missed.subscription}", Shape.SUBSCRIPTION
        )
        box.marks.add(Mark.MISSED)
        box.lines.append(f"not delivered: {missed.reason}")
        box.lines += wrap(missed.detail)
        diagram.arrow(Arrow(missed.node, box.key, line=Line.DOTTED, directed=False))
    for pair in sorted(sorted(p) for p in failures.links_down):
        a, b = pair
        _node(diagram, a, shapes)
        _node(diagram, b, shapes)
        diagram.arrow(Arrow(a, b, ["link down"], Line.DASHED, directed=False, down=True))
    if not result.deliveries:
        diagram.notes.append("No subscription receives this publication.")
    diagram.notes += [f"warning {w.code}: {w.message}" for w in result.warnings]
    return diagram


def _shapes(topology: Topology | None) -> dict[str, Shape]:
    if topology is None:
        return {}
    return {
        n: Shape.SERVER if node.dialect is Dialect.EMS else Shape.QMGR for n, node in topology.nodes.items()
    }


def _node(diagram: Diagram, name: str, shapes: dict[str, Shape]) -> Box:
    return diagram.box(name, name, shapes.get(name, Shape.QMGR))


def _sub_key(node: str, name: str) -> str:
    return f"sub:{node}:{name}"


def _delivery(
    diagram: Diagram, delivery: Delivery, failures: Failures, links: Links | None, shapes: dict[str, Shape]
) -> None:
    failing = _failing_hop(delivery, failures)
    for hop in delivery.hops:
        _node(diagram, hop.from_node, shapes)
        _node(diagram, hop.to_node, shapes)
        lines = [hop_phrase(hop, links)]
        if hop.selector:
            lines.append(f"route selector: {hop.selector}")
        diagram.arrow(Arrow(hop.from_node, hop.to_node, lines, down=hop is failing))
    drawn = {(h.from_node, h.to_node) for h in delivery.hops}
    for path in delivery.alternatives:
        for a, b in zip(path, path[1:], strict=False):
            if (a, b) not in drawn:
                _node(diagram, a, shapes)
                _node(diagram, b, shapes)
                diagram.arrow(Arrow(a, b, ["alternative"], Line.DOTTED))
    _node(diagram, delivery.node, shapes)
    box = diagram.box(
        _sub_key(delivery.node, delivery.subscription), f"sub {delivery.subscription}", Shape.SUBSCRIPTION
    )
    stored = delivery.status is Status.STORED
    box.marks.add(Mark.STORED if stored else Mark.DELIVERED)
    box.lines.append(delivery_status(delivery) if stored else "delivered")
    more = getattr(delivery, "more_alternatives", 0)
    if more:
        box.lines.append(f"and {more} more alternative paths")
    if stored and delivery.stored_at is not None:
        holder = _node(diagram, delivery.stored_at, shapes)
        holder.marks.add(Mark.STORED)
        holder.lines.append(f"stores messages for {delivery.subscription} on {delivery.node}")
    diagram.arrow(Arrow(delivery.node, box.key, line=Line.DASHED if stored else Line.SOLID, directed=False))


def _failing_hop(delivery: Delivery, failures: Failures) -> Hop | None:
    """The hop a stored publication waits before: the first that cannot be made now."""
    if delivery.status is not Status.STORED:
        return None
    for hop in delivery.hops:
        if hop.from_node == delivery.stored_at or failures.hop_fails(hop.from_node, hop.to_node):
            return hop
    return None
