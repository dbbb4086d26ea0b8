"""Static type check: reject at creation what the selector's own text makes wrong (Jakarta Messaging TCK).

Types are categories: numeric, string, boolean, or unknown. What the text fixes has a known category:
literals, and every operator's result. What a message supplies — properties *and* header fields — is
unknown here: Jakarta Messaging decides a comparison of unlike types when the message is evaluated (it is
FALSE: `JMSDeliveryMode = 2`, semantics §9), so only the text's own contradictions are refused. An
operator given an operand of a known wrong category (`p > 'foo'`, `TRUE = 0`, `p BETWEEN 'a' AND 'b'`,
`'a' + 1`, `NOT 5`) is a SelectorError at that operand's column (semantics §7).
"""

from __future__ import annotations

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
from mqctl.domain.selector.errors import clip, selector_error

NUMERIC = "numeric"
STRING = "string"
BOOLEAN = "boolean"

_CATEGORY = {
    "string": STRING,
    "boolean": BOOLEAN,
    "byte": NUMERIC,
    "short": NUMERIC,
    "int": NUMERIC,
    "long": NUMERIC,
    "float": NUMERIC,
    "double": NUMERIC,
}
_ARTICLE = {NUMERIC: "a numeric", STRING: "a string", BOOLEAN: "a boolean"}


def check(node: Node | None, text: str) -> None:
    """Raise SelectorError unless NODE is well typed and boolean (or a bare property) at the top."""
    if node is None:
        return
    top = _Checker(text).type_of(node)
    if top not in (BOOLEAN, None):
        found = describe(node, text, top)
        raise selector_error("a condition (a selector must be true or false)", node.start + 1, found)


def category(jms_type: str) -> str:
    """numeric, string or boolean for a JMS type name."""
    return _CATEGORY[jms_type]


def static_type(node: Node) -> str | None:
    """The category of a node known without a message, or None for a message value (property, header)."""
    if isinstance(node, Literal):
        return _CATEGORY[node.type]
    if isinstance(node, Ident):
        return None
    if isinstance(node, Unary | Arith):
        return NUMERIC
    return BOOLEAN


def describe(node: Node, text: str, cat: str | None) -> str:
    """How an error message names an operand ("found ...")."""
    source = clip(text[node.start : node.end])
    if isinstance(node, Literal):
        if node.type == "string":
            return f"string literal {source}"
        if node.type == "boolean":
            return source.upper()
        return f"number {source}"
    kinds = {NUMERIC: "numeric expression", STRING: "string expression", BOOLEAN: "condition"}
    kind = kinds.get(cat or "", "expression")
    return f"{kind} {source!r}"


class _Checker:
    def __init__(self, text: str) -> None:
        self.text = text

    def require(self, node: Node, wanted: str, context: str) -> None:
        """NODE must be of category WANTED or unknown."""
        got = self.type_of(node)
        if got is not None and got != wanted:
            raise selector_error(
                f"{_ARTICLE[wanted]} operand {context}", node.start + 1, describe(node, self.text, got)
            )

    def type_of(self, node: Node) -> str | None:
        if isinstance(node, Literal | Ident):
            return static_type(node)
        if isinstance(node, Unary):
            self.require(node.operand, NUMERIC, f"for unary '{node.op}'")
            return NUMERIC
        if isinstance(node, Arith):
            self.require(node.left, NUMERIC, f"for '{node.op}'")
            self.require(node.right, NUMERIC, f"for '{node.op}'")
            return NUMERIC
        if isinstance(node, Compare):
            if node.op in ("=", "<>"):
                left = self.type_of(node.left)
                right = self.type_of(node.right)
                if left is not None and right is not None and left != right:
                    raise selector_error(
                        f"{_ARTICLE[left]} operand to compare with {describe(node.left, self.text, left)}",
                        node.right.start + 1,
                        describe(node.right, self.text, right),
                    )
            else:
                context = f"for '{node.op}' (strings and booleans compare only with = and <>)"
                self.require(node.left, NUMERIC, context)
                self.require(node.right, NUMERIC, context)
            return BOOLEAN
        if isinstance(node, Between):
            word = "NOT BETWEEN" if node.negated else "BETWEEN"
            for part in (node.operand, node.low, node.high):
                self.require(part, NUMERIC, f"for {word}")
            return BOOLEAN
        if isinstance(node, InList):
            self.require(node.operand, STRING, "for NOT IN" if node.negated else "for IN")
            return BOOLEAN
        if isinstance(node, Like):
            self.require(node.operand, STRING, "for NOT LIKE" if node.negated else "for LIKE")
            return BOOLEAN
        if isinstance(node, IsNull):
            self.type_of(node.operand)
            return BOOLEAN
        if isinstance(node, Not):
            self.require(node.operand, BOOLEAN, "for NOT")
            return BOOLEAN
        # And / Or: walk the chain iteratively so long OR lists do not hit the recursion limit.
        assert isinstance(node, And | Or)
        word = "AND" if isinstance(node, And) else "OR"
        for operand in flatten(node):
            self.require(operand, BOOLEAN, f"for {word}")
        return BOOLEAN


def flatten(node: And | Or) -> list[Node]:
    """The operands of a chain of the same logical operator, left to right."""
    kind = type(node)
    out: list[Node] = []
    stack: list[Node] = [node]
    while stack:
        current = stack.pop()
        if type(current) is kind:
            assert isinstance(current, And | Or)
            stack.append(current.right)
            stack.append(current.left)
        else:
            out.append(current)
    return out
