"""The snapshot is read while Spark counts the log when the JVM is up already, and before Spark starts
when it is not (a mistake costs no JVM start)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from mqctl.domain.errors import InputError
from mqctl.services import analyze as service
from mqctl.services.analyze import AnalyzeRequest
from tests.spark.test_cli import ROWS, _snapshot
from tests.spark.topologies import write_jsonl


def test_a_refused_snapshot_cancels_the_count_and_leaves_no_output(spark: Any, tmp_path: Path) -> None:
    log = write_jsonl(tmp_path / "log.jsonl", ROWS * 50)
    group = spark.sparkContext.getLocalProperty("spark.jobGroup.id")  # an earlier test's, or None
    not_a_snapshot = tmp_path / "empty"
    not_a_snapshot.mkdir()
    with pytest.raises(InputError, match="not an mqctl snapshot"):
        service.analyze(AnalyzeRequest(not_a_snapshot, log, tmp_path / "out"))
    assert not (tmp_path / "out").exists()
    assert spark.sparkContext.statusTracker().getActiveJobsIds() == []
    # the session is as it was: the next analysis runs, its snapshot read while the log is counted
    snap, _ = _snapshot(tmp_path)
    result = service.analyze(AnalyzeRequest(snap, log, tmp_path / "out"))
    assert result.summary["variants"][0]["publications"] == 250
    assert spark.sparkContext.getLocalProperty("spark.jobGroup.id") == group


def test_without_a_jvm_the_snapshot_is_refused_before_spark_starts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from mqctl.spark import session

    def no_start(*args: object, **kwargs: object) -> None:
        raise AssertionError("Spark was started before the snapshot was checked")

    monkeypatch.setattr(session, "jvm_running", lambda: False)
    monkeypatch.setattr(session, "spark_session", no_start)
    log = write_jsonl(tmp_path / "log.jsonl", ROWS)
    not_a_snapshot = tmp_path / "empty"
    not_a_snapshot.mkdir()
    with pytest.raises(InputError, match="not an mqctl snapshot"):
        service.analyze(AnalyzeRequest(not_a_snapshot, log, tmp_path / "out"))
    assert not (tmp_path / "out").exists()
