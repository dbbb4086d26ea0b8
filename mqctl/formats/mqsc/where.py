"""runmqsc's ``WHERE(keyword operator value)`` filter of a DISPLAY, on the attributes as DISPLAY shows them.

Pure: a condition is checked against the kind of its attribute, then applied to an object's
``(KEYWORD, value)`` pairs. IBM's rules (MQSC reference, DISPLAY TOPIC / SUB / NAMELIST / CHANNEL,
"WHERE"): an explicit value is compared with ``LT GT EQ NE LE GE``; for an attribute that takes one of a
set of values (an enumeration, YES/NO) only ``EQ NE``; a generic value (ending in ``*``) with ``LK``
(begins with) or ``NL`` (does not begin with), never on a number or a set value; an item of a list (a
namelist's NAMES) with ``CT`` (contains) or ``EX`` (excludes), a generic item with ``CTG`` / ``EXG``.
An object that does not show the attribute is not displayed. A condition mqctl cannot apply is refused
(``WhereError``), never ignored.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import NamedTuple, TypeVar

T = TypeVar("T", int, str)


class Kind(StrEnum):
    """What an attribute's value is, which decides the operators it takes."""

    TEXT = "text"
    NUMBER = "number"
    CHOICE = "choice"
    LIST = "list"


class AttrKind(NamedTuple):
    kind: Kind
    choices: tuple[str, ...] = ()
    """The values of a CHOICE attribute (empty: not checked)."""


OPERATORS = ("EQ", "NE", "LT", "GT", "LE", "GE", "LK", "NL", "CT", "EX", "CTG", "EXG")
_COMPARE = ("EQ", "NE", "LT", "GT", "LE", "GE")
_ALLOWED: dict[Kind, tuple[str, ...]] = {
    Kind.TEXT: (*_COMPARE, "LK", "NL"),
    Kind.NUMBER: _COMPARE,
    Kind.CHOICE: ("EQ", "NE"),
    Kind.LIST: ("CT", "EX", "CTG", "EXG"),
}


class WhereError(Exception):
    """A condition refused: ``part`` is 0 for the keyword, 1 the operator, 2 the value (for the position);
    ``unmodelled`` when the keyword is one runmqsc knows but mqctl does not model."""

    def __init__(self, message: str, part: int, *, unmodelled: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.part = part
        self.unmodelled = unmodelled


@dataclass(frozen=True, slots=True)
class Condition:
    keyword: str
    operator: str
    value: str
    kind: Kind

    @property
    def generic(self) -> bool:
        return self.value.endswith("*")

    def holds(self, pairs: list[tuple[str, str]]) -> bool:
        """Whether an object with these ``(KEYWORD, value)`` pairs satisfies the condition; an object that
        does not show the keyword does not."""
        for key, shown in pairs:
            if key == self.keyword:
                return _holds(self, shown)
        return False


def condition(
    parts: list[str], kinds: dict[str, AttrKind], *, unmodelled: frozenset[str] = frozenset()
) -> Condition:
    """The condition of ``WHERE(parts...)`` for an object whose filterable attributes are ``kinds``;
    ``unmodelled``: keywords runmqsc would filter on that mqctl does not model (refused as such)."""
    if len(parts) != 3:
        raise WhereError(
            f"WHERE takes three parts (keyword operator value), found {len(parts)}", min(len(parts), 2)
        )
    keyword, operator, value = parts[0].upper(), parts[1].upper(), parts[2]
    found = kinds.get(keyword)
    if found is None:
        if keyword in unmodelled:
            raise WhereError(
                f"cannot filter on {keyword}: mqctl does not model it (the filter is refused, not ignored)",
                0,
                unmodelled=True,
            )
        raise WhereError(
            f"{keyword} is not an attribute this DISPLAY can filter on; expected one of "
            f"{', '.join(sorted(kinds))}",
            0,
        )
    if operator not in OPERATORS:
        raise WhereError(f"unknown operator {operator}; expected one of {' '.join(OPERATORS)}", 1)
    allowed = _ALLOWED[found.kind]
    if operator not in allowed:
        raise WhereError(
            f"operator {operator} does not apply to {keyword} ({_what(found.kind)}); use {' '.join(allowed)}",
            1,
        )
    generic = value.endswith("*")
    if operator in ("CTG", "EXG") and not generic:
        raise WhereError(f"{operator} takes a generic value ending in '*', such as ABC*", 2)
    if generic and operator not in ("LK", "NL", "CTG", "EXG"):
        raise WhereError(
            f"a generic value ({value}) takes LK or NL ({'CTG or EXG' if found.kind is Kind.LIST else 'begins with'})",
            2,
        )
    if "*" in value[:-1]:
        raise WhereError("'*' may only end a generic value", 2)
    if found.kind is Kind.NUMBER and not _is_number(value):
        raise WhereError(f"{keyword} is a number; {value!r} is not", 2)
    if found.kind is Kind.CHOICE:
        value = value.upper()
        if found.choices and value not in found.choices:
            raise WhereError(
                f"{value} is not a value of {keyword}; expected one of {', '.join(found.choices)}", 2
            )
    return Condition(keyword, operator, value, found.kind)


def _what(kind: Kind) -> str:
    return {
        Kind.TEXT: "a text",
        Kind.NUMBER: "a number",
        Kind.CHOICE: "one of a set of values",
        Kind.LIST: "a list",
    }[kind]


def _is_number(text: str) -> bool:
    body = text[1:] if text[:1] in "+-" else text
    return body.isdigit()


def _holds(cond: Condition, shown: str) -> bool:
    op, value = cond.operator, cond.value
    if cond.kind is Kind.LIST:
        items = [item.strip() for item in shown.split(",") if item.strip()]
        found = value in items if op in ("CT", "EX") else any(item.startswith(value[:-1]) for item in items)
        return found if op in ("CT", "CTG") else not found
    if op in ("LK", "NL"):
        hit = shown.startswith(value[:-1]) if cond.generic else shown == value
        return hit if op == "LK" else not hit
    if cond.kind is Kind.NUMBER:
        return _is_number(shown) and _compare(op, int(shown), int(value))
    if cond.kind is Kind.CHOICE:
        return _compare(op, shown.upper(), value)
    return _compare(op, shown.rstrip(" "), value.rstrip(" "))  # MQ strings are blank-padded


def _compare(op: str, left: T, right: T) -> bool:
    if op == "EQ":
        return left == right
    if op == "NE":
        return left != right
    if op == "LT":
        return left < right
    if op == "GT":
        return left > right
    if op == "LE":
        return left <= right
    return left >= right
