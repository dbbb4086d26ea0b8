"""Topic strings and patterns: the rules of semantics §2 (and the fixed prefix of §3), one test each,
then property tests against slow, obviously correct references."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mqctl.domain.errors import InputError
from mqctl.domain.model import Dialect
from mqctl.domain.topics import (
    SEPARATORS,
    TopicSyntaxError,
    char_matches,
    char_prefix_levels,
    compile_pattern,
    fixed_prefix_levels,
    has_wildcards,
    intersects,
    is_subset,
    levels,
    matches,
    pattern_prefix_key,
    prefix_key,
    topic_level_prefixes,
    topic_prefix_keys,
    validate_pattern,
    validate_topic,
    widen_char_pattern,
)

MQ, EMS = Dialect.MQ, Dialect.EMS


# --- semantics §2, MQ dialect -------------------------------------------------------------------------


def test_mq_levels_are_separated_by_slash() -> None:
    # §2: "MQ dialect: levels separated by `/`"
    assert SEPARATORS[MQ] == "/"
    assert levels("a/b/c", MQ) == ["a", "b", "c"]


def test_mq_hash_matches_zero_or_more_levels() -> None:
    # §2: "`#` matches zero or more levels" — "`a/#` matches `a`, `a/b`, `a/b/c`"
    for topic in ("a", "a/b", "a/b/c"):
        assert matches("a/#", topic, MQ)
    assert not matches("a/#", "b", MQ)
    assert matches("#", "x/y/z", MQ)


def test_mq_plus_matches_exactly_one_level() -> None:
    # §2: "`+` exactly one level"
    assert matches("a/+", "a/b", MQ)
    assert not matches("a/+", "a", MQ)
    assert not matches("a/+", "a/b/c", MQ)
    assert matches("+/+", "/USA", MQ)  # the empty first level is a level


def test_mq_wildcard_only_when_whole_level() -> None:
    # §2: "each only when it is a whole level (`USA#` is literal)"
    assert not has_wildcards("USA#", MQ)
    assert matches("USA#", "USA#", MQ)
    assert not matches("USA#", "USA", MQ)
    assert not matches("USA#", "USA/x", MQ)
    assert matches("a+/b", "a+/b", MQ) and not matches("a+/b", "ax/b", MQ)
    validate_pattern("USA#/a+b", MQ)  # literal, not an error


def test_mq_hash_may_stand_anywhere() -> None:
    # §2: "`#` may stand anywhere, not only last (`#/Results`, `a/#/b`)"
    assert matches("#/Results", "Results", MQ)
    assert matches("#/Results", "Sport/Football/Results", MQ)
    assert not matches("#/Results", "Results/x", MQ)
    for topic in ("a/b", "a/x/b", "a/x/y/b"):
        assert matches("a/#/b", topic, MQ)
    assert not matches("a/#/b", "a/x", MQ)
    assert matches("#/a/#", "x/a/y", MQ) and matches("#/a/#", "a", MQ)


def test_mq_leading_slash_makes_empty_first_level() -> None:
    # §2: "A leading `/` makes an empty first level (`/USA` and `USA` differ)"
    assert levels("/USA", MQ) == ["", "USA"]
    assert not matches("/USA", "USA", MQ)
    assert not matches("USA", "/USA", MQ)
    assert matches("/#", "/USA", MQ) and not matches("/#", "USA", MQ)
    assert matches("+/USA", "/USA", MQ)


def test_mq_topicstr_and_publication_wildcards_are_literal() -> None:
    # §2: "In a topic object's `TOPICSTR` and in a publication's topic, `#`, `+` and `*` are ordinary"
    for topic in ("/Sport/#", "a/+/b", "a*", "#"):
        validate_topic(topic, MQ)
    assert matches("/Sport/#", "/Sport/#", MQ)  # a subscription '#' also matches a literal '#' level


def test_mq_only_empty_string_is_invalid() -> None:
    with pytest.raises(TopicSyntaxError):
        validate_topic("", MQ)
    with pytest.raises(TopicSyntaxError):
        validate_pattern("", MQ)
    for text in ("/", "//", "a//b", "a/", "#/#", "+"):
        validate_topic(text, MQ)
        validate_pattern(text, MQ)


def test_mq_has_wildcards() -> None:
    assert has_wildcards("a/#", MQ) and has_wildcards("+", MQ) and has_wildcards("#/x", MQ)
    assert not has_wildcards("a/b", MQ) and not has_wildcards("a*/b", MQ)


# --- semantics §2, WSCHEMA(CHAR) ----------------------------------------------------------------------


def test_char_star_matches_any_characters_including_slash() -> None:
    # §2: "`*` any characters including `/`"
    assert char_matches("/a/*", "/a/b/c")
    assert char_matches("/a*", "/a")
    assert char_matches("*", "")
    assert not char_matches("/a/*", "/b/c")


def test_char_question_mark_matches_one_character() -> None:
    # §2: "`?` one character"
    assert char_matches("a?c", "abc") and char_matches("a?c", "a/c")
    assert not char_matches("a?c", "ac") and not char_matches("a?c", "abbc")


def test_char_percent_escapes() -> None:
    # §2: "`%` escapes"
    assert char_matches("a%*", "a*") and not char_matches("a%*", "ab")
    assert char_matches("a%?", "a?") and not char_matches("a%?", "ab")
    assert char_matches("100%%", "100%")
    assert char_matches("a%", "a%")  # a trailing lone '%' is literal


def test_char_proxy_widened_to_hash_back_to_nearest_slash() -> None:
    # §2: "their proxy subscriptions are widened to `#` back to the nearest `/`"
    assert widen_char_pattern("/a/b*") == "/a/#"
    assert widen_char_pattern("/a/b/*") == "/a/b/#"
    assert widen_char_pattern("/a/?b") == "/a/#"
    assert widen_char_pattern("ab*") == "#"
    assert widen_char_pattern("*") == "#"
    assert widen_char_pattern("/*") == "/#"
    assert widen_char_pattern("/a/b") == "/a/b"
    assert widen_char_pattern("/a/%*x") == "/a/*x"  # no wildcard: itself, unescaped
    assert widen_char_pattern("/a%*/b*") == "/a*/#"


def test_char_prefix_levels() -> None:
    assert char_prefix_levels("/a/b*") == ["", "a"]
    assert char_prefix_levels("/a/b/*") == ["", "a", "b"]
    assert char_prefix_levels("x*") == []
    assert char_prefix_levels("/a/b") == ["", "a", "b"]
    assert char_prefix_levels("a%?/b?") == ["a?"]


def test_widened_char_pattern_covers_the_char_pattern() -> None:
    for pattern, topic in [("/a/b*", "/a/bc/d"), ("/a/?", "/a/x"), ("*z", "q/z"), ("/a/b", "/a/b")]:
        assert char_matches(pattern, topic)
        assert matches(widen_char_pattern(pattern), topic, MQ)


# --- semantics §2, EMS dialect ------------------------------------------------------------------------


def test_ems_levels_are_separated_by_dot() -> None:
    # §2: "EMS dialect: levels separated by `.`"
    assert SEPARATORS[EMS] == "."
    assert levels("a.b.c", EMS) == ["a", "b", "c"]
    assert not matches("a.b", "a/b", EMS)


def test_ems_star_matches_exactly_one_element() -> None:
    # §2: "`*` matches exactly one level"
    assert matches("foo.*", "foo.bar", EMS)
    assert not matches("foo.*", "foo", EMS)
    assert not matches("foo.*", "foo.bar.baz", EMS)
    assert matches("*.bar", "foo.bar", EMS)


def test_ems_gt_matches_one_or_more_trailing_elements() -> None:
    # §2: "`>` matches one or more trailing levels" — "`foo.>` does not match `foo`"
    assert matches("foo.>", "foo.bar", EMS)
    assert matches("foo.>", "foo.bar.baz", EMS)
    assert not matches("foo.>", "foo", EMS)
    assert matches(">", "x", EMS) and matches(">", "x.y", EMS)


def test_ems_gt_only_last() -> None:
    # §2: "`>` ... may only be last"
    with pytest.raises(TopicSyntaxError) as err:
        validate_pattern("foo.>.bar", EMS)
    assert err.value.position == 5
    assert "last" in err.value.rule


def test_ems_wildcards_only_as_whole_elements() -> None:
    # §2 reading notes: "`foo.a*` is not a valid EMS name (`*` is a wildcard only as a whole element)"
    with pytest.raises(TopicSyntaxError) as err:
        validate_pattern("foo.a*", EMS)
    assert err.value.position == 6
    assert err.value.rule == "'*' must be a whole element"
    assert str(err.value) == "'*' must be a whole element (column 6)"
    with pytest.raises(TopicSyntaxError) as err:
        validate_pattern("a>.b", EMS)
    assert err.value.position == 2


def test_ems_definitions_may_be_patterns() -> None:
    # §2: "Topic definitions may be wildcard patterns (`foo.*`)"
    validate_pattern("foo.*", EMS)
    validate_pattern("foo.>", EMS)
    validate_pattern("*.*.>", EMS)
    assert has_wildcards("foo.*", EMS) and has_wildcards("foo.>", EMS) and not has_wildcards("foo.bar", EMS)


def test_ems_publications_are_concrete() -> None:
    # §2: "EMS publications are concrete: a publication on a wildcard EMS topic is an error"
    validate_topic("foo.bar", EMS)
    with pytest.raises(TopicSyntaxError) as err:
        validate_topic("foo.*", EMS)
    assert err.value.position == 5
    with pytest.raises(TopicSyntaxError) as err:
        validate_topic("foo.>", EMS)
    assert err.value.position == 5
    with pytest.raises(TopicSyntaxError):
        validate_topic("foo.a*b", EMS)


@pytest.mark.parametrize(
    ("text", "position"),
    [("", 1), (".a", 1), ("a.", 2), ("a..b", 3), ("a.b.", 4), (".", 1)],
)
def test_ems_empty_element_positions(text: str, position: int) -> None:
    for check in (validate_topic, validate_pattern):
        with pytest.raises(TopicSyntaxError) as err:
            check(text, EMS)
        assert err.value.position == position


def test_topic_syntax_error_is_an_input_error() -> None:
    err = TopicSyntaxError("'*' must be a whole element", 5, topic="foo.a*", obj="TOPIC1", file="t.conf")
    assert isinstance(err, InputError)
    assert err.exit_code == 2
    assert err.message == "'*' must be a whole element (column 5)"
    assert err.topic == "foo.a*" and err.obj == "TOPIC1" and err.file == "t.conf"
    with pytest.raises(TopicSyntaxError):
        matches("a.b*", "a.b", EMS)  # matching validates the pattern


# --- semantics §3: the fixed prefix and its keys ------------------------------------------------------


def test_fixed_prefix_levels() -> None:
    # §3: "`/Sport/#` resolves at `/Sport`; `/USA/Alabama/+` resolves at `/USA/Alabama`"
    assert fixed_prefix_levels("/Sport/#", MQ) == ["", "Sport"]
    assert fixed_prefix_levels("/USA/Alabama/+", MQ) == ["", "USA", "Alabama"]
    assert fixed_prefix_levels("#/Results", MQ) == []
    assert fixed_prefix_levels("a/b", MQ) == ["a", "b"]
    assert fixed_prefix_levels("USA#/x", MQ) == ["USA#", "x"]
    assert fixed_prefix_levels("foo.*.bar", EMS) == ["foo"]
    assert fixed_prefix_levels("foo.>", EMS) == ["foo"]


def test_prefix_key_is_unambiguous() -> None:
    assert prefix_key([], MQ) == ""
    assert prefix_key([""], MQ) == "/"
    assert prefix_key(["", "USA"], MQ) == "/USA/"
    assert prefix_key(["a"], MQ) == "a/"
    assert prefix_key(["a", ""], MQ) == "a//"
    assert prefix_key(["a", "b"], EMS) == "a.b."
    assert pattern_prefix_key("/Sport/#", MQ) == "/Sport/"
    assert pattern_prefix_key("#", MQ) == ""
    assert pattern_prefix_key("a/b", MQ) == "a/b/"


def test_topic_prefix_keys() -> None:
    assert topic_prefix_keys("/USA/Alabama", MQ) == ["", "/", "/USA/", "/USA/Alabama/"]
    assert topic_prefix_keys("a", MQ) == ["", "a/"]
    assert topic_prefix_keys("a.b", EMS) == ["", "a.", "a.b."]


def test_topic_level_prefixes() -> None:
    assert topic_level_prefixes("/USA/Alabama", MQ) == ["", "/USA", "/USA/Alabama"]
    assert topic_level_prefixes("a/b", MQ) == ["a", "a/b"]
    assert topic_level_prefixes("a.b.c", EMS) == ["a", "a.b", "a.b.c"]


def test_compile_pattern_is_cached_and_reusable() -> None:
    cp = compile_pattern("a/+/c", MQ)
    assert cp is compile_pattern("a/+/c", MQ)
    assert cp.matches("a/b/c") and not cp.matches("a/b")
    assert compile_pattern("a/b", MQ).literal


def test_subset_and_intersection_examples() -> None:
    assert is_subset("a/b", "a/#", MQ)
    assert is_subset("a/#/b/#", "#/b/#", MQ)
    assert not is_subset("#/b/#", "a/#/b/#", MQ)
    assert is_subset("+/+/#", "+/#", MQ)
    assert is_subset("#", "+/#", MQ)  # topics have at least one level
    assert is_subset("#/#", "#", MQ) and is_subset("#", "#/#", MQ)
    assert not is_subset("a/#", "a/+/#", MQ)  # 'a' itself
    assert intersects("a/#", "#/b", MQ) and intersects("+/b", "a/+", MQ)
    assert not intersects("a/+", "a/+/+", MQ)
    assert is_subset("foo.*", "foo.>", EMS) and not is_subset("foo.>", "foo.*", EMS)
    assert not intersects("foo.>", "foo", EMS)
    assert intersects("*.b", "a.>", EMS)


# --- property tests against references ----------------------------------------------------------------


def ref_match(pattern: str, topic: str, dialect: Dialect) -> bool:
    """Recursive over level lists: the definition of §2, with no cleverness."""
    sep = SEPARATORS[dialect]
    p, t = pattern.split(sep), topic.split(sep)

    def rec(i: int, j: int) -> bool:
        if i == len(p):
            return j == len(t)
        tok = p[i]
        if dialect == MQ and tok == "#":
            return any(rec(i + 1, k) for k in range(j, len(t) + 1))
        if dialect == EMS and tok == ">":
            return len(t) - j >= 1
        if j == len(t):
            return False
        if tok == ("+" if dialect == MQ else "*") or tok == t[j]:
            return rec(i + 1, j + 1)
        return False

    return rec(0, 0)


MQ_TOKENS = ["a", "b", "+", "#"]
MQ_TOPIC_LEVELS = ["a", "b", "c", "", "#", "+"]


def mq_patterns(max_len: int) -> st.SearchStrategy[str]:
    return st.lists(st.sampled_from(MQ_TOKENS), min_size=1, max_size=max_len).map("/".join)


def ems_patterns(max_len: int) -> st.SearchStrategy[str]:
    body = st.lists(st.sampled_from(["a", "b", "*"]), min_size=0, max_size=max_len)
    return (
        st.tuples(body, st.booleans())
        .filter(lambda x: x[0] or x[1])
        .map(lambda x: ".".join(x[0] + ([">"] if x[1] else [])))
    )


@settings(max_examples=400, deadline=None)
@given(
    mq_patterns(6),
    st.lists(st.sampled_from(MQ_TOPIC_LEVELS), min_size=1, max_size=7).map("/".join),
)
def test_mq_matches_agrees_with_reference(pattern: str, topic: str) -> None:
    assert matches(pattern, topic, MQ) == ref_match(pattern, topic, MQ)


@settings(max_examples=300, deadline=None)
@given(ems_patterns(5), st.lists(st.sampled_from(["a", "b", "c"]), min_size=1, max_size=7).map(".".join))
def test_ems_matches_agrees_with_reference(pattern: str, topic: str) -> None:
    assert matches(pattern, topic, EMS) == ref_match(pattern, topic, EMS)


def all_topics(alphabet: list[str], depth: int, sep: str) -> list[str]:
    return [sep.join(w) for n in range(1, depth + 1) for w in itertools.product(alphabet, repeat=n)]


# Topics over the patterns' literals plus 'c', a level neither pattern names. A counterexample to
# p ⊆ q (or a common topic) needs at most one level per pattern token plus one spare per side, so
# the depth bound len(p) + len(q) + 2 (in levels) is exact for these patterns.
_TOPICS_CACHE: dict[tuple[str, int], list[str]] = {}


def topics_up_to(depth: int, dialect: Dialect) -> list[str]:
    key = (dialect.value, depth)
    if key not in _TOPICS_CACHE:
        _TOPICS_CACHE[key] = all_topics(["a", "b", "c"], depth, SEPARATORS[dialect])
    return _TOPICS_CACHE[key]


def brute(p: str, q: str, dialect: Dialect) -> tuple[bool, bool]:
    sep = SEPARATORS[dialect]
    depth = len(p.split(sep)) + len(q.split(sep)) + 2
    subset, common = True, False
    for topic in topics_up_to(depth, dialect):
        mp = ref_match(p, topic, dialect)
        if mp:
            mq = ref_match(q, topic, dialect)
            subset = subset and mq
            common = common or mq
    return subset, common


@settings(max_examples=150, deadline=None)
@given(mq_patterns(3), mq_patterns(3))
def test_mq_subset_and_intersection_agree_with_brute_force(p: str, q: str) -> None:
    subset, common = brute(p, q, MQ)
    assert is_subset(p, q, MQ) == subset
    assert intersects(p, q, MQ) == common
    assert intersects(q, p, MQ) == common


@settings(max_examples=100, deadline=None)
@given(ems_patterns(2), ems_patterns(2))
def test_ems_subset_and_intersection_agree_with_brute_force(p: str, q: str) -> None:
    subset, common = brute(p, q, EMS)
    assert is_subset(p, q, EMS) == subset
    assert intersects(p, q, EMS) == common


@settings(max_examples=200, deadline=None)
@given(mq_patterns(5))
def test_pattern_prefix_key_is_among_topic_prefix_keys_of_every_match(pattern: str) -> None:
    # The store's candidate filter must never lose a match.
    topic = pattern.replace("#", "x/y").replace("+", "z")
    assert matches(pattern, topic, MQ)
    assert pattern_prefix_key(pattern, MQ) in topic_prefix_keys(topic, MQ)


def ref_char_match(pattern: str, topic: str) -> bool:
    """Character by character, recursive: the WSCHEMA(CHAR) rules of §2 as written."""

    def rec(i: int, j: int) -> bool:
        if i == len(pattern):
            return j == len(topic)
        c = pattern[i]
        if c == "%" and i + 1 < len(pattern):
            return j < len(topic) and topic[j] == pattern[i + 1] and rec(i + 2, j + 1)
        if c == "*":
            return any(rec(i + 1, k) for k in range(j, len(topic) + 1))
        if c == "?":
            return j < len(topic) and rec(i + 1, j + 1)
        return j < len(topic) and topic[j] == c and rec(i + 1, j + 1)

    return rec(0, 0)


@settings(max_examples=300, deadline=None)
@given(st.text("ab/*?%", min_size=1, max_size=8), st.text("ab/*?%", max_size=8))
def test_char_matches_agrees_with_reference_and_widening_covers(pattern: str, topic: str) -> None:
    m = char_matches(pattern, topic)
    assert m == ref_char_match(pattern, topic)
    if m and topic:
        assert matches(widen_char_pattern(pattern), topic, MQ)


# --- linear-time matching: many wildcards, long topics ------------------------------------------------


def memo_ref_match(pattern: str, topic: str, dialect: Dialect) -> bool:
    """``ref_match`` memoised on (pattern index, topic index): polynomial, so long inputs stay testable."""
    from functools import cache

    sep = SEPARATORS[dialect]
    p, t = pattern.split(sep), topic.split(sep)

    @cache
    def rec(i: int, j: int) -> bool:
        if i == len(p):
            return j == len(t)
        if p[i] == "#":
            return rec(i + 1, j) or (j < len(t) and rec(i, j + 1))
        return j < len(t) and p[i] in ("+", t[j]) and rec(i + 1, j + 1)

    return rec(0, 0)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.sampled_from(["a", "b", "+", "#", "#", "#"]), min_size=1, max_size=16).map("/".join),
    st.lists(st.sampled_from(["a", "b", "c"]), min_size=1, max_size=40).map("/".join),
)
def test_many_hash_patterns_on_long_topics_agree_with_reference(pattern: str, topic: str) -> None:
    assert matches(pattern, topic, MQ) == memo_ref_match(pattern, topic, MQ)


def test_adversarial_patterns_are_answered() -> None:
    # Issue 13: these took 43 s and minutes with a backtracking matcher; now they are plain answers.
    forty = "/".join(["a"] * 40)
    assert not matches("#/#/#/#/#/#/#/#/z", forty, MQ)
    assert matches("#/#/#/#/#/#/#/#/a", forty, MQ)
    assert not matches("/".join(["#", "a"] * 30) + "/b", forty, MQ)
    assert not char_matches("*a*a*a*a*a*a*a*b", "a" * 100)
    assert char_matches("*a*a*a*a*a*a*a*a", "a" * 100)
    # EMS: '>' after '*' levels, on the longest topic allowed.
    long_ems = ".".join(["a"] * 5000)
    assert matches("*.*.*.>", long_ems, EMS)


@settings(max_examples=200, deadline=None)
@given(st.text("ab*?%", min_size=1, max_size=14), st.text("ab", max_size=30))
def test_char_patterns_with_many_stars_agree_with_reference(pattern: str, topic: str) -> None:
    assert char_matches(pattern, topic) == ref_char_match(pattern, topic)


def test_topic_strings_longer_than_mq_allows_are_refused_before_splitting() -> None:
    huge = "/".join(["x"] * 100_000)
    for check in (
        lambda: validate_topic(huge, MQ),
        lambda: validate_pattern(huge, MQ),
        lambda: topic_prefix_keys(huge, MQ),
        lambda: topic_level_prefixes(huge, MQ),
        lambda: levels(huge, MQ),
        lambda: validate_topic(huge.replace("/", "."), EMS),
    ):
        with pytest.raises(TopicSyntaxError, match="at most 10240 characters") as info:
            check()
        assert info.value.position == 10241
    validate_topic("x" * 10240, MQ)  # the limit itself is allowed


def test_comparing_patterns_whose_automaton_explodes_is_refused_not_run_for_minutes() -> None:
    # Determinising '#/a/+/+/...' takes 2^n states; the comparison gives up with a clear error.
    q = "#/a/" + "/".join(["+"] * 30)
    with pytest.raises(InputError, match="simplify them"):
        is_subset(q, q, MQ)
    # Literal patterns are single topics and never need the search, however long.
    long_literal = "/".join(f"l{i}" for i in range(1800))
    assert is_subset(long_literal, long_literal, MQ) and intersects(long_literal, "#", MQ)
    assert not is_subset("#", long_literal, MQ)
