"""Topologies the picture tests draw: the demo (reference 000 Figure 5, as demo/demo.sh builds it), the
overlapping clusters of reference 001 joined by a hierarchy, and one whose every name needs escaping."""

from __future__ import annotations

from mqctl.domain.model import ClRoute, Dialect, Membership, Node, TopicObject, Topology
from tests.domain import ems_builders as ems
from tests.domain import mq_builders as mq


def demo() -> Topology:
    """demo/demo.sh: cluster USA, full repositories QM1 and QM2, topic hosts QM3+QM4 for /USA/Alabama and
    QM4 for /USA/Alaska, and its five subscriptions."""
    return mq.topo(
        [mq.qm(f"QM{i}") for i in range(1, 7)],
        [Membership(f"QM{i}", "USA", full_repository=i <= 2) for i in range(1, 7)],
        mq.hosted("USA", "ALABAMA", "/USA/Alabama", "QM3", "QM4"),
        mq.hosted("USA", "ALASKA", "/USA/Alaska", "QM4"),
        mq.sub("QM5", "MOBILE.ORDERS", "/USA/Alabama/#", selector="amount > 100"),
        mq.sub("QM6", "JUNEAU", "/USA/Alaska/Juneau"),
        mq.sub("QM6", "ALL.USA", "/USA/#"),
        mq.sub("QM5", "LOCAL.MOBILE", "/USA/Alabama/Mobile", durable=False),
        mq.sub("QM1", "EVERYTHING", "/USA/#"),
    )


def overlap() -> Topology:
    """Reference 001 Figure 1: CLUSTER1 = QM1, QM2, QM3; CLUSTER2 = QM3, QM4, QM5; TB and TC; QM6 a
    hierarchy child of QM5, with a subscriber."""
    return mq.topo(
        [mq.qm(f"QM{i}") for i in range(1, 6)],
        mq.qm("QM6", parent="QM5"),
        mq.cluster("CLUSTER1", "QM1", "QM2", "QM3"),
        mq.cluster("CLUSTER2", "QM4", "QM5", "QM3"),
        mq.topic("QM1", "TB", "/Sport/Football", "CLUSTER1"),
        mq.topic("QM4", "TC", "/Sport/Tennis", "CLUSTER2"),
        mq.sub("QM2", "FOOTBALL", "/Sport/Football"),
        mq.sub("QM6", "TENNIS", "/Sport/Tennis"),
    )


AWKWARD_SERVERS = ('E"1', "E#2/x", "E>3<", "E|4;%")
AWKWARD_TOPIC = 't.#."x"/y'
"""An EMS topic whose elements hold every character Mermaid and DOT give a meaning to (concrete EMS
topics hold no ``>``)."""


def awkward() -> Topology:
    """Names with ``"``, ``#``, ``/``, ``>``, ``<``, ``|``, ``;``, ``%`` and a backslash: MQ names allow
    ``/`` and ``%``, EMS server names anything but a dot or a blank, subscription names nearly anything."""
    t = mq.topo(
        mq.qm("QM/1"),
        Node("QM%2\\", Dialect.MQ),
        [Membership("QM/1", "CL/A", full_repository=True), Membership("QM%2\\", "CL/A")],
        TopicObject("QM/1", "T/1", '/a#b/"c">d', cluster="CL/A", clroute=ClRoute.TOPICHOST, seq=1),
        mq.sub("QM%2\\", 'S "1" <b>', '/a#b/"c">d/#'),
    )
    t.add(*(ems.server(name) for name in AWKWARD_SERVERS))
    t.add(*ems.both(AWKWARD_SERVERS[0], AWKWARD_SERVERS[1], zone='Z "1"'))
    t.add(ems.route(AWKWARD_SERVERS[1], AWKWARD_SERVERS[2], zone="Z#2", zone_type="1hop"))
    t.add(ems.outgoing(AWKWARD_SERVERS[1], AWKWARD_SERVERS[2], "t.>", "a = 'x\"y' AND b <> 2"))
    for name in AWKWARD_SERVERS:
        t.add(ems.topic(name, "t.>", "global"))
    t.add(ems.sub(AWKWARD_SERVERS[2], 'sub "q" #1 <b>|x;%\\', AWKWARD_TOPIC, durable=True))
    t.add(ems.sub(AWKWARD_SERVERS[3], "far/away", "t.>"))
    return t


def three_clusters() -> Topology:
    """Issue 25's estate: EU = FR1, FR2, GW; US = NY1, GW; ASIA = TK1, TK2, GW, TK3 also in EU (two
    gateways); a topic hosted in each cluster, one clustered in GHOST (a cluster with no member), and a
    cluster whose every member is a gateway (BRIDGE = GW, TK3)."""
    return mq.topo(
        [mq.qm(n) for n in ("FR1", "FR2", "GW", "NY1", "TK1", "TK2", "TK3")],
        mq.cluster("EU", "FR1", "FR2", "GW", "TK3"),
        mq.cluster("US", "NY1", "GW"),
        mq.cluster("ASIA", "TK1", "TK2", "GW", "TK3"),
        mq.cluster("BRIDGE", "GW", "TK3"),
        mq.topic("FR1", "PRICES", "/Prices", "EU"),
        mq.topic("NY1", "ORDERS", "/Orders", "US"),
        mq.topic("GW", "SPORT", "/Sport", "ASIA"),
        mq.topic("TK1", "LOST", "/Lost", "GHOST"),
    )
