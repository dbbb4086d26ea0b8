"""The human view of explain (``mqctl.render.explain_tree.render``): topic hosts and counted alternatives."""

from __future__ import annotations

import pytest

from mqctl.domain.explanation import Publication
from mqctl.domain.routing import explain
from mqctl.render.explain_tree import render
from tests.domain import ems_builders as ems
from tests.domain import mq_builders as mq
from tests.domain.test_routing_mq import host_cluster, receiver


def test_topic_hosts_are_shown(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    t = host_cluster("QM2", "QM3", subs=(mq.sub("QM4", "S", "/USA/Alabama/#"),))
    t.add(receiver("QM3", wght=75), receiver("QM2", wght=25))
    render(mq.ask(t, "QM1", "/USA/Alabama/Mobile", down=["QM5"]))
    text = capsys.readouterr().out
    assert "Topic hosts QM1 chooses among" in text
    assert "QM2: rank 0, priority 0, weight 25, available, share 25%" in text
    assert "QM3: rank 0, priority 0, weight 75, available, share 75%, the path's host" in text
    assert "alternative path: QM1 -> QM2 -> QM4" in text


def test_more_alternatives_are_counted(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    names = ["P", *(f"M{i}" for i in range(10)), "S"]
    topo = ems.build(
        [ems.server(n) for n in names],
        [ems.topic(n, "t", "global", maxmsgs="1") for n in names],
        [r for i in range(10) for r in ems.both("P", f"M{i}") + ems.both(f"M{i}", "S")],
        ems.sub("S", "s", "t"),
    )
    render(explain(topo, Publication("P", "t")))
    text = capsys.readouterr().out
    assert text.count("alternative path:") == 8 and "... and 1 more alternative paths" in text
    assert "Topic hosts" not in text
