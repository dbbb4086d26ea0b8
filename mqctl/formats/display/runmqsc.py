"""runmqsc output read run by run: every run of a file, whatever lies between them.

A saved capture is often more than one run of runmqsc: ``{ runmqsc QM1 < a.mqsc; runmqsc QM1 < b.mqsc; }
> QM1.txt``, and IBM's must-gather scripts run one per family of DISPLAY commands with ``dspmqver``,
``echo`` and headings between them. Each run opens with its banner (``Starting MQSC for queue manager
QM1.``) and closes with its counts (``8 MQSC commands read.``); lines outside runs are skipped and
counted. Inside a run, commands come echoed with their number (``     1 : DISPLAY QMGR``) or, in an
interactive transcript, as typed (``dis qmgr`` at the start of a line); answers are an AMQ message line
and ``KEYWORD(value)`` items, indented as runmqsc prints them or not (copied from documentation).

The text is cut into tokens first (``_tokens``): runs of indented item lines in one piece (the bulk of a
large capture, never looked at line by line), every other line alone. ``_Runs`` then follows the runs.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import datetime

from mqctl.formats.display.reader import (
    BANNER,
    CAPTURED,
    ECHO,
    ECHO_MORE,
    FOOTER,
    MESSAGE,
    NOT_A_CAPTURE,
    PROXIES_SHOWN,
    Block,
    Capture,
    capture_time,
    check_qmgr,
    command_name,
    fail,
    finish_block,
    kind_of_command,
    read_items,
)

__all__ = ["read_runmqsc"]

_STRUCTURE = re.compile(r"^(?![ \t]+[A-Za-z]).*$", re.M)
"""Every line that is not an indented line of items: what lies between two of them is items."""
TYPED = re.compile(
    r"^(?:DIS(?:PLAY)?|DEF(?:INE)?|ALT(?:ER)?|DEL(?:ETE)?|SET|REFRESH|STA(?:RT)?|STOP|CLEAR|PING|RESET"
    r"|RESOLVE|RESUME|SUSPEND|RECOVER|BACKUP|ARCHIVE|PURGE|MOVE|END|QUIT|EXIT)(?=[ \t]|$)",
    re.IGNORECASE,
)
"""A command as typed in an interactive session (no echo): a verb at the start of the line."""
_BANNERS = re.compile(r"^Starting MQSC for queue manager \S+\.\s*$", re.M)
_ITEM_LINE = re.compile(r"^[A-Za-z][A-Za-z0-9_]*\(")
"""An item line printed without indentation (copied from documentation): it starts ``KEYWORD(``."""
_TRAILER = re.compile(
    r"^(?:\d+ \(C\) Copyright|5724-|No commands have a syntax error\.|All valid MQSC commands were "
    r"processed\.|(?:One|\d+) (?:valid )?(?:MQSC )?commands? (?:could not be processed|ha(?:s|ve) a "
    r"syntax error)\.)"
)
"""runmqsc's own lines around a run (copyright, closing summary): neither read nor skipped."""
_LOCALIZED_COUNTS = re.compile(r"^(?=.*\bMQSC\b)(?=.*(?<![\w.])\d+(?![\w.]))\S.*$")
"""The counts in another language (``MQSC コマンドを 1 つ読み取りました。``, ``1 MQSC-Befehl gelesen.``): a
line naming MQSC with a number standing alone. runmqsc prints its own lines in the system's language."""
_FAILURES = ("AMQ8405", "AMQ8427")
"""Informational messages that follow a syntax error (the command quoted, the valid syntax)."""


def _tokens(text: str) -> Iterator[tuple[int, str, bool]]:
    """(line number, text, is a run of indented item lines) in order."""
    number, counted, prev_end = 1, 0, -1
    for found in _STRUCTURE.finditer(text):
        start = found.start()
        if start > prev_end + 1:
            items = text[prev_end + 1 : start - 1]
            yield number + text.count("\n", counted, prev_end + 1), items, True
        number += text.count("\n", counted, start)
        counted = start
        prev_end = found.end()
        yield number, found.group(0), False
    if prev_end + 1 < len(text):
        items = text[prev_end + 1 :].rstrip("\n")
        if items:
            yield number + text.count("\n", counted, prev_end + 1), items, True


def read_runmqsc(text: str, *, file: str, qmgr: str | None) -> list[Capture]:
    """Every run of ``text``, one capture per queue manager (in the order first seen)."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    runs = _Runs(file, qmgr, bannered="Starting MQSC" in text and _BANNERS.search(text) is not None)
    for number, chunk, items in _tokens(text):
        if items:
            runs.items(number, chunk)
        else:
            runs.line(number, chunk)
    return runs.finish(text)


class _Runs:
    """The state of reading: the run open (if any), its block and command, the captures made."""

    def __init__(self, file: str, qmgr: str | None, *, bannered: bool) -> None:
        self.file, self.qmgr, self.bannered = file, qmgr, bannered
        self.captures: dict[str, Capture] = {}
        self.run: Capture | None = None
        self.run_used = False  # the run open answered a command (a run without its counts is cut short)
        self.bannered_run = False  # the run open began with its banner (else: --qmgr, a fragment)
        self.interactive = False  # a command was typed in the run open (a terminal log of a session)
        self.block: Block | None = None
        self.command_kind = "OTHER"
        self.echoed = ""
        self.typed = ""  # a command typed (interactive), whose echo may follow
        self.continued = False  # the command typed goes on on the next line
        self.last_capture: Capture | None = None
        self.failed = False  # inside a failed command's messages
        self.skipped = 0
        self.last = 0  # the last line of the run open that was not blank
        self.captured_at: datetime | None = None
        self.mqsc_like = False  # lines that look like an MQSC script (for the refusal's hint)

    # --- tokens ---------------------------------------------------------------------------------------

    def items(self, first: int, chunk: str) -> None:
        if self.run is None:
            self.skipped += chunk.count("\n") + 1
            return
        self.last = first + chunk.count("\n")
        if self.continued:  # a typed command's continuation, indented
            self.continued = chunk.rstrip().endswith(("+", "-"))
            return
        if self.block is not None:
            _append(self.block, first, chunk)
        elif not self.failed:
            raise fail(
                "expected an AMQ message line, an echoed command or KEYWORD(value) items", self.file, first
            )

    def line(self, number: int, line: str) -> None:
        if not line.strip():
            return
        if self.run is None:
            self._outside(number, line)
        else:
            self._inside(number, line)

    def _outside(self, number: int, line: str) -> None:
        stamp = CAPTURED.match(line)
        if stamp:
            self.captured_at = capture_time(stamp.group(1), self.file, number, line.index(stamp.group(1)) + 1)
            return
        banner = BANNER.match(line)
        if banner:
            name = check_qmgr(banner.group(1), self.qmgr, self.file, number, banner.start(1) + 1)
            self._open(name, (number, banner.start(1) + 1), bannered=True)
            return
        if not self.bannered and (ECHO.match(line) or MESSAGE.match(line)):
            if self.qmgr is None:
                raise fail(
                    "names no queue manager (no 'Starting MQSC for queue manager' line): give --qmgr",
                    self.file,
                    number,
                )
            self._open(self.qmgr, (number, 1), bannered=False)
            self._inside(number, line)
            return
        if _TRAILER.match(line):
            return
        if TYPED.match(line) or line.startswith("*"):
            self.mqsc_like = True
        self.skipped += 1

    def _inside(self, number: int, line: str) -> None:
        run = self.run
        assert run is not None
        if BANNER.match(line):
            self._cut_short(self.last, None)
            self._outside(number, line)
            return
        if _TRAILER.match(line):
            return  # runmqsc's copyright line: the position of a run cut short stays before it
        self.last = number
        if self.continued:  # a typed command's continuation lines (after '+' or '-')
            self.continued = line.rstrip().endswith(("+", "-"))
            return
        if line[0] == "A" and self._message(number, line, run):
            return
        if FOOTER.match(line):
            self._close_block()
            self._end_run()
            return
        more = ECHO_MORE.match(line)
        if more and self.block is None:  # the continuation of an echoed command
            self.echoed += " " + more.group(1)
            if self.command_kind == "SUB" and PROXIES_SHOWN.search(self.echoed):
                run.saw("PROXY")
            return
        echo = ECHO.match(line)
        if echo:
            self._command(echo.group(2), echoed=True)
            return
        if TYPED.match(line) and not (self.failed and _quoted(line, self.echoed)):
            self._command(line, echoed=False)
            self.continued = line.rstrip().endswith(("+", "-"))
            return
        if self.block is not None and _ITEM_LINE.match(line):
            _append(self.block, number, line)  # items printed without indentation
            return
        if _LOCALIZED_COUNTS.match(line):
            self._close_block()
            self._end_run()
            return
        if self.failed or CAPTURED.match(line):
            return  # a failed command's text, a comment of the capture script, runmqsc's copyright
        if not self.run_used and self.block is None:
            run.skipped += 1  # before the run's first command: another program's output (dspmqver)
            return
        raise fail(
            "expected an AMQ message line, an echoed command or KEYWORD(value) items (or the run is cut "
            "short: no 'N MQSC commands read.' line before this one)",
            self.file,
            number,
        )

    def _message(self, number: int, line: str, run: Capture) -> bool:
        message = MESSAGE.match(line)
        if message is None:
            return False
        self._close_block()
        severity = message.group(2) or "I"
        self.failed = severity != "I" or message.group(1) in _FAILURES
        if self.failed:  # a failed command's message (and any text it quotes): counted, not read
            if severity != "I":
                run.others[f"{message.group(1)}{severity}"] += 1
            return True
        self.block = Block("", {}, number, 1, line.strip())
        self.run_used = True
        return True

    def _command(self, text: str, *, echoed: bool) -> None:
        """A command, echoed or typed; the echo of the command just typed is the same command."""
        run = self.run
        assert run is not None
        self._close_block()
        self.failed = False
        self.run_used = True
        same = (
            echoed and self.typed and " ".join(self.typed.split()).upper() == " ".join(text.split()).upper()
        )
        self.typed = "" if echoed else text
        self.interactive = self.interactive or not echoed
        if same:
            return
        self.echoed = text
        name = command_name(text)
        if name in ("END", "QUIT", "EXIT"):
            return  # runmqsc's own end of input, in any of its spellings
        run.ran[name] += 1
        self.command_kind = kind_of_command(text)
        if self.command_kind == "OTHER":
            run.others[name] += 1
        else:
            run.saw(self.command_kind)
            if self.command_kind == "SUB" and PROXIES_SHOWN.search(text):
                run.saw("PROXY")

    # --- runs -----------------------------------------------------------------------------------------

    def _open(self, name: str, at: tuple[int, int], *, bannered: bool) -> None:
        capture = self.captures.get(name)
        if capture is None:
            capture = self.captures[name] = Capture(self.file, name, at, self.captured_at)
        elif self.captured_at is not None and (
            capture.captured_at is None or self.captured_at > capture.captured_at
        ):
            capture.captured_at = self.captured_at
        capture.skipped += self.skipped
        self.skipped = 0
        self.run, self.run_used, self.last, self.last_capture = capture, False, at[0], capture
        self.bannered_run, self.interactive = bannered, False
        self.command_kind, self.echoed, self.typed, self.failed = "OTHER", "", "", False
        self.continued = False

    def _close_block(self) -> None:
        if self.block is not None and self.run is not None:
            first_key = read_items(self.block, self.file)
            finish_block(self.run, self.block, first_key, self.command_kind, self.file)
        self.block = None

    def _end_run(self) -> None:
        self.run, self.block = None, None

    def _cut_short(self, line: int, column: int | None) -> None:
        if self.run_used and self._needs_counts():
            raise fail(
                "the output is cut short: no 'N MQSC commands read.' line at the end of this run "
                "(truncated block?)",
                self.file,
                line,
                column or 1,
            )
        self._close_block()
        self._end_run()

    def _needs_counts(self) -> bool:
        """A run fed to runmqsc always ends with its counts: without them it was cut short. A terminal log
        of an interactive session ends where the administrator stopped copying (runmqsc prints the counts
        only after ``end``), and a fragment without banner (``--qmgr``) never had any."""
        return self.bannered_run and not self.interactive

    def finish(self, text: str) -> list[Capture]:
        if self.run is not None:
            lines = text.rstrip("\n").split("\n")
            end = len(lines)
            if self.run_used and self._needs_counts():
                self._cut_short(end, len(lines[-1].rstrip()) + 1)
            self._close_block()
            self._end_run()
        if not self.captures:
            hint = ""
            if self.mqsc_like:
                hint = " (this looks like an MQSC script: run it with runmqsc, or read it with import mqsc)"
            empty = ": it is empty" if not text.strip() else ""
            raise fail(NOT_A_CAPTURE + empty + hint, self.file, 1)
        if self.last_capture is not None:
            self.last_capture.skipped += self.skipped
        return list(self.captures.values())


def _quoted(line: str, command: str) -> bool:
    """The line quotes (part of) the command that failed: runmqsc repeats it after a syntax error."""
    words = " ".join(line.split()).upper()
    return bool(words) and words in " ".join(command.split()).upper()


def _append(block: Block, first: int, chunk: str) -> None:
    """Item lines into the block, its line numbers kept (blank lines between them are kept blank)."""
    if not block.text:
        block.text, block.first = chunk, first
        return
    gap = first - block.last_line - 1
    block.text += "\n" * (gap + 1) + chunk
