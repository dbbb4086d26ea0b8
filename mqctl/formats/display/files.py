"""The capture files a user names: the files of the folders (but those that are not captures by their
name), each read (``read_captures``) and its queue manager's or server's name checked, with the time it
was taken. Everything is read and checked before the store is touched."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from mqctl.domain.errors import InputError
from mqctl.domain.names import check_ems_server_name, check_mq_name
from mqctl.formats import sniff
from mqctl.formats._located import locate
from mqctl.formats.display.ems import is_ems_capture
from mqctl.formats.display.reader import Capture, read_captures
from mqctl.formats.text_io import read_text_file
from mqctl.formats.walk import files_under

NOT_CAPTURES = frozenset(
    [
        ".md",
        ".rst",
        ".sh",
        ".bash",
        ".ksh",
        ".bat",
        ".cmd",
        ".ps1",
        ".py",
        ".mqsc",
        ".in",
        ".tst",
        ".yaml",
        ".yml",
        ".conf",
        ".ini",
        ".properties",
        ".xml",
        ".html",
        ".pdf",
        ".zip",
        ".gz",
    ]
)
"""Files of a folder that are not captures by their name (scripts, notes, configuration), skipped."""
_NOT_CAPTURE_NAMES = ("README", "LICENSE", "NOTICE", "CHANGELOG", "MAKEFILE")


def _not_a_capture_name(path: Path) -> bool:
    return path.suffix.lower() in NOT_CAPTURES or path.stem.upper() in _NOT_CAPTURE_NAMES


@dataclass
class CaptureFiles:
    """Every capture of the files named, read and checked, each with the time it was taken."""

    captures: list[tuple[Capture, datetime]]
    skipped_files: list[str]
    """Files of the folders named that are not captures by their name (README, scripts, MQSC)."""


def read_capture_files(
    paths: list[Path], *, qmgr: str | None, at: datetime | None, encoding: str | None = None
) -> CaptureFiles:
    """Every file (and every file of the folders named, but those that are not captures by their name)
    read and checked; a file named is always read."""
    out = []
    files: list[Path] = []
    skipped: list[str] = []
    for path in paths:
        if path.is_dir():
            # files_under: a link out of the folder is refused, never read
            for p in sorted(p for p in files_under(path) if not p.name.startswith(".")):
                if _not_a_capture_name(p):
                    skipped.append(str(p))
                else:
                    files.append(p)
        elif path.is_file():
            files.append(path)
        else:
            raise InputError("no such file or folder", file=str(path))
    for path in files:
        text = read_text_file(path, encoding)
        try:
            captures = read_captures(text, file=str(path), qmgr=qmgr)
        except InputError as err:
            err.message += sniff.hint(text, sniff.DISPLAY)  # an MQSC script: runmqsc or import mqsc
            raise
        for capture in captures:
            try:
                if is_ems_capture(capture):
                    check_ems_server_name(capture.qmgr)
                else:
                    check_mq_name(capture.qmgr, "qmgr")
            except InputError as err:
                line, column = capture.qmgr_at
                raise locate(err, file=capture.file, line=line, column=column) from None
            out.append((capture, _when(capture, at, path)))
    return CaptureFiles(out, skipped)


def _when(capture: Capture, at: datetime | None, path: Path) -> datetime:
    """The output's own time, else ``--at``, else the file's modification time (UTC)."""
    if capture.captured_at is not None:
        return capture.captured_at.astimezone(UTC)
    if at is not None:
        return at if at.tzinfo is not None else at.replace(tzinfo=UTC)
    try:
        return datetime.fromtimestamp(path.stat().st_mtime, UTC)
    except OSError:
        return datetime.now(UTC)
