"""The JVM's stderr reaches the user whole, less the start-up warning no option turns off."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time

import pytest

from mqctl.spark.jvm_stderr import jvm_stderr_filtered, pass_on


def _through_filter(chunks: list[bytes]) -> bytes:
    source_r, source_w = os.pipe()
    target_r, target_w = os.pipe()
    thread = threading.Thread(target=pass_on, args=(source_r, target_w))
    thread.start()
    for chunk in chunks:
        os.write(source_w, chunk)
    os.close(source_w)
    thread.join(timeout=10)
    out = b""
    while data := os.read(target_r, 65536):
        out += data
    os.close(target_r)
    return out


def test_the_incubator_warning_is_left_out_and_every_other_line_passed_on() -> None:
    out = _through_filter(
        [
            b"WARNING: Using incubator modules: jdk.incubator.vector\nERROR Exec",
            b"utor: task failed\n",
            b"a last line without newline",
        ]
    )
    assert out == b"ERROR Executor: task failed\na last line without newline"


def test_a_warning_split_across_reads_is_still_left_out() -> None:
    out = _through_filter([b"WARNING: Using incub", b"ator modules: jdk.incubator.vector\nkept\n"])
    assert out == b"kept\n"


def test_a_child_started_in_the_block_writes_through_the_filter_and_python_keeps_its_stderr(
    capfd: pytest.CaptureFixture[str],
) -> None:
    script = (
        "import sys; sys.stderr.write('WARNING: Using incubator modules: jdk.incubator.vector\\n"
        "from the child\\n')"
    )
    with jvm_stderr_filtered():
        child = subprocess.Popen([sys.executable, "-c", script])
    child.wait(timeout=30)
    os.write(2, b"from python\n")
    err = _read_when_done(capfd, b"from the child")
    assert "from the child" in err
    assert "from python" in err
    assert "incubator" not in err


def _read_when_done(capfd: pytest.CaptureFixture[str], expected: bytes) -> str:
    """What reached fd 2, once the filter's thread has passed on ``expected`` (it runs on its own)."""
    seen = ""
    for _ in range(100):
        seen += capfd.readouterr().err
        if expected.decode() in seen:
            break
        time.sleep(0.05)
    return seen
