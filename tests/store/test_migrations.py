"""Alembic migrations: base -> head -> base with rows present, models == migrations, revision check."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import create_engine, inspect, text

from mqctl.store.revision import HEAD
from tests.conftest import run_cli
from tests.helpers import dump_store

REPO = Path(__file__).resolve().parents[2]


def _tables(url: str) -> set[str]:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return set(inspect(conn).get_table_names())
    finally:
        engine.dispose()


def test_head_constant_matches_the_migration_scripts() -> None:
    from mqctl.store.migrate import head_revision

    assert head_revision() == HEAD


def test_upgrade_downgrade_round_trip_with_rows(empty_store_url: str) -> None:
    store_url = empty_store_url  # migrations start from a database never migrated
    assert run_cli(["db", "upgrade"], db=store_url).exit_code == 0
    assert {"nodes", "topics", "subscriptions", "routes", "route_selectors", "alembic_version"} <= _tables(
        store_url
    )
    for args in (
        ["define", "qmgr", "QM1", "--cluster", "CL1"],
        ["define", "topic", "T1", "--qmgr", "QM1", "--topicstr", "/a", "--cluster", "CL1"],
        ["define", "sub", "S1", "--qmgr", "QM1", "--topicstr", "/a/#"],
        ["define", "qmgr", "E1", "--dialect", "ems"],
        ["define", "route", "E2", "--qmgr", "E1", "--url", "tcp://e2:7222"],
        [
            "define",
            "route-selector",
            "--qmgr",
            "E1",
            "--route",
            "E2",
            "--direction",
            "outgoing",
            "--topic",
            "a",
            "--selector",
            "x > 1",
        ],
    ):
        assert run_cli(args, db=store_url).exit_code == 0, args
    before = dump_store(store_url)
    refused = run_cli(["db", "downgrade", "base"], db=store_url)
    assert refused.exit_code == 2 and "--yes" in refused.stderr and "3 nodes" in refused.stderr
    assert dump_store(store_url) == before
    down = run_cli(["db", "downgrade", "base", "--yes"], db=store_url)
    assert down.exit_code == 0, down.stderr
    assert _tables(store_url) <= {"alembic_version"}
    # an empty store at base: commands refuse it rather than silently recreating it behind the user's back
    refused = run_cli(["display", "qmgr"], db=store_url)
    assert refused.exit_code == 3 and "mqctl db upgrade" in refused.stderr
    assert run_cli(["db", "upgrade"], db=store_url).exit_code == 0
    assert run_cli(["db", "current", "-o", "json"], db=store_url).json()["up_to_date"] is True


def test_models_and_migrations_agree(empty_store_url: str) -> None:
    """Autogenerate against a migrated database finds no difference."""
    store_url = empty_store_url  # migrations start from a database never migrated
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from mqctl.store.tables import metadata

    assert run_cli(["db", "upgrade"], db=store_url).exit_code == 0
    engine = create_engine(store_url)
    try:
        with engine.connect() as conn:
            context = MigrationContext.configure(conn, opts={"compare_type": True})
            diff = compare_metadata(context, metadata)
    finally:
        engine.dispose()
    assert diff == []


def _schema(url: str) -> dict[str, object]:
    """Every table's columns (in order), keys, indexes and checks, as reflected from the database."""
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            insp = inspect(conn)
            out: dict[str, object] = {}
            for table in sorted(insp.get_table_names()):
                out[table] = {
                    "columns": [
                        (c["name"], str(c["type"]), c["nullable"], str(c.get("default")))
                        for c in insp.get_columns(table)
                    ],
                    "primary key": insp.get_pk_constraint(table),
                    "foreign keys": sorted(map(repr, insp.get_foreign_keys(table))),
                    "indexes": sorted(map(repr, insp.get_indexes(table))),
                    "unique": sorted(map(repr, insp.get_unique_constraints(table))),
                    "checks": sorted(map(repr, insp.get_check_constraints(table))),
                }
            return out
    finally:
        engine.dispose()


def test_a_store_created_on_first_use_is_the_migrated_store(
    empty_store_url: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """First use creates the store from the table metadata (``engine.create_at_head``), not by running the
    migrations: schema and rows must be the ones the migrations give, on each database."""
    from mqctl.store.engine import open_store
    from tests.stores import STORES

    migrated = empty_store_url
    assert run_cli(["db", "upgrade"], db=migrated).exit_code == 0
    if migrated.startswith("sqlite"):
        created = f"sqlite:///{tmp_path / 'created.db'}"
    else:
        created = STORES.pg.create(migrated=False)
        request.addfinalizer(lambda: STORES.pg.discard(created))
    open_store(created).dispose()  # what a first use does
    assert _schema(created) == _schema(migrated)
    assert dump_store(created) == dump_store(migrated)  # the rows the migrations seed too
    assert run_cli(["db", "current", "-o", "json"], db=created).json()["up_to_date"] is True  # type: ignore[index]
    assert run_cli(["define", "qmgr", "QM1"], db=created).exit_code == 0
    # from here on the real migrations run on it
    assert run_cli(["db", "downgrade", "0002_one_model"], db=created).exit_code == 0
    assert run_cli(["db", "upgrade"], db=created).exit_code == 0
    assert run_cli(["display", "qmgr", "QM1"], db=created).exit_code == 0


def test_old_revision_exits_3_and_is_not_changed(store_url: str) -> None:
    assert run_cli(["define", "qmgr", "QM1"], db=store_url).exit_code == 0
    engine = create_engine(store_url)
    with engine.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = '0000_older'"))
    engine.dispose()
    result = run_cli(["display", "qmgr"], db=store_url)
    assert result.exit_code == 3
    assert result.stderr.count("\n") == 1 and "mqctl db upgrade" in result.stderr
    engine = create_engine(store_url)
    with engine.connect() as conn:
        assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar_one() == "0000_older"
    engine.dispose()


def test_plain_alembic_from_the_checkout(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'plain.db'}"
    alembic = Path(sys.executable).parent / "alembic"
    done = subprocess.run(
        [str(alembic), "-x", f"db={url}", "upgrade", "head"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert run_cli(["db", "current", "-o", "json"], db=url).json()["revision"] == HEAD


@pytest.mark.slow
def test_db_commands_work_from_a_non_editable_wheel(tmp_path: Path) -> None:
    """The wheel ships the migrations: `mqctl db upgrade` from an installed (non-editable) copy."""
    wheel_dir, target = tmp_path / "wheel", tmp_path / "site"
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(wheel_dir), str(REPO)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert built.returncode == 0, built.stderr
    wheel = next(wheel_dir.glob("mqctl-*.whl"))
    installed = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "--quiet", "--target", str(target), str(wheel)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert installed.returncode == 0, installed.stderr
    env = dict(os.environ, PYTHONPATH=str(target))
    url = f"sqlite:///{tmp_path / 'wheel.db'}"
    where = subprocess.run(
        [sys.executable, "-c", "import mqctl; print(mqctl.__file__)"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
    )
    assert where.stdout.startswith(str(target)), where.stdout
    for args in (
        ["db", "upgrade"],
        ["db", "current"],
        ["db", "history", "-o", "json"],
        ["db", "downgrade", "base", "--yes"],
    ):
        done = subprocess.run(
            [sys.executable, "-m", "mqctl", "--db", url, *args],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode in (0, 1), (args, done.stderr)
        assert "Traceback" not in done.stderr
    assert _tables(url) <= {"alembic_version"}


OLD_ROWS = [
    "INSERT INTO counters (name, value) VALUES ('seq', 20)",
    "INSERT INTO nodes (id, name, dialect, psmode, psclus, descr, parent, seq) VALUES "
    "(1, 'QM1', 'mq', 'ENABLED', 'ENABLED', 'hub', 'QMP', 1), "
    "(2, 'E1', 'ems', 'ENABLED', 'ENABLED', '', NULL, 2)",
    "INSERT INTO clusters (id, name, descr, seq) VALUES (1, 'CL1', '', 3)",
    "INSERT INTO memberships (node_id, cluster_id, full_repository, seq) VALUES (1, 1, TRUE, 4)",
    "INSERT INTO namelists (id, node_id, name, names, descr, seq) VALUES (1, 1, 'NL', '[\"CL1\",\"CL2\"]', '', 5)",
    "INSERT INTO channels (id, node_id, name, chltype, cluster, clusnl, conname, descr, seq) VALUES "
    "(1, 1, 'TO.QM1', 'CLUSRCVR', 'CL1', '', 'qm1(1414)', '', 6), "
    "(2, 1, 'TO.FR', 'CLUSSDR', 'CL9', '', '', '', 7)",
    "INSERT INTO topics (id, node_id, name, topicstr, prefix_key, cluster, clroute, wildcard, pubscope, "
    "subscope, proxysub, pub, sub, descr, properties, seq) VALUES "
    "(1, 1, 'T1', '/USA/Alabama', '/USA/Alabama/', 'CL1', 'TOPICHOST', 'PASSTHRU', 'ASPARENT', 'ASPARENT', "
    "'FIRSTUSE', 'ASPARENT', 'ASPARENT', '', '{}', 8), "
    "(2, 2, 'orders.*', 'orders.*', 'orders.', '', 'DIRECT', 'PASSTHRU', 'ASPARENT', 'ASPARENT', "
    "'FIRSTUSE', 'ASPARENT', 'ASPARENT', '', '{\"global\":null,\"maxbytes\":\"1MB\"}', 9)",
    "INSERT INTO subscriptions (id, node_id, name, topicstr, prefix_key, selector, durable, subscope, wschema, "
    "dest, destqmgr, topicobj, properties, seq) VALUES "
    "(1, 1, 'S1', '/USA/#', '/USA/', 'a > 1', TRUE, 'ALL', 'TOPIC', '', '', '', '{}', 10), "
    "(2, 2, 'D1', 'orders.>', 'orders.', NULL, TRUE, 'ALL', 'TOPIC', '', '', '', '{\"clientid\":\"c\"}', 11)",
    "INSERT INTO routes (id, node_id, peer, url, zone_name, zone_type, properties, seq) VALUES "
    "(1, 2, 'E2', 'tcp://e2:7222', 'default_mhop_zone', 'mhop', '{}', 12)",
    "INSERT INTO route_selectors (id, route_id, direction, topic, selector, seq) VALUES "
    "(1, 1, 'outgoing', 'orders.*', 'x = 1', 13)",
]
"""A store written by mqctl at revision 0001, with what the new foreign keys need missing (the parent
QMP, the peer E2, the cluster CL9 of a CLUSSDR channel), as an older mqctl could leave it."""


def _at_initial_revision_with_rows(url: str) -> None:
    from mqctl.store.engine import make_engine
    from mqctl.store.migrate import upgrade

    engine = make_engine(url)
    try:
        upgrade(engine, "0001_initial")
        with engine.begin() as conn:
            for statement in OLD_ROWS:
                conn.exec_driver_sql(statement)
    finally:
        engine.dispose()


def test_0002_migrates_rows_up_and_back_down(empty_store_url: str) -> None:
    """0001 -> 0002 keeps every definition (dangling references become objects), and 0002 -> 0001 gives
    the same rows back; both on SQLite and PostgreSQL."""
    store_url = empty_store_url  # migrations start from a database never migrated
    _at_initial_revision_with_rows(store_url)
    before = dump_store(store_url)
    assert run_cli(["db", "upgrade"], db=store_url).exit_code == 0

    def shown(*args: str) -> list[dict]:
        result = run_cli(["display", *args, "-o", "json"], db=store_url)
        assert result.exit_code == 0, result.stderr
        return result.json()  # type: ignore[return-value]

    nodes = {n["name"]: n for n in shown("qmgr")}
    assert set(nodes) == {"QM1", "QMP", "E1", "E2"}
    assert (
        nodes["QM1"]["parent"] == "QMP"
        and nodes["QM1"]["repos"] == ["CL1"]
        and nodes["E2"]["dialect"] == "ems"
    )
    assert {c["name"] for c in shown("cluster")} == {"CL1", "CL9"}
    assert shown("namelist")[0]["names"] == ["CL1", "CL2"]
    channels = {c["name"]: c for c in shown("channel")}
    assert channels["TO.QM1"]["clwlwght"] == 50 and channels["TO.FR"]["cluster"] == "CL9"
    topics = {t["name"]: t for t in shown("topic")}
    assert topics["T1"]["clroute"] == "TOPICHOST" and topics["orders.*"]["properties"] == {
        "global": None,
        "maxbytes": "1MB",
    }
    subs = {s["name"]: s for s in shown("sub")}
    assert subs["S1"]["selector"] == "a > 1" and subs["D1"]["properties"] == {"clientid": "c"}
    assert shown("route")[0]["selectors"][0]["selector"] == "x = 1"
    # the indexes work on the migrated rows: explain finds the subscription by its prefix key
    explained = run_cli(
        ["explain", "--from", "QM1", "--topic", "/USA/Alabama", "--prop", "a=2", "-o", "json"], db=store_url
    )
    assert [d["subscription"] for d in explained.json()["deliveries"]] == ["S1"]
    # and the id sequences continue after the copied rows
    assert run_cli(["define", "sub", "S2", "--qmgr", "QM1", "--topicstr", "/x"], db=store_url).exit_code == 0
    assert run_cli(["delete", "sub", "S2", "--qmgr", "QM1"], db=store_url).exit_code == 0

    assert run_cli(["db", "downgrade", "0001_initial"], db=store_url).exit_code == 0
    after = dump_store(store_url)
    created = {"QMP", "E2", "CL9"}  # the node and cluster rows the upgrade added (column 1 is the name)
    for table, rows in before.items():
        if table == "counters":  # the definition sequence moved on (S2)
            continue
        kept = [r for r in after[table] if not (table in ("nodes", "clusters") and r[1] in created)]
        assert kept == rows, table
