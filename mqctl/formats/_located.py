"""Attach a file position to an error raised by a domain check that knows nothing of files."""

from __future__ import annotations

from mqctl.domain.errors import InputError


def locate(
    error: InputError, *, file: str | None, line: int | None, column: int | None, obj: str | None = None
) -> InputError:
    """Fill the location (and object) of ``error`` where the raiser left it blank; returns the same error.

    Domain checks (names, topics, selectors) raise without a file position; the format reader knows it.
    """
    if error.file is None:
        error.file = file
    if error.line is None:
        error.line = line
        error.column = column
    if error.obj is None and obj is not None:
        error.obj = obj
    return error
