"""`mqctl runmqsc QMGR` on a terminal: the interactive prompt, driven through a pseudo-terminal as an
administrator types (the real entry point in a child process whose standard streams are a pty)."""

from __future__ import annotations

import os
import pty
import re
import select
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import run_cli

_ESCAPES = re.compile(rb"\x1b\[[0-9;?]*[A-Za-z]|\x1b[=>]")
WAIT = 120
"""Seconds to wait for the program to answer: a guard against a hung test, not a timing assert."""


class Terminal:
    """A child process on a pty: ``type`` keys, ``expect`` a pattern in what it has shown since."""

    def __init__(self, args: list[str]) -> None:
        master, slave = pty.openpty()
        env = {**os.environ, "TERM": "xterm", "PROMPT_TOOLKIT_NO_CPR": "1", "PYTHONDONTWRITEBYTECODE": "1"}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "mqctl", *args], stdin=slave, stdout=slave, stderr=slave, env=env
        )
        os.close(slave)
        self.fd = master
        self.raw = b""
        self.mark = 0

    @property
    def text(self) -> str:
        return _ESCAPES.sub(b"", self.raw).decode("utf-8", "replace")

    def expect(self, pattern: str) -> str:
        """Wait until ``pattern`` shows after the last ``type``; returns the text shown since."""
        deadline = time.monotonic() + WAIT
        while True:
            shown = self.text[self.mark :]
            if re.search(pattern, shown):
                return shown
            if time.monotonic() > deadline:
                raise AssertionError(f"{pattern!r} not shown; got {shown[-1500:]!r}")
            ready, _, _ = select.select([self.fd], [], [], 0.2)
            if ready:
                try:
                    self.raw += os.read(self.fd, 65536)
                except OSError:  # the child closed the pty
                    if self.proc.poll() is not None:
                        raise AssertionError(f"{pattern!r} not shown; got {shown[-1500:]!r}") from None

    def type(self, keys: str) -> None:
        self.mark = len(self.text)
        os.write(self.fd, keys.encode())

    def close(self) -> int:
        code = self.proc.wait(timeout=WAIT)
        try:
            while select.select([self.fd], [], [], 0.2)[0]:
                self.raw += os.read(self.fd, 65536)
        except OSError:
            pass
        os.close(self.fd)
        return code


@pytest.fixture
def terminal(store_url: str) -> Iterator[Terminal]:
    term = Terminal(["--db", store_url, "runmqsc", "QM1", "--create"])
    yield term
    if term.proc.poll() is None:
        term.proc.kill()
        term.proc.wait()


ENTER = "\r"
UP = "\x1b[A"
TAB = "\t"


def test_runmqsc_on_a_terminal_is_an_interactive_prompt(terminal: Terminal, store_url: str) -> None:
    t = terminal
    t.expect(r"Starting MQSC for queue manager QM1[\s\S]*QM1>")
    # a command continued with +, applied in its own transaction with runmqsc's reply
    t.type("DEFINE TOPIC(SPORT) +" + ENTER)
    t.expect(r"\n\s+:\s*$")
    t.type("TOPICSTR('/Sport')" + ENTER)
    t.expect(
        r"1 : DEFINE TOPIC\(SPORT\) \+\s+: TOPICSTR\('/Sport'\)\s+AMQ8690I: IBM MQ topic created\.[\s\S]*QM1>"
    )
    shown = run_cli(["display", "topic", "SPORT", "--qmgr", "QM1", "-o", "json"], db=store_url)
    assert shown.exit_code == 0, shown.stderr  # committed at once, while the session goes on
    # completion: a keyword, then an object name from the model
    t.type("dis top" + TAB)
    t.expect(r"dis TOPIC")
    t.type("(SP" + TAB)
    t.expect(r"SPORT")
    t.type(")" + ENTER)
    t.expect(
        r"2 : dis TOPIC\(SPORT\)\s+AMQ8633I: Display topic details\.[\s\S]*TOPICSTR\(/Sport\)[\s\S]*QM1>"
    )
    # command recall: the previous command again
    t.type(UP)
    t.expect(r"dis TOPIC\(SPORT\)")
    t.type(ENTER)
    t.expect(r"3 : dis TOPIC\(SPORT\)\s+AMQ8633I[\s\S]*QM1>")
    # a bad enumeration value is a syntax error, and changes nothing
    t.type("DEFINE TOPIC(X) TOPICSTR('/x') CLROUTE(SIDEWAYS)" + ENTER)
    t.expect(r"4 : DEFINE TOPIC\(X\)[^\n]*\s+AMQ8405I: Syntax error detected: [\s\S]*QM1>")
    t.type("end" + ENTER)
    assert t.close() == 1  # one command was not processed
    summary = t.text[t.mark :]
    assert re.search(r"4 MQSC commands read\.\s+One command has a syntax error\.\s+All valid MQSC", summary)
    topics = run_cli(["display", "topic", "*", "--qmgr", "QM1", "-o", "json"], db=store_url).json()
    assert [topic["name"] for topic in topics] == ["SPORT"]  # type: ignore[index,union-attr]


def test_a_queue_manager_that_does_not_exist_is_refused_before_the_prompt(
    store_url: str, tmp_path: Path
) -> None:
    term = Terminal(["--db", store_url, "runmqsc", "NOSUCH"])
    assert term.close() == 2
    assert "mqctl: error: qmgr NOSUCH: does not exist (give --create to define it)" in term.text


def test_completion_offers_only_the_keywords_the_verb_takes(terminal: Terminal) -> None:
    """Issue 37: after DEFINE TOPIC, DUR completes to DURSUB alone (DURABLE is DISPLAY's); after DISPLAY,
    WHE completes to WHERE."""
    t = terminal
    t.expect(r"QM1>")
    t.type("DEFINE TOPIC(X) TOPICSTR('/x') DUR" + TAB)
    t.expect(r"DURSUB")  # one keyword DEFINE takes: completed (with DURABLE offered too, only "DUR" stays)
    t.type("(YES)" + ENTER)
    t.expect(r"1 : DEFINE TOPIC\(X\) TOPICSTR\('/x'\) DURSUB\(YES\)\s+AMQ8690I[\s\S]*QM1>")
    t.type("DISPLAY TOPIC(*) WHE" + TAB)
    t.expect(r"WHERE")
    t.type("(TOPICSTR EQ '/x')" + ENTER)
    t.expect(r"2 : DISPLAY TOPIC\(\*\) WHERE\(TOPICSTR EQ '/x'\)[\s\S]*QM1>")
    t.type("end" + ENTER)
    t.close()
