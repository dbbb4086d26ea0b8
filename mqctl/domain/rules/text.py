"""Attribute values as the products store them: lengths, enumerations, and text a file can hold.

MQ keeps fixed-length character attributes (DESCR is 64 characters); every MQSC value is written on
one line, so control characters cannot round-trip through a dump. EMS configuration files are line
based (``topics.conf``, ``routes.conf``, ``durables.conf``): a value holding a line break, or a name
holding a blank or starting a comment, would change the structure of the file it is written to.
"""

from __future__ import annotations

import re
from enum import StrEnum
from typing import TypeVar

from mqctl.domain.errors import InputError

E = TypeVar("E", bound=StrEnum)

DESCR_MAX = 64
"""MQ DESCR: 64 characters on every object type."""
TOPICSTR_MAX = 10240
"""MQ TOPICSTR, subscription patterns, and EMS topic names and patterns alike."""
SELECTOR_MAX = 10240
"""MQ SELECTOR length; route selectors are held to the same bound."""
CONNAME_MAX = 264
NAMES_MAX = 256
"""Entries of an MQ namelist."""

_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_EMS_NAME_BAD = re.compile(r"[\s\x00-\x1f\x7f\[\]\",=']")


def parse_enum(enum: type[E], value: str, obj: str, attribute: str) -> E:
    """Case-insensitive enum value, with the allowed values in the error."""
    wanted = value.strip().upper()
    for member in enum:
        if member.value.upper() == wanted:
            return member
    allowed = "|".join(m.value for m in enum)
    raise InputError(f"{value!r} is not one of {allowed}", obj=obj, attribute=attribute)


def check_no_control(value: str, obj: str, attribute: str) -> None:
    """No line break, tab or other control character: one MQSC or EMS line must hold the value."""
    found = _CONTROL.search(value)
    if found is not None:
        raise InputError(
            f"holds the control character {found.group()!r} at column {found.start() + 1}; "
            "it cannot be written to a configuration file",
            obj=obj,
            attribute=attribute,
        )


def check_length(value: str, limit: int, obj: str, attribute: str) -> None:
    if len(value) > limit:
        raise InputError(f"is {len(value)} characters long; at most {limit}", obj=obj, attribute=attribute)


def check_descr(descr: str, obj: str) -> None:
    """MQ DESCR: at most 64 characters, on one line."""
    check_length(descr, DESCR_MAX, obj, "DESCR")
    check_no_control(descr, obj, "DESCR")


def check_mq_text(value: str, limit: int, obj: str, attribute: str) -> None:
    check_length(value, limit, obj, attribute)
    check_no_control(value, obj, attribute)


def check_range(value: int, low: int, high: int, obj: str, attribute: str) -> None:
    if not low <= value <= high:
        raise InputError(f"{value} is not in {low}-{high}", obj=obj, attribute=attribute)


def check_ems_token(value: str, obj: str, attribute: str) -> None:
    """An EMS configuration token (a name, a zone name, a property key): non-empty, no blank, no quote,
    comma, equals sign or bracket, no control character, and not starting a ``#`` comment."""
    if not value:
        raise InputError("is empty", obj=obj, attribute=attribute)
    found = _EMS_NAME_BAD.search(value)
    if found is not None:
        raise InputError(
            f"{found.group()!r} (column {found.start() + 1}) is not allowed in an EMS {attribute}",
            obj=obj,
            attribute=attribute,
        )
    if value.startswith("#"):
        raise InputError("must not start with '#' (a comment in EMS files)", obj=obj, attribute=attribute)


def check_ems_value(value: str, obj: str, attribute: str, *, quoted: bool = False) -> None:
    """An EMS property value: one line; a double-quoted value (selectors) cannot hold a ``"`` itself."""
    check_no_control(value, obj, attribute)
    if quoted and '"' in value:
        raise InputError(
            "cannot hold a double quote: EMS files write it between double quotes",
            obj=obj,
            attribute=attribute,
        )
    if value != value.strip():
        raise InputError("must not start or end with a blank", obj=obj, attribute=attribute)
