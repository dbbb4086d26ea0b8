"""Attribute values as the products store them: lengths, enumerations, and text a file can hold.

MQ keeps fixed-length character attributes (DESCR is 64 characters). What a value may hold so that the
MQSC and EMS files it is exported to keep their shape is ``file_values``'s to say; these helpers put the
object and attribute into its errors.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from typing import TypeVar

from mqctl.domain import file_values
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


def parse_enum(enum: type[E], value: str, obj: str, attribute: str) -> E:
    """Case-insensitive enum value, with the allowed values in the error."""
    wanted = value.strip().upper()
    for member in enum:
        if member.value.upper() == wanted:
            return member
    allowed = "|".join(m.value for m in enum)
    raise InputError(f"{value!r} is not one of {allowed}", obj=obj, attribute=attribute)


def _placed(check: Callable[[str, str], None], value: str, obj: str, attribute: str) -> None:
    """Run a ``file_values`` predicate with the object and attribute mqctl names in its errors."""
    try:
        check(value, obj)
    except InputError as err:
        raise InputError(err.message, obj=obj, attribute=attribute) from None


def check_no_control(value: str, obj: str, attribute: str) -> None:
    """No line break: one MQSC line must hold the value (``file_values.check_mqsc_text``)."""
    _placed(file_values.check_mqsc_text, value, obj, attribute)


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
    """A word on an EMS configuration line (a name, a zone name, a property key)."""
    _placed(file_values.check_ems_name, value, obj, attribute)


def check_ems_value(value: str, obj: str, attribute: str) -> None:
    """A value on an EMS configuration line (a property value, a URL, a selector)."""
    _placed(file_values.check_ems_value, value, obj, attribute)
