"""MQ publish/subscribe hierarchies: the PARENT links, and how they meet clusters (semantics §1, §4.3)."""

from __future__ import annotations

from collections.abc import Iterator

from mqctl.domain.explanation import Publication, WarningCode
from mqctl.domain.model import Node
from mqctl.domain.unsupported import topichost_joins
from mqctl.domain.validation import probe
from mqctl.domain.validation.catalogue import BY_CODE
from mqctl.domain.validation.facts import Facts, components
from mqctl.domain.validation.findings import ClusterRef, Finding, finding, listing


def _defining(facts: Facts) -> set[str]:
    """Queue managers that define something of their own (not merely named by another's PARENT)."""
    topology = facts.topology
    owners = {
        o.node
        for kind in (topology.topics, topology.subscriptions, topology.channels, topology.namelists)
        for o in kind
    }
    owners |= {m.node for m in topology.memberships}
    owners |= {n.name for n in topology.nodes.values() if n.parent or n.descr}
    return owners


def unknown_parent(facts: Facts) -> Iterator[Finding]:
    """PARENT names a queue manager the model knows only by that name (MQ accepts any name; mqctl creates
    it on first reference), or something that is not a queue manager."""
    defining = _defining(facts)
    for name, node in sorted(facts.mq_nodes.items()):
        if not node.parent or (node.parent in facts.mq_nodes and node.parent in defining):
            continue
        if node.parent in facts.ems_servers:
            what = "an EMS server"
        elif node.parent in facts.mq_nodes:
            what = "a queue manager the model knows only by that name (no definitions of its own)"
        else:
            what = "not a queue manager of the model"
        yield finding(
            BY_CODE["UNKNOWN_PARENT"],
            f"Queue manager {name} has PARENT({node.parent}), which is {what}, so the hierarchy link leads nowhere.",
            [node],
        )


def hierarchy_cycle(facts: Facts) -> Iterator[Finding]:
    nodes = facts.mq_nodes
    done: set[str] = set()
    for start in sorted(nodes):
        path: list[str] = []
        here: str | None = start
        while here is not None and here in nodes and here not in done and here not in path:
            path.append(here)
            here = nodes[here].parent or None
        if here is not None and here in path:
            loop = path[path.index(here) :]
            first = loop.index(min(loop))
            loop = loop[first:] + loop[:first]
            yield finding(
                BY_CODE["HIERARCHY_CYCLE"],
                f"Queue managers {' -> '.join([*loop, loop[0]])} name each other as PARENT in a loop.",
                [nodes[n] for n in loop],
            )
        done.update(path)


def _links(facts: Facts) -> list[tuple[Node, str]]:
    """(child, parent) of every hierarchy link between two queue managers of the model."""
    return [
        (node, node.parent)
        for _, node in sorted(facts.mq_nodes.items())
        if node.parent and node.parent in facts.mq_nodes and node.parent != node.name
    ]


def hierarchy_with_topichost(facts: Facts) -> Iterator[Finding]:
    """``unsupported.topichost_joins``: the one definition explain's deliveries also read."""
    for join in topichost_joins(facts.mq_nodes, facts.clusters):
        topics = listing(sorted({f"'{o.topicstr}'" for o in join.routed}))
        yield finding(
            BY_CODE["HIERARCHY_WITH_TOPICHOST"],
            f"The hierarchy link {join.link} joins {join.inside}, a member of cluster {join.cluster}, "
            f"with {join.outside}, which is not; {join.cluster} routes {topics} by topic host, and IBM does "
            "not support a hierarchy joining a topic-host routed cluster.",
            [facts.mq_nodes[join.child], ClusterRef(join.cluster), *join.routed],
            nodes=[join.parent],
        )


def pubsub_loop(facts: Facts) -> Iterator[Finding]:
    """Two members of one cluster in one group of hierarchy-linked queue managers.

    When the cluster has clustered topics the loop is asked of the engine: a publication on each of
    them from the first of those members, with a probe subscription on the others, until one arrives
    along two paths. A cluster without clustered topics carries no publication yet: the loop is
    reported as it stands, for the first topic clustered there.
    """
    for group in components(facts.hierarchy_neighbours):
        in_group = set(group)
        links = [(c, p) for c, p in _links(facts) if c.name in in_group]
        for cluster in sorted({c for n in group for c in facts.clusters.clusters_of(n)}):
            members = [m for m in facts.clusters.members(cluster) if m in in_group]
            if len(members) < 2:
                continue
            topicstrs = sorted({o.topicstr for o in facts.clusters.clustered(cluster)})
            joined = (
                f"Queue managers {listing(members)} are joined both by cluster {cluster} and by the hierarchy "
                f"links {listing(f'{c.name}->{p}' for c, p in links)}"
            )
            if not topicstrs:
                effect = f"a publication on any topic clustered in {cluster} will reach them along two paths"
            elif (twice := _loop_evidence(members, topicstrs, facts)) is not None:
                topicstr, nodes = twice
                effect = f"a publication on '{topicstr}' from {members[0]} reaches {listing(nodes)} along two paths"
            else:
                continue
            yield finding(
                BY_CODE["PUBSUB_LOOP"],
                f"{joined}: {effect}, so subscribers can see duplicates.",
                [*(c for c, _ in links), ClusterRef(cluster)],
                nodes=members,
            )


def _loop_evidence(members: list[str], topicstrs: list[str], facts: Facts) -> tuple[str, list[str]] | None:
    for topicstr in topicstrs:
        model = probe.mq_slice(facts.topology, probe.probes(members[1:], topicstr), topicstr)
        answer = probe.ask(model, Publication(members[0], topicstr))
        if any(w.code is WarningCode.DUPLICATES_POSSIBLE for w in answer.warnings):
            return topicstr, sorted(d.node for d in answer.deliveries if d.alternatives) or members[1:]
    return None
