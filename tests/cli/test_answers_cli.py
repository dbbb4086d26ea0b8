"""Issue 37, "Answers", through the real CLI: what explain, diff and validate say where an administrator
needs the whole truth.

- A subscriber reached through a hierarchy joined to a topic-host routed cluster (IBM does not support it,
  validate MQC018): explain and diff carry the rule and a sentence on the delivery itself.
- Two same-named topic objects, one defined on the queue manager itself for a cluster it is not in: the
  local one wins (semantics §3); explain says nothing is nondeterministic and validate agrees (no MQC001).
- MQC012 does not fire for a subscription with SUBSCOPE(QMGR).
- A publication from LEGACY missed on FR1: the NO_PATH sentence says where LEGACY's hierarchy link leads
  (GW) and why it goes no further (the topic at GW is clustered in US, not EU).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.conftest import Result, run_cli
from tests.helpers import ok

Cli = Callable[..., Result]
EU = {
    "FR1": (
        "ALTER QMGR REPOS(EU)\n"
        "DEFINE CHANNEL(EU.FR1) CHLTYPE(CLUSRCVR) CONNAME('fr1(1414)') CLUSTER(EU)\n"
        "DEFINE SUB(PARIS) TOPICSTR('/Prices/EU/Paris') DEST(Q)\n"
    ),
    "FR2": (
        "ALTER QMGR REPOS(EU)\n"
        "DEFINE CHANNEL(EU.FR2) CHLTYPE(CLUSRCVR) CONNAME('fr2(1414)') CLUSTER(EU)\n"
        "DEFINE TOPIC(PRICES.EU) TOPICSTR('/Prices/EU') CLUSTER(EU) CLROUTE(TOPICHOST)\n"
    ),
    "GW": "DEFINE CHANNEL(EU.GW) CHLTYPE(CLUSRCVR) CONNAME('gw(1414)') CLUSTER(EU)\n",
    "LEGACY": "ALTER QMGR PARENT(GW)\nDEFINE SUB(OLDFEED) TOPICSTR('/Prices/EU/#') DEST(Q)\n",
}
"""EU routes '/Prices/EU' by topic host (FR2); LEGACY hangs below GW, a member of EU (MQC018)."""
US = {
    "FR1": EU["FR1"],
    "FR2": EU["FR2"],
    "GW": "DEFINE CHANNEL(US.GW) CHLTYPE(CLUSRCVR) CONNAME('gw(1414)') CLUSTER(US)\n",
    "US2": (
        "ALTER QMGR REPOS(US)\n"
        "DEFINE CHANNEL(US.US2) CHLTYPE(CLUSRCVR) CONNAME('us2(1414)') CLUSTER(US)\n"
        "DEFINE TOPIC(PRICES) TOPICSTR('/Prices') CLUSTER(US) CLROUTE(DIRECT)\n"
        "DEFINE SUB(ALL) TOPICSTR('/Prices/#') DEST(Q)\n"
    ),
    "LEGACY": "ALTER QMGR PARENT(GW)\n",
}
"""GW is in US only, where '/Prices' is clustered; LEGACY hangs below GW."""


def write(folder: Path, scripts: dict[str, str]) -> Path:
    folder.mkdir(parents=True)
    for name, text in scripts.items():
        (folder / f"{name}.mqsc").write_text(text)
    return folder


def load(cli: Cli, folder: Path) -> None:
    ok(cli("import", "mqsc", *sorted(str(p) for p in folder.iterdir())))


def by_sub(answer: Any, key: str = "deliveries") -> dict[str, Any]:
    return {d["subscription"]: d for d in answer[key]}


def finding_ids(cli: Cli) -> list[str]:
    found = ok(cli("validate", "-o", "json"), (0, 1)).json()
    return [f["id"] for f in found["findings"]]  # type: ignore[index]


def test_explain_says_on_the_delivery_that_ibm_does_not_support_its_path(cli: Cli, tmp_path: Path) -> None:
    load(cli, write(tmp_path / "eu", EU))
    question = ["explain", "--from", "FR1", "--topic", "/Prices/EU/Paris"]
    deliveries = by_sub(ok(cli(*question, "-o", "json")).json())
    assert deliveries["OLDFEED"]["path"] == ["FR1", "FR2", "GW", "LEGACY"]
    unsupported = deliveries["OLDFEED"]["unsupported"]
    assert (unsupported["rule"], unsupported["code"], unsupported["link"]) == (
        "MQC018",
        "HIERARCHY_WITH_TOPICHOST",
        "LEGACY->GW",
    )
    assert unsupported["message"].startswith("IBM does not support this path: the hierarchy link LEGACY->GW")
    assert "unsupported" not in deliveries["PARIS"]  # its own, local: nothing to say
    assert "MQC018" in finding_ids(cli)  # validate reports the same link
    text = ok(cli(*question)).stdout
    assert "delivered to sub OLDFEED on LEGACY  unsupported path (MQC018)" in text
    assert "MQC018 HIERARCHY_WITH_TOPICHOST: IBM does not support this path" in text


def test_diff_carries_the_unsupported_path_on_the_delivery(tmp_path: Path) -> None:
    after = write(tmp_path / "after", EU)
    before = write(tmp_path / "before", {**EU, "FR2": EU["FR2"].replace("TOPICHOST", "DIRECT")})
    found = ok(run_cli(["diff", str(before), str(after), "-o", "json"]), (1,)).json()
    entries = [r for r in found["routing"] if r["subscription"] == "OLDFEED"]  # type: ignore[index]
    assert entries and all("unsupported" not in r["before"] for r in entries)
    assert all(r["after"]["unsupported"]["rule"] == "MQC018" for r in entries)
    text = ok(run_cli(["diff", str(before), str(after)]), (1,)).stdout
    assert "via host FR2 (unsupported path: MQC018)" in text
    assert "after: IBM does not support this path" in text
    markdown = ok(run_cli(["diff", str(before), str(after), "-o", "markdown"]), (1,)).stdout
    assert "(unsupported path: MQC018)<br>⚠️ IBM does not support this path" in markdown


LOCAL_WINS = {
    "GW": (
        "DEFINE CHANNEL(US.GW) CHLTYPE(CLUSRCVR) CONNAME('gw(1414)') CLUSTER(US)\n"
        "DEFINE TOPIC(PRICES) TOPICSTR('/Prices') CLUSTER(EU)\n"
    ),
    "US2": (
        "ALTER QMGR REPOS(US)\n"
        "DEFINE CHANNEL(US.US2) CHLTYPE(CLUSRCVR) CONNAME('us2(1414)') CLUSTER(US)\n"
        "DEFINE TOPIC(PRICES) TOPICSTR('/Prices/US') CLUSTER(US)\n"
        "DEFINE SUB(ALL) TOPICSTR('/Prices/US/x') DEST(Q)\n"
    ),
}
"""Two objects named PRICES at GW: its own (naming EU, which GW is not in: local to GW) and US2's."""


def test_explain_and_validate_agree_that_the_local_definition_wins(cli: Cli, tmp_path: Path) -> None:
    load(cli, write(tmp_path / "local", LOCAL_WINS))
    answer = ok(cli("explain", "--from", "GW", "--topic", "/Prices/US/x", "-o", "json")).json()
    assert answer["resolved"]["object"] == "PRICES" and answer["resolved"]["topicstr"] == "/Prices"  # type: ignore[index]
    assert not [w for w in answer["warnings"] if w["code"] == "CONFLICT"]  # type: ignore[index]
    assert "nondeterministic" not in ok(cli("explain", "--from", "GW", "--topic", "/Prices/US/x")).stdout
    ids = finding_ids(cli)
    assert "MQC001" not in ids and "MQC003" in ids  # the hiding is reported, not a conflict


def test_mqc012_is_silent_for_a_subscription_with_subscope_qmgr(cli: Cli, tmp_path: Path) -> None:
    scripts = {
        "US1": (
            "ALTER QMGR REPOS(US)\n"
            "DEFINE CHANNEL(US.US1) CHLTYPE(CLUSRCVR) CONNAME('us1(1414)') CLUSTER(US)\n"
            "DEFINE TOPIC(PRICES) TOPICSTR('/Prices') CLUSTER(US)\n"
            "DEFINE SUB(MINE) TOPICSTR('/#') SUBSCOPE(QMGR) DEST(Q)\n"
        ),
        "US2": "DEFINE CHANNEL(US.US2) CHLTYPE(CLUSRCVR) CONNAME('us2(1414)') CLUSTER(US)\n",
    }
    load(cli, write(tmp_path / "scoped", scripts))
    assert "MQC012" not in finding_ids(cli)
    ok(cli("runmqsc", "US2", stdin="DEFINE SUB(EVERYTHING) TOPICSTR('/#') DEST(Q)\n"))
    assert "MQC012" in finding_ids(cli)  # the same wildcard with SUBSCOPE(ALL) is reported


def test_a_miss_from_legacy_names_where_its_hierarchy_link_leads_and_why(cli: Cli, tmp_path: Path) -> None:
    load(cli, write(tmp_path / "us", US))
    answer = ok(cli("explain", "--from", "LEGACY", "--topic", "/Prices/EU/Paris", "-o", "json")).json()
    paris = by_sub(answer, "not_delivered")["PARIS"]
    assert paris["reason"] == "NO_PATH"
    assert "no hierarchy link leads there either" not in paris["detail"]
    assert (
        "the hierarchy links from LEGACY (LEGACY->GW) go no further: on GW '/Prices/EU/Paris' resolves to "
        "topic object PRICES ('/Prices', cluster US), and FR1 is not a member of cluster US (it is in EU)"
    ) in paris["detail"]
