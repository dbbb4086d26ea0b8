"""Messages as selectors see them: JMS-typed properties and the six selectable header fields.

A selector compares by JMS type (a string '2' is not the number 2), so every value keeps the type it was
set with. `--prop NAME[:TYPE]=VALUE` and `--header NAME=VALUE` are parsed here so that the CLI, the
snapshot readers and the tests type values the same way.
"""

from __future__ import annotations

import math
import re
import struct
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from mqctl.domain.errors import InputError, clip
from mqctl.domain.valid_text import check_text

JMS_TYPES = ("string", "boolean", "byte", "short", "int", "long", "float", "double")

INTEGRAL_RANGES: dict[str, tuple[int, int]] = {
    "byte": (-(2**7), 2**7 - 1),
    "short": (-(2**15), 2**15 - 1),
    "int": (-(2**31), 2**31 - 1),
    "long": (-(2**63), 2**63 - 1),
}

# The words a selector reserves; a property with one of these names could never be selected on.
RESERVED_WORDS = frozenset(
    {"NULL", "TRUE", "FALSE", "NOT", "AND", "OR", "BETWEEN", "LIKE", "IN", "IS", "ESCAPE"}
)

_FLOAT32_MAX = 3.4028234663852886e38


def to_float32(x: float) -> float:
    """Round a double to the nearest Java float (overflow to infinity, as Java's (float) cast does)."""
    try:
        return float(struct.unpack("f", struct.pack("f", x))[0])
    except OverflowError:
        return math.copysign(math.inf, x)


def int_to_float32(x: int) -> float:
    """Java's long-to-float conversion: one correct rounding, not two via double."""
    if -(2**53) <= x <= 2**53:
        return to_float32(float(x))
    mag = abs(x)
    shift = mag.bit_length() - 24
    q, r = divmod(mag, 1 << shift)
    half = 1 << (shift - 1)
    if r > half or (r == half and q & 1):
        q += 1
    return math.copysign(float(q << shift), x)


@dataclass(frozen=True, slots=True)
class JmsValue:
    """One typed value; the Python type of `value` always agrees with `type` (checked here, once)."""

    type: str
    value: str | bool | int | float

    def __post_init__(self) -> None:
        t, v = self.type, self.value
        if t == "string":
            ok = isinstance(v, str)
        elif t == "boolean":
            ok = isinstance(v, bool)
        elif t in INTEGRAL_RANGES:
            lo, hi = INTEGRAL_RANGES[t]
            ok = isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi
        elif t in ("float", "double"):
            ok = isinstance(v, int | float) and not isinstance(v, bool)
            if ok:
                f = float(v)
                object.__setattr__(self, "value", to_float32(f) if t == "float" else f)
        else:
            raise ValueError(f"unknown JMS type {t!r} (expected one of {', '.join(JMS_TYPES)})")
        if not ok:
            raise ValueError(f"{v!r} is not a JMS {t}")


def is_identifier(name: str) -> bool:
    """Java identifier rules (Character.isJavaIdentifierStart/Part), as the selector lexer applies them."""
    if not name or not is_identifier_start(name[0]):
        return False
    return all(is_identifier_part(c) for c in name[1:])


_START_CATEGORIES = frozenset({"Lu", "Ll", "Lt", "Lm", "Lo", "Nl", "Sc", "Pc"})
_PART_CATEGORIES = _START_CATEGORIES | {"Nd", "Mn", "Mc", "Cf"}


def is_identifier_start(c: str) -> bool:
    """Letters, currency symbols ($) and connecting punctuation (_), as in Java."""
    if c.isascii():
        return c.isalpha() or c in "$_"
    return unicodedata.category(c) in _START_CATEGORIES


def is_identifier_part(c: str) -> bool:
    """Identifier start characters plus digits and combining marks, as in Java."""
    if c.isascii():
        return c.isalnum() or c in "$_"
    return unicodedata.category(c) in _PART_CATEGORIES


_INT_RE = re.compile(r"[+-]?[0-9]+")
_MAX_LONG_DIGITS = 19
"""A decimal integer with more significant digits is beyond every JMS integral type: decided on the
count, since int() of thousands of digits is refused by Python itself."""
# Java Double.parseDouble's decimal forms: optional f/F/d/D suffix, NaN and Infinity.
# (Written so that a run of digits can be split one way only: `[0-9]+\.?[0-9]*` backtracks quadratically
# on thousands of digits followed by a letter.)
_FLOAT_RE = re.compile(r"[+-]?(?:NaN|Infinity|(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?[fFdD]?)")
# What an untyped --prop value must look like to be inferred as a double: plain decimal, no suffix.
_INFER_FLOAT_RE = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


def _a(kind: str) -> str:
    return f"an {kind}" if kind[0] in "aeiou" else f"a {kind}"


def _parse_typed(kind: str, text: str) -> JmsValue:
    """The value of TEXT as a JMS `kind`, or ValueError with a reason."""
    if kind == "string":
        return JmsValue("string", text)
    if kind == "boolean":
        low = text.lower()
        if low not in ("true", "false"):
            raise ValueError("expected true or false")
        return JmsValue("boolean", low == "true")
    if kind in INTEGRAL_RANGES:
        if not _INT_RE.fullmatch(text):
            raise ValueError("expected a decimal integer")
        lo, hi = INTEGRAL_RANGES[kind]
        if _significant_digits(text) > _MAX_LONG_DIGITS or not lo <= _to_int(text) <= hi:
            raise ValueError(f"{kind} must be between {lo} and {hi}")
        return JmsValue(kind, _to_int(text))
    # float or double
    if not _FLOAT_RE.fullmatch(text):
        raise ValueError("expected a decimal number")
    body = text.rstrip("fFdD") if not text.endswith("NaN") and not text.endswith("Infinity") else text
    f = float(body.replace("Infinity", "inf"))
    if kind == "float":
        f32 = to_float32(f)
        if math.isinf(f32) and not math.isinf(f):
            raise ValueError(f"out of range for float (largest is {_FLOAT32_MAX:.8g})")
        return JmsValue("float", f32)
    if math.isinf(f) and "Infinity" not in text:
        raise ValueError("out of range for double")
    return JmsValue("double", f)


def _significant_digits(text: str) -> int:
    return len(text.lstrip("+-").lstrip("0"))


def _to_int(text: str) -> int:
    """int() of a decimal integer of at most _MAX_LONG_DIGITS significant digits, leading zeros dropped
    first (Python counts them towards its own digit limit)."""
    sign = "-" if text.startswith("-") else ""
    return int(sign + (text.lstrip("+-").lstrip("0") or "0"))


def _infer(text: str) -> JmsValue:
    """Guess the JMS type of an untyped value: int/long, double, boolean, else string.

    A number beyond the double range is a ValueError: it looks like a number, and no JMS type holds it.
    """
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return JmsValue("string", text[1:-1])
    if _INT_RE.fullmatch(text) and _significant_digits(text) <= _MAX_LONG_DIGITS:
        n = _to_int(text)
        lo, hi = INTEGRAL_RANGES["int"]
        if lo <= n <= hi:
            return JmsValue("int", n)
        lo, hi = INTEGRAL_RANGES["long"]
        if lo <= n <= hi:
            return JmsValue("long", n)
    if _INFER_FLOAT_RE.fullmatch(text):
        f = float(text)
        if math.isinf(f):
            raise ValueError("a number beyond the range of double (and of long)")
        return JmsValue("double", f)
    if text.lower() in ("true", "false"):
        return JmsValue("boolean", text.lower() == "true")
    return JmsValue("string", text)


def parse_property(spec: str) -> tuple[str, JmsValue]:
    """Parse `NAME[:TYPE]=VALUE` (the CLI's --prop): typed exactly as written, or inferred without TYPE."""
    name_part, eq, text = spec.partition("=")
    if not eq:
        raise InputError(f"property {spec!r}: expected NAME[:TYPE]=VALUE", attribute="--prop")
    name, colon, kind = name_part.partition(":")
    name = name.strip()
    if not name:
        raise InputError(f"property {spec!r}: the name is empty", attribute="--prop")
    if not is_identifier(name) or name.upper() in RESERVED_WORDS:
        raise InputError(
            f"property {name!r}: not a valid selector identifier (a letter, '_' or '$', then letters, "
            "digits, '_' or '$'; not a reserved word)",
            attribute="--prop",
        )
    if name in HEADER_TYPES:
        raise InputError(f"property {name!r}: a header field, set it as a header", attribute="--prop")
    value_column = len(name_part) + 2
    check_text(text, attribute="--prop", what=f"the value of property {name!r}")
    if not colon:
        try:
            return name, _infer(text)
        except ValueError as exc:
            raise InputError(
                f"property {name!r}: {clip(text)!r} is {exc}", attribute="--prop", column=value_column
            ) from None
    kind = kind.strip().lower()
    if kind not in JMS_TYPES:
        raise InputError(
            f"property {name!r}: unknown type {kind!r} (expected one of {', '.join(JMS_TYPES)})",
            attribute="--prop",
        )
    try:
        return name, _parse_typed(kind, text)
    except ValueError as exc:
        raise InputError(
            f"property {name!r}: {clip(text)!r} is not {_a(kind)}: {exc}",
            attribute="--prop",
            column=value_column,
        ) from None


HEADER_TYPES: dict[str, str] = {
    "JMSDeliveryMode": "string",
    "JMSPriority": "int",
    "JMSMessageID": "string",
    "JMSTimestamp": "long",
    "JMSCorrelationID": "string",
    "JMSType": "string",
}

DELIVERY_MODES = ("PERSISTENT", "NON_PERSISTENT")


def parse_header(spec: str) -> tuple[str, JmsValue]:
    """Parse `NAME=VALUE` for one of the selectable JMS header fields, typed by HEADER_TYPES."""
    name, eq, text = spec.partition("=")
    name = name.strip()
    if not eq:
        raise InputError(f"header {spec!r}: expected NAME=VALUE", attribute="--header")
    if name not in HEADER_TYPES:
        known = ", ".join(HEADER_TYPES)
        raise InputError(f"header {name!r}: unknown header (expected one of {known})", attribute="--header")
    check_text(text, attribute="--header", what=f"the value of header {name!r}")
    if name == "JMSDeliveryMode":
        mode = text.strip().upper()
        if mode not in DELIVERY_MODES:
            raise InputError(
                f"header {name!r}: {text!r} is not PERSISTENT or NON_PERSISTENT", attribute="--header"
            )
        return name, JmsValue("string", mode)
    try:
        value = _parse_typed(HEADER_TYPES[name], text)
    except ValueError as exc:
        raise InputError(
            f"header {name!r}: {clip(text)!r} is not {_a(HEADER_TYPES[name])}: {exc}", attribute="--header"
        ) from None
    if name == "JMSPriority" and not 0 <= int(value.value) <= 9:
        raise InputError(f"header {name!r}: priority must be from 0 to 9, not {text}", attribute="--header")
    return name, value


def default_headers() -> dict[str, JmsValue]:
    """What a JMS producer sends unless told otherwise (semantics §9 Messages)."""
    return {"JMSPriority": JmsValue("int", 4), "JMSDeliveryMode": JmsValue("string", "PERSISTENT")}


@dataclass(frozen=True, slots=True)
class Message:
    """A publication's selectable content; read-only so a compiled selector can never change it."""

    properties: Mapping[str, JmsValue]
    headers: Mapping[str, JmsValue]

    @classmethod
    def create(
        cls, properties: Mapping[str, JmsValue] | None = None, headers: Mapping[str, JmsValue] | None = None
    ) -> Message:
        """Build a message with the default headers under the given ones."""
        merged = default_headers()
        for name, value in (headers or {}).items():
            if name not in HEADER_TYPES:
                raise InputError(
                    f"header {name!r}: unknown header (expected one of {', '.join(HEADER_TYPES)})",
                    attribute="--header",
                )
            merged[name] = value
        return cls(MappingProxyType(dict(properties or {})), MappingProxyType(merged))
