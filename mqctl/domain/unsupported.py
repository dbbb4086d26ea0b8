"""Paths IBM does not support: a hierarchy joining a topic-host routed cluster (semantics §4.3).

"This is how a hierarchy joins two clusters — for DIRECT clusters only: IBM does not support it for
topic-host routed clusters (validation error)." One definition of such a link, read by validate (rule
MQC018, which reports the link) and by the routing engine (which marks each delivery whose path crosses it
while the topic is routed by topic host in that cluster at the link's member end: explain and diff then
say on the delivery itself that IBM does not support it).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

from mqctl.domain.explanation import Unsupported
from mqctl.domain.model import ClRoute, Node, TopicObject
from mqctl.domain.resolution import ClusterIndex

RULE = "MQC018"
CODE = "HIERARCHY_WITH_TOPICHOST"


@dataclass(frozen=True, slots=True)
class TopichostJoin:
    """A hierarchy link ``child->parent`` joining ``inside``, a member of ``cluster`` (which has topic-host
    routed topics, ``routed``), with ``outside``, which is not."""

    child: str
    parent: str
    inside: str
    outside: str
    cluster: str
    routed: tuple[TopicObject, ...]

    @property
    def link(self) -> str:
        return f"{self.child}->{self.parent}"


def topichost_joins(nodes: Mapping[str, Node], index: ClusterIndex) -> Iterator[TopichostJoin]:
    """Every such link among the MQ queue managers ``nodes``, by child then direction then cluster."""
    for _, node in sorted(nodes.items()):
        parent = node.parent
        if not parent or parent not in nodes or parent == node.name:
            continue
        for inside, outside in ((node.name, parent), (parent, node.name)):
            for cluster in sorted(index.clusters_of(inside) - index.clusters_of(outside)):
                routed = topichost_objects(index, cluster)
                if routed:
                    yield TopichostJoin(node.name, parent, inside, outside, cluster, routed)


def topichost_objects(index: ClusterIndex, cluster: str) -> tuple[TopicObject, ...]:
    """The cluster's topic-host routed definitions, by topic string then queue manager."""
    return tuple(
        sorted(
            (o for o in index.clustered(cluster) if o.clroute is ClRoute.TOPICHOST),
            key=lambda o: (o.topicstr, o.node),
        )
    )


def unsupported_delivery(join: TopichostJoin, topicstr: str) -> Unsupported:
    """What a delivery over ``join`` says, for a topic routed by topic host under ``topicstr`` there."""
    return Unsupported(
        RULE,
        CODE,
        join.link,
        f"IBM does not support this path: the hierarchy link {join.link} joins {join.inside}, a member of "
        f"cluster {join.cluster}, which routes '{topicstr}' by topic host, with {join.outside}, which is not "
        f"a member (validate: {RULE} {CODE}).",
    )


def first_unsupported(
    hops: Iterable[tuple[str, str]], flagged: Mapping[frozenset[str], Unsupported]
) -> Unsupported | None:
    """The note of the first hierarchy hop (its two ends) of a path that ``flagged`` holds."""
    for a, b in hops:
        found = flagged.get(frozenset((a, b)))
        if found is not None:
            return found
    return None
