"""0004_topic_keys up and down with rows present, on SQLite and PostgreSQL: the topic rows stay, names
and TOPICSTRs stay unique per node, enumerations checked, and a lookup by key alone (explain's slice,
display) still finds the topic, through an index."""

from __future__ import annotations

import pytest
from sqlalchemy import create_engine, inspect, text
from sqlalchemy.exc import IntegrityError

from tests.conftest import run_cli
from tests.helpers import dump_store


def _keys(url: str) -> tuple[set[str], set[tuple[str, ...]]]:
    """The topics table's index names and unique keys (as column tuples)."""
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            insp = inspect(conn)
            indexes = {i["name"] for i in insp.get_indexes("topics") if not i.get("unique")}
            unique = {tuple(u["column_names"]) for u in insp.get_unique_constraints("topics")}
            return {str(n) for n in indexes}, unique
    finally:
        engine.dispose()


_COPY = (
    "INSERT INTO topics (node_id, name, name_key, topicstr, topicstr_key, prefix_key, clroute, wildcard, "
    "pubscope, subscope, proxysub, pub, sub, descr, properties, seq) "
    "SELECT node_id, {name}, {name}, {topicstr}, {topicstr}, prefix_key, clroute, wildcard, {pubscope}, "
    "subscope, proxysub, pub, sub, descr, properties, seq FROM topics WHERE id = (SELECT MIN(id) FROM topics)"
)
"""A copy of the first topic row on its node, its name and TOPICSTR (with their keys) and PUBSCOPE as
given."""


def _copy_refused(url: str, *, name: str, topicstr: str, pubscope: str = "pubscope") -> bool:
    """Does the database refuse the copy (nothing is kept either way)?"""
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            try:
                conn.execute(text(_COPY.format(name=name, topicstr=topicstr, pubscope=pubscope)))
            except IntegrityError:
                return True
            finally:
                conn.rollback()
            return False
    finally:
        engine.dispose()


def _unique_per_node(url: str) -> bool:
    """A second row with the same name, or the same TOPICSTR, on the node is refused, and one with a
    PUBSCOPE that is none of MQ's; another is not."""
    return (
        _copy_refused(url, name="name_key", topicstr="'other'")
        and _copy_refused(url, name="'other'", topicstr="topicstr_key")
        and _copy_refused(url, name="'other'", topicstr="'other'", pubscope="'NEVER'")
        and not _copy_refused(url, name="'other'", topicstr="'other'", pubscope="'ALL'")
    )


def _answers(url: str) -> list[object]:
    def ok(*args: str) -> object:
        result = run_cli([*args, "-o", "json"], db=url)
        assert result.exit_code == 0, result.stderr
        return result.json()

    return [
        ok("explain", "--from", "QM1", "--topic", "/sport/football/x"),
        ok("display", "topic", "T1"),  # by name, every node
        ok("display", "topic", "T2", "--qmgr", "QM2"),
        ok("display", "sub", "*", "--qmgr", "QM2"),
    ]


def test_0004_up_and_down_with_rows(store_url: str) -> None:
    def cli(*args: str) -> None:
        result = run_cli(list(args), db=store_url)
        assert result.exit_code == 0, (args, result.stderr)

    cli("define", "qmgr", "QM1", "--cluster", "CL")
    cli("define", "qmgr", "QM2", "--cluster", "CL")
    cli("define", "topic", "T1", "--qmgr", "QM1", "--topicstr", "/sport", "--cluster", "CL")
    cli("define", "topic", "T1", "--qmgr", "QM2", "--topicstr", "/sport")  # same name, other node
    cli("define", "topic", "T2", "--qmgr", "QM2", "--topicstr", "/sport/football")
    cli("define", "sub", "S1", "--qmgr", "QM2", "--topicstr", "/sport/football/#")
    at_head = dump_store(store_url)
    answers = _answers(store_url)
    indexes, unique = _keys(store_url)
    assert "ix_topics_name_key" not in indexes and "ix_topics_topicstr_key" not in indexes
    assert {("name_key", "node_id"), ("topicstr_key", "node_id")} <= unique

    cli("db", "downgrade", "0003_observed")
    down = dump_store(store_url)
    assert {k: v for k, v in down.items() if k != "alembic_version"} == {
        k: v for k, v in at_head.items() if k != "alembic_version"
    }
    indexes, unique = _keys(store_url)
    assert {"ix_topics_name_key", "ix_topics_topicstr_key"} <= indexes
    assert {("node_id", "name_key"), ("node_id", "topicstr_key")} <= unique
    assert _unique_per_node(store_url)

    cli("db", "upgrade")
    assert dump_store(store_url) == at_head
    assert _unique_per_node(store_url)
    assert _answers(store_url) == answers


@pytest.mark.parametrize(
    "where",
    ["topicstr_key = 'k'", "name_key = 'k'", "node_id = 1", "node_id = 1 AND name_key = 'k'"],
)
def test_topic_lookups_use_an_index(sqlite_url: str, where: str) -> None:
    """Each way the store looks topics up (by key on every node, a node's topics, a key on a node) is a
    SEARCH through an index, not a SCAN of the table (SQLite's plan)."""
    engine = create_engine(sqlite_url)
    try:
        with engine.connect() as conn:
            plan = " ".join(
                str(row[-1])
                for row in conn.execute(text(f"EXPLAIN QUERY PLAN SELECT * FROM topics WHERE {where}"))
            )
    finally:
        engine.dispose()
    assert plan.startswith("SEARCH topics USING INDEX"), plan
