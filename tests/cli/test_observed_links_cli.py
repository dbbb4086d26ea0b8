"""Every channel status linked to the queue manager it concerns (issue 31, semantics §9 "Observed
state"), through the real CLI: a cluster-sender RETRYING with ``RQMNAME( )`` blank is a link down
(MQR004, ``explain --observed``) when its name or CONNAME links it; one nothing links is MQR013, and no
cause is stated from a link that could not be made."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.cli.test_observed_cli import DEMO, load, ok, reconcile, remove_block, render
from tests.conftest import Result

Cli = Callable[..., Result]


def blank_retrying(
    text: str, channel: str = "TO.QM4", conname: str = "qm4.example(1414)", to: str = "QM4"
) -> str:
    """QM6's status of its channel to ``to`` as a cluster-sender that never reached its partner shows it."""
    running = re.compile(
        rf"CHANNEL\(TO\.{to}\)(\s+CHLTYPE\(CLUSSDR\)\s+)CONNAME\({to.lower()}\.example\(1414\)\)"
        rf"(\s+CURRENT\s+)RQMNAME\({to}\)(\s+)STATUS\(RUNNING\)"
    )
    found = running.search(text)
    assert found is not None
    status = (
        f"CHANNEL({channel}){found.group(1)}CONNAME({conname}){found.group(2)}RQMNAME( )"
        f"{found.group(3)}STATUS(RETRYING)"
    )
    return text[: found.start()] + status + text[found.end() :]


def explain_observed(cli: Cli) -> dict:
    args = ["explain", "--from", "QM6", "--topic", "/USA/Alaska/Juneau"]
    return ok(cli(*args, "--observed", "-o", "json")).json()


@pytest.mark.parametrize("way", ["clusqmgr", "definition", "conname"])
def test_retrying_cluster_sender_with_blank_rqmname_is_a_link_down(
    cli: Cli, store_url: str, tmp_path: Path, way: str
) -> None:
    load(cli, DEMO)
    files = render(store_url, tmp_path / "caps")
    qm6 = files["QM6"].read_text()
    if way == "clusqmgr":  # QM6's DISPLAY CLUSQMGR names TO.QM4 as its channel to QM4
        qm6 = blank_retrying(qm6)
    elif way == "definition":  # the model's cluster-receiver USA.QM4 (define qmgr --cluster made it) is QM4's
        qm6 = blank_retrying(qm6, channel="USA.QM4", conname="10.1.1.4(1414)")
    else:  # a cluster-receiver of the model has that CONNAME
        ok(
            cli(
                "define",
                "channel",
                "USA.QM4",
                "--qmgr",
                "QM4",
                "--chltype",
                "CLUSRCVR",
                "--cluster",
                "USA",
                "--conname",
                "QM4.Example(1414)",
                "--replace",
            )
        )
        qm6 = blank_retrying(qm6, channel="SENDER.TO.HOST", conname="qm4.example (1414)")
    files["QM6"].write_text(qm6)
    ok(cli("import", "display", *map(str, files.values())))
    code, findings = reconcile(cli)
    assert code == 1
    down = [f for f in findings if f["code"] == "CHANNEL_NOT_RUNNING"]
    assert len(down) == 1 and {"QM4", "QM6"} <= set(down[0]["nodes"]), findings
    assert "on QM6 to QM4 is RETRYING" in down[0]["message"] and down[0]["subscriptions"] == ["JUNEAU"]
    assert not [f for f in findings if f["code"] == "CHANNEL_NOT_LINKED"]
    observed = explain_observed(cli)
    assert [n["link"] for n in observed["observed_links_down"]] == [["QM4", "QM6"]]
    assert "is RETRYING" in observed["observed_links_down"][0]["observation"]


def test_a_status_nothing_links_is_said_so_and_no_cause_is_made_up(
    cli: Cli, store_url: str, tmp_path: Path
) -> None:
    load(cli, DEMO)
    files = render(store_url, tmp_path / "caps")
    # QM6's channel to QM4 shows neither RQMNAME nor a name or CONNAME anything knows
    files["QM6"].write_text(blank_retrying(files["QM6"].read_text(), "TO.SOMEWHERE", "10.9.9.9(1414)"))
    # and a client channel's status, which joins no two queue managers
    qm6 = (
        files["QM6"]
        .read_text()
        .replace(
            "5 MQSC commands read.",
            "AMQ8417I: Display Channel Status details.\n   CHANNEL(APP.SVRCONN)                    CHLTYPE(SVRCONN)\n"
            "   CONNAME(10.2.2.2)                       CURRENT\n   RQMNAME( )                              STATUS(RUNNING)\n"
            "5 MQSC commands read.",
        )
    )
    files["QM6"].write_text(qm6)
    # QM4 (host of /USA/Alaska) lost the proxy of QM6's JUNEAU: its cause must not be invented
    qm4 = files["QM4"].read_text()
    proxy = re.search(r"SUB\(SYSTEM\.PROXY\.QM6 USA /USA/Alaska/Juneau\)", qm4)
    assert proxy is not None, qm4
    files["QM4"].write_text(remove_block(qm4, proxy.group(0)))
    ok(cli("import", "display", *map(str, files.values())))
    code, findings = reconcile(cli)
    assert code == 1
    unlinked = [f for f in findings if f["code"] == "CHANNEL_NOT_LINKED"]
    assert len(unlinked) == 1 and unlinked[0]["objects"] == ["channel TO.SOMEWHERE on QM6"]
    assert unlinked[0]["severity"] == "warning" and unlinked[0]["id"] == "MQR013"
    assert "CLUSSDR, RETRYING" in unlinked[0]["message"] and "RQMNAME is blank" in unlinked[0]["message"]
    assert "10.9.9.9(1414) matches no cluster-receiver's" in unlinked[0]["message"]
    assert [f["code"] for f in findings if f["code"] == "PROXY_MISSING"], findings
    assert not [f for f in findings if f["code"] == "CHANNEL_NOT_RUNNING"]
    for f in findings:
        assert "no channel from QM6 to QM4" not in f["message"] + " ".join(f["causes"]), f
    assert explain_observed(cli)["observed_links_down"] == []
    text = cli("reconcile").stdout
    assert "MQR013 CHANNEL_NOT_LINKED" in text and "APP.SVRCONN" not in text
