"""A real Spark standalone master and worker (from the PySpark installation) on 127.0.0.1: the job
ships its code to executors in other processes and gets the same answer as local mode."""

from __future__ import annotations

import json
import os
import shlex
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.spark.test_cli import ROWS, _snapshot
from tests.spark.topologies import write_jsonl

pytestmark = pytest.mark.slow


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_port(port: int, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.5)
    raise TimeoutError(f"nothing listens on 127.0.0.1:{port} after {timeout} s")


def _spark_class() -> Path:
    import pyspark

    return Path(pyspark.__file__).parent / "bin" / "spark-class"


@pytest.fixture
def standalone(tmp_path: Path) -> Iterator[str]:
    port = _free_port()
    env = {**os.environ, "SPARK_LOCAL_IP": "127.0.0.1", "SPARK_NO_DAEMONIZE": "1"}
    logs = tmp_path / "spark-logs"
    logs.mkdir()
    started: list[subprocess.Popen[bytes]] = []

    def start(name: str, *args: str) -> None:
        with open(logs / f"{name}.log", "wb") as log:
            started.append(
                subprocess.Popen(
                    [str(_spark_class()), *args],
                    env=env,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    start_new_session=True,
                )
            )

    try:
        start(
            "master",
            "org.apache.spark.deploy.master.Master",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--webui-port",
            str(_free_port()),
        )
        _wait_port(port, 120)
        start(
            "worker",
            "org.apache.spark.deploy.worker.Worker",
            f"spark://127.0.0.1:{port}",
            "--host",
            "127.0.0.1",
            "--cores",
            "2",
            "--memory",
            "2g",
            "--webui-port",
            str(_free_port()),
            "--work-dir",
            str(tmp_path / "work"),
        )
        yield f"spark://127.0.0.1:{port}"
    finally:
        for proc in started:
            os.killpg(proc.pid, signal.SIGTERM)
        for proc in started:
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
    assert all(proc.poll() is not None for proc in started)


def test_a_standalone_cluster_gives_the_local_answer(spark: Any, standalone: str, tmp_path: Path) -> None:
    from tests.conftest import run_cli

    snap, _ = _snapshot(tmp_path)
    log = write_jsonl(tmp_path / "log.jsonl", ROWS)
    args = [
        "spark",
        "analyze",
        "--snapshot",
        str(snap),
        "--publications",
        str(log),
        "--what-if",
        "down:QM3",
        "-o",
        "json",
    ]
    local = run_cli([*args, "--out", str(tmp_path / "local")])
    assert local.exit_code == 0, local.stderr
    remote = subprocess.run(
        [
            str(Path(sys.executable).parent / "mqctl"),
            *args,
            "--out",
            str(tmp_path / "remote"),
            "--master",
            standalone,
        ],
        capture_output=True,
        text=True,
        env={**os.environ, "SPARK_LOCAL_IP": "127.0.0.1"},
        timeout=600,
        check=False,
    )
    assert remote.returncode == 0, remote.stderr[-2000:]
    assert json.loads(remote.stdout) == local.json()
    # Spark's own logging is kept to errors: no start-up chatter around mqctl's answer
    assert "Setting default log level" not in remote.stderr
    assert "Using incubator modules" not in remote.stderr  # the JVM's own start-up warning, filtered
    # the executors ran in the worker's processes: their work folder holds the application's stderr
    assert list((tmp_path / "work").glob("app-*/*/stderr"))
    # the command --print-submit writes, run by spark-submit on the same master: the same answer
    printed = run_cli([*args, "--out", str(tmp_path / "submitted"), "--master", standalone, "--print-submit"])
    assert printed.exit_code == 0, printed.stderr
    argv = shlex.split(printed.stdout)
    assert argv[0] == "spark-submit"
    submitted = subprocess.run(
        [str(_spark_class().with_name("spark-submit")), *argv[1:]],
        capture_output=True,
        text=True,
        env={**os.environ, "SPARK_LOCAL_IP": "127.0.0.1", "PYSPARK_PYTHON": sys.executable},
        timeout=600,
        check=False,
    )
    assert submitted.returncode == 0, submitted.stderr[-2000:]
    assert json.loads(submitted.stdout) == local.json()
