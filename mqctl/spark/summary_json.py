"""``summary.json`` as text: indented like every ``-o json`` of mqctl, but each record of a list (a link,
a gained or lost subscription) on one line. A large estate's summary lists hundreds of thousands of
links: Python's indenting encoder is pure Python and takes seconds on them, and six lines per link
helps nobody reading the file."""

from __future__ import annotations

import json
from typing import Any

__all__ = ["summary_text"]

_encode = json.JSONEncoder(ensure_ascii=False).encode
"""One encoder for every call (``json.dumps`` with any option builds a new one each time)."""


def _scalar(value: Any) -> bool:
    return value is None or isinstance(value, str | int | float | bool)


def _record(value: Any) -> bool:
    return isinstance(value, dict) and all(_scalar(v) for v in value.values())


def _one_per_line(items: list[Any], pad: str) -> str:
    """The items, each encoded on one line, joined by ``,`` and ``pad``. Records are encoded as one list
    by one call of the C encoder (half the time of a call per record), then split where a record ends:
    ``}, {`` stands between every two of them, so when it occurs no more often (no text holds it) each
    occurrence is a boundary."""
    if all(isinstance(item, dict) for item in items):
        text = _encode(items)[1:-1]
        if text.count(_BETWEEN_RECORDS) == len(items) - 1:
            return text.replace(_BETWEEN_RECORDS, "}," + pad + "{")
    return ("," + pad).join(map(_encode, items))


_BETWEEN_RECORDS = "}, {"
"""What the encoder writes between two records of a list."""


def _write(value: Any, depth: int, parts: list[str]) -> None:
    pad = "\n" + "  " * (depth + 1)
    if isinstance(value, dict) and value:
        parts.append("{")
        for i, (key, item) in enumerate(value.items()):
            parts.append(("," if i else "") + pad + _encode(key) + ": ")
            _write(item, depth + 1, parts)
        parts.append("\n" + "  " * depth + "}")
    elif isinstance(value, list) and value:
        parts.append("[")
        if _record(value[0]) or _scalar(value[0]):  # the summary's lists hold items of one kind
            parts.append(pad + _one_per_line(value, pad))
        else:
            for i, item in enumerate(value):
                parts.append(("," if i else "") + pad)
                _write(item, depth + 1, parts)
        parts.append("\n" + "  " * depth + "]")
    else:
        parts.append(_encode(value))


def summary_text(summary: dict[str, Any]) -> str:
    """The summary as JSON text ending with a newline."""
    parts: list[str] = []
    _write(summary, 0, parts)
    return "".join(parts) + "\n"
