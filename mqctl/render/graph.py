"""The topology as a picture: clusters as groups, queue managers and EMS servers as boxes, hierarchy
links and EMS routes as arrows (``mqctl graph``).

Every cluster is drawn as itself, a group named "cluster CL". Neither Mermaid nor Graphviz can draw a
box inside two overlapping groups, so a queue manager in several of the drawn clusters — a gateway, the
overlap reference 001 asks an administrator to keep in mind — sits outside them, marked as a gateway and
joined to each cluster it belongs to (a dashed "member of CL" line to the cluster's anchor, a small
"CL" shape inside the group). So for every cluster the drawn members (inside, or joined) are exactly the
model's members.

``topic`` narrows the picture to what matters for one topic string, each node reading it in its own
dialect: MQ queue managers where it resolves into a cluster (with the object it resolves to there), the
topic hosts of that cluster point, the subscriptions that match it, the hierarchy relays between those,
and the EMS routes it can cross (global on both servers) with the route selectors that apply to it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from mqctl.domain.ems_topics import EmsTopicIndex
from mqctl.domain.model import Dialect, Route, Subscription, TopicObject, Topology, node_dialects
from mqctl.domain.resolution import ClusterIndex, Resolution, TopicTrees, chain_topicstrs
from mqctl.domain.subscriptions import receives
from mqctl.domain.topics import TopicSyntaxError, levels, matches, validate_topic
from mqctl.render.diagram import Arrow, Diagram, Group, Line, Mark, Shape
from mqctl.render.wording import and_list, route_links

__all__ = ["topology_diagram"]

MAX_LISTED = 4
"""Cluster topics listed in one queue manager's box before "and N more"."""
MAX_SUBSCRIPTIONS = 12
"""Subscriptions drawn beside one node before the rest are counted in a note."""


@dataclass
class _Focus:
    """What matters for one topic string (see the module docstring)."""

    topic: str
    resolutions: dict[str, Resolution] = field(default_factory=dict)
    """MQ queue manager -> where the topic resolves there, when it is clustered there."""
    hosts: set[str] = field(default_factory=set)
    global_on: set[str] = field(default_factory=set)
    """EMS servers on which the topic is global."""
    subscriptions: dict[str, list[Subscription]] = field(default_factory=dict)
    nodes: set[str] = field(default_factory=set)


def topology_diagram(
    topology: Topology,
    *,
    clusters: Sequence[str] = (),
    nodes: Sequence[str] = (),
    topic: str | None = None,
) -> Diagram:
    """The picture of ``topology``, limited to the members of ``clusters`` and to ``nodes`` when given
    (names the caller has checked: a renderer draws, it does not judge the input)."""
    index = ClusterIndex(topology)
    dialects = node_dialects(topology)
    visible = _chosen(index, dialects, clusters, nodes)
    focus = _focus(topology, dialects, topic) if topic is not None else None
    if focus is not None:
        visible &= focus.nodes
    title = "mqctl graph" + (f" of topic '{topic}'" if topic is not None else "")
    diagram = Diagram(title)
    diagram.line_meanings = {
        Line.SOLID: "an EMS route (an arrow from its definer when active-passive)",
        Line.DASHED: "a hierarchy link, child to parent; a gateway's membership of a cluster",
        Line.DOTTED: "a subscription on its node",
    }
    repos: dict[str, list[str]] = defaultdict(list)
    for m in sorted(topology.memberships, key=lambda m: m.cluster):
        if m.full_repository:
            repos[m.node].append(m.cluster)
    for name in sorted(visible):
        _node_box(diagram, index, repos.get(name, []), dialects[name], name, focus)
    diagram.groups = _groups(diagram, index, visible, clusters)
    for name in sorted(visible):
        parent = topology.nodes[name].parent if name in topology.nodes else None
        if parent in visible and dialects[name] is Dialect.MQ:
            diagram.arrow(Arrow(name, parent, ["hierarchy: parent"], Line.DASHED))
    _routes(diagram, topology, visible, focus)
    if focus is not None:
        _subscriptions(diagram, focus, visible)
    return diagram


def _chosen(
    index: ClusterIndex, dialects: dict[str, Dialect], clusters: Sequence[str], nodes: Sequence[str]
) -> set[str]:
    """The nodes drawn: the members of ``clusters`` and ``nodes`` (every node without either). The caller
    has checked the names (``services.views.graph_topology``); one the topology lacks draws nothing."""
    if not clusters and not nodes:
        return set(dialects)
    chosen: set[str] = set()
    for cluster in clusters:
        chosen.update(index.members(cluster))
    chosen.update(name for name in nodes if name in dialects)
    return chosen


def _focus(topology: Topology, dialects: dict[str, Dialect], topic: str) -> _Focus:
    focus = _Focus(topic)
    trees = TopicTrees(_chain_slice(topology, topic))
    for name, dialect in dialects.items():
        if dialect is Dialect.MQ:
            res = trees.resolve(name, topic)
            if res.clustered:
                focus.resolutions[name] = res
                focus.hosts.update(res.hosts)
    if _is_ems_topic(topic):
        ems = EmsTopicIndex(t for t in topology.topics if dialects.get(t.node) is Dialect.EMS)
        focus.global_on = {n for n, d in dialects.items() if d is Dialect.EMS and ems.is_global(n, topic)}
    by_node: dict[str, list[Subscription]] = defaultdict(list)
    for sub in topology.subscriptions:
        dialect = dialects.get(sub.node, Dialect.MQ)
        if sub.is_route_durable or (dialect is Dialect.EMS and not _is_ems_topic(topic)):
            continue
        if receives(sub, topic, dialect):
            by_node[sub.node].append(sub)
    focus.subscriptions = {n: sorted(subs, key=lambda s: s.name) for n, subs in by_node.items()}
    kept = set(focus.resolutions) | focus.hosts | set(focus.subscriptions)
    for pair in route_links(topology.routes):
        if pair <= focus.global_on:
            kept |= pair
    focus.nodes = kept | _hierarchy_relays(topology, dialects, kept)
    return focus


def _chain_slice(topology: Topology, topic: str) -> Topology:
    """The objects that can decide where ``topic`` resolves, as the store's explain slice takes them:
    those whose TOPICSTR lies on its chain, and those sharing a name with one of them (a local object
    hides a clustered one of the same name; same-name clustered objects conflict). Resolving on this
    costs the chain, not every queue manager's whole tree."""
    on_chain = set(chain_topicstrs(levels(topic, Dialect.MQ)))
    names = {o.name for o in topology.topics if o.topicstr in on_chain}
    part = Topology(nodes=topology.nodes, memberships=topology.memberships)
    part.topics = [o for o in topology.topics if o.topicstr in on_chain or o.name in names]
    return part


def _is_ems_topic(topic: str) -> bool:
    try:
        validate_topic(topic, Dialect.EMS)
    except TopicSyntaxError:
        return False
    return True


def _hierarchy_relays(topology: Topology, dialects: dict[str, Dialect], kept: set[str]) -> set[str]:
    """Queue managers on the hierarchy paths between kept ones: trim unkept leaves until none is left."""
    links: dict[str, set[str]] = defaultdict(set)
    for name, node in topology.nodes.items():
        if node.parent and dialects[name] is Dialect.MQ:
            links[name].add(node.parent)
            links[node.parent].add(name)
    leaves = [n for n in links if len(links[n]) <= 1 and n not in kept]
    while leaves:
        leaf = leaves.pop()
        for other in links.pop(leaf, set()):
            links[other].discard(leaf)
            if len(links[other]) <= 1 and other not in kept:
                leaves.append(other)
    return set(links)


def _node_box(
    diagram: Diagram,
    index: ClusterIndex,
    repos: list[str],
    dialect: Dialect,
    name: str,
    focus: _Focus | None,
) -> None:
    box = diagram.box(name, name, Shape.QMGR if dialect is Dialect.MQ else Shape.SERVER)
    if repos:
        box.marks.add(Mark.FULL_REPOSITORY)
        box.lines.append(
            "full repository"
            if len(index.clusters_of(name)) == 1
            else f"full repository of {and_list(repos)}"
        )
    if focus is None:
        hosted = sorted((o for o in index.local(name) if o.cluster), key=lambda o: o.topicstr)
        if hosted:
            box.marks.add(Mark.TOPIC_HOST)
            box.lines += [_hosted(o, index.is_member(name, o.cluster)) for o in hosted[:MAX_LISTED]]
            if len(hosted) > MAX_LISTED:
                box.lines.append(f"and {len(hosted) - MAX_LISTED} more cluster topics")
        return
    res = focus.resolutions.get(name)
    if res is not None:
        box.lines.append(f"resolves to {res.object_name}, cluster {res.cluster} ({res.clroute})")
    if name in focus.hosts:
        box.marks.add(Mark.TOPIC_HOST)
        box.lines.append("topic host")
    if name in focus.global_on:
        box.lines.append("global here")


def _hosted(obj: TopicObject, member: bool = True) -> str:
    """A clustered topic where it is defined; one clustered in a cluster its queue manager is not a
    member of is still drawn (MQ publishes it to nobody), and says so."""
    text = f"cluster topic {obj.name} '{obj.topicstr}' ({obj.cluster}, {obj.clroute})"
    return text if member else f"{text}, not a member of {obj.cluster}"


def anchor_key(cluster: str) -> str:
    """The key of a cluster's anchor box: a blank is in no MQ or EMS node name, so it is no node's key."""
    return f"cluster {cluster}"


def _groups(diagram: Diagram, index: ClusterIndex, visible: set[str], asked: Sequence[str]) -> list[Group]:
    """One group per cluster a visible queue manager belongs to (those asked for, if any), holding its
    members that are in no other drawn cluster; a gateway (in several) is joined to each of its clusters."""
    wanted = set(asked)
    inside: dict[str, list[str]] = defaultdict(list)
    gateways: dict[str, list[str]] = defaultdict(list)
    for name in sorted(visible):
        clusters = sorted(c for c in index.clusters_of(name) if not wanted or c in wanted)
        if len(clusters) == 1:
            inside[clusters[0]].append(name)
        elif clusters:
            box = diagram.boxes[name]
            box.marks.add(Mark.GATEWAY)
            box.lines.insert(1, f"gateway of clusters {and_list(clusters)}")
            for cluster in clusters:
                gateways[cluster].append(name)
    groups = []
    for cluster in sorted(set(inside) | set(gateways)):
        members = list(inside[cluster])
        if gateways[cluster]:
            anchor = diagram.box(anchor_key(cluster), cluster, Shape.CLUSTER)
            members.append(anchor.key)
            for gateway in gateways[cluster]:
                diagram.arrow(
                    Arrow(gateway, anchor.key, [f"member of {cluster}"], Line.DASHED, directed=False)
                )
        groups.append(Group(cluster, f"cluster {cluster}", members))
    return groups


def _routes(diagram: Diagram, topology: Topology, visible: set[str], focus: _Focus | None) -> None:
    selectors = defaultdict(list)
    for sel in topology.route_selectors:
        if focus is None or matches(sel.topic, focus.topic, Dialect.EMS):
            selectors[(sel.node, sel.peer)].append(sel)
    for pair, definitions in sorted(route_links(topology.routes).items(), key=lambda kv: sorted(kv[0])):
        if not pair <= visible or (focus is not None and not pair <= focus.global_on):
            continue
        lines = _zones(definitions.values())
        if len(definitions) == 2:
            a, b = sorted(pair)
            lines.append("active-active")
        else:
            (a,) = definitions
            (b,) = pair - {a}
            lines.append(f"route {b} defined on {a} only (active-passive)")
        for definer in sorted(definitions):
            route = definitions[definer]
            for sel in sorted(selectors[(route.node, route.peer)], key=lambda s: (s.direction, s.topic)):
                lines.append(f"{definer} {sel.direction} {sel.topic}: {sel.selector}")
        diagram.arrow(Arrow(a, b, lines, directed=len(definitions) == 1))


def _zones(definitions: Iterable[Route]) -> list[str]:
    return [
        f"zone {zone} ({kind})"
        for zone, kind in sorted({(r.zone_name, str(r.zone_type)) for r in definitions})
    ]


def _subscriptions(diagram: Diagram, focus: _Focus, visible: set[str]) -> None:
    for node in sorted(focus.subscriptions):
        if node not in visible:
            continue
        subs = focus.subscriptions[node]
        for sub in subs[:MAX_SUBSCRIPTIONS]:
            box = diagram.box(f"sub:{node}:{sub.name}", f"sub {sub.name}", Shape.SUBSCRIPTION)
            box.lines.append(f"'{sub.topicstr}'" + ("" if sub.durable else " non-durable"))
            if sub.selector:
                box.lines.append(f"selector: {sub.selector}")
            diagram.arrow(Arrow(node, box.key, line=Line.DOTTED, directed=False))
        if len(subs) > MAX_SUBSCRIPTIONS:
            diagram.notes.append(
                f"{len(subs) - MAX_SUBSCRIPTIONS} more subscriptions on {node} match, not drawn"
            )
