"""Issue 25, "an administrator's first hour": nothing half-written, nothing crashes — each item through
the real CLI, on SQLite and PostgreSQL."""

from __future__ import annotations

import contextlib
import os
import resource
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result, run_cli
from tests.helpers import dump_store
from tests.store.test_door_properties import _fresh
from tests.store.test_one_model import ok, refused
from tests.store.test_snapshot import _fix_checksum

Cli = Callable[..., Result]

HUGE = "1" * 5000
DEEP = "[" * 200_000 + "]" * 200_000


def _in_manifest(value: str) -> Callable[[Path], None]:
    def change(folder: Path) -> None:
        path = folder / "manifest.json"
        path.write_text(path.read_text().replace('"format"', f'"extra": {value}, "format"', 1))

    return change


def _in_a_row(value: str) -> Callable[[Path], None]:
    def change(folder: Path) -> None:
        path = folder / "nodes.json"
        line = path.read_text().splitlines()[0]
        path.write_text(line.replace('"seq":', f'"seq":{value},"x":', 1) + "\n")
        _fix_checksum(folder, "nodes.json")

    return change


BOUNDS = [
    (_in_manifest(HUGE), ("snapshot manifest.json", "number longer than 4300 digits")),
    (_in_manifest(DEEP), ("snapshot manifest.json", "nests arrays or objects too deeply")),
    (_in_a_row(HUGE), ("snapshot nodes.json row 1", "number longer than 4300 digits")),
    (_in_a_row(DEEP), ("snapshot nodes.json row 1", "nests arrays or objects too deeply")),
]


@pytest.mark.parametrize(
    ("damage", "words"), BOUNDS, ids=["manifest-digits", "manifest-depth", "row-digits", "row-depth"]
)
def test_a_huge_number_or_a_deep_nesting_in_a_snapshot_is_refused_in_one_line(
    cli: Cli, store_url: str, tmp_path: Path, damage: Callable[[Path], None], words: tuple[str, ...]
) -> None:
    ok(cli("define", "qmgr", "QM1"))
    folder = tmp_path / "snap"
    ok(cli("export", "snapshot", "--out", str(folder), "--format", "json"))
    damage(folder)
    url = _fresh(store_url, tmp_path, "target")
    ok(run_cli(["db", "upgrade"], db=url))
    before = dump_store(url)
    result = run_cli(["import", "snapshot", str(folder)], db=url)
    refused(result, *words)
    assert len(result.stderr.strip().splitlines()) == 1
    assert dump_store(url) == before


# -- exports are atomic: a full disk or a refusal leaves the folder as it was ----------------------------


def _with_a_full_disk(args: list[str], db: str, limit: int) -> subprocess.CompletedProcess[str]:
    """``mqctl ARGS`` in a child process that may write no file beyond ``limit`` bytes (RLIMIT_FSIZE: the
    write fails with EFBIG as it would with ENOSPC on a full disk; needs no privilege, binds root too)."""

    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    with contextlib.ExitStack() as held:
        if db.startswith("sqlite:///"):  # its -wal and -shm files exist already: the read grows no file
            conn = held.enter_context(contextlib.closing(sqlite3.connect(db.removeprefix("sqlite:///"))))
            conn.execute("SELECT count(*) FROM nodes").fetchall()
        return subprocess.run(
            [sys.executable, "-m", "mqctl", "--db", db, *args],
            capture_output=True,
            text=True,
            env=env,
            preexec_fn=limited,  # noqa: PLW1509 - no threads started in the child before exec
            check=False,
            timeout=120,
        )


def _folder(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def _refused_in_one_line(done: subprocess.CompletedProcess[str], *words: str) -> None:
    assert done.returncode == 2, (done.stdout, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("mqctl: error: "), done.stderr
    for word in words:
        assert word in lines[0], (word, lines[0])


def test_export_mqsc_onto_a_full_disk_leaves_the_earlier_file(
    cli: Cli, store_url: str, tmp_path: Path
) -> None:
    ok(cli("define", "qmgr", "QM1"))
    out = tmp_path / "mq"
    ok(cli("export", "mqsc", "QM1", "--out", str(out)))
    before = _folder(out)
    for n in range(40):
        ok(cli("define", "topic", f"T{n}", "--qmgr", "QM1", "--topicstr", f"/orders/{n}"))
    done = _with_a_full_disk(["export", "mqsc", "QM1", "--out", str(out)], store_url, 2000)
    _refused_in_one_line(done, "QM1.mqsc", "cannot write", "nothing was written")
    assert _folder(out) == before  # the earlier export whole, no temporary file left


def test_export_snapshot_onto_a_full_disk_leaves_the_earlier_snapshot(
    cli: Cli, store_url: str, tmp_path: Path
) -> None:
    ok(cli("define", "qmgr", "QM1"))
    out = tmp_path / "snap"
    ok(cli("export", "snapshot", "--out", str(out)))
    before = _folder(out)
    ok(cli("define", "topic", "T", "--qmgr", "QM1", "--topicstr", "/orders"))
    done = _with_a_full_disk(
        ["export", "snapshot", "--out", str(out), "--force", "--format", "json"], store_url, 200
    )
    _refused_in_one_line(done, "cannot write", "nothing was written")
    assert _folder(out) == before
    fresh = tmp_path / "fresh"
    done = _with_a_full_disk(["export", "snapshot", "--out", str(fresh)], store_url, 200)
    _refused_in_one_line(done, "cannot write")
    assert not fresh.exists()  # the folder it created is gone with its files


def test_a_refused_export_snapshot_keeps_the_earlier_manifest(cli: Cli, tmp_path: Path) -> None:
    ok(cli("define", "qmgr", "QM1"))
    out = tmp_path / "snap"
    ok(cli("export", "snapshot", "--out", str(out)))
    elsewhere = tmp_path / "elsewhere.parquet"
    elsewhere.write_bytes((out / "nodes.parquet").read_bytes())
    (out / "nodes.parquet").unlink()
    (out / "nodes.parquet").symlink_to(elsewhere)
    before = _folder(out)
    refused(cli("export", "snapshot", "--out", str(out), "--force"), "nodes.parquet", "outside")
    assert _folder(out) == before and (out / "manifest.json").is_file()
    (out / "nodes.parquet").unlink()
    ok(cli("export", "snapshot", "--out", str(out), "--force", "--format", "json"))
    names = sorted(_folder(out))
    assert "nodes.json" in names and "manifest.json" in names
    assert not [n for n in names if n.endswith(".parquet") or n.endswith(".tmp")], names


# -- reads never write ------------------------------------------------------------------------------------

READS = [
    ["display", "qmgr"],
    ["display", "topic", "*", "-o", "json"],
    ["graph"],
    ["explain", "--from", "QM1", "--topic", "/a"],
    ["validate"],
    ["export", "mqsc", "--all"],
]


@pytest.mark.parametrize("args", READS, ids=[" ".join(a[:2]) for a in READS])
def test_a_read_of_a_store_without_schema_creates_nothing_and_says_run_db_upgrade(
    empty_store_url: str, args: list[str]
) -> None:
    store_url = empty_store_url
    before = dump_store(store_url) if not store_url.startswith("sqlite") else None
    result = run_cli(args, db=store_url)
    assert result.exit_code == 3, (result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "run `mqctl db upgrade`" in lines[0], result.stderr
    if store_url.startswith("sqlite"):
        assert not Path(store_url.removeprefix("sqlite:///")).exists()
    else:
        assert dump_store(store_url) == before == {}
    current = run_cli(["db", "current"], db=store_url)
    assert current.exit_code == 1 and "run `mqctl db upgrade`" in current.stdout
    ok(run_cli(["define", "qmgr", "QM1"], db=store_url))  # a write creates it at head
    assert run_cli(args, db=store_url).exit_code in (0, 1)


def test_an_empty_sqlite_file_is_not_given_a_schema_by_a_read(tmp_path: Path) -> None:
    path = tmp_path / "empty.db"
    path.touch()
    result = run_cli(["display", "qmgr"], db=f"sqlite:///{path}")
    assert result.exit_code == 3 and "is empty: run `mqctl db upgrade`" in result.stderr
    assert dump_store(f"sqlite:///{path}") == {}


def test_the_default_store_is_created_by_a_write_in_a_folder_of_its_owner_only(tmp_path: Path) -> None:
    import stat

    from mqctl.store.engine import default_store_path

    path = default_store_path()
    assert run_cli(["display", "qmgr"]).exit_code == 3
    assert not path.parent.exists()  # a read creates neither the file nor its folder
    ok(run_cli(["define", "qmgr", "QM1"]))
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


# -- EMS server names are folder names -------------------------------------------------------------------


@pytest.mark.parametrize("name", ["a/b", "/abs", "a\\b", "..", "../x"])
def test_an_ems_server_name_that_is_not_one_folder_name_is_refused_at_every_door(
    cli: Cli, store_url: str, tmp_path: Path, name: str
) -> None:
    ok(cli("define", "qmgr", "E1", "--dialect", "ems"))
    before = dump_store(store_url)
    refused(cli("define", "qmgr", name, "--dialect", "ems"), f"server {name}")
    refused(cli("define", "route", name, "--qmgr", "E1", "--url", "tcp://x:7222"), f"server {name}")
    conf = tmp_path / "ems"
    conf.mkdir()
    (conf / "tibemsd.conf").write_text(f"server = {name}\ntopics = topics.conf\n")
    (conf / "topics.conf").write_text("orders.> global\n")
    assert cli("import", "ems", "--tibemsd", str(conf / "tibemsd.conf")).exit_code == 2
    assert dump_store(store_url) == before
    ok(cli("define", "qmgr", "E2", "--dialect", "ems"))
    out = tmp_path / "out"
    ok(cli("export", "ems", "--all", "--out", str(out)))
    assert sorted(p.name for p in out.iterdir()) == ["E1", "E2"]


# -- graph draws every cluster as itself --------------------------------------------------------------------


@pytest.mark.filterwarnings("ignore::pyparsing.warnings.PyparsingDeprecationWarning")
def _members(cli: Cli, members: dict[str, str]) -> None:
    """Queue managers, each a member of the comma-separated clusters named, by a CLUSRCVR channel each."""
    for qm, clusters in members.items():
        ok(cli("define", "qmgr", qm))
        for cluster in clusters.split(","):
            channel = f"TO.{qm}.{cluster}"
            ok(cli("define", "channel", channel, "--qmgr", qm, "--chltype", "clusrcvr", "--cluster", cluster))


def test_graph_of_overlapping_clusters_draws_each_cluster_with_its_members(cli: Cli) -> None:
    from tests.render.test_cluster_members import dot_members, mermaid_members

    _members(cli, {"FR1": "EU", "FR2": "EU", "NY1": "US", "GW": "EU,US", "TK1": "ASIA"})
    ok(cli("define", "topic", "LOST", "--qmgr", "TK1", "--topicstr", "/Lost", "--cluster", "GHOST"))
    want = {"EU": {"FR1", "FR2", "GW"}, "US": {"NY1", "GW"}, "ASIA": {"TK1"}}
    for fmt, read in (("mermaid", mermaid_members), ("dot", dot_members)):
        drawn, gateways = read(ok(cli("graph", "-o", fmt)).stdout)
        assert drawn == want and gateways == {"GW"}, fmt
    shown = ok(cli("graph", "-o", "json")).json()
    tk1 = next(b for b in shown["boxes"] if b["key"] == "TK1")
    assert "cluster topic LOST '/Lost' (GHOST, DIRECT), not a member of GHOST" in tk1["lines"]


# -- explain shows the hop to a topic host that reaches nobody ------------------------------------------


def _cluster_of_three(cli: Cli) -> None:
    for qm in ("QM1", "QM2", "QM3"):
        ok(cli("define", "qmgr", qm))
        ok(cli("define", "channel", f"TO.{qm}", "--qmgr", qm, "--chltype", "clusrcvr", "--cluster", "C1"))
    ok(
        cli(
            "define",
            "topic",
            "T",
            "--qmgr",
            "QM2",
            "--topicstr",
            "/a",
            "--cluster",
            "C1",
            "--clroute",
            "topichost",
        )
    )


def test_explain_tree_shows_the_hop_to_a_topic_host_that_reaches_no_subscriber(cli: Cli) -> None:
    _cluster_of_three(cli)
    shown = ok(cli("explain", "--from", "QM1", "--topic", "/a")).stdout
    assert "-> QM2  via topichost C1  reaches no subscriber" in shown
    assert "NO_SUBSCRIBERS_AT_HOST" in shown
    ok(cli("define", "sub", "LOCAL", "--qmgr", "QM1", "--topicstr", "/a"))  # a subscriber on the publisher
    shown = ok(cli("explain", "--from", "QM1", "--topic", "/a")).stdout
    assert (
        "delivered to sub LOCAL on QM1" in shown
        and "-> QM2  via topichost C1  reaches no subscriber" in shown
    )
    ok(cli("define", "sub", "FAR", "--qmgr", "QM3", "--topicstr", "/a"))
    shown = ok(cli("explain", "--from", "QM1", "--topic", "/a")).stdout
    assert "-> QM2  via topichost C1" in shown and "reaches no subscriber" not in shown


def test_no_path_names_the_hierarchy_links_that_exist_and_where_they_end(cli: Cli) -> None:
    for qm in ("QM1", "QM2"):
        ok(cli("define", "qmgr", qm))
        ok(cli("define", "channel", f"TO.{qm}", "--qmgr", qm, "--chltype", "clusrcvr", "--cluster", "C1"))
    ok(cli("define", "qmgr", "QM5"))
    ok(cli("define", "qmgr", "QM6", "--parent", "QM5"))
    ok(cli("define", "qmgr", "QM7"))
    ok(cli("define", "topic", "T", "--qmgr", "QM1", "--topicstr", "/a", "--cluster", "C1"))
    ok(cli("define", "sub", "S6", "--qmgr", "QM6", "--topicstr", "/a"))
    ok(cli("define", "sub", "S7", "--qmgr", "QM7", "--topicstr", "/a"))
    data = ok(cli("explain", "--from", "QM1", "--topic", "/a", "-o", "json")).json()
    details = {n["subscription"]: n["detail"] for n in data["not_delivered"]}  # type: ignore[index]
    assert details["S6"].endswith(
        "and the hierarchy links there (QM6->QM5) lead from QM6 to QM5 only, none of them a member of cluster C1."
    )
    assert details["S7"].endswith("and no hierarchy link leads there either.")


# -- what mqctl writes reads back without a word; the counts add up to what is named ------------------------


def test_an_export_reads_back_with_nothing_not_modelled(cli: Cli, store_url: str, tmp_path: Path) -> None:
    ok(cli("define", "qmgr", "QM1"))
    ok(cli("define", "topic", "T", "--qmgr", "QM1", "--topicstr", "/a"))
    dump = ok(cli("export", "mqsc", "QM1")).stdout
    assert "TYPE(LOCAL)" in dump
    (tmp_path / "QM1.mqsc").write_text(dump)
    url = _fresh(store_url, tmp_path, "again")
    shown = ok(run_cli(["import", "mqsc", str(tmp_path / "QM1.mqsc")], db=url)).stdout
    assert "0 not modelled, 0 attributes not modelled, 0 skipped\n" in shown, shown
    again = ok(run_cli(["runmqsc", "QM1", str(tmp_path / "QM1.mqsc")], db=url)).stdout
    assert "0 attributes not modelled and ignored." in again and "Not modelled:" not in again


def test_the_not_modelled_counts_add_up_to_what_is_named(cli: Cli) -> None:
    ok(cli("define", "qmgr", "QM1"))
    script = "DEFINE QLOCAL(Q1)\nDEFINE TOPIC(T) TOPICSTR('/a') NPMSGDLV(ALL) DEFPSIST(YES)\nDEFINE TOPIC(U) TOPICSTR('/u') TYPE(LOCAL)\n"
    shown = ok(cli("runmqsc", "QM1", stdin=script)).stdout
    assert (
        "1 command not modelled by mqctl and skipped; 0 skipped for an insert with no value; "
        "2 attributes not modelled and ignored." in shown
    ), shown
    assert "Not modelled: DEFINE QLOCAL (1), DEFPSIST on TOPIC (1), NPMSGDLV on TOPIC (1)." in shown


# -- a selector error: one position, one sentence -------------------------------------------------------


def test_an_unclosed_string_in_a_selector_is_one_position_in_one_sentence(cli: Cli) -> None:
    result = cli("selector", "test", "country = 'UK")
    line = refused(result, "the string literal at column 11 has no closing ' before the end of the selector")
    assert line.count("column") == 1 and "found" not in line
    ok(cli("define", "qmgr", "QM1"))
    line = refused(cli("define", "sub", "S", "--qmgr", "QM1", "--topicstr", "/a", "--selector", "x = 'a''b"))
    assert line.count("column") == 1 and "column 5 has no closing '" in line


# -- import ems names what it does not model, and a file given in the wrong place ---------------------------

FACTORIES = """\
[ConnectionFactory]
  type                  = generic
  url                   = tcp://localhost:7222

[TopicConnectionFactory]
  type                  = topic
  url                   = tcp://localhost:7222
"""


def test_import_ems_names_the_settings_it_does_not_model(cli: Cli, tmp_path: Path) -> None:
    (tmp_path / "tibemsd.conf").write_text(
        "server = E9\ntopics = topics.conf\nqueues = queues.conf\nusers = users.conf\nfactories = factories.conf\n"
    )
    (tmp_path / "topics.conf").write_text("orders.> global\n")
    shown = ok(cli("import", "ems", "--tibemsd", str(tmp_path / "tibemsd.conf"))).stdout
    assert (
        "3 settings not modelled (queues = queues.conf; users = users.conf; factories = factories.conf)"
        in shown
    )
    data = ok(cli("import", "ems", "--tibemsd", str(tmp_path / "tibemsd.conf"), "-o", "json")).json()
    assert data["not_modelled"] == 3  # type: ignore[index]
    assert data["not_modelled_settings"] == [  # type: ignore[index]
        "queues = queues.conf",
        "users = users.conf",
        "factories = factories.conf",
    ]


@pytest.mark.parametrize(
    ("text", "kind", "line"),
    [
        (FACTORIES, "factories.conf", 1),
        ("# routes\n[E2]\nurl = tcp://e2:7222\nzone_name = z\n", "routes.conf", 2),
        ("server = E1\nlisten = tcp://7222\ntopics = topics.conf\n", "tibemsd.conf", 1),
    ],
)
def test_another_ems_file_given_as_topics_is_named(
    cli: Cli, store_url: str, tmp_path: Path, text: str, kind: str, line: int
) -> None:
    path = tmp_path / kind
    path.write_text(text)
    ok(cli("define", "qmgr", "E8", "--dialect", "ems"))
    before = dump_store(store_url)
    refused(
        cli("import", "ems", "--server", "E8", "--topics", str(path)),
        f"{kind}:{line}:1: this is not a topics.conf (it looks like {kind})",
    )
    assert dump_store(store_url) == before


def test_reference_001_sport_wildcard_on_the_gateway_is_wildcard_above_cluster(cli: Cli) -> None:
    """docs/semantics.md explains this case: the reason and sentence it describes are what explain says."""
    _members(cli, {"QM1": "C1", "QM2": "C1", "QM3": "C1,C2", "QM4": "C2", "QM5": "C2"})
    ok(cli("define", "topic", "TB", "--qmgr", "QM1", "--topicstr", "/Sport/Football", "--cluster", "C1"))
    ok(cli("define", "topic", "TC", "--qmgr", "QM4", "--topicstr", "/Sport/Tennis", "--cluster", "C2"))
    ok(cli("define", "sub", "ALL", "--qmgr", "QM3", "--topicstr", "/Sport/#"))
    data = ok(cli("explain", "--from", "QM4", "--topic", "/Sport/Tennis", "-o", "json")).json()
    (miss,) = data["not_delivered"]  # type: ignore[index]
    assert miss["reason"] == "WILDCARD_ABOVE_CLUSTER" and "above the clustered point" in miss["detail"]


# -- runmqsc: an unknown keyword or a bad enumeration value is a syntax error -----------------------------


def test_runmqsc_counts_unknown_keywords_and_bad_values_as_syntax_errors(cli: Cli, store_url: str) -> None:
    script = (
        "DEFINE TOPIC(X) TOPICSTR('/x') BOGUS(1)\n"
        "DEFINE TOPIC(Y) TOPICSTR('/y') CLROUTE(SIDEWAYS)\n"
        "DEFINE TOPIC(Z) TOPICSTR('/z')\n"
        "DEFINE TOPIC(W) TOPICSTR('/z')\n"
    )
    ok(cli("define", "qmgr", "QM1"))
    before = dump_store(store_url)
    result = cli("runmqsc", "QM1", stdin=script)
    assert result.exit_code == 2 and dump_store(store_url) == before
    out = result.stdout.splitlines()
    assert out[1].startswith("AMQ8405I: Syntax error detected: <stdin>:1:32: unknown parameter BOGUS")
    assert out[3].startswith("AMQ8405I: Syntax error detected: <stdin>:2:40: CLROUTE: 'SIDEWAYS'")
    assert "2 commands have a syntax error." in out
    # W (TOPICSTR already used) failed and Z, valid, was not applied: neither was processed (issue 37)
    assert "2 valid MQSC commands could not be processed." in out
    assert "All valid MQSC commands were processed." not in out
    assert out[-1].startswith("The script is rejected")
    kept = cli("runmqsc", "QM1", "--continue", stdin=script)
    assert kept.exit_code == 1
    shown = ok(cli("display", "topic", "*", "--qmgr", "QM1", "-o", "json")).json()
    assert [t["name"] for t in shown] == ["Z"]  # type: ignore[index]
