"""Errors as values at the boundary: one type per user-facing failure class.

Each carries what a user needs to find the mistake (object, attribute, file, line, column); the CLI
turns it into one line on stderr and an exit code. The domain raises them; nothing here does I/O.
"""

from __future__ import annotations

from collections.abc import Sequence

from mqctl.text import escape_char


def clip(text: str, limit: int = 40) -> str:
    """TEXT cut to LIMIT characters, for quoting user input in a message: never thousands of characters."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


LINE_BREAKS = "\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
"""What ``str.splitlines`` (and a terminal, an editor, a log reader) take as the end of a line, but
``\\n`` (a message's own line breaks are joined by spaces where it is made one line)."""

_BREAK_ESCAPES = str.maketrans({c: escape_char(c) for c in LINE_BREAKS})


def escaped(text: str) -> str:
    """TEXT with each lone surrogate (a command-line byte that is not UTF-8, see ``valid_text``) written
    as its escape, ``\\udcff``, and each line separator but ``\\n`` (U+2028, ``\\r``, ...) as its
    escape too: safe to print on one line, store or write to a file."""
    if text.isascii():
        return text if text.isprintable() else text.translate(_BREAK_ESCAPES)
    return text.encode("utf-8", "backslashreplace").decode("utf-8").translate(_BREAK_ESCAPES)


class MqctlError(Exception):
    """Base of every error mqctl reports to a user without a traceback."""

    exit_code = 2

    def __init__(
        self,
        message: str,
        *,
        obj: str | None = None,
        attribute: str | None = None,
        file: str | None = None,
        line: int | None = None,
        column: int | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.obj = obj
        self.attribute = attribute
        self.file = file
        self.line = line
        self.column = column

    def one_line(self) -> str:
        """The single line, location first as compilers do, ``escaped``: safe as a value kept or written
        to a file (a finding, a transcript line, a Spark reason). For stderr, ``plain_line``."""
        return escaped(self.plain_line())

    def plain_line(self) -> str:
        """The single line as written, for a writer that escapes it itself: the CLI's error lines (each
        escaped once, by ``text.error_line``) and an error quoted in another's message (escaped where
        that one is shown)."""
        where = ""
        if self.file is not None:
            where = self.file
            if self.line is not None:
                where += f":{self.line}"
                if self.column is not None:
                    where += f":{self.column}"
            where += ": "
        elif self.line is not None:
            where = (
                f"line {self.line}" + (f", column {self.column}" if self.column is not None else "") + ": "
            )
        subject = ""
        if self.obj is not None:
            subject = self.obj
            if self.attribute is not None:
                subject += f" {self.attribute}"
            subject += ": "
        elif self.attribute is not None:
            subject = f"{self.attribute}: "
        return f"{where}{subject}{self.message}".replace("\n", " ")


class InputError(MqctlError):
    """Bad input or usage: exit 2, nothing changed."""

    exit_code = 2


class InputErrors(InputError):
    """Several errors of one input reported together (every syntax error of a script, every bad line of
    a configuration file, as runmqsc reports them): reads as its first, so a door that stops at one
    error shows that one; ``errors`` holds each, in input order (``validate --file`` makes a finding of
    each, so CI sees them in one run)."""

    def __init__(self, errors: Sequence[InputError]) -> None:
        first = errors[0]
        super().__init__(
            first.message,
            obj=first.obj,
            attribute=first.attribute,
            file=first.file,
            line=first.line,
            column=first.column,
        )
        self.errors = list(errors)


def raise_all(errors: Sequence[InputError]) -> None:
    """Raise the errors collected, one as itself, several as ``InputErrors``; nothing when none."""
    if len(errors) == 1:
        raise errors[0]
    if errors:
        raise InputErrors(errors)


def collected(errors: list[InputError], err: InputError) -> None:
    """Add ``err`` to ``errors``, each of a collection in its own right."""
    errors.extend(err.errors if isinstance(err, InputErrors) else [err])


class NotFoundError(InputError):
    """A named object does not exist (usage error: exit 2)."""


class ConflictError(InputError):
    """An object exists already, or others depend on it."""


class NegativeAnswer(MqctlError):
    """A well-formed question whose answer is no (no match, findings, skipped commands): exit 1."""

    exit_code = 1


class StoreError(MqctlError):
    """The state store is unreachable or at the wrong revision: exit 3."""

    exit_code = 3
