"""What a long-lived model keeps (per topic, per resolution, per publisher and subscription) never changes
an answer: generated keys routed through a fresh model each and through one long-lived model, in random
orders, with and without ``detail``, give the same JSON; and keys made as the Spark job makes them
(``to_publication``: content shared by every publication of a routing key, so that the model keeps the
selectors' verdicts per content) give through ``route`` the rows a fresh model gives.

The topics share resolutions on purpose (several topic strings under the same deepest topic object), so
that what the engine keeps for one of them is reused for the others.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from hypothesis import given, settings
from hypothesis import strategies as st

from mqctl.domain.explanation import Failures, Publication
from mqctl.domain.messages import JmsValue
from mqctl.domain.model import Topology
from mqctl.domain.publications import routing_key, to_publication
from mqctl.domain.routing import RoutingModel, Rows, explain, route
from tests.domain.test_routing_model import mq_topologies

TOPICS = [
    "/a/b/x",
    "/a/b/y",
    "/a/b/x/z",
    "/a/x",
    "/a/y/z",
    "/a/b/c/x",
    "/a/b/c",
    "/a/b",
    "/c/d/x",
    "/c/d/y",
    "/c/d",
    "/c/e",
    "/z",
]
AMOUNTS = [None, 5, 50, 95]

Key = tuple[str, str, int | None, Failures, bool]


def answer(model: RoutingModel, key: Key) -> str:
    node, topic, amount, failures, detail = key
    properties = {} if amount is None else {"amount": JmsValue("int", amount)}
    explanation = explain(model, Publication(node, topic, properties), failures, detail=detail)
    return json.dumps(explanation.to_json(), sort_keys=True)


@st.composite
def keys(draw: st.DrawFn, topology: Topology) -> list[Key]:
    names = sorted(topology.nodes)
    subs = sorted((s.node, s.name) for s in topology.subscriptions)
    gone = frozenset((s.node, s.name) for s in topology.subscriptions if not s.durable)
    failure_sets = [Failures(), Failures(offline=gone)]
    down = draw(st.sets(st.sampled_from(names), max_size=1))
    failure_sets.append(Failures(down=frozenset(down)))
    if subs:
        offline = draw(st.sets(st.sampled_from(subs), max_size=2))
        failure_sets.append(Failures(offline=frozenset(offline)))
    if len(names) > 1:
        a, b = draw(st.permutations(names))[:2]
        failure_sets.append(Failures(links_down=frozenset({frozenset((a, b))})))
    key = st.tuples(
        st.sampled_from(names),
        st.sampled_from(TOPICS),
        st.sampled_from(AMOUNTS),
        st.sampled_from(failure_sets),
        st.booleans(),
    )
    return draw(st.lists(key, min_size=1, max_size=24))


def _same_in_any_order(data: st.DataObject, ask: Callable[[RoutingModel, Key], object]) -> None:
    """Each generated key asked of a long-lived model (two cache sizes), every key twice in a random
    order, is answered as a fresh model answers it."""
    topology = data.draw(mq_topologies())
    asked = data.draw(keys(topology))
    fresh = {key: ask(RoutingModel(topology), key) for key in asked}
    for cache_size in (1, 1024):
        model = RoutingModel(topology, cache_size=cache_size)
        for key in data.draw(st.permutations(asked + asked)):
            assert ask(model, key) == fresh[key], key


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_a_long_lived_model_answers_as_fresh_ones_in_any_order(data: st.DataObject) -> None:
    _same_in_any_order(data, answer)


def rows(
    model: RoutingModel, key: Key
) -> tuple[list[tuple[str, str, object, str | None]], list[tuple[str, str, str]]]:
    """``route``'s rows of a key made as the Spark job makes it, as plain values."""
    node, topic, amount, failures, _ = key
    text = routing_key({} if amount is None else {"amount": JmsValue("int", amount)}, {}, ["amount"])
    found: Rows = route(model, to_publication(node, topic, text), failures)
    delivered = [(s.node, s.name, a, at) for s, a, at in found.delivered]
    missed = [(s.node, s.name, str(m.reason)) for s, m in found.missed]
    return delivered, missed


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_a_long_lived_model_routes_shared_keys_as_fresh_ones_in_any_order(data: st.DataObject) -> None:
    """``route``'s rows and the answer, asked of the same long-lived model in turn."""
    _same_in_any_order(data, lambda model, key: (rows(model, key), answer(model, key)))
