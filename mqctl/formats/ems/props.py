"""EMS property lists (``global,maxbytes=64MB``; ``url=... selector="..."``) split into items with columns.

Items are separated by commas or blanks outside double quotes (blanks around ``=`` are allowed); a
value in double quotes keeps its blanks, commas and single quotes (selectors). ``selector "..."`` (a
blank instead of ``=``, as one TIBCO example writes it) is read as ``selector="..."``. Columns are
1-based positions in the line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from mqctl.domain.errors import InputError

_SIZE = re.compile(r"\d+\s*(?:[KMG]B?)?", re.IGNORECASE)

TOPIC_PROPERTIES = frozenset(
    p.lower()
    for p in (
        "global",
        "maxbytes",
        "maxmsgs",
        "overflowPolicy",
        "secure",
        "sender_name",
        "sender_name_enforced",
        "flowControl",
        "trace",
        "import",
        "export",
        "channel",
        "expiration",
        "prefetch",
        "store",
        "exclusive",
        "failsafe",
        "tibrv_import",
        "tibrvcm_import",
        "tibrv_export",
        "tibrvcm_export",
    )
)
"""The destination properties TIBCO EMS documents for topics (lower case: EMS reads them so). Any other
name is kept as given, and reported, since a misspelt ``global`` silently stops routing."""


@dataclass(frozen=True, slots=True)
class Prop:
    key: str
    value: str | None
    """None for a flag (``global``)."""
    column: int
    value_column: int
    """Column of the value's first character (inside the quotes when quoted)."""


def split_props(text: str, *, column: int, line: int, file: str | None) -> list[Prop]:
    """Items of ``text``, which starts at ``column`` of ``line``."""
    props: list[Prop] = []
    i, n = 0, len(text)
    while i < n:
        if text[i] in " \t,":
            i += 1
            continue
        start = i
        while i < n and text[i] not in ' \t,="':
            i += 1
        key = text[start:i]
        if i < n and text[i] == '"':
            raise InputError(
                f'unexpected \'"\' after {key!r}; expected {key}="..."',
                file=file,
                line=line,
                column=column + i,
            )
        if not key:
            raise InputError(
                "expected a property name before '='", file=file, line=line, column=column + start
            )
        j = i
        while j < n and text[j] in " \t":
            j += 1
        if j < n and text[j] == "=":
            i = j + 1
            while i < n and text[i] in " \t":
                i += 1
            value, vcol, i = _value(text, i, column=column, line=line, file=file, key=key)
            props.append(Prop(key, value, column + start, vcol))
            continue
        if key == "selector" and j < n and text[j] == '"':
            value, vcol, i = _value(text, j, column=column, line=line, file=file, key=key)
            props.append(Prop(key, value, column + start, vcol))
            continue
        props.append(Prop(key, None, column + start, column + start))
    return props


def _value(text: str, i: int, *, column: int, line: int, file: str | None, key: str) -> tuple[str, int, int]:
    n = len(text)
    if i < n and text[i] == '"':
        end = text.find('"', i + 1)
        if end < 0:
            raise InputError(
                f"{key}: the '\"' here has no closing quote; expected a closing '\"'",
                file=file,
                line=line,
                column=column + i,
            )
        return text[i + 1 : end], column + i + 1, end + 1
    start = i
    while i < n and text[i] not in " \t,":
        i += 1
    if i == start:
        raise InputError(f"{key}= needs a value", file=file, line=line, column=column + start - 1)
    return text[start:i], column + start, i


def check_topic_props(props: list[Prop], *, line: int, file: str | None) -> dict[str, str | None]:
    """Topic properties in their order; a repeated one or a malformed size is an error."""
    out: dict[str, str | None] = {}
    for prop in props:
        if prop.key in out:
            raise InputError(f"property {prop.key} is repeated", file=file, line=line, column=prop.column)
        if prop.key in ("maxbytes", "maxmsgs") and (prop.value is None or not _SIZE.fullmatch(prop.value)):
            raise InputError(
                f"{prop.key} needs a size such as {prop.key}=64MB"
                + (f", found {prop.value!r}" if prop.value is not None else ""),
                file=file,
                line=line,
                column=prop.value_column,
            )
        out[prop.key] = prop.value
    return out


def format_props(props: dict[str, str | None], *, separator: str = ",") -> str:
    """The ``topics.conf`` / ``durables.conf`` / tibemsadmin text of a property dict: flags bare, values
    in double quotes when they are empty or hold a blank or comma (``split_props`` reads them back)."""
    items = []
    for key, value in props.items():
        if value is None:
            items.append(key)
        elif value == "" or any(c in value for c in ' \t,"'):
            items.append(f'{key}="{value}"')
        else:
            items.append(f"{key}={value}")
    return separator.join(items)
