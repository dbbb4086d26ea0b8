"""runmqsc, tibemsadmin, import and export through the real entry point, on SQLite and PostgreSQL.

The command contract is docs/cli.md and README.md ("Your real files"); exit codes 0/1/2 as runmqsc
answers. The corpus (``shared/corpus``) is read in place, never copied into the repository.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import SHARED, Result, _reset_pg, fresh_store, needs_shared
from tests.helpers import dump_store, ok, refused

Cli = Callable[..., Result]

CORPUS = SHARED / "corpus"
MQSC_FILES = sorted((CORPUS / "mqsc").glob("*.mqsc")) if (CORPUS / "mqsc").is_dir() else []
EMS_SERVERS = sorted((CORPUS / "ems").glob("*/*/tibemsd.conf")) if (CORPUS / "ems").is_dir() else []
EMS_EXAMPLES = ("chain", "orders-central", "regions")
needs_mqsc = needs_shared("corpus", "mqsc")
needs_ems = needs_shared("corpus", "ems")

MQ_KINDS = ("qmgr", "topic", "sub", "namelist", "channel")
EMS_KINDS = ("topic", "route", "sub")


def strip_seq(value: Any) -> Any:
    """JSON with every `seq` removed (definition sequences differ between two loads of one model)."""
    if isinstance(value, dict):
        return {k: strip_seq(v) for k, v in value.items() if k != "seq"}
    if isinstance(value, list):
        return [strip_seq(v) for v in value]
    return value


def model(cli: Cli, kinds: tuple[str, ...]) -> dict[str, Any]:
    """`display KIND -o json` of each kind (an empty list when nothing is displayed), without `seq`."""
    out = {}
    for kind in kinds:
        result = cli("display", kind, "-o", "json")
        assert result.exit_code in (0, 1), result.stderr
        out[kind] = strip_seq(result.json())
    return out


def empty_store(url: str) -> None:
    """Make the parametrised store empty again (a second, fresh store of the same database kind)."""
    if url.startswith("sqlite:///"):
        fresh_store(url, Path(url.removeprefix("sqlite:///")))
    else:
        _reset_pg(url)


def summary_counts(stdout: str) -> tuple[int, int, int]:
    """(read, not modelled, skipped for an insert) from runmqsc's closing summary."""
    read = re.search(r"^(\d+) MQSC commands? read\.$", stdout, re.M)
    rest = re.search(r"^(\d+) commands? not modelled by mqctl and skipped; (\d+) skipped", stdout, re.M)
    assert read and rest, stdout[-800:]
    return int(read.group(1)), int(rest.group(1)), int(rest.group(2))


# -- runmqsc on the real corpus ------------------------------------------------------------------


@needs_mqsc
@pytest.mark.parametrize("path", MQSC_FILES, ids=lambda p: p.name[:50])
def test_every_corpus_mqsc_file_applies(cli: Cli, path: Path) -> None:
    """Every real file applies; the summary counts commands like runmqsc, not-modelled ones included."""
    result = ok(cli("runmqsc", "QM1", str(path), "--create"))
    read, not_modelled, skipped = summary_counts(result.stdout)
    assert read > 0 and not_modelled > 0
    assert "No commands have a syntax error." in result.stdout
    warnings = result.stderr.splitlines()
    assert len(warnings) == skipped
    for line in warnings:  # an insert without a value: skipped with a warning naming file and line
        assert line.startswith(f"mqctl: warning: {path}:") and "without a value" in line
    inserts = ["--set", "AUTOCL=UC", "--set", "CONNAME=host", "--set", "MQ_SERVER_PID=1"]
    every = ok(cli("runmqsc", "QM2", str(path), "--create", *inserts))
    again, again_not_modelled, again_skipped = summary_counts(every.stdout)
    assert (again, again_skipped, every.stderr) == (read, 0, "")
    assert (
        not_modelled <= again_not_modelled <= not_modelled + skipped
    )  # a skipped DEFINE SERVICE is counted now


@needs_mqsc
def test_inserts_with_and_without_set(cli: Cli) -> None:
    """`+VAR+` inserts: skipped with a warning without --set, substituted with it (QMNAME is the qmgr)."""
    path = CORPUS / "mqsc" / "mq-uniform-clusters__pubsub__simple-admin__QMConfig__UniCluster.mqsc"
    bare = ok(cli("runmqsc", "QM1", str(path), "--create"))
    assert summary_counts(bare.stdout)[2] == 1 and "+AUTOCL+" in bare.stderr
    assert cli("display", "channel", "-o", "json").exit_code == 1
    sub = cli("display", "sub", "TESTSUB", "--qmgr", "QM1", "-o", "json").json()
    assert isinstance(sub, list) and sub[0]["topicstr"] == "demo/testtopic"

    done = ok(
        cli(
            "runmqsc",
            "QM2",
            str(path),
            "--create",
            "--set",
            "AUTOCL=UNICLUSTER",
            "--set",
            "CONNAME=qm2.example",
        )
    )
    assert summary_counts(done.stdout)[2] == 0 and done.stderr == ""
    channel = cli("display", "channel", "-o", "json").json()
    assert isinstance(channel, list)
    assert [(c["name"], c["qmgr"], c["cluster"]) for c in channel] == [
        ("UNICLUSTER.QM2", "QM2", "UNICLUSTER")
    ]
    qmgr = cli("display", "qmgr", "QM2", "-o", "json").json()
    assert isinstance(qmgr, list) and qmgr[0]["clusters"] == ["UNICLUSTER"]


# -- runmqsc exit codes -----------------------------------------------------------------------------


def test_runmqsc_exit_codes(cli: Cli, store_url: str, tmp_path: Path) -> None:
    """0 all processed; 2 rejected, store unchanged, error names file:line:col; 1 with --continue."""
    ok(cli("runmqsc", "QM1", "--create", stdin="DEFINE TOPIC(BASE) TOPICSTR('base')\n"))
    script = tmp_path / "two.mqsc"
    script.write_text("DEFINE TOPIC(A) TOPICSTR('a')\nDEFINE TOPIC(B) TOPICSTR('b') CLROUTE(SIDEWAYS)\n")
    before = dump_store(store_url)
    rejected = cli("runmqsc", "QM1", str(script))
    assert "CLROUTE" in refused(rejected, at=f"{script}:2:39: ")
    assert "2 MQSC commands read." in rejected.stdout
    assert dump_store(store_url) == before

    partial = cli("runmqsc", "QM1", str(script), "--continue")
    assert partial.exit_code == 1, partial.stderr
    assert "1 command(s) failed" in partial.stderr and f"{script}:2:39" in partial.stderr
    topics = cli("display", "topic", "-o", "json").json()
    assert isinstance(topics, list) and [t["name"] for t in topics] == ["A", "BASE"]


def test_runmqsc_qmgr_must_exist_unless_create(cli: Cli, store_url: str) -> None:
    """Without --create an unknown queue manager is bad input (exit 2); an EMS server is not a qmgr."""
    ok(cli("define", "qmgr", "EMS1", "--dialect", "ems"))
    before = dump_store(store_url)
    line = refused(cli("runmqsc", "QM9", stdin="DEFINE TOPIC(T) TOPICSTR('t')\n"), at="qmgr QM9")
    assert "--create" in line
    refused(cli("runmqsc", "EMS1", stdin="DEFINE TOPIC(T) TOPICSTR('t')\n"), at="node EMS1")
    refused(cli("runmqsc", "BAD-NAME", "--create", stdin="DEFINE TOPIC(T) TOPICSTR('t')\n"))
    assert dump_store(store_url) == before


def test_runmqsc_reads_standard_input(cli: Cli) -> None:
    """Without FILE the script comes from standard input; a rejected --create creates nothing."""
    result = ok(cli("runmqsc", "QM1", "--create", stdin="DEFINE TOPIC(T) TOPICSTR('t')\nDIS TOPIC(T)\n"))
    assert "2 MQSC commands read." in result.stdout and "TOPICSTR(t)" in result.stdout
    ok(cli("runmqsc", "QM1", "-", stdin="DEFINE TOPIC(U) TOPICSTR('u')\n"))
    assert cli("display", "topic", "U", "--qmgr", "QM1").exit_code == 0
    assert cli("runmqsc", "QM2", "--create", stdin="DEFINE TOPIC(T) TOPICSTR('t) \n").exit_code == 2
    assert cli("display", "qmgr", "QM2").exit_code == 1


# -- import mqsc ------------------------------------------------------------------------------------

DUMP_HEADER = (
    "* Script generated on 2026-11-22   at 10.00.00\n* Script generated by user 'mqm' on host 'h'\n"
    "* Queue manager name: {qmgr}\n* Queue manager platform: UNIX\n"
)


def write_estate(folder: Path) -> Path:
    """A dmpmqcfg dump whose file name is not a qmgr name, and a plain script named after its qmgr."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "synthetic-a.mqsc").write_text(
        DUMP_HEADER.format(qmgr="QMA")
        + "DEFINE CHANNEL(TO.QMA) CHLTYPE(CLUSRCVR) CLUSTER(CL1) CONNAME('qma(1414)') REPLACE\n"
        + "DEFINE TOPIC(SPORT) TOPICSTR('/Sport') CLUSTER(CL1) REPLACE\nDEFINE QLOCAL(Q1) REPLACE\n"
    )
    (folder / "QMB.mqsc").write_text(
        "DEFINE CHANNEL(TO.QMB) CHLTYPE(CLUSRCVR) CLUSTER(CL1) REPLACE\n"
        "DEFINE SUB(S) TOPICSTR('/Sport/#') DEST(Q) REPLACE\n"
    )
    return folder


def test_import_mqsc_folder(cli: Cli, tmp_path: Path) -> None:
    """A folder, one qmgr per file: the dump header names it, else the file name; -o json summary."""
    folder = write_estate(tmp_path / "dumps")
    result = ok(cli("import", "mqsc", str(folder), "-o", "json"))
    assert result.json() == [
        {"file": str(folder / "QMB.mqsc"), "qmgr": "QMB", "read": 2, "processed": 2, "not_modelled": 0,
         "attributes_not_modelled": 0, "skipped": 0},
        {"file": str(folder / "synthetic-a.mqsc"), "qmgr": "QMA", "read": 3, "processed": 2,
         "not_modelled": 1, "attributes_not_modelled": 0, "skipped": 0},
    ]  # fmt: skip
    cluster = cli("display", "cluster", "CL1", "-o", "json").json()
    assert isinstance(cluster, list) and cluster[0]["members"] == ["QMA", "QMB"]
    text = ok(cli("import", "mqsc", str(folder))).stdout
    assert "2 queue managers imported, 5 commands read." in text


def test_import_mqsc_bad_file_name_or_bad_file_imports_nothing(
    cli: Cli, store_url: str, tmp_path: Path
) -> None:
    """A file whose name is no qmgr name (and no header) -> exit 2 saying so; one bad file -> nothing."""
    ok(cli("define", "qmgr", "QM0"))
    before = dump_store(store_url)
    folder = write_estate(tmp_path / "named")
    (folder / "not-a-qmgr.mqsc").write_text("DEFINE TOPIC(T) TOPICSTR('t')\n")
    line = refused(cli("import", "mqsc", str(folder)), at=f"{folder / 'not-a-qmgr.mqsc'}")
    assert "name the file after its queue manager" in line
    assert dump_store(store_url) == before

    folder = write_estate(tmp_path / "broken")
    (folder / "ZZZ.mqsc").write_text("DEFINE TOPIC(T) +\n  TOPICSTR('t') +\n")
    refused(cli("import", "mqsc", str(folder)), at=f"{folder / 'ZZZ.mqsc'}:2:")
    assert dump_store(store_url) == before
    refused(cli("import", "mqsc", str(tmp_path / "nowhere")), at=f"{tmp_path / 'nowhere'}")


# -- export mqsc round trips ------------------------------------------------------------------------

RICH_QM1 = """\
DEFINE NAMELIST(CLUS) NAMES(CL2,CL3) DESCR('it''s mine')
DEFINE CHANNEL(TO.QM1) CHLTYPE(CLUSRCVR) CLUSTER(CL1) CONNAME('qm1(1414)')
DEFINE CHANNEL(TO.QM1B) CHLTYPE(CLUSRCVR) CLUSNL(CLUS)
DEFINE CHANNEL(TO.FR) CHLTYPE(CLUSSDR) CLUSTER(CL1) CONNAME('fr(1414)')
ALTER QMGR PARENT(QM0) REPOS(CL1) DESCR('hub')
DEFINE TOPIC(SPORT) TOPICSTR('/Sport') CLUSTER(CL1) CLROUTE(TOPICHOST) WILDCARD(BLOCK) PROXYSUB(FORCE)
DEFINE TOPIC(NEWS) TOPICSTR('News') PUBSCOPE(QMGR) SUBSCOPE(ALL) PUB(DISABLED) SUB(ENABLED)
DEFINE SUB(S1) TOPICOBJ(SPORT) TOPICSTR('Football/#') DEST(Q1) DESTQMGR(QM2) SELECTOR('x = ''y''')
DEFINE SUB('lower s') TOPICSTR('USA/*') WSCHEMA(CHAR) SUBSCOPE(QMGR)
DEFINE QLOCAL(Q1)
"""


def test_export_mqsc_then_runmqsc_into_an_empty_store(cli: Cli, store_url: str) -> None:
    """`export mqsc QM1` | `runmqsc QM1 --create` into an empty store gives the same model back."""
    ok(cli("runmqsc", "QM1", "--create", stdin=RICH_QM1))
    before = model(cli, MQ_KINDS)
    dump = ok(cli("export", "mqsc", "QM1")).stdout
    assert "* Queue manager name: QM1" in dump
    empty_store(store_url)
    ok(cli("runmqsc", "QM1", "--create", stdin=dump))
    assert model(cli, MQ_KINDS) == before


def test_export_all_then_import_folder(cli: Cli, store_url: str, tmp_path: Path) -> None:
    """`export mqsc --all --out DIR` then `import mqsc DIR` gives every queue manager back."""
    ok(cli("runmqsc", "QM1", "--create", stdin=RICH_QM1))
    ok(cli("runmqsc", "QM2", "--create", stdin="DEFINE CHANNEL(TO.QM2) CHLTYPE(CLUSRCVR) CLUSTER(CL1)\n"
           "DEFINE SUB(S2) TOPICSTR('/Sport/Football') SELECTOR('n > 3')\n"))  # fmt: skip
    ok(cli("define", "qmgr", "EMS1", "--dialect", "ems"))  # not exported by export mqsc
    before = model(cli, MQ_KINDS)
    out = tmp_path / "out"
    assert "3 queue managers written" in ok(cli("export", "mqsc", "--all", "--out", str(out))).stdout
    assert sorted(p.name for p in out.iterdir()) == ["QM0.mqsc", "QM1.mqsc", "QM2.mqsc"]
    empty_store(store_url)
    ok(cli("import", "mqsc", str(out)))
    before["qmgr"] = [q for q in before["qmgr"] if q["dialect"] == "mq"]
    assert model(cli, MQ_KINDS) == before


def test_export_bad_usage(cli: Cli) -> None:
    """export mqsc needs a qmgr or --all; an EMS server is exported with export ems."""
    ok(cli("define", "qmgr", "EMS1", "--dialect", "ems"))
    refused(cli("export", "mqsc"), at="QMGR")
    assert cli("export", "mqsc", "--all").stdout == ""  # no queue manager yet: nothing to write
    ok(cli("define", "qmgr", "QMZ"))
    assert "* Queue manager name: QMZ" in ok(cli("export", "mqsc", "--all")).stdout
    refused(cli("export", "mqsc", "EMS1"), at="server EMS1")
    ok(cli("define", "qmgr", "QM1"))
    refused(cli("export", "ems", "--server", "QM1", "--out", "x"), at="qmgr QM1")


# -- EMS configuration ------------------------------------------------------------------------------


@needs_ems
@pytest.mark.parametrize("tibemsd", EMS_SERVERS, ids=lambda p: f"{p.parent.parent.name}/{p.parent.name}")
def test_every_corpus_ems_server_imports(cli: Cli, tibemsd: Path) -> None:
    """Each server folder imports through its tibemsd.conf; the summary matches what is displayed."""
    data = ok(cli("import", "ems", "--tibemsd", str(tibemsd), "-o", "json")).json()
    assert isinstance(data, dict)
    name = tibemsd.parent.name
    assert data["server"] == name and data["files"][0] == str(tibemsd)
    topics = cli("display", "topic", "--qmgr", name, "-o", "json").json()
    routes = cli("display", "route", "--qmgr", name, "-o", "json").json()
    assert isinstance(topics, list) and len(topics) == data["topics"] > 0
    assert isinstance(routes, list) and len(routes) == data["routes"] > 0
    assert sum(len(r["selectors"]) for r in routes) == data["route_selectors"]
    assert sorted(data["peers_created"]) == sorted(r["name"] for r in routes)
    for peer in data["peers_created"]:
        peer_json = cli("display", "qmgr", peer, "-o", "json").json()
        assert isinstance(peer_json, list) and peer_json[0]["dialect"] == "ems"


def import_example(cli: Cli, example: str) -> list[str]:
    servers = sorted(p.parent.name for p in (CORPUS / "ems" / example).glob("*/tibemsd.conf"))
    for name in servers:
        ok(cli("import", "ems", "--tibemsd", str(CORPUS / "ems" / example / name / "tibemsd.conf")))
    return servers


@needs_ems
@pytest.mark.parametrize("example", EMS_EXAMPLES)
def test_export_ems_then_import_gives_the_same_model(
    cli: Cli, store_url: str, tmp_path: Path, example: str
) -> None:
    """Whole example networks: export each server, import the exports into an empty store, compare."""
    servers = import_example(cli, example)
    before = model(cli, EMS_KINDS)
    assert before["route"], "the example has routes"
    for name in servers:
        ok(cli("export", "ems", "--server", name, "--out", str(tmp_path / name)))
    empty_store(store_url)
    for name in servers:
        ok(cli("import", "ems", "--tibemsd", str(tmp_path / name / "tibemsd.conf")))
    assert model(cli, EMS_KINDS) == before


@needs_ems
def test_orders_central_selectors_and_durables(cli: Cli) -> None:
    """Reference 002 Figure 38 (corpus orders-central): route selectors and the route durable."""
    import_example(cli, "orders-central")
    routes = cli("display", "route", "--qmgr", "ORD", "-o", "json").json()
    assert isinstance(routes, list)
    usa = next(r for r in routes if r["name"] == "USA")
    assert [(s["direction"], s["topic"], s["selector"]) for s in usa["selectors"]] == [
        ("outgoing", "orders", "country='USA'"),
        ("outgoing", "orders.audit", "amount >= 10000"),
    ]
    subs = cli("display", "sub", "--qmgr", "USA", "-o", "json").json()
    assert isinstance(subs, list)
    assert sorted((s["name"], s["topicstr"], s["durable"]) for s in subs) == [
        ("BILLING-US", "orders", True),
        ("ORD", "orders.audit", True),
    ]


@needs_ems
def test_explicit_files_override_tibemsd_pointers(cli: Cli, tmp_path: Path) -> None:
    """--topics/--routes/--durables replace what tibemsd.conf points at; --server alone names a server."""
    ord_conf = CORPUS / "ems" / "orders-central" / "ORD" / "tibemsd.conf"
    topics = tmp_path / "topics.conf"
    topics.write_text("x.*  secure\n")
    routes = tmp_path / "routes.conf"
    routes.write_text("[PEER1]\n  url = tcp://p:7222\n")
    durables = tmp_path / "durables.conf"
    durables.write_text("x.y  D1\n")
    data = ok(
        cli(
            "import", "ems", "--tibemsd", str(ord_conf), "--topics", str(topics), "--routes", str(routes),
            "--durables", str(durables), "-o", "json",
        )
    ).json()  # fmt: skip
    assert isinstance(data, dict)
    assert (data["server"], data["topics"], data["routes"], data["durables"]) == ("ORD", 1, 1, 1)
    assert data["peers_created"] == ["PEER1"]
    shown = cli("display", "topic", "--qmgr", "ORD", "-o", "json").json()
    assert isinstance(shown, list) and [t["name"] for t in shown] == ["x.*"]

    data = ok(cli("import", "ems", "--server", "S2", "--topics", str(topics), "-o", "json")).json()
    assert isinstance(data, dict) and (data["server"], data["topics"], data["routes"]) == ("S2", 1, 0)
    refused(cli("import", "ems"), at="--server")


# -- tibemsadmin ------------------------------------------------------------------------------------


def test_tibemsadmin_script(cli: Cli, tmp_path: Path) -> None:
    """create topic, addprop, create route to an unknown peer (created as EMS server), setprop selector."""
    script = tmp_path / "admin.txt"
    script.write_text(
        "# orders\ncreate topic orders global\naddprop topic orders maxbytes=64MB\n"
        "create route USA url=tcp://usa:7222\n"
        "setprop route USA outgoing_topic=orders selector=\"country='USA'\"\nshow topics\n"
    )
    result = ok(cli("tibemsadmin", "ORD", str(script), "--create"))
    assert "orders      global,maxbytes=64MB" in result.stdout
    assert "5 commands read, 5 processed, 0 not modelled, 0 failed." in result.stdout
    peer = cli("display", "qmgr", "USA", "-o", "json").json()
    assert isinstance(peer, list) and peer[0]["dialect"] == "ems"
    topic = cli("display", "topic", "orders", "--qmgr", "ORD", "-o", "json").json()
    assert isinstance(topic, list) and topic[0]["properties"] == {"global": None, "maxbytes": "64MB"}
    route = cli("display", "route", "USA", "--qmgr", "ORD", "-o", "json").json()
    assert isinstance(route, list) and route[0]["url"] == "tcp://usa:7222"
    assert [(s["direction"], s["topic"], s["selector"]) for s in route[0]["selectors"]] == [
        ("outgoing", "orders", "country='USA'")
    ]


def test_tibemsadmin_bad_input(cli: Cli, store_url: str) -> None:
    """Unknown server without --create, an MQ qmgr, a bad server name: exit 2, nothing changed."""
    ok(cli("define", "qmgr", "QM1"))
    before = dump_store(store_url)
    assert "--create" in refused(cli("tibemsadmin", "NOPE", stdin="create topic a\n"), at="server NOPE")
    refused(cli("tibemsadmin", "QM1", stdin="create topic a\n"), at="node QM1")
    line = refused(cli("tibemsadmin", "A.B", "--create", stdin="create topic a\n"), at="server A.B")
    assert "dot" in line
    assert dump_store(store_url) == before
    partial = cli("tibemsadmin", "E1", "--create", "--continue", stdin="create topic a\ncreate topic a\n")
    assert partial.exit_code == 1 and "1 command(s) failed" in partial.stderr


# -- broken inputs: exit 2, one error line with file:line:column, store unchanged --------------------

BROKEN_MQSC = [
    ("unbalanced quote", "DEFINE TOPIC(T) TOPICSTR('a) CLUSTER(C)\n", 1, 26),
    ("unknown keyword", "DEFINE TOPIC(T) TOPICSTR('a') FROBNICATE(1)\n", 1, 31),
    ("unknown command", "DEFINE TOPIC(T) TOPICSTR('a')\nFROB TOPIC(T)\n", 2, 1),
    ("unknown object type", "DEFINE WIDGET(T)\n", 1, 8),
    ("continuation at end of file", "DEFINE TOPIC(T) +\n   TOPICSTR('a') +\n   CLUSTER(C) +\n", 3, 15),
    ("repeated parameter", "DEFINE TOPIC(T) TOPICSTR('a') TOPICSTR('b')\n", 1, 31),
    ("bad enum value", "DEFINE TOPIC(T) TOPICSTR('a') CLROUTE(SIDEWAYS)\n", 1, 39),
    ("missing TOPICSTR", "DEFINE TOPIC(T)\n", 1, 1),
    ("bad name", "DEFINE TOPIC('bad name!') TOPICSTR('a')\n", 1, 14),
    ("define existing", "DEFINE TOPIC(BASE) TOPICSTR('other')\n", 1, 14),
    ("bad selector", "DEFINE SUB(S) TOPICSTR('a') SELECTOR('a >')\n", 1, 42),
    ("CLUSTER and CLUSNL", "DEFINE CHANNEL(C) CHLTYPE(CLUSRCVR) CLUSTER(A) CLUSNL(B)\n", 1, 48),
    ("alter missing", "ALTER TOPIC(MISSING) DESCR('x')\n", 1, 13),
    ("bad parent", "ALTER QMGR PARENT('bad parent')\n", 1, 19),
]


@pytest.mark.parametrize(
    ("text", "line", "column"), [c[1:] for c in BROKEN_MQSC], ids=[c[0] for c in BROKEN_MQSC]
)
def test_broken_mqsc(cli: Cli, store_url: str, tmp_path: Path, text: str, line: int, column: int) -> None:
    ok(cli("runmqsc", "QM1", "--create", stdin="DEFINE TOPIC(BASE) TOPICSTR('base')\n"))
    before = dump_store(store_url)
    path = tmp_path / "bad.mqsc"
    path.write_text("* a good command first\nDEFINE TOPIC(NEW) TOPICSTR('new')\n" + text)
    refused(cli("runmqsc", "QM1", str(path)), at=f"{path}:{line + 2}:{column}: ")
    assert dump_store(store_url) == before


BROKEN_EMS_CONF = [
    ("topics: empty element", "topics", "a..b  global\n", 1, 3),
    ("topics: > not last", "topics", "ok  global\nfoo.>.bar  global\n", 2, 5),
    ("topics: wildcard not a whole element", "topics", "foo.a*  global\n", 1, 6),
    ("topics: bad maxbytes", "topics", "a  maxbytes=lots\n", 1, 13),
    ("topics: repeated property", "topics", "a  global,global\n", 1, 11),
    ("topics: repeated topic", "topics", "a  global\na  secure\n", 2, 1),
    ("routes: property outside a section", "routes", "url = tcp://x:7222\n", 1, 1),
    ("routes: bad zone_type", "routes", "[P]\n  url = tcp://p:1\n  zone_type = 2hop\n", 3, 15),
    (
        "routes: bad selector",
        "routes",
        '[P]\n  url = tcp://p:1\n  outgoing_topic=orders selector="a >"\n',
        3,
        38,
    ),
    (
        "routes: selector without topic selector",
        "routes",
        "[P]\n  url = tcp://p:1\n  incoming_topic=orders\n",
        3,
        24,
    ),
    ("routes: no url", "routes", "[P]\n  zone_name = Z\n", 1, 1),
    ("routes: repeated section", "routes", "[P]\n  url = tcp://p:1\n[P]\n  url = tcp://p:2\n", 3, 1),
    ("routes: bad server name", "routes", "[P.Q]\n  url = tcp://p:1\n", 1, 2),
    ("routes: unclosed section", "routes", "[P\n  url = tcp://p:1\n", 1, 3),
    ("routes: not a property", "routes", "[P]\n  url = tcp://p:1\n  just words\n", 3, 3),
    ("durables: no name", "durables", "orders\n", 1, 7),
    ("durables: bad selector", "durables", 'orders  D1  selector="x LIKE 7"\n', 1, 30),
    ("durables: repeated", "durables", "orders  D1\norders  D1\n", 2, 9),
]


@pytest.mark.parametrize(
    ("which", "text", "line", "column"), [c[1:] for c in BROKEN_EMS_CONF], ids=[c[0] for c in BROKEN_EMS_CONF]
)
def test_broken_ems_conf(
    cli: Cli, store_url: str, tmp_path: Path, which: str, text: str, line: int, column: int
) -> None:
    ok(cli("tibemsadmin", "S1", "--create", stdin="create topic base global\n"))
    before = dump_store(store_url)
    files = {"topics": "base  global\n", "routes": "", "durables": ""} | {which: text}
    for name, content in files.items():
        (tmp_path / f"{name}.conf").write_text(content)
    (tmp_path / "tibemsd.conf").write_text(
        "server = S1\ntopics = topics.conf\nroutes = routes.conf\ndurables = durables.conf\n"
    )
    where = f"{tmp_path / f'{which}.conf'}:{line}:{column}: "
    refused(cli("import", "ems", "--tibemsd", str(tmp_path / "tibemsd.conf")), at=where)
    refused(cli("import", "ems", "--server", "S1", f"--{which}", str(tmp_path / f"{which}.conf")), at=where)
    assert dump_store(store_url) == before


def test_broken_tibemsd_conf(cli: Cli, store_url: str, tmp_path: Path) -> None:
    """A bad server name in tibemsd.conf, and a missing file: exit 2, nothing changed."""
    ok(cli("define", "qmgr", "S1", "--dialect", "ems"))
    before = dump_store(store_url)
    conf = tmp_path / "tibemsd.conf"
    conf.write_text("server = A.B\n")
    assert "dot" in refused(cli("import", "ems", "--tibemsd", str(conf)))
    refused(cli("import", "ems", "--tibemsd", str(tmp_path / "missing.conf")), at=str(tmp_path))
    assert dump_store(store_url) == before


BROKEN_ADMIN = [
    ("empty element", "create topic a..b", 1, 16),
    ("create existing", "create topic a global\ncreate topic a", 2, 14),
    ("delete missing", "delete topic nope", 1, 14),
    ("bad maxbytes", "create topic a maxbytes=big", 1, 25),
    ("remove absent property", "create topic a\nremoveprop topic a secure", 2, 20),
    ("route without url", "create route P", 1, 15),
    ("bad zone type", "create route P url=tcp://p:1 zone_type=3hop", 1, 40),
    ("bad route selector", 'create route P url=tcp://p:1 outgoing_topic=orders selector="a <> "', 1, 67),
    ("topic without selector", "create route P url=tcp://p:1 outgoing_topic=orders", 1, 51),
    ("route to itself", "create route S1 url=tcp://self:1", 1, 14),
    ("bad peer name", "create route A.B url=tcp://p:1", 1, 14),
    ("unbalanced quote", 'create topic a\ncreate topic b "x', 2, 16),
]


@pytest.mark.parametrize(
    ("text", "line", "column"), [c[1:] for c in BROKEN_ADMIN], ids=[c[0] for c in BROKEN_ADMIN]
)
def test_broken_tibemsadmin(
    cli: Cli, store_url: str, tmp_path: Path, text: str, line: int, column: int
) -> None:
    ok(
        cli(
            "tibemsadmin",
            "S1",
            "--create",
            stdin="create topic base global\ncreate route BASE url=tcp://b:1\n",
        )
    )
    before = dump_store(store_url)
    path = tmp_path / "bad.txt"
    path.write_text(text + "\n")
    refused(cli("tibemsadmin", "S1", str(path)), at=f"{path}:{line}:{column}: ")
    assert dump_store(store_url) == before


def test_import_ems_several_servers_in_one_transaction(cli: Cli, shared_dir: Path, store_url: str) -> None:
    """Repeated --tibemsd loads a whole EMS estate; one bad server file changes nothing."""
    folders = sorted((shared_dir / "corpus" / "ems" / "regions").iterdir())
    args = [a for f in folders for a in ("--tibemsd", str(f / "tibemsd.conf"))]
    data = ok(cli("import", "ems", *args, "-o", "json")).json()
    assert [d["server"] for d in data] == [f.name for f in folders]
    assert len(ok(cli("display", "route", "-o", "json")).json()) == 12
    before = dump_store(store_url)
    failed = cli(
        "import", "ems", "--tibemsd", str(folders[0] / "tibemsd.conf"), "--tibemsd", "/no/such/tibemsd.conf"
    )
    assert failed.exit_code == 2 and dump_store(store_url) == before
    assert cli("import", "ems", *args[:4], "--server", "X").exit_code == 2
