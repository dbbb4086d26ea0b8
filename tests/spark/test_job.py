"""The Spark job answers as explain does, publication by publication, in every variant; bad rows are
counted with their reason; outputs and summary agree with each other."""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.csv as pcsv
import pyarrow.parquet as pq
import pytest

from mqctl.domain.explanation import Failures, Publication, Status
from mqctl.domain.messages import Message
from mqctl.domain.publications import parse_properties, routing_key, selector_identifiers
from mqctl.domain.routing import RoutingModel, explain
from mqctl.domain.what_if import CURRENT, apply_variant, parse_variant
from mqctl.spark.job import analyze
from tests.spark.topologies import estate, publications, write_jsonl

VARIANTS = ["down:QM3", "down:NY1", "topichost:NEWS@QM2,QM5"]


def _rows(folder: Path) -> list[dict[str, Any]]:
    return pq.read_table(folder).to_pylist()


def _expected(rows: list[dict[str, Any]]) -> tuple[Counter[tuple[Any, ...]], Counter[tuple[Any, ...]]]:
    """Deliveries and misses by explain itself, one publication at a time, with its whole properties."""
    topology = estate()
    relevant = selector_identifiers(topology)
    models = [(CURRENT, RoutingModel(topology), Failures())]
    for text in VARIANTS:
        changed, failures = apply_variant(topology, parse_variant(text))
        models.append((text, RoutingModel(changed), failures))
    deliveries: Counter[tuple[Any, ...]] = Counter()
    misses: Counter[tuple[Any, ...]] = Counter()
    for row in rows:
        props, headers = parse_properties(json.dumps(row["properties"]))
        publication = Publication(
            row["from"], row["topic"], props, dict(Message.create(props, headers).headers)
        )
        key = routing_key(props, headers, relevant)
        for name, model, failures in models:
            result = explain(model, publication, failures)
            for d in result.deliveries:
                status = str(d.status)
                deliveries[
                    (
                        name,
                        row["from"],
                        row["topic"],
                        key,
                        d.subscription,
                        d.node,
                        status,
                        d.stored_at,
                        len(d.hops),
                    )
                ] += row["count"]
            for n in result.not_delivered:
                misses[(name, row["from"], row["topic"], key, n.subscription, n.node, str(n.reason))] += row[
                    "count"
                ]
    return deliveries, misses


def test_the_job_answers_as_explain_publication_by_publication(spark: Any, tmp_path: Path) -> None:
    rows = publications(500)
    log = write_jsonl(tmp_path / "publications.jsonl", rows)
    variants = [parse_variant(v) for v in VARIANTS]
    result = analyze(spark, estate(), log, tmp_path / "out", variants, per_key=True)
    want_deliveries, want_misses = _expected(rows)
    got_deliveries: Counter[tuple[Any, ...]] = Counter()
    for r in _rows(tmp_path / "out" / "deliveries"):
        got_deliveries[
            (
                r["variant"],
                r["from"],
                r["topic"],
                r["properties"],
                r["subscription"],
                r["node"],
                r["status"],
                r["stored_at"],
                r["hops"],
            )
        ] += r["count"]
    got_misses: Counter[tuple[Any, ...]] = Counter()
    for r in _rows(tmp_path / "out" / "not_delivered"):
        got_misses[
            (r["variant"], r["from"], r["topic"], r["properties"], r["subscription"], r["node"], r["reason"])
        ] += r["count"]
    assert got_deliveries == want_deliveries
    assert got_misses == want_misses
    # the variants do change answers here: a test that could not tell them apart would prove little
    by_variant = {
        v: sum(c for k, c in want_deliveries.items() if k[0] == v and k[6] == "delivered")
        for v in [CURRENT, *VARIANTS]
    }
    assert by_variant["down:NY1"] < by_variant[CURRENT]
    assert sum(c for k, c in want_deliveries.items() if k[6] == str(Status.STORED)) > 0

    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert summary == result.summary
    assert [v["variant"] for v in summary["variants"]] == [CURRENT, *VARIANTS]
    assert summary["rejected"] == 0
    current = summary["variants"][0]
    assert current["publications"] == sum(r["count"] for r in rows)
    assert current["deliveries"] == sum(c for k, c in want_deliveries.items() if k[0] == CURRENT)
    assert current["stored"] == sum(
        c for k, c in want_deliveries.items() if k[0] == CURRENT and k[6] == "stored"
    )
    assert current["not_delivered"] == sum(c for k, c in want_misses.items() if k[0] == CURRENT)
    assert current["gained"] == [] and current["lost"] == []
    down = summary["variants"][2]
    lost = {(x["node"], x["subscription"]): x["count"] for x in down["lost"]}
    delivered = lambda v, node, sub: sum(  # noqa: E731
        c
        for k, c in want_deliveries.items()
        if k[0] == v and k[5] == node and k[4] == sub and k[6] == "delivered"
    )
    assert lost and all(
        delivered(CURRENT, n, s) - delivered("down:NY1", n, s) == c for (n, s), c in lost.items()
    )
    assert not [x for x in down["messages_by_link"] if x["to"] == "NY1"]
    assert [x for x in current["messages_by_link"] if x["to"] == "NY1"]
    # messages by link: every hop of every delivery path, once per publication
    links = {(x["from"], x["to"], x["via"]) for x in current["messages_by_link"]}
    assert current["channels_in_use"] == len(links)
    assert {h[2] for h in links} == {"route", "cluster", "topichost", "hierarchy"}
    loads = {r["node"]: r for r in _rows(tmp_path / "out" / "node_load") if r["variant"] == CURRENT}
    traffic = [r for r in _rows(tmp_path / "out" / "link_traffic") if r["variant"] == CURRENT]
    for node, load in loads.items():
        assert load["forwarded"] == sum(t["messages"] for t in traffic if t["from"] == node)
        assert load["received"] == current["messages_by_node"].get(node, 0)
    assert sum(load["delivered"] + load["stored"] for load in loads.values()) == current["deliveries"]
    assert all(t["bytes"] >= 100 * t["messages"] for t in traffic)


def _summed(rows: list[dict[str, Any]], columns: tuple[str, ...]) -> Counter[tuple[Any, ...]]:
    """(count, bytes) of ``rows`` summed per ``columns``, as one Counter of (columns..., measure)."""
    sums: Counter[tuple[Any, ...]] = Counter()
    for r in rows:
        for measure in ("count", "bytes"):
            sums[(*(r[c] for c in columns), measure)] += r[measure]
    return sums


def test_aggregated_outputs_are_the_per_key_outputs_summed(spark: Any, tmp_path: Path) -> None:
    rows = publications(400, seed=3)
    log = write_jsonl(tmp_path / "publications.jsonl", rows)
    variants = [parse_variant(v) for v in VARIANTS]
    per_key = analyze(spark, estate(), log, tmp_path / "keys", variants, per_key=True)
    totals = analyze(spark, estate(), log, tmp_path / "totals", variants)
    assert totals.summary == per_key.summary  # summary.json does not depend on the mode
    for name, columns in (
        ("deliveries", ("variant", "subscription", "node", "status", "stored_at", "hops")),
        ("not_delivered", ("variant", "subscription", "node", "reason")),
    ):
        detail = _rows(tmp_path / "keys" / name)
        aggregated = _rows(tmp_path / "totals" / name)
        assert set(aggregated[0]) == {*columns, "count", "bytes"}
        assert set(detail[0]) == {*columns, "from", "topic", "properties", "count", "bytes"}
        assert len(aggregated) == len({tuple(r[c] for c in columns) for r in aggregated})  # one row each
        assert len(aggregated) < len(detail)  # the test log does repeat (subscription, status) over keys
        assert _summed(aggregated, columns) == _summed(detail, columns)
        assert all(r["bytes"] >= 100 * r["count"] for r in aggregated)  # every publication has a size
    for name in ("link_traffic", "node_load"):
        key = lambda r: sorted(r.items())  # noqa: E731
        assert sorted(_rows(tmp_path / "totals" / name), key=key) == sorted(
            _rows(tmp_path / "keys" / name), key=key
        )


def test_a_second_analysis_into_the_same_folder_replaces_every_output(spark: Any, tmp_path: Path) -> None:
    """``--force``: what an earlier run wrote is replaced, not added to, in the outputs Spark writes
    and in those the driver writes itself (``link_traffic``, ``node_load``, an empty ``rejected``), and
    Spark reads each back with its documented columns."""
    from mqctl.spark.job import OUTPUTS

    first = write_jsonl(tmp_path / "first.jsonl", publications(400, seed=3))
    second = write_jsonl(tmp_path / "second.jsonl", publications(60, seed=11))
    analyze(spark, estate(), first, tmp_path / "out", [])
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "kept.txt").write_text("not the analysis's")
    shutil.rmtree(tmp_path / "out" / "node_load")
    (tmp_path / "out" / "node_load").symlink_to(elsewhere)  # replaced as a link, never followed
    again = analyze(spark, estate(), second, tmp_path / "out", [])
    fresh = analyze(spark, estate(), second, tmp_path / "fresh", [])
    assert again.summary == fresh.summary
    for name in OUTPUTS:
        key = lambda r: sorted(r.items(), key=str)  # noqa: E731
        assert sorted(_rows(tmp_path / "out" / name), key=key) == sorted(
            _rows(tmp_path / "fresh" / name), key=key
        )
        assert (tmp_path / "out" / name / "_SUCCESS").exists()
    for name, columns in (
        ("link_traffic", ["variant", "from", "to", "via", "messages", "bytes"]),
        ("node_load", ["variant", "node", "received", "forwarded", "delivered", "stored"]),
        ("rejected", ["from", "topic", "properties", "count", "bytes", "record", "reason"]),
    ):
        assert len(list((tmp_path / "out" / name).glob("*.parquet"))) == 1
        assert spark.read.parquet(str(tmp_path / "out" / name)).columns == columns
    assert (elsewhere / "kept.txt").exists() and not (tmp_path / "out" / "node_load").is_symlink()
    links = _rows(tmp_path / "out" / "link_traffic")
    assert links and links == sorted(links, key=lambda r: (r["variant"], r["from"], r["to"], r["via"]))


def test_bad_rows_are_counted_with_their_reason_never_dropped(spark: Any, tmp_path: Path) -> None:
    good = {
        "from": "QM2",
        "topic": "/sports/football",
        "properties": '{"amount": 500}',
        "count": "2",
        "bytes": "",
    }
    bad = [
        {"from": "NOPE", "topic": "/sports/x", "properties": "", "count": "", "bytes": ""},
        {"from": "ORD", "topic": "orders.*", "properties": "", "count": "", "bytes": ""},
        {"from": "QM2", "topic": "/sports/#", "properties": "", "count": "", "bytes": ""},
        {"from": "QM2", "topic": "/a", "properties": "{broken", "count": "", "bytes": ""},
        {"from": "QM2", "topic": "/a", "properties": "", "count": "-1", "bytes": ""},
        {"from": "QM2", "topic": "/a", "properties": "", "count": "lots", "bytes": ""},
        {"from": "", "topic": "/a", "properties": "", "count": "", "bytes": ""},
        {"from": "ORD", "topic": "a..b", "properties": "", "count": "", "bytes": ""},
    ]
    bad.append(dict(bad[0]))  # identical rows are keyed once but each is written out
    table = pa.Table.from_pylist([good, *bad, dict(good)])
    pcsv.write_csv(table, tmp_path / "log.csv")
    result = analyze(spark, estate(), tmp_path / "log.csv", tmp_path / "out", [])
    rejected = _rows(tmp_path / "out" / "rejected")
    assert result.summary["rejected"] == len(bad) == len(rejected)
    reasons = " | ".join(sorted(r["reason"] for r in rejected))
    for expected in (
        "no such node 'NOPE'",
        "wildcard",
        "not a JSON object",
        "count '-1' must be at least 1",
        "count 'lots' is not a whole number",
        "no publisher",
        "empty element",
    ):
        assert expected in reasons
    assert [r["from"] for r in rejected].count("NOPE") == 2
    assert result.summary["variants"][0]["publications"] == 4


def test_sizes_are_summed_and_rejected_rows_keep_their_own(spark: Any, tmp_path: Path) -> None:
    """Rows that differ only in their size are keyed once with their sizes summed; a rejected row is
    written out with the size it was given."""
    row = {"from": "QM2", "topic": "/sports/football", "properties": '{"amount": 500}', "count": "2"}
    good = [{**row, "bytes": size} for size in ("100", "250", "12.0", "", "100")]
    bad = [{**row, "from": "NOPE", "bytes": size} for size in ("10", "20", "10")]
    bad.append({**row, "bytes": "-5"})
    pcsv.write_csv(pa.Table.from_pylist([*good, *bad]), tmp_path / "log.csv")
    result = analyze(spark, estate(), tmp_path / "log.csv", tmp_path / "out", [])
    assert result.summary["variants"][0]["publications"] == 2 * len(good)
    deliveries = _rows(tmp_path / "out" / "deliveries")
    assert deliveries and all(
        (r["count"], r["bytes"]) == (2 * len(good), 2 * (100 + 250 + 12 + 0 + 100)) for r in deliveries
    )
    rejected = _rows(tmp_path / "out" / "rejected")
    assert sorted((r["from"], r["bytes"]) for r in rejected) == [
        ("NOPE", "10"),
        ("NOPE", "10"),
        ("NOPE", "20"),
        ("QM2", "-5"),
    ]
    assert "bytes '-5' must be at least 0" in {r["reason"] for r in rejected}


def test_sizes_given_as_numbers_are_read_as_their_text_would_be(spark: Any, tmp_path: Path) -> None:
    """A Parquet size of an integer type is summed or refused as the same size written as text: a
    negative one refused, one of 19 digits kept apart and checked, a rejected one written as given."""
    sizes = [100, 250, 0, 100, 10**18 + 1, -5]
    table = pa.table(
        {
            "from": ["QM2"] * len(sizes) + ["NOPE", "NOPE"],
            "topic": ["/sports/football"] * (len(sizes) + 2),
            "properties": ['{"amount": 500}'] * (len(sizes) + 2),
            "count": pa.array([2] * (len(sizes) + 2), pa.int32()),
            "bytes": pa.array([*sizes, 10, 10], pa.int64()),
        }
    )
    pq.write_table(table, tmp_path / "log.parquet")
    pcsv.write_csv(table.cast(pa.schema([(f.name, pa.string()) for f in table.schema])), tmp_path / "log.csv")
    typed = analyze(spark, estate(), tmp_path / "log.parquet", tmp_path / "typed", [])
    text = analyze(spark, estate(), tmp_path / "log.csv", tmp_path / "text", [])
    assert typed.summary == text.summary
    assert typed.summary["variants"][0]["publications"] == 2 * 5
    deliveries = _rows(tmp_path / "typed" / "deliveries")
    assert deliveries and all((r["count"], r["bytes"]) == (10, 2 * (450 + 10**18 + 1)) for r in deliveries)
    for name in ("deliveries", "not_delivered", "rejected"):
        key = lambda r: sorted(r.items(), key=str)  # noqa: E731
        assert sorted(_rows(tmp_path / "typed" / name), key=key) == sorted(
            _rows(tmp_path / "text" / name), key=key
        )
    rejected = _rows(tmp_path / "typed" / "rejected")
    assert sorted((r["from"], r["bytes"], r["count"]) for r in rejected) == [
        ("NOPE", "10", "2"),
        ("NOPE", "10", "2"),
        ("QM2", "-5", "2"),
    ]


def test_parquet_maps_of_text_are_typed_like_prop(spark: Any, tmp_path: Path) -> None:
    schema = pa.schema(
        [("from", pa.string()), ("topic", pa.string()), ("properties", pa.map_(pa.string(), pa.string()))]
    )
    table = pa.Table.from_pylist(
        [
            {"from": "QM2", "topic": "/sports/a", "properties": [("amount", "500")]},
            {"from": "QM2", "topic": "/sports/a", "properties": [("amount", "5")]},
        ],
        schema=schema,
    )
    pq.write_table(table, tmp_path / "log.parquet")
    analyze(spark, estate(), tmp_path / "log.parquet", tmp_path / "out", [])
    got = {
        (r["subscription"], r["count"]) for r in _rows(tmp_path / "out" / "deliveries") if r["node"] == "QM5"
    }
    assert got == {("BIG.SPORTS", 1)}  # amount 500 > 100 selected: typed as a number, not the text '500'


@pytest.mark.parametrize("text", ["down:NOPE", "direct:SPORTS.MISSING"])
def test_a_variant_naming_what_the_snapshot_lacks_fails_before_spark(
    spark: Any, tmp_path: Path, text: str
) -> None:
    from mqctl.domain.errors import InputError

    log = write_jsonl(tmp_path / "p.jsonl", publications(3))
    with pytest.raises(InputError):
        analyze(spark, estate(), log, tmp_path / "out", [parse_variant(text)])
    assert not (tmp_path / "out").exists()


def test_every_rejected_row_is_written_once_whichever_task_refuses_it(spark: Any, tmp_path: Path) -> None:
    """Rows refused by the checks leave the routing stage (keyed there, a key's rows in one task) as
    facts of their own: over several routing tasks, ``rejected/`` holds each bad log row exactly as
    often as the log does, no more, no less, and the good rows are all routed."""
    good = [
        {k: str(v) if k != "properties" else json.dumps(v) for k, v in r.items()} for r in publications(60)
    ]
    bad = [
        {"from": "NOPE", "topic": f"/sports/{i % 7}", "properties": "", "count": "", "bytes": str(i % 3)}
        for i in range(40)
    ]
    bad += [{**r, "count": "lots"} for r in good[:15]]  # beside good rows of the same topics
    bad += [{**r, "properties": "{broken"} for r in good[15:25]]
    rows = [*good, *bad, *bad[:5]]  # some bad rows twice
    columns = ("from", "topic", "properties", "count", "bytes")
    pcsv.write_csv(pa.Table.from_pylist([{c: r[c] for c in columns} for r in rows]), tmp_path / "log.csv")
    result = analyze(spark, estate(), tmp_path / "log.csv", tmp_path / "out", [], partitions=3)
    rejected = _rows(tmp_path / "out" / "rejected")
    want = Counter(tuple(r[c] or None for c in columns) for r in [*bad, *bad[:5]])
    assert Counter(tuple(r[c] for c in columns) for r in rejected) == want
    assert result.summary["rejected"] == len(bad) + 5
    assert result.summary["variants"][0]["publications"] == sum(int(r["count"]) for r in good)


@pytest.mark.parametrize("per_key", [False, True])
def test_rows_behind_a_key_the_engine_refuses_are_rejected_with_its_reason(per_key: bool) -> None:
    """A key that passes the checks but that the engine refuses (here: a publisher the checks know and
    the snapshot lacks) takes every distinct row behind it to ``rejected`` with the engine's reason,
    once each; the other keys are routed."""
    import pyarrow.compute as pc

    from mqctl.spark.batches import Keying, Payload, route_log_rows

    topology = estate()
    keying = Keying.of(topology)
    ghost = Keying({**keying.dialects, "GHOST": keying.dialects["QM2"]}, keying.relevant)
    given = pa.table(
        {
            "from": ["GHOST", "GHOST", "QM2", "NOPE"],
            "topic": ["/sports/a", "/sports/a", "/sports/a", "/sports/a"],
            "properties": ['{"amount": 5}', '{"amount": 5, "noise": 1}', '{"amount": 5}', None],
            "count_text": ["2", "3", "1", None],
            "bytes_text": [None, None, None, None],
            "record": [None, None, None, None],
            "rows": pa.array([1, 4, 2, 1], pa.int64()),
            "bytes_sum": pa.array([10, 40, 20, 0], pa.int64()),
        }
    )
    payload = Payload(topology, [parse_variant("down:QM3")], "ghost-test", keying=ghost)
    facts = pa.Table.from_batches(list(route_log_rows(iter(given.to_batches()), payload, per_key)))
    rejected = facts.filter(pc.equal(facts.column("kind"), "rejected")).to_pylist()
    assert sorted((r["from"], r["properties"], r["count_text"]) for r in rejected) == [
        ("GHOST", '{"amount": 5, "noise": 1}', "3"),
        ("GHOST", '{"amount": 5}', "2"),
        ("NOPE", None, None),
    ]
    assert {r["reason"] for r in rejected if r["from"] == "GHOST"} == {
        r["reason"] for r in facts.filter(pc.equal(facts.column("kind"), "refused")).to_pylist()
    }
    assert all(r["variant"] is None for r in rejected)
    published = facts.filter(pc.equal(facts.column("status"), "published")).to_pylist()
    assert {(r["variant"], r["node"], r["messages"]) for r in published} == {
        (CURRENT, "QM2", 2),
        ("down:QM3", "QM2", 2),
    }


@pytest.mark.parametrize("per_key", [False, True])
def test_a_task_whose_every_key_is_refused_gives_its_rows_to_rejected(per_key: bool) -> None:
    """No key routed at all (every key refused by the engine): the task's facts are the refusals and
    the rows behind them, with ``--per-key`` too (its batch of keyed rows is empty)."""
    from mqctl.spark.batches import Keying, Payload, route_log_rows

    topology = estate()
    keying = Keying.of(topology)
    ghost = Keying({**keying.dialects, "GHOST": keying.dialects["QM2"]}, keying.relevant)
    given = pa.table(
        {
            "from": ["GHOST"],
            "topic": ["/sports/a"],
            "properties": ['{"amount": 5}'],
            "count_text": ["2"],
            "bytes_text": pa.array([None], pa.string()),
            "record": pa.array([None], pa.string()),
            "rows": pa.array([1], pa.int64()),
            "bytes_sum": pa.array([10], pa.int64()),
        }
    )
    payload = Payload(topology, [], "all-refused", keying=ghost)
    facts = pa.Table.from_batches(list(route_log_rows(iter(given.to_batches()), payload, per_key)))
    assert sorted(facts.column("kind").to_pylist()) == ["refused", "rejected"]


def test_a_topic_many_publishers_share_is_spread_over_the_routing_tasks(spark: Any, tmp_path: Path) -> None:
    """The routing stage's rows are laid out by topic and publisher (``ROUTED_BY``): a key's rows all
    meet in one task (they are merged there), and a topic published from seven queue managers is not
    one task's work alone (it would be the stage's tail)."""
    from pyspark.sql import functions as F

    from mqctl.spark.job import distinct_rows

    rows = [
        {"from": node, "topic": "/sports/final", "properties": {"amount": amount}, "count": 1, "bytes": 10}
        for node in ("QM1", "QM2", "QM3", "QM4", "QM5", "QMP", "QMC")
        for amount in (50, 150, 5000)
        for _ in range(2)
    ]
    log = write_jsonl(tmp_path / "p.jsonl", rows)
    _frame, counted, laid_out, _text = distinct_rows(spark, log, "json", 4)
    tasks = {
        (r["from"], r["properties"]): r["task"]
        for r in laid_out.select("from", "properties", F.spark_partition_id().alias("task")).collect()
    }
    counted.unpersist()
    assert len(tasks) == 21  # the log's identical rows counted as one
    by_publisher: dict[str, set[int]] = {}
    for (node, _properties), task in tasks.items():
        by_publisher.setdefault(node, set()).add(task)
    assert all(len(found) == 1 for found in by_publisher.values())  # a publisher's rows of a topic: one task
    assert len(set(tasks.values())) > 1
