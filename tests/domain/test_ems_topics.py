"""EMS topic property resolution (semantics §2, §6 last bullet, §9 "Property specificity")."""

from __future__ import annotations

from mqctl.domain.ems_topics import (
    EmsTopicIndex,
    definitions_for,
    effective_properties,
    is_global,
    is_unset_value,
    most_specific,
    specificity,
    storage_bounded,
)
from mqctl.domain.model import TopicObject


def _t(node: str, pattern: str, seq: int, **props: str | None) -> TopicObject:
    return TopicObject(node=node, name=pattern, topicstr=pattern, properties=dict(props), seq=seq)


DEFS = [
    _t("S", ">", 1, maxbytes="1MB", exclusive=None),
    _t("S", "foo.>", 2, **{"global": None}, maxbytes="10MB", overflowPolicy="discardOld"),
    _t("S", "foo.*", 3, secure=None, maxmsgs="500"),
    _t("S", "foo.bar", 4, maxmsgs="100"),
    _t("S", "bar.>", 5, **{"global": None}),
    _t("OTHER", "foo.bar", 6, **{"global": None}, maxbytes="5GB"),
]


def test_matching_definitions_are_the_servers_own_most_specific_first() -> None:
    """§2: a concrete topic takes every definition on the server that matches it; others' do not count."""
    found = definitions_for(DEFS, "S", "foo.bar")
    assert [d.topicstr for d in found] == ["foo.bar", "foo.*", "foo.>", ">"]
    assert definitions_for(DEFS, "S", "foo") == [DEFS[0]]  # foo.> does not match foo (§2)


def test_flags_by_union_valued_from_most_specific() -> None:
    """§6: flags by union; each valued property from the most specific definition that sets it."""
    found = definitions_for(DEFS, "S", "foo.bar")
    assert effective_properties(found) == {
        "exclusive": None,
        "global": None,
        "secure": None,
        "maxbytes": "10MB",  # foo.> beats >
        "maxmsgs": "100",  # foo.bar beats foo.*
        "overflowPolicy": "discardOld",
    }


def test_specificity_literal_beats_star_beats_greater() -> None:
    """§9: compare element by element, literal > '*' > '>'."""
    a_b_c, a_b_star, a_b_gt, a_star_c, a_gt = (
        _t("S", p, 0) for p in ("a.b.c", "a.b.*", "a.b.>", "a.*.c", "a.>")
    )
    ordered = sorted([a_gt, a_star_c, a_b_gt, a_b_star, a_b_c], key=specificity, reverse=True)
    assert [d.topicstr for d in ordered] == ["a.b.c", "a.b.*", "a.b.>", "a.*.c", "a.>"]


def test_ties_go_to_the_most_recent_definition() -> None:
    """§9: equally specific definitions (the same pattern twice) -> highest sequence wins."""
    old = _t("S", "x.*", 7, maxbytes="1KB")
    new = _t("S", "x.*", 9, maxbytes="2KB")
    assert effective_properties([old, new])["maxbytes"] == "2KB"
    assert effective_properties([new, old])["maxbytes"] == "2KB"
    assert most_specific([old, new]) is new


def test_zero_limit_means_unset() -> None:
    """§9 Warnings: maxbytes=0 / maxmsgs=0 mean unset, so a less specific limit still applies."""
    defs = [_t("S", "q.>", 1, maxbytes="64MB"), _t("S", "q.x", 2, maxbytes="0", maxmsgs="0KB")]
    merged = effective_properties(definitions_for(defs, "S", "q.x"))
    assert merged == {"maxbytes": "64MB"}
    assert is_unset_value("maxbytes", "0MB") and not is_unset_value("maxbytes", "10")
    assert not is_unset_value("overflowPolicy", "0")
    assert storage_bounded(merged)
    assert not storage_bounded(effective_properties([_t("S", "q.x", 3, maxmsgs="0")]))


def test_is_global_and_most_specific() -> None:
    """§6: T is global on S when a matching definition on S carries ``global``."""
    assert is_global(DEFS, "foo.x", "S")
    assert not is_global(DEFS, "baz", "S")
    assert not is_global(DEFS, "bar", "S")  # bar.> needs one more element
    top = most_specific(definitions_for(DEFS, "S", "foo.x"))
    assert top is not None and top.topicstr == "foo.*"
    assert most_specific([]) is None


def test_index_answers_like_the_functions() -> None:
    """The index is only a cache: same answers as the plain functions, per server."""
    index = EmsTopicIndex(DEFS)
    assert index.matching("S", "foo.bar") == definitions_for(DEFS, "S", "foo.bar")
    assert index.properties("OTHER", "foo.bar") == {"global": None, "maxbytes": "5GB"}
    assert index.is_global("OTHER", "foo.bar") and not index.is_global("OTHER", "foo.baz")
    assert index.most_specific("NOBODY", "foo.bar") is None
    assert index.storage_bounded("S", "baz") and not index.storage_bounded("NOBODY", "baz")
