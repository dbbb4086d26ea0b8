"""The one rule by which files become text: UTF-8 (byte order marks honoured), or the encoding named;
a byte that does not decode is an input error at its line and column, never a silent fallback."""

from __future__ import annotations

import codecs
import io
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mqctl.domain.errors import InputError
from mqctl.formats.text_io import check_encoding, decode_text, read_text_file, read_text_stream


@given(st.text(max_size=50))
def test_utf8_and_utf16_with_their_marks_read_back_the_text(text: str) -> None:
    assert decode_text(text.encode("utf-8"), file="f") == text
    for data in (
        codecs.BOM_UTF8 + text.encode("utf-8"),
        text.encode("utf-16"),  # Python writes the mark
        codecs.BOM_UTF16_BE + text.encode("utf-16-be"),
    ):
        assert decode_text(data, file="f") == text
    assert decode_text(text.encode("utf-32"), "utf-32", file="f") == text


def test_a_named_encoding_is_used_and_its_mark_honoured() -> None:
    assert decode_text("Déjà".encode("cp1252"), "cp1252", file="f") == "Déjà"
    assert decode_text(codecs.BOM_UTF16_BE + "é".encode("utf-16-be"), "utf-16", file="f") == "é"
    assert decode_text(codecs.BOM_UTF8 + b"x", "utf-8", file="f") == "x"
    assert decode_text(b"\xe9", "latin-1", file="f") == "é"


@pytest.mark.parametrize(
    ("data", "encoding", "line", "column"),
    [
        (b"\xe9", None, 1, 1),
        (b"DEFINE TOPIC(T)\r\nDESCR('caf\xe9')", None, 2, 11),
        (b"a\n\n\xff", None, 3, 1),
        (codecs.BOM_UTF8 + b"ab\xc3", None, 1, 3),  # truncated sequence at the end
        (b"ok\x81", "cp1252", 1, 3),
        ("é\n".encode("utf-16-le") + b"\x00\xd8\x41\x00", "utf-16-le", 2, 1),  # lone surrogate
    ],
)
def test_a_byte_that_does_not_decode_is_an_input_error_at_its_position(
    data: bytes, encoding: str | None, line: int, column: int
) -> None:
    with pytest.raises(InputError) as info:
        decode_text(data, encoding, file="dump.mqsc")
    err = info.value
    assert (err.file, err.line, err.column) == ("dump.mqsc", line, column), err.one_line()
    assert "cannot be decoded as" in err.message
    assert ("--encoding" in err.message) is (encoding is None)


@pytest.mark.parametrize("name", ["nope", "base64", "rot13", ""])
def test_only_text_encodings_are_accepted(name: str) -> None:
    with pytest.raises(InputError, match="encoding"):
        check_encoding(name)
    assert check_encoding("LATIN-1") == "iso8859-1"


def test_files_that_cannot_be_read_are_input_errors_naming_them(tmp_path: Path) -> None:
    for path, words in [
        (tmp_path, "is a folder"),
        (tmp_path / "missing", "no such file"),
        (Path(str(tmp_path) + "/a\0b"), "NUL byte"),
    ]:
        with pytest.raises(InputError, match=words) as info:
            read_text_file(path)
        assert info.value.file is not None
    (tmp_path / "ok.txt").write_bytes("ü".encode("utf-16"))
    assert read_text_file(tmp_path / "ok.txt") == "ü"


def test_standard_input_bytes_follow_the_same_rule() -> None:
    assert read_text_stream(io.BytesIO("é".encode("utf-16"))) == "é"
    with pytest.raises(InputError) as info:
        read_text_stream(io.BytesIO(b"x\xe9"))
    assert (info.value.file, info.value.line, info.value.column) == ("<stdin>", 1, 2)
