"""One publication as a picture (``mqctl explain -o mermaid|dot``).

The publisher, every hop taken (each drawn once however many deliveries share it), each subscription
that receives the publication (delivered, or stored and where), and each matching subscription that
does not, with its reason. A hop to a topic host that no delivery goes on from carries the publication
too: it is drawn dashed, to a grey host marked as reaching no subscriber (as the explain tree shows it).
Nodes that are down and links that are down are drawn broken and say so in words (``DOWN``, ``link down``,
``QM3 down``), never by colour alone; a node that holds messages for later is marked as storing them, and
alternative paths are dotted. Queue managers sit in the group of their cluster (a gateway, in several,
outside them), so "not in that cluster" can be seen. Inside a shape a reason is its code; the sentence is
a caption beside the picture, numbered. A delivery over a path IBM does not support says so, on its box
and on the link. Every picture carries a legend (the writers draw it).
"""

from __future__ import annotations

from mqctl.domain.explanation import Delivery, Explanation, Failures, Hop, Status, Via
from mqctl.domain.model import Dialect, Topology
from mqctl.domain.resolution import ClusterIndex
from mqctl.render.diagram import Arrow, Box, Diagram, Group, Line, Mark, Shape
from mqctl.render.wording import (
    NO_SUBSCRIBER,
    UNSUPPORTED,
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
    diagram.line_meanings = dict(LINE_MEANINGS)
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
        down = _node(diagram, name, shapes)
        down.marks.add(Mark.DOWN)
        down.lines.append(DOWN)  # said in words, not by colour alone
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
        # the code inside the shape, the sentence beside the picture (a stadium full of text is unreadable)
        box.lines.append(f"not delivered: {missed.reason} [{len(diagram.captions) + 1}]")
        diagram.captions.append(
            f"[{len(diagram.captions) + 1}] sub {missed.subscription} on {missed.node}: {missed.reason}. "
            f"{missed.detail}"
        )
        diagram.arrow(Arrow(missed.node, box.key, line=Line.DOTTED, directed=False))
    for pair in sorted(sorted(p) for p in failures.links_down):
        a, b = pair
        _node(diagram, a, shapes)
        _node(diagram, b, shapes)
        diagram.arrow(Arrow(a, b, ["link down"], Line.DASHED, directed=False, down=True))
    if not result.deliveries:
        diagram.notes.append("No subscription receives this publication.")
    diagram.notes += [f"warning {w.code}: {w.message}" for w in result.warnings]
    if topology is not None:
        _cluster_groups(diagram, result, topology)
    return diagram


DOWN = "DOWN"
"""The word a node that is down carries in its box (its border is dashed too)."""

LINE_MEANINGS = {
    Line.SOLID: "a hop the publication takes; a subscription on its node",
    Line.DASHED: "to a topic host that reaches no subscriber, or a copy stored for later",
    Line.DOTTED: "an alternative path, or a subscription that misses the publication",
}


def _cluster_groups(diagram: Diagram, result: Explanation, topology: Topology) -> None:
    """Each queue manager drawn inside the group of its cluster, when it is in exactly one of the clusters
    the explanation names (the publisher's and every hop's); its subscriptions beside it. One in several
    of them (a gateway) stays outside, saying which, as ``mqctl graph`` draws it."""
    index = ClusterIndex(topology)
    named = {
        h.name
        for d in result.deliveries
        for h in d.hops
        if h.via is not Via.HIERARCHY and h.via is not Via.ROUTE
    }
    if result.resolved.cluster:
        named.add(result.resolved.cluster)
    named |= {c for b in diagram.boxes.values() if b.shape is Shape.QMGR for c in index.clusters_of(b.key)}
    members: dict[str, list[str]] = {c: [] for c in sorted(named)}
    for key, box in diagram.boxes.items():
        if box.shape is not Shape.QMGR:
            continue
        clusters = sorted(index.clusters_of(key) & named)
        if len(clusters) == 1:
            members[clusters[0]].append(key)
        elif len(clusters) > 1:
            box.lines.append(f"in clusters {', '.join(clusters)}")
    for key, box in diagram.boxes.items():
        if box.shape is Shape.SUBSCRIPTION:
            node = key.split(":")[1]
            for cluster, inside in members.items():
                if node in inside:
                    members[cluster].append(key)
    diagram.groups += [Group(f"cluster {c}", f"cluster {c}", keys) for c, keys in members.items() if keys]


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
    unsupported = delivery.unsupported
    for hop in delivery.hops:
        _node(diagram, hop.from_node, shapes)
        _node(diagram, hop.to_node, shapes)
        lines = [hop_phrase(hop, links)]
        if hop.selector:
            lines.append(f"route selector: {hop.selector}")
        if unsupported is not None and hop.via is Via.HIERARCHY and hop.name == unsupported.link:
            lines.append(f"{UNSUPPORTED} ({unsupported.rule})")
        if hop is failing:  # in words too, not by colour alone
            lines.append(
                "link down" if failures.link_down(hop.from_node, hop.to_node) else f"{hop.to_node} down"
            )
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
    if unsupported is not None:  # "delivered" must not read as "this works"
        box.lines.append(f"{UNSUPPORTED} ({unsupported.rule}) [{len(diagram.captions) + 1}]")
        diagram.captions.append(
            f"[{len(diagram.captions) + 1}] sub {delivery.subscription} on {delivery.node}: {unsupported.message}"
        )
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
