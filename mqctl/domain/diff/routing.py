"""Route each probe on both models with the same engine and say, per subscription, what changed.

Per probe and subscription the answer is: received (delivered, or stored for later) with its path and
topic host, missed with a reason, or not concerned (its pattern does not match, or it does not exist on
that side). A change is ``gained``, ``lost``, ``status`` (delivered <-> stored), ``host`` (another topic
host), ``path`` (other hops) or ``reason`` (missed on both sides, for another reason).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from mqctl.domain.diff.probes import Probe, Properties
from mqctl.domain.diff.publishers import PublisherClass, Publishers
from mqctl.domain.explanation import Explanation, Publication, Reason, Unsupported, Via
from mqctl.domain.messages import Message
from mqctl.domain.model import Topology
from mqctl.domain.routing import RoutingModel, explain

if TYPE_CHECKING:
    from mqctl.domain.selector import Selector

CHANGES = ("lost", "gained", "status", "host", "path", "reason")
_REFUSED = str(Reason.SELECTOR_FALSE)
"""The reason a subscription's selector gives for a miss."""


@dataclass(frozen=True, slots=True)
class Outcome:
    status: str
    """``delivered``, ``stored`` or ``not_delivered``."""
    path: tuple[str, ...] = ()
    host: str | None = None
    reason: str | None = None
    unsupported: Unsupported | None = field(default=None, compare=False)
    """The delivery's path is one IBM does not support (``Delivery.unsupported``): said with the answer,
    not a change of its own."""

    @property
    def receives(self) -> bool:
        return self.status != "not_delivered"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "status": self.status,
            "path": list(self.path),
            "host": self.host,
            "reason": self.reason,
        }
        if self.unsupported is not None:  # present only then, as in explain's deliveries
            out["unsupported"] = self.unsupported.to_json()
        return out

    def first_hop_from(self, publisher: str) -> Outcome:
        """The same outcome for a publisher alike (``publishers``): the path starts there instead."""
        if not self.path:
            return self
        return Outcome(self.status, (publisher, *self.path[1:]), self.host, self.reason, self.unsupported)

    def text(self) -> str:
        if not self.receives:
            return f"not delivered ({self.reason})"
        via = f" via host {self.host}" if self.host else ""
        warned = f" (unsupported path: {self.unsupported.rule})" if self.unsupported is not None else ""
        return f"{self.status} {' -> '.join(self.path)}{via}{warned}"


@dataclass(frozen=True, slots=True)
class RoutingChange:
    subscription: str
    node: str
    change: str
    probe: Probe
    before: Outcome | None
    after: Outcome | None
    probes: int = 1
    """How many probes from this publisher on this topic (other properties) gave this same change."""
    alike: tuple[str, ...] = ()
    """The other publishers this entry stands for (``publishers``): each gets this same change, with
    its own name as the first node of the paths."""

    @property
    def publishers(self) -> tuple[str, ...]:
        return (self.probe.publisher, *self.alike)

    @property
    def total(self) -> int:
        """Probes this entry stands for, over all its publishers."""
        return self.probes * (1 + len(self.alike))

    def for_each_publisher(self) -> list[RoutingChange]:
        """One entry per publisher it stands for, as routing each would give it."""
        out = [dataclasses.replace(self, alike=())]
        for name in self.alike:
            probe = Probe(name, self.probe.topic, self.probe.properties)
            was, now = (o.first_hop_from(name) if o else None for o in (self.before, self.after))
            out.append(RoutingChange(self.subscription, self.node, self.change, probe, was, now, self.probes))
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "subscription": self.subscription,
            "node": self.node,
            "change": self.change,
            "publisher": self.probe.publisher,
            "topic": self.probe.topic,
            "properties": {k: v.value for k, v in self.probe.properties},
            "before": None if self.before is None else self.before.to_json(),
            "after": None if self.after is None else self.after.to_json(),
            "probes": self.probes,
            "publishers": list(self.publishers),
        }


def outcomes(answer: Explanation) -> dict[tuple[str, str], Outcome]:
    """(node, subscription) -> what the publication does for it."""
    out: dict[tuple[str, str], Outcome] = {}
    for d in answer.deliveries:
        host = next((h.to_node for h in d.hops if h.via is Via.TOPICHOST), None)
        out[(d.node, d.subscription)] = Outcome(str(d.status), tuple(d.path), host, None, d.unsupported)
    for n in answer.not_delivered:
        out.setdefault((n.node, n.subscription), Outcome("not_delivered", reason=str(n.reason)))
    return out


def classify(before: Outcome | None, after: Outcome | None) -> str | None:
    """The change from one answer to the other, or None when the subscription's answer is the same."""
    if before == after:
        return None
    got_before = before is not None and before.receives
    got_after = after is not None and after.receives
    if got_before and not got_after:
        return "lost"
    if got_after and not got_before:
        return "gained"
    if not got_before:
        return "reason"
    assert before is not None and after is not None
    if before.status != after.status:
        return "status"
    if before.host != after.host:
        return "host"
    return "path" if before.path != after.path else None


def answer(model: RoutingModel, probe: Probe) -> dict[tuple[str, str], Outcome]:
    """The probe's answer on one side: nothing when the publisher does not exist there."""
    if probe.publisher not in model.topology.nodes:
        return {}
    properties = dict(probe.properties)
    headers = dict(Message.create(properties, {}).headers)
    return outcomes(
        explain(model, Publication(probe.publisher, probe.topic, properties, headers), detail=False)
    )


@dataclass
class RouteStats:
    """How the probes were answered: ``engine`` of them routed on both models, ``judged`` from those by
    their selectors, ``represented`` derived from a class representative's (``publishers``)."""

    engine: int = 0
    judged: int = 0
    represented: int = 0
    classes: int = 0
    """Classes of two or more publishers whose representative was routed for the others."""
    local: int = 0
    """Represented probes also routed on their publisher's own subscriptions alone."""


Selectors = tuple[dict[tuple[str, str], str], dict[tuple[str, str], str]]
"""Per side, (node, subscription) -> its selector."""

Note = tuple[int, tuple[str, str], Outcome | None, Outcome | None, int]
"""(probe of the group, (node, subscription), before, after, how many probes of the group it stands for)."""


def route_diff(
    before: Topology,
    after: Topology,
    probes: Iterable[Probe],
    *,
    progress: Callable[[int], None] | None = None,
    stats: RouteStats | None = None,
    classes: bool = True,
) -> list[RoutingChange]:
    """Every (probe, subscription) whose answer differs between the two models.

    Both models are prepared on the slice of the estate the probes' publishers are joined to, on
    either side (``reachable``): on an estate of many clusters a change concerns one or two, and
    preparing the engine for the whole is most of the cost.

    The probes of one publisher on one topic differ only in their properties: only a few of them are
    routed, the others judged by the subscriptions' selectors (``_judged``). The MQ publishers of one
    topic that the two sides cannot tell apart (``publishers``; ``classes``) are routed once, through a
    representative: the others' answers are its answers with the first hop renamed, and their own
    subscriptions' answers come from routing them on their own subscriptions alone. An entry of the
    representative then stands for the publishers alike (``RoutingChange.alike``): a change to a topic
    with a thousand subscribers in a cluster of a hundred is a thousand entries per topic, not a hundred
    thousand. ``classes=False`` routes every publisher, one entry each: the same answers
    (``RoutingChange.for_each_publisher``), slower, what the tests compare with."""
    probes = list(probes)
    nodes = reachable((before, after), {p.publisher for p in probes})
    old, new = RoutingModel(sliced(before, nodes)), RoutingModel(sliced(after, nodes))
    plan = Publishers(old.topology, new.topology) if classes else None
    groups: dict[tuple[str, str], list[tuple[int, Probe]]] = {}
    for i, probe in enumerate(probes):
        groups.setdefault((probe.topic, probe.publisher), []).append((i, probe))
    router = _Router(old, new, groups, plan, stats if stats is not None else RouteStats())
    by_topic: dict[tuple[str, tuple[Properties, ...]], list[str]] = {}
    for (topic, publisher), group in groups.items():
        by_topic.setdefault((topic, tuple(p.properties for _i, p in group)), []).append(publisher)
    done = 0
    for (topic, _props), publishers in by_topic.items():
        if plan is None or len(publishers) < 2:
            partition = [PublisherClass(n, ()) for n in publishers]
        else:
            partition = plan.partition(topic, publishers)
        for cls in partition:
            router.route_class(topic, cls)
            done += len(groups[(topic, cls.representative)]) * (1 + len(cls.members))
            if progress is not None:
                progress(done)
    return router.entries.changes()


class _Entries:
    """The changes found, one entry per subscription, change, publisher, topic and pair of answers:
    probes that differ only in their properties and change the answer alike make one entry."""

    def __init__(self) -> None:
        self.found: dict[tuple[Any, ...], list[Any]] = {}
        """same -> [first probe index, probe, count, alike]"""

    def note(
        self,
        group: list[tuple[int, Probe]],
        notes: Iterable[Note],
        alike: Callable[[str], tuple[str, ...]] = lambda _node: (),
    ) -> None:
        """Count each changed answer of ``notes`` (about ``group``'s probes) into its entry."""
        found = self.found
        for j, key, was, now, n in notes:
            kind = classify(was, now)
            if kind is None:
                continue
            i, probe = group[j]
            same = (key, kind, probe.publisher, probe.topic, was, now)
            first = found.get(same)
            if first is None:
                found[same] = [i, probe, n, alike(key[0])]
            else:
                first[2] += n
                if i < first[0]:  # an entry keeps the first probe that shows it, in whatever order noted
                    first[0], first[1] = i, probe

    def changes(self) -> list[RoutingChange]:
        """The entries in the order of the probes that show them first, then by node."""
        entries = sorted(self.found.items(), key=lambda item: (item[1][0], item[0][0]))
        return [
            RoutingChange(key[1], key[0], kind, probe, was, now, count, alike)
            for (key, kind, _p, _t, was, now), (_i, probe, count, alike) in entries
        ]


class _Router:
    """Both sides of one ``route_diff``, prepared once, and the entries its classes of publishers give."""

    def __init__(
        self,
        old: RoutingModel,
        new: RoutingModel,
        groups: dict[tuple[str, str], list[tuple[int, Probe]]],
        plan: Publishers | None,
        stats: RouteStats,
    ) -> None:
        self.old, self.new, self.groups, self.plan, self.stats = old, new, groups, plan, stats
        self.selectors: Selectors = (_selectors_of(old.topology), _selectors_of(new.topology))
        self.entries = _Entries()
        self._local: dict[str, tuple[RoutingModel, RoutingModel, Selectors]] = {}

    def route_class(self, topic: str, cls: PublisherClass) -> None:
        """The representative routed; each member routed too when its answers are not the
        representative's up to the name, else represented and routed on its own subscriptions only."""
        groups, stats, note = self.groups, self.stats, self.entries.note
        group = groups[(topic, cls.representative)]
        notes = _notes(self.old, self.new, self.selectors, [p for _i, p in group], stats)
        beyond = _beyond_first_hop(notes, cls.representative) if cls.members else set()
        apart = list(cls.members) if beyond is None else [m for m in cls.members if m in beyond]
        alike = [m for m in cls.members if m not in apart]
        note(group, notes, _standing(alike))
        for member in apart:  # not the representative's answer up to the name: routed
            theirs = groups[(topic, member)]
            note(theirs, _notes(self.old, self.new, self.selectors, [p for _i, p in theirs], stats))
        if alike:
            stats.classes += 1
        for member in alike:
            theirs = groups[(topic, member)]
            stats.represented += len(theirs)
            if self.plan is not None and not self.plan.quiet(member, topic):
                alone = RouteStats()
                a, b, theirs_selectors = self._own(member)
                note(theirs, _notes(a, b, theirs_selectors, [p for _i, p in theirs], alone))
                stats.local += alone.engine

    def _own(self, name: str) -> tuple[RoutingModel, RoutingModel, Selectors]:
        """Both sides with ``name``'s subscriptions only, and their selectors (made once per name)."""
        assert self.plan is not None
        if name not in self._local:
            a, b = self.plan.local(0, name), self.plan.local(1, name)
            self._local[name] = (
                RoutingModel(a, cache_size=64),
                RoutingModel(b, cache_size=64),
                (_selectors_of(a), _selectors_of(b)),
            )
        return self._local[name]


def _selectors_of(topology: Topology) -> dict[tuple[str, str], str]:
    """(node, subscription) -> its selector, for those that have one."""
    return {(s.node, s.name): s.selector for s in topology.subscriptions if s.selector}


def _beyond_first_hop(notes: list[Note], representative: str) -> set[str] | None:
    """The nodes the representative's changed answers name past the publisher (later hops, topic
    hosts), but the subscriber's: a member among them is not alike (routed on its own); None when an
    answer is not one a publisher alike could be given by renaming the first hop (then every member is
    routed)."""
    out: set[str] = set()
    for _j, key, was, now, _n in notes:
        if key[0] == representative:
            return None  # a quiet representative has no subscription of its own
        named: set[str] = set()
        for o in (was, now):
            if o is None or not o.path:
                continue
            if o.path[0] != representative:
                return None
            named.update(o.path[1:])
            if o.host is not None:
                named.add(o.host)
        named.discard(key[0])  # the subscriber's node: an entry does not stand for it (``_standing``)
        out |= named
    return None if representative in out else out


def _standing(alike: list[str]) -> Callable[[str], tuple[str, ...]]:
    """For a subscription's node, the publishers alike an entry stands for: all but the node itself,
    whose own subscriptions are answered from itself (``publishers.local``)."""
    everyone = tuple(alike)
    if not everyone:
        return lambda _node: ()
    but: dict[str, tuple[str, ...]] = {}  # a member's subscriptions: every other member, made once

    def standing(node: str) -> tuple[str, ...]:
        if node not in but:
            but[node] = tuple(m for m in everyone if m != node)
        return but[node]

    return standing


def _notes(
    old: RoutingModel,
    new: RoutingModel,
    selectors: Selectors,
    group: list[Probe],
    stats: RouteStats,
) -> list[Note]:
    """One publisher's probes on one topic on both models: where the answers differ."""
    notes: list[Note] = []
    if len(group) > 1 and _judged(old, new, selectors, group, notes.append, stats):
        return notes
    notes.clear()
    for j, probe in enumerate(group):
        a, b = answer(old, probe), answer(new, probe)
        stats.engine += 1
        if a != b:  # the usual probe: nothing changed for anyone (compared in C, no key sorted)
            for key in [k for k, v in a.items() if b.get(k) != v] + [k for k in b.keys() - a.keys()]:
                notes.append((j, key, a.get(key), b.get(key), 1))
    return notes


def _judged(
    old: RoutingModel,
    new: RoutingModel,
    selectors: Selectors,
    group: list[Probe],
    note: Callable[[Note], None],
    stats: RouteStats,
) -> bool:
    """One MQ publisher's probes on one topic, routing only a few (see ``route_diff``); False, having
    noted nothing, when they cannot be judged so (EMS: route selectors read the message on the way).

    Per side, a subscription the engine reports missed for a reason of reachability misses every probe
    alike; one it reports missed by its selector, or delivered, is reached, and then gets, for a probe
    its selector makes TRUE, the delivery (the same for every such probe) and otherwise the selector's
    miss. A probe is routed on a side only while some reached subscription's delivery is still unseen
    there and one of the group's probes would show it."""
    compiled = _mq_selectors(old, new, selectors, group[0].publisher)
    if compiled is None:
        return False
    selects = _selections(group, compiled)
    # first, the probe most selectors select: it shows the most deliveries at once
    start = max(range(len(group)), key=lambda j: (sum(selects[j].values()), -j))
    routed = {start}
    known: list[dict[tuple[str, str], Any]] = []
    for side, model in enumerate((old, new)):
        state = _reached(model, group, selects, selectors[side], start, routed)
        if state is None:
            return False
        known.append(state)
    stats.engine += len(routed)  # probes routed through the engine on at least one side
    stats.judged += len(group) - len(routed)
    _note_judged(sorted(known[0].keys() | known[1].keys()), selectors, selects, known, note)
    return True


def _mq_selectors(
    old: RoutingModel, new: RoutingModel, selectors: Selectors, publisher: str
) -> dict[str, Selector] | None:
    """Both sides' selectors compiled, or None when the publisher's probes cannot be judged by them: it
    is not MQ on every side where it exists, or a selector does not compile (the engine says why)."""
    from mqctl.domain.model import Dialect
    from mqctl.domain.selector import compile_selector

    dialects = {m.topology.nodes[publisher].dialect for m in (old, new) if publisher in m.topology.nodes}
    if dialects != {Dialect.MQ}:
        return None
    texts = sorted(set(selectors[0].values()) | set(selectors[1].values()))
    try:
        return {t: compile_selector(t) for t in texts}
    except Exception:  # noqa: BLE001 — let the engine say what it says of a selector it cannot read
        return None


def _selections(group: list[Probe], compiled: dict[str, Selector]) -> list[dict[str, bool]]:
    """Per probe, which selectors select it (TRUE), the message built as the engine's ladder builds it."""
    selects: list[dict[str, bool]] = []
    for probe in group:
        properties = dict(probe.properties)
        message = Message.create(properties, dict(Message.create(properties, {}).headers))
        selects.append({t: c.evaluate(message) is True for t, c in compiled.items()})
    return selects


def _reached(
    model: RoutingModel,
    group: list[Probe],
    selects: list[dict[str, bool]],
    own: dict[tuple[str, str], str],
    start: int,
    routed: set[int],
) -> dict[tuple[str, str], Any] | None:
    """One side's answers, routing probes (added to ``routed``) until no reached subscription's delivery
    is unseen; None when the engine's answers do not follow the selectors (then every probe is routed)."""
    first = answer(model, group[start])
    tried = {start}
    # (node, subscription) -> its answer when it has no selector or is missed on the way, else [delivery
    # or None while unseen]
    state: dict[tuple[str, str], Any] = {}
    for key, outcome in first.items():
        if key not in own or (not outcome.receives and outcome.reason != _REFUSED):
            state[key] = outcome
        else:
            state[key] = [outcome if outcome.receives else None]
    while True:
        unseen = {own[k] for k, v in state.items() if isinstance(v, list) and v[0] is None}
        gain = [0 if j in tried else sum(selects[j][t] for t in unseen) for j in range(len(group))]
        best = max(range(len(group)), key=lambda j: (gain[j], -j))
        if not unseen or gain[best] == 0:
            if any(gain) or any(selects[j][t] for j in tried for t in unseen):
                return None  # the engine did not deliver where its ladder says it would
            return state
        found = answer(model, group[best])
        tried.add(best)
        routed.add(best)
        if found.keys() != first.keys():
            return None  # not one set of subscriptions whatever the properties: route them all
        for key, v in state.items():
            if isinstance(v, list) and v[0] is None and found[key].receives:
                v[0] = found[key]


def _note_judged(
    keys: list[tuple[str, str]],
    selectors: Selectors,
    selects: list[dict[str, bool]],
    known: list[dict[tuple[str, str], Any]],
    note: Callable[[Note], None],
) -> None:
    """Note each subscription's judged answers, once per class of probes its two selectors' verdicts
    make: (first probe, how many), in probe order, so that an entry keeps the first probe that shows it."""
    missed = Outcome("not_delivered", reason=_REFUSED)

    def answer_of(side: int, key: tuple[str, str], j: int) -> Outcome | None:
        """Probe ``j``'s answer on a side: as the engine gave it, or as the subscription's selector judges."""
        v = known[side].get(key)
        if not isinstance(v, list):
            return v
        if selects[j][selectors[side][key]]:
            assert v[0] is not None  # a probe making it TRUE was routed
            return v[0]
        return missed

    classes: dict[tuple[str | None, str | None], list[tuple[int, int]]] = {}  # per pair of selectors
    for key in keys:
        unit = (selectors[0].get(key), selectors[1].get(key))
        if unit not in classes:
            first_of: dict[tuple[bool, ...], list[int]] = {}
            for j in range(len(selects)):
                verdicts = tuple(False if t is None else selects[j][t] for t in unit)
                if verdicts in first_of:
                    first_of[verdicts][1] += 1
                else:
                    first_of[verdicts] = [j, 1]
            classes[unit] = [(j, n) for j, n in first_of.values()]
        for j, n in classes[unit]:
            note((j, key, answer_of(0, key, j), answer_of(1, key, j), n))


def reachable(sides: Iterable[Topology], start: Iterable[str]) -> set[str]:
    """The nodes a publication made at ``start`` can travel to on any of ``sides``, and more: those
    joined by a cluster membership (MQ, §4), a hierarchy relation (§4.3) or a route (EMS), whatever
    their attributes say. Nothing else carries a publication (semantics §4, §7)."""
    links: dict[str, set[str]] = {}
    clusters: dict[str, set[str]] = {}

    def join(a: str, b: str) -> None:
        links.setdefault(a, set()).add(b)
        links.setdefault(b, set()).add(a)

    for topology in sides:
        for m in topology.memberships:
            clusters.setdefault(m.cluster, set()).add(m.node)
            join(m.node, "\0cluster " + m.cluster)  # a cluster is a node of this graph
        for node in topology.nodes.values():
            if node.parent:
                join(node.name, node.parent)
        for route in topology.routes:
            join(route.node, route.peer)
    found: set[str] = set()
    todo = list(start)
    while todo:
        name = todo.pop()
        if name not in found:
            found.add(name)
            todo += links.get(name, ())
    return {n for n in found if not n.startswith("\0")}


def sliced(topology: Topology, nodes: set[str]) -> Topology:
    """The part of ``topology`` defined on ``nodes`` (the whole, as it is, when that is every node)."""
    if all(n in nodes for n in topology.nodes):
        return topology
    return Topology(
        nodes={n: node for n, node in topology.nodes.items() if n in nodes},
        memberships=[m for m in topology.memberships if m.node in nodes],
        topics=[o for o in topology.topics if o.node in nodes],
        subscriptions=[s for s in topology.subscriptions if s.node in nodes],
        routes=[r for r in topology.routes if r.node in nodes],
        route_selectors=[r for r in topology.route_selectors if r.node in nodes],
        channels=[c for c in topology.channels if c.node in nodes],
        namelists=[n for n in topology.namelists if n.node in nodes],
    )


def by_subscription(changes: Iterable[RoutingChange]) -> dict[tuple[str, str], list[RoutingChange]]:
    """(node, subscription) -> its changes, in probe order."""
    out: dict[tuple[str, str], list[RoutingChange]] = {}
    for c in changes:
        out.setdefault((c.node, c.subscription), []).append(c)
    return dict(sorted(out.items()))
