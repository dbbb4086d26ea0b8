"""`domain.subscriptions`: what a subscription receives and where it resolves, per dialect and schema.

``receives`` answers most subscriptions by a literal-prefix test before compiling the pattern; the
property below holds it to the full matchers of ``topics`` on patterns built from wildcard characters."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from mqctl.domain.model import Dialect, Subscription, WSchema
from mqctl.domain.subscriptions import has_wildcards, prefix_levels, receives
from mqctl.domain.topics import char_matches, matches

MQ_PARTS = st.lists(st.sampled_from(["a", "b", "/", "#", "+", "a#"]), min_size=1, max_size=6).map("".join)
EMS_PATTERNS = st.builds(
    lambda head, tail: ".".join(head + tail),
    st.lists(st.sampled_from(["a", "b", "*"]), min_size=1, max_size=3),
    st.sampled_from([[], [">"]]),
)
"""Valid EMS patterns only (a stored subscription's is): ``>`` last if at all."""
EMS_TOPICS = st.lists(st.sampled_from(["a", "b", "c"]), min_size=1, max_size=4).map(".".join)
CHAR_PARTS = st.lists(st.sampled_from(["a", "/", "*", "?", "%*", "b"]), max_size=6).map("".join)
TOPICS = st.lists(st.sampled_from(["a", "b", "/", "a#", "*"]), min_size=1, max_size=6).map("".join)


@settings(max_examples=150)
@given(MQ_PARTS, TOPICS)
@example("a/#", "a")  # '#' stands for zero or more levels: the parent itself too
@example("/a/#", "/a")
def test_mq_topic_schema_agrees_with_matches(pattern: str, topic: str) -> None:
    assert receives(Subscription("Q", "S", pattern), topic, Dialect.MQ) == matches(pattern, topic, Dialect.MQ)


@settings(max_examples=150)
@given(CHAR_PARTS, TOPICS)
def test_mq_char_schema_agrees_with_char_matches(pattern: str, topic: str) -> None:
    sub = Subscription("Q", "S", pattern, wschema=WSchema.CHAR)
    assert receives(sub, topic, Dialect.MQ) == char_matches(pattern, topic)


@settings(max_examples=150)
@given(EMS_PATTERNS, EMS_TOPICS)
def test_ems_agrees_with_matches(pattern: str, topic: str) -> None:
    assert receives(Subscription("E", "S", pattern), topic, Dialect.EMS) == matches(
        pattern, topic, Dialect.EMS
    )


def test_where_a_subscription_resolves_and_whether_it_is_a_wildcard() -> None:
    topic_schema = Subscription("Q", "S", "/USA/+/Mobile")
    char_schema = Subscription("Q", "S", "/USA/Ala*", wschema=WSchema.CHAR)
    assert prefix_levels(topic_schema) == ["", "USA"] and prefix_levels(char_schema) == ["", "USA"]
    assert has_wildcards(topic_schema, Dialect.MQ) and has_wildcards(char_schema, Dialect.MQ)
    assert not has_wildcards(Subscription("Q", "S", "/USA#"), Dialect.MQ)
    assert not has_wildcards(Subscription("Q", "S", "/USA/%*", wschema=WSchema.CHAR), Dialect.MQ)
