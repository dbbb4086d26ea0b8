"""The EMS routing engine (semantics §6, §8, §9; references 002 and 003).

Topologies mirror ``shared/corpus/ems`` and are built in ``ems_builders``.
"""

from __future__ import annotations

import itertools
import json
import math
import random

import pytest

from mqctl.domain.errors import InputError
from mqctl.domain.explanation import (
    MAX_ALTERNATIVES,
    Delivery,
    Explanation,
    Failures,
    Publication,
    Reason,
    Status,
    WarningCode,
)
from mqctl.domain.model import Dialect, Node, Route, Subscription, TopicObject, Topology, ZoneType
from mqctl.domain.routing.ems_network import EmsNetwork
from mqctl.domain.routing.ems_paths import MORE_LIMIT
from mqctl.domain.topics import matches
from tests.domain.ems_builders import (
    both,
    build,
    chain,
    explain,
    incoming,
    orders,
    outgoing,
    regions,
    route,
    server,
    sub,
    topic,
)


def delivered(ex: Explanation) -> dict[str, list[str]]:
    return {d.subscription: d.path for d in ex.deliveries}


def reasons(ex: Explanation) -> dict[str, Reason]:
    return {n.subscription: n.reason for n in ex.not_delivered}


def detail(ex: Explanation, name: str) -> str:
    return next(n.detail for n in ex.not_delivered if n.subscription == name)


def codes(ex: Explanation) -> list[WarningCode]:
    return [w.code for w in ex.warnings]


def the(ex: Explanation, name: str) -> Delivery:
    return next(d for d in ex.deliveries if d.subscription == name)


# --- reference 003: registered interest over A–M–B ---------------------------------------------------


def test_chain_multi_hop_with_global_topics() -> None:
    """Ref 003 "Registered Interest Propagation" steps 1-6: T1 global on A, M, B reaches B via M."""
    ex = explain(chain("MB"), "A", "T1")
    assert delivered(ex) == {"audit": ["A", "M", "B"], "reports": ["A", "M", "B"]}
    reports = the(ex, "reports")
    assert reports.status is Status.DELIVERED and reports.stored_at is None
    assert [(h.from_node, h.to_node, str(h.via), h.name, h.selector) for h in reports.hops] == [
        ("A", "M", "route", "M", None),
        ("M", "B", "route", "B", None),
    ]
    assert ex.resolved.to_json() == {
        "node": "A",
        "object": "T1",
        "topicstr": "T1",
        "cluster": None,
        "clroute": None,
    }
    assert ex.not_delivered == []


def test_hop_name_is_the_definers_when_the_sender_defines_none() -> None:
    """§6 route naming: M–B defined on B only (corpus chain) is B's route ``M``, also for the hop M→B."""
    ex = explain(chain("B"), "A", "T1")
    assert [h.name for h in the(ex, "reports").hops] == ["M", "M"]


def test_not_global_on_m() -> None:
    """§6 / ref 002 "Routed Topic Messages": T1 not global on M, so it never crosses A→M nor M→B."""
    ex = explain(chain("MB", t1_global_on="AB"), "A", "T1")
    assert reasons(ex) == {"audit": Reason.NOT_GLOBAL, "reports": Reason.NOT_GLOBAL}
    assert "not global on M" in detail(ex, "reports")


def test_topic_not_global_anywhere() -> None:
    """Corpus chain: T2 is defined without ``global``: a subscriber on B never gets A's T2."""
    topo = chain("MB")
    topo.add(sub("B", "t2", "T2"), sub("A", "t2-local", "T2"))
    ex = explain(topo, "A", "T2")
    assert reasons(ex)["t2"] is Reason.NOT_GLOBAL
    assert delivered(ex)["t2-local"] == ["A"]  # local delivery needs no route


def test_no_path() -> None:
    """§9 precedence: NO_PATH when no route at all connects the publisher to the subscriber's server."""
    topo = chain("MB")
    topo.add(server("C"), topic("C", "T1", "global"), sub("C", "lonely", "T1"))
    ex = explain(topo, "A", "T1")
    assert reasons(ex)["lonely"] is Reason.NO_PATH
    assert detail(ex, "lonely") == "No chain of routes connects the publishing server A to C."


def test_server_known_only_as_a_route_peer_has_no_definitions() -> None:
    """A route to a server without a node entry: an EMS server with no definitions, so T is not global."""
    topo = chain("MB")
    topo.add(route("B", "GHOST"), sub("GHOST", "g", "T1"))
    assert reasons(explain(topo, "A", "T1"))["g"] is Reason.NOT_GLOBAL


# --- zones: Tokyo / New York / Paris ----------------------------------------------------------------


def test_zones_restart_the_hop_count() -> None:
    """§6 Zones: 1hop inside TOKYO and NEWYORK, mhop WO between hubs; crossing a zone starts again."""
    ex = explain(regions(), "TK2", "market.fx.usdjpy")
    assert delivered(ex) == {
        "ticker-TK1": ["TK2", "TK1"],
        "ticker-TK2": ["TK2"],
        "ticker-TK3": ["TK2", "TK3"],
        "ticker-NY1": ["TK2", "TK1", "NY1"],
        "ticker-NY2": ["TK2", "TK1", "NY1", "NY2"],
        "ticker-PA1": ["TK2", "TK1", "NY1", "PA1"],
    }
    assert the(ex, "ticker-TK3").alternatives == []  # TK2→TK1→TK3 stays inside TOKYO twice


def test_one_hop_zone_blocks_a_second_hop_in_the_zone() -> None:
    """§6 Zones: a message that arrived at TK1 over TOKYO is not forwarded over another TOKYO route."""
    ex = explain(regions(tk2_tk3=False), "TK2", "market.fx.usdjpy")
    assert reasons(ex) == {"ticker-TK3": Reason.ONE_HOP_ZONE}
    assert "one-hop zone TOKYO" in detail(ex, "ticker-TK3")


def test_one_hop_zone_after_crossing_zones() -> None:
    """§6 Zones: from WO into NEWYORK one hop is allowed (NY1→NY2), a second (NY2→NY3) is not."""
    ex = explain(regions(ny3=True), "TK1", "market.fx.eurusd")
    assert delivered(ex)["ticker-NY2"] == ["TK1", "NY1", "NY2"]
    assert reasons(ex) == {"ticker-NY3": Reason.ONE_HOP_ZONE}
    assert "NEWYORK" in detail(ex, "ticker-NY3")


def test_zone_with_disagreeing_types_counts_as_one_hop() -> None:
    """§9 EMS interest: a zone whose routes disagree on the type counts as 1hop."""
    topo = build(
        [server(n) for n in "XYZ"],
        [topic(n, "t.>", "global", maxmsgs="10") for n in "XYZ"],
        both("X", "Y", "MIXED", "mhop"),
        route("Y", "Z", "MIXED", "1hop"),
        sub("Z", "z", "t.>"),
    )
    assert reasons(explain(topo, "X", "t.a")) == {"z": Reason.ONE_HOP_ZONE}


# --- route selectors: reference 002 Figure 38 -------------------------------------------------------


def test_orders_outgoing_selectors_per_region() -> None:
    """Ref 002 "Selectors for Routing Topic Messages", Figure 38: each region gets its own country."""
    ex = explain(orders(), "ORD", "orders", country="USA", amount=120, currency="USD")
    assert delivered(ex) == {"BILLING-US": ["ORD", "USA"]}
    hop = the(ex, "BILLING-US").hops[0]
    assert hop.name == "USA"
    assert hop.selector == "(country='USA') AND (amount > 0 AND currency IN ('USD', 'CAD'))"
    assert reasons(ex) == {"BILLING-CA": Reason.ROUTE_SELECTOR, "BILLING-ME": Reason.ROUTE_SELECTOR}
    assert "country='Canada'" in detail(ex, "BILLING-CA") and "is false" in detail(ex, "BILLING-CA")


def test_orders_incoming_selector_on_usa_also_applies() -> None:
    """Ref 002 "Active-Active Configuration": ORD's outgoing AND USA's incoming selector."""
    ex = explain(orders(), "ORD", "orders", country="USA", amount=120, currency="EUR")
    assert reasons(ex)["BILLING-US"] is Reason.ROUTE_SELECTOR
    assert "currency IN ('USD', 'CAD')" in detail(ex, "BILLING-US")


def test_route_selector_with_missing_property_is_unknown() -> None:
    """§7: a comparison with a missing property is UNKNOWN, and only TRUE crosses the route."""
    ex = explain(orders(), "ORD", "orders")
    assert set(reasons(ex).values()) == {Reason.ROUTE_SELECTOR}
    assert "unknown" in detail(ex, "BILLING-CA")


def _pair(defined_on: str, direction: str) -> Topology:
    """X and Y, the route defined on one only, holding a selector on ``t`` in the given direction."""
    peer = "Y" if defined_on == "X" else "X"
    make = incoming if direction == "incoming" else outgoing
    return build(
        server("X"),
        server("Y"),
        [topic(n, "t", "global", maxbytes="1MB") for n in "XY"],
        route(defined_on, peer),
        make(defined_on, peer, "t", "p = 1"),
        sub("X", "on-x", "t"),
        sub("Y", "on-y", "t"),
    )


def test_symmetry_of_incoming_and_outgoing() -> None:
    """Ref 002 "Symmetry": X's route to Y with incoming_topic == Y's route to X with outgoing_topic."""
    for topo in (_pair("X", "incoming"), _pair("Y", "outgoing")):
        assert delivered(explain(topo, "Y", "t", p=1))["on-x"] == ["Y", "X"]
        assert reasons(explain(topo, "Y", "t", p=2)) == {"on-x": Reason.ROUTE_SELECTOR}
        # the other direction carries no selector
        assert the(explain(topo, "X", "t", p=2), "on-y").hops[0].selector is None


def test_active_active_incoming_and_outgoing_are_anded() -> None:
    """Ref 002 "Active-Active Configuration": effective selector on A→B is S1 AND S2."""
    topo = build(
        server("A"),
        server("B"),
        [topic(n, "T", "global", maxbytes="1MB") for n in "AB"],
        both("A", "B"),
        outgoing("A", "B", "T", "a = 1"),
        incoming("B", "A", "T", "b = 2"),
        outgoing("B", "A", "T", "never = 1"),  # applies to B→A only
        sub("B", "s", "T"),
    )
    ok = explain(topo, "A", "T", a=1, b=2)
    assert the(ok, "s").hops[0].selector == "(a = 1) AND (b = 2)"
    assert reasons(explain(topo, "A", "T", a=1, b=3)) == {"s": Reason.ROUTE_SELECTOR}
    assert reasons(explain(topo, "A", "T", a=0, b=2)) == {"s": Reason.ROUTE_SELECTOR}


def test_wildcard_route_selector_topics_are_anded() -> None:
    """Ref 002 "Wildcards": for each actual topic the server ANDs every selector whose topic matches."""
    topo = build(
        server("A"),
        server("B"),
        [topic(n, "orders.>", "global", maxbytes="1MB") for n in "AB"],
        route("A", "B"),
        outgoing("A", "B", "orders.>", "amount > 10"),
        outgoing("A", "B", "orders.*", "region = 'EU'"),
        outgoing("A", "B", "orders.eu", "urgent = TRUE"),
        outgoing("A", "B", "billing.>", "never = 1"),
        sub("B", "s", "orders.>"),
    )
    ok = explain(topo, "A", "orders.eu", amount=11, region="EU", urgent=True)
    assert the(ok, "s").hops[0].selector == "(amount > 10) AND (region = 'EU') AND (urgent = TRUE)"
    assert reasons(explain(topo, "A", "orders.eu", amount=11, region="EU", urgent=False)) == {
        "s": Reason.ROUTE_SELECTOR
    }
    assert the(explain(topo, "A", "orders.us", amount=11, region="EU"), "s").hops[0].selector == (
        "(amount > 10) AND (region = 'EU')"
    )


def test_selectors_of_a_side_that_defines_no_route_are_ignored() -> None:
    """§6: only the active side's definition carries selectors (A–B defined on A only)."""
    topo = build(
        server("A"),
        server("B"),
        [topic(n, "T", "global", maxbytes="1MB") for n in "AB"],
        route("A", "B"),
        incoming("B", "A", "T", "never = 1"),
        sub("B", "s", "T"),
    )
    assert the(explain(topo, "A", "T"), "s").hops[0].selector is None


# --- failures (reference 003 "Server Failure", "Network Failure", §9 Failures) ----------------------


def test_active_active_receiver_down_stores_at_m() -> None:
    """Ref 003 "Server Failure": active-active B–M, B fails: M stores messages for B's durables."""
    ex = explain(chain("MB"), "A", "T1", down=["B"])
    reports = the(ex, "reports")
    assert (reports.status, reports.stored_at, reports.path) == (Status.STORED, "M", ["A", "M", "B"])
    assert WarningCode.GAP not in codes(ex) and WarningCode.DUPLICATES_POSSIBLE not in codes(ex)


def test_active_passive_on_b_down_is_a_gap() -> None:
    """Ref 003: active-passive configured on B, B fails: M removes its internal subscriber (a gap)."""
    ex = explain(chain("B"), "A", "T1", down=["B"])
    assert reasons(ex) == {"audit": Reason.DOWN, "reports": Reason.DOWN}
    assert "defined only on B" in detail(ex, "reports")
    assert WarningCode.GAP in codes(ex)


def test_active_passive_on_sender_down_duplicates_possible() -> None:
    """Ref 003: active-passive configured on the sending side: stored like active-active, duplicates."""
    ex = explain(chain("M"), "A", "T1", down=["B"])
    reports = the(ex, "reports")
    assert (reports.status, reports.stored_at) == (Status.STORED, "M")
    assert WarningCode.DUPLICATES_POSSIBLE in codes(ex)
    assert WarningCode.GAP not in codes(ex)


def test_link_down_behaves_like_far_node_down() -> None:
    """Ref 003 "Network Failure" / §9: a link down behaves like the far node down."""
    ex = explain(chain("MB"), "A", "T1", links_down=[("A", "M")])
    assert {(d.status, d.stored_at) for d in ex.deliveries} == {(Status.STORED, "A")}
    gap = explain(chain("B"), "A", "T1", links_down=[("M", "B")])
    assert reasons(gap) == {"audit": Reason.DOWN, "reports": Reason.DOWN}
    assert "link between M and B is down" in detail(gap, "audit")


def test_intermediate_down_stores_at_the_last_available_server() -> None:
    """§9 Failures: the first failing hop decides: M down on active-active A–M stores at A."""
    ex = explain(chain("B"), "A", "T1", down=["M"])
    assert {(d.status, d.stored_at) for d in ex.deliveries} == {(Status.STORED, "A")}


def test_non_durable_subscriber_offline() -> None:
    """Ref 003 "Subscriber Client Exit" / §9: an offline non-durable subscriber misses messages."""
    topo = chain("MB")
    topo.add(sub("B", "live", "T1"))
    ex = explain(topo, "A", "T1", offline=[("B", "live"), ("B", "reports")])
    assert reasons(ex) == {"live": Reason.SUBSCRIBER_OFFLINE}
    reports = the(ex, "reports")  # durable offline: stored at its own server
    assert (reports.status, reports.stored_at, reports.path) == (Status.STORED, "B", ["A", "M", "B"])
    assert the(ex, "audit").status is Status.DELIVERED


def test_non_durable_on_a_down_server() -> None:
    """§9 Failures: a non-durable subscription does not survive its own server's failure."""
    topo = chain("MB")
    topo.add(sub("B", "live", "T1"))
    ex = explain(topo, "A", "T1", down=["B"])
    assert reasons(ex) == {"live": Reason.DOWN}
    assert "non-durable" in detail(ex, "live")


def test_down_publisher() -> None:
    """§9 Failures: a down publisher: every matching subscription DOWN, the offline one first."""
    topo = chain("MB")
    topo.add(sub("A", "local", "T1"), sub("B", "gone", "T1"))
    ex = explain(topo, "A", "T1", down=["A"], offline=[("B", "gone")])
    assert reasons(ex) == {
        "audit": Reason.DOWN,
        "reports": Reason.DOWN,
        "local": Reason.DOWN,
        "gone": Reason.SUBSCRIBER_OFFLINE,
    }
    assert ex.deliveries == []


def test_storage_unbounded() -> None:
    """Ref 003 "maxbytes" / §9 Warnings: durables behind forwarding servers without maxbytes/maxmsgs."""
    ex = explain(chain("MB"), "A", "T1")
    unbounded = [w.message for w in ex.warnings if w.code is WarningCode.STORAGE_UNBOUNDED]
    assert len(unbounded) == 2
    assert unbounded[0].startswith("Server A ") and unbounded[1].startswith("Server M ")
    assert "audit on B, reports on B" in unbounded[0]
    # shown whether or not anything is down; a limit on the forwarding servers silences it
    assert WarningCode.STORAGE_UNBOUNDED in codes(explain(chain("MB"), "A", "T1", down=["B"]))
    assert WarningCode.STORAGE_UNBOUNDED not in codes(explain(orders(), "ORD", "orders", country="USA"))


def test_storage_unbounded_ignores_non_durable_and_local() -> None:
    """§9 Warnings: only a durable subscriber reached over at least one route counts."""
    topo = build(
        server("A"),
        server("B"),
        [topic(n, "T", "global") for n in "AB"],
        both("A", "B"),
        sub("B", "nd", "T"),
        sub("A", "local", "T", durable=True),
    )
    assert codes(explain(topo, "A", "T")) == []


# --- several paths, precedence, determinism ---------------------------------------------------------


def _diamond() -> Topology:
    """P reaches S directly and through A or B (redundant paths; explain must still rank them)."""
    return build(
        [server(n) for n in ("P", "A", "B", "S")],
        [topic(n, "T", "global", maxmsgs="10") for n in ("P", "A", "B", "S")],
        both("P", "S"),
        both("P", "B"),
        both("B", "S"),
        both("P", "A"),
        both("A", "S"),
        sub("S", "s", "T", durable=True),
    )


def test_alternatives_ordering() -> None:
    """§9 EMS interest: best path = delivered before stored, then fewest hops, then names."""
    best = the(explain(_diamond(), "P", "T"), "s")
    assert best.path == ["P", "S"]
    assert best.alternatives == [["P", "A", "S"], ["P", "B", "S"]]
    cut = the(explain(_diamond(), "P", "T", links_down=[("P", "S")]), "s")
    assert (cut.path, cut.status) == (["P", "A", "S"], Status.DELIVERED)
    assert cut.alternatives == [["P", "B", "S"], ["P", "S"]]


def test_reason_is_what_blocks_the_best_candidate_path() -> None:
    """§9 precedence: a path refused only by a route selector beats a shorter one where T is not global."""
    topo = build(
        [server(n) for n in ("P", "A", "B", "C", "S")],
        [topic(n, "T", "global", maxmsgs="10") for n in ("P", "A", "C", "S")],
        topic("B", "T"),
        both("P", "B") + both("B", "S"),
        both("P", "A") + both("A", "C") + both("C", "S"),
        outgoing("C", "S", "T", "x = 1"),
        sub("S", "s", "T"),
    )
    ex = explain(topo, "P", "T", x=2)
    assert reasons(ex) == {"s": Reason.ROUTE_SELECTOR}
    assert "route between C and S" in detail(ex, "s")
    assert delivered(explain(topo, "P", "T", x=1))["s"] == ["P", "A", "C", "S"]


def test_not_global_outranks_a_route_selector_on_the_same_path() -> None:
    """§9 precedence: NOT_GLOBAL before ROUTE_SELECTOR when both block the only path."""
    topo = chain("MB", t1_global_on="AB")
    topo.add(outgoing("A", "M", "T1", "x = 1"))
    assert set(reasons(explain(topo, "A", "T1", x=2)).values()) == {Reason.NOT_GLOBAL}


def test_route_selector_outranks_a_gap() -> None:
    """§9 precedence: ROUTE_SELECTOR comes before DOWN (gap) on the same path."""
    topo = chain("B")
    topo.add(outgoing("B", "M", "T1", "x = 1"))  # B's route to M, outgoing = B→M only
    topo.add(incoming("B", "M", "T1", "x = 1"))  # B's route to M, incoming = M→B
    assert set(reasons(explain(topo, "A", "T1", x=2, down=["B"])).values()) == {Reason.ROUTE_SELECTOR}


def test_selector_false() -> None:
    """§7 / §9 precedence: the subscriber's own selector is judged last; only TRUE selects."""
    topo = build(
        server("A"),
        server("B"),
        [topic(n, "T", "global", maxbytes="1MB") for n in "AB"],
        both("A", "B"),
        sub("B", "yes", "T", selector="qty > 5"),
        sub("B", "no", "T", selector="qty > 50"),
        sub("B", "unknown", "T", selector="missing = 1"),
        sub("A", "local-no", "T", selector="qty < 0"),
    )
    ex = explain(topo, "A", "T", qty=10)
    assert delivered(ex) == {"yes": ["A", "B"]}
    assert reasons(ex) == {
        "no": Reason.SELECTOR_FALSE,
        "unknown": Reason.SELECTOR_FALSE,
        "local-no": Reason.SELECTOR_FALSE,
    }
    assert '"qty > 50"' in detail(ex, "no")
    assert "unknown" in detail(ex, "unknown")


def test_wildcard_subscriptions_and_resolved_object() -> None:
    """§2 / §8: wildcard subscriptions match; resolved is the most specific definition on the publisher."""
    topo = orders()
    topo.add(
        sub("USA", "all", ">"), sub("USA", "audit-only", "orders.audit"), sub("USA", "stars", "orders.*")
    )
    ex = explain(topo, "ORD", "orders.audit", country="USA", amount=20000, currency="USD")
    assert {"all", "audit-only", "stars"} <= set(delivered(ex))
    assert the(ex, "all").hops[0].selector == "amount >= 10000"  # the incoming one is for orders only
    assert (ex.resolved.object, ex.resolved.topicstr) == ("orders.audit", "orders.audit")
    assert explain(topo, "ORD", "misc").resolved.object == ">"
    assert explain(chain(), "A", "nothing.here").resolved.object is None


def test_wildcard_publication_is_an_input_error() -> None:
    """§2: EMS publications are concrete."""
    with pytest.raises(InputError):
        explain(chain(), "A", "T1.>")
    with pytest.raises(InputError):
        explain(chain(), "A", "a.*.b")


def test_determinism_under_shuffled_input() -> None:
    """The answer depends on the model, not on the order objects were listed in."""
    base = json.dumps(explain(_diamond(), "P", "T", links_down=[("P", "S")]).to_json())
    rng = random.Random(7)
    for _ in range(5):
        topo = _diamond()
        for items in (topo.topics, topo.routes, topo.subscriptions):
            rng.shuffle(items)
        topo.nodes = dict(rng.sample(list(topo.nodes.items()), len(topo.nodes)))
        assert json.dumps(explain(topo, "P", "T", links_down=[("P", "S")]).to_json()) == base


def test_slice_gives_the_same_answer() -> None:
    """A slice (definitions/subscriptions that could match T, all routes, selectors, EMS nodes) is enough."""
    topo = regions(ny3=True)
    topo.add(sub("PA1", "other", "news.>"), topic("PA1", "news.>", "global"))
    t = "market.fx.usdjpy"
    sliced = Topology(
        nodes=topo.nodes,
        topics=[d for d in topo.topics if matches(d.topicstr, t, Dialect.EMS)],
        subscriptions=[s for s in topo.subscriptions if matches(s.topicstr, t, Dialect.EMS)],
        routes=topo.routes,
        route_selectors=topo.route_selectors,
    )
    assert explain(sliced, "TK2", t).to_json() == explain(topo, "TK2", t).to_json()


def test_mq_subscriptions_never_match_an_ems_publication() -> None:
    """§9 Messages: an EMS publication never reaches an MQ subscription, whatever its topic string."""
    topo = chain("MB")
    topo.add(
        Node("QM1", Dialect.MQ),
        TopicObject("QM1", "T1", "T1"),
        Subscription("QM1", "mq-sub", "T1"),
        Subscription("QM1", "mq-all", "#"),
    )
    ex = explain(topo, "A", "T1")
    names = {d.subscription for d in ex.deliveries} | {n.subscription for n in ex.not_delivered}
    assert names == {"reports", "audit"}


def test_ems_subscriptions_never_match_an_mq_publication() -> None:
    """§9 Messages: an MQ publication never reaches an EMS subscription (dispatch by the publisher)."""
    pytest.importorskip("mqctl.domain.routing.mq")
    from mqctl.domain.routing import explain as route_explain

    topo = chain("MB")
    topo.add(Node("QM1", Dialect.MQ), Subscription("QM1", "mq-sub", "T1"))
    ex = route_explain(topo, Publication(from_node="QM1", topic="T1"), Failures())
    names = {d.subscription for d in ex.deliveries} | {n.subscription for n in ex.not_delivered}
    assert not names & {"reports", "audit"}


def test_first_failing_hop_decides_for_every_subscriber_behind_it() -> None:
    """§9 Failures: M down on active-active A–M stores at A, also for a non-durable subscriber on B;
    an offline durable subscriber behind a gap is DOWN, not stored (the hop decides first)."""
    topo = chain("B")
    topo.add(sub("B", "live", "T1"))
    stored = explain(topo, "A", "T1", down=["M"])
    assert (the(stored, "live").status, the(stored, "live").stored_at) == (Status.STORED, "A")
    gap = explain(chain("B"), "A", "T1", down=["B"], offline=[("B", "reports")])
    assert reasons(gap)["reports"] is Reason.DOWN


def test_redundant_mhop_mesh_stays_deterministic_and_fast() -> None:
    """A (forbidden, §6 Uniqueness) redundant mhop mesh still gets a best path and ordered alternatives."""
    names = [f"M{i}" for i in range(6)]
    topo = build(
        [server(n) for n in names],
        [topic(n, "t", "global", maxmsgs="1") for n in names],
        [r for i, a in enumerate(names) for b in names[i + 1 :] for r in both(a, b)],
        sub("M5", "s", "t"),
    )
    first = the(explain(topo, "M0", "t"), "s")
    assert first.path == ["M0", "M5"]
    assert first.alternatives[:2] == [["M0", "M1", "M5"], ["M0", "M2", "M5"]]
    keys = [(len(a), a) for a in first.alternatives]
    assert keys == sorted(keys)
    assert the(explain(topo, "M0", "t"), "s").to_json() == first.to_json()


def test_a_route_durable_is_not_a_subscriber() -> None:
    """A durables.conf `route` entry holds a peer's interest; explain neither delivers to it nor lists it."""
    from mqctl.domain.explanation import Publication
    from mqctl.domain.model import Dialect, Node, Route, Subscription, TopicObject, Topology
    from mqctl.domain.routing import explain

    topo = Topology().add(
        Node("A", Dialect.EMS),
        Node("B", Dialect.EMS),
        TopicObject("A", "t", "t", properties={"global": None}),
        TopicObject("B", "t", "t", properties={"global": None}),
        Route("A", "B"),
        Subscription("B", "A", "t", durable=True, properties={"route": None}),
    )
    result = explain(topo, Publication("A", "t")).to_json()
    assert result["deliveries"] == [] and result["not_delivered"] == []


# --- exact search on meshes and grids (issue: the depth-first budget lost short paths) -----------------


def _grid(n: int) -> Topology:
    """An n x n grid of active-active multi-hop routes, T global everywhere, a subscriber in the far corner."""
    name = [[f"G{r}{c}" for c in range(n)] for r in range(n)]
    parts: list[object] = []
    for r in range(n):
        for c in range(n):
            parts += [server(name[r][c]), topic(name[r][c], "t.>", "global", maxmsgs="10")]
            if c + 1 < n:
                parts += both(name[r][c], name[r][c + 1])
            if r + 1 < n:
                parts += both(name[r][c], name[r + 1][c])
    parts.append(sub(name[-1][-1], "far", "t.>", durable=True))
    return build(parts)


def test_grid_of_multi_hop_routes_gives_the_shortest_path() -> None:
    """§9 EMS interest: the best path is exact however many paths the network has (7x7 grid: 12 hops)."""
    ex = explain(_grid(7), "G00", "t.x")
    far = the(ex, "far")
    assert len(far.path) - 1 == 12
    assert far.path == [
        "G00",
        "G01",
        "G02",
        "G03",
        "G04",
        "G05",
        "G06",
        "G16",
        "G26",
        "G36",
        "G46",
        "G56",
        "G66",
    ]
    assert len(far.alternatives) == 8 and all(len(a) - 1 == 12 for a in far.alternatives)
    assert far.alternatives[0] == ["G00", "G01", "G02", "G03", "G04", "G05", "G15", "G16", *far.path[8:]]
    # 924 shortest paths (and many longer ones): counting stops at the limit, and says so
    assert far.more_alternatives == 100
    limit = [w.message for w in ex.warnings if w.code is WarningCode.SEARCH_LIMIT]
    assert len(limit) == 1 and "G66" in limit[0] and "lower bound" in limit[0]


def test_alternatives_are_counted_when_they_are_few() -> None:
    """§9: ``alternatives`` holds at most the 8 next best; ``more_alternatives`` counts the others."""
    names = ["P", *(f"M{i}" for i in range(10)), "S"]
    topo = build(
        [server(n) for n in names],
        [topic(n, "t", "global", maxmsgs="1") for n in names],
        [r for i in range(10) for r in both("P", f"M{i}") + both(f"M{i}", "S")],
        sub("S", "s", "t"),
    )
    s = the(explain(topo, "P", "t"), "s")
    assert s.path == ["P", "M0", "S"]
    assert s.alternatives == [["P", f"M{i}", "S"] for i in range(1, 9)]
    assert s.more_alternatives == 1 and s.to_json()["more_alternatives"] == 1


def _paths_in_full_mesh(n: int) -> int:
    """Simple paths between two given servers of a full mesh of n: through k of the n - 2 others, in order."""
    return sum(math.perm(n - 2, k) for k in range(n - 1))


@pytest.mark.parametrize("n", [6, 7, 20])
def test_full_mesh_counts_its_paths_exactly(n: int) -> None:
    """§9: on a full mesh (a dense network above 8 links per server at n = 20) the alternatives are the
    next best paths by (hops, names) and ``more_alternatives`` is the number of the other simple paths,
    up to the limit (6 servers: 65 paths; 7 servers: 326)."""
    names = [f"M{i:02d}" for i in range(n)]
    topo = build(
        [server(m) for m in names],
        [topic(m, "t", "global", maxmsgs="1") for m in names],
        [route(a, b) for i, a in enumerate(names) for b in names[i + 1 :]],
        sub(names[-1], "s", "t"),
    )
    ex = explain(topo, names[0], "t")
    s = the(ex, "s")
    assert s.path == [names[0], names[-1]]
    shortest = [
        [names[0], *middle, names[-1]] for k in range(3) for middle in itertools.permutations(names[1:-1], k)
    ]  # every path of up to 3 hops, by (hops, names): more than the best and the 8 next best
    assert [s.path, *s.alternatives] == sorted(shortest, key=lambda p: (len(p), p))[: 1 + MAX_ALTERNATIVES]
    further = _paths_in_full_mesh(n) - 1 - MAX_ALTERNATIVES
    assert s.more_alternatives == min(further, MORE_LIMIT)
    assert (WarningCode.SEARCH_LIMIT in codes(ex)) == (further > MORE_LIMIT)
    # a server down in the middle of the list: its paths are stored ones, ranked after every delivered one
    down = the(explain(topo, names[0], "t", down=[names[1]]), "s")
    assert down.path == [names[0], names[-1]] and down.alternatives[0] == [names[0], names[2], names[-1]]


def test_network_keeps_the_most_recent_definition_per_server_and_link() -> None:
    """§6: a pair defined on both servers is active-active; a route given twice counts once, the most
    recent; routes to an MQ node or to the server itself are no links; a link's one-hop zones are those of
    its definitions. Links are made when first asked for, the same each time."""
    older = Route("A", "C", zone_name="Z2", seq=3)
    newer = Route("A", "C", zone_name="Z1", zone_type=ZoneType.ONE_HOP, seq=5)
    topo = build(
        [server(n) for n in "ABCD"],
        Node("Q", Dialect.MQ),
        [Route("A", "B", seq=1), Route("B", "A", seq=2), newer, older, Route("A", "A"), Route("A", "Q")],
        Route("D", "C", zone_name="Z1", zone_type=ZoneType.ONE_HOP, seq=7),
    )
    net = EmsNetwork(topo)
    assert net.servers == frozenset("ABCD") and net.has_one_hop
    assert net.adjacency == {"A": ("B", "C"), "B": ("A",), "C": ("A", "D"), "D": ("C",)}
    ab = net.link("B", "A")
    assert ab is net.link("A", "B") and ab.active_active and ab.one_hop == frozenset()
    ac = net.link("C", "A")
    assert ac.definitions == {"A": newer} and ac.definer() == "A" and ac.one_hop == {"Z1"}
    assert net.links_of("C") == (("A", ac), ("D", net.link("C", "D")))
    assert net.find_link("A", "D") is None and net.find_link("A", "Q") is None
    assert net.one_hop("C", "D") == {"Z1"} and net.one_hop_block(("A", "C"), ("C", "D")) == "Z1"
    assert [net.is_bridge(x, y) for x, y in (("A", "B"), ("C", "D"), ("A", "C"))] == [True, True, True]
    assert net.hop_name("B", "A") == "A" and net.route_phrase("A", "C").endswith("(active-passive)")


# --- temporary topics (semantics §9 "EMS temporary topics") --------------------------------------------


def test_temporary_topic_names_are_ems_topics() -> None:
    """``$TMP$`` names are ordinary EMS topic names and patterns (the corpus defines ``$TMP$.>``)."""
    from mqctl.domain.topics import validate_pattern, validate_topic

    validate_topic("$TMP$.B.1A2B.3", Dialect.EMS)
    validate_pattern("$TMP$.>", Dialect.EMS)
    assert matches("$TMP$.>", "$TMP$.B.1A2B.3", Dialect.EMS)


def test_temporary_topic_crosses_routes_toward_its_server_only() -> None:
    """Ref 002 ("servers connected by routes do exchange messages sent to temporary topics"): ``$TMP$``
    is not global anywhere in the corpus chain, yet a reply reaches B; only subscriptions on B receive."""
    topo = chain("MB")
    topo.add(sub("B", "reply", "$TMP$.B.>"), sub("M", "spy", "$TMP$.>"), sub("A", "local", "$TMP$.B.>"))
    ex = explain(topo, "A", "$TMP$.B.42")
    assert delivered(ex) == {"reply": ["A", "M", "B"]}
    assert reasons(ex) == {"spy": Reason.NO_PATH, "local": Reason.NO_PATH}
    assert "temporary topic of server B" in detail(ex, "spy")
    # zones, selectors and failures still apply on the way
    stored = explain(topo, "A", "$TMP$.B.42", down=["M"])
    assert (the(stored, "reply").status, the(stored, "reply").stored_at) == (Status.STORED, "A")
    # published on its own server: local subscribers only
    own = explain(topo, "B", "$TMP$.B.42")
    assert delivered(own) == {"reply": ["B"]} and reasons(own)["spy"] is Reason.NO_PATH


def test_temporary_topic_owner_with_a_dotted_server_name() -> None:
    """The longest known server name after ``$TMP$.`` owns the topic."""
    from mqctl.domain.routing.ems import temporary_owner

    servers = frozenset({"EMS", "EMS.LDN"})
    assert temporary_owner("$TMP$.EMS.LDN.7F", servers) == "EMS.LDN"
    assert temporary_owner("$TMP$.EMS.7F", servers) == "EMS"
    assert temporary_owner("$TMP$.OTHER.7F", servers) == "OTHER"
    assert temporary_owner("orders", servers) is None
