"""The EMS path search is exact: on random networks small enough to enumerate every simple path, its
best path, alternatives, count of further paths and reason equal brute force's (semantics §6, §9).

The brute force below is written from docs/semantics.md alone: enumerate every simple path from the publisher,
keep those on which T is global on every server and no message is forwarded within the one-hop zone it
arrived on, judge each (route selectors first, then the first failing hop), sort by (delivered < stored <
gap < refused, hops, names), and apply the reason precedence of §9.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from hypothesis import given, settings
from hypothesis import strategies as st

from mqctl.domain.explanation import MAX_ALTERNATIVES, Explanation, Failures, Publication, Reason, WarningCode
from mqctl.domain.messages import Message
from mqctl.domain.model import Dialect, Direction, Route, Subscription, Topology
from mqctl.domain.routing import RoutingModel, explain
from mqctl.domain.routing.ems_paths import MORE_LIMIT
from mqctl.domain.selector import compile_selector
from mqctl.domain.topics import matches
from tests.domain.ems_builders import both, build, incoming, outgoing, props, route, server, sub, topic

TOPIC = "t.x"
ZONES = {"Z1": "mhop", "Z2": "1hop", "Z3": "1hop"}
SELECTORS = ("p = 1", "p = 2", "q = 1")
DELIVERED, STORED, GAP, REJECTED = range(4)

# --- brute force ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Link:
    definers: frozenset[str]
    one_hop: frozenset[str]


def links_of(topology: Topology) -> dict[frozenset[str], Link]:
    defined: dict[frozenset[str], dict[str, Route]] = {}
    for r in topology.routes:
        defined.setdefault(frozenset((r.node, r.peer)), {})[r.node] = r
    one_hop = {r.zone_name for r in topology.routes if r.zone_type == "1hop"}
    return {
        pair: Link(frozenset(defs), frozenset(r.zone_name for r in defs.values()) & one_hop)
        for pair, defs in defined.items()
    }


def simple_paths(
    start: str, links: dict[frozenset[str], Link], ok: Callable[[tuple[str, ...], str], bool]
) -> Iterator[tuple[str, ...]]:
    """Every simple path from ``start`` (one server or more) whose hops satisfy ``ok(path, next)``."""
    stack: list[tuple[str, ...]] = [(start,)]
    while stack:
        path = stack.pop()
        yield path
        for pair in links:
            if path[-1] in pair:
                (nxt,) = pair - {path[-1]}
                if nxt not in path and ok(path, nxt):
                    stack.append((*path, nxt))


def route_verdict(topology: Topology, message: Message, x: str, y: str) -> bool | None:
    links = links_of(topology)
    definers = links[frozenset((x, y))].definers
    texts = [
        rs.selector
        for rs in sorted(topology.route_selectors, key=lambda rs: rs.seq)
        if matches(rs.topic, TOPIC, Dialect.EMS)
        and (
            (rs.node == x and rs.peer == y and rs.direction == Direction.OUTGOING and x in definers)
            or (rs.node == y and rs.peer == x and rs.direction == Direction.INCOMING and y in definers)
        )
    ]
    verdicts = [compile_selector(t).evaluate(message) for t in texts]
    if any(v is False for v in verdicts):
        return False
    return None if any(v is None for v in verdicts) else True


def judge(topology: Topology, message: Message, failures: Failures, path: tuple[str, ...]) -> int:
    links = links_of(topology)
    hops = list(zip(path, path[1:], strict=False))
    if any(route_verdict(topology, message, x, y) is not True for x, y in hops):
        return REJECTED
    for x, y in hops:
        if failures.hop_fails(x, y):
            link = links[frozenset((x, y))]
            return GAP if link.definers == {y} else STORED
    return DELIVERED


@dataclass
class Expected:
    reason: Reason | None = None
    path: tuple[str, ...] = ()
    alternatives: list[tuple[str, ...]] | None = None
    more: int = 0
    stored_at: str | None = None


def brute(topology: Topology, failures: Failures, message: Message, s: Subscription) -> Expected:
    publisher = "S0"
    links = links_of(topology)
    glob = {t.node for t in topology.topics if t.is_global}
    if not s.durable and (s.node, s.name) in failures.offline:
        return Expected(Reason.SUBSCRIBER_OFFLINE)
    if publisher in failures.down or (not s.durable and s.node in failures.down):
        return Expected(Reason.DOWN)
    offline_at = s.node if (s.node, s.name) in failures.offline else None
    if s.node == publisher:
        return selected(s, message, Expected(path=(publisher,), alternatives=[], stored_at=offline_at))

    def zone_ok(path: tuple[str, ...], nxt: str) -> bool:
        if len(path) < 2:
            return True
        arrived = links[frozenset(path[-2:])].one_hop
        return not arrived & links[frozenset((path[-1], nxt))].one_hop

    def structural(path: tuple[str, ...], nxt: str) -> bool:
        return nxt in glob and zone_ok(path, nxt)

    found = []
    if publisher in glob:
        found = [p for p in simple_paths(publisher, links, structural) if p[-1] == s.node]
    if not found:
        if any(
            p[-1] == s.node for p in simple_paths(publisher, links, lambda p, n: p[0] in glob and n in glob)
        ):
            return Expected(Reason.ONE_HOP_ZONE)
        if any(p[-1] == s.node for p in simple_paths(publisher, links, lambda p, n: True)):
            return Expected(Reason.NOT_GLOBAL)
        return Expected(Reason.NO_PATH)
    ranked = sorted((judge(topology, message, failures, p), len(p), p) for p in found)
    phase, _, best = ranked[0]
    if phase == REJECTED:
        return Expected(Reason.ROUTE_SELECTOR, best)
    if phase == GAP:
        return Expected(Reason.DOWN, best)
    others = [p for ph, _, p in ranked[1:] if ph <= STORED]
    stored_at = None
    if phase == STORED:
        stored_at = next(x for x, y in zip(best, best[1:], strict=False) if failures.hop_fails(x, y))
    more = min(len(others) - MAX_ALTERNATIVES, MORE_LIMIT) if len(others) > MAX_ALTERNATIVES else 0
    expected = Expected(None, best, others[:MAX_ALTERNATIVES], more, stored_at or offline_at)
    return selected(s, message, expected)


def selected(s: Subscription, message: Message, expected: Expected) -> Expected:
    if s.selector and compile_selector(s.selector).evaluate(message) is not True:
        return Expected(Reason.SELECTOR_FALSE)
    return expected


# --- random networks -----------------------------------------------------------------------------------


@st.composite
def networks(draw: st.DrawFn) -> tuple[Topology, Failures]:
    n = draw(st.integers(2, 6))
    names = [f"S{i}" for i in range(n)]
    parts: list[object] = [server(x) for x in names]
    for x in names:
        parts.append(topic(x, "t.>", *(["global"] if draw(st.integers(0, 5)) else []), maxmsgs="10"))
    for a, b in itertools.combinations(names, 2):
        shape = draw(st.sampled_from(["none", "none", "a", "b", "both"]))
        if shape == "none":
            continue
        zone = draw(st.sampled_from(sorted(ZONES)))
        kind = ZONES[zone] if draw(st.integers(0, 9)) else "1hop"
        routes = (
            both(a, b, zone, kind)
            if shape == "both"
            else [route(*((a, b) if shape == "a" else (b, a)), zone, kind)]
        )
        parts += routes
        for r in routes:
            if draw(st.integers(0, 5)) == 0:
                make = draw(st.sampled_from([incoming, outgoing]))
                parts.append(
                    make(
                        r.node,
                        r.peer,
                        draw(st.sampled_from(["t.>", "t.x", "t.y"])),
                        draw(st.sampled_from(SELECTORS)),
                    )
                )
    subs = draw(
        st.lists(
            st.tuples(st.sampled_from(names), st.booleans(), st.sampled_from([None, *SELECTORS])), max_size=6
        )
    )
    for i, (node, durable, selector) in enumerate(subs):
        parts.append(
            sub(
                node,
                f"s{i}",
                draw(st.sampled_from(["t.x", "t.>", "t.*"])),
                durable=durable,
                selector=selector,
            )
        )
    topology = build(parts)
    down = draw(st.sets(st.sampled_from(names), max_size=2))
    pairs = [tuple(sorted((r.node, r.peer))) for r in topology.routes]
    links_down = draw(st.sets(st.sampled_from(pairs), max_size=2)) if pairs else set()
    offline = (
        draw(st.sets(st.sampled_from([(s.node, s.name) for s in topology.subscriptions]), max_size=2))
        if topology.subscriptions
        else set()
    )
    failures = Failures(frozenset(down), frozenset(frozenset(p) for p in links_down), frozenset(offline))
    return topology, failures


def compare(topology: Topology, failures: Failures) -> Explanation:
    properties = props(p=1)
    answer = explain(topology, Publication("S0", TOPIC, properties), failures)
    message = Message.create(properties)
    got = {(d.node, d.subscription): d for d in answer.deliveries}
    missed = {(n.node, n.subscription): n for n in answer.not_delivered}
    counted = False
    for s in topology.subscriptions:
        expected = brute(topology, failures, message, s)
        key = (s.node, s.name)
        if expected.reason is not None:
            assert key in missed, (key, expected, answer.to_json())
            assert missed[key].reason is expected.reason, (key, expected, missed[key])
            if expected.reason is Reason.ROUTE_SELECTOR:
                x, y = next(
                    (x, y)
                    for x, y in zip(expected.path, expected.path[1:], strict=False)
                    if route_verdict(topology, message, x, y) is not True
                )
                assert f"{x} does not forward it to {y}" in missed[key].detail
            continue
        assert key in got, (key, expected, answer.to_json())
        d = got[key]
        assert tuple(d.path) == expected.path, (key, d.path, expected)
        assert [tuple(a) for a in d.alternatives] == expected.alternatives, (key, d.alternatives, expected)
        assert d.more_alternatives == expected.more
        assert d.stored_at == expected.stored_at
        counted |= expected.more == MORE_LIMIT
    assert (WarningCode.SEARCH_LIMIT in [w.code for w in answer.warnings]) == counted
    return answer


@settings(max_examples=250, deadline=None)
@given(networks())
def test_search_equals_brute_force(case: tuple[Topology, Failures]) -> None:
    compare(*case)


def test_full_mesh_of_six_with_one_hop_zones_and_failures() -> None:
    """A hand-made case brute force also checks: a 1hop mesh beside an mhop ring, a server down."""
    names = [f"S{i}" for i in range(6)]
    parts: list[object] = [server(x) for x in names]
    parts += [topic(x, "t.>", "global", maxmsgs="1") for x in names]
    for a, b in itertools.combinations(names[:4], 2):
        parts += both(a, b, "Z2", "1hop")
    for a, b in zip(names, names[1:] + names[:1], strict=True):
        parts += [route(a, b, "Z1", "mhop")]
    parts += [sub(x, f"s-{x}", "t.>", durable=True) for x in names]
    topology = build(parts)
    compare(topology, Failures())
    compare(topology, Failures(down=frozenset({"S2"})))
    compare(topology, Failures(links_down=frozenset({frozenset(("S0", "S5"))})))


@settings(max_examples=150, deadline=None)
@given(networks(), st.data())
def test_one_model_answers_a_stream_of_questions_as_each_alone(
    case: tuple[Topology, Failures], data: st.DataObject
) -> None:
    """The Spark job asks one model many questions: path searches kept per publisher, hop rules and
    failures, and the hops per route selector text, change no answer whatever came before (topics with
    other global servers or selectors, properties that other selectors refuse, other failures)."""
    topology, failures = case
    model = RoutingModel(topology)
    names = sorted(n for n in topology.nodes)
    questions = st.tuples(
        st.sampled_from(names),
        st.sampled_from(["t.x", "t.y", "t.z"]),
        st.sampled_from([props(), props(p=1), props(p=2), props(p=1, q=1)]),
        st.sampled_from([failures, Failures()]),
    )
    for node, topic_, properties, failed in data.draw(st.lists(questions, min_size=2, max_size=8)):
        publication = Publication(node, topic_, properties)
        alone = explain(topology, publication, failed, detail=False).to_json()
        assert explain(model, publication, failed, detail=False).to_json() == alone


def test_one_model_keeps_each_topics_global_servers_and_selector_texts() -> None:
    """Two topics from one publisher over the same route, both let through by its selectors (the hop
    names each one's own selector), and a third not global on the far server (it stays there)."""
    parts: list[object] = [server("A"), server("B"), *both("A", "B", "Z1", "mhop")]
    parts += [topic(x, t, "global") for x in ("A", "B") for t in ("t.x", "t.y")]
    parts.append(topic("A", "t.z", "global"))
    parts += [outgoing("A", "B", "t.x", "p = 1"), outgoing("A", "B", "t.y", "p >= 1")]
    parts += [sub("B", "all", "t.>", durable=True)]
    topology = build(parts)
    model = RoutingModel(topology)
    for topic_ in ("t.x", "t.y", "t.z", "t.x", "t.z", "t.y"):
        publication = Publication("A", topic_, props(p=1))
        alone = explain(topology, publication, Failures(), detail=False).to_json()
        assert explain(model, publication, Failures(), detail=False).to_json() == alone
