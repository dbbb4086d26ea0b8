"""Observed state through the real CLI: captures of DISPLAY output in, reconcile against the model.

The round trip (issue 22): mqctl predicts what each queue manager should show, the prediction is written
as runmqsc (and REST) DISPLAY output, read back with `import display`, and `reconcile` finds nothing;
then one proxy removed, one channel stopped, one cluster topic's CLROUTE changed are named exactly, with
the subscriptions they affect.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result
from tests.helpers import dump_store, ok

REPO = Path(__file__).resolve().parents[2]

Cli = Callable[..., Result]

DEMO = [
    ["define", "qmgr", "QM1", "--cluster", "USA", "--full-repository", "USA"],
    ["define", "qmgr", "QM2", "--cluster", "USA", "--full-repository", "USA"],
    *[["define", "qmgr", qm, "--cluster", "USA"] for qm in ("QM3", "QM4", "QM5", "QM6")],
    [
        "define",
        "topic",
        "ALABAMA",
        "--qmgr",
        "QM3",
        "--topicstr",
        "/USA/Alabama",
        "--cluster",
        "USA",
        "--clroute",
        "topichost",
    ],
    [
        "define",
        "topic",
        "ALABAMA",
        "--qmgr",
        "QM4",
        "--topicstr",
        "/USA/Alabama",
        "--cluster",
        "USA",
        "--clroute",
        "topichost",
    ],
    [
        "define",
        "topic",
        "ALASKA",
        "--qmgr",
        "QM4",
        "--topicstr",
        "/USA/Alaska",
        "--cluster",
        "USA",
        "--clroute",
        "topichost",
    ],
    [
        "define",
        "sub",
        "MOBILE.ORDERS",
        "--qmgr",
        "QM5",
        "--topicstr",
        "/USA/Alabama/#",
        "--selector",
        "amount > 100",
    ],
    ["define", "sub", "JUNEAU", "--qmgr", "QM6", "--topicstr", "/USA/Alaska/Juneau"],
    ["define", "sub", "ALL.USA", "--qmgr", "QM6", "--topicstr", "/USA/#"],
    ["define", "sub", "LOCAL.MOBILE", "--qmgr", "QM5", "--topicstr", "/USA/Alabama/Mobile", "--non-durable"],
    ["define", "sub", "EVERYTHING", "--qmgr", "QM1", "--topicstr", "/USA/#"],
]
"""demo/demo.sh's topology (reference 000 Figure 5)."""


def load(cli: Cli, commands: list[list[str]]) -> None:
    for args in commands:
        ok(cli(*args))


def render(store_url: str, folder: Path, form: str = "runmqsc") -> dict[str, Path]:
    """The model's predicted DISPLAY output, one file per queue manager."""
    from mqctl.formats.display import to_json, to_runmqsc
    from mqctl.services.observed import predicted_display
    from mqctl.store.session import unit_of_work

    with unit_of_work(store_url, write=False) as store:
        predicted = predicted_display(store)
    folder.mkdir(parents=True, exist_ok=True)
    files = {}
    for qmgr, commands in predicted.items():
        if form == "runmqsc":
            path = folder / f"{qmgr}.txt"
            path.write_text(to_runmqsc(qmgr, commands), encoding="utf-8")
        else:
            path = folder / f"{qmgr}.json"
            path.write_text(to_json(qmgr, commands), encoding="utf-8")
        files[qmgr] = path
    return files


def reconcile(cli: Cli, *args: str) -> tuple[int, list[dict]]:
    result = cli("reconcile", "-o", "json", *args)
    assert result.exit_code in (0, 1), result.stderr
    return result.exit_code, result.json()["findings"]


def remove_block(text: str, first_line: str) -> str:
    """The runmqsc output without the block whose first item line holds ``first_line``."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if first_line in line) - 1
    assert lines[start].startswith("AMQ")
    end = start + 1
    while not (
        lines[end].startswith("AMQ") or re.match(r"^\s*\d+ : ", lines[end]) or "MQSC commands" in lines[end]
    ):
        end += 1
    return "\n".join(lines[:start] + lines[end:]) + "\n"


def test_demo_round_trip_then_three_faults_named_exactly(cli: Cli, store_url: str, tmp_path: Path) -> None:
    load(cli, DEMO)
    files = render(store_url, tmp_path / "caps")
    ok(cli("import", "display", *map(str, files.values())))
    code, findings = reconcile(cli)
    assert (code, findings) == (0, [])

    # remove the proxy for MOBILE.ORDERS' /USA/Alabama/# held at QM4 (a topic host)
    qm4 = files["QM4"].read_text()
    files["QM4"].write_text(remove_block(qm4, "SUB(SYSTEM.PROXY.QM5 USA /USA/Alabama/#)"))
    # stop QM4's channel to QM6 (QM6's JUNEAU proxy is held at QM4, host of /USA/Alaska)
    qm4 = files["QM4"].read_text()
    files["QM4"].write_text(
        re.sub(r"(RQMNAME\(QM6\)\s+)STATUS\(RUNNING\)", r"\1STATUS(RETRYING)", qm4, count=1)
    )
    # QM6 knows ALABAMA from QM3 as DIRECT
    qm6 = files["QM6"].read_text()
    block = re.search(r"TOPIC\(ALABAMA\).*?CLUSQMGR\(QM3\)", qm6, re.S)
    assert block is not None
    changed = qm6[: block.start()] + block.group(0).replace("CLROUTE(TOPICHOST)", "CLROUTE(DIRECT)  ")
    files["QM6"].write_text(changed + qm6[block.end() :])
    ok(cli("import", "display", str(files["QM4"]), str(files["QM6"])))

    code, findings = reconcile(cli)
    assert code == 1
    by_code = {f["code"]: f for f in findings}
    assert sorted(by_code) == ["CHANNEL_NOT_RUNNING", "CLUSTER_TOPIC_MISMATCH", "PROXY_MISSING"]
    assert len(findings) == 3
    missing = by_code["PROXY_MISSING"]
    assert missing["severity"] == "error"
    assert missing["pattern"] == "/USA/Alabama/#"
    assert missing["subscriptions"] == ["MOBILE.ORDERS"]
    assert {"QM4", "QM5"} <= set(missing["nodes"])
    channel = by_code["CHANNEL_NOT_RUNNING"]
    assert channel["subscriptions"] == ["JUNEAU"] and {"QM4", "QM6"} <= set(channel["nodes"])
    assert "RETRYING" in channel["message"]
    mismatch = by_code["CLUSTER_TOPIC_MISMATCH"]
    assert "CLROUTE(DIRECT)" in mismatch["message"] and {"QM6", "QM3"} <= set(mismatch["nodes"])
    assert mismatch["pattern"] == "/USA/Alabama"
    assert set(mismatch["subscriptions"]) == {"MOBILE.ORDERS", "LOCAL.MOBILE"}
    for f in findings:
        assert all(isinstance(n, str) for n in f["nodes"] + f["subscriptions"]) and isinstance(
            f["pattern"], str
        )
    # a warning threshold changes nothing here; info findings never fail an error threshold
    assert cli("reconcile", "--fail-on", "error").exit_code == 1


def test_missing_proxy_names_its_likely_cause(cli: Cli, store_url: str, tmp_path: Path) -> None:
    load(cli, DEMO)
    files = render(store_url, tmp_path / "caps")
    qm4 = remove_block(files["QM4"].read_text(), "SUB(SYSTEM.PROXY.QM5 USA /USA/Alabama/#)")
    qm4 = remove_block(qm4, "CLUSQMGR(QM5)")
    files["QM4"].write_text(qm4)
    ok(cli("import", "display", *map(str, files.values())))
    code, findings = reconcile(cli)
    assert code == 1 and [f["code"] for f in findings] == ["PROXY_MISSING"]
    assert any("absent from QM4's DISPLAY CLUSQMGR" in c for c in findings[0]["causes"])
    assert "likely cause" in findings[0]["message"]


def test_rest_json_gives_the_same_observations(cli: Cli, store_url: str, tmp_path: Path) -> None:
    load(cli, DEMO)
    text_files = render(store_url, tmp_path / "text")
    json_files = render(store_url, tmp_path / "json", form="json")
    ok(cli("import", "display", *map(str, text_files.values()), "--at", "2026-11-26T03:00:00Z"))
    from_text = ok(cli("display", "observed", "-o", "json")).json()
    ok(cli("import", "display", *map(str, json_files.values()), "--at", "2026-11-26T03:00:00Z"))
    from_json = ok(cli("display", "observed", "-o", "json")).json()

    def comparable(captures: list[dict]) -> list[tuple]:
        return [
            (
                c["qmgr"],
                c["captured_at"],
                sorted(c["commands"]),
                sorted(
                    (o["kind"], o["name"], json.dumps(o["attributes"], sort_keys=True))
                    for o in c["observations"]
                ),
            )
            for c in captures
        ]

    assert comparable(from_text) == comparable(from_json)
    assert sum(len(c["observations"]) for c in from_json) > 50
    assert reconcile(cli) == (0, [])


def test_generated_topologies_round_trip(cli: Cli, store_url: str, tmp_path: Path) -> None:
    sys.path.insert(0, str(REPO / "benchmarks"))
    try:
        from gen_topology import generate
    finally:
        sys.path.pop(0)
    generate(tmp_path / "gen", clusters=2, qmgrs=5, topics=4, subs=6, ems=0, seed=11)
    ok(cli("import", "mqsc", str(tmp_path / "gen" / "mqsc")))
    # and a hierarchy joining two more queue managers under one of the cluster's
    load(
        cli,
        [
            ["define", "qmgr", "HUB", "--parent", "C00Q001"],
            ["define", "qmgr", "LEAF", "--parent", "HUB"],
            ["define", "sub", "LEAF.ORDERS", "--qmgr", "LEAF", "--topicstr", "/CL00/orders/#"],
        ],
    )
    files = render(store_url, tmp_path / "caps")
    assert "SYSTEM.PROXY.LEAF HIERARCHY /CL00/orders/#" in files["HUB"].read_text()
    ok(cli("import", "display", *map(str, files.values())))
    assert reconcile(cli) == (0, [])
    # the hierarchy relation between HUB and LEAF not active: the subscriptions it carries are named
    hub = files["HUB"].read_text()
    files["HUB"].write_text(
        re.sub(r"(QMNAME\(LEAF\)\s+TYPE\(CHILD\)\s+)STATUS\(ACTIVE\)", r"\1STATUS(ERROR)", hub)
    )
    ok(cli("import", "display", str(files["HUB"])))
    code, findings = reconcile(cli)
    assert code == 1 and [f["code"] for f in findings] == ["HIERARCHY_NOT_ACTIVE"]
    # LEAF.ORDERS misses what the cluster publishes; the cluster's subscribers miss what LEAF publishes
    assert "LEAF.ORDERS" in findings[0]["subscriptions"] and len(findings[0]["subscriptions"]) > 1
    assert {"HUB", "LEAF"} <= set(findings[0]["nodes"])


def test_api_subscriptions_modelled_marked_and_not_exported(cli: Cli, tmp_path: Path) -> None:
    ok(cli("define", "qmgr", "QM1"))
    capture = tmp_path / "qm1.txt"
    capture.write_text(
        "5724-H72 (C) Copyright IBM Corp. 1994, 2025.\n"
        "Starting MQSC for queue manager QM1.\n\n\n"
        "     1 : DISPLAY SUB(*) SUBTYPE(ALL) ALL\n"
        "AMQ8096I: IBM MQ subscription inquired.\n"
        "   SUB(JMS:QM1:app1:orders)                SUBID(414D5120514D31202020202020202020)\n"
        "   TOPICSTR(/orders/EU)                    TOPICOBJ( )\n"
        "   DEST(SYSTEM.MANAGED.DURABLE.65A1)       DESTQMGR(QM1)\n"
        "   SELECTOR(region = 'EU' AND (qty > 1))   SELTYPE(STANDARD)\n"
        "   DURABLE(YES)                            SUBSCOPE(ALL)\n"
        "   SUBTYPE(API)                            WSCHEMA(TOPIC)\n"
        "AMQ8096I: IBM MQ subscription inquired.\n"
        "   SUB(ADMIN.SUB)                          TOPICSTR(/orders/#)\n"
        "   DURABLE(YES)                            SUBTYPE(ADMIN)\n"
        "     2 : DISPLAY QLOCAL(*)\n"
        "AMQ8409I: Display Queue details.\n"
        "   QUEUE(APP.IN)                           TYPE(QLOCAL)\n"
        "     3 : DEFINE QLOCAL(X)\n"
        "AMQ8150E: IBM MQ object already exists.\n"
        "3 MQSC commands read.\n"
        "No commands have a syntax error.\n"
        "One valid MQSC command could not be processed.\n",
        encoding="utf-8",
    )
    summary = ok(cli("import", "display", str(capture), "-o", "json")).json()
    assert summary[0]["subscriptions"] == {"ADMIN": 1, "API": 1}
    assert summary[0]["not_read"] == {"AMQ8150E": 1, "DEFINE QLOCAL": 1, "DISPLAY QLOCAL": 1}
    shown = ok(cli("display", "sub", "JMS:QM1:app1:orders", "--qmgr", "QM1", "-o", "json")).json()
    assert shown[0]["subtype"] == "API" and shown[0]["selector"] == "region = 'EU' AND (qty > 1)"
    assert shown[0]["topicstr"] == "/orders/EU" and shown[0]["durable"] is True
    assert shown[0]["subid"] == "414D5120514D31202020202020202020"  # kept as MQ showed it
    admin = ok(cli("display", "sub", "ADMIN.SUB", "--qmgr", "QM1", "-o", "json")).json()
    assert admin[0]["subtype"] == "ADMIN" and admin[0]["subid"] == ""  # the capture showed none
    out = tmp_path / "out"
    ok(cli("export", "mqsc", "QM1", "--out", str(out)))
    exported = (out / "QM1.mqsc").read_text()
    assert "ADMIN.SUB" in exported and "JMS:QM1:app1:orders" not in exported
    ok(cli("export", "mqsc", "QM1", "--out", str(out), "--include-api"))
    exported = (out / "QM1.mqsc").read_text()
    assert "JMS:QM1:app1:orders" in exported and "SUBID" not in exported  # DEFINE SUB takes no SUBID


def test_rest_json_subscriptions_keep_their_subid(cli: Cli, tmp_path: Path) -> None:
    """The REST API's ``subid`` key is kept as runmqsc's SUBID is; a blank SUB takes it as its name."""
    subid = "414D5120514D312020202020202020203D7C2A6720001F05"
    blank = "414D5120514D312020202020202020203D7C2A6720001F06"
    request = {
        "type": "runCommandJSON",
        "command": "display",
        "qualifier": "sub",
        "parameters": {"subtype": "all"},
    }
    params = [
        {
            "sub": "JMS:QM1:app1:orders",
            "subid": subid,
            "topicstr": "/orders/EU",
            "subtype": "API",
            "durable": "yes",
        },
        {"sub": "", "subid": blank, "topicstr": "/prices/#", "subtype": "API", "durable": "no"},
        {"sub": "ADMIN.SUB", "subid": "", "topicstr": "/orders/#", "subtype": "ADMIN"},
    ]
    response = {"commandResponse": [{"completionCode": 0, "reasonCode": 0, "parameters": p} for p in params]}
    capture = tmp_path / "qm1.json"
    capture.write_text(
        json.dumps({"qmgr": "QM1", "request": request, "response": response}), encoding="utf-8"
    )
    ok(cli("define", "qmgr", "QM1"))
    summary = ok(cli("import", "display", str(capture), "-o", "json")).json()
    assert summary[0]["subscriptions"] == {"ADMIN": 1, "API": 2}
    shown = {s["name"]: s for s in ok(cli("display", "sub", "--qmgr", "QM1", "-o", "json")).json()}
    assert {n: (s["subtype"], s["subid"]) for n, s in shown.items()} == {
        "JMS:QM1:app1:orders": ("API", subid),
        blank: ("API", blank),
        "ADMIN.SUB": ("ADMIN", ""),
    }
    assert shown[blank]["durable"] is False


def test_capture_without_some_commands_is_no_error_and_unknown_nodes_are_named(
    cli: Cli, tmp_path: Path
) -> None:
    load(cli, [["define", "qmgr", "QM1", "--cluster", "CL"], ["define", "qmgr", "QM2", "--cluster", "CL"]])
    only = tmp_path / "qm1.txt"
    only.write_text(
        "Starting MQSC for queue manager QM1.\n     1 : DISPLAY PUBSUB TYPE(ALL) ALL\n"
        "AMQ8723I: Display pub/sub status details.\n   QMNAME(QM1)                             TYPE(LOCAL)\n"
        "   STATUS(ACTIVE)\n1 MQSC commands read.\n"
    )
    stranger = tmp_path / "qmx.txt"
    stranger.write_text(only.read_text().replace("QM1", "QMX"))
    ok(cli("import", "display", str(only), str(stranger), "--at", "2026-11-20T00:00:00Z"))
    code, findings = reconcile(cli, "--fail-on", "error")
    assert code == 0
    assert sorted((f["code"], f["nodes"][0]) for f in findings) == [
        ("NO_CAPTURE", "QM2"),
        ("UNKNOWN_CAPTURE", "QMX"),
    ]
    assert cli("reconcile", "--fail-on", "warning").exit_code == 1
    _, aged = reconcile(cli, "--max-age", "1d")
    assert {"STALE_CAPTURE"} <= {f["code"] for f in aged}
    for output in ("sarif", "junit", "text"):
        assert cli("reconcile", "-o", output).exit_code == 0


BANNER = "Starting MQSC for queue manager QM1.\n     1 : DISPLAY SUB(*) SUBTYPE(ALL) ALL\n"
GOOD_BLOCK = (
    "AMQ8096I: IBM MQ subscription inquired.\n   SUB(S1)                                 TOPICSTR(/a/#)\n"
)
END = "1 MQSC commands read.\n"


@pytest.mark.parametrize(
    ("name", "text", "args", "where"),
    [
        (
            "truncated",
            BANNER + GOOD_BLOCK + "AMQ8096I: IBM MQ subscription inquired.\n   SUB(S2)\n" + END,
            [],
            ":6:1:",
        ),
        (
            "cut short",
            BANNER + GOOD_BLOCK + "AMQ8096I: IBM MQ subscription inquired.\n   SUB(S2)      TOP",
            [],
            ":6:",
        ),
        (
            "unbalanced",
            BANNER + "AMQ8096I: x\n   SUB(S1)                                 TOPICSTR(/a/(b)\n" + END,
            [],
            ":4:52:",
        ),
        ("wrong qmgr", (BANNER + GOOD_BLOCK + END).replace("QM1", "QM9"), ["--qmgr", "QM1"], ":1:33:"),
        ("another kind", "DEFINE QLOCAL(X) REPLACE\n", ["--qmgr", "QM1"], ":1:1:"),
        ("bad json", '{"commandResponse": [', [], ":1:"),
        ("no qmgr", '{"commandResponse": []}', [], ":1:1:"),
    ],
)
def test_bad_input_is_one_line_exit_2_store_unchanged(
    cli: Cli, store_url: str, tmp_path: Path, name: str, text: str, args: list[str], where: str
) -> None:
    ok(cli("define", "qmgr", "QM1"))
    good = tmp_path / "good.txt"
    good.write_text(BANNER + GOOD_BLOCK + END)
    bad = tmp_path / "bad.txt"
    bad.write_text(text)
    before = dump_store(store_url)
    result = cli("import", "display", str(good), str(bad), *args)
    assert result.exit_code == 2, (name, result.stdout, result.stderr)
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert f"{bad}{where}" in result.stderr, result.stderr
    assert dump_store(store_url) == before


def test_explain_observed_takes_channels_not_running_as_links_down(
    cli: Cli, store_url: str, tmp_path: Path
) -> None:
    load(cli, DEMO)
    files = render(store_url, tmp_path / "caps")
    qm6 = files["QM6"].read_text()
    files["QM6"].write_text(re.sub(r"(RQMNAME\(QM3\)\s+)STATUS\(RUNNING\)", r"\1STATUS(STOPPED)", qm6))
    ok(cli("import", "display", *map(str, files.values())))
    args = [
        "explain",
        "--from",
        "QM6",
        "--topic",
        "/USA/Alabama/Mobile",
        "--prop",
        "amount=250",
        "-o",
        "json",
    ]
    plain = ok(cli(*args)).json()
    observed = ok(cli(*args, "--observed")).json()
    assert "observed_links_down" not in plain
    assert [n["link"] for n in observed["observed_links_down"]] == [["QM3", "QM6"]]
    assert "channel TO.QM3 on QM6 to QM3 is STOPPED" in observed["observed_links_down"][0]["observation"]
    assert plain != observed  # QM3, a topic host, is not available to QM6 any more
    table = ok(cli(*args[:-2], "--observed")).stdout
    assert "observed: link QM3 - QM6 down: channel TO.QM3 on QM6" in table


TOPIC_CAPTURE = """Starting MQSC for queue manager QM1.
     1 : DISPLAY TOPIC(*) ALL
AMQ8633I: Display topic details.
   TOPIC(SYSTEM.BASE.TOPIC)                TYPE(LOCAL)
   TOPICSTR( )                             DESCR(Base topic for resolving attributes)
AMQ8633I: Display topic details.
   TOPIC(SPORTS)                           TYPE(LOCAL)
   TOPICSTR(/Sport)                        DESCR(Bob's sport (all of it))
   CLUSTER(CL1)                            CLROUTE(TOPICHOST)
   DURSUB(YES)                             PUB(ENABLED)
   WILDCARD(BLOCK)                         PROXYSUB(FIRSTUSE)
     2 : DISPLAY QMGR ALL
AMQ8408I: Display Queue Manager details.
   QMNAME(QM1)                             PSMODE(ENABLED)
   PARENT(QMP)                             DESCR( )
2 MQSC commands read.
"""


def test_topic_and_qmgr_answers_are_definitions_as_mqsc_import_takes_them(
    cli: Cli, store_url: str, tmp_path: Path
) -> None:
    ok(cli("define", "qmgr", "QM1", "--cluster", "CL1"))
    capture = tmp_path / "qm1.txt"
    capture.write_text(TOPIC_CAPTURE)
    summary = ok(cli("import", "display", str(capture), "-o", "json")).json()
    assert summary[0]["topics"] == 1 and summary[0]["not_read"] == {"SYSTEM topic objects": 1}
    topic = ok(cli("display", "topic", "SPORTS", "--qmgr", "QM1", "-o", "json")).json()[0]
    assert (topic["topicstr"], topic["clroute"], topic["wildcard"], topic["descr"]) == (
        "/Sport",
        "TOPICHOST",
        "BLOCK",
        "Bob's sport (all of it)",
    )
    assert ok(cli("display", "qmgr", "QM1", "-o", "json")).json()[0]["parent"] == "QMP"
    # a value MQ would refuse: one line at the keyword, nothing changed
    before = dump_store(store_url)
    capture.write_text(TOPIC_CAPTURE.replace("CLROUTE(TOPICHOST)", "CLROUTE(SIDEWAYS)"))
    refused = cli("import", "display", str(capture))
    assert refused.exit_code == 2 and f"{capture}:9:44:" in refused.stderr and "CLROUTE" in refused.stderr
    assert dump_store(store_url) == before


def topics_capture(qmgr: str, *topics: tuple[str, str]) -> str:
    blocks = "".join(
        f"AMQ8633I: Display topic details.\n   TOPIC({name})   TYPE(LOCAL)\n   TOPICSTR({topicstr})\n"
        for name, topicstr in topics
    )
    return f"Starting MQSC for queue manager {qmgr}.\n     1 : DISPLAY TOPIC(*) ALL\n{blocks}1 MQSC commands read.\n"


def test_a_capture_s_edits_see_one_another_and_errors_stand_at_the_capture_s_block(
    cli: Cli, store_url: str, tmp_path: Path
) -> None:
    """A topic string an earlier block of the capture frees is free for a later one (DEFINE REPLACE in
    the block order, as MQ shows them); taken twice, the second block is refused at its TOPICSTR."""
    ok(cli("define", "qmgr", "QM1"))
    ok(cli("define", "topic", "A", "--qmgr", "QM1", "--topicstr", "/x"))
    capture = tmp_path / "qm1.txt"
    capture.write_text(topics_capture("QM1", ("A", "/y"), ("B", "/x")))
    ok(cli("import", "display", str(capture)))
    shown = ok(cli("display", "topic", "*", "--qmgr", "QM1", "-o", "json")).json()
    assert {t["name"]: t["topicstr"] for t in shown} == {"A": "/y", "B": "/x"}
    before = dump_store(store_url)
    capture.write_text(topics_capture("QM1", ("A", "/z"), ("C", "/z")))
    refused = cli("import", "display", str(capture))
    assert refused.exit_code == 2 and f"{capture}:8:4: topic C TOPICSTR:" in refused.stderr, refused.stderr
    assert "already used by topic object A" in refused.stderr
    assert dump_store(store_url) == before


def test_definitions_of_a_queue_manager_not_in_the_model_are_still_judged(
    cli: Cli, store_url: str, tmp_path: Path
) -> None:
    """Not imported, a capture's topic objects and subscriptions are still held to the domain's rules:
    a capture MQ could not have printed is bad input, wherever it goes."""
    ok(cli("define", "qmgr", "QM1"))
    capture = tmp_path / "qm9.txt"
    capture.write_text(topics_capture("QM9", ("OK", "/a"), ("B" * 49, "/b")))
    refused = cli("import", "display", str(capture))
    assert refused.exit_code == 2 and f"{capture}:6:1: topic {'B' * 49}:" in refused.stderr, refused.stderr
    capture.write_text(topics_capture("QM9", ("OK", "/a")))
    summary = ok(cli("import", "display", str(capture), "-o", "json")).json()
    assert summary[0]["not_imported"] == {"definitions": 1} and not summary[0]["in_model"]


def test_a_captured_text_is_taken_as_printed_not_as_mqsc(cli: Cli, tmp_path: Path) -> None:
    """No MQSC round trip: a DESCR holding ``+QMNAME+`` or a quote is kept as DISPLAY printed it."""
    ok(cli("define", "qmgr", "QM1"))
    capture = tmp_path / "qm1.txt"
    capture.write_text(TOPIC_CAPTURE.replace("Bob's sport (all of it)", "Bob's +QMNAME+ sport"))
    ok(cli("import", "display", str(capture)))
    topic = ok(cli("display", "topic", "SPORTS", "--qmgr", "QM1", "-o", "json")).json()[0]
    assert topic["descr"] == "Bob's +QMNAME+ sport"
