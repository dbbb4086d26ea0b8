"""JMS message selectors (semantics §7, Jakarta Messaging 3 §3.8.1): one test per rule.

Cases marked with a source are ported (rewritten in Python) from public suites:
- JORAM conformance suite, org/objectweb/jtests/jms/conform/selector/SelectorTest.java and
  SelectorSyntaxTest.java (as shipped in hornetq/hornetq tests/joram-tests);
- Apache ActiveMQ activemq-client src/test/.../selector/SelectorTest.java;
- the examples in the Jakarta Messaging specification, section "Message selector syntax".
Property-based tests compare against small, obviously correct references written here.
"""

from __future__ import annotations

import pickle
import re

import pytest

from mqctl.domain.messages import JmsValue, Message
from mqctl.domain.selector import Selector, SelectorError, check_selector, compile_selector

P = JmsValue


def msg(headers: dict[str, JmsValue] | None = None, **props: object) -> Message:
    """A message whose properties are typed from Python values (or given as JmsValue)."""
    typed: dict[str, JmsValue] = {}
    for name, value in props.items():
        if isinstance(value, JmsValue):
            typed[name] = value
        elif isinstance(value, bool):
            typed[name] = P("boolean", value)
        elif isinstance(value, int):
            typed[name] = P("int" if -(2**31) <= value < 2**31 else "long", value)
        elif isinstance(value, float):
            typed[name] = P("double", value)
        else:
            typed[name] = P("string", str(value))
    return Message.create(typed, headers)


def ev(text: str, message: Message | None = None, **props: object) -> bool | None:
    return compile_selector(text).evaluate(message if message is not None else msg(**props))


def err(text: str) -> SelectorError:
    with pytest.raises(SelectorError) as info:
        compile_selector(text)
    return info.value


# The ActiveMQ SelectorTest message (createMessage), reduced to what the ported cases read.
AMQ = msg(
    name="James",
    location="London",
    byteProp=P("byte", 123),
    shortProp=P("short", 123),
    intProp=P("int", 123),
    longProp=P("long", 123),
    floatProp=P("float", 123.0),
    doubleProp=P("double", 123.0),
    rank=123,
    version=2,
    quote="'In God We Trust'",
    foo="_foo",
    bar="bar",
    endingUnderScore="XD7xlJIQn_",
    trueProp=True,
    falseProp=False,
    punctuation="!#$&()*+,-./:;<=>?@[\\]^`{|}~",
    headers={"JMSType": P("string", "selector-test"), "JMSMessageID": P("string", "connection:1:1:1:1")},
)


# -- public API ----------------------------------------------------------------------------------------
def test_compile_returns_selector_with_text() -> None:
    s = compile_selector("a = 1")
    assert isinstance(s, Selector)
    assert s.text == "a = 1"


def test_compile_is_cached() -> None:
    assert compile_selector("cached = 1") is compile_selector("cached = 1")


def test_check_selector_raises_only_for_invalid() -> None:
    check_selector("a = 1")
    with pytest.raises(SelectorError):
        check_selector("a = ")


def test_selector_error_is_input_error_with_column_and_expected() -> None:
    from mqctl.domain.errors import InputError

    e = err("(a = 1 OR b = 2")
    assert isinstance(e, InputError)
    assert e.column == 16
    assert e.expected == "')'"
    assert str(e) == "expected ')' at column 16, found end of selector"


def test_selector_pickles_by_text() -> None:
    s = pickle.loads(pickle.dumps(compile_selector("a > 1")))
    assert s.matches(msg(a=2)) and s.text == "a > 1"


@pytest.mark.parametrize("text", ["", "   ", "\t\n\f\r"])
def test_empty_selector_selects_everything(text: str) -> None:
    assert compile_selector(text).evaluate(msg()) is True
    assert compile_selector(text).matches(msg(a=1))


def test_matches_only_on_true() -> None:
    s = compile_selector("a > 1")
    assert s.matches(msg(a=2)) is True
    assert s.matches(msg(a=0)) is False
    assert s.evaluate(msg()) is None
    assert s.matches(msg()) is False


# -- literals ------------------------------------------------------------------------------------------
def test_string_literal_with_doubled_quote() -> None:
    # ActiveMQ SelectorTest.testStringQuoteParsing
    assert ev("quote = '''In God We Trust'''", AMQ) is True
    assert ev("s = 'it''s'", s="it's") is True
    assert ev("s = ''", s="") is True


@pytest.mark.parametrize(
    ("literal", "value"),
    [
        ("57", 57),
        ("-957", -957),
        ("+62", 62),
        ("017", 15),
        ("00", 0),
        ("0x1F", 31),
        ("0X1f", 31),
        ("10L", 10),
        ("10l", 10),
        ("0x7FFFFFFFFFFFFFFFL", 2**63 - 1),
        ("2147483648", 2**31),
        ("-2147483648", -(2**31)),
        ("-9223372036854775808", -(2**63)),
    ],
)
def test_exact_numeric_literals(literal: str, value: int) -> None:
    # Jakarta Messaging: "Exact numeric literals use the Java integer literal syntax" (57, -957, +62).
    assert ev(f"n = {literal}", n=value) is True
    other = value - 1 if value > -(2**63) else value + 1
    assert ev(f"n = {literal}", n=other) is False


def test_hex_and_octal_literals_are_twos_complement_as_in_java() -> None:
    assert ev("0xFFFFFFFF = -1") is True
    assert ev("037777777777 = -1") is True
    assert ev("0xFFFFFFFFFFFFFFFFL = -1") is True
    assert ev("0x80000000 = -2147483648") is True


@pytest.mark.parametrize(
    ("literal", "value"),
    [
        ("1.5", 1.5),
        ("7.", 7.0),
        ("-95.7", -95.7),
        ("+6.2", 6.2),
        (".5", 0.5),
        ("1E3", 1000.0),
        ("7E3", 7000.0),
        ("-57.9E2", -5790.0),
        ("1e-3", 0.001),
        ("1.5D", 1.5),
        ("2d", 2.0),
        ("09.5", 9.5),
    ],
)
def test_approximate_numeric_literals(literal: str, value: float) -> None:
    # Jakarta Messaging: 7E3, -57.9E2, 7., -95.7, +6.2 ("Java floating-point literal syntax").
    assert ev(f"x = {literal}", x=value) is True


def test_float_suffix_makes_a_32_bit_literal() -> None:
    f = P("float", 0.1)
    assert ev("x = 0.1F", x=f) is True
    assert ev("x = 0.1f", x=f) is True
    # Java promotes the float to double: (double) 0.1f != 0.1
    assert ev("x = 0.1", x=f) is False
    assert ev("x = 0.1", x=0.1) is True


def test_float_comparisons() -> None:
    # ActiveMQ SelectorTest.testFloatComparisons
    for text in [
        "1.0 < 1.1",
        "-1.1 < 1.0",
        "1.0E1 < 1.1E1",
        "-1.1E1 < 1.0E1",
        "1. < 1.1",
        "-1.1 < 1.",
        "1.E1 < 1.1E1",
        "-1.1E1 < 1.E1",
        ".1 < .5",
        "-.5 < .1",
        ".1E1 < .5E1",
        "-.5E1 < .1E1",
        "4E10 < 5E10",
        "5E8 < 5E10",
        "-4E10 < 2E10",
        "-5E8 < 2E2",
        "4E+10 < 5E+10",
        "4E-10 < 5E-10",
    ]:
        assert ev(text) is True, text


@pytest.mark.parametrize(
    "text", ["flag = TRUE", "flag = true", "flag = True", "flag <> FALSE", "TRUE", "true"]
)
def test_boolean_literals_are_case_insensitive(text: str) -> None:
    assert ev(text, flag=True) is True


@pytest.mark.parametrize(
    ("text", "column"),
    [
        ("n = 9223372036854775808", 5),
        ("n = 0x1FFFFFFFFFFFFFFFFL", 5),
        ("n = 09", 5),
        ("n = 0x", 7),
        ("n = 1E", 7),
        ("n = 12abc", 7),
        ("n = 1e999", 5),
        ("n = 1e39F", 5),
        ("s = 'open", 5),  # the opening quote of the literal that is never closed
    ],
)
def test_malformed_or_out_of_range_literal_is_error(text: str, column: int) -> None:
    assert err(text).column == column


# -- identifiers and keywords --------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["a", "_a", "$a", "a1", "a_b$c", "größe", "JMSX_prop", "JMS_vendor"])
def test_identifiers_follow_java_rules(name: str) -> None:
    # JORAM SelectorSyntaxTest.testValidIdentifiersStart / testValidIdentifiersPart
    assert ev(f"{name} = 1", msg(**{name: 1})) is True


def test_identifiers_are_case_sensitive() -> None:
    assert ev("Country = 'UK'", Country="UK") is True
    assert ev("country = 'UK'", Country="UK") is None


@pytest.mark.parametrize(
    "word",
    ["NULL", "TRUE", "FALSE", "NOT", "AND", "OR", "BETWEEN", "LIKE", "IN", "IS", "ESCAPE", "null", "Escape"],
)
def test_reserved_words_are_not_identifiers(word: str) -> None:
    # JORAM SelectorSyntaxTest.testInvalidIdentifiers_* (NULL, TRUE, FALSE, NOT, AND, OR, BETWEEN, ...)
    err(f"{word} = 'a'")
    err(f"x = 1 AND {word} = 'a'")


@pytest.mark.parametrize("text", ["1a = 1", "a-b = 1"])
def test_identifier_may_not_start_with_digit_or_contain_minus(text: str) -> None:
    # "a-b = 1" parses as a - b = 1: legal (arithmetic on NULLs), so only "1a" is an error.
    if text.startswith("1"):
        err(text)
    else:
        assert ev(text) is None


def test_keywords_are_case_insensitive() -> None:
    m = msg(a=5, s="abc")
    for text in [
        "a between 1 and 9",
        "a BeTwEeN 1 aNd 9",
        "s like 'a%'",
        "s in ('abc')",
        "s iS nOt NuLl",
        "not a > 9",
        "a > 1 or a < 0",
    ]:
        assert ev(text, m) is True, text


def test_missing_property_is_null() -> None:
    assert ev("missing = 1") is None
    assert ev("missing IS NULL") is True


def test_header_names_read_headers() -> None:
    m = msg(
        headers={
            "JMSPriority": P("int", 7),
            "JMSType": P("string", "car"),
            "JMSCorrelationID": P("string", "c-1"),
            "JMSTimestamp": P("long", 1000),
        }
    )
    assert ev("JMSPriority = 7", m) is True
    assert ev("JMSDeliveryMode = 'PERSISTENT'", m) is True
    assert ev("JMSType = 'car' AND JMSCorrelationID = 'c-1'", m) is True
    assert ev("JMSTimestamp > 999", m) is True
    assert ev("JMSMessageID IS NULL", m) is True
    assert ev("JMSPriority > 4", msg()) is False  # default priority 4


def test_headers_are_not_read_from_properties() -> None:
    m = Message.create({"JMSType": P("string", "prop")}, {})
    assert ev("JMSType = 'prop'", m) is None


# -- comparison ----------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("n = 5", True),
        ("n <> 5", False),
        ("n < 6", True),
        ("n <= 5", True),
        ("n > 5", False),
        ("n >= 5", True),
        ("5 = n", True),
        ("6 > n", True),
        ("4 >= n", False),
    ],
)
def test_comparison_operators(text: str, expected: bool) -> None:
    assert ev(text, n=5) is expected


def test_basic_selectors() -> None:
    # ActiveMQ SelectorTest.testBasicSelectors / testPropertyTypes
    assert ev("name = 'James'", AMQ) is True
    assert ev("rank > 100", AMQ) is True
    assert ev("rank >= 123", AMQ) is True
    assert ev("rank >= 124", AMQ) is False
    for prop in ["byteProp", "shortProp", "intProp", "longProp", "floatProp", "doubleProp"]:
        assert ev(f"{prop} = 123", AMQ) is True, prop
        assert ev(f"{prop} = 123.0", AMQ) is True, prop
    assert ev("JMSType = 'selector-test'", AMQ) is True
    assert ev("JMSMessageID = 'connection:1:1:1:1'", AMQ) is True


def test_numbers_of_different_kinds_compare_by_value() -> None:
    assert ev("i = d", i=3, d=3.0) is True
    assert ev("i < d", i=3, d=3.5) is True
    assert ev("b = l", b=P("byte", 7), l=P("long", 7)) is True
    assert ev("f = d", f=P("float", 0.5), d=0.5) is True
    # long to float promotion loses precision, as in Java: 16777217L == 16777216f
    assert ev("l = f", l=P("long", 16777217), f=P("float", 16777216.0)) is True
    assert ev("l = d", l=P("long", 16777217), d=16777216.0) is False


def test_strings_compare_by_characters() -> None:
    assert ev("s = 'abc'", s="abc") is True
    assert ev("s = 'ABC'", s="abc") is False
    assert ev("s <> 'x'", s="abc") is True
    assert ev("a = b", a="x", b="x") is True


def test_boolean_properties_compare_with_equals() -> None:
    assert ev("trueProp = TRUE", AMQ) is True
    assert ev("falseProp = FALSE", AMQ) is True
    assert ev("trueProp <> falseProp", AMQ) is True


def test_string_property_is_not_a_number() -> None:
    # Jakarta Messaging: setStringProperty("NumberOfOrders", "2"); "NumberOfOrders > 1" is false.
    # (JORAM SelectorTest.testStringPropertyAsNumber)
    assert ev("NumberOfOrders > 1", NumberOfOrders="2") is False
    assert ev("NumberOfOrders = 2", NumberOfOrders="2") is False


@pytest.mark.parametrize(
    ("text", "props"),
    [
        ("s = 1", {"s": "1"}),
        ("s <> 1", {"s": "1"}),
        ("s > 1", {"s": "2"}),
        ("n = 'a'", {"n": 1}),
        ("n <> 'a'", {"n": 1}),
        ("b = 1", {"b": True}),
        ("n = TRUE", {"n": 1}),
        ("s = b", {"s": "true", "b": True}),
        ("s = n", {"s": "1", "n": 1}),
        ("s >= n", {"s": "1", "n": 1}),
        ("1.5 = s", {"s": "1.5"}),
    ],
)
def test_comparison_of_unlike_types_is_false(text: str, props: dict[str, object]) -> None:
    # Jakarta Messaging: "If the comparison of non-like type values is attempted, the value of the
    # operation is false" (semantics §9): FALSE, so NOT of it is TRUE.
    assert ev(text, **props) is False
    assert ev(f"NOT ({text})", **props) is True


def test_not_of_an_unlike_comparison_selects() -> None:
    # The case issue 11 names: a string property A compared with a number.
    assert ev("NOT A = 17", A="seventeen") is True
    assert compile_selector("NOT A = 17").matches(msg(A="17")) is True


def test_header_compared_with_a_value_of_another_type_is_false_not_an_error() -> None:
    # semantics §9: JMSDeliveryMode is 'PERSISTENT'/'NON_PERSISTENT' text in selectors; `= 2` is FALSE.
    assert ev("JMSDeliveryMode = 2") is False
    assert ev("NOT JMSDeliveryMode = 2") is True
    assert ev("JMSDeliveryMode = 'PERSISTENT'") is True
    assert ev("JMSPriority = 'high'") is False
    assert ev("JMSDeliveryMode > 1") is False
    assert ev("JMSPriority LIKE '4%'") is False
    assert ev("JMSPriority NOT LIKE '4%'") is True
    assert ev("JMSTimestamp IN ('a')") is None  # no timestamp on the message: NULL
    # Arithmetic on a string header is UNKNOWN (semantics §9), and so is the comparison holding it.
    assert ev("JMSType + 1 = 2", msg({"JMSType": P("string", "car")})) is None


@pytest.mark.parametrize(
    ("text", "props"),
    [
        ("s < t", {"s": "a", "t": "b"}),
        ("b > c", {"b": True, "c": False}),
    ],
)
def test_ordering_two_strings_or_booleans_is_unknown(text: str, props: dict[str, object]) -> None:
    # Like types, but the specification restricts strings and booleans to = and <>: undefined.
    assert ev(text, **props) is None
    assert ev(f"NOT ({text})", **props) is None


def test_comparison_with_null_is_unknown() -> None:
    for text in ["a = 1", "a <> 1", "a < 1", "1 > a", "a = b", "a = 'x'", "a = TRUE"]:
        assert ev(text, b=1) is None, text


def test_comparisons_do_not_chain() -> None:
    assert err("a = b = c").column == 7


def test_not_equal_is_spelled_angle_brackets() -> None:
    e = err("a != 1")
    assert e.column == 3 and "<>" in str(e)


# -- arithmetic ----------------------------------------------------------------------------------------
def test_arithmetic_operators() -> None:
    # ActiveMQ SelectorTest.testPlus / testMinus / testMultiply
    for text in [
        "rank + 2 = 125",
        "(rank + 2) = 125",
        "125 = (rank + 2)",
        "rank + version = 125",
        "rank + 0.1 > 123",
        "rank - 2 = 121",
        "rank - version = 121",
        "rank * 2 = 246",
        "rank * version = 246",
    ]:
        assert ev(text, AMQ) is True, text


def test_integer_division_truncates_as_in_java() -> None:
    # ActiveMQ SelectorTest.testDivide expects "rank / version = 61.5" (it divides in double);
    # the specification's Java promotion makes int / int an int: 123 / 2 = 61.
    assert ev("rank / version = 61", AMQ) is True
    assert ev("rank / version = 61.5", AMQ) is False
    assert ev("rank / 2.0 = 61.5", AMQ) is True
    assert ev("-7 / 2 = -3") is True
    assert ev("7 / -2 = -3") is True
    assert ev("-7 / -2 = 3") is True


def test_division_by_zero_is_unknown() -> None:
    assert ev("n / 0 = 1", n=1) is None
    assert ev("n / 0.0 > 1", n=1.0) is None
    assert ev("n / z > 1", n=1, z=0) is None
    assert ev("n / z IS NULL", n=1, z=0.0) is True


def test_precedence_of_arithmetic() -> None:
    assert ev("2 + 3 * 4 = 14") is True
    assert ev("(2 + 3) * 4 = 20") is True
    assert ev("10 - 4 - 3 = 3") is True
    assert ev("16 / 4 / 2 = 2") is True
    assert ev("-2 * -3 = 6") is True
    assert ev("- -2 = 2") is True
    assert ev("-(2 + 3) = -5") is True
    assert ev("+n = 5", n=5) is True


def test_int_arithmetic_wraps_as_in_java() -> None:
    assert ev("i + 1 = -2147483648", i=2147483647) is True
    assert ev("l + 1 > 2147483647", l=P("long", 2147483647)) is True
    assert ev("2147483647 + 1 < 0") is True
    assert ev("2147483647L + 1 > 0") is True
    assert ev("-i = i", i=-(2**31)) is True


def test_float_arithmetic_is_32_bit() -> None:
    f = P("float", 0.1)
    assert ev("f + f = 0.2F", f=f) is True
    assert ev("f * 3 = 0.3F", f=f) is True  # rounded to float: 0.1f * 3 == 0.3f in Java
    assert ev("d * 3 = 0.3", d=0.1) is False  # in double it is 0.30000000000000004
    assert ev("f + 0.0 = 0.1", f=f) is False  # float + double is double


def test_arithmetic_on_non_numbers_is_unknown() -> None:
    assert ev("s + 1 = 2", s="1") is None
    assert ev("b * 2 = 2", b=True) is None
    assert ev("-s = 1", s="1") is None
    assert ev("n + missing = 1", n=1) is None


# -- logic ---------------------------------------------------------------------------------------------
_TV = [True, False, None]


def _ref_and(a: bool | None, b: bool | None) -> bool | None:
    if a is False or b is False:
        return False
    return None if a is None or b is None else True


def _ref_or(a: bool | None, b: bool | None) -> bool | None:
    if a is True or b is True:
        return True
    return None if a is None or b is None else False


def _prop(v: bool | None) -> dict[str, object]:
    return {} if v is None else {"a": v}


@pytest.mark.parametrize("a", _TV)
@pytest.mark.parametrize("b", _TV)
def test_three_valued_and_or_truth_tables(a: bool | None, b: bool | None) -> None:
    props = {}
    if a is not None:
        props["a"] = a
    if b is not None:
        props["b"] = b
    assert ev("a AND b", **props) is _ref_and(a, b)
    assert ev("a OR b", **props) is _ref_or(a, b)


@pytest.mark.parametrize("a", _TV)
def test_three_valued_not(a: bool | None) -> None:
    assert ev("NOT a", **_prop(a)) is (None if a is None else not a)


def test_logical_selectors() -> None:
    # ActiveMQ SelectorTest.testAndSelectors / testOrSelectors / testBooleanSelector
    assert ev("name = 'James' and rank < 200", AMQ) is True
    assert ev("name = 'James' and rank > 200", AMQ) is False
    assert ev("name = 'Foo' and rank < 200", AMQ) is False
    assert ev("name = 'James' or rank < 200", AMQ) is True
    assert ev("name = 'James' or rank > 200", AMQ) is True
    assert ev("name = 'Foo' or rank < 200", AMQ) is True
    assert ev("name = 'Foo' or rank > 200", AMQ) is False
    assert ev("(trueProp OR falseProp) AND trueProp", AMQ) is True
    assert ev("(falseProp OR trueProp) AND falseProp", AMQ) is False
    assert ev("trueProp", AMQ) is True
    assert ev("falseProp", AMQ) is False


def test_logical_precedence_not_and_or() -> None:
    # NOT binds tighter than AND, AND tighter than OR.
    assert ev("TRUE OR TRUE AND FALSE") is True
    assert ev("(TRUE OR TRUE) AND FALSE") is False
    assert ev("NOT FALSE AND FALSE") is False
    assert ev("NOT (FALSE AND FALSE)") is True
    assert ev("NOT a = 1", a=2) is True
    assert ev("NOT NOT TRUE") is True


def test_non_boolean_property_as_condition_is_unknown() -> None:
    assert ev("flag", flag="true") is None
    assert ev("flag AND TRUE", flag=1) is None


def test_long_or_chain_does_not_recurse() -> None:
    text = " OR ".join(f"a = {i}" for i in range(900))  # 9,780 characters: within MQ's 10,240
    assert ev(text, a=899) is True
    assert ev(text, a=-1) is False
    assert ev(text) is None


def test_deep_nesting_is_an_error_not_a_crash() -> None:
    err("(" * 500 + "a = 1" + ")" * 500)
    err("NOT " * 500 + "a")
    err("a = " + " + ".join(["1"] * 1000))
    assert ev("(" * 30 + "a = 1" + ")" * 30, a=1) is True
    assert ev("a = " + " + ".join(["1"] * 100), a=100) is True


# -- BETWEEN -------------------------------------------------------------------------------------------
def test_between() -> None:
    # Jakarta Messaging / JORAM SelectorTest.testBetween: "age BETWEEN 15 and 19" true for 17, false for 20
    assert ev("age BETWEEN 15 AND 19", age=17) is True
    assert ev("age BETWEEN 15 AND 19", age=20) is False
    assert ev("age BETWEEN 15 AND 19", age=15) is True
    assert ev("age BETWEEN 15 AND 19", age=19) is True
    # JORAM SelectorTest.testNotBetween: "age NOT BETWEEN 15 AND 19" true for 20, false for 17
    assert ev("age NOT BETWEEN 15 AND 19", age=20) is True
    assert ev("age NOT BETWEEN 15 AND 19", age=17) is False
    # ActiveMQ SelectorTest.testBetween
    assert ev("rank between 100 and 150", AMQ) is True
    assert ev("rank between 10 and 120", AMQ) is False


def test_between_with_expressions_and_mixed_numbers() -> None:
    assert ev("x BETWEEN a - 1 AND a + 1", x=2.5, a=2) is True
    assert ev("x BETWEEN 1 AND 2 AND y = 1", x=1.5, y=1) is True


def test_between_with_null_follows_sql() -> None:
    # x BETWEEN a AND b == x >= a AND x <= b; x NOT BETWEEN a AND b == x < a OR x > b
    assert ev("age BETWEEN 15 AND 19") is None
    assert ev("age NOT BETWEEN 15 AND 19") is None
    assert ev("5 BETWEEN lo AND 3") is False
    assert ev("5 NOT BETWEEN lo AND 3") is True
    assert ev("5 BETWEEN lo AND 9") is None
    assert ev("5 NOT BETWEEN lo AND 9") is None


def test_between_of_unlike_types_is_false_both_ways() -> None:
    # Jakarta Messaging: "age NOT BETWEEN 15 AND 19 is equivalent to age < 15 OR age > 19"; with a
    # string age every comparison is FALSE, so BETWEEN and NOT BETWEEN are both FALSE.
    assert ev("age BETWEEN 15 AND 19", age="17") is False
    assert ev("age NOT BETWEEN 15 AND 19", age="17") is False
    assert ev("NOT (age BETWEEN 15 AND 19)", age="17") is True


# -- IN ------------------------------------------------------------------------------------------------
def test_in() -> None:
    # Jakarta Messaging / JORAM SelectorTest.testIn: true for 'UK', false for 'Peru'
    assert ev("Country IN ('UK', 'US', 'France')", Country="UK") is True
    assert ev("Country IN ('UK', 'US', 'France')", Country="Peru") is False
    # JORAM SelectorTest.testNotIn
    assert ev("Country NOT IN ('UK', 'US', 'France')", Country="Peru") is True
    assert ev("Country NOT IN ('UK', 'US', 'France')", Country="UK") is False
    # ActiveMQ SelectorTest.testIn
    assert ev("name in ('James', 'Bob', 'Gromit')", AMQ) is True
    assert ev("name in ('Bob', 'James', 'Gromit')", AMQ) is True
    assert ev("name in ('Gromit', 'Bob', 'James')", AMQ) is True
    assert ev("name in ('Gromit', 'Bob', 'Cheddar')", AMQ) is False
    assert ev("name not in ('Gromit', 'Bob', 'Cheddar')", AMQ) is True


def test_in_with_null_is_unknown_and_with_a_non_string_false() -> None:
    assert ev("Country IN ('UK')") is None
    assert ev("Country NOT IN ('UK')") is None
    # Jakarta Messaging: IN is "(Country = 'UK') OR ...", NOT IN its negation: unlike types are FALSE.
    assert ev("n IN ('1')", n=1) is False
    assert ev("n NOT IN ('1')", n=1) is True


def test_in_takes_string_literals_only() -> None:
    assert err("n IN (1, 2)").column == 7
    assert err("s IN ('a', b)").column == 12
    assert err("s IN ()").column == 7
    assert err("s IN 'a'").column == 6
    assert err("s IN ('a' 'b')").column == 11
    assert err("5 IN ('a')").column == 1


# -- LIKE ----------------------------------------------------------------------------------------------
def test_like() -> None:
    # Jakarta Messaging examples, JORAM SelectorTest.testLike_1 / testLike_2 / testNotLike
    assert ev("phone LIKE '12%3'", phone="123") is True
    assert ev("phone LIKE '12%3'", phone="12993") is True
    assert ev("phone LIKE '12%3'", phone="1234") is False
    assert ev("word LIKE 'l_se'", word="lose") is True
    assert ev("word LIKE 'l_se'", word="loose") is False
    assert ev("phone NOT LIKE '12%3'", phone="1234") is True
    assert ev("phone NOT LIKE '12%3'", phone="123") is False


def test_like_escape() -> None:
    # Jakarta Messaging example / JORAM SelectorTest.testLikeEscape: "underscored LIKE '\_%' ESCAPE '\'"
    assert ev("underscored LIKE '\\_%' ESCAPE '\\'", underscored="_foo") is True
    assert ev("underscored LIKE '\\_%' ESCAPE '\\'", underscored="bar") is False
    # ActiveMQ SelectorTest.testLikeComparisons
    assert ev("foo LIKE '!_%' ESCAPE '!'", AMQ) is True
    assert ev("bar LIKE '!_%' ESCAPE '!'", AMQ) is False
    assert ev("endingUnderScore LIKE '_D7xlJIQn$_' ESCAPE '$'", AMQ) is True
    assert ev("s LIKE '100!%' ESCAPE '!'", s="100%") is True
    assert ev("s LIKE '100!%' ESCAPE '!'", s="1000") is False
    assert ev("s LIKE 'a!!b' ESCAPE '!'", s="a!b") is True


def test_like_comparisons_from_activemq() -> None:
    # ActiveMQ SelectorTest.testLikeComparisons
    assert ev("quote LIKE '''In G_d We Trust'''", AMQ) is True
    assert ev("quote LIKE '''In Gd_ We Trust'''", AMQ) is False
    assert ev("quote NOT LIKE '''In G_d We Trust'''", AMQ) is False
    assert ev("quote NOT LIKE '''In Gd_ We Trust'''", AMQ) is True
    assert ev("foo LIKE '%oo'", AMQ) is True
    assert ev("foo LIKE '%ar'", AMQ) is False
    assert ev("foo NOT LIKE '%oo'", AMQ) is False
    assert ev("foo NOT LIKE '%ar'", AMQ) is True
    assert ev("punctuation LIKE '!#$&()*+,-./:;<=>?@[\\]^`{|}~'", AMQ) is True


def test_like_escape_that_is_itself_a_wildcard_works() -> None:
    # ESCAPE '%': '%%' is a literal '%', '%_' a literal '_', and a '%' that escapes nothing is the
    # wildcard. ESCAPE '_' likewise.
    assert ev("s LIKE '50%%' ESCAPE '%'", s="50%") is True
    assert ev("s LIKE '50%%' ESCAPE '%'", s="500") is False
    assert ev("s LIKE 'a%_' ESCAPE '%'", s="a_") is True
    assert ev("s LIKE 'a%_' ESCAPE '%'", s="ab") is False
    assert ev("s LIKE 'a%' ESCAPE '%'", s="abc") is True
    assert ev("s LIKE 'a__' ESCAPE '_'", s="a_") is True
    assert ev("s LIKE 'a_%' ESCAPE '_'", s="a%") is True
    assert ev("s LIKE 'a_%' ESCAPE '_'", s="ab") is False
    # ActiveMQ SelectorTest.testSpecialEscapeLiteral
    assert ev("foo LIKE '%_%' ESCAPE '%'", AMQ) is True
    assert ev("endingUnderScore LIKE '_D7xlJIQn__' ESCAPE '_'", AMQ) is True
    assert ev("endingUnderScore LIKE '%D7xlJIQn%_' ESCAPE '%'", AMQ) is True
    assert ev("endingUnderScore LIKE '%D7xlJIQn%'  ESCAPE '%'", AMQ) is True
    assert ev("endingUnderScore LIKE '%D7xlJIQn%%'  ESCAPE '%'", AMQ) is False


def test_like_escape_must_be_one_character_and_precede_wildcard() -> None:
    assert err("s LIKE 'a' ESCAPE ''").column == 19
    assert err("s LIKE 'a' ESCAPE 'ab'").column == 19
    assert err("s LIKE 'a!b' ESCAPE '!'").column == 8
    assert err("s LIKE 'a!' ESCAPE '!'").column == 8


def test_like_matches_across_newlines_and_whole_value() -> None:
    assert ev("s LIKE 'a%b'", s="a\nb") is True
    assert ev("s LIKE 'a_b'", s="a\nb") is True
    assert ev("s LIKE 'abc'", s="xabcx") is False
    assert ev("s LIKE 'a.c'", s="abc") is False


def test_like_with_null_is_unknown_and_with_a_non_string_false() -> None:
    assert ev("s LIKE 'a%'") is None
    assert ev("s NOT LIKE 'a%'") is None
    assert ev("n LIKE '1%'", n=12) is False
    assert ev("n NOT LIKE '1%'", n=12) is True


def test_like_pattern_must_be_a_string_literal() -> None:
    assert err("p LIKE 7").column == 8
    assert err("p LIKE q").column == 8
    assert err("5 LIKE 'a'").column == 1


# -- IS NULL -------------------------------------------------------------------------------------------
def test_is_null() -> None:
    # JORAM SelectorTest.testNull / ActiveMQ SelectorTest.testIsNull
    assert ev("prop_name IS NULL", prop_name="not null") is False
    assert ev("prop_name IS NULL") is True
    assert ev("prop_name IS NOT NULL", prop_name="x") is True
    assert ev("dummy is null", AMQ) is True
    assert ev("dummy is not null", AMQ) is False
    assert ev("name is not null", AMQ) is True
    assert ev("name is null", AMQ) is False


def test_is_null_of_expression() -> None:
    assert ev("(a + 1) IS NULL") is True
    assert ev("(a + 1) IS NOT NULL", a=1) is True


def test_null_literal_is_only_for_is_null() -> None:
    e = err("a = NULL")
    assert e.column == 5 and "IS" in str(e)
    err("NULL IS NULL")


# -- static type errors (TCK: rejected when the selector is created) -----------------------------------
@pytest.mark.parametrize(
    ("text", "column"),
    [
        ("p > 'foo'", 5),
        ("'foo' < p", 1),
        ("TRUE = 0", 8),
        ("0 = TRUE", 5),
        ("'a' = 1", 7),
        ("'a' <> TRUE", 8),
        ("p LIKE 7", 8),
        ("p BETWEEN 'a' AND 'b'", 11),
        ("p BETWEEN 1 AND 'b'", 17),
        ("'a' BETWEEN 1 AND 2", 1),
        ("'a' + 1", 1),
        ("1 + 'a'", 5),
        ("-'a' = 1", 2),
        ("p * TRUE = 1", 5),
        ("NOT 5", 5),
        ("NOT 'a'", 5),
        ("5 AND TRUE", 1),
        ("TRUE OR 'x'", 9),
        ("a = 1 AND b + 1", 11),
        ("TRUE > FALSE", 1),
        ("p < TRUE", 5),
        ("(a > 1) = 5", 11),
        ("(a > 1) + 1 = 2", 2),
        ("JMSType LIKE 5", 14),
        ("JMSPriority > 'x'", 15),
        ("JMSPriority BETWEEN 'a' AND 'b'", 21),
        ("7 IN ('a')", 1),
        ("5 LIKE 'a'", 1),
    ],
)
def test_literal_type_errors_are_rejected_at_compile_time(text: str, column: int) -> None:
    e = err(text)
    assert e.column == column, str(e)
    assert str(e).startswith("expected ")
    assert f"at column {column}, found " in str(e)


@pytest.mark.parametrize("text", ["5", "'abc'", "a + 1", "-a", "1.5", "JMSPriority + 0", "(a * 2)"])
def test_selector_must_be_a_condition(text: str) -> None:
    e = err(text)
    assert "condition" in e.expected


def test_bare_property_is_a_condition() -> None:
    assert ev("flag", flag=True) is True
    assert ev("(flag)", flag=False) is False
    assert ev("flag") is None


def test_comparing_conditions_is_allowed() -> None:
    assert ev("(a > 1) = TRUE", a=2) is True
    assert ev("(a > 1) = (b > 1)", a=0, b=0) is True
    assert ev("flag = (a > 1)", flag=True, a=2) is True


# -- syntax errors -------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "column", "expected"),
    [
        ("(a = 1", 7, "')'"),
        ("a = 1)", 6, "end of selector (this ')' has no matching '(')"),
        ("a = ", 5, "an identifier, literal or '('"),
        ("a = 1 b", 7, "AND, OR or end of selector"),
        ("a = 1 AND", 10, "an identifier, literal or '('"),
        ("a NOT 5", 7, "BETWEEN, IN or LIKE after NOT"),
        ("a IS 5", 6, "NULL or NOT NULL after IS"),
        ("a IS NOT 5", 10, "NULL after IS NOT"),
        ("a BETWEEN 1 OR 2", 13, "AND between the two BETWEEN bounds"),
        ("a LIKE 'x' ESCAPE", 18, "a single-character string literal after ESCAPE"),
        ("a = #", 5, "an identifier, literal, operator or parenthesis"),
        ('a = "x"', 5, "an identifier, literal, operator or parenthesis"),
        ("=TEST 'test'", 1, "an identifier, literal or '('"),
    ],
)
def test_syntax_errors_name_column_and_expectation(text: str, column: int, expected: str) -> None:
    e = err(text)
    assert (e.column, e.expected) == (column, expected), str(e)


def test_invalid_selectors_from_activemq() -> None:
    # ActiveMQ SelectorTest.testInvalidSelector
    for text in ["3+5", "True AND 3+5", "=TEST 'test'"]:
        err(text)


def test_sql_comments_are_not_supported() -> None:
    # Jakarta Messaging: "SQL comments are not supported."
    err("a = 1 /* comment */")
    # "--" is two minus signs: 1 - (-comment)
    assert ev("a = 1 -- comment", a=1, comment=0) is True


def test_whitespace_is_space_tab_formfeed_and_line_terminators() -> None:
    assert ev("a\t=\f1\nAND\r\nb = 2", a=1, b=2) is True


def test_error_one_line_mentions_selector() -> None:
    assert err("(a").one_line() == "selector: expected ')' at column 3, found end of selector"


def test_like_reference_regex_agrees_on_a_sample() -> None:
    # A second, independent reference: translate with fnmatch-like rules.
    def ref(pattern: str, value: str) -> bool:
        rx = "".join(".*" if c == "%" else "." if c == "_" else re.escape(c) for c in pattern)
        return re.fullmatch(rx, value, re.DOTALL) is not None

    for pattern, value in [("a%", "abc"), ("%b%", "abc"), ("_b_", "abc"), ("a_", "abc"), ("", ""), ("%", "")]:
        assert ev(f"s LIKE '{pattern}'", s=value) is ref(pattern, value)


# -- what a selector reads -----------------------------------------------------------------------------
def test_identifiers_are_the_properties_and_headers_a_selector_reads() -> None:
    sel = compile_selector(
        "(country = 'USA' OR JMSPriority > 4) AND NOT size BETWEEN lo AND hi AND s LIKE 'a%' "
        "AND c IN ('x') AND z IS NULL AND price * qty > 10"
    )
    assert sel.identifiers == frozenset(
        {"country", "JMSPriority", "size", "lo", "hi", "s", "c", "z", "price", "qty"}
    )
    assert compile_selector("").identifiers == frozenset()
    assert compile_selector("TRUE").identifiers == frozenset()
    assert pickle.loads(pickle.dumps(sel)).identifiers == sel.identifiers


# -- sizes: no selector costs minutes ------------------------------------------------------------------
def test_a_selector_longer_than_mq_allows_is_refused() -> None:
    # MQ's SELECTOR limit is 10,240 characters (issue 13: a 1M-term selector made every explain 35 s).
    ok = "a = 1" + " " * (10240 - 5)
    compile_selector(ok)
    e = err(ok + " ")
    assert e.column == 10241
    assert "at most 10240 characters" in str(e)


@pytest.mark.parametrize(
    "text",
    [
        "a = " + "1" * 5000,
        "a = (" + "9" * 5000 + ")",
        "a = 0" + "7" * 5000,
        "a = 0x" + "F" * 5000,
        "a = " + "1" * 400 + ".0",
        "a = 1E400",
        "a = " + "1" * 20,
        "a = 077777777777777777777777",
    ],
)
def test_numbers_beyond_long_and_double_are_errors_at_their_column(text: str) -> None:
    # Issue 13: 5,000 digits raised Python's "Exceeds the limit (4300 digits)" ValueError.
    e = err(text)
    assert e.column == 5 + text.startswith("a = (")
    assert "in the range of" in str(e)
    assert len(str(e)) < 200


def test_leading_zeros_do_not_count_towards_the_digit_limit() -> None:
    assert ev("a = 0" + "0" * 30 + "17", a=15) is True  # octal 017
