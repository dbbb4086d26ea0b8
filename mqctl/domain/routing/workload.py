"""Topic host choice: MQ's cluster workload management over the hosts of a topic (semantics §9).

Reference ``000_…``: the topic host "is chosen in the same way as for clustered queues", i.e. on the
workload attributes of each host's cluster-receiver channel in that cluster: ``CLWLRANK`` (0-9),
``CLWLPRTY`` (0-9) and ``CLWLWGHT`` (1-99). Among the hosts:

1. keep those of the highest rank: rank is taken before availability, so when none of them is
   available the publication waits at the chooser for the first of them by name (``stored``), never
   falling back to a lower rank;
2. of those, keep the available ones (host up, link from the chooser up);
3. of those, keep the highest priority;
4. the rest share the publications in proportion to their weights: the path goes through the largest
   weight (ties by name), the others are the alternatives, largest weight first.

A host's channel is a CLUSRCVR channel defined on it whose ``CLUSTER`` is the cluster or whose
``CLUSNL`` namelist (defined on the same host) names it; several: the most recent definition; none: the
defaults 0/0/50.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from mqctl.domain.explanation import Failures, TopicHost
from mqctl.domain.model import Channel, ChannelType, Topology

__all__ = ["DEFAULT_WORKLOAD", "ClusterChannels", "HostChoice", "Workload", "choose_host"]


@dataclass(frozen=True, slots=True)
class Workload:
    """The cluster workload attributes of one cluster-receiver channel."""

    rank: int = 0
    priority: int = 0
    weight: int = 50


DEFAULT_WORKLOAD = Workload()


class ClusterChannels:
    """The cluster-receiver channel of each queue manager in each cluster, indexed once."""

    def __init__(self, topology: Topology) -> None:
        namelists = {(n.node, n.name): n.names for n in topology.namelists}
        found: dict[tuple[str, str], Channel] = {}
        for channel in topology.channels:
            if channel.chltype != ChannelType.CLUSRCVR:
                continue
            clusters = {channel.cluster} if channel.cluster else set()
            if channel.clusnl:
                clusters.update(namelists.get((channel.node, channel.clusnl), ()))
            for cluster in clusters:
                key = (channel.node, cluster)
                held = found.get(key)
                if held is None or (held.seq, held.name) < (channel.seq, channel.name):
                    found[key] = channel
        self._workloads = {key: Workload(ch.clwlrank, ch.clwlprty, ch.clwlwght) for key, ch in found.items()}

    def workload(self, node: str, cluster: str) -> Workload:
        return self._workloads.get((node, cluster), DEFAULT_WORKLOAD)


@dataclass(frozen=True, slots=True)
class HostChoice:
    """The outcome of the four steps for one chooser (the publisher or a hierarchy relay)."""

    chosen: str
    """The host the path goes through."""
    sharing: tuple[str, ...]
    """Step (4): the hosts that share the publications, the chosen one first; empty when stored."""
    hosts: tuple[TopicHost, ...]
    """Every host, by name, with its attributes and share."""

    @property
    def stored(self) -> bool:
        """No host of the highest rank is available: the publication waits at the chooser."""
        return not self.sharing

    @property
    def others(self) -> tuple[str, ...]:
        return self.sharing[1:]


def choose_host(
    chooser: str, hosts: Sequence[str], cluster: str, channels: ClusterChannels, failures: Failures
) -> HostChoice | None:
    """Choose among ``hosts`` (the chooser excluded) as semantics §9 says; ``None`` without hosts."""
    names = sorted(h for h in set(hosts) if h != chooser)
    if not names:
        return None
    load = {h: channels.workload(h, cluster) for h in names}
    available = {h: not failures.hop_fails(chooser, h) for h in names}
    top_rank = max(load[h].rank for h in names)
    ranked = [h for h in names if load[h].rank == top_rank]
    up = [h for h in ranked if available[h]]
    sharing: list[str] = []
    if up:
        top_priority = max(load[h].priority for h in up)
        sharing = sorted(
            (h for h in up if load[h].priority == top_priority), key=lambda h: (-load[h].weight, h)
        )
    chosen = sharing[0] if sharing else ranked[0]
    total = sum(load[h].weight for h in sharing)
    table = tuple(
        TopicHost(
            node=h,
            rank=load[h].rank,
            priority=load[h].priority,
            weight=load[h].weight,
            available=available[h],
            share=load[h].weight / total if h in sharing else 0.0,
            chosen=h == chosen,
        )
        for h in names
    )
    return HostChoice(chosen, tuple(sharing), table)
