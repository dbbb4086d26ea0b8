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

What the readers share (``runmqsc``, ``rest``, ``ems``) is public here, so that each says it once:
``fail``, ``check_qmgr``, ``capture_time``, ``REQUIRED``, the line patterns, and runmqsc's block steps.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime

from mqctl.domain.errors import InputError, clip
from mqctl.formats.display.commands import CAPTURE_COMMANDS

__all__ = ["Block", "Capture", "read_capture", "read_captures"]

BANNER = re.compile(r"^Starting MQSC for queue manager (\S+)\.\s*$")
ECHO = re.compile(r"^\s*(\d+)\s:\s?(.*)$")
ECHO_MORE = re.compile(r"^\s+:\s?(.*)$")
MESSAGE = re.compile(r"^(AMQ\d{4,5})([A-Z])?:\s*(.*)$")
FOOTER = re.compile(r"^\s*(\d+|One) MQSC commands? read\.\s*$")
CAPTURED = re.compile(r"^#\s*captured(?:[ _]at)?\s*:?\s*(\S+)\s*$", re.IGNORECASE)
"""A comment line a capture script may add (``# captured 2026-11-26T03:00:00Z``): the capture time."""

KINDS = tuple(c.kind for c in CAPTURE_COMMANDS)
"""The blocks read: those of the capture's DISPLAY commands, one list (``OTHER`` and ``FAILED`` are
counted only)."""

_VERBS = {
    "SUB": "SUB",
    "SBSTATUS": "SBSTATUS",
    "TOPIC": "TOPIC",
    "TCLUSTER": "TCLUSTER",
    "QMGR": "QMGR",
    "PUBSUB": "PUBSUB",
    "CHSTATUS": "CHSTATUS",
    "CLUSQMGR": "CLUSQMGR",
    "TPSTATUS": "TPSTATUS",
    "TPS": "TPSTATUS",
    "CHS": "CHSTATUS",
}
_MESSAGES = {
    "AMQ8096": "SUB",
    "AMQ8099": "SBSTATUS",
    "AMQ8633": "TOPIC",
    "AMQ8408": "QMGR",
    "AMQ8723": "PUBSUB",
    "AMQ8417": "CHSTATUS",
    "AMQ8441": "CLUSQMGR",
    "AMQ8754": "TPSTATUS",
}
PROXIES_SHOWN = re.compile(r"SUBTYPE\s*\(\s*(ALL|PROXY)\s*\)", re.IGNORECASE)
"""DISPLAY SUB shows proxy subscriptions only when asked for them."""
_KEYWORD = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
_V = r"(?:[^()'\n]++|'[^'\n]*+(?:''[^'\n]*+)*+')*+"
"""A plain value: runs of characters but parentheses and quotes, and quoted strings (which may hold any)."""
_PLAIN_LINE = re.compile(rf"(?:[ \t]*+[A-Za-z][A-Za-z0-9_]*+(?:\({_V}\))?+)*+[ \t]*+")
_PLAIN_BLOCK = re.compile(rf"(?:\s*+[A-Za-z][A-Za-z0-9_]*+(?:\({_V}\))?+)*+\s*+")
_PLAIN_ITEM = re.compile(rf"([A-Za-z][A-Za-z0-9_]*+)(?:\([ \t]*+({_V})\))?+")
"""Items whose values hold no parenthesis (but in quotes) nor line end: the common case, read by regex."""
REQUIRED = {
    "SUB": ("SUB", "TOPICSTR"),
    "TOPIC": ("TOPIC", "TOPICSTR"),
    "TCLUSTER": ("TOPIC", "TOPICSTR", "CLUSTER"),
    "QMGR": ("QMNAME",),
    "PUBSUB": ("QMNAME", "TYPE", "STATUS"),
    "CHSTATUS": ("CHANNEL", "STATUS"),
    "CLUSQMGR": ("CLUSQMGR", "CLUSTER"),
    "SBSTATUS": ("SUB",),
    "TPSTATUS": ("TOPICSTR",),
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
    """What is not read: commands by name (``DISPLAY QLOCAL``), once each, failed ones' messages
    (``AMQ8147E``)."""
    ran: Counter[str] = field(default_factory=Counter)
    """Every command the output answers, by name (``DISPLAY SUB``, ``DEFINE QLOCAL``)."""
    skipped: int = 0
    """Lines outside the runs of runmqsc (shell prompts, ``dspmqver``, headings): not read."""

    def saw(self, kind: str) -> None:
        if kind not in self.commands:
            self.commands.append(kind)


def read_capture(text: str, *, file: str, qmgr: str | None = None) -> Capture:
    """The one capture ``text`` holds (``read_captures``); a file of several queue managers is refused."""
    found = read_captures(text, file=file, qmgr=qmgr)
    if len(found) > 1:
        line, column = found[1].qmgr_at
        raise fail(f"holds captures of {len(found)} queue managers", file, line, column)
    return found[0]


def read_captures(text: str, *, file: str, qmgr: str | None = None) -> list[Capture]:
    """The captures ``text`` holds, one per queue manager (runmqsc runs of several queue managers in one
    file are several captures); ``qmgr`` (``--qmgr``) when the file names none, checked when it does.
    What holds no answer to a DISPLAY read is refused: it is not a capture (docs/observed.md)."""
    if _JSON_START.match(text):
        from mqctl.formats.display.rest import read_json

        found = [read_json(text, file=file, qmgr=qmgr)]
    else:
        from mqctl.formats.display.ems import is_tibemsadmin, read_tibemsadmin

        if is_tibemsadmin(text):
            found = [read_tibemsadmin(text, file=file, qmgr=qmgr)]
        else:
            from mqctl.formats.display.runmqsc import read_runmqsc

            found = read_runmqsc(text, file=file, qmgr=qmgr)
    for capture in found:
        if not capture.commands:
            line, column = capture.qmgr_at
            raise fail(_holds(capture) + ": not a capture, nothing imported", file, line, column)
    return found


_JSON_START = re.compile(r"\A\s*(?:\{|\[\s*(?:[\[{\]\"]|\Z))")
"""A JSON document's start: ``{``, or ``[`` before an object, a list, a string or its end. A shell prompt
(``[mqm@host dir]$ runmqsc QM1``) opening a terminal log is not one."""


NOT_A_CAPTURE = (
    "not a capture: import display reads runmqsc output of DISPLAY commands ('Starting MQSC for queue "
    "manager QM1.' then each command's answer), MQ REST runCommandJSON answers (JSON with a "
    "commandResponse list) and tibemsadmin sessions (prompt lines 'tcp://host:7222> show routes' or "
    "-script runs' 'Command: show routes' lines)"
)


def _holds(capture: Capture) -> str:
    """What a capture without any DISPLAY answer read holds, in a few words."""
    total = sum(capture.ran.values())
    if not total:
        return "no DISPLAY answer" if not capture.others else "no answer to a DISPLAY that is read"
    displays = sorted(n for n in capture.ran if n.startswith("DISPLAY"))
    noun = "command" if total == 1 else "commands"
    if not displays:
        return f"{total} {noun}, none of them DISPLAY"
    return (
        f"{total} {noun}, none of them a DISPLAY that is read ({', '.join(displays[:3])}"
        f"{', ...' if len(displays) > 3 else ''})"
    )


# --- runmqsc ----------------------------------------------------------------------------------------


def fail(message: str, file: str, line: int, column: int = 1) -> InputError:
    """The one error every capture reader raises: the message at its file, line and column."""
    return InputError(message, file=file, line=line, column=column)


def check_qmgr(named: str, given: str | None, file: str, line: int, column: int) -> str:
    """``named``, the queue manager the capture names, unless ``--qmgr`` (``given``) names another."""
    if given is not None and given != named:
        raise fail(f"output of queue manager {named}, not of {given} (--qmgr)", file, line, column)
    return named


def kind_of_command(command: str) -> str:
    """``DISPLAY SUB(*) ...`` -> ``SUB``; a command that is not a DISPLAY of a kind read -> ``OTHER``."""
    words = re.split(r"[\s(]+", command.strip(), maxsplit=2)
    if len(words) < 2 or not words[0].upper().startswith("DIS"):
        return "OTHER"
    kind = _VERBS.get(words[1].upper(), "OTHER")
    if kind == "TOPIC" and re.search(r"TYPE\s*\(\s*CLUSTER\s*\)", command, re.IGNORECASE):
        return "TCLUSTER"
    if kind == "TPSTATUS" and re.search(r"TYPE\s*\(\s*(SUB|PUB)\s*\)", command, re.IGNORECASE):
        return "OTHER"  # the subscription and publisher status of a topic node: not read
    return kind


def _block_kind(command_kind: str, message_id: str, first: str, attrs: dict[str, str]) -> str:
    kind = command_kind if command_kind != "OTHER" else _MESSAGES.get(message_id, "OTHER")
    if kind in ("TOPIC", "TCLUSTER"):
        return "TCLUSTER" if attrs.get("TYPE", "").upper() == "CLUSTER" else "TOPIC"
    if kind == "OTHER" and first == "SUB" and "TOPICSTR" in attrs:
        return "SUB"
    return kind


def command_name(command: str) -> str:
    """``dis ql(*) all`` -> ``DISPLAY QL``: the verb (in full) and the object's keyword."""
    words = re.split(r"[\s(]+", command.strip(), maxsplit=2)
    verb = _VERB_NAMES.get(words[0].upper(), words[0].upper()) if words and words[0] else ""
    return " ".join([verb, *(w.upper() for w in words[1:2])]).strip() or "command"


_VERB_NAMES = {"DIS": "DISPLAY", "DEF": "DEFINE", "ALT": "ALTER", "DEL": "DELETE", "STA": "START"}


def finish_block(capture: Capture, block: Block, first: str, command_kind: str, file: str) -> None:
    """The block into the capture; one of a command not read is left out (the command is counted), and
    one that no echoed command explains (``runmqsc -e``) is counted by its message id."""
    message_id = block.message.split(":", 1)[0][:7]
    kind = _block_kind(command_kind, message_id, first, block.attrs)
    if kind == "OTHER" or not block.attrs:
        if not capture.ran and block.attrs:
            capture.others[block.message.split(":", 1)[0] or "answer without a command"] += 1
        return
    block.kind = kind
    for keyword in REQUIRED[kind]:
        if keyword not in block.attrs:
            line = block.last_line
            raise fail(f"truncated block: {block.message or kind} shows no {keyword}(...)", file, line, 1)
    capture.saw(kind)
    if kind == "SUB" and block.attrs.get("SUBTYPE", "").upper() == "PROXY":
        capture.saw("PROXY")
    capture.blocks.append(block)


def read_items(block: Block, file: str) -> str:
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
            raise fail(f"unexpected {ch!r}: expected KEYWORD(value)", file, number, i + 1)
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
        raise fail(
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


def capture_time(text: str, file: str, line: int, column: int) -> datetime:
    """An ISO 8601 time, UTC when it gives no offset; one that UTC cannot hold is refused."""
    from datetime import UTC

    try:
        when = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise fail(f"{clip(text)!r} is not an ISO 8601 time", file, line, column) from None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    try:
        when.astimezone(UTC)
    except OverflowError:
        raise fail(f"capture time {clip(text)!r} is out of range", file, line, column) from None
    return when
