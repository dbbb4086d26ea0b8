"""`mqctl capture-kit` through the real CLI (SQLite and PostgreSQL): what the kit makes is exactly what
`import display` reads (issue 31).

The kit's own scripts are run, with stand-ins for runmqsc, curl and tibemsadmin on PATH that answer each
command they are given in the recorded shape of the real tool (runmqsc's echo and AMQ blocks, the REST
API's commandResponse, a tibemsadmin session); the files they leave are imported: every command of the
kit is read, none lands in `not_read`.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from mqctl.formats.display.commands import CAPTURE_COMMANDS
from tests.conftest import Result
from tests.helpers import dump_store, ok

Cli = Callable[..., Result]

SAMPLES: dict[str, tuple[str, list[list[tuple[str, str]]]]] = {
    "SUB": (
        "AMQ8096I: IBM MQ subscription inquired.",
        [
            [("SUB", "S1"), ("SUBID", "414D5120514D31"), ("TOPICSTR", "/a/#"), ("DEST", "Q1"),
             ("DESTQMGR", "QM1"), ("DURABLE", "YES"), ("SUBSCOPE", "ALL"), ("SUBTYPE", "ADMIN"),
             ("WSCHEMA", "TOPIC")],
            [("SUB", "SYSTEM.PROXY.QM2 CL1 /b/#"), ("TOPICSTR", "/b/#"), ("DESTQMGR", "QM2"),
             ("SUBTYPE", "PROXY"), ("SUBUSER", "QM2")],
        ],
    ),
    "TOPIC": (
        "AMQ8633I: Display topic details.",
        [[("TOPIC", "T1"), ("TYPE", "LOCAL"), ("TOPICSTR", "/a"), ("CLROUTE", "DIRECT")]],
    ),
    "TCLUSTER": (
        "AMQ8633I: Display topic details.",
        [[("TOPIC", "T2"), ("TYPE", "CLUSTER"), ("TOPICSTR", "/b"), ("CLUSTER", "CL1"),
          ("CLUSQMGR", "QM2"), ("CLSTATE", "ACTIVE"), ("CLROUTE", "DIRECT")]],
    ),
    "CLUSQMGR": (
        "AMQ8441I: Display Cluster Queue Manager details.",
        [[("CLUSQMGR", "QM2"), ("CHANNEL", "CL1.QM2"), ("CLUSTER", "CL1"), ("DEFTYPE", "CLUSSDRA"),
          ("QMTYPE", "REPOS"), ("STATUS", "RUNNING")]],
    ),
    "QMGR": ("AMQ8408I: Display Queue Manager details.", [[("QMNAME", "{qmgr}"), ("PSMODE", "ENABLED")]]),
    "PUBSUB": (
        "AMQ8723I: Display pub/sub status details.",
        [[("QMNAME", "{qmgr}"), ("TYPE", "LOCAL"), ("STATUS", "ACTIVE")]],
    ),
    "CHSTATUS": (
        "AMQ8417I: Display Channel Status details.",
        [[("CHANNEL", "CL1.QM2"), ("CHLTYPE", "CLUSSDR"), ("CONNAME", "qm2(1414)"), ("RQMNAME", "QM2"),
          ("STATUS", "RUNNING")]],
    ),
    "SBSTATUS": (
        "AMQ8099I: IBM MQ subscription status inquired.",
        [[("SUB", "S1"), ("SUBID", "414D5120514D31"), ("SUBTYPE", "ADMIN"), ("NUMMSGS", "0")]],
    ),
    "TPSTATUS": (
        "AMQ8754I: Display topic status details.",
        [[("TOPICSTR", "/b"), ("ADMIN", "T2"), ("CLUSTER", "CL1"), ("CLROUTE", "DIRECT")]],
    ),
}  # fmt: skip
"""One recorded answer per kind of command, as the real product prints it."""

FAKE_RUNMQSC = """
import json, re, sys
samples = json.loads(SAMPLES)
qmgr = sys.argv[1]
kinds = {"SUB": "SUB", "TCLUSTER": "TCLUSTER", "CLUSQMGR": "CLUSQMGR", "QMGR": "QMGR", "PUBSUB": "PUBSUB",
         "CHSTATUS": "CHSTATUS", "SBSTATUS": "SBSTATUS", "TPSTATUS": "TPSTATUS", "TOPIC": "TOPIC"}
out = ["5724-H72 (C) Copyright IBM Corp. 1994, 2025.", f"Starting MQSC for queue manager {qmgr}.", "", ""]
n = 0
for line in sys.stdin.read().splitlines():
    if not line.strip() or line.lstrip().startswith("*"):
        continue
    n += 1
    out.append(f"{n:>6} : {line.strip()}")
    words = re.split(r"[\\s(]+", line.strip())
    message, blocks = samples[kinds[words[1].upper()]]
    for block in blocks:
        out.append(message)
        out += ["   " + k + "(" + v.replace("{qmgr}", qmgr) + ")" for k, v in block]
out += [f"{n} MQSC commands read.", "No commands have a syntax error.", "All valid MQSC commands were processed."]
print("\\n".join(out))
"""

FAKE_CURL = """
import json, os, sys
samples = json.loads(SAMPLES)
args = sys.argv[1:]
with open(os.environ["FAKE_LOG"], "a") as log:
    log.write(json.dumps(args) + "\\n")
body = json.loads(args[args.index("--data") + 1])
qmgr = args[-1].split("/qmgr/")[1].split("/")[0].replace("%2E", ".").replace("%2F", "/").replace("%25", "%")
kind = {"sub": "SUB", "clusqmgr": "CLUSQMGR", "qmgr": "QMGR", "pubsub": "PUBSUB", "chstatus": "CHSTATUS",
        "sbstatus": "SBSTATUS", "tpstatus": "TPSTATUS"}.get(body["qualifier"])
if body["qualifier"] == "topic":
    kind = "TCLUSTER" if body["parameters"]["type"] == "cluster" else "TOPIC"
answers = [{"completionCode": 0, "reasonCode": 0,
            "parameters": {k.lower(): v.replace("{qmgr}", qmgr) for k, v in block}}
           for block in samples[kind][1]]
print(json.dumps({"commandResponse": answers, "overallCompletionCode": 0, "overallReasonCode": 0}))
"""

FAKE_TIBEMSADMIN = """
import os, sys
args = sys.argv[1:]
server_url = args[args.index("-server") + 1]
commands = [c.strip() for c in open(args[args.index("-script") + 1]) if c.strip()]
name = os.environ.get("FAKE_SERVER", "E1")
interactive = os.environ.get("FAKE_FORM") == "interactive"
out = ["TIBCO Enterprise Message Service Administration Tool.", "Copyright 2003-2023 by Cloud Software Group, Inc.",
       "", f"Connected to: {server_url}"]
answers = {
    "info": [f"Server:                   {name} (version: 10.2.1 V6)", "Hostname:                 e1"],
    "show routes": ["  Route  T ConnID URL                Zone               T",
                    "  E2     A 5      tcp://e2host:7222  default_mhop_zone  m"],
    "show durables": ["  Topic Name      Durable          Shared  User      Msgs    Size",
                      "  orders.new      CLIENT1:sub1     N       offline   3       1.2 Kb"],
}
for command in commands:
    out.append(f"{server_url}> {command}" if interactive else f"Command: {command}")
    out += answers[command]
print("\\n".join(out))
"""


def _fake(folder: Path, name: str, body: str) -> None:
    path = folder / name
    path.write_text(
        f"#!{sys.executable}\nSAMPLES = {json.dumps(json.dumps(SAMPLES))}\n{body}", encoding="utf-8"
    )
    path.chmod(0o755)


@pytest.fixture
def fakes(tmp_path: Path) -> dict[str, str]:
    """An environment whose PATH finds the stand-ins first."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name, body in (("runmqsc", FAKE_RUNMQSC), ("curl", FAKE_CURL), ("tibemsadmin", FAKE_TIBEMSADMIN)):
        _fake(bin_dir, name, body)
    return {
        **os.environ,
        "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
        "FAKE_LOG": str(tmp_path / "log"),
    }


def model(cli: Cli) -> None:
    ok(cli("define", "qmgr", "QM1", "--cluster", "CL1", "--full-repository", "CL1"))
    ok(cli("define", "qmgr", "QM2", "--cluster", "CL1"))
    ok(cli("define", "qmgr", "E1", "--dialect", "ems"))
    ok(cli("define", "qmgr", "E2", "--dialect", "ems"))
    ok(cli("define", "route", "E2", "--qmgr", "E1", "--url", "tcp://e2host:7222"))


def run_script(path: Path, env: dict[str, str]) -> None:
    done = subprocess.run(["sh", str(path)], env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, (done.stdout, done.stderr)


KIT_KINDS = {c.kind for c in CAPTURE_COMMANDS}


def test_kit_files_and_what_runmqsc_and_rest_answers_are_read(
    cli: Cli, tmp_path: Path, fakes: dict[str, str]
) -> None:
    model(cli)
    kit = tmp_path / "kit"
    written = ok(cli("capture-kit", "--out", str(kit))).stdout.split()
    assert sorted(Path(p).name for p in written) == sorted(
        [
            "display.mqsc",
            "capture-runmqsc.sh",
            "capture-rest.sh",
            "capture-ems.sh",
            "E1.tibemsadmin",
            "E2.tibemsadmin",
        ]
    )
    mqsc = (kit / "display.mqsc").read_text().splitlines()
    assert mqsc[1:] == [c.mqsc for c in CAPTURE_COMMANDS]  # every DISPLAY the reader reads, no more
    assert "DISPLAY TPSTATUS('#') TYPE(TOPIC) ALL" in mqsc and "DISPLAY PUBSUB TYPE(ALL) ALL" in mqsc
    assert os.access(kit / "capture-runmqsc.sh", os.X_OK) and not os.access(kit / "display.mqsc", os.X_OK)

    run_script(kit / "capture-runmqsc.sh", fakes)
    run_script(kit / "capture-rest.sh", {**fakes, "MQ_REST_PASSWORD": "pw", "MQ_REST_GATEWAY": "GW"})
    calls = [json.loads(line) for line in Path(fakes["FAKE_LOG"]).read_text().splitlines()]
    assert len(calls) == 2 * len(CAPTURE_COMMANDS)
    for call in calls:
        assert "ibm-mq-rest-csrf-token: mqctl" in call and "ibm-mq-rest-gateway-qmgr: GW" in call
        assert call[-1].startswith("https://localhost:9443/ibmmq/rest/v2/admin/action/qmgr/QM")
        assert json.loads(call[call.index("--data") + 1])["type"] == "runCommandJSON"

    for suffix in (".txt", ".json"):
        files = [str(kit / f"QM{i}{suffix}") for i in (1, 2)]
        summary = ok(cli("import", "display", *files, "-o", "json")).json()
        assert [s["qmgr"] for s in summary] == ["QM1", "QM2"]  # type: ignore[index]
        for entry in summary:  # type: ignore[union-attr]
            assert entry["not_read"] == {}, (suffix, entry["not_read"])
            assert set(entry["commands"]) == KIT_KINDS | {"PROXY"}, suffix
            assert entry["observations"]["TPSTATUS"] == 1, suffix


def test_ems_script_answers_are_read(cli: Cli, tmp_path: Path, fakes: dict[str, str]) -> None:
    model(cli)
    kit = tmp_path / "kit"
    ok(cli("capture-kit", "--qmgr", "E1", "--out", str(kit)))
    assert sorted(p.name for p in kit.iterdir()) == ["E1.tibemsadmin", "capture-ems.sh"]
    assert (kit / "E1.tibemsadmin").read_text() == "info\nshow routes\nshow durables\n"
    assert "capture E1 tcp://localhost:7222 E1.tibemsadmin E1.txt" in (kit / "capture-ems.sh").read_text()
    run_script(kit / "capture-ems.sh", {**fakes, "FAKE_FORM": "interactive"})
    summary = ok(cli("import", "display", str(kit / "E1.txt"), "-o", "json")).json()
    assert summary[0]["not_read"] == {}  # type: ignore[index]
    assert summary[0]["observations"] == {"DURABLE": 1, "ROUTE": 1}  # type: ignore[index]


def test_ems_script_run_is_read(cli: Cli, tmp_path: Path, fakes: dict[str, str]) -> None:
    """The same commands run with -script, as the kit runs them."""
    model(cli)
    kit = tmp_path / "kit"
    ok(cli("capture-kit", "--qmgr", "E1", "--out", str(kit)))
    run_script(kit / "capture-ems.sh", fakes)
    summary = ok(cli("import", "display", str(kit / "E1.txt"), "-o", "json")).json()
    assert summary[0]["not_read"] == {}  # type: ignore[index]
    assert summary[0]["observations"] == {"DURABLE": 1, "ROUTE": 1}  # type: ignore[index]


def test_names_are_quoted_and_files_stay_inside(cli: Cli, tmp_path: Path, fakes: dict[str, str]) -> None:
    ok(cli("define", "qmgr", "QM.A%1"))
    ok(cli("define", "qmgr", "EX", "--dialect", "ems"))
    ok(cli("define", "route", "E_1", "--qmgr", "EX", "--url", "tcp://h:1;touch pwned"))
    kit = tmp_path / "kit"
    ok(cli("capture-kit", "--out", str(kit)))
    assert "capture QM.A%1 QM.A%251.txt" in (kit / "capture-runmqsc.sh").read_text()
    assert "capture QM.A%1 QM%2EA%251 QM.A%251.json" in (kit / "capture-rest.sh").read_text()
    assert (
        "capture E_1 'tcp://h:1;touch pwned' E_1.tibemsadmin E_1.txt" in (kit / "capture-ems.sh").read_text()
    )
    run_script(kit / "capture-runmqsc.sh", fakes)
    run_script(kit / "capture-rest.sh", {**fakes, "MQ_REST_PASSWORD": "pw"})
    run_script(kit / "capture-ems.sh", {**fakes, "FAKE_FORM": "interactive", "FAKE_SERVER": "E_1"})
    assert not (kit / "pwned").exists() and not Path("pwned").exists()
    for name in ("QM.A%251.txt", "QM.A%251.json"):
        summary = ok(cli("import", "display", str(kit / name), "-o", "json")).json()
        assert summary[0]["qmgr"] == "QM.A%1"  # type: ignore[index]
    url = json.loads(Path(fakes["FAKE_LOG"]).read_text().splitlines()[0])[-1]
    assert url.endswith("/admin/action/qmgr/QM%2EA%251/mqsc")


def test_refusals_one_line_exit_2_nothing_written(cli: Cli, tmp_path: Path, store_url: str) -> None:
    model(cli)
    before = dump_store(store_url)
    full = tmp_path / "full"
    full.mkdir()
    (full / "keep.txt").write_text("mine")
    for args, words in (
        (["--out", str(full)], "is not empty (use --force to write the kit there)"),
        (
            ["--out", str(tmp_path / "new"), "--qmgr", "NOPE"],
            "NOPE --qmgr: no such queue manager or EMS server",
        ),
        (["--out", str(full / "keep.txt")], "is a file, not a folder"),
    ):
        result = cli("capture-kit", *args)
        assert result.exit_code == 2 and words in result.stderr, result.stderr
        assert len(result.stderr.strip().splitlines()) == 1
    assert sorted(p.name for p in full.iterdir()) == ["keep.txt"] and not (tmp_path / "new").exists()
    ok(cli("capture-kit", "--out", str(full), "--force", "--qmgr", "QM1"))
    assert (full / "keep.txt").read_text() == "mine" and (full / "display.mqsc").exists()
    assert dump_store(store_url) == before
