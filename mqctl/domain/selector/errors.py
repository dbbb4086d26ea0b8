"""The one error a selector raises: where (1-based column) and what the parser or type check expected."""

from __future__ import annotations

from mqctl.domain.errors import InputError, clip

__all__ = ["SelectorError", "clip", "selector_error"]


class SelectorError(InputError):
    """A selector that does not parse or mixes literal types; rejected when created, as the TCK requires."""

    def __init__(
        self,
        message: str,
        *,
        column: int | None = None,
        expected: str = "",
        obj: str | None = None,
        attribute: str | None = "selector",
        file: str | None = None,
        line: int | None = None,
    ) -> None:
        super().__init__(message, obj=obj, attribute=attribute, file=file, line=line, column=column)
        self.expected = expected


def selector_error(expected: str, column: int, found: str) -> SelectorError:
    """The uniform message: "expected X at column N, found Y"."""
    message = f"expected {expected} at column {column}, found {found}"
    return SelectorError(message, column=column, expected=expected)
