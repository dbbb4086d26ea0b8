"""Property-based selector tests against small references written here: SQL three-valued logic, LIKE as
a hand-written matcher, Java int/long arithmetic, numeric promotion, quoting, and no crash on any input."""

from __future__ import annotations

import ctypes
import math
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from mqctl.domain.messages import JmsValue, Message
from mqctl.domain.selector import SelectorError, compile_selector

# -- three-valued logic --------------------------------------------------------------------------------
VARS = ("a", "b", "c")
TruthValue = bool | None


def logic_exprs() -> st.SearchStrategy[tuple[str, object]]:
    """(selector text, tree) pairs over a, b, c with NOT/AND/OR and the literals."""
    leaves = st.sampled_from([(v, v) for v in VARS] + [("TRUE", True), ("FALSE", False)])

    def extend(inner: st.SearchStrategy[tuple[str, object]]) -> st.SearchStrategy[tuple[str, object]]:
        unary = inner.map(lambda e: (f"NOT ({e[0]})", ("NOT", e[1])))
        binary = st.tuples(st.sampled_from(["AND", "OR"]), inner, inner).map(
            lambda t: (f"({t[1][0]}) {t[0]} ({t[2][0]})", (t[0], t[1][1], t[2][1]))
        )
        return unary | binary

    return st.recursive(leaves, extend, max_leaves=12)


def ref_eval(tree: object, env: dict[str, TruthValue]) -> TruthValue:
    """Kleene's strong three-valued logic, which SQL-92 and JMS use."""
    if isinstance(tree, bool):
        return tree
    if isinstance(tree, str):
        return env[tree]
    assert isinstance(tree, tuple)
    if tree[0] == "NOT":
        v = ref_eval(tree[1], env)
        return None if v is None else not v
    left, right = ref_eval(tree[1], env), ref_eval(tree[2], env)
    if tree[0] == "AND":
        if left is False or right is False:
            return False
        return None if left is None or right is None else True
    if left is True or right is True:
        return True
    return None if left is None or right is None else False


@settings(max_examples=300, deadline=None)
@given(logic_exprs(), st.tuples(*[st.sampled_from([True, False, None])] * 3))
def test_three_valued_logic_matches_kleene_reference(expr: tuple[str, object], values: tuple) -> None:
    text, tree = expr
    env = dict(zip(VARS, values, strict=True))
    props = {k: JmsValue("boolean", v) for k, v in env.items() if v is not None}
    assert compile_selector(text).evaluate(Message.create(props)) is ref_eval(tree, env)


# -- LIKE ----------------------------------------------------------------------------------------------
PATTERN_PIECES = st.sampled_from(["a", "b", ".", "*", "%", "_", "!%", "!_", "!!"])


def ref_like(pieces: list[str], value: str) -> bool:
    """Classic dynamic-programming wildcard match over the pattern pieces (no regular expressions)."""
    n = len(value)
    reach = [False] * (n + 1)
    reach[0] = True
    for piece in pieces:
        nxt = [False] * (n + 1)
        for i in range(n + 1):
            if not reach[i]:
                continue
            if piece == "%":
                for j in range(i, n + 1):
                    nxt[j] = True
            elif piece == "_":
                if i < n:
                    nxt[i + 1] = True
            else:
                literal = piece[1] if piece.startswith("!") else piece
                if i < n and value[i] == literal:
                    nxt[i + 1] = True
        reach = nxt
    return reach[n]


@settings(max_examples=400, deadline=None)
@given(st.lists(PATTERN_PIECES, max_size=8), st.text(alphabet="ab.*%_!\n", max_size=8))
def test_like_matches_reference_matcher(pieces: list[str], value: str) -> None:
    pattern = "".join(pieces)
    m = Message.create({"s": JmsValue("string", value)})
    expected = ref_like(pieces, value)
    assert compile_selector(f"s LIKE '{pattern}' ESCAPE '!'").evaluate(m) is expected
    assert compile_selector(f"s NOT LIKE '{pattern}' ESCAPE '!'").evaluate(m) is (not expected)


# -- Java arithmetic -----------------------------------------------------------------------------------
INTS = st.integers(min_value=-(2**31), max_value=2**31 - 1)
LONGS = st.integers(min_value=-(2**63), max_value=2**63 - 1)


def java_div(x: int, y: int) -> int:
    q = Fraction(x, y)
    return math.floor(q) if q >= 0 else math.ceil(q)


def java_int(op: str, x: int, y: int, c_type: type) -> int | None:
    if op == "/":
        if y == 0:
            return None
        r = java_div(x, y)
    else:
        r = {"+": x + y, "-": x - y, "*": x * y}[op]
    value: int = c_type(r).value
    return value


@settings(max_examples=300, deadline=None)
@given(st.sampled_from("+-*/"), INTS, INTS)
def test_int_arithmetic_matches_java_32_bit(op: str, x: int, y: int) -> None:
    expected = java_int(op, x, y, ctypes.c_int32)
    r = JmsValue("int", expected if expected is not None else 0)
    m = Message.create({"x": JmsValue("int", x), "y": JmsValue("int", y), "r": r})
    got = compile_selector(f"x {op} y = r").evaluate(m)
    assert got is (None if expected is None else True)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from("+-*/"), LONGS, INTS)
def test_long_arithmetic_matches_java_64_bit(op: str, x: int, y: int) -> None:
    expected = java_int(op, x, y, ctypes.c_int64)
    r = JmsValue("long", expected if expected is not None else 0)
    m = Message.create({"x": JmsValue("long", x), "y": JmsValue("int", y), "r": r})
    got = compile_selector(f"x {op} y = r").evaluate(m)
    assert got is (None if expected is None else True)


@settings(max_examples=300, deadline=None)
@given(
    st.integers(min_value=-(2**53), max_value=2**53),
    st.floats(allow_nan=False, allow_infinity=False, width=64),
    st.sampled_from(["=", "<>", "<", "<=", ">", ">="]),
)
def test_int_and_double_compare_by_value(i: int, d: float, op: str) -> None:
    ref = {"=": i == d, "<>": i != d, "<": i < d, "<=": i <= d, ">": i > d, ">=": i >= d}[op]
    m = Message.create({"i": JmsValue("long", i), "d": JmsValue("double", d)})
    assert compile_selector(f"i {op} d").evaluate(m) is ref
    # the same with the number as a literal on either side
    assert compile_selector(f"i {op} {d!r}").evaluate(m) is ref
    assert compile_selector(f"{i} {op} d").evaluate(m) is ref


# -- quoting and robustness ----------------------------------------------------------------------------
@given(st.text(max_size=20))
def test_any_string_round_trips_through_a_quoted_literal(s: str) -> None:
    literal = "'" + s.replace("'", "''") + "'"
    m = Message.create({"p": JmsValue("string", s)})
    assert compile_selector(f"p = {literal}").evaluate(m) is True
    assert compile_selector(f"p IN ('x', {literal})").evaluate(m) is True


@settings(max_examples=500, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                "a",
                "b",
                "1",
                "0x1F",
                "1.5",
                "'s'",
                "TRUE",
                "NULL",
                "NOT",
                "AND",
                "OR",
                "BETWEEN",
                "IN",
                "LIKE",
                "IS",
                "ESCAPE",
                "(",
                ")",
                ",",
                "=",
                "<>",
                "<",
                ">=",
                "+",
                "-",
                "*",
                "/",
                "'%'",
                "!",
                "017",
            ]
        ),
        max_size=12,
    )
)
def test_any_token_soup_compiles_or_raises_selector_error(tokens: list[str]) -> None:
    text = " ".join(tokens)
    try:
        s = compile_selector(text)
    except SelectorError as e:
        assert e.column is not None and 1 <= e.column <= len(text) + 1
        assert str(e).startswith("expected ")
        return
    m = Message.create({"a": JmsValue("int", 1), "b": JmsValue("string", "s")})
    assert s.evaluate(m) in (True, False, None)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.sampled_from(["a", "b", "%", "%", "_"]), max_size=16),
    st.text(alphabet="ab", max_size=60),
)
def test_like_with_many_percent_signs_matches_reference_on_long_values(pieces: list[str], value: str) -> None:
    # Linear-time matching (issue 13): several '%' used to backtrack for minutes.
    m = Message.create({"s": JmsValue("string", value)})
    assert compile_selector(f"s LIKE '{''.join(pieces)}'").evaluate(m) is ref_like(pieces, value)


# Under ESCAPE '%': '%%' is a literal '%', '%_' a literal '_', a '%' that escapes nothing the wildcard.
_PERCENT_ESCAPE_PIECES = {"a": "a", "b": "b", "%%": "!%", "%_": "!_", "%": "%", "_": "_"}


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(sorted(_PERCENT_ESCAPE_PIECES)), max_size=8).filter(
        # a wildcard '%' followed by '%' or '_' would be read as an escape: not this list of pieces
        lambda ps: not any(p == "%" and q[0] in "%_" for p, q in zip(ps, ps[1:], strict=False))
    ),
    st.text(alphabet="ab%_", max_size=10),
)
def test_escape_percent_matches_reference(pieces: list[str], value: str) -> None:
    m = Message.create({"s": JmsValue("string", value)})
    expected = ref_like([_PERCENT_ESCAPE_PIECES[p] for p in pieces], value)
    assert compile_selector(f"s LIKE '{''.join(pieces)}' ESCAPE '%'").evaluate(m) is expected
