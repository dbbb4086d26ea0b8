"""Inputs for the fuzz tests: real files from ../shared/corpus, mutated the way files get broken.

Mutations: a character flipped to any other, a quote, parenthesis or bracket dropped, structural
characters inserted (quotes, parentheses, continuation ``+``/``-``, NUL, CR/LF, ``#``, ``[``...),
unicode (line separators, a byte order mark, accents), numbers of thousands of digits, lines duplicated,
dropped or cut, every line ending turned into CRLF, and bytes flipped below the text (for the readers
that decode files).

``MQCTL_FUZZ_EXAMPLES`` sets how many inputs each fuzz test tries: moderate in ``make test``, a long
campaign in ``make fuzz``.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from mqctl.domain.errors import InputError

CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus"
EXAMPLES = int(os.environ.get("MQCTL_FUZZ_EXAMPLES", "100"))

fuzz_settings = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)

INSERTS = [
    "'",
    "''",
    '"',
    "(",
    ")",
    "[",
    "]",
    "=",
    ",",
    ";",
    "+",
    "-",
    "*",
    "#",
    ">",
    "%",
    "_",
    "?",
    "\\",
    " ",
    "\t",
    "\0",
    "\r",
    "\n",
    "\r\n",
    "+\n",
    "-\n",
    "\u2028",
    "\x85",
    "\ufeff",
    "é",
    "\U0001f600",
    "+QMNAME+",
    "+X+",
    "9" * 5000,
    "0x" + "F" * 300,
    "1E99999",
    "." * 50,
    "/" * 200,
    "(" * 300,
]
LONG_LINE = "x" * 20_000


def corpus_texts(pattern: str, fallback: list[str]) -> list[str]:
    """Texts of the corpus files matching ``pattern`` (a glob under corpus/), else ``fallback``."""
    files = sorted(CORPUS.glob(pattern)) if CORPUS.is_dir() else []
    texts = [f.read_text(encoding="utf-8") for f in files]
    return texts or fallback


def _position(draw: st.DrawFn, text: str) -> int:
    return draw(st.integers(min_value=0, max_value=len(text)))


def _flip(draw: st.DrawFn, text: str) -> str:
    if not text:
        return text
    i = draw(st.integers(min_value=0, max_value=len(text) - 1))
    return text[:i] + draw(st.characters(codec="utf-8")) + text[i + 1 :]


def _drop_structural(draw: st.DrawFn, text: str) -> str:
    spots = [i for i, c in enumerate(text) if c in "'\"()[]=,+-#"]
    if not spots:
        return text
    i = draw(st.sampled_from(spots))
    return text[:i] + text[i + 1 :]


def _insert(draw: st.DrawFn, text: str) -> str:
    i = _position(draw, text)
    return text[:i] + draw(st.sampled_from(INSERTS)) + text[i:]


def _lines(draw: st.DrawFn, text: str) -> str:
    lines = text.split("\n")
    i = draw(st.integers(min_value=0, max_value=len(lines) - 1))
    how = draw(st.sampled_from(["dup", "drop", "cut", "continue", "long"]))
    if how == "dup":
        lines.insert(i, lines[i])
    elif how == "drop":
        del lines[i]
    elif how == "cut":
        lines[i] = lines[i][: _position(draw, lines[i])]
    elif how == "continue":
        lines[i] += draw(st.sampled_from(["+", "-", " +", " -"]))
    else:
        lines[i] += LONG_LINE
    return "\n".join(lines)


def _crlf(draw: st.DrawFn, text: str) -> str:
    return text.replace("\n", "\r\n")


def _truncate(draw: st.DrawFn, text: str) -> str:
    return text[: _position(draw, text)]


_MUTATIONS: list[Callable[[st.DrawFn, str], str]] = [
    _flip,
    _drop_structural,
    _insert,
    _insert,
    _lines,
    _lines,
    _crlf,
    _truncate,
]


@st.composite
def mutated(draw: st.DrawFn, seeds: list[str], *, window: int = 60) -> str:
    """A seed (a window of at most ``window`` of its lines) changed by one to six mutations."""
    text = draw(st.sampled_from(seeds))
    lines = text.split("\n")
    if len(lines) > window:
        start = draw(st.integers(min_value=0, max_value=len(lines) - window))
        text = "\n".join(lines[start : start + window])
    for _ in range(draw(st.integers(min_value=1, max_value=6))):
        text = draw(st.sampled_from(_MUTATIONS))(draw, text)
    return text


@st.composite
def mutated_bytes(draw: st.DrawFn, seeds: list[str]) -> bytes:
    """A mutated text encoded as UTF-8 (sometimes UTF-16, sometimes cp1252), then a byte or two flipped."""
    text = draw(mutated(seeds))
    encoding = draw(st.sampled_from(["utf-8", "utf-8", "utf-8-sig", "utf-16", "cp1252"]))
    data = bytearray(text.encode(encoding, errors="replace"))
    for _ in range(draw(st.integers(min_value=0, max_value=2))):
        if data:
            i = draw(st.integers(min_value=0, max_value=len(data) - 1))
            data[i] ^= draw(st.integers(min_value=1, max_value=255))
    return bytes(data)


def any_text() -> st.SearchStrategy[str]:
    """Arbitrary text, structural characters made likely."""
    return st.lists(st.sampled_from(INSERTS[:38]) | st.characters(codec="utf-8"), max_size=60).map("".join)


def assert_positioned(err: InputError, *, file: str | None) -> None:
    """The error names where: the file, line and column when a file is involved, else a column."""
    if file is not None:
        assert err.file == file, err.one_line()
        assert err.line is not None and err.line >= 1, err.one_line()
        assert err.column is not None and err.column >= 1, err.one_line()
    else:
        assert err.column is not None and err.column >= 1, err.one_line()
    assert "\n" not in err.one_line()
