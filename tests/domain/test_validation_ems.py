"""The EMS rules of docs/rules.md on small models, and INVALID_SELECTOR for both dialects."""

from __future__ import annotations

from mqctl.domain.model import Route, RouteSelector, Subscription, Topology
from mqctl.domain.validation import Finding, choose_rules, validate
from tests.domain import mq_builders as mq
from tests.domain.ems_builders import (
    both,
    build,
    chain,
    incoming,
    orders,
    outgoing,
    route,
    server,
    sub,
    topic,
)


def found(t: Topology, code: str) -> list[Finding]:
    return validate(t, choose_rules([code]))


def servers(*names: str, globals_: str = "T1") -> list[object]:
    """Servers, each with the topic definitions given global."""
    out: list[object] = []
    for name in names:
        out += [server(name), *(topic(name, g, "global") for g in globals_.split())]
    return out


def with_url(r: Route, url: str) -> Route:
    r.url = url
    return r


def test_reference_examples_are_quiet_but_for_what_reference_003_warns_about() -> None:
    """orders-central (002) is clean but for its route durables, which the figure leaves dynamic; the
    chain (003) has an active-passive route and no storage limits too."""
    assert {f.rule.code for f in validate(orders())} == {"ROUTE_DURABLE_NOT_STATIC"}
    codes = sorted(f.rule.code for f in validate(chain()))
    assert codes == ["ACTIVE_PASSIVE_ROUTE", "ROUTE_DURABLE_NOT_STATIC", "STORAGE_UNBOUNDED"]


def test_route_durable_not_static_until_the_forwarder_defines_it() -> None:
    """Reference 003's chain: M forwards T1 to B's durable subscribers (docs/rules.md MQC042)."""
    [f] = found(chain(), "ROUTE_DURABLE_NOT_STATIC")
    assert f.nodes == ("B", "M") and "T1 B route" in f.message
    assert f.objects == ("sub audit on B", "sub reports on B")
    for pattern in ("T1", ">"):  # the same topic, or a wildcard containing it
        fixed = chain()
        fixed.subscriptions.append(
            Subscription(node="M", name="B", topicstr=pattern, durable=True, properties={"route": None})
        )
        assert found(fixed, "ROUTE_DURABLE_NOT_STATIC") == []


def test_mhop_duplicate_path() -> None:
    t = build(servers("A", "B", "C"), both("A", "B"), both("B", "C"), both("C", "A"))
    [f] = found(t, "MHOP_DUPLICATE_PATH")
    assert "servers B and C are joined directly and also by B - A - C" in f.message
    assert "route B on C" in f.objects
    assert found(build(servers("A", "B", "C"), both("A", "B"), both("B", "C")), "MHOP_DUPLICATE_PATH") == []
    one_hop = build(servers("A", "B", "C"), *(both(x, y, "Z", "1hop") for x, y in ("AB", "BC", "CA")))
    assert found(one_hop, "MHOP_DUPLICATE_PATH") == []  # redundant paths are legal in a 1hop zone


def test_zone_type_mismatch() -> None:
    t = build(servers("A", "B", "C"), both("A", "B", "Z", "mhop"), both("B", "C", "Z", "1hop"))
    [f] = found(t, "ZONE_TYPE_MISMATCH")
    assert f.message.startswith("Zone Z has mhop routes (B on A and A on B) and 1hop routes")
    t = build(servers("A", "B", "C"), both("A", "B", "Z", "1hop"), both("B", "C", "Z", "1hop"))
    assert found(t, "ZONE_TYPE_MISMATCH") == []


def test_one_hop_zone_too_short() -> None:
    t = build(servers("A", "B", "C"), both("A", "B", "Z", "1hop"), both("B", "C", "Z", "1hop"))
    [f] = found(t, "ONE_HOP_ZONE_TOO_SHORT")
    assert "servers A and C are connected only through A - B - C" in f.message
    t.add(*both("A", "C", "Z", "1hop"))
    assert found(t, "ONE_HOP_ZONE_TOO_SHORT") == []


def test_unknown_route_peer() -> None:
    t = build(servers("A"), route("A", "B"))
    [f] = found(t, "UNKNOWN_ROUTE_PEER")
    assert "knows only by name" in f.message and f.objects == ("route B on A",)
    t = build(servers("A"), route("A", "B"), server("B"))  # defined, but nothing of B is known
    assert len(found(t, "UNKNOWN_ROUTE_PEER")) == 1
    t.add(topic("B", "T1", "global"))
    assert found(t, "UNKNOWN_ROUTE_PEER") == []
    mixed = build(servers("A"), route("A", "QM1"), mq.qm("QM1"))
    [f] = found(mixed, "UNKNOWN_ROUTE_PEER")
    assert "an MQ queue manager" in f.message


def test_duplicate_route_and_route_name_not_peer() -> None:
    t = build(
        servers("A", "B", "C"),
        with_url(route("A", "B"), "tcp://b:7222"),
        with_url(route("A", "BEE"), "tcp://B:7222/"),
        with_url(route("C", "B"), "tcp://c1:7222,tcp://b:7222"),
    )
    [dup] = found(t, "DUPLICATE_ROUTE")
    assert dup.message.startswith("Server A has routes B and BEE to the same URL tcp://b:7222")
    [name] = found(t, "ROUTE_NAME_NOT_PEER")
    assert "BEE on A" in name.message and "B is the server the model knows" in name.message
    fixed = build(
        servers("A", "B", "C"),
        with_url(route("A", "B"), "tcp://b:7222"),
        with_url(route("C", "B"), "tcp://c1:7222,tcp://b:7222"),
    )
    assert found(fixed, "DUPLICATE_ROUTE") == [] and found(fixed, "ROUTE_NAME_NOT_PEER") == []


def test_route_name_not_peer_when_a_route_goes_unanswered() -> None:
    """A's route is named B, but the server that routes to A is BB: the name is probably wrong."""
    t = build(servers("A", "BB"), route("A", "B"), route("BB", "A"))
    [f] = found(t, "ROUTE_NAME_NOT_PEER")
    assert f.message.startswith("Route B on A leads to a server the model does not know, while BB defines")
    t = build(servers("A", "BB"), route("A", "BB"), route("BB", "A"))
    assert found(t, "ROUTE_NAME_NOT_PEER") == []


def test_active_passive_route_only_where_global_topics_can_cross() -> None:
    t = build(servers("A", "B"), route("A", "B"))
    [f] = found(t, "ACTIVE_PASSIVE_ROUTE")
    assert f.message.startswith("Route B is defined on A only (active-passive)")
    assert found(build(servers("A", "B"), both("A", "B")), "ACTIVE_PASSIVE_ROUTE") == []
    apart = build(servers("A"), servers("B", globals_="OTHER"), route("A", "B"))
    assert found(apart, "ACTIVE_PASSIVE_ROUTE") == []


def test_selector_on_non_global_topic() -> None:
    t = build(servers("A", "B"), both("A", "B"), outgoing("A", "B", "orders", "country = 'US'"))
    [f] = found(t, "SELECTOR_ON_NON_GLOBAL_TOPIC")
    assert "outgoing_topic selector for orders, which is not global on A and B" in f.message
    t = build(servers("A", "B", globals_="orders.>"), both("A", "B"), incoming("B", "A", "orders.*", "x = 1"))
    assert found(t, "SELECTOR_ON_NON_GLOBAL_TOPIC") == []


def test_intersecting_global_topics() -> None:
    """The issue's example: foo.* and foo.a.> (foo.a is a topic of one, the parent of the other's)."""
    t = build(servers("A", globals_="foo.* foo.a.> bar.* *.x market.> market.fx.*"))
    pairs = sorted(tuple(o.split()[1] for o in f.objects) for f in found(t, "INTERSECTING_GLOBAL_TOPICS"))
    assert pairs == [("*.x", "bar.*"), ("*.x", "foo.*"), ("*.x", "market.>"), ("foo.*", "foo.a.>")]
    nested = build(servers("A", globals_="market.> market.fx.* orders orders.>"))
    assert found(nested, "INTERSECTING_GLOBAL_TOPICS") == []


def test_subscription_not_subset_of_global() -> None:
    t = build(
        servers("A", "B", globals_="foo.*"), both("A", "B"), sub("A", "S", "foo.>"), sub("A", "OK", "foo.a")
    )
    [f] = found(t, "SUBSCRIPTION_NOT_SUBSET_OF_GLOBAL")
    assert f.objects == ("sub S on A", "topic foo.* on A")
    alone = build(servers("A", globals_="foo.*"), sub("A", "S", "foo.>"))
    assert found(alone, "SUBSCRIPTION_NOT_SUBSET_OF_GLOBAL") == []  # no route: nothing is routed


def test_storage_unbounded_names_the_forwarding_servers() -> None:
    [f] = found(chain(), "STORAGE_UNBOUNDED")
    assert "audit ('T1') and reports ('T1') on server B are fed over routes by A and M" in f.message
    assert f.nodes == ("A", "B", "M")
    bounded = chain()
    for definition in bounded.topics:
        if definition.name == "T1" and definition.node in "AM":
            definition.properties["maxmsgs"] = "1000"
    assert found(bounded, "STORAGE_UNBOUNDED") == []


def test_storage_unbounded_only_for_servers_on_a_path() -> None:
    """M's topic is not global, so A's messages never reach B through it: neither stores for B."""
    assert found(chain(t1_global_on="AB"), "STORAGE_UNBOUNDED") == []


def test_invalid_selector_in_both_dialects() -> None:
    t = build(
        servers("A", "B"),
        both("A", "B"),
        sub("A", "S", "T1", selector="price >"),
        RouteSelector("A", "B", outgoing("A", "B", "T1", "x").direction, "T1", "x = 'a' AND"),
        mq.qm("QM1"),
        mq.sub("QM1", "MQSUB", "/a", selector="amount > 5"),
    )
    findings = found(t, "INVALID_SELECTOR")
    assert [f.objects for f in findings] == [("route B on A outgoing_topic=T1",), ("sub S on A",)]
    assert "column" in findings[0].message
