"""What the configuration files mqctl writes can hold, so that no value can change an exported file's shape.

MQSC and the EMS files are line formats: a value holding a line break would start a new command or a
new object when the export is read back (a route URL ``tcp://x\\n[EVIL]`` became a second route), and the
EMS files have no escape for a double quote or a blank in a name. These predicates say what each format
can represent; the writers refuse anything else, and the rule modules call them when a value is
defined, so such values are refused at every door instead of at export time.

Public API (each raises ``InputError`` naming ``what``, or returns None)::

    check_mqsc_text(value, what)   # any MQSC quoted string
    check_ems_value(value, what)   # a property value, URL, zone name or selector in an EMS file
    check_ems_name(name, what)     # a topic, durable or route name, or a property key, in an EMS file
"""

from __future__ import annotations

from mqctl.domain.errors import InputError, clip

__all__ = ["LINE_BREAKS", "check_ems_name", "check_ems_value", "check_mqsc_text"]

LINE_BREAKS = frozenset("\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029")
"""Every character ``str.splitlines`` ends a line at (the readers split with it)."""

_NAME_FORBIDDEN = frozenset(' ,="[]')


def _fail(what: str, value: str, why: str) -> InputError:
    return InputError(f"{clip(value)!r} cannot be written in a configuration file: {why}", obj=what)


def check_mqsc_text(value: str, what: str) -> None:
    """MQSC quotes any text (quotes doubled) except a line break: a quoted string ends with its line."""
    if LINE_BREAKS.isdisjoint(value):  # the common case, without a Python loop over the characters
        return
    bad = next((c for c in value if c in LINE_BREAKS), None)
    if bad is not None:
        raise _fail(what, value, f"it holds the line break {bad!r}")


def _control(value: str) -> str | None:
    return next((c for c in value if c in LINE_BREAKS or (ord(c) < 32 and c != "\t") or c == "\x7f"), None)


def check_ems_value(value: str, what: str) -> None:
    """A value on an EMS configuration line: no control character (a line break would begin another
    line), no double quote (the files have no escape for it), no blank at either end (readers strip)."""
    bad = _control(value)
    if bad is not None:
        raise _fail(what, value, f"it holds the control character {bad!r}")
    if '"' in value:
        raise _fail(what, value, "EMS files have no escape for a double quote")
    if value != value.strip():
        raise _fail(what, value, "EMS files drop blanks at the start and end of a value")


def check_ems_name(name: str, what: str) -> None:
    """A name standing as one word on an EMS line: a value (above) that is not empty, holds no blank,
    comma, '=', '"', '[' or ']', and does not begin with '#' (a comment line)."""
    if not name:
        raise InputError("the name is empty", obj=what)
    check_ems_value(name, what)
    bad = next((c for c in name if c in _NAME_FORBIDDEN or c.isspace()), None)
    if bad is not None:
        raise _fail(what, name, f"a name in an EMS file cannot hold {bad!r}")
    if name.startswith("#"):
        raise _fail(what, name, "a name beginning with '#' would be read as a comment")
