"""Typed message properties and headers: `--prop NAME[:TYPE]=VALUE`, `--header NAME=VALUE`, defaults
(semantics §9 Messages), one rule per test."""

from __future__ import annotations

import math
import struct

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mqctl.domain.errors import InputError
from mqctl.domain.messages import (
    HEADER_TYPES,
    JMS_TYPES,
    JmsValue,
    Message,
    default_headers,
    int_to_float32,
    parse_header,
    parse_property,
    to_float32,
)


def f32(x: float) -> float:
    return struct.unpack("f", struct.pack("f", x))[0]


# -- typed properties ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ("s:string=hello", JmsValue("string", "hello")),
        ("b:boolean=true", JmsValue("boolean", True)),
        ("b:boolean=FALSE", JmsValue("boolean", False)),
        ("b:boolean=True", JmsValue("boolean", True)),
        ("n:byte=-128", JmsValue("byte", -128)),
        ("n:short=32767", JmsValue("short", 32767)),
        ("n:int=+42", JmsValue("int", 42)),
        ("n:long=9223372036854775807", JmsValue("long", 2**63 - 1)),
        ("n:long=5", JmsValue("long", 5)),
        ("x:double=1.5", JmsValue("double", 1.5)),
        ("x:double=1e3", JmsValue("double", 1000.0)),
        ("x:double=2", JmsValue("double", 2.0)),
        ("x:double=1.5d", JmsValue("double", 1.5)),
        ("x:float=2.5F", JmsValue("float", 2.5)),
        ("x:double=NaN", JmsValue("double", math.nan)),
    ],
)
def test_typed_property_parses_as_its_type(spec: str, expected: JmsValue) -> None:
    name, value = parse_property(spec)
    assert name == spec.split(":")[0]
    assert value.type == expected.type
    if isinstance(expected.value, float) and math.isnan(expected.value):
        assert isinstance(value.value, float) and math.isnan(value.value)
    else:
        assert value.value == expected.value
        assert type(value.value) is type(expected.value)


def test_typed_string_keeps_value_exactly_as_written() -> None:
    assert parse_property("quote:string='a b'") == ("quote", JmsValue("string", "'a b'"))
    assert parse_property("s:string= 1 ") == ("s", JmsValue("string", " 1 "))
    assert parse_property("s:string=") == ("s", JmsValue("string", ""))
    assert parse_property("eq:string=a=b") == ("eq", JmsValue("string", "a=b"))


def test_typed_float_is_rounded_to_32_bits() -> None:
    _, value = parse_property("x:float=0.1")
    assert value.value == f32(0.1)
    assert value.value != 0.1


def test_type_name_is_case_insensitive() -> None:
    assert parse_property("n:INT=3") == ("n", JmsValue("int", 3))


@pytest.mark.parametrize(
    "spec",
    [
        "n:byte=128",
        "n:byte=-129",
        "n:short=32768",
        "n:int=2147483648",
        "n:int=-2147483649",
        "n:long=9223372036854775808",
        "n:int=1.5",
        "n:int=0x1F",
        "n:int=",
        "n:int=abc",
        "b:boolean=yes",
        "b:boolean=1",
        "x:double=abc",
        "x:double=1_000",
        "x:float=1e39",
        "x:double=1e400",
    ],
)
def test_typed_value_out_of_range_or_malformed_is_input_error(spec: str) -> None:
    name = spec.split(":")[0]
    with pytest.raises(InputError, match=rf"property '{name}'"):
        parse_property(spec)


# -- inferred properties -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("42", JmsValue("int", 42)),
        ("-7", JmsValue("int", -7)),
        ("2147483647", JmsValue("int", 2147483647)),
        ("2147483648", JmsValue("long", 2147483648)),
        ("-2147483649", JmsValue("long", -2147483649)),
        ("99999999999999999999", JmsValue("double", 1e20)),
        ("1.5", JmsValue("double", 1.5)),
        ("1e3", JmsValue("double", 1000.0)),
        (".5", JmsValue("double", 0.5)),
        ("true", JmsValue("boolean", True)),
        ("FALSE", JmsValue("boolean", False)),
        ("USA", JmsValue("string", "USA")),
        ("", JmsValue("string", "")),
        ("'42'", JmsValue("string", "42")),
        ('"true"', JmsValue("string", "true")),
        ("'a b'", JmsValue("string", "a b")),
        ("'", JmsValue("string", "'")),
        ("'mixed\"", JmsValue("string", "'mixed\"")),
        ("0x1F", JmsValue("string", "0x1F")),
        ("NaN", JmsValue("string", "NaN")),
        ("1.5F", JmsValue("string", "1.5F")),
    ],
)
def test_untyped_property_value_is_inferred(text: str, expected: JmsValue) -> None:
    assert parse_property(f"p={text}") == ("p", expected)


@given(st.integers(min_value=-(2**63), max_value=2**63 - 1))
def test_inferred_integer_is_int_or_long_by_range(n: int) -> None:
    _, value = parse_property(f"p={n}")
    assert value.value == n
    assert value.type == ("int" if -(2**31) <= n < 2**31 else "long")


# -- bad specs -----------------------------------------------------------------------------------------
def test_property_without_equals_is_input_error() -> None:
    with pytest.raises(InputError, match="NAME"):
        parse_property("country")


def test_property_with_empty_name_is_input_error() -> None:
    with pytest.raises(InputError, match="name is empty"):
        parse_property("=5")
    with pytest.raises(InputError, match="name is empty"):
        parse_property(":int=5")


def test_property_with_unknown_type_names_property_and_types() -> None:
    with pytest.raises(InputError, match=r"property 'n'.*unknown type 'integer'.*string, boolean"):
        parse_property("n:integer=5")


@pytest.mark.parametrize("name", ["1abc", "a-b", "a b", "AND", "null", "True", "in"])
def test_property_name_must_be_a_selector_identifier(name: str) -> None:
    # JMS: "Property names must obey the rules for a message selector identifier."
    with pytest.raises(InputError, match="identifier"):
        parse_property(f"{name}=1")


def test_property_name_may_be_any_java_identifier() -> None:
    assert parse_property("$price_2=1")[0] == "$price_2"
    assert parse_property("größe=1")[0] == "größe"
    assert parse_property("_x=1")[0] == "_x"


def test_property_named_like_a_header_is_rejected() -> None:
    with pytest.raises(InputError, match="header"):
        parse_property("JMSPriority=5")


# -- headers -------------------------------------------------------------------------------------------
def test_header_types_are_the_selectable_fields() -> None:
    assert HEADER_TYPES == {
        "JMSDeliveryMode": "string",
        "JMSPriority": "int",
        "JMSMessageID": "string",
        "JMSTimestamp": "long",
        "JMSCorrelationID": "string",
        "JMSType": "string",
    }


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ("JMSPriority=9", ("JMSPriority", JmsValue("int", 9))),
        ("JMSPriority=0", ("JMSPriority", JmsValue("int", 0))),
        ("JMSDeliveryMode=NON_PERSISTENT", ("JMSDeliveryMode", JmsValue("string", "NON_PERSISTENT"))),
        ("JMSDeliveryMode=persistent", ("JMSDeliveryMode", JmsValue("string", "PERSISTENT"))),
        ("JMSMessageID=ID:1", ("JMSMessageID", JmsValue("string", "ID:1"))),
        ("JMSTimestamp=1700000000000", ("JMSTimestamp", JmsValue("long", 1700000000000))),
        ("JMSCorrelationID=abc=d", ("JMSCorrelationID", JmsValue("string", "abc=d"))),
        ("JMSType=car", ("JMSType", JmsValue("string", "car"))),
    ],
)
def test_header_is_typed_by_header_types(spec: str, expected: tuple[str, JmsValue]) -> None:
    assert parse_header(spec) == expected


@pytest.mark.parametrize(
    "spec",
    ["JMSPriority=10", "JMSPriority=-1", "JMSPriority=high", "JMSDeliveryMode=2", "JMSTimestamp=now"],
)
def test_header_with_bad_value_is_input_error(spec: str) -> None:
    with pytest.raises(InputError, match=spec.split("=")[0]):
        parse_header(spec)


@pytest.mark.parametrize("spec", ["JMSExpiration=0", "JMSXGroupID=a", "color=red", "JMSPriority"])
def test_unknown_header_or_missing_equals_is_input_error(spec: str) -> None:
    with pytest.raises(InputError):
        parse_header(spec)


# -- messages ------------------------------------------------------------------------------------------
def test_default_headers_are_priority_4_and_persistent() -> None:
    assert default_headers() == {
        "JMSPriority": JmsValue("int", 4),
        "JMSDeliveryMode": JmsValue("string", "PERSISTENT"),
    }


def test_message_create_applies_defaults_under_given_headers() -> None:
    m = Message.create({"a": JmsValue("int", 1)}, {"JMSPriority": JmsValue("int", 7)})
    assert m.headers["JMSPriority"] == JmsValue("int", 7)
    assert m.headers["JMSDeliveryMode"] == JmsValue("string", "PERSISTENT")
    assert m.properties == {"a": JmsValue("int", 1)}
    assert Message.create().headers == default_headers()
    assert dict(Message.create().properties) == {}


def test_message_is_read_only_and_copies_its_inputs() -> None:
    props = {"a": JmsValue("int", 1)}
    m = Message.create(props)
    props["b"] = JmsValue("int", 2)
    assert "b" not in m.properties
    with pytest.raises(TypeError):
        m.properties["c"] = JmsValue("int", 3)  # type: ignore[index]


def test_message_create_rejects_unknown_header() -> None:
    with pytest.raises(InputError):
        Message.create(headers={"JMSExpiration": JmsValue("long", 0)})


# -- JmsValue ------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("kind", "value"),
    [
        ("int", "1"),
        ("int", 2**31),
        ("byte", 200),
        ("boolean", 1),
        ("string", 5),
        ("int", True),
        ("text", "a"),
    ],
)
def test_jms_value_rejects_value_not_of_its_type(kind: str, value: object) -> None:
    with pytest.raises(ValueError):
        JmsValue(kind, value)  # type: ignore[arg-type]


def test_jms_value_float_types_store_python_floats() -> None:
    assert JmsValue("double", 2).value == 2.0
    assert type(JmsValue("double", 2).value) is float
    assert JmsValue("float", 0.1).value == f32(0.1)
    assert set(JMS_TYPES) == {"string", "boolean", "byte", "short", "int", "long", "float", "double"}


@given(st.integers(min_value=-(2**63), max_value=2**63 - 1))
def test_long_to_float_rounds_once_like_java(n: int) -> None:
    # Reference: exact rounding through fractions (nearest float32, ties to even).
    from fractions import Fraction

    got = int_to_float32(n)
    assert got == to_float32(got)
    below, above = math.nextafter(got, -math.inf), math.nextafter(got, math.inf)
    lo_f32, hi_f32 = f32_neighbours(got)
    err = abs(Fraction(got) - n)
    assert err <= abs(Fraction(lo_f32) - n) and err <= abs(Fraction(hi_f32) - n)
    assert below < got < above


def f32_neighbours(x: float) -> tuple[float, float]:
    bits = struct.unpack("<i", struct.pack("<f", x))[0]
    down = struct.unpack("<f", struct.pack("<i", bits - 1 if x > 0 else bits + 1))[0] if x != 0 else -1e-45
    up = struct.unpack("<f", struct.pack("<i", bits + 1 if x > 0 else bits - 1))[0] if x != 0 else 1e-45
    return down, up


# -- numbers beyond what JMS types hold ----------------------------------------------------------------
@pytest.mark.parametrize(
    "spec",
    [
        "p=" + "1" * 5000,
        "p=-" + "9" * 400,
        "p:long=" + "1" * 5000,
        "p:int=" + "7" * 5000,
        "p:double=1" + "0" * 400,
    ],
)
def test_numbers_beyond_long_and_double_are_input_errors_naming_the_value(spec: str) -> None:
    # Issue 13: 5,000 digits raised Python's own "Exceeds the limit (4300 digits)" ValueError.
    with pytest.raises(InputError, match=r"property 'p': '[0-9-]{37}\.\.\.' is") as info:
        parse_property(spec)
    assert info.value.column == spec.index("=") + 2


def test_an_integer_beyond_long_but_within_double_is_inferred_a_double() -> None:
    assert parse_property("p=" + "1" + "0" * 300) == ("p", JmsValue("double", 1e300))
    assert parse_property("p=" + "0" * 5000 + "7") == ("p", JmsValue("int", 7))


def test_header_with_thousands_of_digits_is_an_input_error() -> None:
    with pytest.raises(InputError, match="JMSTimestamp"):
        parse_header("JMSTimestamp=" + "9" * 5000)
