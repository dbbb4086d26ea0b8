"""What queue managers were seen to hold (a capture of DISPLAY output), and what the model says they should.

An observation is never a definition (semantics §9 "Observed state"): proxy subscriptions, the cluster
topics and cluster queue managers a queue manager knows, its hierarchy relations and channel statuses.
``predict`` derives the same things from the model: the proxy subscriptions of §4 come from the routing
engine's own propagation (``MqPrepared.spread``), so reconcile and explain cannot disagree on them.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime

from mqctl.domain.model import Channel, Dialect, NodeState, ProxySub, SubScope, TopicObject, Topology
from mqctl.domain.resolution import ClusterIndex
from mqctl.domain.topics import levels

PROXY, TCLUSTER, CLUSQMGR, PUBSUB, CHSTATUS, SBSTATUS, TPSTATUS = (
    "PROXY",
    "TCLUSTER",
    "CLUSQMGR",
    "PUBSUB",
    "CHSTATUS",
    "SBSTATUS",
    "TPSTATUS",
)
OBSERVED_KINDS = (PROXY, TCLUSTER, CLUSQMGR, PUBSUB, CHSTATUS, SBSTATUS, TPSTATUS)
"""Kinds of observation, as the DISPLAY command that shows them (``PROXY``: SUB with SUBTYPE(PROXY))."""

INTER_QMGR_QUEUE = "SYSTEM.INTER.QMGR.PUBS"
"""Where a proxy subscription sends what it gets: the originator's inter-queue-manager publication queue."""


@dataclass(frozen=True, slots=True)
class Observation:
    """One block of a capture kept as seen: its kind, name and attributes (upper-case keywords)."""

    kind: str
    name: str
    attributes: dict[str, str]
    line: int | None = None

    def get(self, keyword: str) -> str:
        return self.attributes.get(keyword, "")


@dataclass(slots=True)
class NodeCapture:
    """The latest capture of one queue manager: when, from which file, which DISPLAY commands it holds
    (``PROXY`` when a DISPLAY SUB asked for proxy subscriptions)."""

    node: str
    captured_at: datetime
    file: str
    commands: tuple[str, ...]
    observations: list[Observation] = field(default_factory=list)

    def of(self, kind: str) -> list[Observation]:
        return [o for o in self.observations if o.kind == kind]

    def shows(self, kind: str) -> bool:
        """The capture ran the DISPLAY command of ``kind`` (an empty answer is still an answer)."""
        return kind in self.commands


def proxy_origin(obs: Observation) -> str:
    """The queue manager a proxy subscription was made for, as the product shows it: DESTQMGR, else SUBUSER."""
    return obs.get("DESTQMGR") or obs.get("SUBUSER")


# --- what the model predicts ------------------------------------------------------------------------


@dataclass(slots=True)
class PredictedProxy:
    """A proxy subscription a queue manager should hold: pattern, the neighbour it came from, and why."""

    holder: str
    pattern: str
    origin: str
    cluster: str
    """The cluster it came over; empty for a hierarchy relation."""
    subscriptions: set[tuple[str, str]] = field(default_factory=set)
    """(node, name) of the subscriptions that make it; empty for ``PROXYSUB(FORCE)``."""
    forced_by: str = ""
    """``topic NAME on QM`` for a FORCE object."""

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.holder, self.pattern, self.origin)


def predict_proxies(
    topology: Topology, holders: frozenset[str] | None = None
) -> dict[tuple[str, str, str], PredictedProxy]:
    """Every proxy subscription of §4, keyed (holder, pattern, origin): scopes applied, as MQ sends them.

    ``holders``: only those held at these queue managers (a DIRECT cluster of N members holds N - 1
    proxies per subscription: reconcile asks only about the queue managers it has captures of)."""
    from mqctl.domain.routing.mq import MqPrepared, _Source, _Sub

    if holders is not None:
        topology = reaching(topology, holders)
    prepared = MqPrepared(topology, cache_size=4096)
    out: dict[tuple[str, str, str], PredictedProxy] = {}
    qmgr_scope = SubScope.QMGR
    by_source: dict[tuple[_Source, str], list[_Sub]] = defaultdict(list)
    for s in prepared.subs:
        by_source[(_Source(s.sub.node, s.prefix, s.sub.subscope == qmgr_scope), s.proxy_pattern)].append(s)
    for (source, pattern), subs in by_source.items():
        keys = [s.key for s in subs]
        for grant in prepared.spread(source, True):
            for target in grant.targets if holders is None else grant.targets & holders:
                if target in grant.excluded:
                    continue
                key = (target, pattern, grant.held.sender)
                found = out.get(key)
                if found is None:
                    found = out[key] = PredictedProxy(target, pattern, grant.held.sender, grant.held.cluster)
                found.subscriptions.update(keys)
    index = prepared.index
    for obj in _forced(topology):
        pattern = obj.topicstr + "/#"
        for origin in sorted({obj.node, *(index.members(obj.cluster) if obj.cluster else ())}):
            entry = prepared.trees.at(origin).get(obj.topicstr)
            if entry is None or entry.proxysub != ProxySub.FORCE:
                continue
            source = _Source(origin, tuple(levels(obj.topicstr, Dialect.MQ)))
            for grant in prepared.spread(source, True):
                for target in grant.targets if holders is None else grant.targets & holders:
                    if target in grant.excluded:
                        continue
                    key = (target, pattern, grant.held.sender)
                    if key not in out:
                        out[key] = PredictedProxy(
                            target,
                            pattern,
                            grant.held.sender,
                            grant.held.cluster,
                            forced_by=f"topic {obj.name} on {obj.node}",
                        )
    return out


def proxies_at(topology: Topology, qmgr: str, state: NodeState | None = None) -> list[PredictedProxy]:
    """The proxy subscriptions ``qmgr`` should hold, exactly those ``reconcile`` predicts for it
    (``predict_proxies``), by pattern then originator: what `display proxies` and the runmqsc door's
    ``DISPLAY SUB SUBTYPE(PROXY)`` show. ``state``: ``qmgr``'s definitions as a script has left them so
    far, in place of the model's."""
    if state is not None:
        topology = with_state(topology, state)
    found = predict_proxies(topology, frozenset({qmgr}))
    return sorted(found.values(), key=lambda p: (p.pattern, p.origin, p.cluster))


def with_state(topology: Topology, state: NodeState) -> Topology:
    """``topology`` with one node's definitions replaced by ``state`` (a script's work in progress)."""
    name = state.node.name
    return Topology(
        nodes={**topology.nodes, name: state.node},
        memberships=[m for m in topology.memberships if m.node != name] + list(state.memberships.values()),
        topics=[o for o in topology.topics if o.node != name] + list(state.topics.values()),
        subscriptions=[s for s in topology.subscriptions if s.node != name]
        + list(state.subscriptions.values()),
        routes=topology.routes,
        route_selectors=topology.route_selectors,
        channels=[c for c in topology.channels if c.node != name] + list(state.channels.values()),
        namelists=[n for n in topology.namelists if n.node != name] + list(state.namelists.values()),
    )


def reaching(topology: Topology, holders: Iterable[str]) -> Topology:
    """The slice of ``topology`` whose subscriptions can put a proxy on ``holders``: the queue managers
    joined to them by cluster memberships and hierarchy relations, transitively (§4: proxies travel no
    other way), with their definitions. On an estate of many clusters reconcile asks about a few, and
    preparing the routing engine for the whole is most of its cost; the whole is returned as it is when
    the slice would hold every node."""
    clusters_of: dict[str, list[str]] = defaultdict(list)
    members: dict[str, list[str]] = defaultdict(list)
    for m in topology.memberships:
        clusters_of[m.node].append(m.cluster)
        members[m.cluster].append(m.node)
    related: dict[str, list[str]] = defaultdict(list)
    for node in topology.nodes.values():
        if node.parent:
            related[node.name].append(node.parent)
            related[node.parent].append(node.name)
    found: set[str] = set()
    seen_clusters: set[str] = set()
    todo = list(holders)
    while todo:
        name = todo.pop()
        if name in found:
            continue
        found.add(name)
        todo += related.get(name, ())
        for cluster in clusters_of.get(name, ()):
            if cluster not in seen_clusters:
                seen_clusters.add(cluster)
                todo += members[cluster]
    if len(found) >= len(topology.nodes):
        return topology
    return Topology(
        nodes={n: node for n, node in topology.nodes.items() if n in found},
        memberships=[m for m in topology.memberships if m.node in found],
        topics=[o for o in topology.topics if o.node in found],
        subscriptions=[s for s in topology.subscriptions if s.node in found],
        routes=topology.routes,
        route_selectors=topology.route_selectors,
        channels=topology.channels,
        namelists=topology.namelists,
    )


def _forced(topology: Topology) -> list[TopicObject]:
    mq = {n for n, node in topology.nodes.items() if node.dialect == Dialect.MQ}
    return [o for o in topology.topics if o.proxysub == ProxySub.FORCE and (o.node in mq)]


@dataclass(slots=True)
class NodeView:
    """What one queue manager should show besides its proxies: cluster topics and queue managers it
    knows, its hierarchy relations, the queue managers it has channels to."""

    node: str
    cluster_topics: list[TopicObject] = field(default_factory=list)
    cluster_qmgrs: list[tuple[str, str, bool]] = field(default_factory=list)
    """(queue manager, cluster, full repository)."""
    relations: list[tuple[str, str]] = field(default_factory=list)
    """(queue manager, PARENT | CHILD)."""
    peers: list[str] = field(default_factory=list)
    """Queue managers it exchanges proxies or publications with (one channel each)."""


def node_views(topology: Topology) -> dict[str, NodeView]:
    """Per MQ queue manager of the model, what a capture of it should show (``NodeView``)."""
    index = ClusterIndex(topology)
    full = {(m.node, m.cluster) for m in topology.memberships if m.full_repository}
    views: dict[str, NodeView] = {}
    mq = sorted(n for n, node in topology.nodes.items() if node.dialect == Dialect.MQ)
    children: dict[str, list[str]] = defaultdict(list)
    for name in mq:
        parent = topology.nodes[name].parent
        if parent:
            children[parent].append(name)
    for name in mq:
        view = NodeView(name)
        peers: set[str] = set()
        for cluster in sorted(index.clusters_of(name)):
            view.cluster_topics += sorted(index.clustered(cluster), key=lambda o: (o.name, o.node))
            for member in index.members(cluster):
                view.cluster_qmgrs.append((member, cluster, (member, cluster) in full))
                if member != name:
                    peers.add(member)
        parent = topology.nodes[name].parent
        if parent:
            view.relations.append((parent, "PARENT"))
            peers.add(parent)
        for child in sorted(children.get(name, ())):
            view.relations.append((child, "CHILD"))
            peers.add(child)
        view.peers = sorted(peers)
        views[name] = view
    return views


@dataclass(frozen=True, slots=True)
class ChannelSeen:
    """A channel status between queue managers seen on ``node``, linked to ``peer`` (empty: unlinked;
    ``how`` then says why) — semantics §9 "Observed state"."""

    node: str
    peer: str
    observation: Observation
    how: str
    file: str

    @property
    def status(self) -> str:
        return self.observation.get("STATUS").upper()

    @property
    def where(self) -> str:
        line = self.observation.line
        return f"{self.file}{f':{line}' if line else ''}"


def channel_statuses(captures: Iterable[NodeCapture], channels: Iterable[Channel] = ()) -> list[ChannelSeen]:
    """Every status of a channel between queue managers in the captures, each linked to the queue
    manager it concerns where the capture or the model's channels allow (``domain.channel_links``)."""
    from mqctl.domain.channel_links import ChannelLinker, concerns_qmgrs

    linker = ChannelLinker(channels)
    out: list[ChannelSeen] = []
    for capture in captures:
        clusqmgrs = [o.attributes for o in capture.of(CLUSQMGR)]
        for o in capture.of(CHSTATUS):
            if not concerns_qmgrs(o.attributes):
                continue
            link = linker.link(capture.node, o.attributes, clusqmgrs)
            out.append(ChannelSeen(capture.node, link.peer, o, link.how, capture.file))
    return out


def links_down(
    captures: Iterable[NodeCapture], channels: Iterable[Channel] = ()
) -> dict[frozenset[str], str]:
    """Channels observed not RUNNING (linked to their queue manager as ``channel_statuses`` does: a
    cluster-sender RETRYING with a blank RQMNAME is a link down too) and hierarchy relations not ACTIVE,
    as links down (``explain --observed``), each with the observation behind it."""
    captures = list(captures)
    out: dict[frozenset[str], str] = {}
    for seen in channel_statuses(captures, channels):
        if seen.peer and seen.peer != seen.node and seen.status != "RUNNING":
            linked = "" if seen.how == "RQMNAME" else f"; {seen.how}"
            out.setdefault(
                frozenset((seen.node, seen.peer)),
                f"channel {seen.observation.name} on {seen.node} to {seen.peer} is {seen.status or 'not RUNNING'}"
                f" ({seen.where}{linked})",
            )
    for capture in captures:
        for o in capture.of(PUBSUB):
            relation, peer, status = o.get("TYPE").upper(), o.get("QMNAME"), o.get("STATUS").upper()
            if relation in ("PARENT", "CHILD") and peer and status != "ACTIVE":
                out.setdefault(
                    frozenset((capture.node, peer)),
                    f"hierarchy relation {relation} {peer} on {capture.node} is {status} ({capture.file}"
                    f"{f':{o.line}' if o.line else ''})",
                )
    return out
