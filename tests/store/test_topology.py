"""The whole model in one query per table (``load_topology``) equals the model node by node."""

from __future__ import annotations

from collections.abc import Callable

from mqctl.domain.model import Topology
from mqctl.store.session import unit_of_work
from mqctl.store.topology import load_topology
from tests.conftest import FIXTURES, Result
from tests.store.same_model import assert_same_model

Cli = Callable[..., Result]


def _by_node(url: str) -> Topology:
    topology = Topology()
    with unit_of_work(url, write=False) as store:
        for name in store.node_names():
            state = store.load_node_state(store.require_node(name))
            topology.add(state.node, *state.memberships.values(), *state.topics.values())
            topology.add(*state.subscriptions.values(), *state.namelists.values(), *state.channels.values())
            topology.add(*state.routes.values(), *state.route_selectors)
    return topology


def test_load_topology_equals_the_node_states(cli: Cli, store_url: str) -> None:
    for conf in sorted((FIXTURES / "ems" / "hub").glob("*/tibemsd.conf")):
        assert cli("import", "ems", "--tibemsd", str(conf)).exit_code == 0
    script = (
        "DEFINE NAMELIST(NL) NAMES(C2,C3)\nDEFINE CHANNEL(TO.QM1) CHLTYPE(CLUSRCVR) CLUSNL(NL) CLWLWGHT(7)\n"
        "ALTER QMGR REPOS(C2) PARENT(TOP)\nDEFINE TOPIC(T) TOPICSTR('/a') CLUSTER(C2) CLROUTE(TOPICHOST)\n"
        "DEFINE SUB(S) TOPICSTR('/a/#') SELECTOR('x > 1')\n"
    )
    assert cli("runmqsc", "QM1", "-", "--create", stdin=script).exit_code == 0
    with unit_of_work(store_url, write=False) as store:
        whole = load_topology(store.conn)
    node_by_node = _by_node(store_url)
    assert_same_model(whole, node_by_node)
    assert (
        any(t.properties for t in whole.topics) and whole.route_selectors and whole.channels[0].clwlwght == 7
    )
