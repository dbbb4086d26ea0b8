"""MQ clusters: repositories, membership of topic hosts, topic host routing, PSMODE/PSCLUS, TOPICSTR text.

References: 000 (topic host routing), 004 (cluster topics and full repositories); semantics §3, §5.3, §9.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator

from mqctl.domain.explanation import Publication, WarningCode
from mqctl.domain.model import PS_COMPAT, PS_DISABLED, Channel, ChannelType, ClRoute, TopicObject, Topology
from mqctl.domain.validation import probe
from mqctl.domain.validation.catalogue import BY_CODE
from mqctl.domain.validation.facts import Facts
from mqctl.domain.validation.findings import ClusterRef, Finding, finding, listing

RECOMMENDED_FULL_REPOSITORIES = 2
LITERAL_CHARACTERS = "#+*"


def no_full_repository(facts: Facts) -> Iterator[Finding]:
    for cluster, members in facts.memberships.items():
        if not facts.full_repositories(cluster):
            names = [m.node for m in members]
            yield finding(
                BY_CODE["NO_FULL_REPOSITORY"],
                f"Cluster {cluster} ({len(names)} member(s): {listing(names)}) has no full repository, so "
                "nothing pushes its clustered topic definitions to its members.",
                [ClusterRef(cluster)],
                nodes=names,
                at=_receivers(facts, cluster, names),
            )


def full_repository_count(facts: Facts) -> Iterator[Finding]:
    for cluster in facts.memberships:
        repos = facts.full_repositories(cluster)
        if not repos or len(repos) == RECOMMENDED_FULL_REPOSITORIES:
            continue
        why = (
            "a single point of failure for the cluster's definitions"
            if len(repos) == 1
            else "more than the two MQ recommends"
        )
        yield finding(
            BY_CODE["FULL_REPOSITORY_COUNT"],
            f"Cluster {cluster} has {len(repos)} full {'repository' if len(repos) == 1 else 'repositories'} "
            f"({listing(repos)}): {why}.",
            [ClusterRef(cluster)],
            nodes=repos,
            at=[
                *(facts.mq_nodes[r] for r in repos if r in facts.mq_nodes),
                *_receivers(facts, cluster, repos),
            ],
        )


def _receivers(facts: Facts, cluster: str, members: list[str]) -> list[Channel]:
    """The CLUSRCVR channels that make ``members`` members of ``cluster``: where a cluster's finding is
    placed in the files (a cluster has no definition of its own)."""
    namelists = {(n.node, n.name): n.names for n in facts.topology.namelists}
    wanted = set(members)
    return [
        c
        for c in facts.topology.channels
        if c.chltype is ChannelType.CLUSRCVR
        and c.node in wanted
        and (c.cluster == cluster or cluster in namelists.get((c.node, c.clusnl), ()))
    ]


def _known_clusters(facts: Facts) -> set[str]:
    return set(facts.memberships)


def unknown_cluster(facts: Facts) -> Iterator[Finding]:
    rule = BY_CODE["UNKNOWN_CLUSTER"]
    known = _known_clusters(facts)
    for obj in facts.mq_topics:
        if obj.cluster and obj.cluster not in known:
            yield finding(
                rule,
                f"Topic object {obj.name} on {obj.node} names cluster {obj.cluster}, of which no queue "
                "manager is a member, so the object is shared with nobody.",
                [obj, ClusterRef(obj.cluster)],
            )
    namelists = {(n.node, n.name): n.names for n in facts.topology.namelists}
    for channel in facts.topology.channels:
        if channel.chltype is not ChannelType.CLUSSDR:
            continue
        named = (
            [channel.cluster] if channel.cluster else list(namelists.get((channel.node, channel.clusnl), ()))
        )
        for cluster in (c for c in named if c and c not in known):
            yield finding(
                rule,
                f"Cluster-sender channel {channel.name} on {channel.node} points at cluster {cluster}, of which "
                "no queue manager is a member.",
                [channel, ClusterRef(cluster)],
            )


def topic_host_not_member(facts: Facts) -> Iterator[Finding]:
    for obj in facts.mq_topics:
        if obj.cluster and not facts.clusters.is_member(obj.node, obj.cluster):
            yield finding(
                BY_CODE["TOPIC_HOST_NOT_MEMBER"],
                f"Topic object {obj.name} ('{obj.topicstr}') is clustered in {obj.cluster}, but {obj.node} is "
                f"not a member of {obj.cluster}, so the definition reaches no other queue manager.",
                [obj, ClusterRef(obj.cluster)],
            )


def clroute_without_cluster(facts: Facts) -> Iterator[Finding]:
    for obj in facts.mq_topics:
        if obj.clroute is ClRoute.TOPICHOST and not obj.cluster:
            yield finding(
                BY_CODE["CLROUTE_WITHOUT_CLUSTER"],
                f"Topic object {obj.name} ('{obj.topicstr}') on {obj.node} sets CLROUTE(TOPICHOST) but no "
                f"CLUSTER, so {obj.node} does not host it and topic host routing is not in force.",
                [obj],
            )


def topicstr_wildcard_character(facts: Facts) -> Iterator[Finding]:
    for obj in facts.mq_topics:
        found = [c for c in LITERAL_CHARACTERS if c in obj.topicstr]
        if found:
            chars = " and ".join(f"'{c}'" for c in found)
            yield finding(
                BY_CODE["TOPICSTR_WILDCARD_CHARACTER"],
                f"The TOPICSTR '{obj.topicstr}' of topic object {obj.name} on {obj.node} contains {chars}, "
                "which MQ takes literally in a topic string, not as a wildcard.",
                [obj],
            )


# --- topic host routing ------------------------------------------------------------------------------


def _topichost_groups(facts: Facts) -> Iterator[tuple[str, str, list[TopicObject]]]:
    """(cluster, TOPICSTR, definitions on members) of every topic-host routed clustered topic.

    Among definitions that disagree (ATTRIBUTE_CONFLICT) the most recent decides the routing.
    """
    for cluster in sorted(facts.memberships):
        groups: dict[str, list[TopicObject]] = defaultdict(list)
        for obj in facts.clusters.clustered(cluster):
            groups[obj.topicstr].append(obj)
        for topicstr in sorted(groups):
            defs = sorted(groups[topicstr], key=lambda o: (o.node, o.name))
            if max(defs, key=lambda o: (o.seq, o.node, o.name)).clroute is ClRoute.TOPICHOST:
                yield cluster, topicstr, defs


def _hosts(defs: list[TopicObject]) -> list[str]:
    return sorted({d.node for d in defs})


def topic_host_on_full_repository(facts: Facts) -> Iterator[Finding]:
    for cluster, topicstr, defs in _topichost_groups(facts):
        repos = set(facts.full_repositories(cluster))
        for obj in defs:
            if obj.node in repos:
                yield finding(
                    BY_CODE["TOPIC_HOST_ON_FULL_REPOSITORY"],
                    f"Topic-host routed topic {obj.name} ('{topicstr}', cluster {cluster}) is hosted on "
                    f"{obj.node}, a full repository of {cluster}: every publication of the branch passes "
                    "through its host.",
                    [obj, ClusterRef(cluster)],
                )


def single_topic_host(facts: Facts) -> Iterator[Finding]:
    for cluster, topicstr, defs in _topichost_groups(facts):
        hosts = _hosts(defs)
        if len(hosts) == 1:
            yield finding(
                BY_CODE["SINGLE_TOPIC_HOST"],
                f"Topic-host routed topic {defs[0].name} ('{topicstr}', cluster {cluster}) has one host, "
                f"{hosts[0]}: while it is unavailable, publications from other members wait.",
                [*defs, ClusterRef(cluster)],
            )


def order_not_preserved(facts: Facts) -> Iterator[Finding]:
    """Asked of the engine: a publication from a member that is not a host, on the topic itself."""
    answers: dict[tuple[str, tuple[str, ...]], str | None] = {}
    for cluster, topicstr, defs in _topichost_groups(facts):
        hosts = tuple(_hosts(defs))
        publisher = next((m for m in facts.clusters.members(cluster) if m not in hosts), None)
        if len(hosts) < 2 or publisher is None:
            continue
        key = (cluster, hosts)
        if key not in answers:
            answer = probe.ask(_host_slice(facts, cluster, defs), Publication(publisher, topicstr))
            answers[key] = next(
                (w.message for w in answer.warnings if w.code is WarningCode.ORDER_NOT_PRESERVED), None
            )
        if answers[key] is not None:
            yield finding(
                BY_CODE["ORDER_NOT_PRESERVED"],
                f"Topic-host routed topic {defs[0].name} ('{topicstr}', cluster {cluster}) has hosts "
                f"{listing(hosts)} that share the publications of other members, so the order of messages "
                "is not preserved across them.",
                [*defs, ClusterRef(cluster)],
            )


def _host_slice(facts: Facts, cluster: str, defs: list[TopicObject]) -> Topology:
    """The cluster's members, the topic's definitions and the channels that weigh the hosts (§9)."""
    members = set(facts.clusters.members(cluster))
    return Topology(
        nodes={n: node for n, node in facts.mq_nodes.items() if n in members},
        memberships=facts.memberships[cluster],
        topics=defs,
        channels=[c for c in facts.topology.channels if c.node in members],
        namelists=[n for n in facts.topology.namelists if n.node in members],
    )


# --- PSMODE / PSCLUS ---------------------------------------------------------------------------------


def pubsub_disabled(facts: Facts) -> Iterator[Finding]:
    clustered_clusters = {o.cluster for o in facts.mq_topics if o.cluster}
    for name, node in sorted(facts.mq_nodes.items()):
        broken: list[str] = []
        used = sorted(c for c in facts.clusters.clusters_of(name) if c in clustered_clusters)
        neighbours = facts.hierarchy_neighbours.get(name, [])
        if node.psmode == PS_DISABLED and (used or neighbours):
            parts = [f"clustered topics of {listing(used)}"] if used else []
            parts += [f"hierarchy links to {listing(neighbours)}"] if neighbours else []
            broken.append(
                f"PSMODE(DISABLED) stops the publish/subscribe engine its {' and '.join(parts)} need"
            )
        if node.psmode == PS_COMPAT and neighbours:
            # semantics §9 "Hierarchies and PSMODE": a hierarchy relies on queued publish/subscribe at
            # both ends, which COMPAT does not run (IBM, "Connect a queue manager to a publish/subscribe
            # hierarchy")
            broken.append(
                f"PSMODE(COMPAT) runs no queued publish/subscribe, which its hierarchy links to "
                f"{listing(neighbours)} need"
            )
        if node.psclus == PS_DISABLED and used:
            broken.append(
                f"PSCLUS(DISABLED) keeps it out of publish/subscribe in {listing(used)}, which have clustered topics"
            )
        if broken:
            yield finding(
                BY_CODE["PUBSUB_DISABLED"],
                f"On queue manager {name}, {'; '.join(broken)}.",
                [node, *(ClusterRef(c) for c in used)],
                nodes=neighbours,
            )
