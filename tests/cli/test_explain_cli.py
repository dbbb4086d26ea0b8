"""`mqctl explain` through the real entry point, on SQLite and PostgreSQL.

The JSON contract and exit codes of docs/cli.md ("explain"); the routing rules of semantics §3–§9. The
store answers from an indexed slice (``mqctl.store.slice``); here every answer is compared with the
engine run on the whole model read back from the store, so a slice that misses something shows.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Callable, Iterable
from operator import attrgetter
from typing import Any

import pytest

from mqctl.domain.explanation import Failures, Publication, Reason, WarningCode
from mqctl.domain.messages import Message, parse_header, parse_property
from mqctl.domain.model import NodeState, Topology, Wildcard
from mqctl.domain.routing import explain
from mqctl.store.session import unit_of_work
from mqctl.store.slice import load_slice
from mqctl.store.topology import load_topology
from tests.conftest import SHARED, Result, needs_shared
from tests.domain import ems_builders as ems
from tests.domain import mq_builders as mq
from tests.helpers import ok, refused

Cli = Callable[..., Result]

EMS_CORPUS = SHARED / "corpus" / "ems"
needs_ems = needs_shared("corpus", "ems")
REASONS = {str(r) for r in Reason}
WARNINGS = {str(w) for w in WarningCode}
VIAS = {"cluster", "topichost", "hierarchy", "route"}


def explain_json(cli: Cli, *args: str) -> dict[str, Any]:
    data = ok(cli("explain", *args, "-o", "json")).json()
    assert isinstance(data, dict)
    return data


# -- loading topologies into the store and reading the whole model back -----------------------------


def store_topology(url: str, topology: Topology) -> None:
    """Write a builder topology (tests/domain/*_builders.py) into the store, node by node."""
    with unit_of_work(url) as store:
        # parents are references to nodes: every node first, then their definitions (PARENT included)
        refs = {
            name: store.add_node(dataclasses.replace(node, parent=None))
            for name, node in topology.nodes.items()
        }
        for name, node in topology.nodes.items():
            state = NodeState(
                node=node,
                memberships={m.cluster: m for m in topology.memberships if m.node == name},
                topics={t.name: t for t in topology.topics if t.node == name},
                subscriptions={s.name: s for s in topology.subscriptions if s.node == name},
                routes={r.peer: r for r in topology.routes if r.node == name},
                route_selectors=[rs for rs in topology.route_selectors if rs.node == name],
            )
            store.save_node_state(refs[name], NodeState(node=refs[name].node), state)


def whole_topology(url: str) -> Topology:
    """The whole model as the store holds it (``load_topology``)."""
    with unit_of_work(url, write=False) as store:
        return load_topology(store.conn)


def engine_answer(whole: Topology, args: list[str]) -> dict[str, Any]:
    """What the engine says on the whole model for the explain options ``args`` (as the CLI parses them)."""
    values: dict[str, list[str]] = {}
    for option, value in zip(args[::2], args[1::2], strict=True):
        values.setdefault(option, []).append(value)
    properties = dict(parse_property(p) for p in values.get("--prop", []))
    headers = dict(
        Message.create(properties, dict(parse_header(h) for h in values.get("--header", []))).headers
    )
    failures = Failures(
        down=frozenset(values.get("--down", [])),
        links_down=frozenset(frozenset(v.split(":")) for v in values.get("--link-down", [])),
        offline=frozenset((n, sub) for n, _, sub in (v.partition(":") for v in values.get("--offline", []))),
    )
    publication = Publication(values["--from"][0], values["--topic"][0], properties, headers)
    result: dict[str, Any] = json.loads(json.dumps(explain(whole, publication, failures).to_json()))
    return result


def slice_matches_whole(cli: Cli, url: str, questions: Iterable[list[str]]) -> list[dict[str, Any]]:
    """Each question answered by the CLI (slice) equals the engine on the whole model; returns the answers."""
    whole = whole_topology(url)
    answers = []
    for args in questions:
        got = explain_json(cli, *args)
        assert got == engine_answer(whole, args), args
        check_contract(got)
        answers.append(got)
    assert any(a["deliveries"] for a in answers), "the scenario delivers something"
    return answers


def by_sub(answer: dict[str, Any]) -> dict[tuple[str, str], str]:
    """(node, subscription) -> "delivered" / "stored" / the reason it was not delivered."""
    out = {(d["node"], d["subscription"]): d["status"] for d in answer["deliveries"]}
    out.update({(n["node"], n["subscription"]): n["reason"] for n in answer["not_delivered"]})
    return out


# -- the JSON contract (docs/cli.md) -----------------------------------------------------------------


def check_contract(data: dict[str, Any]) -> None:
    """Every required key with its type, the path/hop consistency, and the sort orders."""
    assert set(data) == {"publication", "resolved", "deliveries", "not_delivered", "warnings", "topic_hosts"}
    pub = data["publication"]
    assert set(pub) == {"from", "topic", "properties", "property_types", "headers"}
    assert isinstance(pub["from"], str) and isinstance(pub["topic"], str)
    assert isinstance(pub["properties"], dict) and isinstance(pub["headers"], dict)
    res = data["resolved"]
    assert set(res) == {"node", "object", "topicstr", "cluster", "clroute"}
    assert res["node"] == pub["from"]
    assert all(
        res[k] is None or isinstance(res[k], str) for k in ("object", "topicstr", "cluster", "clroute")
    )
    for d in data["deliveries"]:
        assert set(d) == {"subscription", "node", "status", "stored_at", "path", "hops", "alternatives",
                          "more_alternatives"}  # fmt: skip
        assert isinstance(d["subscription"], str) and isinstance(d["node"], str)
        assert d["status"] in ("delivered", "stored")
        assert (d["stored_at"] is None) == (d["status"] == "delivered"), d
        assert d["path"][0] == pub["from"] and d["path"][-1] == d["node"]
        assert all(isinstance(n, str) for n in d["path"])
        assert [h["from"] for h in d["hops"]] == d["path"][:-1]
        assert [h["to"] for h in d["hops"]] == d["path"][1:]
        for hop in d["hops"]:
            assert {"from", "to", "via", "name"} <= set(hop) <= {"from", "to", "via", "name", "selector"}
            assert hop["via"] in VIAS and isinstance(hop["name"], str)
            assert isinstance(hop.get("selector", ""), str)
        assert isinstance(d["alternatives"], list)
        assert all(isinstance(a, list) and all(isinstance(n, str) for n in a) for a in d["alternatives"])
    for n in data["not_delivered"]:
        assert set(n) == {"subscription", "node", "reason", "detail", "conflict"}
        assert n["reason"] in REASONS and isinstance(n["detail"], str) and n["detail"]
    for w in data["warnings"]:
        assert set(w) == {"code", "message"} and w["code"] in WARNINGS and isinstance(w["message"], str)
    for key in ("deliveries", "not_delivered"):
        keys = [(x["node"], x["subscription"]) for x in data[key]]
        assert keys == sorted(keys), key
    codes = [(w["code"], w["message"]) for w in data["warnings"]]
    assert codes == sorted(codes)


def define_figure5(cli: Cli) -> None:
    """Reference 000 Figure 5 (as demo/demo.sh): topic hosts QM3+QM4 for /USA/Alabama, QM4 for /USA/Alaska."""
    ok(cli("define", "qmgr", "QM1", "--cluster", "USA", "--full-repository", "USA"))
    ok(cli("define", "qmgr", "QM2", "--cluster", "USA", "--full-repository", "USA"))
    for qm in ("QM3", "QM4", "QM5", "QM6"):
        ok(cli("define", "qmgr", qm, "--cluster", "USA"))
    host = ("--topicstr", "/USA/Alabama", "--cluster", "USA", "--clroute", "topichost")
    ok(cli("define", "topic", "ALABAMA", "--qmgr", "QM3", *host))
    ok(cli("define", "topic", "ALABAMA", "--qmgr", "QM4", *host))
    ok(cli("define", "topic", "ALASKA", "--qmgr", "QM4", "--topicstr", "/USA/Alaska", "--cluster", "USA",
           "--clroute", "topichost"))  # fmt: skip
    ok(cli("define", "sub", "MOBILE.ORDERS", "--qmgr", "QM5", "--topicstr", "/USA/Alabama/#",
           "--selector", "amount > 100"))  # fmt: skip
    ok(cli("define", "sub", "JUNEAU", "--qmgr", "QM6", "--topicstr", "/USA/Alaska/Juneau"))
    ok(cli("define", "sub", "ALL.USA", "--qmgr", "QM6", "--topicstr", "/USA/#"))
    ok(
        cli(
            "define",
            "sub",
            "LOCAL.MOBILE",
            "--qmgr",
            "QM5",
            "--topicstr",
            "/USA/Alabama/Mobile",
            "--non-durable",
        )
    )
    ok(cli("define", "sub", "EVERYTHING", "--qmgr", "QM1", "--topicstr", "/USA/#"))


def test_json_contract_mq(cli: Cli) -> None:
    """docs/cli.md explain JSON for an MQ publication through two topic hosts (reference 000)."""
    define_figure5(cli)
    data = explain_json(cli, "--from", "QM6", "--topic", "/USA/Alabama/Mobile", "--prop", "amount=250")
    check_contract(data)
    assert data["resolved"] == {
        "node": "QM6", "object": "ALABAMA", "topicstr": "/USA/Alabama", "cluster": "USA", "clroute": "TOPICHOST",
    }  # fmt: skip
    assert data["publication"]["headers"] == {"JMSDeliveryMode": "PERSISTENT", "JMSPriority": 4}
    mobile = next(d for d in data["deliveries"] if d["subscription"] == "MOBILE.ORDERS")
    assert mobile["path"] == ["QM6", "QM3", "QM5"] and mobile["alternatives"] == [["QM6", "QM4", "QM5"]]
    assert [h["via"] for h in mobile["hops"]] == ["topichost", "cluster"]
    local = next(d for d in data["deliveries"] if d["subscription"] == "ALL.USA")
    assert local["path"] == ["QM6"] and local["hops"] == []
    assert by_sub(data)[("QM1", "EVERYTHING")] == "WILDCARD_ABOVE_CLUSTER"
    assert "ORDER_NOT_PRESERVED" in [w["code"] for w in data["warnings"]]


@needs_ems
def test_json_contract_ems_with_route_selectors(cli: Cli) -> None:
    """docs/cli.md explain JSON for an EMS publication; route selectors on hops (reference 002 Fig. 38)."""
    import_example(cli, "orders-central")
    args = ["--from", "ORD", "--topic", "orders", "--prop", "country=USA", "--prop", "amount=20000"]
    data = explain_json(cli, *args, "--prop", "currency=USD")
    check_contract(data)
    assert data["resolved"]["object"] == "orders"
    assert by_sub(data) == {("USA", "BILLING-US"): "delivered"}  # the route durable is on orders.audit
    usa = next(d for d in data["deliveries"] if d["node"] == "USA")
    selector = (
        "(country='USA') AND (amount > 0 AND currency IN ('USD', 'CAD'))"  # ORD outgoing AND USA incoming
    )
    assert usa["hops"] == [{"from": "ORD", "to": "USA", "via": "route", "name": "USA", "selector": selector}]


def test_properties_echo_typed_values(cli: Cli) -> None:
    """`properties` echoes the typed values (docs/cli.md; inference as in `selector test`)."""
    ok(cli("define", "qmgr", "QM1"))
    props = ["n=3", "d=3.5", "flag=true", "s='3'", "l:long=3", "word=AL"]
    data = explain_json(cli, "--from", "QM1", "--topic", "/a", *[x for p in props for x in ("--prop", p)])
    echoed = data["publication"]["properties"]
    assert echoed == {"n": 3, "d": 3.5, "flag": True, "s": "3", "l": 3, "word": "AL"}
    assert type(echoed["n"]) is int and type(echoed["l"]) is int and type(echoed["d"]) is float
    assert type(echoed["flag"]) is bool and type(echoed["s"]) is str
    assert data["publication"]["property_types"] == {
        "n": "int",
        "d": "double",
        "flag": "boolean",
        "s": "string",
        "l": "long",
        "word": "string",
    }
    headers = explain_json(cli, "--from", "QM1", "--topic", "/a", "--header", "JMSPriority=7")
    assert headers["publication"]["headers"]["JMSPriority"] == 7


# -- exit codes -------------------------------------------------------------------------------------


def test_exit_codes(cli: Cli) -> None:
    """0 whenever computed (even nobody receives); 2 for bad input; MQ `#` is literal (warning)."""
    ok(cli("define", "qmgr", "QM1"))
    ok(cli("define", "qmgr", "EMS1", "--dialect", "ems"))
    nobody = ok(cli("explain", "--from", "QM1", "--topic", "/nobody/listens"))
    assert "No subscription receives this publication." in nobody.stdout
    literal = explain_json(cli, "--from", "QM1", "--topic", "/USA/#")
    assert [w["code"] for w in literal["warnings"]] == ["LITERAL_WILDCARD"]
    refused(cli("explain", "--from", "NOPE", "--topic", "/a"), "NOPE", quiet=True)
    refused(cli("explain", "--from", "QM1", "--topic", "/a", "--down", "NOPE"), "NOPE", quiet=True)
    refused(cli("explain", "--from", "EMS1", "--topic", "orders.*"), "wildcard", quiet=True)
    refused(cli("explain", "--from", "EMS1", "--topic", "orders.>"), "wildcard", quiet=True)
    refused(cli("explain", "--from", "EMS1", "--topic", "orders..x"), quiet=True)
    refused(cli("explain", "--from", "QM1", "--topic", "/a", "--prop", "=3"), "--prop", quiet=True)
    refused(cli("explain", "--from", "QM1", "--topic", "/a", "--prop", "n:int=abc"), "--prop", quiet=True)
    refused(cli("explain", "--from", "QM1", "--topic", "/a", "--prop", "n:widget=1"), "--prop", quiet=True)
    refused(cli("explain", "--from", "QM1", "--topic", "/a", "--header", "JMSNope=1"), "--header", quiet=True)
    refused(cli("explain", "--from", "QM1", "--topic", "/a", "--link-down", "QM1"), "--link-down", quiet=True)
    refused(
        cli("explain", "--from", "QM1", "--topic", "/a", "--link-down", "QM1:"), "--link-down", quiet=True
    )
    refused(cli("explain", "--from", "QM1", "--topic", "/a", "--offline", "QM1"), "--offline", quiet=True)
    refused(
        cli("explain", "--from", "QM1", "--topic", "/a", "--link-down", "QM1:NOPE"),
        "NOPE",
        "--link-down",
        quiet=True,
    )
    refused(
        cli("explain", "--from", "QM1", "--topic", "/a", "--offline", "NOPE:S1"),
        "NOPE",
        "--offline",
        quiet=True,
    )
    refused(
        cli("explain", "--from", "QM1", "--topic", "/a", "--offline", "QM1:NOSUB"),
        "NOSUB",
        "--offline",
        quiet=True,
    )
    assert cli("explain", "--from", "QM1").exit_code == 2  # usage: --topic missing


# -- the slice gives the same answer as the whole model ---------------------------------------------


def figure5_questions() -> list[list[str]]:
    pub = ["--from", "QM6", "--topic", "/USA/Alabama/Mobile", "--prop", "amount=250"]
    return [
        pub,
        pub[:4] + ["--prop", "amount=5"],
        pub + ["--down", "QM3"],
        pub + ["--down", "QM3", "--down", "QM4"],
        pub + ["--link-down", "QM6:QM3"],
        pub + ["--down", "QM5"],
        pub + ["--offline", "QM5:LOCAL.MOBILE", "--offline", "QM5:MOBILE.ORDERS"],
        ["--from", "QM3", "--topic", "/USA/Alabama", "--prop", "amount=101"],
        ["--from", "QM5", "--topic", "/USA/Alaska/Juneau"],
        ["--from", "QM1", "--topic", "/USA/Texas"],
        ["--from", "QM2", "--topic", "/USA/Alaska/Juneau", "--down", "QM4"],
    ]


def test_slice_figure5_topic_hosts(cli: Cli, store_url: str) -> None:
    """Reference 000 Figure 5: two hosts for /USA/Alabama, failures of hosts, links and subscribers."""
    define_figure5(cli)
    answers = slice_matches_whole(cli, store_url, figure5_questions())
    assert by_sub(answers[3])[("QM5", "MOBILE.ORDERS")] == "stored"  # all hosts down: stored at QM6
    assert by_sub(answers[6])[("QM5", "LOCAL.MOBILE")] == "SUBSCRIBER_OFFLINE"


def test_slice_overlapping_clusters_sport(cli: Cli, store_url: str) -> None:
    """Reference 001: /Sport/# on the overlap queue manager; /Sport clustered in CL1, Tennis in CL2."""
    store_topology(
        store_url,
        mq.topo(
            *(mq.qm(n) for n in ("QM1", "QM2", "QM3", "QM4", "QM5")),
            mq.cluster("CL1", "QM1", "QM2", "QM3"),
            mq.cluster("CL2", "QM3", "QM4", "QM5"),
            mq.topic("QM1", "SPORT", "/Sport", "CL1"),
            mq.topic("QM1", "FOOTBALL", "/Sport/Football", "CL1"),
            mq.topic("QM4", "TENNIS", "/Sport/Tennis", "CL2"),
            mq.sub("QM3", "W", "/Sport/#"),
            mq.sub("QM2", "F2", "/Sport/Football"),
            mq.sub("QM5", "F5", "/Sport/Football"),
            mq.sub("QM5", "T5", "/Sport/Tennis/#"),
            mq.sub("QM2", "T2", "/Sport/Tennis"),
        ),
    )
    questions = [
        ["--from", q, "--topic", t]
        for q in ("QM1", "QM3", "QM5")
        for t in ("/Sport/Football", "/Sport/Tennis", "/Sport/Golf")
    ]
    answers = slice_matches_whole(cli, store_url, questions)
    assert by_sub(answers[0])[("QM3", "W")] == "delivered"  # /Sport clustered in CL1: W proxies into CL1


def test_slice_hierarchy_joins_two_clusters(cli: Cli, store_url: str) -> None:
    """semantics §4.3: a hierarchy link B1->A2 joins DIRECT clusters CLA and CLB."""
    store_topology(
        store_url,
        mq.topo(
            mq.qm("A1"),
            mq.qm("A2"),
            mq.qm("B1", parent="A2"),
            mq.qm("B2"),
            mq.cluster("CLA", "A1", "A2"),
            mq.cluster("CLB", "B1", "B2"),
            mq.topic("A1", "NEWSA", "/News", "CLA"),
            mq.topic("B2", "NEWSB", "/News", "CLB"),
            mq.sub("B2", "S", "/News/x"),
            mq.sub("A1", "SA", "/News/#"),
            mq.sub("B1", "SB", "/News/x", durable=False),
        ),
    )
    pub = ["--from", "A1", "--topic", "/News/x"]
    answers = slice_matches_whole(
        cli,
        store_url,
        [pub, pub + ["--down", "A2"], pub + ["--link-down", "A2:B1"], pub + ["--down", "B1"],
         ["--from", "B2", "--topic", "/News/x"], ["--from", "B1", "--topic", "/News/y"]],
    )  # fmt: skip
    assert [h["via"] for h in next(d for d in answers[0]["deliveries"] if d["node"] == "B2")["hops"]] == [
        "cluster",
        "hierarchy",
        "cluster",
    ]


def test_slice_wildcard_block(cli: Cli, store_url: str) -> None:
    """semantics §5.5: WILDCARD(BLOCK) on /Sport/Football stops /Sport/# but not /Sport/Football/#."""
    store_topology(
        store_url,
        mq.topo(
            mq.qm("QM1"),
            mq.qm("QM2"),
            mq.cluster("CL1", "QM1", "QM2"),
            mq.topic("QM1", "FOOTBALL", "/Sport/Football", "CL1", wildcard=Wildcard.BLOCK),
            mq.sub("QM2", "W", "/Sport/#"),
            mq.sub("QM2", "E", "/Sport/Football"),
            mq.sub("QM2", "F", "/Sport/Football/#"),
            mq.sub("QM1", "LW", "/Sport/#"),
        ),
    )
    answers = slice_matches_whole(
        cli, store_url, [["--from", q, "--topic", t] for q in ("QM1", "QM2") for t in ("/Sport/Football", "/Sport/Football/x")]
    )  # fmt: skip
    assert by_sub(answers[0])[("QM2", "W")] == "WILDCARD_BLOCKED"
    assert by_sub(answers[0])[("QM2", "F")] == "delivered"


def test_slice_local_object_hides_clustered_object_of_the_same_name(cli: Cli, store_url: str) -> None:
    """semantics §9 Definitions: a local NEWS('/Other') on QM2 hides the clustered NEWS('/News') there.

    The case the slice once got wrong: the hiding object's TOPICSTR is no prefix of the topic.
    """
    channel = "DEFINE CHANNEL(TO.{q}) CHLTYPE(CLUSRCVR) CLUSTER(CL1)\n"
    ok(cli("runmqsc", "QM1", "--create", stdin=channel.format(q="QM1")
           + "ALTER QMGR REPOS(CL1)\nDEFINE TOPIC(NEWS) TOPICSTR('/News') CLUSTER(CL1)\n"))  # fmt: skip
    ok(cli("runmqsc", "QM2", "--create", stdin=channel.format(q="QM2")
           + "DEFINE TOPIC(NEWS) TOPICSTR('/Other')\nDEFINE SUB(R) TOPICSTR('/News/x')\n"
           + "DEFINE SUB(O) TOPICSTR('/Other/x')\n"))  # fmt: skip
    ok(cli("runmqsc", "QM3", "--create", stdin=channel.format(q="QM3")
           + "DEFINE SUB(R3) TOPICSTR('/News/x')\nDEFINE SUB(O3) TOPICSTR('/Other/x')\n"))  # fmt: skip
    questions = [["--from", q, "--topic", t] for q in ("QM1", "QM2", "QM3") for t in ("/News/x", "/Other/x")]
    answers = slice_matches_whole(cli, store_url, questions)
    from_qm1 = by_sub(answers[0])
    assert from_qm1[("QM3", "R3")] == "delivered"
    assert from_qm1[("QM2", "R")] not in ("delivered", "stored")  # hidden on QM2: no proxy into CL1
    assert by_sub(answers[2])[("QM2", "R")] == "delivered"  # local on QM2
    assert by_sub(answers[2])[("QM3", "R3")] not in ("delivered", "stored")


def import_example(cli: Cli, example: str) -> None:
    for conf in sorted((EMS_CORPUS / example).glob("*/tibemsd.conf")):
        ok(cli("import", "ems", "--tibemsd", str(conf)))


@needs_ems
def test_slice_ems_chain(cli: Cli, store_url: str) -> None:
    """Reference 003 Figure 37 (corpus chain): A–M active-active, M–B active-passive on B; failures."""
    import_example(cli, "chain")
    pub = ["--from", "A", "--topic", "T1"]
    answers = slice_matches_whole(
        cli,
        store_url,
        [pub, pub + ["--down", "M"], pub + ["--link-down", "M:B"], pub + ["--down", "B"],
         pub + ["--offline", "B:reports"], ["--from", "A", "--topic", "T2"], ["--from", "B", "--topic", "T1"],
         ["--from", "M", "--topic", "$TMP$.x"]],
    )  # fmt: skip
    assert by_sub(answers[0]) == {("B", "audit"): "delivered", ("B", "reports"): "delivered"}
    assert "STORAGE_UNBOUNDED" in [w["code"] for w in answers[0]["warnings"]]


@needs_ems
def test_slice_ems_orders_central_selectors(cli: Cli, store_url: str) -> None:
    """Reference 002 Figure 38 (corpus orders-central): outgoing and incoming route selectors."""
    import_example(cli, "orders-central")
    pub = ["--from", "ORD", "--topic", "orders", "--prop", "amount=20000"]
    answers = slice_matches_whole(
        cli,
        store_url,
        [pub + ["--prop", "country=USA", "--prop", "currency=USD"],
         pub + ["--prop", "country=USA", "--prop", "currency=EUR"],
         pub + ["--prop", "country=Canada"],
         ["--from", "ORD", "--topic", "orders.audit", "--prop", "amount=20000"],
         ["--from", "USA", "--topic", "orders", "--prop", "country=Mexico", "--prop", "amount=1"],
         pub + ["--prop", "country=USA", "--prop", "currency=USD", "--link-down", "ORD:USA"]],
    )  # fmt: skip
    assert by_sub(answers[0])[("USA", "BILLING-US")] == "delivered"
    assert by_sub(answers[1])[("USA", "BILLING-US")] == "ROUTE_SELECTOR"


@needs_ems
def test_slice_ems_regions_one_hop_zones(cli: Cli, store_url: str) -> None:
    """EMS docs' Tokyo/New York/Paris example (corpus regions): 1hop zones joined by the mhop zone WO."""
    import_example(cli, "regions")
    for name in ("TK1", "TK2", "TK3", "NY1", "NY2", "PA1"):
        ok(cli("define", "sub", f"ticker-{name}", "--qmgr", name, "--topicstr", "market.fx.*"))
    questions = [["--from", s, "--topic", "market.fx.eur"] for s in ("TK2", "NY2", "PA1")]
    questions += [["--from", "TK2", "--topic", "market.fx.eur", "--down", "NY1"]]
    questions += [["--from", "TK2", "--topic", "market.fx.eur", "--link-down", "TK1:TK3"]]
    questions += [["--from", "NY2", "--topic", "market.fx.eur", "--offline", "PA1:ticker-PA1"]]
    answers = slice_matches_whole(cli, store_url, questions)
    assert by_sub(answers[0])[("TK3", "ticker-TK3")] == "delivered"  # TK2–TK3 is a route of its own
    assert by_sub(answers[0])[("PA1", "ticker-PA1")] == "delivered"  # TOKYO -> WO: the hop count restarts
    assert by_sub(answers[4])[("TK3", "ticker-TK3")] == "delivered"
    assert by_sub(answers[5])[("PA1", "ticker-PA1")] == "SUBSCRIBER_OFFLINE"


def test_slice_ems_regions_without_tk2_tk3(cli: Cli, store_url: str) -> None:
    """semantics §6 zones (builder ``regions``): without TK2–TK3, TK1 may not relay TOKYO to TOKYO."""
    store_topology(store_url, ems.regions(tk2_tk3=False, ny3=True))
    questions = [["--from", s, "--topic", "market.fx.eur"] for s in ("TK2", "NY3", "PA1")]
    questions += [["--from", "TK2", "--topic", "market.fx.eur", "--down", "TK1"]]
    answers = slice_matches_whole(cli, store_url, questions)
    assert by_sub(answers[0])[("TK3", "ticker-TK3")] == "ONE_HOP_ZONE"
    assert by_sub(answers[1])[("NY1", "ticker-NY1")] == "ONE_HOP_ZONE"  # NY3 -> NY2 -> NY1: one zone
    assert by_sub(answers[2])[("TK3", "ticker-TK3")] == "delivered"


def test_slice_ems_routes_hold_what_routing_reads(store_url: str) -> None:
    """The slice reads every EMS route's two ends, zone and sequence, and no more (URL, other properties
    and source position stay empty); route selectors come whole, with the route they belong to."""
    topo = ems.regions(ny3=True)
    topo.routes = [dataclasses.replace(r, url=f"tcp://{r.peer.lower()}:7222") for r in topo.routes]
    topo.routes[0].properties["ssl_identity"] = "cert.p12"
    topo.add(
        ems.outgoing("TK1", "TK2", "market.>", "x = 1"), ems.incoming("TK2", "TK1", "market.fx.>", "y = 2")
    )
    store_topology(store_url, topo)
    whole = whole_topology(store_url)
    with unit_of_work(store_url, write=False) as store:
        part = load_slice(store.conn, "TK2", "market.fx.eur", Failures())

    def ends(t: Topology) -> list[tuple[object, ...]]:
        return sorted((r.node, r.peer, r.zone_name, r.zone_type, r.seq) for r in t.routes)

    assert ends(part) == ends(whole) and len(part.routes) == len(topo.routes)
    assert {(r.url, r.source_file, r.source_line) for r in part.routes} == {("", None, None)}
    assert all(r.properties == {} for r in part.routes)
    key = attrgetter("node", "peer", "direction", "topic")
    assert sorted(part.route_selectors, key=key) == sorted(whole.route_selectors, key=key)
    assert len(part.route_selectors) == 2


def test_slice_ems_dense_mesh(cli: Cli, store_url: str) -> None:
    """A full mesh of 18 servers (153 routes, some active-active, a one-hop zone, route selectors): the
    slice answers as the whole model does, failures included."""
    names = [f"M{i:02d}" for i in range(18)]
    parts: list[object] = [ems.server(n) for n in names]
    parts += [ems.topic(n, "t.>", "global", maxmsgs="5") for n in names]
    for i, a in enumerate(names):
        for j, b in enumerate(names[i + 1 :], i + 1):
            zone = ("Z", "1hop") if i < 4 and j < 4 else ("default_mhop_zone", "mhop")
            parts += ems.both(a, b, *zone) if (i + j) % 5 == 0 else [ems.route(a, b, *zone)]
    parts += [ems.sub(n, f"s{n}", "t.>", durable=True) for n in (names[1], names[9], names[17])]
    parts += [ems.outgoing("M00", "M17", "t.>", "p = 1"), ems.incoming("M09", "M00", "t.x", "p = 2")]
    store_topology(store_url, ems.build(parts))
    pub = ["--from", "M00", "--topic", "t.x"]
    answers = slice_matches_whole(
        cli,
        store_url,
        [pub, pub + ["--prop", "p=1"], pub + ["--down", "M09"], pub + ["--link-down", "M00:M17"],
         ["--from", "M02", "--topic", "t.x", "--down", "M03"], ["--from", "M17", "--topic", "t.y"]],
    )  # fmt: skip
    assert by_sub(answers[1])[("M17", "sM17")] == "delivered"
    assert answers[0]["deliveries"][0]["more_alternatives"] == 100


# -- the human rendering ----------------------------------------------------------------------------


def test_human_tree_mq(cli: Cli) -> None:
    """The tree names the publisher, hop kinds, subscriptions, reasons and warnings; no colour codes."""
    define_figure5(cli)
    result = ok(cli("explain", "--from", "QM6", "--topic", "/USA/Alabama/Mobile", "--prop", "amount=250"))
    text = result.stdout
    assert "/USA/Alabama/Mobile published on QM6 (amount=250)" in text
    assert "resolves to ALABAMA (/USA/Alabama), cluster USA, CLROUTE TOPICHOST" in text
    assert "via topichost USA" in text and "via cluster USA" in text
    assert "delivered to sub MOBILE.ORDERS on QM5" in text and "delivered to sub ALL.USA on QM6" in text
    assert "alternative path: QM6 -> QM4 -> QM5" in text
    assert "Not delivered" in text and "EVERYTHING on QM1: WILDCARD_ABOVE_CLUSTER" in text
    assert "Warnings" in text and "ORDER_NOT_PRESERVED" in text
    assert "\x1b" not in text + result.stderr and "Traceback" not in text + result.stderr
    stored = ok(cli("explain", "--from", "QM6", "--topic", "/USA/Alabama/Mobile", "--prop", "amount=250",
                    "--down", "QM3", "--down", "QM4")).stdout  # fmt: skip
    assert "stored at QM6 for MOBILE.ORDERS on QM5" in stored


@needs_ems
def test_human_tree_ems(cli: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    """Route hops show the route selector applied; NO_COLOR leaves no escape codes."""
    monkeypatch.setenv("NO_COLOR", "1")
    import_example(cli, "orders-central")
    result = ok(cli("explain", "--from", "ORD", "--topic", "orders", "--prop", "country=USA", "--prop",
                    "amount=20000", "--prop", "currency=USD"))  # fmt: skip
    text = result.stdout
    assert "orders published on ORD" in text and "-> USA  via route USA" in text
    assert "route selector: " in text and "country='USA'" in text
    assert "delivered to sub BILLING-US on USA" in text
    missed = ok(cli("explain", "--from", "ORD", "--topic", "orders", "--prop", "country=USA", "--prop",
                    "amount=20000", "--prop", "currency=EUR")).stdout  # fmt: skip
    assert "Not delivered" in missed and "BILLING-US on USA: ROUTE_SELECTOR" in missed
    assert "\x1b" not in missed
    assert "\x1b" not in text + result.stderr and "Traceback" not in text + result.stderr


COLOUR = re.compile(r"\x1b\[[0-9;]*(?:3[0-8]|9[0-7])[;m]")


def test_no_colour_with_no_color_even_on_a_forced_terminal(cli: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/cli.md: colour is off when NO_COLOR is set (checked where Rich would otherwise colour)."""
    ok(cli("define", "qmgr", "QM1"))
    ok(cli("define", "sub", "S", "--qmgr", "QM1", "--topicstr", "/a", "--selector", "x = 1"))
    monkeypatch.setenv("FORCE_COLOR", "1")
    monkeypatch.delenv("NO_COLOR")
    coloured = ok(cli("explain", "--from", "QM1", "--topic", "/a")).stdout
    assert COLOUR.search(coloured), "without NO_COLOR a forced terminal is coloured"
    monkeypatch.setenv("NO_COLOR", "1")
    plain = ok(cli("explain", "--from", "QM1", "--topic", "/a")).stdout
    assert not COLOUR.search(plain) and "SELECTOR_FALSE" in plain
