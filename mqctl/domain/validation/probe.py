"""The one place where validation asks the routing engine a question.

Some rules are routing facts (who misses what, which host takes a publication, where a message is
stored): they are asked of ``mqctl.domain.routing.explain``, never worked out a second time. Each rule
first narrows its candidates with cheap necessary conditions, then asks the engine about those only,
on a slice of the model that holds what the answer depends on (the engine reads only what it is
given), with *probe* subscriptions where the question is "would a subscriber there receive it?".

When the engine offers a model prepared once for many questions, ``ask`` is the call to switch.
"""

from __future__ import annotations

from collections.abc import Iterable

from mqctl.domain.explanation import Explanation, Publication, Reason
from mqctl.domain.model import Dialect, Subscription, TopicObject, Topology
from mqctl.domain.resolution import chain_topicstrs
from mqctl.domain.routing import explain
from mqctl.domain.topics import has_wildcards, levels, matches

PROBE = "mqctl.validate.probe"
"""Name of the subscriptions validation adds to a slice to ask whether a node would receive a topic."""

_FILLER = "x"
"""The level that stands for a wildcard level in an example topic."""


def ask(topology: Topology, publication: Publication) -> Explanation:
    """Explain one publication over ``topology`` (a slice built below)."""
    return explain(topology, publication)


def probes(nodes: Iterable[str], topic: str, *, durable: bool = True) -> list[Subscription]:
    """One subscription on ``topic`` per node, named ``PROBE``."""
    return [Subscription(node, PROBE, topic, durable=durable) for node in sorted(set(nodes))]


def reached(answer: Explanation, *, also: Iterable[Reason] = (), name: str = PROBE) -> set[str]:
    """Nodes where subscription ``name`` gets a copy (now or later; a copy its selector refuses counts),
    and those whose miss has a reason in ``also``."""
    counted = {Reason.SELECTOR_FALSE, *also}
    got = {d.node for d in answer.deliveries if d.subscription == name}
    return got | {n.node for n in answer.not_delivered if n.subscription == name and n.reason in counted}


def mq_slice(topology: Topology, subscriptions: Iterable[Subscription], topic: str) -> Topology:
    """What routing a publication on ``topic`` between queue managers reads, and only these subscriptions.

    As the store's explain slice: the topic objects on the topic's chain (TOPICSTR a level-prefix of it)
    and those sharing a name with them; every queue manager, membership, channel and hierarchy link. A
    subscription's fate depends on its own proxy subscriptions, never on another node's subscriptions,
    so leaving the others out does not change the answer about these.
    """
    mq = {name: node for name, node in topology.nodes.items() if node.dialect is Dialect.MQ}
    ours = [t for t in topology.topics if t.node in mq or t.node not in topology.nodes]
    chain = set(chain_topicstrs(levels(topic, Dialect.MQ)))
    names = {t.name for t in ours if t.topicstr in chain}
    return Topology(
        nodes=mq,
        memberships=topology.memberships,
        topics=[t for t in ours if t.topicstr in chain or t.name in names],
        subscriptions=list(subscriptions),
        channels=topology.channels,
        namelists=topology.namelists,
    )


def ems_slice(
    topology: Topology, definitions: list[TopicObject], subscriptions: Iterable[Subscription]
) -> Topology:
    """The EMS servers, their routes, selectors and topic definitions, and only these subscriptions."""
    servers = {name: node for name, node in topology.nodes.items() if node.dialect is Dialect.EMS}
    return Topology(
        nodes=servers,
        topics=definitions,
        subscriptions=list(subscriptions),
        routes=topology.routes,
        route_selectors=topology.route_selectors,
    )


def example_topic(pattern: str, dialect: Dialect) -> str | None:
    """A concrete topic the pattern matches: each wildcard level stands for one level (MQ ``#`` none).

    Used where a rule must publish on *some* topic a subscription wants; ``None`` when the pattern is
    not a topic-level pattern (a WSCHEMA(CHAR) one, or an EMS ``>`` alone).
    """
    if not has_wildcards(pattern, dialect):
        return pattern
    wild_one, wild_many = ("+", "#") if dialect is Dialect.MQ else ("*", ">")
    out: list[str] = []
    for level in levels(pattern, dialect):
        if level == wild_one or (level == wild_many and dialect is Dialect.EMS):
            out.append(_FILLER)
        elif level != wild_many:
            out.append(level)
    topic = ("/" if dialect is Dialect.MQ else ".").join(out)
    return topic if topic and matches(pattern, topic, dialect) else None
