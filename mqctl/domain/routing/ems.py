"""EMS routing: where a publication on a TIBCO EMS server goes over routes, and why it does not
(semantics §6, §8, §9; references 002 and 003).

The model, in short (the network in ``ems_network``, the path search in ``ems_paths``):

- Routes are bidirectional links between two servers, active-active or active-passive; selectors count
  only on a side that defines the route.
- Registered interest is judged hop by hop on the concrete topic: T crosses X→Y only when T is global on
  both X and Y. A temporary topic ``$TMP$.S.…`` belongs to server S: it crosses routes whatever
  ``global`` says, toward S only, and only subscriptions on S can receive it.
- Paths are simple; a message that arrived at S over a route of a one-hop zone Z is not forwarded by S
  over another route of Z.
- The effective selector on X→Y is the AND of X's ``outgoing_topic`` selectors towards Y and Y's
  ``incoming_topic`` selectors from X whose topic pattern matches T; only TRUE crosses.

How one subscription is judged: the shared steps of ``ladder`` (``SUBSCRIBER_OFFLINE``, ``DOWN`` for the
publisher or the non-durable subscriber's own server, then ``SELECTOR_FALSE`` once a copy arrives), and
EMS's reachability in between, in the §9 order ``NO_PATH``, ``NOT_GLOBAL``, ``ONE_HOP_ZONE``,
``ROUTE_SELECTOR``, ``DOWN`` (gap). Where several paths lead to the subscriber, the reason is what blocks
the *best candidate path*: the path whose worst blocker comes latest in that list (then fewest hops,
then names). So a path merely refused by a route selector is reported before a shorter one that crosses
a server where T is not global, because fixing the selector is what would make the message arrive. This
min-max choice is exact:

- some path obeys the global and zone rules: the best of them by (phase, hops, names) decides
  (``ems_paths``: a refused one gives ``ROUTE_SELECTOR``, a gap ``DOWN``, else the copy arrives);
- else a ladder of relaxations, each a breadth-first search over a plain graph: ``ONE_HOP_ZONE`` when
  some path obeys the global rule, ``NOT_GLOBAL`` when the servers are connected at all, else
  ``NO_PATH``.

``EmsPrepared`` indexes a topology once (network, topic definitions, subscriptions and route selectors by
pattern) and keeps, per topic and in a bounded cache, what does not depend on the publisher.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from mqctl.domain.ems_topics import EmsTopicIndex
from mqctl.domain.explanation import (
    Explanation,
    Failures,
    Hop,
    Publication,
    Reason,
    Resolved,
    Via,
    WarningCode,
)
from mqctl.domain.messages import Message
from mqctl.domain.model import Dialect, Direction, RouteSelector, Subscription, Topology
from mqctl.domain.routing.cache import BoundedCache
from mqctl.domain.routing.ems_network import EmsNetwork
from mqctl.domain.routing.ems_paths import (
    MORE_LIMIT,
    STEP_LIMIT,
    HopRules,
    PathSearch,
    Phase,
    TargetPaths,
    first_hop,
    shortest,
)
from mqctl.domain.routing.ladder import Arrival, Ladder, Miss, Rows, verdict_words
from mqctl.domain.selector import compile_selector
from mqctl.domain.subindex import SubscriptionIndex
from mqctl.domain.topics import validate_topic

__all__ = ["TEMPORARY_PREFIX", "EmsPrepared", "explain_ems", "route_ems", "temporary_owner"]

EMS = Dialect.EMS
TEMPORARY_PREFIX = "$TMP$."

_Pair = tuple[str, str]
_Path = tuple[str, ...]


def temporary_owner(topic: str, servers: frozenset[str]) -> str | None:
    """The server a temporary topic ``$TMP$.S.…`` belongs to, or None for an ordinary topic.

    A server name may contain dots, so the longest known server S with ``$TMP$.S.`` as a prefix wins;
    none known: the element after ``$TMP$``.
    """
    if not topic.startswith(TEMPORARY_PREFIX):
        return None
    rest = topic[len(TEMPORARY_PREFIX) :]
    known = [s for s in servers if rest.startswith(f"{s}.")]
    return max(known, key=len) if known else rest.split(".")[0]


# --- the prepared topology -----------------------------------------------------------------------------


class EmsPrepared:
    """The EMS side of a topology, indexed once for any number of publications (module docstring)."""

    def __init__(self, topology: Topology, cache_size: int) -> None:
        self.network = EmsNetwork(topology)
        servers = self.network.servers
        self.definitions = [t for t in topology.topics if t.node in servers]
        self._definitions: SubscriptionIndex[int] = SubscriptionIndex(EMS)
        self._definitions.add_many((d.topicstr, i) for i, d in enumerate(self.definitions))
        self.subs = sorted(
            (s for s in topology.subscriptions if s.node in servers and not s.is_route_durable),
            key=lambda s: (s.node, s.name),
        )
        self._subs: SubscriptionIndex[int] = SubscriptionIndex(EMS)
        self._subs.add_many((sub.topicstr, i) for i, sub in enumerate(self.subs))
        self.selectors: list[RouteSelector] = []
        for rs in topology.route_selectors:
            link = self.network.find_link(rs.node, rs.peer)
            if link is not None and rs.node in link.definitions:
                self.selectors.append(rs)
        self._selectors: SubscriptionIndex[int] = SubscriptionIndex(EMS)
        self._selectors.add_many((rs.topic, i) for i, rs in enumerate(self.selectors))
        self._facts: BoundedCache[str, _TopicFacts] = BoundedCache(cache_size)

    def facts(self, topic: str) -> _TopicFacts:
        return self._facts.get(topic, lambda: _TopicFacts(self, topic))


class _TopicFacts:
    """What a topic's routing needs whoever publishes: definitions, subscribers, route selectors."""

    def __init__(self, prepared: EmsPrepared, topic: str) -> None:
        self.topic = topic
        matching = [prepared.definitions[i] for i in sorted(prepared._definitions.match(topic))]
        self.definitions = EmsTopicIndex(matching)
        self.global_on = frozenset(d.node for d in matching if d.is_global)
        self.subs = [prepared.subs[i] for i in sorted(prepared._subs.match(topic))]
        held: dict[_Pair, list[RouteSelector]] = defaultdict(list)
        for i in prepared._selectors.match(topic):
            rs = prepared.selectors[i]
            hop = (rs.node, rs.peer) if rs.direction == Direction.OUTGOING else (rs.peer, rs.node)
            held[hop].append(rs)
        self.selectors: dict[_Pair, list[RouteSelector]] = {
            hop: sorted(found, key=lambda rs: (rs.node != hop[0], rs.seq, rs.topic, rs.selector))
            for hop, found in held.items()
        }
        """Directed hop -> the selectors that apply to T on it: X's outgoing ones, then Y's incoming ones."""
        self._bounded: dict[str, bool] = {}

    def storage_bounded(self, server: str) -> bool:
        """``maxbytes`` or ``maxmsgs`` limits what ``server`` stores for T."""
        found = self._bounded.get(server)
        if found is None:
            found = self._bounded[server] = self.definitions.storage_bounded(server, self.topic)
        return found


# --- route selectors ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _HopFilter:
    """The effective route selector of one directed hop for this publication."""

    text: str | None
    verdict: bool | None
    """True when the message crosses; False or None (UNKNOWN) when the selector refuses it."""


def _judge_selectors(found: list[RouteSelector], message: Message) -> _HopFilter:
    """AND of X's outgoing and Y's incoming selectors for T, in three-valued logic."""
    texts = [rs.selector for rs in found]
    text = texts[0] if len(texts) == 1 else " AND ".join(f"({t})" for t in texts)
    verdicts = [compile_selector(t).evaluate(message) for t in texts]
    verdict: bool | None = True
    if any(v is False for v in verdicts):
        verdict = False
    elif any(v is None for v in verdicts):
        verdict = None
    return _HopFilter(text, verdict)


# --- the engine --------------------------------------------------------------------------------------


@dataclass(slots=True)
class _Context:
    """Everything one publication's explanation needs, computed once."""

    prepared: EmsPrepared
    publication: Publication
    failures: Failures
    facts: _TopicFacts
    owner: str | None
    """The server a temporary topic belongs to (None for an ordinary topic)."""
    filters: dict[_Pair, _HopFilter]
    search: PathSearch
    explanation: Explanation
    ladder: Ladder
    targets: dict[str, TargetPaths] = field(default_factory=dict)
    hops: dict[_Pair, Hop] = field(default_factory=dict)
    """Each hop described once: the paths to a network's servers share most of their hops."""
    arrivals: dict[str, Arrival] = field(default_factory=dict)
    """Server -> how a copy reaches it (the same for every subscription there)."""
    unbounded_on: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Server -> the forwarding servers on its path without storage limits for T."""
    unbounded: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    """Forwarding server without storage limits -> durable subscriptions behind it."""

    @property
    def network(self) -> EmsNetwork:
        return self.prepared.network

    @property
    def topic(self) -> str:
        return self.publication.topic

    @property
    def publisher(self) -> str:
        return self.publication.from_node

    def crosses(self, server: str) -> bool:
        return self.owner is not None or server in self.facts.global_on

    def paths_to(self, server: str) -> TargetPaths:
        found = self.targets.get(server)
        if found is None:
            found = self.targets[server] = self.search.paths_to(server)
        return found


def explain_ems(
    prepared: EmsPrepared, publication: Publication, failures: Failures, detail: bool = True
) -> Explanation:
    """Explain one publication on an EMS server: deliveries, refusals with reasons, warnings (without
    ``detail``: no warnings, and the ladder drops sentences and alternatives; ``routing.explain``)."""
    validate_topic(publication.topic, EMS)
    ctx = _context(prepared, publication, failures, detail)
    rows = _rows(ctx)
    ctx.ladder.record(rows)
    if not detail:
        ctx.explanation.warnings.clear()  # a gap's, raised on the way
        return ctx.explanation
    for sub, _, _ in rows.delivered:
        _after_delivery(ctx, sub, ctx.paths_to(sub.node))
    _warn_limits(ctx)
    _warn_unbounded(ctx)
    return ctx.explanation


def route_ems(prepared: EmsPrepared, publication: Publication, failures: Failures) -> Rows:
    """``explain_ems(..., detail=False)``'s deliveries and misses as rows, without the explanation."""
    validate_topic(publication.topic, EMS)
    return _rows(_context(prepared, publication, failures, False))


def _rows(ctx: _Context) -> Rows:
    """Every subscription on T judged by the shared ladder, EMS's reachability in between."""
    subs = ctx.facts.subs
    if ctx.failures.offline or ctx.failures.down:
        reach = ctx.ladder.reach
        outcomes = [(sub, reach(sub, lambda sub=sub: _reach(ctx, sub))) for sub in subs]  # type: ignore[misc]
    else:  # ``Ladder.reach``'s first steps read only those failures: straight to reachability
        outcomes = [(sub, _reach(ctx, sub)) for sub in subs]
    return ctx.ladder.rows(outcomes)


def _context(prepared: EmsPrepared, publication: Publication, failures: Failures, detail: bool) -> _Context:
    network = prepared.network
    facts = prepared.facts(publication.topic)
    owner = temporary_owner(publication.topic, network.servers | {publication.from_node})
    message = Message.create(publication.properties, publication.headers)
    filters = {hop: _judge_selectors(found, message) for hop, found in facts.selectors.items()}
    crossable = network.servers | {publication.from_node} if owner is not None else facts.global_on
    rules = HopRules(
        crossable=frozenset(crossable),
        refused=frozenset(hop for hop, f in filters.items() if f.verdict is not True),
        failing=_failing(network, failures),
    )
    top = facts.definitions.most_specific(publication.from_node, publication.topic)
    resolved = Resolved(
        node=publication.from_node,
        object=top.name if top else None,
        topicstr=top.topicstr if top else None,
        cluster=None,
        clroute=None,
    )
    explanation = Explanation(publication=publication, resolved=resolved)
    search = PathSearch(network, publication.from_node, rules)
    ladder = Ladder(explanation, failures, EMS, detail)
    return _Context(prepared, publication, failures, facts, owner, filters, search, explanation, ladder)


def _failing(network: EmsNetwork, failures: Failures) -> dict[_Pair, Phase]:
    """§9 Failures, per hop X→Y that fails (Y down, or the link down): what the first such hop does."""
    hops = {(x, y) for y in failures.down for x in network.adjacency.get(y, ())}
    for pair in failures.links_down:
        if len(pair) == 2:
            x, y = sorted(pair)
            hops.update(((x, y), (y, x)))
    out: dict[_Pair, Phase] = {}
    for x, y in hops:
        link = network.find_link(x, y)
        if link is not None:
            gap = not link.active_active and y in link.definitions
            out[(x, y)] = Phase.GAP if gap else Phase.STORED
    return out


def _reach(ctx: _Context, sub: Subscription) -> Arrival | Miss:
    """EMS's reachability steps of the §9 precedence (see the module docstring)."""
    if ctx.owner is not None and sub.node != ctx.owner:
        return Miss(
            Reason.NO_PATH,
            f"Topic {ctx.topic} is a temporary topic of server {ctx.owner}: it travels only toward "
            f"{ctx.owner}, so subscription {sub.name} on {sub.node} cannot receive it.",
        )
    if sub.node == ctx.publisher:
        return Arrival((ctx.publisher,), ())
    found = ctx.paths_to(sub.node)
    if found.best is None:
        return _unreachable(ctx, sub)
    if found.phase is Phase.REJECTED:
        return Miss(Reason.ROUTE_SELECTOR, _route_selector_detail(ctx, sub, found.best))
    if found.phase is Phase.GAP:
        x, y = _failing_hop(ctx, found.best)
        ctx.explanation.warn(WarningCode.GAP, _gap_warning(x, y))
        return Miss(Reason.DOWN, _gap_detail(ctx, sub, x, y))
    arrival = ctx.arrivals.get(sub.node)
    if arrival is None:
        hops = tuple(_hop(ctx, x, y) for x, y in _pairs(found.best))
        stored_at = _failing_hop(ctx, found.best)[0] if found.phase is Phase.STORED else None
        arrival = Arrival(found.best, hops, stored_at, found.alternatives, found.more)
        ctx.arrivals[sub.node] = arrival
    return arrival


def _after_delivery(ctx: _Context, sub: Subscription, found: TargetPaths) -> None:
    """Warnings that the chosen path of a delivered subscription raises."""
    if found.best is None:
        return  # local delivery
    if found.phase is Phase.STORED:
        x, y = _failing_hop(ctx, found.best)
        if x in ctx.network.link(x, y).definitions and not ctx.network.link(x, y).active_active:
            ctx.explanation.warn(WarningCode.DUPLICATES_POSSIBLE, _duplicates_warning(x, y))
    if sub.durable:
        unbounded = ctx.unbounded_on.get(sub.node)
        if unbounded is None:
            bounded = ctx.facts.storage_bounded
            unbounded = ctx.unbounded_on[sub.node] = tuple(s for s in found.best[:-1] if not bounded(s))
        for server in unbounded:
            ctx.unbounded[server].add(f"{sub.name} on {sub.node}")


def _failing_hop(ctx: _Context, path: _Path) -> _Pair:
    hop = first_hop(path, ctx.failures.hop_fails)
    assert hop is not None, "a stored or gap path has a failing hop"
    return hop


def _hop(ctx: _Context, x: str, y: str) -> Hop:
    hop = ctx.hops.get((x, y))
    if hop is None:
        found = ctx.filters.get((x, y))
        hop = Hop(x, y, Via.ROUTE, ctx.network.hop_name(x, y), found.text if found else None)
        ctx.hops[(x, y)] = hop
    return hop


def _pairs(path: _Path) -> Iterable[_Pair]:
    return zip(path, path[1:], strict=False)


def _unreachable(ctx: _Context, sub: Subscription) -> Miss:
    """No path obeys the global and zone rules: relax them one at a time to name the blocker."""
    net, start, goal = ctx.network, ctx.publisher, sub.node
    on_global = shortest(net, start, goal, lambda x, y: ctx.crosses(x) and ctx.crosses(y))
    if on_global is not None:
        return Miss(Reason.ONE_HOP_ZONE, _one_hop_detail(ctx, sub, on_global))
    raw = shortest(net, start, goal, lambda x, y: True)
    if raw is not None:
        return Miss(Reason.NOT_GLOBAL, _not_global_detail(ctx, sub, raw))
    return Miss(Reason.NO_PATH, f"No chain of routes connects the publishing server {start} to {goal}.")


# --- sentences ---------------------------------------------------------------------------------------


def _route_selector_detail(ctx: _Context, sub: Subscription, path: _Path) -> str:
    hop = first_hop(path, lambda x, y: ctx.filters.get((x, y), _PASS).verdict is not True)
    assert hop is not None, "a rejected path has a refusing hop"
    x, y = hop
    found = ctx.filters[hop]
    onward = "" if y == sub.node else f" on the way to {sub.node}"
    return (
        f'The route selector "{found.text}" on {ctx.network.route_phrase(x, y)} '
        f"{verdict_words(found.verdict)} for this message, so {x} does not forward it to {y}{onward}."
    )


_PASS = _HopFilter(None, True)


def _gap_detail(ctx: _Context, sub: Subscription, x: str, y: str) -> str:
    cause = f"Server {y} is down" if ctx.failures.node_down(y) else f"The link between {x} and {y} is down"
    return (
        f"{cause} and the route between {x} and {y} is defined only on {y} (active-passive), so {x} drops "
        f"its internal subscriber for {y} and subscription {sub.name} on {sub.node} misses this message "
        "(a gap)."
    )


def _gap_warning(x: str, y: str) -> str:
    return (
        f"Route {x} is defined only on {y} (active-passive): while {y} is unreachable {x} stores nothing "
        f"for it, so subscribers behind {y} see a gap in the message stream; make the route active-active."
    )


def _duplicates_warning(x: str, y: str) -> str:
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
        missing = [s for s in (x, y) if not ctx.crosses(s)]
        if missing:
            return (
                f"Topic {ctx.topic} is not global on {missing[0]}, so it does not cross the route between "
                f"{x} and {y}, and no chain of routes from {ctx.publisher} to {sub.node} has it global "
                "on every server."
            )
    return f"Topic {ctx.topic} is not global on every server between {ctx.publisher} and {sub.node}."


def _warn_limits(ctx: _Context) -> None:
    """A limit of the path search that was reached is said, never silent (SEARCH_LIMIT)."""
    for server, found in sorted(ctx.targets.items()):
        if found.limited == "count":
            listed = 1 + len(found.alternatives) + found.more
            ctx.explanation.warn(
                WarningCode.SEARCH_LIMIT,
                f"More than {listed} delivered or stored paths lead from {ctx.publisher} to {server}: explain "
                f"shows the best ones and stops counting the others at {MORE_LIMIT} (more_alternatives is a "
                "lower bound).",
            )
        elif found.limited == "steps":
            if found.best is None:
                what = "no path was found, so the reason given assumes there is none"
            else:
                what = "the alternatives shown may not be the next best"
            ctx.explanation.warn(
                WarningCode.SEARCH_LIMIT,
                f"The search for paths from {ctx.publisher} to {server} stopped after {STEP_LIMIT:,} steps "
                f"(one-hop zones leave too many dead ends): {what}.",
            )


def _warn_unbounded(ctx: _Context) -> None:
    """One STORAGE_UNBOUNDED per forwarding server, naming the durable subscriptions behind it."""
    for server, subs in sorted(ctx.unbounded.items()):
        ctx.explanation.warn(
            WarningCode.STORAGE_UNBOUNDED,
            f"Server {server} forwards topic {ctx.topic} over routes to durable subscriptions "
            f"({', '.join(sorted(subs))}) but has neither maxbytes nor maxmsgs set for it, so what it "
            "stores while they are unreachable can grow without limit.",
        )
