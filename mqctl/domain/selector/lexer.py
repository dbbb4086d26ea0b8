"""Selector tokens: Java literal syntax for numbers, SQL quoting for strings, case-insensitive keywords."""

from __future__ import annotations

from dataclasses import dataclass

from mqctl.domain.messages import RESERVED_WORDS, is_identifier_part, is_identifier_start
from mqctl.domain.selector.errors import SelectorError, clip, selector_error

# Token kinds.
STRING = "string"
EXACT = "exact"  # value: (magnitude, radix, has_l_suffix)
APPROX = "approx"  # value: (float text without suffix, is_float32)
IDENT = "ident"
KEYWORD = "keyword"  # value: the upper-case word
OP = "op"
EOF = "eof"

_OPERATORS = ("<>", "<=", ">=", "<", ">", "=", "+", "-", "*", "/", "(", ")", ",")
# JMS: space, horizontal tab, form feed and line terminators.
_WHITESPACE = " \t\f\n\r"


@dataclass(frozen=True, slots=True)
class Token:
    """One token; `start`/`end` are 0-based offsets into the selector text."""

    kind: str
    text: str
    value: object
    start: int
    end: int

    @property
    def column(self) -> int:
        return self.start + 1

    def describe(self) -> str:
        """How an error message names this token ("found ...")."""
        if self.kind == EOF:
            return "end of selector"
        if self.kind == STRING:
            return f"string literal {clip(self.text)}"
        if self.kind in (EXACT, APPROX):
            return f"number {clip(self.text)}"
        if self.kind == IDENT:
            return f"identifier {clip(self.text)!r}"
        if self.kind == KEYWORD:
            return f"keyword {self.value}"
        return f"'{self.text}'"


def tokenize(text: str) -> list[Token]:
    """Split a selector into tokens, ending with an EOF token; SelectorError at the first bad character."""
    tokens: list[Token] = []
    i, n = 0, len(text)
    while True:
        while i < n and text[i] in _WHITESPACE:
            i += 1
        if i >= n:
            tokens.append(Token(EOF, "", None, n, n))
            return tokens
        c = text[i]
        if c == "'":
            tok = _string(text, i)
        elif c.isdigit() and c.isascii() or (c == "." and i + 1 < n and text[i + 1].isdigit()):
            tok = _number(text, i)
        elif is_identifier_start(c):
            j = i + 1
            while j < n and is_identifier_part(text[j]):
                j += 1
            word = text[i:j]
            upper = word.upper()
            if upper in RESERVED_WORDS:
                tok = Token(KEYWORD, word, upper, i, j)
            else:
                tok = Token(IDENT, word, word, i, j)
        else:
            for op in _OPERATORS:
                if text.startswith(op, i):
                    tok = Token(OP, op, op, i, i + len(op))
                    break
            else:
                hint = " (not-equal is '<>')" if text.startswith("!=", i) else ""
                found = "'\"' (strings use single quotes)" if c == '"' else f"{c!r}{hint}"
                raise selector_error("an identifier, literal, operator or parenthesis", i + 1, found)
        tokens.append(tok)
        i = tok.end


def _string(text: str, start: int) -> Token:
    """A '...' literal; '' inside stands for one quote."""
    parts: list[str] = []
    i = start + 1
    n = len(text)
    while True:
        j = text.find("'", i)
        if j < 0:  # one position, the literal's opening quote: where the user has to look
            raise SelectorError(
                f"the string literal at column {start + 1} has no closing ' before the end of the selector",
                column=start + 1,
                expected="a closing '",
            )
        parts.append(text[i:j])
        if j + 1 < n and text[j + 1] == "'":
            parts.append("'")
            i = j + 2
            continue
        return Token(STRING, text[start : j + 1], "".join(parts), start, j + 1)


_HEX = "0123456789abcdefABCDEF"
_MAX_DIGITS = 22
"""More significant digits than any long has in decimal (19) or octal (22): out of range whatever they are."""


def _number(text: str, start: int) -> Token:
    """A Java integer literal (57, 017, 0x1F, optional L) or floating literal (1.5, 1E3, .5, 1.5F)."""
    n = len(text)
    i = start
    if text.startswith(("0x", "0X"), i):
        j = i + 2
        while j < n and text[j] in _HEX:
            j += 1
        if j == i + 2:
            raise selector_error("hexadecimal digits after 0x", j + 1, _found_char(text, j))
        has_l = j < n and text[j] in "lL"
        end = j + 1 if has_l else j
        _check_end(text, end)
        return Token(EXACT, text[start:end], (int(text[i + 2 : j], 16), 16, has_l), start, end)
    j = i
    while j < n and text[j].isascii() and text[j].isdigit():
        j += 1
    approx = False
    if j < n and text[j] == ".":
        approx = True
        j += 1
        while j < n and text[j].isascii() and text[j].isdigit():
            j += 1
    if j < n and text[j] in "eE":
        approx = True
        k = j + 1
        if k < n and text[k] in "+-":
            k += 1
        if not (k < n and text[k].isascii() and text[k].isdigit()):
            raise selector_error("digits in the exponent", k + 1, _found_char(text, k))
        while k < n and text[k].isascii() and text[k].isdigit():
            k += 1
        j = k
    if j < n and text[j] in "fFdD":
        end = j + 1
        _check_end(text, end)
        return Token(APPROX, text[start:end], (text[start:j], text[j] in "fF"), start, end)
    if approx:
        _check_end(text, j)
        return Token(APPROX, text[start:j], (text[start:j], False), start, j)
    digits = text[start:j]
    has_l = j < n and text[j] in "lL"
    end = j + 1 if has_l else j
    _check_end(text, end)
    if len(digits.lstrip("0")) > _MAX_DIGITS:
        # Decided on the digit count: int() of thousands of decimal digits is refused by Python itself.
        raise selector_error("a number in the range of long", start + 1, f"number {clip(digits)}")
    if len(digits) > 1 and digits[0] == "0":
        if any(d in "89" for d in digits):
            raise selector_error("octal digits (0-7) after a leading 0", start + 1, f"number {digits}")
        return Token(EXACT, text[start:end], (int(digits, 8), 8, has_l), start, end)
    return Token(EXACT, text[start:end], (int(digits), 10, has_l), start, end)


def _check_end(text: str, end: int) -> None:
    """A number must not run straight into a letter or digit (`12abc`, `0x1G`)."""
    if end < len(text) and is_identifier_part(text[end]):
        raise selector_error("an operator or whitespace after the number", end + 1, _found_char(text, end))


def _found_char(text: str, i: int) -> str:
    return "end of selector" if i >= len(text) else repr(text[i])
