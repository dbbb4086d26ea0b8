"""EMS registered interest: which topics are global where, how subscriptions and route selectors fit
them, and where durable subscribers make forwarding servers store (semantics §6, §9; references 002, 003).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator

from mqctl.domain.explanation import Publication, Reason
from mqctl.domain.model import Dialect, Subscription, TopicObject
from mqctl.domain.topics import has_wildcards, intersects, is_subset
from mqctl.domain.validation import probe
from mqctl.domain.validation.catalogue import BY_CODE
from mqctl.domain.validation.facts import Facts, components
from mqctl.domain.validation.findings import Finding, finding, listing

EMS = Dialect.EMS


def _routed(facts: Facts) -> set[str]:
    """Servers with at least one route link."""
    return set(facts.route_neighbours)


def _global_on(facts: Facts, server: str, pattern: str) -> bool:
    """Some topic the pattern matches is global on the server."""
    return any(intersects(pattern, g.topicstr, EMS) for g in facts.global_definitions.get(server, ()))


def selector_on_non_global_topic(facts: Facts) -> Iterator[Finding]:
    for rs in facts.topology.route_selectors:
        a, b = sorted((rs.node, rs.peer))
        link = facts.links.get((a, b))
        if link is None or rs.node not in link.definitions:
            continue
        servers = [rs.node] + ([rs.peer] if rs.peer in facts.configured_servers else [])
        missing = [s for s in servers if not _global_on(facts, s, rs.topic)]
        if missing:
            yield finding(
                BY_CODE["SELECTOR_ON_NON_GLOBAL_TOPIC"],
                f"Route {rs.peer} on {rs.node} has an {rs.direction}_topic selector for {rs.topic}, which is not "
                f"global on {listing(missing)}: such messages never cross the route, so the selector selects "
                "nothing.",
                [rs],
                nodes=[rs.peer],
            )


def _subtree(pattern: str) -> str:
    """The pattern's topics and every topic below them."""
    return pattern if pattern.endswith(">") else f"{pattern}.>"


def _overlap(p: str, q: str) -> bool:
    """Some topic of one is, or lies below, a topic of the other."""
    return intersects(p, q, EMS) or intersects(_subtree(p), q, EMS) or intersects(p, _subtree(q), EMS)


def intersecting_global_topics(facts: Facts) -> Iterator[Finding]:
    for server, defs in sorted(facts.global_definitions.items()):
        wild = sorted((d for d in defs if has_wildcards(d.topicstr, EMS)), key=lambda d: d.topicstr)
        for i, p in enumerate(wild):
            for q in wild[i + 1 :]:
                if p.topicstr == q.topicstr or is_subset(p.topicstr, q.topicstr, EMS):
                    continue
                if is_subset(q.topicstr, p.topicstr, EMS) or not _overlap(p.topicstr, q.topicstr):
                    continue
                yield finding(
                    BY_CODE["INTERSECTING_GLOBAL_TOPICS"],
                    f"On server {server}, global topics {p.topicstr} and {q.topicstr} overlap without one "
                    "containing the other: no subscription that spans both is a subset of a global "
                    "definition, and EMS does not support routing such intersections.",
                    [p, q],
                )


def subscription_not_subset_of_global(facts: Facts) -> Iterator[Finding]:
    routed = _routed(facts)
    for sub in facts.ems_subscriptions:
        if sub.node not in routed:
            continue
        globals_ = facts.global_definitions.get(sub.node, ())
        if any(is_subset(sub.topicstr, g.topicstr, EMS) for g in globals_):
            continue
        touched = [g for g in globals_ if intersects(sub.topicstr, g.topicstr, EMS)]
        if touched:
            yield finding(
                BY_CODE["SUBSCRIPTION_NOT_SUBSET_OF_GLOBAL"],
                f"Subscription {sub.name} ('{sub.topicstr}') on server {sub.node} intersects the global "
                f"topic(s) {listing(g.topicstr for g in touched)} but is a subset of none, so EMS does not "
                "reliably route what it subscribes to.",
                [sub, *touched],
            )


def _components(facts: Facts) -> dict[str, frozenset[str]]:
    """Server -> every server a chain of routes connects it to (itself included)."""
    return {server: frozenset(group) for group in components(facts.route_neighbours) for server in group}


def storage_unbounded(facts: Facts) -> Iterator[Finding]:
    """Durable subscribers and the forwarding servers that store for them without a limit.

    Candidates: servers connected to the subscriber's where its topic is global but neither maxbytes
    nor maxmsgs is set. Asked of the engine: a publication on the topic from the subscriber's server,
    with a probe subscription on each candidate. Interest and messages follow the same paths both
    ways, so a candidate the publication reaches (a route selector may stop this one message) is on a
    path to the subscriber: it forwards to it, and stores for it while it is unreachable.
    """
    components = _components(facts)
    wanted: dict[tuple[str, str], list[Subscription]] = defaultdict(list)
    for sub in facts.ems_subscriptions:
        topic = probe.example_topic(sub.topicstr, EMS) if sub.durable else None
        if topic is not None and sub.node in components and facts.ems_topics.is_global(sub.node, topic):
            wanted[(sub.node, topic)].append(sub)
    unlimited: dict[str, set[str]] = {}
    for (server, topic), subs in sorted(wanted.items()):
        if topic not in unlimited:
            unlimited[topic] = {
                s
                for s in components
                if facts.ems_topics.is_global(s, topic) and not facts.ems_topics.storage_bounded(s, topic)
            }
        candidates = sorted((components[server] & unlimited[topic]) - {server})
        if not candidates:
            continue
        model = probe.ems_slice(facts.topology, facts.ems_definitions, probe.probes(candidates, topic))
        answer = probe.ask(model, Publication(server, topic))
        forwarders = sorted(probe.reached(answer, also=(Reason.ROUTE_SELECTOR,)) & set(candidates))
        if forwarders:
            yield _unbounded(facts, server, topic, subs, forwarders)


def _unbounded(
    facts: Facts, server: str, topic: str, subs: list[Subscription], forwarders: list[str]
) -> Finding:
    definitions: list[TopicObject] = [
        d for s in forwarders if (d := facts.ems_topics.most_specific(s, topic)) is not None
    ]
    names = listing(f"{s.name} ('{s.topicstr}')" for s in sorted(subs, key=lambda s: s.name))
    return finding(
        BY_CODE["STORAGE_UNBOUNDED"],
        f"Durable subscription(s) {names} on server {server} are fed over routes by {listing(forwarders)}, "
        f"which set neither maxbytes nor maxmsgs for {topic}: what they store while {server} is unreachable "
        "can grow without limit.",
        [*sorted(subs, key=lambda s: s.name), *definitions],
        nodes=forwarders,
    )


def route_durable_not_static(facts: Facts) -> Iterator[Finding]:
    """Durable subscribers whose neighbour over a route holds no static route durable for their server.

    The neighbour stores for the durable subscriber's server under a route durable (``durables.conf``
    ``topic SERVER route``: "the subscriber is another server"); one it made dynamically is not in its
    configuration, so it does not come back with a restart of that server: messages published while the
    subscriber's server has not yet re-registered its interest are lost. One hop: each server on a longer
    path stores for its own neighbour, and the rule asks it of each pair of neighbours in turn.
    """
    statics: dict[str, list[Subscription]] = defaultdict(list)
    for sub in facts.topology.subscriptions:
        if sub.is_route_durable:
            statics[sub.node].append(sub)
    missing: dict[tuple[str, str], list[Subscription]] = defaultdict(list)
    for sub in facts.ems_subscriptions:
        if not sub.durable:
            continue
        topic = probe.example_topic(sub.topicstr, EMS)
        if topic is None or not facts.ems_topics.is_global(sub.node, topic):
            continue
        for peer in facts.route_neighbours.get(sub.node, ()):
            if peer not in facts.configured_servers or not facts.ems_topics.is_global(peer, topic):
                continue
            if not any(s.name == sub.node and _covers(s.topicstr, sub.topicstr) for s in statics[peer]):
                missing[(peer, sub.node)].append(sub)
    for (peer, server), found in sorted(missing.items()):
        subs = sorted(found, key=lambda s: s.name)
        names = listing(f"{s.name} ('{s.topicstr}')" for s in subs)
        topics = sorted({s.topicstr for s in subs})
        yield finding(
            BY_CODE["ROUTE_DURABLE_NOT_STATIC"],
            f"Server {peer} stores for durable subscription(s) {names} of server {server} over their route, "
            f"but its durables.conf has no static route durable for {server} "
            f"({'; '.join(f'{t} {server} route' for t in topics)}): a dynamic one is lost when {peer} "
            "restarts.",
            subs,
            nodes=[peer],
        )


def _covers(static: str, wanted: str) -> bool:
    if static == wanted:
        return True
    try:
        return is_subset(wanted, static, EMS)
    except Exception:  # noqa: BLE001 — a pattern too costly to compare is not taken as covered
        return False
