"""Compile a checked selector tree into nested Python closures, so evaluation never walks the tree.

Two closure shapes: a *condition* returns True, False or None (UNKNOWN); a *value* returns the operand's
JmsValue (or a Computed with the same two fields) or None (NULL). Comparisons against a literal, the common
case, get their own closures with the literal and its promotions worked out once. Numbers follow Java:
int/long arithmetic wraps, float arithmetic rounds to 32 bits, integer division truncates, mixed operands
are promoted (int -> long -> float -> double); division by zero and arithmetic on a non-number give
UNKNOWN. A comparison of unlike types (a string with a number, a boolean with a string...) is FALSE, as
Jakarta Messaging says ("the value of the operation is false"; semantics §9); `BETWEEN`, `IN` and `LIKE`
follow from their equivalences in the specification (see docs/selectors.md).
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

from mqctl.domain.messages import HEADER_TYPES, JmsValue, Message, int_to_float32, to_float32
from mqctl.domain.selector.ast import (
    And,
    Arith,
    Between,
    Compare,
    Ident,
    InList,
    IsNull,
    Like,
    Literal,
    Node,
    Not,
    Or,
    Unary,
)
from mqctl.domain.selector.parser import wrap
from mqctl.domain.selector.typecheck import flatten
from mqctl.domain.wildcards import MANY, ONE, Token, char_matcher


class Computed:
    """An arithmetic result: JmsValue's two fields without its validation, because it is made per message."""

    __slots__ = ("type", "value")

    def __init__(self, type: str, value: int | float) -> None:
        self.type = type
        self.value = value


Val = JmsValue | Computed
Cond = Callable[[Message], bool | None]
ValueFn = Callable[[Message], Val | None]

_TRUE = JmsValue("boolean", True)
_FALSE = JmsValue("boolean", False)

_OPS: dict[str, Callable[[Any, Any], bool]] = {
    "=": operator.eq,
    "<>": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}
_FLIPPED = {"=": "=", "<>": "<>", "<": ">", "<=": ">=", ">": "<", ">=": "<="}
# Java binary numeric promotion: the wider rank wins; byte and short compute as int.
_RANK = {"byte": 0, "short": 0, "int": 0, "long": 1, "float": 2, "double": 3}
_RANK_TYPE = ("int", "long", "float", "double")


def build(node: Node | None) -> Cond:
    """The condition closure of a checked tree (None: the empty selector, always TRUE)."""
    if node is None:
        return _const(True)
    return _cond(node)


def _const(result: bool | None) -> Cond:
    def const(m: Message) -> bool | None:
        return result

    return const


# -- conditions -----------------------------------------------------------------------------------------
def _cond(node: Node) -> Cond:
    if isinstance(node, Literal):
        return _const(bool(node.value))
    if isinstance(node, Compare):
        return _compare(node)
    if isinstance(node, And | Or):
        return _logical(node)
    if isinstance(node, Not):
        inner = _cond(node.operand)

        def not_(m: Message) -> bool | None:
            r = inner(m)
            return None if r is None else not r

        return not_
    if isinstance(node, Between):
        return _between(node)
    if isinstance(node, InList):
        return _in(node)
    if isinstance(node, Like):
        return _like(node)
    if isinstance(node, IsNull):
        return _is_null(node)
    # A property (or arithmetic, rejected by the type check) used as a condition: only a boolean counts.
    value = _value(node)

    def boolean_value(m: Message) -> bool | None:
        v = value(m)
        if v is None:
            return None
        x = v.value
        return x if type(x) is bool else None

    return boolean_value


def _logical(node: And | Or) -> Cond:
    parts = [_cond(p) for p in flatten(node)]
    if isinstance(node, And):
        if len(parts) == 2:
            left, right = parts

            def and2(m: Message) -> bool | None:
                a = left(m)
                if a is False:
                    return False
                b = right(m)
                if b is False:
                    return False
                return None if a is None or b is None else True

            return and2

        def and_n(m: Message) -> bool | None:
            result: bool | None = True
            for part in parts:
                r = part(m)
                if r is False:
                    return False
                if r is None:
                    result = None
            return result

        return and_n
    if len(parts) == 2:
        left, right = parts

        def or2(m: Message) -> bool | None:
            a = left(m)
            if a is True:
                return True
            b = right(m)
            if b is True:
                return True
            return None if a is None or b is None else False

        return or2

    def or_n(m: Message) -> bool | None:
        result: bool | None = False
        for part in parts:
            r = part(m)
            if r is True:
                return True
            if r is None:
                result = None
        return result

    return or_n


def compare_values(op: str, a: Val | None, b: Val | None) -> bool | None:
    """Three-valued comparison of two run-time values, with Java numeric promotion.

    NULL gives UNKNOWN; unlike types give FALSE; two strings or booleans ordered with ``<``, ``>``...
    (which the specification does not define) give UNKNOWN.
    """
    if a is None or b is None:
        return None
    x, y = a.value, b.value
    tx, ty = type(x), type(y)
    if tx is ty:
        if (tx is str or tx is bool) and op not in ("=", "<>"):
            return None
        return _OPS[op](x, y)
    if tx in (int, float) and ty in (int, float):
        if tx is int:
            x = int_to_float32(x) if b.type == "float" else float(x)  # type: ignore[arg-type]
        else:
            y = int_to_float32(y) if a.type == "float" else float(y)  # type: ignore[arg-type]
        return _OPS[op](x, y)
    return False


def _compare(node: Compare) -> Cond:
    op, left, right = node.op, node.left, node.right
    if isinstance(left, Literal) and not isinstance(right, Literal):
        op, left, right = _FLIPPED[op], right, left
    if isinstance(right, Literal) and not isinstance(left, Literal):
        return _compare_literal(op, _value(left), right)
    lf, rf = _value(left), _value(right)

    def compare(m: Message) -> bool | None:
        return compare_values(op, lf(m), rf(m))

    return compare


def _compare_literal(op: str, value: ValueFn, lit: Literal) -> Cond:
    """`value OP literal` with the literal's promotions precomputed."""
    fn = _OPS[op]
    lv = lit.value
    if lit.type in ("string", "boolean"):
        want: type = str if lit.type == "string" else bool
        equal = op == "="

        def compare_plain(m: Message) -> bool | None:
            v = value(m)
            if v is None:
                return None
            x = v.value
            if type(x) is not want:
                return False
            return (x == lv) if equal else (x != lv)

        return compare_plain
    if isinstance(lv, int):
        as_double = float(lv)
        as_float = int_to_float32(lv)

        def compare_exact(m: Message) -> bool | None:
            v = value(m)
            if v is None:
                return None
            x = v.value
            tx = type(x)
            if tx is int:
                return fn(x, lv)
            if tx is float:
                return fn(x, as_float if v.type == "float" else as_double)
            return False

        return compare_exact
    lit_is_float = lit.type == "float"

    def compare_approx(m: Message) -> bool | None:
        v = value(m)
        if v is None:
            return None
        x = v.value
        tx = type(x)
        if tx is float:
            return fn(x, lv)
        if tx is int:
            return fn(int_to_float32(x) if lit_is_float else float(x), lv)  # type: ignore[arg-type]
        return False

    return compare_approx


def _between(node: Between) -> Cond:
    """As the specification defines them: `x BETWEEN a AND b` is `x >= a AND x <= b`, and
    `x NOT BETWEEN a AND b` is `x < a OR x > b` (the same as NOT BETWEEN except for unlike types, where
    every comparison is FALSE and so are both)."""
    operand, low, high = _value(node.operand), _value(node.low), _value(node.high)

    if not node.negated:

        def between(m: Message) -> bool | None:
            v = operand(m)
            if v is None:
                return None
            ge = compare_values(">=", v, low(m))
            if ge is False:
                return False
            le = compare_values("<=", v, high(m))
            if le is False:
                return False
            return None if ge is None or le is None else True

        return between

    def not_between(m: Message) -> bool | None:
        v = operand(m)
        if v is None:
            return None
        lt = compare_values("<", v, low(m))
        if lt is True:
            return True
        gt = compare_values(">", v, high(m))
        if gt is True:
            return True
        return None if lt is None or gt is None else False

    return not_between


def _in(node: InList) -> Cond:
    operand = _value(node.operand)
    values = frozenset(node.values)
    negated = node.negated

    def in_(m: Message) -> bool | None:
        v = operand(m)
        if v is None:
            return None
        x = v.value
        # `x IN (...)` is `x = '...' OR ...`: FALSE for a non-string; NOT IN is its negation.
        return (type(x) is str and x in values) is not negated

    return in_


def like_tokens(pattern: str, escape: str | None) -> list[Token]:
    """A LIKE pattern as wildcard tokens: '%' any run, '_' one character, everything else itself.

    The escape character followed by '_', '%' or itself stands for that character. An escape character
    that is itself '%' or '_' and is followed by anything else keeps its wildcard meaning (so
    `'%_%' ESCAPE '%'` is a literal '_' followed by any run); the parser refused every other escape
    character not followed by one of those.
    """
    out: list[Token] = []
    i, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        if c == escape and i + 1 < n and pattern[i + 1] in ("%", "_", escape):
            out.append(pattern[i + 1])
            i += 2
            continue
        out.append(MANY if c == "%" else ONE if c == "_" else c)
        i += 1
    return out


def _like(node: Like) -> Cond:
    operand = _value(node.operand)
    match = char_matcher(like_tokens(node.pattern, node.escape))
    negated = node.negated

    def like(m: Message) -> bool | None:
        v = operand(m)
        if v is None:
            return None
        x = v.value
        # LIKE on a non-string is FALSE (unlike types); NOT LIKE is its negation.
        return (type(x) is str and match(x)) is not negated

    return like


def _is_null(node: IsNull) -> Cond:
    negated = node.negated
    if isinstance(node.operand, Ident):
        name = node.operand.name
        if name in HEADER_TYPES:

            def header_is_null(m: Message) -> bool | None:
                return (m.headers.get(name) is None) is not negated

            return header_is_null

        def property_is_null(m: Message) -> bool | None:
            return (m.properties.get(name) is None) is not negated

        return property_is_null
    operand = _value(node.operand)

    def is_null(m: Message) -> bool | None:
        return (operand(m) is None) is not negated

    return is_null


# -- values ---------------------------------------------------------------------------------------------
def _value(node: Node) -> ValueFn:
    if isinstance(node, Literal):
        constant = JmsValue(node.type, node.value)

        def literal(m: Message) -> Val | None:
            return constant

        return literal
    if isinstance(node, Ident):
        name = node.name
        if name in HEADER_TYPES:

            def header(m: Message) -> Val | None:
                return m.headers.get(name)

            return header

        def prop(m: Message) -> Val | None:
            return m.properties.get(name)

        return prop
    if isinstance(node, Arith):
        return _arith(node)
    if isinstance(node, Unary):
        return _unary(node)
    cond = _cond(node)

    def boolean(m: Message) -> Val | None:
        r = cond(m)
        return None if r is None else (_TRUE if r else _FALSE)

    return boolean


def arithmetic(op: str, a: Val, b: Val) -> Val | None:
    """One Java binary arithmetic operation; None (UNKNOWN) for a non-number or division by zero."""
    ra = _RANK.get(a.type)
    rb = _RANK.get(b.type)
    if ra is None or rb is None:
        return None
    rank = ra if ra > rb else rb
    x, y = a.value, b.value
    if rank <= 1:
        assert isinstance(x, int) and isinstance(y, int)
        if op == "+":
            r = x + y
        elif op == "-":
            r = x - y
        elif op == "*":
            r = x * y
        else:
            if y == 0:
                return None
            q = abs(x) // abs(y)
            r = q if (x < 0) == (y < 0) else -q
        return Computed(_RANK_TYPE[rank], wrap(r, 32 if rank == 0 else 64))
    if rank == 2:
        fx = int_to_float32(x) if type(x) is int else float(x)
        fy = int_to_float32(y) if type(y) is int else float(y)
    else:
        fx, fy = float(x), float(y)
    if op == "+":
        f = fx + fy
    elif op == "-":
        f = fx - fy
    elif op == "*":
        f = fx * fy
    else:
        if fy == 0:
            return None
        f = fx / fy
    return Computed(_RANK_TYPE[rank], to_float32(f) if rank == 2 else f)


def _arith(node: Arith) -> ValueFn:
    left, right, op = _value(node.left), _value(node.right), node.op

    def arith(m: Message) -> Val | None:
        a = left(m)
        if a is None:
            return None
        b = right(m)
        if b is None:
            return None
        return arithmetic(op, a, b)

    return arith


def _unary(node: Unary) -> ValueFn:
    operand, negate = _value(node.operand), node.op == "-"

    def unary(m: Message) -> Val | None:
        v = operand(m)
        if v is None:
            return None
        rank = _RANK.get(v.type)
        if rank is None:
            return None
        x = v.value
        assert isinstance(x, int | float)
        if not negate:
            return Computed(_RANK_TYPE[rank], x)
        if isinstance(x, int):
            return Computed(_RANK_TYPE[rank], wrap(-x, 32 if rank == 0 else 64))
        return Computed(_RANK_TYPE[rank], -x)

    return unary
