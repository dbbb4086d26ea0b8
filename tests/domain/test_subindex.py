"""SubscriptionIndex: the wildcard rules of semantics §2 through the index, and agreement with a scan."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mqctl.domain.model import Dialect
from mqctl.domain.subindex import SubscriptionIndex
from mqctl.domain.topics import TopicSyntaxError, matches

MQ, EMS = Dialect.MQ, Dialect.EMS


def found(index: SubscriptionIndex[str], topic: str) -> list[str]:
    return sorted(index.match(topic))


def test_literal_and_wildcard_patterns_mq() -> None:
    # §2: '+' one level, '#' zero or more, anywhere; 'USA#' literal; '/USA' differs from 'USA'
    idx: SubscriptionIndex[str] = SubscriptionIndex(MQ)
    for name, pattern in [
        ("lit", "a/b"),
        ("plus", "a/+"),
        ("hash", "a/#"),
        ("all", "#"),
        ("mid", "a/#/c"),
        ("lead", "#/c"),
        ("usa", "USA#"),
        ("root", "/USA"),
    ]:
        idx.add(pattern, name)
    assert found(idx, "a") == ["all", "hash"]
    assert found(idx, "a/b") == ["all", "hash", "lit", "plus"]
    assert found(idx, "a/c") == ["all", "hash", "lead", "mid", "plus"]
    assert found(idx, "a/x/y/c") == ["all", "hash", "lead", "mid"]
    assert found(idx, "USA#") == ["all", "usa"]
    assert found(idx, "USA") == ["all"]
    assert found(idx, "/USA") == ["all", "root"]


def test_multiple_hashes_report_each_pair_once() -> None:
    idx: SubscriptionIndex[str] = SubscriptionIndex(MQ)
    idx.add("#/#", "x")
    idx.add("#/a/#", "y")
    idx.add("#/#/a", "z")
    assert found(idx, "a/a/a") == ["x", "y", "z"]
    assert found(idx, "b") == ["x"]


def test_ems_patterns() -> None:
    # §2: '*' exactly one element, '>' one or more trailing; 'foo.>' does not match 'foo'
    idx: SubscriptionIndex[str] = SubscriptionIndex(EMS)
    idx.add("foo.>", "gt")
    idx.add("foo.*", "star")
    idx.add("foo", "lit")
    idx.add(">", "all")
    assert found(idx, "foo") == ["all", "lit"]
    assert found(idx, "foo.bar") == ["all", "gt", "star"]
    assert found(idx, "foo.bar.baz") == ["all", "gt"]
    with pytest.raises(TopicSyntaxError):
        idx.add("foo.a*", "bad")
    mq: SubscriptionIndex[str] = SubscriptionIndex(MQ)
    with pytest.raises(TopicSyntaxError):
        mq.add("", "bad")


def test_add_is_idempotent_and_len_counts_pairs() -> None:
    idx: SubscriptionIndex[str] = SubscriptionIndex()
    idx.add("a/b", "1")
    idx.add("a/b", "1")
    idx.add("a/b", "2")
    idx.add("a/+", "1")
    idx.add("a/+", "1")
    assert len(idx) == 3
    assert found(idx, "a/b") == ["1", "1", "2"]  # two patterns carry value "1"


def test_discard_removes_and_prunes() -> None:
    idx: SubscriptionIndex[str] = SubscriptionIndex()
    for p in ("a/b", "a/+/c", "a/#", "#/z", "a/b/c"):
        idx.add(p, p)
    idx.discard("nothing/here", "x")  # absent: no error
    idx.discard("a/+/c", "other")
    assert len(idx) == 5
    for p in ("a/b", "a/+/c", "a/#", "#/z", "a/b/c"):
        idx.discard(p, p)
    assert len(idx) == 0
    assert idx.match("a/b/c") == []
    assert idx._root.empty()  # every node pruned


def test_values_need_not_be_hashable_and_may_be_none() -> None:
    idx: SubscriptionIndex[object] = SubscriptionIndex()
    idx.add("a/+", [1])
    idx.add("a/+", None)
    idx.add("a/+", [1])
    assert len(idx) == 2
    assert sorted(map(repr, idx.match("a/x"))) == ["None", "[1]"]
    idx.discard("a/+", [1])
    assert idx.match("a/x") == [None]


# --- property: the index agrees with a scan over every entry ------------------------------------------

MQ_LEVELS = ["a", "b", "", "c"]


def mq_pattern() -> st.SearchStrategy[str]:
    levels = st.lists(st.sampled_from(["a", "b", "", "+", "#"]), min_size=1, max_size=5)
    return levels.map("/".join).filter(bool)  # "" is the one invalid MQ pattern


def ems_pattern() -> st.SearchStrategy[str]:
    body = st.lists(st.sampled_from(["a", "b", "*"]), min_size=1, max_size=4)
    return st.tuples(body, st.booleans()).map(lambda x: ".".join(x[0] + ([">"] if x[1] else [])))


def scan(entries: set[tuple[str, int]], topic: str, dialect: Dialect) -> Counter[int]:
    return Counter(v for p, v in entries if matches(p, topic, dialect))


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.tuples(mq_pattern(), st.integers(0, 3)), max_size=25),
    st.lists(st.integers(0, 30), max_size=10),
    st.lists(st.lists(st.sampled_from(MQ_LEVELS), min_size=1, max_size=6).map("/".join), max_size=12),
)
def test_mq_index_agrees_with_scan(adds: list[tuple[str, int]], drops: list[int], topics: list[str]) -> None:
    idx: SubscriptionIndex[int] = SubscriptionIndex(MQ)
    entries: set[tuple[str, int]] = set()
    for p, v in adds:
        idx.add(p, v)
        entries.add((p, v))
    for k in drops:  # discard some present pairs, and some absent ones
        if k < len(adds):
            idx.discard(*adds[k])
            entries.discard(adds[k])
        else:
            idx.discard("zz/+", k)
    assert len(idx) == len(entries)
    for topic in topics + [p.replace("#", "a").replace("+", "b") for p, _ in adds]:
        assert Counter(idx.match(topic)) == scan(entries, topic, MQ), topic


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.tuples(ems_pattern(), st.integers(0, 3)), max_size=20),
    st.lists(st.lists(st.sampled_from(["a", "b", "c"]), min_size=1, max_size=6).map(".".join), max_size=12),
)
def test_ems_index_agrees_with_scan(adds: list[tuple[str, int]], topics: list[str]) -> None:
    idx: SubscriptionIndex[int] = SubscriptionIndex(EMS)
    for p, v in adds:
        idx.add(p, v)
    entries = set(adds)
    assert len(idx) == len(entries)
    for topic in topics:
        assert Counter(idx.match(topic)) == scan(entries, topic, EMS), topic
    for p, v in adds:
        idx.discard(p, v)
    assert len(idx) == 0
    assert all(idx.match(t) == [] for t in topics)


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.tuples(mq_pattern(), st.integers(0, 12)), max_size=60),
    st.lists(st.lists(st.sampled_from(MQ_LEVELS), min_size=1, max_size=6).map("/".join), max_size=12),
)
def test_add_many_is_add_one_by_one(adds: list[tuple[str, int]], topics: list[str]) -> None:
    # patterns repeat and carry many values (past the few compared one by one), duplicates included;
    # a second add_many meets slots that already hold values
    one: SubscriptionIndex[int] = SubscriptionIndex(MQ)
    for p, v in adds:
        one.add(p, v)
    many: SubscriptionIndex[int] = SubscriptionIndex(MQ)
    half = len(adds) // 2
    many.add_many(adds[:half])
    many.add_many(iter(adds[half:]))
    assert len(many) == len(one) == len(set(adds))
    for topic in topics + [p.replace("#", "a").replace("+", "b") for p, _ in adds]:
        assert Counter(many.match(topic)) == Counter(one.match(topic)), topic
    for p, v in adds:
        many.discard(p, v)
    assert len(many) == 0


def test_add_many_unhashable_values_and_bad_pattern() -> None:
    idx: SubscriptionIndex[object] = SubscriptionIndex()
    idx.add_many([("a/+", [i % 3]) for i in range(20)])
    assert len(idx) == 3
    assert sorted(map(repr, idx.match("a/x"))) == ["[0]", "[1]", "[2]"]
    with pytest.raises(TopicSyntaxError):
        SubscriptionIndex[int](EMS).add_many([("a.b", 1), ("a.b*", 2)])
