"""The one output sanitiser: text from the input, shown to people or written for tools, never acts.

Values come from untrusted files (a pull request's MQSC, a capture from a machine in trouble). Printed
raw, a value can move a terminal's cursor, retitle its window, hide text (CSI, OSC, C1 controls),
reorder a line (bidirectional overrides), start a line a log reader takes as new (U+2028), restyle a
Rich table (``[bold]``) or stop it (``[/]``). Every renderer and error line passes what came from the
input through here:

- ``safe``: each control character (C0 but the line break when asked, DEL, C1), bidirectional
  control, line or paragraph separator and lone surrogate shown as its escape (``\\x1b``, ``\\u2028``);
  backslashes are left alone, so ``safe(safe(t)) == safe(t)``;
- ``shorten``: a run of more than ``limit`` characters without a space (a name) cut, with its length
  given: ``NAME… (200001 characters)``;
- ``markup``: text for Rich markup (``safe`` and Rich's own ``escape``); ``text``: a Rich ``Text``,
  which Rich never reads as markup;
- ``json_text``: a JSON document with what a terminal would act on written as ``\\uXXXX`` escapes
  (the same JSON value; ``json.dumps`` escapes only C0 controls);
- ``error_line``: one line for stderr, safe and with long runs cut.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.text import Text

__all__ = ["error_line", "json_text", "markup", "safe", "shorten", "text"]

_ACTIVE = "\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ud800-\udfff"
"""What acts on a terminal or a reader beyond C0: DEL, C1, the bidirectional marks, embeddings,
overrides and isolates, the line and paragraph separators, and lone surrogates (bytes that were not
UTF-8)."""

_UNSAFE = re.compile(f"[\x00-\x1f{_ACTIVE}]")
_UNSAFE_KEEP_LINES = re.compile(f"[\x00-\x09\x0b-\x1f{_ACTIVE}]")
_UNSAFE_IN_JSON = re.compile(f"[{_ACTIVE}]")

NAME_LIMIT = 200
"""The longest run without a space shown whole (MQ's longest names are 48 characters, a topic string
up to 10,240 but never so in a line for people)."""


def _escape(found: re.Match[str]) -> str:
    code = ord(found.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def safe(value: str, *, lines: bool = False) -> str:
    """``value`` with what would act escaped; ``lines``: line breaks (``\\n``) kept."""
    pattern = _UNSAFE_KEEP_LINES if lines else _UNSAFE
    if value.isascii() and value.isprintable():
        return value
    return pattern.sub(_escape, value)


def shorten(value: str, limit: int = NAME_LIMIT) -> str:
    """Each run of more than ``limit`` characters without white space cut to ``limit``, its length given."""
    if len(value) <= limit:
        return value
    return re.sub(rf"\S{{{limit + 1},}}", lambda m: _cut(m.group(), limit), value)


def _cut(run: str, limit: int) -> str:
    """A long run cut; the punctuation that ends it in a sentence (``NAME:``) kept and not counted."""
    end = run[-1] if run[-1] in ":,;." else ""
    name = run[: len(run) - len(end)]
    return f"{name[:limit]}… ({len(name)} characters){end}"


def markup(value: str, *, limit: int | None = NAME_LIMIT) -> str:
    """``value`` for a Rich markup string: escaped, cut, and its brackets never read as markup."""
    from rich.markup import escape

    shown = safe(value)
    return escape(shorten(shown, limit) if limit is not None else shown)


def text(value: str, *, limit: int | None = None) -> Text:
    """``value`` as a Rich ``Text`` (a table cell): escaped, optionally cut, never read as markup."""
    from rich.text import Text

    shown = safe(value)
    return Text(shorten(shown, limit) if limit is not None else shown)


def json_text(document: str) -> str:
    """A JSON document's text with DEL, C1, bidirectional controls, separators and lone surrogates as
    ``\\uXXXX`` escapes: the same value, nothing a terminal or an editor acts on."""
    if document.isascii() and "\x7f" not in document:
        return document
    return _UNSAFE_IN_JSON.sub(lambda m: f"\\u{ord(m.group()):04x}", document)


def error_line(line: str) -> str:
    """One line of stderr: every control escaped (a line break too), long names cut."""
    return shorten(safe(line))
