"""`mqctl spark analyze` as a user runs it: a store exported as a snapshot, a log, the summary's shape,
and one clear line for each mistake."""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import run_cli
from tests.spark.topologies import write_jsonl


def _store(tmp_path: Path) -> str:
    """The demo topology of `make demo`, built through the object commands."""
    db = f"sqlite:///{tmp_path / 'store.db'}"
    for args in (
        ["define", "qmgr", "QM1", "--cluster", "USA", "--full-repository", "USA"],
        ["define", "qmgr", "QM2", "--cluster", "USA", "--full-repository", "USA"],
        ["define", "qmgr", "QM3", "--cluster", "USA"],
        ["define", "qmgr", "QM4", "--cluster", "USA"],
        ["define", "qmgr", "QM5", "--cluster", "USA"],
        *(
            [
                "define",
                "topic",
                "ALABAMA",
                "--qmgr",
                host,
                "--topicstr",
                "/USA/Alabama",
                "--cluster",
                "USA",
                "--clroute",
                "topichost",
            ]
            for host in ("QM3", "QM4")
        ),
        [
            "define",
            "sub",
            "MOBILE",
            "--qmgr",
            "QM5",
            "--topicstr",
            "/USA/Alabama/#",
            "--selector",
            "amount > 100",
        ],
        ["define", "sub", "ALL", "--qmgr", "QM1", "--topicstr", "/USA/#"],
        ["define", "qmgr", "E1", "--dialect", "ems"],
    ):
        result = run_cli(args, db=db)
        assert result.exit_code == 0, result.stderr
    return db


def _snapshot(tmp_path: Path) -> tuple[Path, str]:
    db = _store(tmp_path)
    snap = tmp_path / "snap"
    result = run_cli(["export", "snapshot", "--out", str(snap)], db=db)
    assert result.exit_code == 0, result.stderr
    return snap, db


ROWS: list[dict[str, Any]] = [
    {"from": "QM2", "topic": "/USA/Alabama/Mobile", "properties": {"amount": 250}, "count": 4},
    {"from": "QM2", "topic": "/USA/Alabama/Mobile", "properties": {"amount": 5}},
    {"from": "QM9", "topic": "/USA/Alabama/Mobile"},
]


def test_analyze_prints_the_summary_for_scripts(spark: Any, tmp_path: Path) -> None:
    snap, db = _snapshot(tmp_path)
    log = write_jsonl(tmp_path / "log.jsonl", ROWS)
    out = tmp_path / "out"
    result = run_cli(
        [
            "spark",
            "analyze",
            "--snapshot",
            str(snap),
            "--publications",
            str(log),
            "--out",
            str(out),
            "--what-if",
            "down:QM3",
            "--what-if",
            "down:QM4",
            "-o",
            "json",
        ]
    )
    assert result.exit_code == 0, result.stderr
    summary = result.json()
    assert result.stdout == (out / "summary.json").read_text()  # the file's text, as written
    assert set(summary) == {"variants", "rejected"} and summary["rejected"] == 1
    keys = {
        "variant",
        "publications",
        "deliveries",
        "stored",
        "not_delivered",
        "channels_in_use",
        "messages_by_node",
        "messages_by_link",
        "gained",
        "lost",
    }
    assert all(set(v) == keys for v in summary["variants"])
    current, down3, down4 = summary["variants"]
    assert (current["variant"], down3["variant"], down4["variant"]) == ("current", "down:QM3", "down:QM4")
    deliveries = missed = 0
    for row in ROWS[:2]:  # what explain says of each publication, times its count
        props = [f"--prop={k}={v}" for k, v in row["properties"].items()]
        answer = run_cli(
            ["explain", "--from", row["from"], "--topic", row["topic"], *props, "-o", "json"], db=db
        )
        deliveries += row.get("count", 1) * len(answer.json()["deliveries"])  # type: ignore[index]
        missed += row.get("count", 1) * len(answer.json()["not_delivered"])  # type: ignore[index]
    assert current["publications"] == 5
    assert (current["deliveries"], current["not_delivered"]) == (deliveries, missed)
    assert deliveries >= 4  # MOBILE gets the four of amount 250
    assert down3["lost"] == [] and down3["deliveries"] == current["deliveries"]  # QM4 hosts too
    # QM3 is the topic host chosen today; with it down the traffic moves to QM4
    assert {x["to"] for x in current["messages_by_link"] if x["from"] == "QM2"} == {"QM3"}
    assert {x["to"] for x in down3["messages_by_link"] if x["from"] == "QM2"} == {"QM4"}
    for part in ("deliveries", "not_delivered", "link_traffic", "node_load", "rejected"):
        assert any((out / part).glob("*.parquet")), part


@pytest.mark.parametrize(
    "extra, message",
    [
        (["--what-if", "sideways:QM1"], "--what-if"),
        (["--what-if", "topichost:ALABAMA@E1"], "not a queue manager of cluster USA"),
        (["--what-if", "down:QM1", "--what-if", "down:QM1"], "given twice"),
    ],
)
def test_mistakes_are_one_line_and_exit_2(spark: Any, tmp_path: Path, extra: list[str], message: str) -> None:
    snap, _ = _snapshot(tmp_path)
    log = write_jsonl(tmp_path / "log.jsonl", ROWS)
    result = run_cli(
        [
            "spark",
            "analyze",
            "--snapshot",
            str(snap),
            "--publications",
            str(log),
            "--out",
            str(tmp_path / "o"),
            *extra,
        ]
    )
    assert result.exit_code == 2
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "o").exists()


def test_inputs_that_cannot_be_read_are_named(spark: Any, tmp_path: Path) -> None:
    snap, _ = _snapshot(tmp_path)
    log = write_jsonl(tmp_path / "log.jsonl", ROWS)
    base = ["spark", "analyze", "--snapshot", str(snap)]
    missing = run_cli([*base, "--publications", str(tmp_path / "nope.jsonl"), "--out", str(tmp_path / "o")])
    assert missing.exit_code == 2 and "nope.jsonl: no such file or folder" in missing.stderr
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "keep.txt").write_text("x")
    full = run_cli([*base, "--publications", str(log), "--out", str(tmp_path / "full")])
    assert full.exit_code == 2 and "not empty" in full.stderr
    no_from = write_jsonl(tmp_path / "bad.jsonl", [{"topic": "/USA/x"}])
    result = run_cli([*base, "--publications", str(no_from), "--out", str(tmp_path / "o2")])
    assert result.exit_code == 2 and "has no column 'from'" in result.stderr
    unknown = tmp_path / "log.txt"
    unknown.write_text("from,topic\n")
    result = run_cli([*base, "--publications", str(unknown), "--out", str(tmp_path / "o3")])
    assert result.exit_code == 2 and "cannot tell the format" in result.stderr
    bad_snap = run_cli(
        [
            "spark",
            "analyze",
            "--snapshot",
            str(tmp_path),
            "--publications",
            str(log),
            "--out",
            str(tmp_path / "o4"),
        ]
    )
    assert bad_snap.exit_code == 2 and len(bad_snap.stderr.strip().splitlines()) == 1


def test_the_printed_spark_submit_runs_the_same_analysis(
    spark: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--print-submit``'s command, its request read by the entry point in this process (the session
    is the test's, as spark-submit's would be): the CLI's answer, and the CLI's one-line mistakes."""
    from mqctl.cli import spark_submit

    snap, _ = _snapshot(tmp_path)
    log = write_jsonl(tmp_path / "log.jsonl", ROWS)
    base = ["spark", "analyze", "--snapshot", str(snap), "--publications", str(log), "--what-if", "down:QM3"]

    def submitted(*args: str) -> list[str]:
        printed = run_cli([*base, *args, "--print-submit"])
        assert printed.exit_code == 0, printed.stderr
        argv = shlex.split(printed.stdout)
        assert argv[0] == "spark-submit" and argv[5] == str(Path(spark_submit.__file__).resolve())
        return argv[6:]

    capsys.readouterr()
    assert spark_submit.main(submitted("--out", str(tmp_path / "a"), "-o", "json")) == 0
    by_submit = json.loads(capsys.readouterr().out)
    by_cli = run_cli([*base, "--out", str(tmp_path / "b"), "-o", "json"])
    assert by_cli.exit_code == 0, by_cli.stderr
    assert by_submit == by_cli.json() and by_submit["variants"][0]["publications"] == 5
    assert spark_submit.main(submitted("--out", str(tmp_path / "a"))) == 2  # not empty: one line, exit 2
    err = capsys.readouterr().err
    assert "not empty" in err and len(err.strip().splitlines()) == 1
    assert spark_submit.main(submitted("--out", str(tmp_path / "a"), "--force")) == 0  # -o table
    table = capsys.readouterr().out.splitlines()
    assert table[0].split() == ["VARIANT", "PUBLICATIONS", "DELIVERIES", "STORED", "NOT", "DELIVERED"] + [
        "CHANNELS",
        "GAINED",
        "LOST",
    ]
    assert [line.split()[:2] for line in table[1:3]] == [["current", "5"], ["down:QM3", "5"]]
    assert table[3].startswith("rejected publication rows: ")


def test_a_row_that_is_not_utf8_is_one_line_naming_its_line(spark: Any, tmp_path: Path) -> None:
    """A Python worker's error (issue 33: ~46 lines of traceback) is one line with its cause and place."""
    snap, _ = _snapshot(tmp_path)
    log = tmp_path / "log.jsonl"
    log.write_bytes(
        b'{"from": "QM2", "topic": "/USA/Alabama"}\n{"from": "QM2", "topic": "/USA/\xff\xfeb"}\n'
        b'{"from": "QM2", "topic": "/USA/c"}\n'
    )
    result = run_cli(
        [
            "spark",
            "analyze",
            "--snapshot",
            str(snap),
            "--publications",
            str(log),
            "--out",
            str(tmp_path / "o"),
        ]
    )
    assert result.exit_code == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    assert f"{log}:2:32: byte 0xFF is not UTF-8 text" in lines[0], lines[0]
