"""Strings that are not text (lone surrogates: command-line bytes that are not UTF-8, JSON ``\\ud800``
escapes) are refused by the rules every door calls, with the object and attribute named, never left to
fail later in the store, an export or a report."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mqctl.domain.errors import InputError
from mqctl.domain.messages import parse_header, parse_property
from mqctl.domain.model import (
    Channel,
    Dialect,
    Direction,
    Namelist,
    Node,
    Route,
    RouteSelector,
    Subscription,
    TopicObject,
)
from mqctl.domain.names import check_ems_server_name, check_mq_name, check_subscription_name
from mqctl.domain.objects import check_definition, clusters
from mqctl.domain.selector import SelectorError, check_selector
from mqctl.domain.topics import TopicSyntaxError, validate_pattern, validate_topic
from mqctl.domain.valid_text import check_text, not_text

BYTE_FF = "\udcff"  # what Python makes of the byte 0xFF in a command-line argument

# (a valid definition, its dialect, its label in errors, {field: attribute as errors name it})
DEFINITIONS: list[tuple[Any, Dialect, str, dict[str, str]]] = [
    (
        Node("QM1", descr="d", parent="QM0"),
        Dialect.MQ,
        "qmgr QM1",
        {"descr": "DESCR", "parent": "PARENT", "psmode": "PSMODE"},
    ),
    (
        TopicObject("QM1", "T1", "a/b", cluster="C1", descr="d"),
        Dialect.MQ,
        "topic T1",
        {"topicstr": "TOPICSTR", "cluster": "CLUSTER", "descr": "DESCR"},
    ),
    (
        TopicObject("E1", "orders.>", "orders.>", properties={"maxbytes": "64MB"}),
        Dialect.EMS,
        "topic orders.>",
        {"topicstr": "TOPICSTR"},
    ),
    (
        Subscription("QM1", "S1", "a/#", selector="x = 1", dest="Q1", destqmgr="QM1", topicobj="T1"),
        Dialect.MQ,
        "sub S1",
        {"topicstr": "TOPICSTR", "selector": "SELECTOR", "dest": "DEST", "topicobj": "TOPICOBJ"},
    ),
    (
        Subscription("E1", "D1", "orders.>", selector="x = 1", properties={"clientid": "c1"}),
        Dialect.EMS,
        "sub D1",
        {"topicstr": "TOPICSTR", "selector": "SELECTOR"},
    ),
    (Namelist("QM1", "NL1", ("C1", "C2"), "d"), Dialect.MQ, "namelist NL1", {"descr": "DESCR"}),
    (
        Channel("QM1", "C1.QM1", cluster="C1", conname="host(1414)", descr="d"),
        Dialect.MQ,
        "channel C1.QM1",
        {"cluster": "CLUSTER", "conname": "CONNAME", "descr": "DESCR"},
    ),
    (
        Route("E1", "E2", url="tcp://e2:7222", zone_name="Z", properties={"ssl_identity": "id"}),
        Dialect.EMS,
        "route E2",
        {"url": "url", "zone_name": "zone_name"},
    ),
    (
        RouteSelector("E1", "E2", Direction.INCOMING, "orders", "x = 1"),
        Dialect.EMS,
        "route E2 incoming_topic=orders",
        {"selector": "selector"},
    ),
]
CASES = [
    pytest.param(obj, dialect, label, field, attribute, id=f"{type(obj).__name__}-{dialect}-{field}")
    for obj, dialect, label, fields in DEFINITIONS
    for field, attribute in fields.items()
]


@pytest.mark.parametrize(("obj", "dialect"), [(d[0], d[1]) for d in DEFINITIONS])
def test_the_definitions_are_valid(obj: Any, dialect: Dialect) -> None:
    check_definition(obj, dialect)


@pytest.mark.parametrize(("obj", "dialect", "label", "field", "attribute"), CASES)
def test_every_text_attribute_of_every_kind_refuses_a_lone_surrogate(
    obj: Any, dialect: Dialect, label: str, field: str, attribute: str
) -> None:
    value = getattr(obj, field) + BYTE_FF
    with pytest.raises(InputError) as info:
        check_definition(dataclasses.replace(obj, **{field: value}), dialect)
    err = info.value
    assert (err.obj, err.attribute) == (label, attribute)
    position = len(value)
    assert err.message == (
        f"{value!r} is not valid text: byte 0xFF cannot be decoded as UTF-8 (character {position})"
    )
    assert "\\udcff" in err.one_line() and err.one_line().encode("utf-8")


@pytest.mark.parametrize(("obj", "dialect", "label"), [(d[0], d[1], d[2]) for d in DEFINITIONS])
def test_a_name_that_is_not_text_is_refused_before_its_form_is_judged(
    obj: Any, dialect: Dialect, label: str
) -> None:
    field = "peer" if isinstance(obj, Route | RouteSelector) else "name"
    if isinstance(obj, TopicObject) and dialect is Dialect.EMS:
        obj = dataclasses.replace(obj, topicstr=obj.topicstr + BYTE_FF)  # named by its pattern
    with pytest.raises(InputError) as info:
        check_definition(dataclasses.replace(obj, **{field: getattr(obj, field) + BYTE_FF}), dialect)
    assert "is not valid text: byte 0xFF cannot be decoded as UTF-8" in info.value.message
    assert info.value.one_line().encode("utf-8")  # printable: the surrogate is shown escaped


def test_properties_namelist_entries_and_cluster_descriptions_are_text_too() -> None:
    topic = TopicObject("E1", "orders", "orders", properties={"maxbytes": "64\udcffMB"})
    with pytest.raises(InputError) as info:
        check_definition(topic, Dialect.EMS)
    assert (info.value.obj, info.value.attribute) == ("topic orders", "maxbytes")
    with pytest.raises(InputError) as info:
        check_definition(TopicObject("E1", "orders", "orders", properties={"x\ud800": None}), Dialect.EMS)
    assert info.value.attribute == "property"
    assert "U+D800 is a lone surrogate, not a character (character 2)" in info.value.message
    with pytest.raises(InputError) as info:
        check_definition(Namelist("QM1", "NL1", ("C1", "C" + BYTE_FF)), Dialect.MQ)
    assert info.value.attribute == "NAMES"
    with pytest.raises(InputError) as info:
        clusters.check("C1", "d" + BYTE_FF)
    assert (info.value.obj, info.value.attribute) == ("cluster C1", "DESCR")


@pytest.mark.parametrize(
    "check",
    [
        lambda name: check_mq_name(name, "qmgr"),
        check_ems_server_name,
        lambda name: check_subscription_name(name, Dialect.MQ),
    ],
)
def test_names_given_alone_say_the_name_is_not_text(check: Any) -> None:
    with pytest.raises(InputError) as info:
        check("Q" + BYTE_FF)
    assert (
        info.value.message == "the name is not valid text: byte 0xFF cannot be decoded as UTF-8 (character 2)"
    )


def test_topics_selectors_and_message_values_outside_a_definition() -> None:
    for validate in (validate_topic, validate_pattern):
        with pytest.raises(TopicSyntaxError) as topic_error:
            validate("a/" + BYTE_FF, Dialect.MQ)
        assert topic_error.value.position == 3
    with pytest.raises(SelectorError) as selector_error:
        check_selector("x = '" + BYTE_FF + "'")
    assert selector_error.value.column == 6
    with pytest.raises(InputError) as prop_error:
        parse_property("p=" + BYTE_FF)
    assert prop_error.value.attribute == "--prop" and "property 'p'" in prop_error.value.message
    with pytest.raises(InputError) as header_error:
        parse_header("JMSType=" + BYTE_FF)
    assert header_error.value.attribute == "--header"


TEXT = st.text(st.characters(exclude_categories=["Cs"]), max_size=30)  # Cs: the surrogates


@settings(max_examples=200, deadline=None, derandomize=True)
@given(before=TEXT, after=TEXT, code=st.integers(0xD800, 0xDFFF))
def test_a_lone_surrogate_is_found_wherever_it_stands(before: str, after: str, code: int) -> None:
    assert not_text(before + after) is None
    check_text(before + after)
    value = before + chr(code) + after
    found = not_text(value)
    assert found is not None and found[0] == len(before)
    why = (
        f"byte 0x{code - 0xDC00:02X} cannot be decoded as UTF-8"
        if 0xDC80 <= code <= 0xDCFF
        else f"U+{code:04X} is a lone surrogate, not a character"
    )
    assert found[1] == why
    topic = TopicObject("QM1", "T1", "a/b", descr=value[:64])
    if len(before) < 64:
        with pytest.raises(InputError) as info:
            check_definition(topic, Dialect.MQ)
        assert info.value.attribute == "DESCR" and info.value.one_line().encode("utf-8")


def test_a_publication_log_property_that_is_not_text_is_a_reason_not_a_crash() -> None:
    """The Spark job keeps a row's ``one_line`` as the reason it was not routed: printable, and written."""
    from mqctl.domain.publications import parse_properties

    for text in ('{"p": "\\udcff"}', '{"p:string": "\\udcff"}', '{"JMSType": "\\udcff"}'):
        with pytest.raises(InputError) as info:
            parse_properties(text)
        assert WHY_FF in info.value.message and info.value.one_line().encode("utf-8")


WHY_FF = "byte 0xFF cannot be decoded as UTF-8"
