"""--what-if variants: the topology an administrator would have after the change, checked as a door."""

from __future__ import annotations

import pytest

from mqctl.domain.errors import InputError
from mqctl.domain.explanation import Publication
from mqctl.domain.model import ClRoute, Topology
from mqctl.domain.routing import explain
from mqctl.domain.what_if import apply_variant, parse_variant
from tests.domain import mq_builders as mq


def _estate(*more: object) -> Topology:
    return mq.topo(
        [mq.qm(n) for n in ("QM1", "QM2", "QM3", "QM4", "QM5", "QM6")],
        mq.cluster("USA", "QM1", "QM2", "QM3", "QM4", "QM5", "QM6"),
        mq.topic("QM1", "ALABAMA", "/USA/Alabama", "USA"),
        mq.topic("QM6", "LOCAL", "/local", ""),
        mq.sub("QM5", "S5", "/USA/Alabama/#"),
        *more,
    )


@pytest.mark.parametrize(
    "text",
    [
        "",
        "topichost",
        "topichost:ALABAMA",
        "topichost:@QM3",
        "topichost:A@",
        "direct:",
        "down:",
        "up:QM1",
        "direct:A@QM1",
        "topichost:A@QM3,QM3",
    ],
)
def test_malformed_variants_are_bad_input(text: str) -> None:
    with pytest.raises(InputError) as caught:
        parse_variant(text)
    assert caught.value.attribute == "--what-if"


def test_topichost_redefines_the_object_on_exactly_those_hosts() -> None:
    t = _estate()
    variant = parse_variant("topichost:ALABAMA@QM3,QM4")
    changed, failures = apply_variant(t, variant)
    defs = sorted((x.node, x.clroute) for x in changed.topics if x.name == "ALABAMA")
    assert defs == [("QM3", ClRoute.TOPICHOST), ("QM4", ClRoute.TOPICHOST)]
    assert [x.node for x in t.topics if x.name == "ALABAMA"] == ["QM1"]  # the current one is unchanged
    assert not failures.down
    result = explain(changed, Publication("QM6", "/USA/Alabama/Mobile"), failures)
    assert [h.to_node for h in result.deliveries[0].hops][0] in {"QM3", "QM4"}


def test_direct_alters_clroute_and_down_is_a_failure() -> None:
    t = _estate(mq.hosted("USA", "ALASKA", "/USA/Alaska", "QM3", "QM4"))
    changed, _ = apply_variant(t, parse_variant("direct:ALASKA"))
    assert {x.clroute for x in changed.topics if x.name == "ALASKA"} == {ClRoute.DIRECT}
    assert max(x.seq for x in changed.topics) > max(x.seq for x in t.topics)
    same, failures = apply_variant(t, parse_variant("down:QM3"))
    assert same is t and failures.down == {"QM3"}


@pytest.mark.parametrize(
    "text, message",
    [
        ("down:NOPE", "no such node"),
        ("direct:LOCAL", "no clustered topic object"),
        ("direct:MISSING", "no clustered topic object"),
        ("topichost:ALABAMA@QM9", "no such node"),
    ],
)
def test_variants_naming_what_the_model_lacks_are_refused(text: str, message: str) -> None:
    with pytest.raises(InputError, match=message):
        apply_variant(_estate(), parse_variant(text))


def test_a_host_outside_the_cluster_or_a_clashing_topicstr_is_refused() -> None:
    t = _estate(mq.qm("QM9"))
    with pytest.raises(InputError, match="not a queue manager of cluster USA"):
        apply_variant(t, parse_variant("topichost:ALABAMA@QM9"))
    t = _estate(mq.topic("QM3", "OTHER", "/USA/Alabama"))
    with pytest.raises(InputError, match="already used by topic object OTHER"):
        apply_variant(t, parse_variant("topichost:ALABAMA@QM3"))
