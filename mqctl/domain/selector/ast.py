"""Selector syntax tree: built once by the parser, type-checked, then compiled to closures and dropped.

Every node keeps its 0-based `start`/`end` offsets so that errors can quote the source and its column.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Literal:
    """A constant; `type` is a JMS type (string, boolean, int, long, float, double)."""

    type: str
    value: str | bool | int | float
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Ident:
    """A header field (when named in HEADER_TYPES) or a message property."""

    name: str
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Unary:
    """Unary '+' or '-'."""

    op: str
    operand: Node
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Arith:
    """'+', '-', '*' or '/'."""

    op: str
    left: Node
    right: Node
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Compare:
    """'=', '<>', '<', '<=', '>' or '>='."""

    op: str
    left: Node
    right: Node
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Between:
    negated: bool
    operand: Node
    low: Node
    high: Node
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class InList:
    negated: bool
    operand: Node
    values: tuple[str, ...]
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Like:
    """`pattern` and `escape` are already unquoted; the escape sequences were validated by the parser."""

    negated: bool
    operand: Node
    pattern: str
    escape: str | None
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class IsNull:
    negated: bool
    operand: Node
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Not:
    operand: Node
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class And:
    left: Node
    right: Node
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Or:
    left: Node
    right: Node
    start: int
    end: int


Node = Literal | Ident | Unary | Arith | Compare | Between | InList | Like | IsNull | Not | And | Or
