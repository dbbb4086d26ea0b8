"""Writing exports: inside the folder asked for, readable by the owner only unless told otherwise.

A file name comes from the model (a queue manager or server name): whatever it holds, the resolved path
must stay inside ``--out``. Folders are created 0700 and files 0600 by default, as they hold a whole
topology (``--mode`` widens that, e.g. ``644``).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from mqctl.domain.errors import InputError

DEFAULT_MODE = 0o600


def parse_mode(text: str | None) -> int:
    """``--mode 644`` (octal, as chmod takes it)."""
    if text is None:
        return DEFAULT_MODE
    try:
        mode = int(text, 8)
    except ValueError:
        raise InputError(
            f"{text!r} is not an octal file mode such as 600 or 644", attribute="--mode"
        ) from None
    if not 0 <= mode <= 0o777:
        raise InputError(f"{text!r} is not a file mode (000-777)", attribute="--mode")
    return mode


def folder_mode(file_mode: int) -> int:
    """The folder mode that goes with a file mode: whoever may read the files may enter the folder."""
    mode = file_mode | 0o700
    for read, enter in ((0o040, 0o010), (0o004, 0o001)):
        if file_mode & read:
            mode |= enter
    return mode


def prepare_folder(out: Path, mode: int = DEFAULT_MODE) -> Path:
    """``out`` as a folder (created if need be); an existing file there is bad input."""
    if out.exists() and not out.is_dir():
        raise InputError("is a file, not a folder", attribute="--out", obj=str(out))
    try:
        out.mkdir(parents=True, exist_ok=True, mode=folder_mode(mode))
    except OSError as exc:
        raise InputError(
            f"cannot create the folder: {exc.strerror or exc}", obj=str(out), attribute="--out"
        ) from None
    return out.resolve()


def write_files(out: Path, files: Mapping[str, str | bytes], *, mode: int = DEFAULT_MODE) -> list[Path]:
    """Write ``relative name -> text`` (UTF-8) or bytes under ``out``; a name that would leave ``out`` is
    refused."""
    root = prepare_folder(out, mode)
    targets: list[tuple[Path, str | bytes]] = []
    for name, text in files.items():
        target = (root / name).resolve()
        if root not in target.parents:
            raise InputError(f"would be written outside {out}", obj=name, attribute="--out")
        targets.append((target, text))
    written = []
    for target, text in targets:
        target.parent.mkdir(parents=True, exist_ok=True, mode=folder_mode(mode))
        try:
            fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
        except OSError as exc:
            raise InputError(f"cannot write: {exc.strerror or exc}", obj=str(target)) from None
        with os.fdopen(fd, "wb") as handle:
            handle.write(text.encode("utf-8") if isinstance(text, str) else text)
        os.chmod(target, mode)
        written.append(target)
    return written
