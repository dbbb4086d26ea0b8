"""Saved output of runmqsc DISPLAY commands, and the REST API's ``runCommandJSON`` responses, read back.

runmqsc prints a banner (``Starting MQSC for queue manager QM1.``), each command it reads echoed with its
number (``     1 : DISPLAY SUB(*) SUBTYPE(ALL) ALL``), then one block per object: a message line
(``AMQ8096I: IBM MQ subscription inquired.``) and ``KEYWORD(value)`` items laid out in two columns over
as many lines as it takes, and at the end the counts (``3 MQSC commands read.``). A value may hold
balanced parentheses and quoted text (a selector); bare keywords (CHSTATUS's ``CURRENT``) stand alone.

The REST API's answers are read by ``rest`` into the same ``Capture``.

Both give a ``Capture``: the queue manager, the DISPLAY commands seen, and the blocks with the line and
column each came from. Anything that is not such output is refused with one ``InputError`` naming the
file, line and column.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime

from mqctl.domain.errors import InputError

__all__ = ["Block", "Capture", "read_capture"]

BANNER = re.compile(r"^Starting MQSC for queue manager (\S+)\.\s*$")
ECHO = re.compile(r"^\s*(\d+)\s:\s?(.*)$")
ECHO_MORE = re.compile(r"^\s+:\s?(.*)$")
MESSAGE = re.compile(r"^(AMQ\d{4,5})([A-Z])?:\s*(.*)$")
FOOTER = re.compile(r"^\s*(\d+|One) MQSC commands? read\.\s*$")
CAPTURED = re.compile(r"^#\s*captured(?:[ _]at)?\s*:?\s*(\S+)\s*$", re.IGNORECASE)
"""A comment line a capture script may add (``# captured 2026-11-26T03:00:00Z``): the capture time."""

KINDS = ("SUB", "TOPIC", "TCLUSTER", "QMGR", "PUBSUB", "CHSTATUS", "CLUSQMGR", "SBSTATUS")
"""The blocks read (``OTHER`` and ``FAILED`` are counted only)."""

_VERBS = {
    "SUB": "SUB",
    "SBSTATUS": "SBSTATUS",
    "TOPIC": "TOPIC",
    "TCLUSTER": "TCLUSTER",
    "QMGR": "QMGR",
    "PUBSUB": "PUBSUB",
    "CHSTATUS": "CHSTATUS",
    "CLUSQMGR": "CLUSQMGR",
}
_MESSAGES = {
    "AMQ8096": "SUB",
    "AMQ8099": "SBSTATUS",
    "AMQ8633": "TOPIC",
    "AMQ8408": "QMGR",
    "AMQ8723": "PUBSUB",
    "AMQ8417": "CHSTATUS",
    "AMQ8441": "CLUSQMGR",
}
_PROXIES_SHOWN = re.compile(r"SUBTYPE\s*\(\s*(ALL|PROXY)\s*\)", re.IGNORECASE)
"""DISPLAY SUB shows proxy subscriptions only when asked for them."""
_KEYWORD = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
_V = r"(?:[^()'\n]++|'[^'\n]*+(?:''[^'\n]*+)*+')*+"
"""A plain value: runs of characters but parentheses and quotes, and quoted strings (which may hold any)."""
_PLAIN_LINE = re.compile(rf"(?:[ \t]*+[A-Za-z][A-Za-z0-9_]*+(?:\({_V}\))?+)*+[ \t]*+")
_PLAIN_BLOCK = re.compile(rf"(?:\s*+[A-Za-z][A-Za-z0-9_]*+(?:\({_V}\))?+)*+\s*+")
_PLAIN_ITEM = re.compile(rf"([A-Za-z][A-Za-z0-9_]*+)(?:\([ \t]*+({_V})\))?+")
"""Items whose values hold no parenthesis (but in quotes) nor line end: the common case, read by regex."""
_REQUIRED = {
    "SUB": ("SUB", "TOPICSTR"),
    "TOPIC": ("TOPIC", "TOPICSTR"),
    "TCLUSTER": ("TOPIC", "TOPICSTR", "CLUSTER"),
    "QMGR": ("QMNAME",),
    "PUBSUB": ("QMNAME", "TYPE", "STATUS"),
    "CHSTATUS": ("CHANNEL", "STATUS"),
    "CLUSQMGR": ("CLUSQMGR", "CLUSTER"),
    "SBSTATUS": ("SUB",),
}
"""What a block of each kind always shows: a block without them was cut short."""


@dataclass(slots=True)
class Block:
    """One object of a DISPLAY answer: its kind, the attributes (upper-case keywords), where it stands."""

    kind: str
    attrs: dict[str, str]
    line: int
    column: int = 1
    message: str = ""
    """``AMQ8096I: IBM MQ subscription inquired.`` (runmqsc), empty for REST."""
    positions: dict[str, tuple[int, int]] = field(default_factory=dict)
    """Keyword -> (line, column) of the keyword, where known (found when asked: errors only)."""
    text: str = ""
    """runmqsc: the item lines of the block, as printed."""
    first: int = 0
    """runmqsc: the number of the first item line."""

    @property
    def lines(self) -> list[tuple[int, str]]:
        return [(self.first + i, line) for i, line in enumerate(self.text.split("\n"))] if self.text else []

    def at(self, keyword: str) -> tuple[int, int]:
        if keyword not in self.positions and self.lines:
            found = re.compile(rf"(?<![A-Za-z0-9_]){re.escape(keyword)}(?![A-Za-z0-9_])", re.IGNORECASE)
            for number, text in self.lines:
                hit = found.search(text)
                if hit is not None:
                    self.positions[keyword] = (number, hit.start() + 1)
                    break
        return self.positions.get(keyword, (self.line, self.column))

    @property
    def last_line(self) -> int:
        return self.lines[-1][0] if self.lines else self.line


@dataclass(slots=True)
class Capture:
    """What one file holds: one queue manager's answers to some DISPLAY commands."""

    file: str
    qmgr: str
    qmgr_at: tuple[int, int]
    captured_at: datetime | None
    commands: list[str] = field(default_factory=list)
    """The kinds of the DISPLAY commands seen (``SUB``, ``TCLUSTER``, ...), in order, once each."""
    blocks: list[Block] = field(default_factory=list)
    others: Counter[str] = field(default_factory=Counter)
    """What is not read, counted by what it is (``QUEUE``, ``AMQ8147E``...)."""

    def saw(self, kind: str) -> None:
        if kind not in self.commands:
            self.commands.append(kind)


def read_capture(text: str, *, file: str, qmgr: str | None = None) -> Capture:
    """The capture ``text`` holds; ``qmgr`` (``--qmgr``) when the file names none, and checked when it does."""
    stripped = text.lstrip()
    if stripped.startswith(("{", "[")):
        from mqctl.formats.display.rest import read_json

        return read_json(text, file=file, qmgr=qmgr)
    from mqctl.formats.display.ems import is_tibemsadmin, read_tibemsadmin

    if is_tibemsadmin(text):
        return read_tibemsadmin(text, file=file, qmgr=qmgr)
    return _read_runmqsc(text, file=file, qmgr=qmgr)


# --- runmqsc ----------------------------------------------------------------------------------------


def _fail(message: str, file: str, line: int, column: int = 1) -> InputError:
    return InputError(message, file=file, line=line, column=column)


def _check_qmgr(named: str, given: str | None, file: str, line: int, column: int) -> str:
    if given is not None and given != named:
        raise _fail(f"output of queue manager {named}, not of {given} (--qmgr)", file, line, column)
    return named


def _command_kind(command: str) -> str:
    """``DISPLAY SUB(*) ...`` -> ``SUB``; a command that is not a DISPLAY of a kind read -> ``OTHER``."""
    words = re.split(r"[\s(]+", command.strip(), maxsplit=2)
    if len(words) < 2 or not words[0].upper().startswith("DIS"):
        return "OTHER"
    kind = _VERBS.get(words[1].upper(), "OTHER")
    if kind == "TOPIC" and re.search(r"TYPE\s*\(\s*CLUSTER\s*\)", command, re.IGNORECASE):
        return "TCLUSTER"
    return kind


def _block_kind(command_kind: str, message_id: str, first: str, attrs: dict[str, str]) -> str:
    kind = command_kind if command_kind != "OTHER" else _MESSAGES.get(message_id, "OTHER")
    if kind in ("TOPIC", "TCLUSTER"):
        return "TCLUSTER" if attrs.get("TYPE", "").upper() == "CLUSTER" else "TOPIC"
    if kind == "OTHER" and first == "SUB" and "TOPICSTR" in attrs:
        return "SUB"
    return kind


_STRUCTURE = re.compile(r"^(?![ \t]+[A-Za-z]).*$", re.M)
"""Every line that is not a line of items (those start with blanks then a keyword): message lines, echoed
commands, counts, blank lines. What lies between two of them is the items of the block open."""


def _read_runmqsc(text: str, *, file: str, qmgr: str | None) -> Capture:
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    capture: Capture | None = None
    captured_at: datetime | None = None
    command_kind = "OTHER"
    block: Block | None = None
    footer = skipping = False
    echoed = ""
    number, counted = 1, 0  # the line number at offset ``counted`` of text
    prev_end = -1  # where the last structure line ended

    def close() -> None:
        nonlocal block
        if block is not None and capture is not None:
            first_key = _read_items(block, file)
            _finish_block(capture, block, first_key, command_kind, file)
        block = None

    for found in _STRUCTURE.finditer(text):
        start = found.start()
        number += text.count("\n", counted, start)
        counted = start
        if start > prev_end + 1:  # item lines between the previous structure line and this one
            items = text[prev_end + 1 : start - 1]
            first = number - items.count("\n") - 1
            if capture is None:
                raise _fail("not runmqsc DISPLAY output nor a runCommandJSON response", file, first)
            if block is None:
                if not footer and not skipping:
                    raise _fail(
                        "expected an AMQ message line, an echoed command or KEYWORD(value) items", file, first
                    )
            elif not block.text:
                block.text, block.first = items, first
            else:
                block.text += "\n" + items
        prev_end = found.end()
        line = found.group(0)
        if not line.strip():
            continue
        if capture is None:
            stamp = CAPTURED.match(line)
            if stamp:
                captured_at = _timestamp(stamp.group(1), file, number, line.index(stamp.group(1)) + 1)
                continue
            banner = BANNER.match(line)
            if banner:
                name = _check_qmgr(banner.group(1), qmgr, file, number, banner.start(1) + 1)
                capture = Capture(file, name, (number, banner.start(1) + 1), captured_at)
                continue
            if ECHO.match(line) or MESSAGE.match(line):
                if qmgr is None:
                    raise _fail(
                        "names no queue manager (no 'Starting MQSC for queue manager' line): give --qmgr",
                        file,
                        number,
                    )
                capture = Capture(file, qmgr, (number, 1), captured_at)
            elif "Copyright" in line or line.startswith("#"):
                continue  # runmqsc's copyright line comes before the banner; comments of a capture script
            else:
                raise _fail("not runmqsc DISPLAY output nor a runCommandJSON response", file, number)
        if footer:
            continue
        if line[0] == "A":
            message = MESSAGE.match(line)
            if message:
                close()
                severity = message.group(2) or "I"
                skipping = severity != "I"
                if skipping:  # a failed command's message (and any text it quotes): counted, not read
                    capture.others[f"{message.group(1)}{severity}"] += 1
                    continue
                block = Block("", {}, number, 1, line.strip())
                continue
        if FOOTER.match(line):
            close()
            footer = True
            continue
        more = ECHO_MORE.match(line)
        if more and block is None:  # the continuation of an echoed command
            echoed += " " + more.group(1)
            if command_kind == "SUB" and _PROXIES_SHOWN.search(echoed):
                capture.saw("PROXY")
            continue
        echo = ECHO.match(line)
        if echo:
            close()
            skipping = False
            echoed = echo.group(2)
            command_kind = _command_kind(echoed)
            if command_kind == "OTHER":
                capture.others[_echo_name(echo.group(2))] += 1
            else:
                capture.saw(command_kind)
                if command_kind == "SUB" and _PROXIES_SHOWN.search(echo.group(2)):
                    capture.saw("PROXY")
            continue
        raise _fail("expected an AMQ message line, an echoed command or KEYWORD(value) items", file, number)
    if prev_end + 1 < len(text):  # item lines at the very end (no line after them)
        items = text[prev_end + 1 :].rstrip("\n")
        if items:
            number += text.count("\n", counted, prev_end + 1)
            if capture is None or block is None:
                raise _fail("not runmqsc DISPLAY output nor a runCommandJSON response", file, number)
            if not block.text:
                block.text, block.first = items, number
            else:
                block.text += "\n" + items
    close()
    if capture is None:
        raise _fail("not runmqsc DISPLAY output nor a runCommandJSON response: it is empty", file, 1)
    if not footer and capture.commands:
        lines = text.rstrip("\n").split("\n")
        raise _fail(
            "the output is cut short: no 'N MQSC commands read.' line at its end (truncated block?)",
            file,
            len(lines),
            len(lines[-1].rstrip()) + 1,
        )
    return capture


def _echo_name(command: str) -> str:
    words = re.split(r"[\s(]+", command.strip(), maxsplit=2)
    return " ".join(w.upper() for w in words[:2]) or "command"


def _finish_block(capture: Capture, block: Block, first: str, command_kind: str, file: str) -> None:
    message_id = block.message.split(":", 1)[0][:7]
    kind = _block_kind(command_kind, message_id, first, block.attrs)
    if kind == "OTHER":
        label = first or block.message.split(":", 1)[-1].strip().rstrip(".") or message_id
        capture.others[label] += 1
        return
    block.kind = kind
    if not block.attrs:
        capture.others[block.message.split(":", 1)[-1].strip().rstrip(".") or message_id] += 1
        return
    for keyword in _REQUIRED[kind]:
        if keyword not in block.attrs:
            line = block.last_line
            raise _fail(f"truncated block: {block.message or kind} shows no {keyword}(...)", file, line, 1)
    capture.saw(kind)
    if kind == "SUB" and block.attrs.get("SUBTYPE", "").upper() == "PROXY":
        capture.saw("PROXY")
    capture.blocks.append(block)


def _read_items(block: Block, file: str) -> str:
    """The block's attributes from its item lines (one regex over them all when no value holds a quote
    or a parenthesis); returns the first keyword."""
    text = block.text
    if not text:
        return ""
    if _PLAIN_BLOCK.fullmatch(text):
        block.attrs = _plain_attrs(text)
        return next(iter(block.attrs), "")
    first = ""
    for number, line in block.lines:
        if _PLAIN_LINE.fullmatch(line):
            found = _plain_attrs(line)
            first = first or next(iter(found), "")
            block.attrs.update(found)
            continue
        for key, value, column in _items(line, file, number):
            if not first:
                first = key
            block.attrs[key] = value
            block.positions[key] = (number, column)
    return first


def _plain_attrs(text: str) -> dict[str, str]:
    """Items of text that ``_PLAIN_BLOCK`` matched, by one ``findall`` (blanks around values dropped)."""
    attrs = dict(_PLAIN_ITEM.findall(text))
    if " )" in text:  # blanks after a value (those before it are left out by the regex)
        attrs = {k: v.strip() for k, v in attrs.items()}
    if not "".join(attrs).isupper():
        attrs = {k.upper(): v for k, v in attrs.items()}
    if "'" in text:
        attrs = {k: _unquote(v) if "'" in v else v for k, v in attrs.items()}
    return attrs


def _items(line: str, file: str, number: int) -> list[tuple[str, str, int]]:
    """The ``KEYWORD(value)`` items and bare keywords of one line, with the column of each keyword."""
    if _PLAIN_LINE.fullmatch(line):  # no quote and no parenthesis inside a value: one regex does it
        return [(m[1].upper(), (m[2] or "").strip(), m.start() + 1) for m in _PLAIN_ITEM.finditer(line)]
    out: list[tuple[str, str, int]] = []
    i, n = 0, len(line)
    while i < n:
        ch = line[i]
        if ch in " \t":
            i += 1
            continue
        word = _KEYWORD.match(line, i)
        if word is None:
            raise _fail(f"unexpected {ch!r}: expected KEYWORD(value)", file, number, i + 1)
        key, start = word.group(0).upper(), i
        i = word.end()
        if i < n and line[i] == "(":
            value, i = _value(line, i, file, number)
            out.append((key, value, start + 1))
        else:
            out.append((key, "", start + 1))
    return out


def _value(line: str, open_at: int, file: str, number: int) -> tuple[str, int]:
    """The value after the parenthesis at ``open_at``: nested parentheses balance, quotes hide them.

    runmqsc prints values unquoted, so an apostrophe may stand alone (``DESCR(Bob's topic)``): when
    quotes do not pair up, the value is read again with every character plain."""
    found = _closing(line, open_at, quotes=True)
    if found is None:
        found = _closing(line, open_at, quotes=False)
    if found is None:
        raise _fail(
            "value with an unbalanced parenthesis: no closing ')' on this line", file, number, open_at + 1
        )
    return _unquote(line[open_at + 1 : found].strip()), found + 1


def _closing(line: str, open_at: int, *, quotes: bool) -> int | None:
    """Index of the parenthesis closing the one at ``open_at``, or None."""
    depth, i, n = 1, open_at + 1, len(line)
    quoted = False
    while i < n:
        ch = line[i]
        if quoted:
            if ch == "'":
                if i + 1 < n and line[i + 1] == "'":
                    i += 2
                    continue
                quoted = False
        elif ch == "'" and quotes:
            quoted = True
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return None


def _unquote(value: str) -> str:
    """``'it''s'`` -> ``it's``; a value that merely begins and ends with quotes (a selector) is kept."""
    if len(value) >= 2 and value[0] == "'" and value[-1] == "'":
        inner = value[1:-1]
        if "'" not in inner.replace("''", ""):
            return inner.replace("''", "'")
    return value


def _timestamp(text: str, file: str, line: int, column: int) -> datetime:
    try:
        when = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise _fail(f"{text!r} is not an ISO 8601 time", file, line, column) from None
    if when.tzinfo is None:
        from datetime import UTC

        when = when.replace(tzinfo=UTC)
    return when
