"""The test estate of the Spark tests: an MQ cluster (topic hosts, direct topics, a hierarchy, selectors)
beside the EMS reference networks (route selectors, zones), and a seeded publication log over it."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from mqctl.domain.model import Topology
from tests.domain import ems_builders as ems
from tests.domain import mq_builders as mq

MQ_TOPICS = [
    "/sports/football",
    "/sports/tennis/open",
    "/news/world",
    "/news/local/x",
    "/local/only",
    "/other",
]
EMS_TOPICS = ["orders", "orders.audit", "market.fx.eur", "market.eq.ibm", "news.a", "$TMP$.TK1.reply"]


def estate() -> Topology:
    members = ("QM1", "QM2", "QM3", "QM4", "QM5")
    t = mq.topo(
        [mq.qm(n) for n in members],
        mq.qm("QMP"),
        mq.qm("QMC", parent="QMP"),
        mq.cluster("C1", *members),
        mq.hosted("C1", "SPORTS", "/sports", "QM3", "QM4"),
        mq.topic("QM1", "NEWS", "/news", "C1"),
        mq.sub("QM2", "ALL.SPORTS", "/sports/#"),
        mq.sub("QM5", "BIG.SPORTS", "/sports/#", selector="amount > 100"),
        mq.sub("QM5", "EU.NEWS", "/news/#", selector="currency = 'EUR' OR JMSPriority > 6"),
        mq.sub("QM4", "WORLD", "/news/world"),
        mq.sub("QM1", "LOCAL", "/local/only"),
        mq.sub("QMP", "PARENT.ALL", "/#"),
        mq.sub("QMC", "CHILD.NEWS", "/news/#", selector="amount BETWEEN 10 AND 20000"),
    )
    for part in (ems.orders(), ems.regions()):
        t.nodes.update(part.nodes)
        t.topics += part.topics
        t.subscriptions += part.subscriptions
        t.routes += part.routes
        t.route_selectors += part.route_selectors
    t.subscriptions.append(ems.sub("PA1", "fx-eur-big", "market.fx.eur", selector="amount > 1000"))
    return t


def publications(n: int, seed: int = 11) -> list[dict[str, Any]]:
    """Seeded rows: random publisher and topic of its dialect, selector-read and other properties."""
    rng = random.Random(seed)
    mq_nodes = ["QM1", "QM2", "QM3", "QM4", "QM5", "QMP", "QMC"]
    ems_nodes = ["ORD", "CANADA", "MEXICO", "USA", "TK1", "TK2", "TK3", "NY1", "NY2", "PA1"]
    rows: list[dict[str, Any]] = []
    for _ in range(n):
        props: dict[str, Any] = {"noise": rng.randrange(1000)}
        if rng.random() < 0.8:
            props["amount"] = rng.choice([0, 50, 150, 5000, 20000])
        if rng.random() < 0.5:
            props["currency"] = rng.choice(["USD", "EUR", "CAD"])
        if rng.random() < 0.5:
            props["country"] = rng.choice(["USA", "Canada", "Mexico"])
        if rng.random() < 0.2:
            props["JMSPriority"] = rng.choice([4, 9])
        if rng.random() < 0.5:
            row = {"from": rng.choice(mq_nodes), "topic": rng.choice(MQ_TOPICS)}
        else:
            row = {"from": rng.choice(ems_nodes), "topic": rng.choice(EMS_TOPICS)}
        row.update(properties=props, count=rng.randint(1, 3), bytes=rng.choice([100, 2048]))
        rows.append(row)
    return rows


def write_jsonl(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path
