"""Snapshots (issue 10) on SQLite and PostgreSQL: store -> snapshot -> store gives the same model,
``read_topology`` gives the store's ``load_topology``, and every damaged or refused snapshot is one line,
exit 2, the store unchanged."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from mqctl.services.snapshot import read_topology
from mqctl.store.session import unit_of_work
from mqctl.store.topology import load_topology
from tests.conftest import SHARED, Result
from tests.store.test_one_model import ok

Cli = Callable[..., Result]

MQSC = """\
DEFINE NAMELIST(NL) NAMES(C2,C3) DESCR('two clusters')
DEFINE CHANNEL(TO.QM1) CHLTYPE(CLUSRCVR) CLUSNL(NL) CONNAME('qm1(1414)') CLWLRANK(3) CLWLPRTY(4) CLWLWGHT(7)
DEFINE CHANNEL(TO.FR) CHLTYPE(CLUSSDR) CLUSTER(C2) CONNAME('fr(1414)') DESCR('to the full repository')
ALTER QMGR REPOS(C2) PARENT(TOP) PSMODE(COMPAT) DESCR('it''s QM1')
DEFINE TOPIC(T) TOPICSTR('/a') CLUSTER(C2) CLROUTE(TOPICHOST) WILDCARD(BLOCK) PUBSCOPE(QMGR) SUBSCOPE(ALL) +
  PROXYSUB(FORCE) PUB(DISABLED) SUB(ENABLED) DESCR('orders')
DEFINE TOPIC(U) TOPICSTR('/u')
DEFINE SUB(S) TOPICSTR('/a/#') SELECTOR('x > 1 AND country = ''US''')
DEFINE SUB('S two') TOPICOBJ(T) TOPICSTR('b') SUBSCOPE(QMGR) DEST(Q1) DESTQMGR(QMX)
"""


def build_rich_model(cli: Cli) -> None:
    """MQ clusters with full repositories, CLWL attributes, namelists, hierarchy, topic objects with every
    attribute, subscriptions with selectors; EMS servers with topics, properties, routes with zones and
    properties, route selectors, durables."""
    for conf in sorted((SHARED / "corpus" / "ems" / "orders-central").glob("*/tibemsd.conf")):
        ok(cli("import", "ems", "--tibemsd", str(conf)))
    ok(cli("runmqsc", "QM1", "-", "--create", stdin=MQSC))
    ok(cli("define", "qmgr", "QM2", "--cluster", "C2", "--full-repository", "C3", "--descr", "second"))
    ok(cli("define", "cluster", "C9", "--descr", "empty cluster"))
    ok(cli("define", "sub", "NONDUR", "--qmgr", "QM2", "--topicstr", "/a/+", "--non-durable"))
    ok(cli("define", "qmgr", "E1", "--dialect", "ems"))
    ok(cli("define", "qmgr", "E2", "--dialect", "ems"))
    ok(cli("define", "topic", "orders.>", "--qmgr", "E1", "--prop", "global", "--prop", "maxbytes=64MB"))
    ok(
        cli(
            "define", "route", "E2", "--qmgr", "E1", "--url", "tcp://e2:7222",
            "--zone-name", "Z1", "--zone-type", "1hop", "--prop", "ssl_identity=/certs/x.pem",
        )
    )  # fmt: skip
    for topic in ("orders.>", "market.*", "a.b"):
        ok(
            cli(
                "define", "route-selector", "--qmgr", "E1", "--route", "E2", "--direction", "outgoing",
                "--topic", topic, "--selector", "country = 'US'",
            )
        )  # fmt: skip
    ok(
        cli(
            "define",
            "sub",
            "D1",
            "--qmgr",
            "E1",
            "--topicstr",
            "orders.eu",
            "--durable",
            "--selector",
            "n > 2",
        )
    )


def _load(url: str) -> Any:
    with unit_of_work(url, write=False) as store:
        return load_topology(store.conn)


@pytest.mark.parametrize("file_format", ["parquet", "json"])
def test_read_topology_equals_load_topology(
    cli: Cli, store_url: str, tmp_path: Path, file_format: str
) -> None:
    build_rich_model(cli)
    ok(cli("export", "snapshot", "--out", str(tmp_path / "snap"), "--format", file_format))
    whole = _load(store_url)
    read = read_topology(tmp_path / "snap")
    assert read.nodes == whole.nodes
    assert any(n.parent for n in read.nodes.values())
    for attr in (
        "memberships",
        "topics",
        "subscriptions",
        "namelists",
        "channels",
        "routes",
        "route_selectors",
    ):
        key = lambda o: repr(o)  # noqa: E731 - the two lists hold the same objects, maybe in another order
        assert sorted(getattr(read, attr), key=key) == sorted(getattr(whole, attr), key=key), attr
