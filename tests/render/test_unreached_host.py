"""The hop to a topic host that reaches no subscriber: the explain tree and both pictures show it for
the same cases (``wording.unreached_host_hops``), and the pictures still read back as drawn."""

from __future__ import annotations

import pytest

from mqctl.domain.explanation import Failures
from mqctl.render.diagram import Mark
from mqctl.render.explain_tree import render
from mqctl.render.journey import journey_diagram
from mqctl.render.wording import NO_SUBSCRIBER
from tests.domain import mq_builders as mq
from tests.domain.test_routing_mq import host_cluster, receiver
from tests.render import test_dot, test_mermaid

pytestmark = pytest.mark.filterwarnings("ignore::pyparsing.warnings.PyparsingDeprecationWarning")
"""pydot 4.0 still calls pyparsing's camelCase names, which pyparsing 3.3 deprecates."""

CASES = {
    "nobody subscribes": ((), [], {"QM2"}),
    "a subscriber on the publisher only": ((mq.sub("QM1", "S", "/USA/Alabama/#"),), [], {"QM2"}),
    "a subscriber behind the host": ((mq.sub("QM4", "S", "/USA/Alabama/#"),), [], set()),
    "the heavier host is down: the other one is chosen": ((), ["QM2"], {"QM3"}),
}


@pytest.mark.parametrize("case", CASES)
def test_tree_and_pictures_mark_the_same_hosts(
    case: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    subs, down, wanted = CASES[case]
    t = host_cluster("QM2", "QM3", subs=subs)
    t.add(receiver("QM2", wght=90), receiver("QM3", rank=0, prty=0, wght=10))
    result = mq.ask(t, "QM1", "/USA/Alabama/Mobile", down=down)
    render(result, t)
    tree = {
        line.split("->")[1].split()[0]
        for line in capsys.readouterr().out.splitlines()
        if NO_SUBSCRIBER in line
    }
    diagram = journey_diagram(result, Failures(down=frozenset(down)), t)
    test_mermaid.read_back(diagram)
    test_dot.read_back(diagram)
    marked = {k for k, b in diagram.boxes.items() if NO_SUBSCRIBER in b.lines and Mark.MISSED in b.marks}
    hops = {(a.tail, a.head, tuple(a.lines)) for a in diagram.arrows if a.head in marked}
    assert tree == marked == wanted, case
    assert hops == {("QM1", h, ("topichost CL1",)) for h in wanted}
