"""Topic hosts chosen as MQ chooses them (semantics §9), from the CLWL attributes of each host's
cluster-receiver channel — given through `runmqsc` or `define channel` — and through the store's slice."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tests.cli.test_explain_cli import slice_matches_whole
from tests.conftest import Result
from tests.helpers import ok

Cli = Callable[..., Result]
QUESTION = ["--from", "QM1", "--topic", "/T/x"]


def hosts(answer: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {h["node"]: h for h in answer["topic_hosts"]}


def _cluster(cli: Cli, rank: dict[str, int], prty: dict[str, int], wght: dict[str, int]) -> None:
    """QM1 publishes; QM2 and QM3 host /T (TOPICHOST); QM4 subscribes. QM2's channel through MQSC,
    QM3's through `define channel`: both doors give the same attributes."""
    ok(cli("define", "qmgr", "QM1", "--cluster", "CL", "--full-repository", "CL"))
    ok(cli("define", "qmgr", "QM4", "--cluster", "CL"))
    ok(
        cli(
            "runmqsc",
            "QM2",
            "-",
            "--create",
            stdin=(
                f"DEFINE CHANNEL(CL.QM2) CHLTYPE(CLUSRCVR) CLUSTER(CL) CLWLRANK({rank['QM2']}) "
                f"CLWLPRTY({prty['QM2']}) CLWLWGHT({wght['QM2']})\n"
                "DEFINE TOPIC(T) TOPICSTR('/T') CLUSTER(CL) CLROUTE(TOPICHOST)\n"
            ),
        )
    )
    ok(cli("define", "qmgr", "QM3"))
    channel = ["define", "channel", "CL.QM3", "--qmgr", "QM3", "--chltype", "clusrcvr", "--cluster", "CL"]
    ok(
        cli(
            *channel,
            "--clwlrank",
            str(rank["QM3"]),
            "--clwlprty",
            str(prty["QM3"]),
            "--clwlwght",
            str(wght["QM3"]),
        )
    )
    ok(
        cli(
            "define",
            "topic",
            "T",
            "--qmgr",
            "QM3",
            "--topicstr",
            "/T",
            "--cluster",
            "CL",
            "--clroute",
            "topichost",
        )
    )
    ok(cli("define", "sub", "S", "--qmgr", "QM4", "--topicstr", "/T/#"))


def test_rank_before_availability(cli: Cli, store_url: str) -> None:
    _cluster(cli, rank={"QM2": 1, "QM3": 0}, prty={"QM2": 0, "QM3": 9}, wght={"QM2": 50, "QM3": 50})
    up, down = slice_matches_whole(cli, store_url, [QUESTION, [*QUESTION, "--down", "QM2"]])
    assert hosts(up)["QM2"]["chosen"] and hosts(up)["QM2"]["rank"] == 1 and not hosts(up)["QM3"]["chosen"]
    assert up["deliveries"][0]["path"] == ["QM1", "QM2", "QM4"]
    # the highest rank is down: stored at the publisher, never a lower rank (QM3)
    assert down["deliveries"][0]["status"] == "stored" and down["deliveries"][0]["stored_at"] == "QM1"
    assert not hosts(down)["QM2"]["available"]


def test_priority_then_weight(cli: Cli, store_url: str) -> None:
    _cluster(cli, rank={"QM2": 0, "QM3": 0}, prty={"QM2": 3, "QM3": 3}, wght={"QM2": 20, "QM3": 80})
    [answer] = slice_matches_whole(cli, store_url, [QUESTION])
    assert hosts(answer)["QM3"]["chosen"] and abs(hosts(answer)["QM3"]["share"] - 0.8) < 1e-9
    assert answer["deliveries"][0]["alternatives"] == [["QM1", "QM2", "QM4"]]
    assert any(w["code"] == "ORDER_NOT_PRESERVED" for w in answer["warnings"])
    ok(cli("alter", "channel", "CL.QM2", "--qmgr", "QM2", "--clwlprty", "4"))
    [answer] = slice_matches_whole(cli, store_url, [QUESTION])
    assert hosts(answer)["QM2"]["chosen"] and hosts(answer)["QM3"]["share"] == 0
