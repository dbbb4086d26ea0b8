"""Strings that are not text: lone surrogates, refused wherever a value enters the model.

Python turns the bytes of a command-line argument that are not UTF-8 into lone surrogates (byte 0xFF
becomes U+DCFF, PEP 383's ``surrogateescape``), and a JSON ``\\ud800`` escape gives any lone surrogate.
Such a string cannot be encoded as UTF-8: a store, an exported file or a report would fail on it later.
The rule is refused here, once: the rules of each object kind (``mqctl.domain.objects``) call
``check_definition_text`` before anything else, so every door (define/alter, MQSC, EMS files,
tibemsadmin, snapshots, ``validate --file``) refuses it with the object and attribute named; names,
topic strings and message properties given outside a definition call ``check_text``.

Public API::

    not_text(value) -> tuple[int, str] | None     # (0-based index, why) of the first lone surrogate
    check_text(value, *, obj, attribute, what)    # InputError naming the value, the byte and where
    check_definition_text(definition, obj)        # every text a model object holds
    escaped(text) -> str                          # lone surrogates as \\udcff (``errors.escaped``)
"""

from __future__ import annotations

import dataclasses
import operator
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from mqctl.domain.errors import InputError, clip, escaped

__all__ = ["check_definition_text", "check_text", "escaped", "not_text"]


def not_text(value: str) -> tuple[int, str] | None:
    """Where the first lone surrogate of ``value`` stands (0-based) and what it is, or None for text."""
    if value.isascii():  # constant time: the flag of a compact ASCII string
        return None
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as err:  # only a lone surrogate cannot be encoded as UTF-8
        code = ord(value[err.start])
        if 0xDC80 <= code <= 0xDCFF:
            return err.start, f"byte 0x{code - 0xDC00:02X} cannot be decoded as UTF-8"
        return err.start, f"U+{code:04X} is a lone surrogate, not a character"
    return None


def check_text(
    value: str, *, obj: str | None = None, attribute: str | None = None, what: str | None = None
) -> None:
    """``InputError`` when ``value`` holds a lone surrogate: ``'a/\\udcff' is not valid text: byte 0xFF
    cannot be decoded as UTF-8 (character 3)``. ``what`` names the value instead of quoting it (``the
    name``, when the object's label shows it already)."""
    found = not_text(value)
    if found is not None:
        index, why = found
        named = repr(clip(value)) if what is None else what
        raise InputError(
            f"{named} is not valid text: {why} (character {index + 1})", obj=obj, attribute=attribute
        )


_NAMES = frozenset({"name", "node", "peer"})
"""Fields that name the object (or its node): the object's label already shows them."""
_LOWER_CASE = frozenset({"Route", "RouteSelector"})
"""EMS route attributes are spelled as routes.conf spells them (``url``, ``zone_name``)."""
_SKIPPED = frozenset({"source_file", "source_line", "seq"})
"""Where a definition came from is not a value of it (a door records the file name ``escaped``)."""


@dataclass(frozen=True, slots=True)
class _Fields:
    """The text fields of one model class: ``strings`` reads those annotated ``str`` at once, ``others``
    names the rest (``str | None``, tuples, dicts); ``attribute`` spells each field as errors do."""

    strings: Callable[[Any], tuple[str, ...]]
    others: tuple[str, ...]
    attribute: dict[str, str]


_FIELDS: dict[type, _Fields] = {}


def _fields_of(cls: type) -> _Fields:
    fields = _FIELDS.get(cls)
    if fields is None:
        lower = cls.__name__ in _LOWER_CASE
        texts = [
            f
            for f in dataclasses.fields(cls)
            if f.name not in _SKIPPED and any(t in str(f.type) for t in ("str", "tuple", "dict"))
        ]
        plain = [f.name for f in texts if str(f.type) == "str"]
        # two names at least, so that attrgetter always gives a tuple
        getter = operator.attrgetter(*plain, *plain[:1]) if plain else (lambda _: ())
        fields = _Fields(
            getter,
            tuple(f.name for f in texts if str(f.type) != "str"),
            {f.name: f.name if lower or f.name in _NAMES else f.name.upper() for f in texts},
        )
        _FIELDS[cls] = fields
    return fields


def check_definition_text(definition: Any, obj: str) -> None:
    """Every text of a model object (``Node``, ``TopicObject``, ``Subscription``...): its string fields,
    the entries of a tuple (namelist NAMES), the keys and values of ``properties``. ``obj`` labels it.

    About a microsecond for an object whose text is ASCII: its ``str`` fields are joined and tested at
    once, in C (``str.isascii`` reads a flag); only text that is not ASCII is looked at field by field."""
    fields = _FIELDS.get(type(definition)) or _fields_of(type(definition))
    try:
        ascii_only = "".join(fields.strings(definition)).isascii()
    except TypeError:  # a field that should hold a str holds something else: look at each
        ascii_only = False
    names = fields.others if ascii_only else fields.attribute
    for field in names:
        value = getattr(definition, field)
        if not value:
            continue
        attribute = fields.attribute[field]
        if isinstance(value, str):
            if not value.isascii():
                _check_field(value, obj, attribute)
        elif isinstance(value, tuple):
            for item in value:
                if isinstance(item, str) and not item.isascii():
                    _check_field(item, obj, attribute)
        elif isinstance(value, dict):
            for key, item in value.items():
                if isinstance(key, str) and not key.isascii():
                    check_text(key, obj=obj, attribute="property")
                if isinstance(item, str) and not item.isascii():
                    check_text(item, obj=obj, attribute=key)


def _check_field(value: str, obj: str, attribute: str) -> None:
    if attribute == "name":  # the label shows the name: say which it is, not the value twice
        check_text(value, obj=obj, what="the name")
    else:
        check_text(value, obj=obj, attribute=attribute)
