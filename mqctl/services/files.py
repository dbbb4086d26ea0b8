"""Writing exports: inside the folder asked for, readable by the owner only unless told otherwise.

A file name comes from the model (a queue manager or server name): whatever it holds, the resolved path
must stay inside ``--out``. Folders are created 0700 and files 0600 by default, as they hold a whole
topology (``--mode`` widens that, e.g. ``644``).
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterable, Mapping
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


def write_files(
    out: Path,
    files: Mapping[str, str | bytes],
    *,
    mode: int = DEFAULT_MODE,
    last: str | None = None,
    obsolete: Iterable[str] = (),
) -> list[Path]:
    """Write ``relative name -> text`` (UTF-8) or bytes under ``out``, all or nothing: a name that would
    leave ``out`` is refused before anything is touched, each file is written beside its place and
    renamed into it once every file is written, so a full disk or a refusal leaves the folder as it was.

    ``last`` (a snapshot's manifest) is removed before the others are put in place and put in place last,
    so a folder never shows one manifest over another's files; ``obsolete`` names are removed after."""
    existed = out.is_dir()
    root = prepare_folder(out, mode)
    targets: list[tuple[Path, str | bytes]] = []
    for name, text in files.items():
        target = (root / name).resolve()
        if root not in target.parents:
            raise InputError(f"would be written outside {out}", obj=name, attribute="--out")
        targets.append((target, text))
    if last is not None:  # renamed last
        targets.sort(key=lambda pair: pair[0] == (root / last).resolve())
    created: list[Path] = [] if existed else [root]
    written: list[tuple[Path, Path]] = []
    current = root
    try:
        for current, text in targets:
            created.extend(_make_parents(current.parent, root, mode))
            written.append((_write_beside(current, text, mode), current))
    except OSError as exc:
        for temp, _ in written:
            temp.unlink(missing_ok=True)
        for folder in reversed(created):
            with contextlib.suppress(OSError):
                folder.rmdir()
        raise InputError(
            f"cannot write: {exc.strerror or exc}; nothing was written", obj=str(current)
        ) from None
    if last is not None:
        (root / last).unlink(missing_ok=True)
    for temp, target in written:
        os.replace(temp, target)
    for name in obsolete:
        path = root / name
        if name not in files and (path.is_symlink() or path.is_file()):
            path.unlink()
    return [target for _, target in written]


def _make_parents(folder: Path, root: Path, mode: int) -> list[Path]:
    """Create ``folder`` (inside ``root``) and its missing parents; returns those created, outermost
    first."""
    missing = [p for p in [folder, *folder.parents] if root in p.parents and not p.exists()]
    for path in reversed(missing):
        path.mkdir(mode=folder_mode(mode))
    return list(reversed(missing))


def _write_beside(target: Path, text: str | bytes, mode: int) -> Path:
    """``text`` in a new file beside ``target`` (same folder, so the rename into place is atomic)."""
    fd, name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    temp = Path(name)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(text.encode("utf-8") if isinstance(text, str) else text)
        os.chmod(temp, mode)
    except OSError:
        temp.unlink(missing_ok=True)
        raise
    return temp
