"""Bytes of the files mqctl reads turned into text, one rule for every reader.

Files come from other people's machines: dmpmqcfg dumps in a Windows code page, EMS files edited by
hand, scripts saved as UTF-16 by a Windows editor. The rule:

- without an encoding name: UTF-8, a UTF-8 byte order mark honoured (and dropped); a UTF-16 byte order
  mark selects UTF-16 in that byte order (UTF-32 needs its name: its little-endian mark begins like
  UTF-16's followed by a NUL);
- with one (``--encoding cp1252``, ``latin-1``...): that encoding; a byte order mark of that encoding
  is still honoured (``utf-16`` then takes the byte order the mark gives) and dropped;
- a byte that does not decode is one ``InputError`` naming the file, the line and column where it stands
  and the encoding tried — never a ``UnicodeDecodeError``, never a silent fallback to another encoding;
- a file that cannot be read (missing, a folder, no permission, a path holding a NUL) is an ``InputError``
  naming it.

Public API::

    read_text_file(path, encoding=None) -> str
    read_text_stream(stream, encoding=None, *, name="<stdin>") -> str   # sys.stdin.buffer, for instance
    decode_text(data, encoding=None, *, file) -> str
    check_encoding(encoding) -> str                                      # for option parsing
"""

from __future__ import annotations

import codecs
from pathlib import Path
from typing import BinaryIO

from mqctl.domain.errors import InputError

__all__ = ["check_encoding", "decode_text", "read_text_file", "read_text_stream"]

_BOMS: tuple[tuple[bytes, str], ...] = (
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
_DEFAULT = "utf-8"


def check_encoding(encoding: str) -> str:
    """The codec's canonical name for ``encoding``; an ``InputError`` for a name Python does not know."""
    try:
        name = codecs.lookup(encoding).name
        # LookupError for codecs that do not turn bytes into text (base64, rot13...); empty input would
        # not be looked at.
        b"\0\0\0\0".decode(name, "ignore")
    except (LookupError, ValueError):
        raise InputError(
            f"unknown text encoding {encoding!r} (examples: utf-8, cp1252, latin-1, utf-16)",
            attribute="--encoding",
        ) from None
    return name


def _bom(data: bytes) -> tuple[str | None, int]:
    for mark, name in _BOMS:
        if data.startswith(mark):
            return name, len(mark)
    return None, 0


def decode_text(data: bytes, encoding: str | None = None, *, file: str) -> str:
    """``data`` as text by the rule above; ``file`` names the source in errors."""
    bom_codec, bom_length = _bom(data)
    if encoding is None:
        codec = bom_codec or _DEFAULT
    else:
        codec = check_encoding(encoding)
        if bom_codec is not None and bom_codec.startswith(codec):  # utf-16 + an LE mark: utf-16-le
            codec = bom_codec
        else:
            bom_length = 0
    body = memoryview(data)[bom_length:]
    try:
        return str(body, codec)
    except UnicodeDecodeError as err:
        raise _decode_error(body, codec, err, file, given=encoding is not None) from None


def _decode_error(
    body: memoryview, codec: str, err: UnicodeDecodeError, file: str, *, given: bool
) -> InputError:
    """Where the undecodable byte stands, counted in characters of the text before it."""
    before = str(body[: err.start], codec, errors="replace")
    lines = before.splitlines(keepends=True)
    if not lines:
        line, column = 1, 1
    elif lines[-1].splitlines()[0] != lines[-1]:  # the text before ends with a line break
        line, column = len(lines) + 1, 1
    else:
        line, column = len(lines), len(lines[-1]) + 1
    shown = bytes(body[err.start : min(err.end, err.start + 4)]).hex(" ").upper()
    hint = "" if given else " (give the file's encoding with --encoding NAME, e.g. --encoding cp1252)"
    return InputError(
        f"byte 0x{shown} cannot be decoded as {codec}{hint}", file=file, line=line, column=column
    )


def read_text_file(path: Path | str, encoding: str | None = None) -> str:
    """The text of the file at ``path``; ``InputError`` naming the file when it cannot be read or decoded."""
    name = str(path)
    try:
        data = Path(path).read_bytes()
    except IsADirectoryError:
        raise InputError("is a folder, expected a file", file=name) from None
    except FileNotFoundError:
        raise InputError("no such file", file=name) from None
    except OSError as err:
        raise InputError(f"cannot be read: {err.strerror or err}", file=name) from None
    except ValueError:  # a path holding a NUL byte
        raise InputError("a file name cannot hold a NUL byte", file=name.replace("\0", "\\0")) from None
    return decode_text(data, encoding, file=name)


def read_text_stream(stream: BinaryIO, encoding: str | None = None, *, name: str = "<stdin>") -> str:
    """The text of a byte stream (``sys.stdin.buffer`` for a script given on standard input)."""
    try:
        data = stream.read()
    except OSError as err:
        raise InputError(f"cannot be read: {err.strerror or err}", file=name) from None
    return decode_text(data, encoding, file=name)
