"""Snapshots (issue 10) on SQLite and PostgreSQL: store -> snapshot -> store gives the same model,
``read_topology`` gives the store's ``load_topology``, and every damaged or refused snapshot is one line,
exit 2, the store unchanged."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mqctl.domain.errors import InputError
from mqctl.formats.snapshot import pack, unpack
from mqctl.formats.snapshot_schema import TABLES
from mqctl.services.snapshot import read_snapshot, read_topology
from mqctl.store.revision import HEAD
from mqctl.store.session import unit_of_work
from mqctl.store.topology import load_topology
from tests.conftest import FIXTURES, Result, run_cli
from tests.helpers import dump_store
from tests.store.same_model import assert_same_model
from tests.store.test_door_properties import (
    PATTERNS,
    SELECTORS,
    _build,
    _fresh,
    ems_commands,
    mq_commands,
)
from tests.store.test_one_model import KINDS, ok, refused

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
    for conf in sorted((FIXTURES / "ems" / "hub").glob("*/tibemsd.conf")):
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
    assert any(n.parent for n in read.nodes.values())
    assert_same_model(read, whole)


def test_a_packed_model_unpacks_to_the_same_model(cli: Cli, store_url: str) -> None:
    """The Spark job ships its model to executors packed as snapshot tables in memory."""
    build_rich_model(cli)
    whole = _load(store_url)
    packed = pack(whole)
    assert set(packed) == set(TABLES)
    assert_same_model(unpack(packed), whole)


def test_a_parquet_snapshot_is_shipped_as_its_own_files(cli: Cli, store_url: str, tmp_path: Path) -> None:
    """The Spark job broadcasts a Parquet snapshot's files as read (no second encoding): they unpack to
    the same model, also when an older mqctl wrote them without the optional columns."""
    build_rich_model(cli)
    whole = _load(store_url)
    ok(cli("export", "snapshot", "--out", str(tmp_path / "snap")))
    packed = read_snapshot(tmp_path / "snap").packed
    assert packed is not None and set(packed) == set(TABLES)
    assert_same_model(unpack(packed), whole)
    _rewrite(tmp_path / "snap", "subscriptions", lambda data: data.drop_columns(["subtype", "subid"]))
    older = read_snapshot(tmp_path / "snap").packed
    assert (
        older is not None
        and "subid" not in pq.read_table(pa.BufferReader(older["subscriptions"])).column_names
    )
    assert_same_model(unpack(older), whole)
    ok(cli("export", "snapshot", "--out", str(tmp_path / "json"), "--format", "json"))
    assert read_snapshot(tmp_path / "json").packed is None  # packed from the model by the job instead


def _displays(cli: Cli) -> dict[str, Any]:
    """``display KIND -o json`` of every kind, definition sequences included (a snapshot keeps them)."""
    out = {}
    for kind in KINDS:
        result = cli("display", kind, "-o", "json")
        assert result.exit_code in (0, 1), result.stderr
        out[kind] = result.json()
    return out


def _into_fresh(store_url: str, tmp_path: Path) -> Cli:
    """A CLI on an empty store of the same backend (PostgreSQL: the same database, emptied)."""
    url = _fresh(store_url, tmp_path, "target")
    return lambda *a, stdin=None: run_cli(list(a), db=url, stdin=stdin)


@pytest.mark.parametrize("file_format", ["parquet", "json"])
def test_store_snapshot_store_displays_the_same(
    cli: Cli, store_url: str, tmp_path: Path, file_format: str
) -> None:
    build_rich_model(cli)
    before = _displays(cli)
    question = ("explain", "--from", "QM1", "--topic", "/a/b", "-o", "json")
    answer = ok(cli(*question)).json()
    ok(cli("export", "snapshot", "--out", str(tmp_path / "snap"), "--format", file_format))
    second = _into_fresh(store_url, tmp_path)
    ok(second("import", "snapshot", str(tmp_path / "snap")))
    assert _displays(second) == before
    assert ok(second(*question)).json() == answer
    # the store's sequence continues after the snapshot's highest one
    highest = max(o["seq"] for rows in before.values() for o in rows)
    ok(second("define", "topic", "NEW", "--qmgr", "QM2", "--topicstr", "/new"))
    assert (
        ok(second("display", "topic", "NEW", "--qmgr", "QM2", "-o", "json")).json()[0]["seq"] == highest + 1
    )


def test_json_output_shapes(cli: Cli, store_url: str, tmp_path: Path) -> None:
    build_rich_model(cli)
    out = tmp_path / "snap"
    manifest = ok(cli("export", "snapshot", "--out", str(out), "-o", "json")).json()
    assert isinstance(manifest, dict)
    assert manifest == json.loads((out / "manifest.json").read_text())
    assert set(manifest) == {
        "format", "format_version", "snapshot_id", "created", "store_revision", "file_format", "tables",
    }  # fmt: skip
    assert (manifest["format"], manifest["format_version"], manifest["file_format"]) == (
        "mqctl-snapshot",
        1,
        "parquet",
    )
    assert manifest["store_revision"] == HEAD and manifest["created"].endswith("Z")
    assert list(manifest["tables"]) == list(TABLES)
    for table, entry in manifest["tables"].items():
        assert set(entry) == {"file", "rows", "sha256"}
        assert entry["file"] == f"{table}.parquet"
        assert entry["sha256"] == hashlib.sha256((out / entry["file"]).read_bytes()).hexdigest()
        assert entry["rows"] == pq.read_table(out / entry["file"]).num_rows
    assert manifest["tables"]["hierarchy"]["rows"] == 1 and manifest["tables"]["ems_topics"]["rows"] > 0
    for path in out.iterdir():
        assert path.stat().st_mode & 0o777 == 0o600, path
    assert out.stat().st_mode & 0o777 == 0o700
    second = _into_fresh(store_url, tmp_path)
    loaded = ok(second("import", "snapshot", str(out), "-o", "json")).json()
    assert loaded == {
        "snapshot_id": manifest["snapshot_id"],
        "tables": {t: e["rows"] for t, e in manifest["tables"].items()},
    }
    wide = tmp_path / "wide"
    ok(cli("export", "snapshot", "--out", str(wide), "--format", "json", "--mode", "644"))
    assert (wide / "nodes.json").stat().st_mode & 0o777 == 0o644 and wide.stat().st_mode & 0o777 == 0o755
    text = ok(cli("export", "snapshot", "--out", str(tmp_path / "t"))).stdout
    assert "subscriptions" in text and "route_selectors" in text


# -- refusals: exit 2, one line, nothing changed -------------------------------------------------------


def _fix_checksum(folder: Path, file: str) -> None:
    path = folder / "manifest.json"
    meta = json.loads(path.read_text())
    for entry in meta["tables"].values():
        if entry["file"] == file:
            data = (folder / file).read_bytes()
            entry["sha256"] = hashlib.sha256(data).hexdigest()
            if file.endswith(".parquet"):
                entry["rows"] = pq.read_table(folder / file).num_rows
    path.write_text(json.dumps(meta))


def _rewrite(folder: Path, table: str, change: Callable[[pa.Table], pa.Table]) -> None:
    """Replace a Parquet table by ``change(table)``, the manifest's checksum fixed so that the check
    under test is what refuses it."""
    path = folder / f"{table}.parquet"
    pq.write_table(change(pq.read_table(path)), path)
    _fix_checksum(folder, path.name)


def _set_cell(column: str, row: int, value: Any) -> Callable[[pa.Table], pa.Table]:
    def change(data: pa.Table) -> pa.Table:
        values = data.column(column).to_pylist()
        values[row] = value
        index = data.column_names.index(column)
        return data.set_column(
            index, data.schema.field(column), pa.array(values, data.schema.field(column).type)
        )

    return change


def _manifest(key: str, value: Any) -> Callable[[Path], None]:
    def change(folder: Path) -> None:
        path = folder / "manifest.json"
        meta = json.loads(path.read_text())
        meta[key] = value
        path.write_text(json.dumps(meta))

    return change


def _tamper(folder: Path) -> None:
    path = folder / "subscriptions.parquet"
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))


def _drop_column(folder: Path) -> None:
    _rewrite(folder, "subscriptions", lambda t: t.drop_columns(["selector"]))


def _wrong_type(folder: Path) -> None:
    _rewrite(
        folder,
        "nodes",
        lambda t: t.set_column(t.column_names.index("seq"), "seq", t.column("seq").cast(pa.string())),
    )


def _bad_selector(folder: Path) -> None:
    _rewrite(folder, "subscriptions", _set_cell("selector", 1, "x >"))


def _unknown_node(folder: Path) -> None:
    _rewrite(folder, "subscriptions", _set_cell("node", 0, "NOPE"))


def _twice_topicstr(folder: Path) -> None:
    def change(data: pa.Table) -> pa.Table:
        row = data.slice(0, 1)
        renamed = row.set_column(
            row.column_names.index("name"), row.schema.field("name"), pa.array(["OTHER"])
        )
        return pa.concat_tables([data, renamed])

    _rewrite(folder, "topics", change)


def _ems_parent(folder: Path) -> None:
    _rewrite(folder, "hierarchy", _set_cell("parent", 0, "E1"))


def _bad_enum(folder: Path) -> None:
    _rewrite(folder, "nodes", _set_cell("dialect", 0, "kafka"))


def _missing_file(folder: Path) -> None:
    (folder / "routes.parquet").unlink()


def _no_manifest(folder: Path) -> None:
    (folder / "manifest.json").unlink()


REFUSALS = [
    (_tamper, ("subscriptions.parquet", "sha256")),
    (_manifest("format_version", 2), ("manifest.json", "format_version", "2")),
    (_manifest("format", "other"), ("manifest.json", "not an mqctl snapshot")),
    (_no_manifest, ("manifest.json",)),
    (_missing_file, ("routes.parquet", "missing")),
    (_bad_enum, ("snapshot nodes.parquet row 1: column dialect: 'kafka' is not one of mq|ems",)),
    (_drop_column, ("subscriptions.parquet", "column selector is missing")),
    (_wrong_type, ("nodes.parquet", "column seq", "string", "int64")),
    (_bad_selector, ("snapshot subscriptions.parquet row 2: subscription ", "SELECTOR")),
    (
        _unknown_node,
        ("snapshot subscriptions.parquet row 1: subscription NOPE/", "node NOPE is not in nodes.parquet"),
    ),
    (_twice_topicstr, ("snapshot topics.parquet row", "topic QM1/OTHER", "already used by topic object")),
    (_ems_parent, ("snapshot hierarchy.parquet row 1", "E1 is an EMS server")),
]


@pytest.mark.parametrize(("damage", "words"), REFUSALS, ids=[d.__name__ for d, _ in REFUSALS])
def test_a_damaged_or_refused_snapshot_changes_nothing(
    cli: Cli, store_url: str, tmp_path: Path, damage: Callable[[Path], None], words: tuple[str, ...]
) -> None:
    build_rich_model(cli)
    folder = tmp_path / "snap"
    ok(cli("export", "snapshot", "--out", str(folder)))
    damage(folder)
    url = _fresh(store_url, tmp_path, "target")
    assert run_cli(["db", "upgrade"], db=url).exit_code == 0  # created, empty
    before = dump_store(url)
    refused(run_cli(["import", "snapshot", str(folder)], db=url), *words)
    assert dump_store(url) == before
    with pytest.raises(InputError):
        read_topology(folder)


def test_json_lines_are_checked_too(cli: Cli, store_url: str, tmp_path: Path) -> None:
    build_rich_model(cli)
    folder = tmp_path / "snap"
    ok(cli("export", "snapshot", "--out", str(folder), "--format", "json"))
    path = folder / "channels.json"
    lines = path.read_text().splitlines()
    row = json.loads(lines[0])
    row["clwlrank"] = "high"
    path.write_text("\n".join([json.dumps(row), *lines[1:]]) + "\n")
    _fix_checksum(folder, "channels.json")
    url = _fresh(store_url, tmp_path, "target")
    refused(
        run_cli(["import", "snapshot", str(folder)], db=url),
        "snapshot channels.json row 1",
        "clwlrank",
        "int64",
    )
    row["clwlrank"] = 12
    path.write_text("\n".join([json.dumps(row), *lines[1:]]) + "\n")
    _fix_checksum(folder, "channels.json")
    refused(
        run_cli(["import", "snapshot", str(folder)], db=url),
        "snapshot channels.json row 1: channel ",
        "CLWLRANK",
    )


def test_only_an_empty_store_takes_a_snapshot(cli: Cli, store_url: str, tmp_path: Path) -> None:
    ok(cli("define", "qmgr", "QM1"))
    folder = tmp_path / "snap"
    ok(cli("export", "snapshot", "--out", str(folder)))
    ok(cli("define", "cluster", "C1", "--descr", "mine"))
    before = dump_store(store_url)
    refused(cli("import", "snapshot", str(folder)), "the store is not empty")
    assert dump_store(store_url) == before
    ok(cli("delete", "qmgr", "QM1"))
    before = dump_store(store_url)
    refused(cli("import", "snapshot", str(folder)), "the store is not empty")  # a cluster alone
    assert dump_store(store_url) == before


def test_a_bulk_write_the_database_refuses_is_a_conflict_and_changes_nothing(
    cli: Cli, store_url: str
) -> None:
    """Bulk rows go to the driver directly (COPY on PostgreSQL, executemany on SQLite): a refusal there is
    still mqctl's one error, and what the same load wrote before it is rolled back."""
    from mqctl.domain.errors import ConflictError
    from mqctl.domain.model import Dialect, Direction, Node, NodeState, Route, RouteSelector, Subscription

    ok(cli("define", "qmgr", "QM1"))
    before = dump_store(store_url)
    twice = RouteSelector("E1", "E2", Direction.OUTGOING, "orders.>", "a = 1", seq=14)
    states = [
        NodeState(
            Node("E1", Dialect.EMS, seq=10),
            subscriptions={"D1": Subscription("E1", "D1", "orders.>", seq=11)},
            routes={"E2": Route("E1", "E2", seq=12)},
            route_selectors=[twice, twice],  # the last table written refuses the second one
        ),
        NodeState(Node("E2", Dialect.EMS, seq=13)),
    ]
    with pytest.raises(ConflictError, match="already defined"), unit_of_work(store_url) as store:
        store.add_nodes(states)
    assert dump_store(store_url) == before
    states[0].route_selectors = [twice]
    with unit_of_work(store_url) as store:
        store.add_nodes(states)
    shown = ok(cli("display", "route-selector", "-o", "json")).json()
    assert [(s["qmgr"], s["route"], s["topic"], s["seq"]) for s in shown] == [("E1", "E2", "orders.>", 14)]


def test_a_folder_that_is_not_empty_needs_force(cli: Cli, tmp_path: Path) -> None:
    ok(cli("define", "qmgr", "QM1"))
    folder = tmp_path / "snap"
    folder.mkdir()
    (folder / "keep.txt").write_text("mine")
    result = refused(cli("export", "snapshot", "--out", str(folder)), "--force")
    assert result and sorted(p.name for p in folder.iterdir()) == ["keep.txt"]
    ok(cli("export", "snapshot", "--out", str(folder), "--format", "json", "--force"))
    ok(cli("export", "snapshot", "--out", str(folder), "--force"))
    names = sorted(p.name for p in folder.iterdir())
    assert "keep.txt" in names and "nodes.parquet" in names and "nodes.json" not in names
    assert read_topology(folder).nodes["QM1"].name == "QM1"


ApiSub = tuple[str, str, str | None, bool, str]
"""An API subscription of a capture: name, TOPICSTR, SELECTOR, DURABLE, SUBID (empty: not shown)."""


@st.composite
def api_capture(draw: st.DrawFn) -> list[ApiSub]:
    """Subscriptions applications made (SUBTYPE(API)), as ``DISPLAY SUB`` shows them: only ``import
    display`` brings them in; the object commands define ADMIN ones. Some show the SUBID MQ gave them."""
    subs = []
    for i in range(draw(st.integers(0, 3))):
        selector = draw(st.sampled_from(SELECTORS))
        subid = draw(st.just("") | st.text("0123456789ABCDEF", min_size=48, max_size=48))
        subs.append((f"JMS:APP{i}", draw(st.sampled_from(PATTERNS)), selector, draw(st.booleans()), subid))
    return subs


def _capture_text(qmgr: str, subs: list[ApiSub]) -> str:
    lines = [f"Starting MQSC for queue manager {qmgr}.", "     1 : DISPLAY SUB(*) SUBTYPE(ALL) ALL"]
    for name, topicstr, selector, durable, subid in subs:
        lines += [
            "AMQ8096I: IBM MQ subscription inquired.",
            f"   SUB({name})   TOPICSTR({topicstr})",
            f"   DURABLE({'YES' if durable else 'NO'})   SUBTYPE(API)",
        ]
        if subid:
            lines.append(f"   SUBID({subid})")
        if selector:
            lines.append(f"   SELECTOR({selector})")
    return "\n".join([*lines, "1 MQSC commands read.", ""])


@given(
    mq=mq_commands(),
    ems=ems_commands(),
    api=api_capture(),
    file_format=st.sampled_from(["parquet", "json"]),
)
@settings(
    max_examples=5,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    derandomize=True,
)
def test_any_model_survives_a_snapshot(
    store_url: str,
    tmp_path_factory: pytest.TempPathFactory,
    mq: list[list[str]],
    ems: list[list[str]],
    api: list[ApiSub],
    file_format: str,
) -> None:
    """Random models built through the object commands (the strategies of the door properties), with the
    API subscriptions a capture of the first queue manager shows."""
    tmp = tmp_path_factory.mktemp("snapshot")
    first = _fresh(store_url, tmp, "first")
    _build(first, mq + ems)
    if api:
        capture = tmp / "capture.txt"
        capture.write_text(_capture_text(mq[0][2], api), encoding="utf-8")
        ok(run_cli(["import", "display", str(capture)], db=first))
    original = _displays(lambda *a: run_cli(list(a), db=first))
    ok(run_cli(["export", "snapshot", "--out", str(tmp / "snap"), "--format", file_format], db=first))
    second = _fresh(first, tmp, "second")
    ok(run_cli(["import", "snapshot", str(tmp / "snap")], db=second))
    assert _displays(lambda *a: run_cli(list(a), db=second)) == original
    whole = _load(first)
    assert_same_model(unpack(pack(whole)), whole)  # as the Spark job ships it to executors


@pytest.mark.parametrize("file_format", ["parquet", "json"])
def test_a_string_that_is_not_text_is_refused_naming_its_row_and_column(
    cli: Cli, store_url: str, tmp_path: Path, file_format: str
) -> None:
    """Parquet does not check that a string is UTF-8, and JSON can escape a lone surrogate: either is
    refused, naming the file, the row and the column, and nothing is written."""
    ok(cli("define", "qmgr", "QM1"))
    ok(cli("define", "topic", "T1", "--qmgr", "QM1", "--topicstr", "a", "--descr", "hello"))
    folder = tmp_path / "snap"
    ok(cli("export", "snapshot", "--out", str(folder), "--format", file_format))
    if file_format == "parquet":
        bad = pa.array([b"hel\xfflo"], pa.binary()).view(pa.string())  # bytes Parquet keeps as they are
        _rewrite(folder, "topics", lambda t: t.set_column(t.column_names.index("descr"), "descr", bad))
        why = "byte 0xFF cannot be decoded as UTF-8"
    else:
        path = folder / "topics.json"
        path.write_text(path.read_text().replace('"hello"', '"hel\\udcfflo"'))
        _fix_checksum(folder, "topics.json")
        why = "'hel\\udcfflo' is not valid text: byte 0xFF cannot be decoded as UTF-8 (character 4)"
    url = _fresh(store_url, tmp_path, "target")
    refused(
        run_cli(["import", "snapshot", str(folder)], db=url), f"topics.{file_format} row 1: column descr", why
    )
    assert run_cli(["display", "qmgr"], db=url).exit_code == 1
    with pytest.raises(InputError):
        read_topology(folder)


SUBID = "414D5120514D312020202020202020203D7C2A6720001F05"


def _with_api_subscription(cli: Cli, tmp_path: Path) -> None:
    ok(cli("define", "qmgr", "QM1"))
    ok(cli("define", "qmgr", "E1", "--dialect", "ems"))
    ok(cli("define", "sub", "D1", "--qmgr", "E1", "--topicstr", "orders.>", "--durable"))
    capture = tmp_path / "capture.txt"
    capture.write_text(_capture_text("QM1", [("JMS:APP", "/a/#", "n > 1", True, SUBID)]), encoding="utf-8")
    ok(cli("import", "display", str(capture)))


def _subtypes(cli: Cli) -> dict[str, tuple[str, str]]:
    shown = ok(cli("display", "sub", "--qmgr", "QM1", "-o", "json")).json()
    return {s["name"]: (s["subtype"], s["subid"]) for s in shown}


@pytest.mark.parametrize("file_format", ["parquet", "json"])
@pytest.mark.parametrize("dropped", [("subtype", "subid"), ("subid",)], ids=["subtype+subid", "subid"])
def test_a_snapshot_without_the_subtype_column_still_imports(
    cli: Cli, store_url: str, tmp_path: Path, file_format: str, dropped: tuple[str, ...]
) -> None:
    """``subscriptions.subtype`` and ``subid`` came after the first snapshots: one written without them
    reads as ADMIN, with no SUBID."""
    _with_api_subscription(cli, tmp_path)
    folder = tmp_path / "snap"
    ok(cli("export", "snapshot", "--out", str(folder), "--format", file_format))
    assert {s.name: (s.subtype.value, s.subid) for s in read_topology(folder).subscriptions} == {
        "JMS:APP": ("API", SUBID),
        "D1": ("ADMIN", ""),
    }
    if file_format == "parquet":
        _rewrite(folder, "subscriptions", lambda t: t.drop_columns(list(dropped)))
    else:
        path = folder / "subscriptions.json"
        rows = [json.loads(line) for line in path.read_text().splitlines()]
        for column in dropped:
            assert all(column in row for row in rows)
            for row in rows:
                del row[column]
        path.write_text("".join(json.dumps(row) + "\n" for row in rows))
        _fix_checksum(folder, path.name)
    target = _into_fresh(store_url, tmp_path)
    ok(target("import", "snapshot", str(folder)))
    assert _subtypes(target) == {"JMS:APP": ("API" if "subtype" not in dropped else "ADMIN", "")}


def test_an_api_subscription_on_an_ems_server_is_refused(cli: Cli, store_url: str, tmp_path: Path) -> None:
    _with_api_subscription(cli, tmp_path)
    folder = tmp_path / "snap"
    ok(cli("export", "snapshot", "--out", str(folder)))

    def ems_api(data: pa.Table) -> pa.Table:
        subtypes = [
            "API" if n == "E1" else s
            for n, s in zip(data["node"].to_pylist(), data["subtype"].to_pylist(), strict=True)
        ]
        return data.set_column(data.column_names.index("subtype"), "subtype", pa.array(subtypes))

    _rewrite(folder, "subscriptions", ems_api)
    target = _into_fresh(store_url, tmp_path)
    refused(target("import", "snapshot", str(folder)), "subscription E1/D1", "SUBTYPE", "MQ only")


def test_a_subid_on_an_ems_server_is_refused(cli: Cli, store_url: str, tmp_path: Path) -> None:
    """SUBID is MQ's identifier: an EMS durable carrying one is refused, not imported."""
    _with_api_subscription(cli, tmp_path)
    folder = tmp_path / "snap"
    ok(cli("export", "snapshot", "--out", str(folder)))

    def ems_subid(data: pa.Table) -> pa.Table:
        subids = [
            SUBID if n == "E1" else s
            for n, s in zip(data["node"].to_pylist(), data["subid"].to_pylist(), strict=True)
        ]
        return data.set_column(data.column_names.index("subid"), "subid", pa.array(subids))

    _rewrite(folder, "subscriptions", ems_subid)
    target = _into_fresh(store_url, tmp_path)
    refused(target("import", "snapshot", str(folder)), "subscription E1/D1", "SUBID", "MQ only")
    assert target("display", "qmgr").exit_code == 1  # nothing written
