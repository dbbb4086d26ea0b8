"""What one queue manager knows of its clusters, for runmqsc's DISPLAY TCLUSTER, TOPIC CLUSINFO and CLUSQMGR.

A queue manager learns the cluster topics and cluster queue managers of every cluster it belongs to from
the full repositories (semantics §3). The run's ``Context.cluster_view`` holds what the other members
define; this queue manager's own part is taken from its state as the script has left it so far, so a
DISPLAY sees the DEFINEs before it. Without a view, only the queue manager's own definitions are known.
"""

from __future__ import annotations

from dataclasses import dataclass

from mqctl.domain.memberships import channel_gives
from mqctl.domain.model import Channel, ChannelType, NodeState, TopicObject, Topology, node_states
from mqctl.domain.resolution import ClusterIndex, TopicTree
from mqctl.formats.mqsc.values import Context

__all__ = ["ClusterQmgr", "ClusterTopic", "cluster_qmgrs", "cluster_topics"]


@dataclass(frozen=True, slots=True)
class ClusterTopic:
    object: TopicObject
    clstate: str
    """ACTIVE; INVALID when a conflicting definition wins (§3); PENDING for a definition made here for a
    cluster this queue manager is not a member of (no full repository has it)."""


@dataclass(frozen=True, slots=True)
class ClusterQmgr:
    name: str
    cluster: str
    channel: Channel | None
    """Its cluster-receiver channel for that cluster (ours, for a CLUSSDR not yet matched)."""
    deftype: str
    full_repository: bool


def _known(ctx: Context) -> Topology:
    """The cluster view with this queue manager's part replaced by its current state."""
    state = ctx.state
    me = state.node.name
    view = ctx.clusters_known()
    known = Topology(nodes={**view.nodes, me: state.node})
    known.memberships = [m for m in view.memberships if m.node != me] + list(state.memberships.values())
    known.topics = [t for t in view.topics if t.node != me] + list(state.topics.values())
    known.channels = [c for c in view.channels if c.node != me] + list(state.channels.values())
    known.namelists = [n for n in view.namelists if n.node != me] + list(state.namelists.values())
    return known


def cluster_topics(ctx: Context) -> list[ClusterTopic]:
    """Every cluster topic definition this queue manager knows, by name then defining queue manager."""
    known = _known(ctx)
    me = ctx.state.node.name
    index = ClusterIndex(known)
    mine = index.clusters_of(me)
    invalid = {(o.node, o.name) for c in TopicTree.for_node(index, me).conflicts for o in c.losers}
    found = [o for cluster in sorted(mine) for o in index.clustered(cluster)]
    found += [o for o in ctx.state.topics.values() if o.cluster and o.cluster not in mine]
    out = []
    for obj in sorted(found, key=lambda o: (o.name, o.node)):
        if obj.cluster not in mine:
            state = "PENDING"
        elif (obj.node, obj.name) in invalid:
            state = "INVALID"
        else:
            state = "ACTIVE"
        out.append(ClusterTopic(obj, state))
    return out


def cluster_qmgrs(ctx: Context) -> list[ClusterQmgr]:
    """Every cluster queue manager this one knows, per cluster: itself (CLUSRCVR), the other members
    (CLUSSDRA, or CLUSSDRB when a CLUSSDR channel here names their CLUSRCVR channel), and each CLUSSDR
    channel here that names no known member's channel (DEFTYPE CLUSSDR, a ``SYSTEM.TEMPQMGR.`` name)."""
    known = _known(ctx)
    me = ctx.state.node.name
    states = node_states(known)
    senders = {c.name: c for c in ctx.state.channels.values() if c.chltype is ChannelType.CLUSSDR}
    matched: set[str] = set()
    out = []
    for m in sorted(known.memberships, key=lambda m: (m.node, m.cluster)):
        if m.node != me and m.cluster not in ctx.state.memberships:
            continue
        channel = _receiver(states.get(m.node), m.cluster)
        if m.node == me:
            deftype = "CLUSRCVR"
        elif channel is not None and channel.name in senders:
            deftype = "CLUSSDRB"
            matched.add(channel.name)
        else:
            deftype = "CLUSSDRA"
        out.append(ClusterQmgr(m.node, m.cluster, channel, deftype, m.full_repository))
    for name, sender in sorted(senders.items()):
        if name not in matched:
            for cluster in sorted(_sender_clusters(ctx.state, sender)):
                temp = f"SYSTEM.TEMPQMGR.{sender.conname}"
                out.append(ClusterQmgr(temp, cluster, sender, "CLUSSDR", True))
    return out


def _receiver(state: NodeState | None, cluster: str) -> Channel | None:
    if state is None:
        return None
    found = [c for c in state.channels.values() if cluster in channel_gives(state, c)]
    return min(found, key=lambda c: c.name, default=None)


def _sender_clusters(state: NodeState, sender: Channel) -> set[str]:
    """The clusters a CLUSSDR channel names (its CLUSTER, or the names of its CLUSNL namelist)."""
    if sender.cluster:
        return {sender.cluster}
    namelist = state.namelists.get(sender.clusnl)
    return {n for n in namelist.names if n} if namelist is not None else set()
