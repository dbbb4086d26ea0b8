"""``mqctl runmqsc QMGR`` on a terminal: an interactive prompt, as runmqsc gives one.

Line editing, command recall (up and down arrows) and completion come from prompt_toolkit: MQSC verbs,
object types and each type's keywords, and after ``TOPIC(``, ``SUB(``, ``NAMELIST(``, ``CHANNEL(``,
``CLUSTER(`` the names the model holds (read again after every command). A line ending with ``+`` or
``-`` continues the command, as in a script. Each command is applied in its own transaction, all or
nothing, with runmqsc's reply; ``end`` (or end of input) leaves with runmqsc's summary. Exit code 0
when every command was processed, 1 when one was not (each command stands alone, as ``--continue``).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

import typer

from mqctl.cli.common import transaction
from mqctl.render.safe_text import error_line, safe

if TYPE_CHECKING:
    from prompt_toolkit import PromptSession
    from prompt_toolkit.completion import CompleteEvent, Completer, Completion
    from prompt_toolkit.document import Document

    from mqctl.services.file_doors import FileResult

_WORD = re.compile(r"[A-Za-z0-9._/%*]*$")
_OPENED = re.compile(r"([A-Za-z]+)\(\s*'?$")
_ECHO = re.compile(r"^( *)(\d+) : ")
NAME_KINDS = {
    "TOPIC": "TOPIC",
    "TOPICOBJ": "TOPIC",
    "SUB": "SUB",
    "SUBSCRIPTION": "SUB",
    "NAMELIST": "NAMELIST",
    "NL": "NAMELIST",
    "CLUSNL": "NAMELIST",
    "REPOSNL": "NAMELIST",
    "CHANNEL": "CHANNEL",
    "CHL": "CHANNEL",
    "CLUSTER": "CLUSTER",
    "REPOS": "CLUSTER",
}
"""``KEYWORD(`` -> the kind of name it takes."""


class _Rollback(Exception):
    """Leave the command's transaction without committing (the command was refused)."""


def _completer(names: dict[str, list[str]], pending: list[str]) -> Completer:
    """A prompt_toolkit completer over MQSC words and the model's names; ``pending`` holds the lines of
    the command typed so far (a ``+`` continuation), so a keyword on line 2 knows its noun."""
    from prompt_toolkit.completion import Completer, Completion

    from mqctl.services.runmqsc_session import WORDS, keywords_after

    class MqscCompleter(Completer):
        def get_completions(self, document: Document, complete_event: CompleteEvent) -> Iterable[Completion]:
            before = document.text_before_cursor
            word = _WORD.search(before)
            current = word.group(0) if word else ""
            head = before[: len(before) - len(current)]
            opened = _OPENED.search(head)
            if opened is not None:
                choices = names.get(NAME_KINDS.get(opened.group(1).upper(), ""), [])
            else:
                tokens = " ".join([*(line.rstrip("+-") for line in pending), head]).split()
                if not tokens:
                    choices = WORDS["verbs"]
                elif len(tokens) == 1:
                    choices = WORDS["nouns"]
                else:
                    choices = keywords_after(tokens[1], tokens[0])
            for choice in choices:
                if choice.upper().startswith(current.upper()):
                    yield Completion(choice, start_position=-len(current))

    return MqscCompleter()


def _read_command(session: PromptSession[str], qmgr: str, pending: list[str]) -> str:
    """One command: lines until one does not end with ``+`` or ``-`` (runmqsc's continuation)."""
    pending.clear()
    while True:
        line = session.prompt(f"{qmgr}> " if not pending else "      : ")
        pending.append(line)
        if not line.rstrip().endswith(("+", "-")):
            return "\n".join(pending)


def _apply(qmgr: str, text: str, *, create: bool, inserts: Mapping[str, str]) -> FileResult:
    from mqctl.services.runmqsc_session import run_command

    result: FileResult | None = None
    try:
        with transaction() as store:
            result = run_command(store, qmgr, text, inserts=inserts, create=create)
            if result.run.errors:
                raise _Rollback()
    except _Rollback:
        pass
    assert result is not None
    return result


def _names(qmgr: str, *, create: bool) -> dict[str, list[str]]:
    from mqctl.services.runmqsc_session import start_session

    with transaction() as store:
        return start_session(store, qmgr, create=create)


def _shown(result: FileResult, first: int) -> list[str]:
    """The command's echo and reply without the one-command summary, numbered in the session."""
    lines = result.run.lines
    end = max((i for i, line in enumerate(lines) if line == ":"), default=len(lines))
    return [
        _ECHO.sub(lambda m: f"{int(m.group(2)) + first - 1:>{len(m.group(0)) - 3}} : ", line, count=1)
        for line in lines[:end]
    ]


def interactive(qmgr: str, *, create: bool, inserts: Mapping[str, str]) -> None:
    """Run the prompt until ``end`` or end of input (see the module docstring)."""
    from prompt_toolkit import PromptSession
    from prompt_toolkit.history import InMemoryHistory

    from mqctl.domain.errors import InputError
    from mqctl.services.runmqsc_session import session_summary

    names = _names(qmgr, create=create)
    pending: list[str] = []
    completer = _completer(names, pending)
    session: PromptSession[str] = PromptSession(
        history=InMemoryHistory(),
        completer=completer,
        complete_while_typing=False,
    )
    typer.echo(f"Starting MQSC for queue manager {qmgr} (the mqctl model). Type `end` to leave.\n")
    runs: list[FileResult] = []
    read = 0
    while True:
        try:
            text = _read_command(session, qmgr, pending)
        except KeyboardInterrupt:
            continue  # Ctrl-C drops the command being typed, as a shell does
        except EOFError:
            break
        if text.strip().upper() == "END":
            break
        if not text.strip():
            continue
        try:
            result = _apply(qmgr, text, create=create, inserts=inserts)
        except InputError as err:
            sys.stderr.write(f"mqctl: error: {error_line(err.plain_line())}\n")
            continue
        if not result.run.read:
            continue  # a comment
        typer.echo(safe("\n".join(_shown(result, read + 1)), lines=True))
        for warning in result.run.warnings:
            sys.stderr.write(f"mqctl: warning: {error_line(warning)}\n")
        read += result.run.read
        runs.append(result)
        names.update(_names(qmgr, create=True))
    typer.echo("\n".join(session_summary(runs)))
    if any(r.run.errors for r in runs):
        raise typer.Exit(1)
