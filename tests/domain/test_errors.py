"""An error's one line: as written for the CLI (escaped once, where it is printed), escaped for a value
kept or written to a file (a finding, a transcript line, a Spark job's reason)."""

from __future__ import annotations

from mqctl.domain.errors import InputError


def test_one_line_is_the_plain_line_escaped_and_plain_line_is_as_written() -> None:
    err = InputError("bad\u2028name\nhere \udcff", obj="sub S\x1b", attribute="--qmgr", file="f.mqsc", line=3)
    assert err.plain_line() == "f.mqsc:3: sub S\x1b --qmgr: bad\u2028name here \udcff"
    # what Spark writes as a reason, byte for byte as before: separators and bytes not UTF-8 escaped
    assert err.one_line() == "f.mqsc:3: sub S\x1b --qmgr: bad\\u2028name here \\udcff"
