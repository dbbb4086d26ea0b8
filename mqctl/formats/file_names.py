"""Which files a path names, and which queue manager each applies to: ``NAME=PATH``, folders of MQSC
files (one per queue manager, or a folder per queue manager), dmpmqcfg headers and file names.

Reading the users' paths, not a use case: ``import mqsc``, ``validate --file``/``diff`` (``file_model``)
and Kubernetes YAML (``kube``) name their files the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from mqctl.domain.errors import InputError
from mqctl.domain.names import check_mq_name
from mqctl.formats.walk import files_under

MQSC_SUFFIXES = {".mqsc", ".mqs", ".txt", ".dmp", ".in"}
MAYBE_PROSE = ".txt"
"""The MQSC suffix a folder's prose has too (a config repository's ``README.txt``): in a folder, such a
file is MQSC only when it looks like it (``looks_like_mqsc``); given by name, it is MQSC."""
PROSE_SKIPPED = (
    "skipped: a .txt file of a folder is read as MQSC only when it looks like MQSC (name the file to read it)"
)
"""What is said, after the file's path, of each ``.txt`` file a folder walk leaves out (never silently)."""
SNIFFED_BYTES = 64 * 1024
"""The head of such a file that is judged: its first commands say what it is (a dump may be 100 MB)."""


@dataclass(frozen=True)
class MqscFile:
    """One MQSC file and the queue manager it applies to when the user or its folder names it.

    ``qmgr`` is None when the file names it itself (a dmpmqcfg header, else the file name); ``named``
    says the user wrote ``NAME=PATH`` (then even an empty file creates the queue manager)."""

    path: Path
    qmgr: str | None = None
    named: bool = False


def named_path(text: str | Path, option: str = "--file") -> tuple[str | None, Path]:
    """``NAME=PATH`` (the queue manager or server named explicitly) or a bare ``PATH``.

    A path that exists as written is a path, even with ``=`` in it; otherwise the text before the first
    ``=`` is the name, checked as an MQ name."""
    raw = str(text)
    name, sep, rest = raw.partition("=")
    if not sep or not name or not rest or "/" in name or Path(raw).exists():
        return None, Path(raw)
    try:
        check_mq_name(name, "qmgr")
    except InputError as exc:
        raise InputError(
            f"{exc.message} (in NAME=PATH, {name!r} names the queue manager)", attribute=option
        ) from None
    return name, Path(rest)


def mqsc_files(
    paths: Iterable[Path | str | MqscFile],
    *,
    skipped: Callable[[Path], None] | None = None,
    encoding: str | None = None,
) -> list[MqscFile]:
    """Files named, and the MQSC files of folders named, in name order (templates are skipped).

    With ``skipped``, a folder's ``.txt`` file that does not look like MQSC (read in ``encoding``) is
    left out and given to ``skipped``, for the caller to name it; without, every one is read as MQSC (an
    error then names one that is not: nothing is left out unsaid).

    ``QM1=PATH`` applies PATH (a file, or every MQSC file of a folder) to QM1. In a folder named, a file
    whose name is no queue manager name, in a sub-folder whose name is one, applies to that queue
    manager, as the MQ container applies every ``/etc/mqm/*.mqsc`` to its one queue manager:
    ``mq/QM1/10-dev.mqsc``, ``mq/QM1/20-config.mqsc`` (``qmgr_for_file``).
    """
    found: list[MqscFile] = []
    for item in paths:
        if isinstance(item, MqscFile):
            found.append(item)
            continue
        qmgr, path = named_path(item)
        if path.is_dir():
            for p in files_under(path):
                suffix = p.suffix.lower()
                if suffix not in MQSC_SUFFIXES:
                    continue
                if skipped is not None and suffix == MAYBE_PROSE and not looks_like_mqsc(p, encoding):
                    skipped(p)
                    continue
                found.append(MqscFile(p, qmgr or _folder_qmgr(path, p), qmgr is not None))
        elif path.is_file():
            found.append(MqscFile(path, qmgr, qmgr is not None))
        else:
            raise InputError("no such file or folder", file=str(path))
    return sorted(found, key=lambda f: (f.path.name, str(f.path)))


def _folder_qmgr(root: Path, path: Path) -> str | None:
    """The queue manager of a file in a sub-folder of ``root`` named after one (a folder per queue manager)."""
    if path.parent == root:
        return None
    try:
        check_mq_name(path.parent.name, "qmgr")
    except InputError:
        return None
    return path.parent.name


def has_commands(text: str) -> bool:
    """Whether an MQSC text holds a command: not only blank lines and ``*`` comments."""
    return any(line.strip() and not line.lstrip().startswith("*") for line in text.splitlines())


def looks_like_mqsc(path: Path, encoding: str | None = None) -> bool:
    """Whether the file at ``path`` may be MQSC: its first command is one (``sniff.looks_like``), or it
    holds none (blank, ``*`` comments: the import says it makes nothing of it). A file that cannot be
    read counts as MQSC, for the import to name what is wrong; one that does not decode is judged by what
    decodes (a README.txt in Latin-1 is still prose)."""
    from mqctl.formats import sniff
    from mqctl.formats.text_io import decode_text

    try:
        with path.open("rb") as file:
            data = file.read(SNIFFED_BYTES)
        try:
            text = decode_text(data, encoding, file=str(path))
        except InputError:  # a cut character at the end, or not the encoding's: judged all the same
            text = data.decode(encoding or "utf-8", "replace")
    except (OSError, LookupError):
        return True
    return not has_commands(text) or sniff.looks_like(text) == sniff.MQSC


def qmgr_for_file(path: Path, text: str, given: str | None = None, *, named: bool = False) -> str:
    """The queue manager the user named (``NAME=PATH``), else the dump header's, else the file name,
    else (a file name that is no queue manager name, as ``10-dev.mqsc``) the one of its folder.

    The file name wins over the folder so that a folder of per-queue-manager files grouped by cluster
    (``mqsc/CL01/QM1.mqsc``) keeps meaning what it always meant."""
    from mqctl.formats.mqsc import dump_header_qmgr

    if given is not None and named:
        return given
    header = dump_header_qmgr(text, file=str(path))
    if header is not None:
        return header
    name = path.stem
    try:
        check_mq_name(name, "qmgr")
    except InputError as exc:
        if given is not None:
            return given
        raise InputError(
            f"{exc.message}: name its queue manager with --file QM1={path} (import mqsc QM1={path}), "
            f"put it in a folder named after its queue manager ({path.parent / 'QM1' / path.name}), "
            "name the file after its queue manager, or give a dmpmqcfg header",
            file=str(path),
        ) from None
    return name
