"""The domain checks the readers use, placed at a file position: topic strings, patterns, selectors.

Each domain check reports a 1-based position inside the checked text; ``at`` turns such an offset into
the file's (line, column), so every error names the exact character in the file.
"""

from __future__ import annotations

from collections.abc import Callable

from mqctl.domain.errors import InputError
from mqctl.domain.model import Dialect
from mqctl.domain.selector import SelectorError, check_selector
from mqctl.domain.topics import TopicSyntaxError, validate_pattern, validate_topic

Locator = Callable[[int], tuple[int, int]]
"""Maps a 0-based index inside the checked text to a file (line, column)."""


def _place(err: InputError, where: tuple[int, int], file: str | None) -> InputError:
    err.file, err.line, err.column = file, where[0], where[1]
    return err


def check_topic(topic: str, dialect: Dialect, at: Locator, *, file: str | None, pattern: bool) -> None:
    """Validate a topic string (``pattern`` False) or a subscription/definition pattern."""
    try:
        if pattern:
            validate_pattern(topic, dialect)
        else:
            validate_topic(topic, dialect)
    except TopicSyntaxError as err:
        raise _place(err, at(max(err.position, 1) - 1), file) from None
    except InputError as err:
        raise _place(err, at(0), file) from None


def check_selector_at(text: str, at: Locator, *, file: str | None) -> None:
    """Parse and type-check a JMS selector; the error column is the selector's column in the file."""
    try:
        check_selector(text)
    except SelectorError as err:
        raise _place(err, at(max(err.column or 1, 1) - 1), file) from None
    except InputError as err:
        raise _place(err, at(0), file) from None


def on_line(line: int, column: int) -> Locator:
    """Locator for text that stands on one line from ``column`` on, without escapes."""
    return lambda index: (line, column + index)
