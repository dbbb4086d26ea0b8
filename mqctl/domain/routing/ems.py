"""EMS routing: where a publication on a TIBCO EMS server goes over routes, and why it does not
(SEMANTICS §6, §8, §9; references 002 and 003).

The model, in short:

- Routes are bidirectional links between two servers. A pair defined on both servers is
  *active-active*; defined on one only it is *active-passive*, active on the definer. Selectors count
  only on a side that defines the route.
- Registered interest is judged hop by hop on the concrete topic: T crosses X→Y only when T is global on
  both X and Y. Paths are simple (never back to a server already on the path).
- A message that arrived at S over a route of a one-hop zone Z is not forwarded by S over another route
  of Z; crossing into another zone starts again. A zone with any ``1hop`` route counts as one-hop.
- The effective selector on X→Y is the AND of X's ``outgoing_topic`` selectors towards Y and Y's
  ``incoming_topic`` selectors from X whose topic pattern matches T; only TRUE crosses.

How one subscription is judged (``_judge``): the reasons are tried in the §9 precedence
``SUBSCRIBER_OFFLINE``, ``DOWN`` (publisher or the non-durable subscriber's own server), ``NO_PATH``,
``NOT_GLOBAL``, ``ONE_HOP_ZONE``, ``ROUTE_SELECTOR``, ``DOWN`` (gap), ``SELECTOR_FALSE``. Where several
paths lead to the subscriber, the reason is what blocks the *best candidate path*: the path that gets
furthest down that list, i.e. whose worst blocker comes latest (then fewest hops, then names). So a
path merely refused by a route selector is reported before a shorter one that crosses a server where T
is not global, because fixing the selector is what would make the message arrive. This min-max choice
is computed as a ladder of relaxations: ``ROUTE_SELECTOR`` when some path obeys the global and zone
rules, ``ONE_HOP_ZONE`` when one obeys the global rule, ``NOT_GLOBAL`` when the servers are connected at
all, else ``NO_PATH``.
"""

from __future__ import annotations

from collections import defaultdict, deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from enum import IntEnum

from mqctl.domain.ems_topics import EmsTopicIndex
from mqctl.domain.explanation import (
    Delivery,
    Explanation,
    Failures,
    Hop,
    NotDelivered,
    Publication,
    Reason,
    Resolved,
    Status,
    Via,
    WarningCode,
)
from mqctl.domain.messages import Message
from mqctl.domain.model import Dialect, Direction, Route, RouteSelector, Subscription, Topology, ZoneType
from mqctl.domain.selector import compile_selector
from mqctl.domain.topics import matches, validate_topic

__all__ = ["explain_ems"]

STEP_BUDGET = 200_000
"""Path expansions explored per publication. Well-formed EMS networks (mhop zones are trees, 1hop zones
allow one hop) stay far below it; a pathological mesh stops there, deterministically."""

_Pair = tuple[str, str]
_Path = tuple[str, ...]


# --- the network -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Link:
    """The connection between two servers, made of one (active-passive) or two (active-active) routes."""

    definitions: dict[str, Route]
    """Definer -> its route towards the other server."""

    @property
    def active_active(self) -> bool:
        return len(self.definitions) == 2

    def zones(self) -> frozenset[str]:
        return frozenset(r.zone_name for r in self.definitions.values())

    def definer(self) -> str:
        """The single definer of an active-passive link (the first by name for active-active)."""
        return min(self.definitions)


@dataclass(slots=True)
class _Network:
    """The EMS servers and route links of a topology, with the zone types."""

    servers: set[str]
    links: dict[frozenset[str], _Link]
    neighbours: dict[str, list[str]]
    one_hop_zones: set[str]

    def link(self, x: str, y: str) -> _Link:
        return self.links[frozenset((x, y))]

    def hop_name(self, x: str, y: str) -> str:
        """The route's name as defined: X's route to Y is named Y; failing that, Y's route named X."""
        return y if x in self.link(x, y).definitions else x

    def one_hop_block(self, arrived: _Pair | None, nxt: _Pair) -> str | None:
        """The one-hop zone that forbids forwarding over ``nxt`` after arriving over ``arrived``."""
        if arrived is None:
            return None
        shared = self.link(*arrived).zones() & self.link(*nxt).zones() & self.one_hop_zones
        return min(shared) if shared else None

    def route_phrase(self, x: str, y: str) -> str:
        """How an admin names the connection between X and Y, with who defines it."""
        link = self.link(x, y)
        if link.active_active:
            return f"the active-active route between {x} and {y}"
        definer = link.definer()
        other = y if definer == x else x
        return f"route {other} defined on {definer} only (active-passive)"


def _build_network(topology: Topology) -> _Network:
    """Every EMS server (nodes, plus servers known only as a route's peer) and the links between them."""
    mq = {name for name, node in topology.nodes.items() if node.dialect is not Dialect.EMS}
    servers = {name for name, node in topology.nodes.items() if node.dialect is Dialect.EMS}
    definitions: dict[frozenset[str], dict[str, Route]] = defaultdict(dict)
    zone_types: dict[str, set[ZoneType]] = defaultdict(set)
    for route in topology.routes:
        if route.node == route.peer or route.node in mq or route.peer in mq:
            continue
        servers.update((route.node, route.peer))
        held = definitions[frozenset((route.node, route.peer))]
        if route.node not in held or held[route.node].seq < route.seq:
            held[route.node] = route  # the same route twice: the most recent definition
        zone_types[route.zone_name].add(ZoneType(route.zone_type))
    links = {pair: _Link(defs) for pair, defs in definitions.items()}
    neighbours: dict[str, list[str]] = defaultdict(list)
    for pair in links:
        a, b = sorted(pair)
        neighbours[a].append(b)
        neighbours[b].append(a)
    for names in neighbours.values():
        names.sort()
    one_hop = {zone for zone, types in zone_types.items() if ZoneType.ONE_HOP in types}
    return _Network(servers, links, dict(neighbours), one_hop)


# --- route selectors ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _HopFilter:
    """The effective route selector of one directed hop for this publication."""

    text: str | None
    verdict: bool | None
    """True when the message crosses; False or None (UNKNOWN) when the selector refuses it."""

    @property
    def passes(self) -> bool:
        return self.verdict is True


class _Selectors:
    """Route selectors by the route that holds them, judged once per directed hop."""

    def __init__(self, topology: Topology, network: _Network, topic: str, message: Message) -> None:
        self._held: dict[_Pair, list[RouteSelector]] = defaultdict(list)
        for rs in topology.route_selectors:
            pair = frozenset((rs.node, rs.peer))
            if pair in network.links and rs.node in network.links[pair].definitions:
                self._held[(rs.node, rs.peer)].append(rs)
        self._topic = topic
        self._message = message
        self._cache: dict[_Pair, _HopFilter] = {}

    def hop(self, x: str, y: str) -> _HopFilter:
        found = self._cache.get((x, y))
        if found is None:
            found = self._cache[(x, y)] = self._judge(x, y)
        return found

    def _applicable(self, holder: str, peer: str, direction: Direction) -> list[RouteSelector]:
        held = [
            rs
            for rs in self._held.get((holder, peer), ())
            if rs.direction == direction and matches(rs.topic, self._topic, Dialect.EMS)
        ]
        return sorted(held, key=lambda rs: (rs.seq, rs.topic, rs.selector))

    def _judge(self, x: str, y: str) -> _HopFilter:
        """AND of X's outgoing and Y's incoming selectors for T, in three-valued logic."""
        found = self._applicable(x, y, Direction.OUTGOING) + self._applicable(y, x, Direction.INCOMING)
        if not found:
            return _HopFilter(None, True)
        texts = [rs.selector for rs in found]
        text = texts[0] if len(texts) == 1 else " AND ".join(f"({t})" for t in texts)
        verdicts = [compile_selector(t).evaluate(self._message) for t in texts]
        verdict: bool | None = True
        if any(v is False for v in verdicts):
            verdict = False
        elif any(v is None for v in verdicts):
            verdict = None
        return _HopFilter(text, verdict)


# --- paths -------------------------------------------------------------------------------------------


class _Outcome(IntEnum):
    """What a path does with the message; the order is the ranking of §9 (best first)."""

    DELIVERED = 0
    STORED = 1
    GAP = 2
    REJECTED = 3


@dataclass(frozen=True, slots=True)
class _Judged:
    """One path that obeys the global and zone rules, judged against selectors and failures."""

    servers: _Path
    outcome: _Outcome
    at: int | None = None
    """Index of the deciding hop: the refusing selector (REJECTED) or the first failing hop."""
    duplicates: bool = False

    def key(self) -> tuple[int, int, _Path]:
        return (int(self.outcome), len(self.servers), self.servers)

    def hop(self) -> _Pair:
        assert self.at is not None
        return self.servers[self.at], self.servers[self.at + 1]


def _structural_paths(
    network: _Network, start: str, is_global: Callable[[str], bool]
) -> dict[str, list[_Path]]:
    """Every simple path from ``start`` that obeys the global and one-hop-zone rules, by end server."""
    found: dict[str, list[_Path]] = defaultdict(list)
    if not is_global(start):
        return found
    stack: list[_Path] = [(start,)]
    steps = 0
    while stack and steps < STEP_BUDGET:
        path = stack.pop()
        here = path[-1]
        arrived = (path[-2], here) if len(path) > 1 else None
        for nxt in reversed(network.neighbours.get(here, [])):
            steps += 1
            if nxt in path or not is_global(nxt) or network.one_hop_block(arrived, (here, nxt)):
                continue
            longer = (*path, nxt)
            found[nxt].append(longer)
            stack.append(longer)
    return found


def _judge_path(path: _Path, network: _Network, selectors: _Selectors, failures: Failures) -> _Judged:
    """Selectors first (a refused message goes nowhere whatever is down), then the first failing hop."""
    hops = list(zip(path, path[1:], strict=False))
    for index, (x, y) in enumerate(hops):
        if not selectors.hop(x, y).passes:
            return _Judged(path, _Outcome.REJECTED, index)
    for index, (x, y) in enumerate(hops):
        if failures.hop_fails(x, y):
            link = network.link(x, y)
            if link.active_active:
                return _Judged(path, _Outcome.STORED, index)
            if y in link.definitions:
                return _Judged(path, _Outcome.GAP, index)
            return _Judged(path, _Outcome.STORED, index, duplicates=True)
    return _Judged(path, _Outcome.DELIVERED)


def _shortest(network: _Network, start: str, goal: str, allowed: Callable[[str, str], bool]) -> _Path | None:
    """Breadth-first over allowed hops; neighbours in name order, so the answer is deterministic."""
    parent: dict[str, str | None] = {start: None}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        if here == goal:
            out = [here]
            while (prev := parent[out[-1]]) is not None:
                out.append(prev)
            return tuple(reversed(out))
        for nxt in network.neighbours.get(here, []):
            if nxt not in parent and allowed(here, nxt):
                parent[nxt] = here
                queue.append(nxt)
    return None


# --- the engine --------------------------------------------------------------------------------------


@dataclass(slots=True)
class _Context:
    """Everything one publication's explanation needs, computed once."""

    topology: Topology
    publication: Publication
    failures: Failures
    network: _Network
    topics: EmsTopicIndex
    selectors: _Selectors
    message: Message
    paths: dict[str, list[_Judged]]
    explanation: Explanation
    unbounded: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    """Forwarding server without storage limits -> durable subscriptions behind it."""

    @property
    def topic(self) -> str:
        return self.publication.topic

    @property
    def publisher(self) -> str:
        return self.publication.from_node

    def is_global(self, server: str) -> bool:
        return self.topics.is_global(server, self.topic)


def explain_ems(topology: Topology, publication: Publication, failures: Failures) -> Explanation:
    """Explain one publication on an EMS server: deliveries, refusals with reasons, warnings."""
    validate_topic(publication.topic, Dialect.EMS)
    ctx = _context(topology, publication, failures)
    for sub in _matching_subscriptions(topology, ctx.network, publication.topic):
        _judge(ctx, sub)
    _warn_unbounded(ctx)
    return ctx.explanation


def _context(topology: Topology, publication: Publication, failures: Failures) -> _Context:
    network = _build_network(topology)
    network.servers.add(publication.from_node)
    topics = EmsTopicIndex(t for t in topology.topics if t.node in network.servers)
    message = Message.create(publication.properties, publication.headers)
    selectors = _Selectors(topology, network, publication.topic, message)
    structural = _structural_paths(
        network, publication.from_node, lambda s: topics.is_global(s, publication.topic)
    )
    paths = {
        end: sorted((_judge_path(p, network, selectors, failures) for p in found), key=_Judged.key)
        for end, found in structural.items()
    }
    top = topics.most_specific(publication.from_node, publication.topic)
    resolved = Resolved(
        node=publication.from_node,
        object=top.name if top else None,
        topicstr=top.topicstr if top else None,
        cluster=None,
        clroute=None,
    )
    explanation = Explanation(publication=publication, resolved=resolved)
    return _Context(topology, publication, failures, network, topics, selectors, message, paths, explanation)


def _matching_subscriptions(topology: Topology, network: _Network, topic: str) -> Iterable[Subscription]:
    """EMS subscriptions on EMS servers whose pattern matches T; MQ subscriptions never match (§9).

    A route durable (``durables.conf`` line with ``route``) is not a subscriber: it is the server's durable
    store for a peer's registered interest, so it is neither delivered to nor listed as missed."""
    for sub in topology.subscriptions:
        if sub.is_route_durable:
            continue
        if sub.node in network.servers and matches(sub.topicstr, topic, Dialect.EMS):
            yield sub


def _judge(ctx: _Context, sub: Subscription) -> None:
    """Apply the §9 precedence to one subscription (see the module docstring)."""
    early = _early_reason(ctx, sub)
    if early is not None:
        _refuse(ctx, sub, *early)
        return
    if sub.node == ctx.publisher:
        _deliver(ctx, sub, _Judged((ctx.publisher,), _Outcome.DELIVERED), [])
        return
    judged = ctx.paths.get(sub.node, [])
    if not judged:
        _refuse(ctx, sub, *_unreachable_reason(ctx, sub))
        return
    best = judged[0]
    if best.outcome is _Outcome.REJECTED:
        _refuse(ctx, sub, Reason.ROUTE_SELECTOR, _route_selector_detail(ctx, sub, best))
    elif best.outcome is _Outcome.GAP:
        _refuse(ctx, sub, Reason.DOWN, _gap_detail(ctx, sub, best))
        ctx.explanation.warn(WarningCode.GAP, _gap_warning(best))
    else:
        others = [j.servers for j in judged[1:] if j.outcome <= _Outcome.STORED]
        _deliver(ctx, sub, best, others)


def _early_reason(ctx: _Context, sub: Subscription) -> tuple[Reason, str] | None:
    """Offline non-durable, publisher down, non-durable on a down server: nothing else matters."""
    if not sub.durable and (sub.node, sub.name) in ctx.failures.offline:
        return Reason.SUBSCRIBER_OFFLINE, (
            f"Non-durable subscription {sub.name} on {sub.node} is offline, "
            "and EMS keeps nothing for a non-durable subscriber while it is away."
        )
    if ctx.failures.node_down(ctx.publisher):
        return (
            Reason.DOWN,
            f"The publishing server {ctx.publisher} is down, so the message is never published.",
        )
    if not sub.durable and ctx.failures.node_down(sub.node):
        return Reason.DOWN, (
            f"Server {sub.node} is down and subscription {sub.name} is non-durable, "
            "so it does not survive the failure of its server."
        )
    return None


def _deliver(ctx: _Context, sub: Subscription, best: _Judged, alternatives: list[_Path]) -> None:
    """A copy arrives (now or later); the subscriber's own selector has the last word."""
    verdict = compile_selector(sub.selector).evaluate(ctx.message) if sub.selector else True
    if verdict is not True:
        _refuse(ctx, sub, Reason.SELECTOR_FALSE, _selector_false_detail(sub, verdict))
        return
    status, stored_at = Status.DELIVERED, None
    if best.outcome is _Outcome.STORED:
        status, stored_at = Status.STORED, best.servers[best.at or 0]
    elif (sub.node, sub.name) in ctx.failures.offline:
        status, stored_at = Status.STORED, sub.node
    hops = [_hop(ctx, x, y) for x, y in zip(best.servers, best.servers[1:], strict=False)]
    ctx.explanation.deliveries.append(
        Delivery(
            sub.name, sub.node, status, stored_at, list(best.servers), hops, [list(a) for a in alternatives]
        )
    )
    if best.duplicates:
        ctx.explanation.warn(WarningCode.DUPLICATES_POSSIBLE, _duplicates_warning(best))
    if sub.durable and len(best.servers) > 1:
        for server in best.servers[:-1]:
            if not ctx.topics.storage_bounded(server, ctx.topic):
                ctx.unbounded[server].add(f"{sub.name} on {sub.node}")


def _hop(ctx: _Context, x: str, y: str) -> Hop:
    return Hop(x, y, Via.ROUTE, ctx.network.hop_name(x, y), ctx.selectors.hop(x, y).text)


def _refuse(ctx: _Context, sub: Subscription, reason: Reason, detail: str) -> None:
    ctx.explanation.not_delivered.append(NotDelivered(sub.name, sub.node, reason, detail))


def _unreachable_reason(ctx: _Context, sub: Subscription) -> tuple[Reason, str]:
    """No path obeys the global and zone rules: relax them one at a time to name the blocker."""
    net, start, goal = ctx.network, ctx.publisher, sub.node
    on_global = _shortest(net, start, goal, lambda x, y: ctx.is_global(x) and ctx.is_global(y))
    if on_global is not None:
        return Reason.ONE_HOP_ZONE, _one_hop_detail(ctx, sub, on_global)
    raw = _shortest(net, start, goal, lambda x, y: True)
    if raw is not None:
        return Reason.NOT_GLOBAL, _not_global_detail(ctx, sub, raw)
    return Reason.NO_PATH, f"No chain of routes connects the publishing server {start} to {goal}."


# --- sentences ---------------------------------------------------------------------------------------


def _verdict_words(verdict: bool | None) -> str:
    return "is false" if verdict is False else "is unknown (a property it uses is missing)"


def _selector_false_detail(sub: Subscription, verdict: bool | None) -> str:
    return (
        f'The selector "{sub.selector}" of subscription {sub.name} on {sub.node} '
        f"{_verdict_words(verdict)} for this message, so the subscriber does not get it."
    )


def _route_selector_detail(ctx: _Context, sub: Subscription, best: _Judged) -> str:
    x, y = best.hop()
    hop = ctx.selectors.hop(x, y)
    onward = "" if y == sub.node else f" on the way to {sub.node}"
    return (
        f'The route selector "{hop.text}" on {ctx.network.route_phrase(x, y)} {_verdict_words(hop.verdict)} '
        f"for this message, so {x} does not forward it to {y}{onward}."
    )


def _gap_detail(ctx: _Context, sub: Subscription, best: _Judged) -> str:
    x, y = best.hop()
    cause = f"Server {y} is down" if ctx.failures.node_down(y) else f"The link between {x} and {y} is down"
    return (
        f"{cause} and the route between {x} and {y} is defined only on {y} (active-passive), so {x} drops "
        f"its internal subscriber for {y} and subscription {sub.name} on {sub.node} misses this message "
        "(a gap)."
    )


def _gap_warning(best: _Judged) -> str:
    x, y = best.hop()
    return (
        f"Route {x} is defined only on {y} (active-passive): while {y} is unreachable {x} stores nothing "
        f"for it, so subscribers behind {y} see a gap in the message stream; make the route active-active."
    )


def _duplicates_warning(best: _Judged) -> str:
    x, y = best.hop()
    return (
        f"Route {y} is defined only on {x} (active-passive): {x} stores messages while {y} is unreachable, "
        f"but {y} loses its duplicate-suppression state, so subscribers behind {y} may receive messages "
        "twice; make the route active-active."
    )


def _one_hop_detail(ctx: _Context, sub: Subscription, path: _Path) -> str:
    net = ctx.network
    for w, x, y in zip(path, path[1:], path[2:], strict=False):
        zone = net.one_hop_block((w, x), (x, y))
        if zone is not None:
            return (
                f"The message arrives at {x} from {w} over a route of one-hop zone {zone}, and {x} does not "
                f"forward it to {y} over another route of that zone, so it never reaches {sub.node}."
            )
    return (
        f"Every chain of routes from {ctx.publisher} to {sub.node} on which {ctx.topic} is global forwards "
        "the message twice within a one-hop zone, which EMS does not do."
    )


def _not_global_detail(ctx: _Context, sub: Subscription, path: _Path) -> str:
    for x, y in zip(path, path[1:], strict=False):
        missing = [s for s in (x, y) if not ctx.is_global(s)]
        if missing:
            return (
                f"Topic {ctx.topic} is not global on {missing[0]}, so it does not cross the route between "
                f"{x} and {y}, and no chain of routes from {ctx.publisher} to {sub.node} has it global "
                "on every server."
            )
    return f"Topic {ctx.topic} is not global on every server between {ctx.publisher} and {sub.node}."


def _warn_unbounded(ctx: _Context) -> None:
    """One STORAGE_UNBOUNDED per forwarding server, naming the durable subscriptions behind it."""
    for server, subs in sorted(ctx.unbounded.items()):
        ctx.explanation.warn(
            WarningCode.STORAGE_UNBOUNDED,
            f"Server {server} forwards topic {ctx.topic} over routes to durable subscriptions "
            f"({', '.join(sorted(subs))}) but has neither maxbytes nor maxmsgs set for it, so what it "
            "stores while they are unreachable can grow without limit.",
        )
