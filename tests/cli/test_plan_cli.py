"""`mqctl plan BEFORE AFTER` through the real entry point (issue 34): the contract (``steps`` with
``node``, ``commands``, ``rollback``, ``lost``, ``gained``; ``--out`` scripts; exit 0/1/2), IBM's
documented procedures in IBM's order, the CLROUTE window named, and the scripts applied by mqctl's
own runmqsc and tibemsadmin doors to a store (SQLite and PostgreSQL) giving AFTER, their rollbacks
BEFORE.

IBM's procedures:
- moving a topic host and adding one: "Multiple cluster topic definitions of the same name" and
  "Availability of cluster topic host queue managers" (define the topic on the new host; the old one
  goes once the new one is known);
- changing CLROUTE: "Routing for publish/subscribe clusters: Notes on behavior" (every clustered
  definition of a name has one CLROUTE; MQ refuses CLROUTE while CLUSTER is set): CLUSTER(' '), then
  CLROUTE, then CLUSTER(name);
- a queue manager leaving a cluster: "Removing a cluster network" / "dltmqm" (its cluster objects are
  removed before its cluster channels).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.conftest import Result, run_cli

Cli = Callable[..., Result]
HEAD = {
    "QM1": "DEFINE CHANNEL(C.QM1) CHLTYPE(CLUSRCVR) CLUSTER(C) CONNAME('qm1')\nALTER QMGR REPOS(C)\n",
    "QM2": "DEFINE CHANNEL(C.QM2) CHLTYPE(CLUSRCVR) CLUSTER(C) CONNAME('qm2')\nALTER QMGR REPOS(C)\n",
    "QM3": "DEFINE CHANNEL(C.QM3) CHLTYPE(CLUSRCVR) CLUSTER(C) CONNAME('qm3')\n",
}
SUBS = {
    "QM1": "DEFINE SUB(S1) TOPICSTR('/T/x') DEST(Q)\n",
    "QM2": "",
    "QM3": "DEFINE SUB(S3) TOPICSTR('/T/x') DEST(Q)\n",
}
HOST = "DEFINE TOPIC(T) TOPICSTR('/T') CLUSTER(C) CLROUTE(TOPICHOST)\n"
DIRECT = "DEFINE TOPIC(T) TOPICSTR('/T') CLUSTER(C) CLROUTE(DIRECT)\n"


def side(folder: Path, extra: dict[str, str], head: dict[str, str] | None = None) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for qm in ("QM1", "QM2", "QM3"):
        (folder / f"{qm}.mqsc").write_text((head or HEAD)[qm] + SUBS[qm] + extra.get(qm, ""))
    return folder


def plan(*args: str) -> Result:
    return run_cli(["plan", *args])


def steps(result: Result) -> list[dict[str, Any]]:
    data = result.json()
    assert isinstance(data, dict)
    return list(data["steps"])


def test_moving_a_topic_host_adds_the_new_host_first(tmp_path: Path) -> None:
    before = side(tmp_path / "before", {"QM1": HOST})
    after = side(tmp_path / "after", {"QM2": HOST})
    result = plan(str(before), str(after), "-o", "json")
    assert result.exit_code == 0, result.stderr + result.stdout
    got = steps(result)
    assert [(s["node"], s["commands"]) for s in got] == [
        ("QM2", [got[0]["commands"][0]]),
        ("QM1", ["DELETE TOPIC('T')"]),
    ]
    assert got[0]["commands"][0].startswith("DEFINE TOPIC('T') TYPE(LOCAL) TOPICSTR('/T')")
    assert "CLROUTE(TOPICHOST)" in got[0]["commands"][0]
    assert got[0]["rollback"] == ["DELETE TOPIC('T')"]
    assert all(s["lost"] == [] and s["gained"] == [] for s in got)
    data = result.json()
    assert isinstance(data, dict)
    # the naive order (the old host removed first, node by node in name order) would have lost
    assert data["naive"]["order"] == ["QM1", "QM2"] and data["naive"]["lost"] > 0
    assert data["safe"] is True


def test_adding_a_second_topic_host_is_one_step(tmp_path: Path) -> None:
    before = side(tmp_path / "before", {"QM1": HOST})
    after = side(tmp_path / "after", {"QM1": HOST, "QM2": HOST})
    result = plan(str(before), str(after), "-o", "json")
    assert result.exit_code == 0, result.stderr
    [only] = steps(result)
    assert (
        only["node"] == "QM2" and len(only["commands"]) == 1 and "CLROUTE(TOPICHOST)" in only["commands"][0]
    )


def test_a_clroute_flip_names_its_window_and_exits_1(tmp_path: Path) -> None:
    before = side(tmp_path / "before", {"QM1": DIRECT})
    after = side(tmp_path / "after", {"QM1": HOST})
    result = plan(str(before), str(after), "-o", "json")
    assert result.exit_code == 1, result.stderr
    first, second = steps(result)
    assert first["node"] == second["node"] == "QM1"
    assert first["commands"] == ["ALTER TOPIC('T') CLUSTER(' ')"]
    assert second["commands"] == ["ALTER TOPIC('T') CLROUTE(TOPICHOST)", "ALTER TOPIC('T') CLUSTER('C')"]
    assert first["quiesce"] is True and second["lost"] == []
    lost = {(e["subscription"], e["node"], e["publisher"], e["topic"]) for e in first["lost"]}
    assert ("S3", "QM3", "QM1", "/T/x") in lost and ("S1", "QM1", "QM3", "/T/x") in lost
    text = plan(str(before), str(after))
    assert text.exit_code == 1
    assert "lost while step 1 on QM1 stands" in " ".join(text.stdout.split())
    assert "sub S3 on QM3: from QM1, /T/x" in text.stdout


def test_a_queue_manager_leaving_moves_its_topics_off_first(tmp_path: Path) -> None:
    before = side(tmp_path / "before", {"QM3": DIRECT})
    head = dict(HEAD, QM3="")
    after = side(tmp_path / "after", {"QM2": DIRECT}, head)
    result = plan(str(before), str(after), "-o", "json")
    got = steps(result)
    assert [s["node"] for s in got] == ["QM2", "QM3"], got
    assert got[1]["commands"] == ["DELETE TOPIC('T')", "DELETE CHANNEL('C.QM3')"]
    assert result.exit_code == 0, result.stdout


def test_scripts_applied_by_the_doors_give_after_and_rollbacks_give_before(
    cli: Cli, store_url: str, tmp_path: Path
) -> None:
    before = side(tmp_path / "before", {"QM1": DIRECT + "DEFINE TOPIC(U) TOPICSTR('/U') CLUSTER(C)\n"})
    after = side(tmp_path / "after", {"QM1": HOST, "QM2": "DEFINE TOPIC(U) TOPICSTR('/U') CLUSTER(C)\n"})
    out = tmp_path / "out"
    result = plan(str(before), str(after), "--out", str(out), "-o", "json")
    assert result.exit_code == 1, result.stderr
    got = steps(result)
    names = sorted(p.name for p in out.iterdir())
    expected = []
    for s in got:
        stem = f"{s['number']:02d}-{s['node']}"
        expected += [f"{stem}.mqsc", f"{stem}.rollback.mqsc"]
    assert names == sorted(expected)
    assert cli("import", "mqsc", str(before)).exit_code == 0
    for s in got:
        stem = f"{s['number']:02d}-{s['node']}"
        applied = cli("runmqsc", s["node"], str(out / f"{stem}.mqsc"))
        assert applied.exit_code == 0, applied.stdout + applied.stderr
    same = run_cli(["diff", store_url, str(after), "-o", "json"])
    assert same.json()["objects"] == []  # type: ignore[index]
    for s in reversed(got):
        stem = f"{s['number']:02d}-{s['node']}"
        applied = cli("runmqsc", s["node"], str(out / f"{stem}.rollback.mqsc"))
        assert applied.exit_code == 0, applied.stdout + applied.stderr
    back = run_cli(["diff", store_url, str(before), "-o", "json"])
    assert back.json()["objects"] == []  # type: ignore[index]


def ems_side(folder: Path, selector: str, news: bool) -> Path:
    for server, topics, routes in (
        (
            "ORD",
            "orders global\n" + ("news global\n" if news else ""),
            f'[USA]\nurl = tcp://usa:7222\noutgoing_topic=orders selector="{selector}"\n',
        ),
        ("USA", "orders global\n", "[ORD]\nurl = tcp://ord:7222\n"),
    ):
        home = folder / "ems" / server
        home.mkdir(parents=True)
        (home / "tibemsd.conf").write_text(f"server = {server}\ntopics = topics.conf\nroutes = routes.conf\n")
        (home / "topics.conf").write_text(topics)
        (home / "routes.conf").write_text(routes)
    return folder


def test_ems_scripts_applied_by_tibemsadmin_give_after(cli: Cli, store_url: str, tmp_path: Path) -> None:
    before = ems_side(tmp_path / "before", "country='USA'", news=False)
    after = ems_side(tmp_path / "after", "country='USA' OR country='CA'", news=True)
    out = tmp_path / "out"
    result = plan(str(before), str(after), "--out", str(out), "-o", "json")
    assert result.exit_code == 0, result.stderr + result.stdout
    got = steps(result)
    assert {s["node"] for s in got} == {"ORD"}
    assert any("addprop route USA outgoing_topic=orders" in c for s in got for c in s["commands"])
    tibemsd = [
        a for server in ("ORD", "USA") for a in ("--tibemsd", str(before / "ems" / server / "tibemsd.conf"))
    ]
    assert cli("import", "ems", *tibemsd).exit_code == 0
    for s in got:
        stem = f"{s['number']:02d}-{s['node']}"
        assert (out / f"{stem}.rollback.tibemsadmin").is_file()
        applied = cli("tibemsadmin", s["node"], str(out / f"{stem}.tibemsadmin"))
        assert applied.exit_code == 0, applied.stdout + applied.stderr
    same = run_cli(["diff", store_url, str(after), "-o", "json"])
    assert same.json()["objects"] == []  # type: ignore[index]


def test_markdown_and_bad_input(tmp_path: Path) -> None:
    before = side(tmp_path / "before", {"QM1": DIRECT})
    after = side(tmp_path / "after", {"QM1": HOST})
    md = plan(str(before), str(after), "-o", "markdown")
    assert md.exit_code == 1
    assert (
        "### Step 1 on QM1 (`01-QM1.mqsc`)" in md.stdout and "| lost | S3 | QM3 | QM1 | /T/x |" in md.stdout
    )
    bad = plan(str(before))
    assert bad.exit_code == 2 and bad.stderr.startswith("mqctl: error:") and len(bad.stderr.splitlines()) == 1
    missing = plan(str(before), str(tmp_path / "nowhere"))
    assert missing.exit_code == 2 and len(missing.stderr.splitlines()) == 1


def test_reconcile_checks_captures_against_a_step_of_the_plan(
    cli: Cli, store_url: str, tmp_path: Path
) -> None:
    """The captures show the new host's definition once step 1 has landed: against step 1 nothing is
    amiss; against BEFORE (step 0) the cluster topic is known from a queue manager that does not define it."""
    before = side(tmp_path / "before", {"QM1": HOST})
    after = side(tmp_path / "after", {"QM2": HOST})
    out = tmp_path / "out"
    result = plan(str(before), str(after), "--out", str(out), "-o", "json")
    assert result.exit_code == 0
    saved = tmp_path / "plan.json"
    saved.write_text(result.stdout)
    assert cli("import", "mqsc", str(before)).exit_code == 0
    assert cli("runmqsc", "QM2", str(out / "01-QM2.mqsc")).exit_code == 0
    shown = cli("runmqsc", "QM3", stdin="DISPLAY TCLUSTER(*) ALL\n")
    assert shown.exit_code == 0, shown.stdout + shown.stderr
    capture = tmp_path / "QM3.txt"
    records = shown.stdout.split("\n:\n")[0]  # the records, then runmqsc's own closing lines
    capture.write_text(
        records + "\n1 MQSC commands read.\nNo commands have a syntax error.\n"
        "All valid MQSC commands were processed.\n"
    )
    assert cli("import", "display", "--qmgr", "QM3", str(capture)).exit_code == 0, capture.read_text()

    def found(step: str) -> set[str]:
        answer = cli("reconcile", "--plan", str(saved), "--step", step, "-o", "json", "--fail-on", "info")
        assert answer.exit_code in (0, 1), answer.stderr
        return {f["code"] for f in answer.json()["findings"]}  # type: ignore[index]

    assert "CLUSTER_TOPIC_FOREIGN_HOST" not in found("1")
    assert "CLUSTER_TOPIC_FOREIGN_HOST" in found("0")
    bad = cli("reconcile", "--plan", str(saved), "--step", "9")
    assert bad.exit_code == 2 and "--step" in bad.stderr
    alone = cli("reconcile", "--step", "1")
    assert alone.exit_code == 2


def test_diff_names_a_change_refused_as_one_step_at_its_line(tmp_path: Path) -> None:
    before = side(tmp_path / "before", {"QM1": DIRECT})
    after = side(tmp_path / "after", {"QM1": HOST})
    report = run_cli(["diff", str(before), str(after), "-o", "json"]).json()
    assert isinstance(report, dict)
    [refused] = [f for f in report["findings"]["introduced"] if f["id"] == "MQD005"]
    assert refused["code"] == "REFUSED_AS_ONE_STEP" and "mqctl plan" in refused["message"]
    sarif = run_cli(["diff", str(before), str(after), "-o", "sarif"]).json()
    assert isinstance(sarif, dict)
    [result] = [r for r in sarif["runs"][0]["results"] if r["ruleId"] == "MQD005"]
    location = result["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"].endswith("QM1.mqsc")
    assert location["region"]["startLine"] == 4  # the DEFINE TOPIC line, after the channel, REPOS, SUB
    plain = side(tmp_path / "plain", {"QM1": DIRECT.replace("CLUSTER(C) ", "")})
    quiet = run_cli(
        [
            "diff",
            str(plain),
            str(side(tmp_path / "plain2", {"QM1": HOST.replace("CLUSTER(C) ", "")})),
            "-o",
            "json",
        ]
    ).json()
    assert isinstance(quiet, dict)
    assert not [f for f in quiet["findings"]["introduced"] if f["id"] == "MQD005"]  # not clustered: allowed


def test_diff_blames_each_lost_delivery_on_its_own_change(tmp_path: Path) -> None:
    """QM3 leaves the cluster (its channel removed), T's CLROUTE is flipped on QM1 and topic object U is
    deleted on QM2, at once: S3 on
    QM3 loses /T/x because of the channel, S1 on QM1 loses /U/x from QM2 because of U — each SARIF
    result at its own change's line (both removed: the lines of BEFORE's files)."""
    u = "DEFINE TOPIC(U) TOPICSTR('/U') CLUSTER(C)\n"
    before = side(
        tmp_path / "before", {"QM1": DIRECT + "DEFINE SUB(SU) TOPICSTR('/U/x') DEST(Q)\n", "QM2": u}
    )
    after = side(  # and T's CLROUTE flipped on QM1, which alone loses nothing (QM1 hosts it)
        tmp_path / "after", {"QM1": HOST + "DEFINE SUB(SU) TOPICSTR('/U/x') DEST(Q)\n"}, dict(HEAD, QM3="")
    )
    sarif = run_cli(["diff", str(before), str(after), "-o", "sarif"]).json()
    assert isinstance(sarif, dict)
    where: dict[tuple[str, str], tuple[str, int]] = {}
    for r in sarif["runs"][0]["results"]:
        if r["ruleId"] != "MQD001":
            continue
        location = r["locations"][0]["physicalLocation"]
        text = r["message"]["text"]
        where[(text.split()[1], text.split(" by ")[1].split()[0])] = (
            Path(location["artifactLocation"]["uri"]).name,
            location["region"]["startLine"],
        )
    assert where[("S3", "QM1")] == ("QM3.mqsc", 1)  # the cluster-receiver channel QM3 no longer has
    assert where[("SU", "QM2")] == ("QM2.mqsc", 3)  # DEFINE TOPIC(U), after the channel and REPOS lines


def test_diff_markdown_groups_by_cause_names_every_publisher_and_draws_one_picture_per_cause(
    tmp_path: Path,
) -> None:
    from tests.render.mermaid_grammar import parse

    u = "DEFINE TOPIC(U) TOPICSTR('/U') CLUSTER(C)\n"
    su = "DEFINE SUB(SU) TOPICSTR('/U/x') DEST(Q)\n"
    before = side(tmp_path / "before", {"QM1": DIRECT + su, "QM2": u})
    after = side(tmp_path / "after", {"QM1": HOST + su}, dict(HEAD, QM3=""))
    md = run_cli(["diff", str(before), str(after), "-o", "markdown"]).stdout
    assert "(+" not in md  # nothing folded
    assert "Because of **removed channel C.QM3 at QM3" in md and "Because of **removed topic U at QM2" in md
    # S3 on QM3 loses from both other queue managers: both named on its row
    [row] = [line for line in md.splitlines() if line.startswith("| S3 | QM3 | lost |")]
    assert "QM1" in row and "QM2" in row
    blocks = md.split("```mermaid\n")[1:]
    headings = [line for line in md.splitlines() if line.startswith("#### Changed paths because of ")]
    assert len(blocks) == len(headings) == len({h for h in headings}) >= 2  # one picture per cause
    for block in blocks:
        parse(block.split("```", 1)[0])


def yaml_side(folder: Path, qm1_extra: str) -> Path:
    """QM1 from a Kubernetes YAML (a QueueManager mounting its MQSC from a ConfigMap: auto-configuration,
    applied at every start), QM2 and QM3 from MQSC files."""
    side(folder, {})
    (folder / "QM1.mqsc").unlink()
    mqsc = (
        (HEAD["QM1"] + SUBS["QM1"] + qm1_extra)
        .replace("\n", " REPLACE\n")
        .replace("REPOS(C) REPLACE", "REPOS(C)")
    )
    body = "".join(f"    {line}\n" for line in mqsc.splitlines())
    (folder / "qm1.yaml").write_text(
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: qm1-mqsc\ndata:\n  qm1.mqsc: |\n"
        + body
        + "---\napiVersion: mq.ibm.com/v1beta1\nkind: QueueManager\nmetadata:\n  name: qm1\nspec:\n"
        "  queueManager:\n    name: QM1\n    mqsc:\n    - configMap:\n        name: qm1-mqsc\n"
        "        items:\n        - qm1.mqsc\n"
    )
    return folder


def test_a_step_on_a_queue_manager_from_auto_configuration_files_needs_a_restart(tmp_path: Path) -> None:
    before = yaml_side(tmp_path / "before", HOST)
    after = yaml_side(tmp_path / "after", "")
    (after / "QM2.mqsc").write_text(HEAD["QM2"] + SUBS["QM2"] + HOST)
    result = plan(str(before), str(after), "-o", "json")
    assert result.exit_code == 0, result.stderr + result.stdout
    got = steps(result)
    assert [(s["node"], s["restart"]) for s in got] == [("QM2", False), ("QM1", True)]
    assert got[1]["commands"] == ["DELETE TOPIC('T')"]
    text = plan(str(before), str(after))
    words = " ".join(text.stdout.split())
    assert "lands when the pod restarts: QM1's MQSC comes from auto-configuration files" in words
    assert "QM2's MQSC" not in words
    md = plan(str(before), str(after), "-o", "markdown")
    assert (
        "### Step 2 on QM1 (`02-QM1.mqsc`) — restart" in md.stdout and "**Restart:** lands when" in md.stdout
    )


def two_paths(folder: Path, direct: str, west: str) -> Path:
    """ORD publishes to a durable on USA two ways: directly (zone Z1) and through WEST (into zone Z2 there);
    ``direct`` and ``west``: the outgoing selector of ORD's route to USA and of WEST's (empty: none)."""

    def route(peer: str, zone: str, selector: str = "") -> str:
        text = f"[{peer}]\nurl = tcp://{peer.lower()}:7222\nzone_name = {zone}\nzone_type = 1hop\n"
        return text + (f'outgoing_topic=orders selector="{selector}"\n' if selector else "") + "\n"

    for server, routes, durables in (
        ("ORD", route("USA", "Z1", direct) + route("WEST", "Z1"), ""),
        ("WEST", route("ORD", "Z1") + route("USA", "Z2", west), ""),
        ("USA", route("ORD", "Z1") + route("WEST", "Z2"), "orders BILLING\n"),
    ):
        home = folder / "ems" / server
        home.mkdir(parents=True)
        (home / "tibemsd.conf").write_text(
            f"server = {server}\ntopics = topics.conf\nroutes = routes.conf\ndurables = durables.conf\n"
        )
        (home / "topics.conf").write_text("orders global\n")
        (home / "routes.conf").write_text(routes)
        (home / "durables.conf").write_text(durables)
    return folder


def test_route_selectors_are_widened_before_they_are_narrowed(tmp_path: Path) -> None:
    """The filtering moves from WEST's route to ORD's direct one: narrowing ORD's first (the naive order,
    by name) would drop ORD's publications that only the direct path let through (country <> 'USA')
    while WEST still filters them; widening WEST's first lets them through both ways meanwhile."""
    before = two_paths(tmp_path / "before", "", "country='USA'")
    after = two_paths(tmp_path / "after", "country='USA'", "")
    result = plan(str(before), str(after), "-o", "json")
    assert result.exit_code == 0, result.stderr + result.stdout
    got = steps(result)
    assert [(s["node"], s["commands"]) for s in got] == [
        ("WEST", ["removeprop route USA outgoing_topic=orders"]),
        ("ORD", ["addprop route USA outgoing_topic=orders selector=\"country='USA'\""]),
    ]
    assert all(s["lost"] == [] for s in got)
    data = result.json()
    assert isinstance(data, dict)
    assert data["naive"]["order"] == ["ORD", "WEST"] and data["naive"]["lost"] > 0
