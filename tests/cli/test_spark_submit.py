"""`mqctl spark analyze --print-submit` and the `spark-submit` entry point it names, without a JVM: the
options are parsed once (by the CLI) and travel as one JSON request, read back field by field; a bad
request is one line and exit 2. The job itself through that entry point: tests/spark/test_cli.py."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from mqctl.cli import spark_submit
from mqctl.services.analyze import AnalyzeRequest
from tests.conftest import run_cli

FULL = AnalyzeRequest(
    snapshot=Path("snap dir"),
    publications=Path("/data/day.parquet"),
    out=Path("replay"),
    what_if=("down:QM3", "topichost:SPORTS@QM3,QM4"),
    master="spark://master:7077",
    fmt="parquet",
    force=True,
    partitions=8,
    driver_memory="6g",
    per_key=True,
)


@pytest.mark.parametrize("request_", [FULL, AnalyzeRequest(Path("s"), Path("p"), Path("o"))])
def test_a_request_survives_its_json(request_: AnalyzeRequest) -> None:
    assert AnalyzeRequest.from_json(json.loads(json.dumps(request_.as_json()))) == request_


def test_print_submit_prints_the_command_and_runs_nothing(tmp_path: Path) -> None:
    out = tmp_path / "replay"
    printed = run_cli(
        [
            "spark",
            "analyze",
            "--snapshot",
            "snap dir",
            "--publications",
            "/data/day.parquet",
            "--out",
            str(out),
            "--master",
            "spark://master:7077",
            "--driver-memory",
            "6g",
            "--what-if",
            "down:QM3",
            "--what-if",
            "topichost:SPORTS@QM3,QM4",
            "--format",
            "parquet",
            "--force",
            "--partitions",
            "8",
            "--per-key",
            "-o",
            "json",
            "--print-submit",
        ]
    )
    assert printed.exit_code == 0, printed.stderr
    assert printed.stdout.count("\n") == 1 and printed.stderr == ""
    argv = shlex.split(printed.stdout)
    assert argv[:5] == ["spark-submit", "--master", "spark://master:7077", "--driver-memory", "6g"]
    assert argv[5] == str(Path(spark_submit.__file__).resolve()) and len(argv) == 7
    request, output = spark_submit.read_submitted(argv[6:])
    assert request == AnalyzeRequest(**{**FULL.__dict__, "out": out}) and output == "json"
    assert not out.exists()  # nothing ran: the paths are the cluster's, not checked here


def test_print_submit_carries_the_defaults() -> None:
    printed = run_cli(
        ["spark", "analyze", "--snapshot", "s", "--publications", "p", "--out", "o", "--print-submit"]
    )
    argv = shlex.split(printed.stdout)
    assert argv[1:5] == ["--master", "local[*]", "--driver-memory", "2g"]
    assert spark_submit.read_submitted(argv[6:]) == (AnalyzeRequest(Path("s"), Path("p"), Path("o")), "table")


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        ([], "takes one argument"),
        (["{}", "{}"], "takes one argument"),
        (["--snapshot"], "is not JSON"),
        (['{"request": {}}'], "a JSON object of 'request' and 'output'"),
        (['{"request": {}, "output": "yaml"}'], "output 'yaml' is not one of table, json"),
        (['{"request": [], "output": "json"}'], "request: is not a JSON object"),
        (['{"request": {"snapshot": "s", "publications": "p"}, "output": "json"}'], "lacks the field 'out'"),
        (
            [
                '{"request": {"snapshot": "s", "publications": "p", "out": "o", "colour": 1}, "output": "json"}'
            ],
            "has no field 'colour'",
        ),
        (
            ['{"request": {"snapshot": 1, "publications": "p", "out": "o"}, "output": "json"}'],
            "field 'snapshot' is a number, not a path (string)",
        ),
        (
            [
                '{"request": {"snapshot": "s", "publications": "p", "out": "o", "partitions": true}, "output": "json"}'
            ],
            "field 'partitions' is true or false, not a whole number",
        ),
        (
            [
                '{"request": {"snapshot": "s", "publications": "p", "out": "o", "what_if": "down:QM3"}, "output": "json"}'
            ],
            "field 'what_if' is a string, not a list of strings",
        ),
    ],
)
def test_a_bad_request_is_one_line_and_exit_2(
    argv: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert spark_submit.main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.startswith("mqctl: error: ")
    assert said in captured.err and len(captured.err.splitlines()) == 1


def test_the_entry_point_runs_as_a_script_without_the_cli_or_the_store() -> None:
    """As spark-submit runs it (a file, its folder first on sys.path): the request is read by the same
    service, and neither Typer, Click, Rich nor the store is loaded."""
    code = (
        "import runpy, sys; sys.argv = [sys.argv[0], '{}']\n"
        "try:\n"
        f"    runpy.run_path({spark_submit.__file__!r}, run_name='__main__')\n"
        "except SystemExit as exc:\n"
        "    print(exc.code, sorted(m for m in sys.modules if m.startswith("
        "('mqctl.cli.', 'mqctl.store', 'typer', 'click', 'rich'))))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert proc.stdout.strip() == "2 []"
    assert proc.stderr.startswith("mqctl: error: ") and len(proc.stderr.splitlines()) == 1
    script = subprocess.run(
        [sys.executable, spark_submit.__file__, "not json"], capture_output=True, text=True, check=False
    )
    assert script.returncode == 2 and script.stdout == ""
    assert script.stderr.startswith("mqctl: error: ") and "is not JSON" in script.stderr
