"""Planning variants of a topology (reference 000's question: what if this branch were topic-host routed?).

``--what-if`` texts of ``mqctl spark analyze``:

- ``topichost:TOPICOBJ@QMGR[,QMGR...]``: the clustered topic object TOPICOBJ defined, CLROUTE(TOPICHOST),
  on exactly those queue managers (members of its cluster), as an administrator would redefine it;
- ``direct:TOPICOBJ``: every clustered definition of TOPICOBJ altered to CLROUTE(DIRECT);
- ``down:NODE``: the node is down (a ``Failures``, as ``explain --down``).

A variant is a new topology (the current one is not changed) plus failures; the changed definitions go
through the same single-object rules as every door, with the sequence number an ALTER would give them.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from mqctl.domain.errors import InputError
from mqctl.domain.explanation import Failures
from mqctl.domain.model import ClRoute, Dialect, TopicObject, Topology
from mqctl.domain.objects import check_definition
from mqctl.domain.objects.topic_objects import check_unique_topicstr

__all__ = ["CURRENT", "Variant", "apply_variant", "parse_variant"]

CURRENT = "current"
KINDS = ("topichost", "direct", "down")


@dataclass(frozen=True, slots=True)
class Variant:
    """One ``--what-if``: its text as given (the name in every report), kind and operands."""

    text: str
    kind: str
    target: str
    """The topic object (topichost, direct) or the node (down)."""
    hosts: tuple[str, ...] = ()


def parse_variant(text: str) -> Variant:
    """Parse one ``--what-if`` text; ``InputError`` names the option and says the accepted forms."""
    usage = "expected topichost:TOPICOBJ@QMGR[,QMGR...], direct:TOPICOBJ or down:NODE"
    kind, colon, rest = text.partition(":")
    kind = kind.strip().lower()
    if not colon or kind not in KINDS or not rest.strip():
        raise InputError(f"{text!r}: {usage}", attribute="--what-if")
    if kind == "topichost":
        target, at, hosts_text = rest.partition("@")
        hosts = tuple(h.strip() for h in hosts_text.split(",") if h.strip())
        if not at or not target.strip() or not hosts:
            raise InputError(f"{text!r}: {usage}", attribute="--what-if")
        if len(set(hosts)) != len(hosts):
            raise InputError(f"{text!r}: a queue manager is named twice", attribute="--what-if")
        return Variant(text, kind, target.strip(), hosts)
    if "@" in rest:
        raise InputError(f"{text!r}: {usage}", attribute="--what-if")
    return Variant(text, kind, rest.strip())


def apply_variant(topology: Topology, variant: Variant) -> tuple[Topology, Failures]:
    """The topology and failures of ``variant``; ``InputError`` if it names what the model lacks."""
    if variant.kind == "down":
        if variant.target not in topology.nodes:
            raise InputError("no such node", obj=variant.target, attribute="--what-if")
        return topology, Failures(down=frozenset({variant.target}))
    clustered = [
        t
        for t in topology.topics
        if t.name == variant.target and t.cluster and topology.nodes[t.node].dialect is Dialect.MQ
    ]
    if not clustered:
        raise InputError(
            "no clustered topic object of that name (the variant changes how a cluster routes it)",
            obj=f"topic {variant.target}",
            attribute="--what-if",
        )
    seq = max((t.seq for t in topology.topics), default=0) + 1
    if variant.kind == "direct":
        changed = {id(t): dataclasses.replace(t, clroute=ClRoute.DIRECT, seq=seq) for t in clustered}
        topics = [changed.get(id(t), t) for t in topology.topics]
        return dataclasses.replace(topology, topics=topics), Failures()
    return _topic_hosts(topology, variant, clustered, seq), Failures()


def _topic_hosts(topology: Topology, variant: Variant, clustered: list[TopicObject], seq: int) -> Topology:
    template = max(clustered, key=lambda t: t.seq)
    members = {m.node for m in topology.memberships if m.cluster == template.cluster}
    for host in variant.hosts:
        node = topology.nodes.get(host)
        if node is None:
            raise InputError("no such node", obj=host, attribute="--what-if")
        if node.dialect is not Dialect.MQ or host not in members:
            raise InputError(
                f"not a queue manager of cluster {template.cluster}, so it cannot host {template.name}",
                obj=host,
                attribute="--what-if",
            )
    hosted = [
        dataclasses.replace(template, node=h, clroute=ClRoute.TOPICHOST, seq=seq) for h in variant.hosts
    ]
    # DEFINE ... REPLACE on a host replaces whatever object of that name it held
    gone = {id(t) for t in clustered}
    gone |= {id(t) for t in topology.topics if t.name == template.name and t.node in variant.hosts}
    topics = [t for t in topology.topics if id(t) not in gone]
    for topic in hosted:
        check_definition(topic, Dialect.MQ)
        holder = next((t.name for t in topics if t.node == topic.node and t.topicstr == topic.topicstr), None)
        check_unique_topicstr(topic, holder)
    return dataclasses.replace(topology, topics=topics + hosted)
