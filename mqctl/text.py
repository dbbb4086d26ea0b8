"""Text from the input made safe to show: the pure half of the output sanitiser (no Rich), so that every
layer that writes what came from the input (formats' JUnit XML, render's tables, the CLI's error lines)
escapes it alike without importing a layer above it.

Values come from untrusted files (a pull request's MQSC, a capture from a machine in trouble). Printed
raw, a value can move a terminal's cursor, retitle its window, hide text (CSI, OSC, C1 controls),
reorder a line (bidirectional overrides), or start a line a log reader takes as new (U+2028):

- ``safe``: each control character (C0 but the line break when asked, DEL, C1), bidirectional
  control, line or paragraph separator and lone surrogate shown as its escape (``\\x1b``, ``\\u2028``);
  backslashes are left alone, so ``safe(safe(t)) == safe(t)``;
- ``shorten``: a run of more than ``limit`` characters without a space (a name) cut, with its length
  given: ``NAME… (200001 characters)``;
- ``json_text``: a JSON document with what a terminal would act on written as ``\\uXXXX`` escapes
  (the same JSON value; ``json.dumps`` escapes only C0 controls);
- ``error_line``: one line for stderr, safe and with long runs cut.

Rich's half (markup, table cells) is ``mqctl.render.safe_text``.
"""

from __future__ import annotations

import re

__all__ = ["ACTIVE", "NAME_LIMIT", "error_line", "escape_char", "json_text", "safe", "shorten"]

ACTIVE = "\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ud800-\udfff"
"""What acts on a terminal or a reader beyond C0: DEL, C1, the bidirectional marks, embeddings,
overrides and isolates, the line and paragraph separators, and lone surrogates (bytes that were not
UTF-8)."""

_UNSAFE = re.compile(f"[\x00-\x1f{ACTIVE}]")
_UNSAFE_KEEP_LINES = re.compile(f"[\x00-\x09\x0b-\x1f{ACTIVE}]")
_UNSAFE_IN_JSON = re.compile(f"[{ACTIVE}]")

NAME_LIMIT = 200
"""The longest run without a space shown whole (MQ's longest names are 48 characters, a topic string
up to 10,240 but never so in a line for people)."""


def escape_char(char: str) -> str:
    """One character as its escape: ``\\x1b`` below U+0100, ``\\u2028`` above (the one spelling, also of
    ``domain.errors.escaped``)."""
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def _escape(found: re.Match[str]) -> str:
    return escape_char(found.group())


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


def json_text(document: str) -> str:
    """A JSON document's text with DEL, C1, bidirectional controls, separators and lone surrogates as
    ``\\uXXXX`` escapes: the same value, nothing a terminal or an editor acts on."""
    if document.isascii() and "\x7f" not in document:
        return document
    return _UNSAFE_IN_JSON.sub(lambda m: f"\\u{ord(m.group()):04x}", document)


def error_line(line: str) -> str:
    """One line of stderr: every control escaped (a line break too), long names cut."""
    return shorten(safe(line))
