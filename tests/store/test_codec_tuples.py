"""``Codec.from_tuple`` (written out per codec by ``convert._tuple_reader``): an object read back from
the values a store holds for it is the object written, for every codec; a row of the wrong width is
refused, not silently cut."""

from __future__ import annotations

import json
from typing import Any

import pytest

from mqctl.domain.model import ClRoute, Enablement, Scope, Subscription, TopicObject, Wildcard
from mqctl.store import convert


def stored(codec: convert.Codec[Any], obj: Any) -> tuple[Any, ...]:
    """The values of ``codec.columns()`` for ``obj`` as SQLite gives them back (JSON columns as text)."""
    values = codec.values(obj)
    return tuple(json.dumps(values[n]) if n in codec.json_columns else values[n] for n in codec.fields)


@pytest.mark.parametrize(
    "obj",
    [
        TopicObject("QM1", "SPORT", "/Sport"),
        TopicObject(
            "QM1",
            "FOOT",
            "/Sport/Foot",
            cluster="CL1",
            clroute=ClRoute.TOPICHOST,
            wildcard=Wildcard.BLOCK,
            pubscope=Scope.QMGR,
            sub=Enablement.DISABLED,
            descr='é "q"',
            properties={"global": None, "maxbytes": "1GB"},
            seq=7,
            source_file="qm1.mqsc",
            source_line=3,
        ),
        Subscription("QM1", "S1", "/Sport/#", selector="n > 1", durable=False),
    ],
)
def test_an_object_read_back_is_the_object_written(obj: Any) -> None:
    codec = convert.TOPIC if isinstance(obj, TopicObject) else convert.SUBSCRIPTION
    assert codec.from_tuple(stored(codec, obj), (obj.node,)) == obj


def test_a_blank_cluster_stored_as_null_reads_back_blank() -> None:
    values = list(stored(convert.TOPIC, TopicObject("QM1", "A", "/a")))
    values[convert.TOPIC.fields.index("cluster")] = None
    assert convert.TOPIC.from_tuple(values, ("QM1",)).cluster == ""


@pytest.mark.parametrize("width", [0, 1, 14, 16])
def test_a_row_of_the_wrong_width_is_refused(width: int) -> None:
    with pytest.raises(ValueError, match=f"{width} values for the 15 fields of TopicObject"):
        convert.TOPIC.from_tuple(tuple(range(width)), ("QM1",))


def test_a_dict_maker_reads_each_attribute_under_its_key_in_order() -> None:
    obj = TopicObject("QM1", "SPORT", "/Sport", cluster="CL1", wildcard=Wildcard.BLOCK)
    make = convert.dict_maker(
        ["name", "qmgr", "wildcard", "cluster"], ["name", "node", "wildcard", "cluster"]
    )
    made = make(obj)
    assert list(made.items()) == [
        ("name", "SPORT"),
        ("qmgr", "QM1"),
        ("wildcard", Wildcard.BLOCK),
        ("cluster", "CL1"),
    ]


@pytest.mark.parametrize(("keys", "attributes"), [(["a", "b"], ["name"]), (["a"], ["name + 1"])])
def test_a_dict_maker_refuses_keys_and_attributes_that_do_not_pair_up(
    keys: list[str], attributes: list[str]
) -> None:
    with pytest.raises(ValueError, match="do not pair up"):
        convert.dict_maker(keys, attributes)
