"""Recursive-descent parser for JMS message selectors, precedence as in the Jakarta Messaging spec.

    selector  := [or] EOF
    or        := and (OR and)*
    and       := not (AND not)*
    not       := NOT not | predicate
    predicate := sum [ cmpop sum | [NOT] BETWEEN sum AND sum | [NOT] IN '(' string (',' string)* ')'
                     | [NOT] LIKE string [ESCAPE string] | IS [NOT] NULL ]
    sum       := product (('+' | '-') product)*
    product   := unary (('*' | '/') unary)*
    unary     := ('+' | '-') unary | primary
    primary   := string | number | TRUE | FALSE | identifier | '(' or ')'

Comparisons do not chain (`a = b = c` is an error, as in SQL-92). A sign directly before a numeric literal
is folded into it, so `-2147483648` is an int and `-9223372036854775808` a long, as in Java.
"""

from __future__ import annotations

import math
from typing import cast

from mqctl.domain.messages import INTEGRAL_RANGES, to_float32
from mqctl.domain.selector import lexer as lx
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
from mqctl.domain.selector.errors import SelectorError, clip, selector_error
from mqctl.domain.valid_text import not_text

COMPARISON_OPS = ("=", "<>", "<", "<=", ">", ">=")
MAX_SELECTOR_LENGTH = 10240
"""MQ's limit on a selector (MQ_SELECTOR_LENGTH): longer text is refused before it is tokenised, so no
selector costs more than a bounded amount of work to compile or per message."""
_MAX_DEPTH = 64  # nesting of parentheses, NOT and signs; each level costs several Python frames
_MAX_TREE_DEPTH = 250  # the compiled closures recurse once or twice per level


def parse(text: str) -> Node | None:
    """The tree of TEXT, or None for an empty selector; SelectorError with the column otherwise."""
    if len(text) > MAX_SELECTOR_LENGTH:
        raise selector_error(
            f"a selector of at most {MAX_SELECTOR_LENGTH} characters",
            MAX_SELECTOR_LENGTH + 1,
            f"{len(text)} characters",
        )
    if not text.isascii():
        found = not_text(text)
        if found is not None:
            raise SelectorError(
                f"the selector is not valid text: {found[1]} (column {found[0] + 1})", column=found[0] + 1
            )
    tree = _Parser(text).parse()
    if tree is not None:
        _check_depth(tree)
    return tree


def identifiers(tree: Node | None) -> frozenset[str]:
    """The names a selector reads: message properties and header fields."""
    names: set[str] = set()
    stack = [tree] if tree is not None else []
    while stack:
        node = stack.pop()
        if isinstance(node, Ident):
            names.add(node.name)
        stack.extend(children(node))
    return frozenset(names)


def _check_depth(tree: Node) -> None:
    """Reject trees too deep to type-check and evaluate recursively (long arithmetic chains)."""
    stack: list[tuple[Node, int]] = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > _MAX_TREE_DEPTH:
            raise selector_error(
                f"a selector at most {_MAX_TREE_DEPTH} operators deep", node.start + 1, "a longer chain"
            )
        for child in children(node):
            # A chain of one logical operator is flattened when compiled, so it does not add depth.
            same_chain = isinstance(node, And | Or) and type(child) is type(node)
            stack.append((child, depth if same_chain else depth + 1))


def children(node: Node) -> tuple[Node, ...]:
    if isinstance(node, Arith | Compare | And | Or):
        return (node.left, node.right)
    if isinstance(node, Between):
        return (node.operand, node.low, node.high)
    if isinstance(node, Unary | InList | Like | IsNull | Not):
        return (node.operand,)
    return ()


def wrap(value: int, bits: int) -> int:
    """Two's-complement wrap-around, as Java int (32) and long (64) arithmetic does."""
    half = 1 << (bits - 1)
    return ((value + half) & ((1 << bits) - 1)) - half


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens = lx.tokenize(text)
        self.pos = 0
        self.depth = 0

    # -- token helpers -------------------------------------------------------------------------------
    def peek(self) -> lx.Token:
        return self.tokens[self.pos]

    def advance(self) -> lx.Token:
        tok = self.tokens[self.pos]
        if tok.kind != lx.EOF:
            self.pos += 1
        return tok

    def at_keyword(self, *words: str) -> bool:
        tok = self.tokens[self.pos]
        return tok.kind == lx.KEYWORD and tok.value in words

    def at_op(self, *ops: str) -> bool:
        tok = self.tokens[self.pos]
        return tok.kind == lx.OP and tok.value in ops

    def fail(self, expected: str, tok: lx.Token | None = None) -> SelectorError:
        tok = tok or self.peek()
        return selector_error(expected, tok.column, tok.describe())

    # -- grammar --------------------------------------------------------------------------------------
    def parse(self) -> Node | None:
        if self.peek().kind == lx.EOF:
            return None
        node = self.parse_or()
        if self.peek().kind != lx.EOF:
            if self.at_op(")"):
                raise self.fail("end of selector (this ')' has no matching '(')")
            raise self.fail("AND, OR or end of selector")
        return node

    def parse_or(self) -> Node:
        left = self.parse_and()
        while self.at_keyword("OR"):
            self.advance()
            right = self.parse_and()
            left = Or(left, right, left.start, right.end)
        return left

    def parse_and(self) -> Node:
        left = self.parse_not()
        while self.at_keyword("AND"):
            self.advance()
            right = self.parse_not()
            left = And(left, right, left.start, right.end)
        return left

    def parse_not(self) -> Node:
        if self.at_keyword("NOT"):
            tok = self.advance()
            self.enter()
            operand = self.parse_not()
            self.depth -= 1
            return Not(operand, tok.start, operand.end)
        return self.parse_predicate()

    def parse_predicate(self) -> Node:
        left = self.parse_sum()
        tok = self.peek()
        if tok.kind == lx.OP and tok.value in COMPARISON_OPS:
            self.advance()
            right = self.parse_sum()
            return Compare(str(tok.value), left, right, left.start, right.end)
        negated = False
        if self.at_keyword("NOT"):
            self.advance()
            negated = True
            if not self.at_keyword("BETWEEN", "IN", "LIKE"):
                raise self.fail("BETWEEN, IN or LIKE after NOT")
        if self.at_keyword("BETWEEN"):
            self.advance()
            low = self.parse_sum()
            if not self.at_keyword("AND"):
                raise self.fail("AND between the two BETWEEN bounds")
            self.advance()
            high = self.parse_sum()
            return Between(negated, left, low, high, left.start, high.end)
        if self.at_keyword("IN"):
            return self.parse_in(left, negated)
        if self.at_keyword("LIKE"):
            return self.parse_like(left, negated)
        if self.at_keyword("IS"):
            self.advance()
            is_not = self.at_keyword("NOT")
            if is_not:
                self.advance()
            if not self.at_keyword("NULL"):
                raise self.fail("NULL after IS NOT" if is_not else "NULL or NOT NULL after IS")
            end = self.advance().end
            return IsNull(is_not, left, left.start, end)
        return left

    def parse_in(self, left: Node, negated: bool) -> Node:
        self.advance()
        if not self.at_op("("):
            raise self.fail("'(' after IN")
        self.advance()
        values: list[str] = []
        while True:
            tok = self.peek()
            if tok.kind != lx.STRING:
                raise self.fail("a string literal (IN lists hold string literals only)")
            values.append(str(self.advance().value))
            if self.at_op(","):
                self.advance()
                continue
            if self.at_op(")"):
                end = self.advance().end
                return InList(negated, left, tuple(values), left.start, end)
            raise self.fail("',' or ')' in the IN list")

    def parse_like(self, left: Node, negated: bool) -> Node:
        self.advance()
        pattern_tok = self.peek()
        if pattern_tok.kind != lx.STRING:
            raise self.fail("a string literal pattern after LIKE")
        self.advance()
        end = pattern_tok.end
        escape: str | None = None
        if self.at_keyword("ESCAPE"):
            self.advance()
            esc_tok = self.peek()
            if esc_tok.kind != lx.STRING or len(str(esc_tok.value)) != 1:
                raise self.fail("a single-character string literal after ESCAPE")
            escape = str(self.advance().value)
            end = esc_tok.end
        pattern = str(pattern_tok.value)
        if escape is not None:
            _check_escapes(pattern, escape, pattern_tok)
        return Like(negated, left, pattern, escape, left.start, end)

    def parse_sum(self) -> Node:
        left = self.parse_product()
        while self.at_op("+", "-"):
            op = str(self.advance().value)
            right = self.parse_product()
            left = Arith(op, left, right, left.start, right.end)
        return left

    def parse_product(self) -> Node:
        left = self.parse_unary()
        while self.at_op("*", "/"):
            op = str(self.advance().value)
            right = self.parse_unary()
            left = Arith(op, left, right, left.start, right.end)
        return left

    def parse_unary(self) -> Node:
        if self.at_op("+", "-"):
            sign = self.advance()
            nxt = self.peek()
            if nxt.kind in (lx.EXACT, lx.APPROX):
                self.advance()
                return _number_literal(nxt, negative=sign.value == "-", start=sign.start)
            self.enter()
            operand = self.parse_unary()
            self.depth -= 1
            return Unary(str(sign.value), operand, sign.start, operand.end)
        return self.parse_primary()

    def parse_primary(self) -> Node:
        tok = self.peek()
        if tok.kind == lx.STRING:
            self.advance()
            return Literal("string", str(tok.value), tok.start, tok.end)
        if tok.kind in (lx.EXACT, lx.APPROX):
            self.advance()
            return _number_literal(tok, negative=False, start=tok.start)
        if tok.kind == lx.IDENT:
            self.advance()
            return Ident(tok.text, tok.start, tok.end)
        if self.at_keyword("TRUE", "FALSE"):
            self.advance()
            return Literal("boolean", tok.value == "TRUE", tok.start, tok.end)
        if self.at_op("("):
            self.advance()
            self.enter()
            inner = self.parse_or()
            self.depth -= 1
            if not self.at_op(")"):
                raise self.fail("')'")
            self.advance()
            return inner
        if self.at_keyword("NULL"):
            raise self.fail("an identifier, literal or '(' (test for NULL with IS [NOT] NULL)")
        raise self.fail("an identifier, literal or '('")

    def enter(self) -> None:
        self.depth += 1
        if self.depth > _MAX_DEPTH:
            raise self.fail(f"at most {_MAX_DEPTH} levels of nesting")


def _check_escapes(pattern: str, escape: str, tok: lx.Token) -> None:
    """SQL-92: the escape character may only precede '_', '%' or itself.

    An escape character that is itself '%' or '_' is the wildcard wherever it escapes nothing
    (``evaluate.like_tokens``), so only other escape characters can stand wrongly.
    """
    if escape in ("%", "_"):
        return
    i = 0
    while i < len(pattern):
        if pattern[i] == escape:
            if i + 1 >= len(pattern) or pattern[i + 1] not in ("_", "%", escape):
                following = "the end of the pattern" if i + 1 >= len(pattern) else repr(pattern[i + 1])
                raise selector_error(
                    f"'_', '%' or {escape!r} after the escape character {escape!r}",
                    tok.column,
                    f"{following} in pattern {clip(tok.text)}",
                )
            i += 2
        else:
            i += 1


_INT_LO, _INT_HI = INTEGRAL_RANGES["int"]
_LONG_LO, _LONG_HI = INTEGRAL_RANGES["long"]


def _number_literal(tok: lx.Token, *, negative: bool, start: int) -> Literal:
    """Java literal typing: int unless L or too large for int; hex/octal are two's-complement bit patterns."""
    shown = clip(("-" if negative else "") + tok.text)
    if tok.kind == lx.APPROX:
        body, is_float = cast(tuple[str, bool], tok.value)
        f = float(body)
        if negative:
            f = -f
        if is_float:
            f32 = to_float32(f)
            if math.isinf(f32):
                raise selector_error("a number in the range of float", start + 1, f"number {shown}")
            return Literal("float", f32, start, tok.end)
        if math.isinf(f):
            raise selector_error("a number in the range of double", start + 1, f"number {shown}")
        return Literal("double", f, start, tok.end)
    mag, radix, has_l = cast(tuple[int, int, bool], tok.value)
    if radix == 10:
        v = -mag if negative else mag
        if not has_l and _INT_LO <= v <= _INT_HI:
            return Literal("int", v, start, tok.end)
        if _LONG_LO <= v <= _LONG_HI:
            return Literal("long", v, start, tok.end)
        raise selector_error("a number in the range of long", start + 1, f"number {shown}")
    bits = 64 if has_l else 32
    if mag >= 1 << bits:
        if has_l or mag >= 1 << 64:
            raise selector_error("a number in the range of long", start + 1, f"number {shown}")
        bits = 64
    v = wrap(mag, bits)
    if negative:
        v = wrap(-v, bits)
    return Literal("int" if bits == 32 else "long", v, start, tok.end)
