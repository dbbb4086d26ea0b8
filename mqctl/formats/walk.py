"""The files of a folder a user names, never a file outside it.

A folder may come from a pull request (``diff``'s sides in CI) or a machine in trouble (captures): a
symbolic link in it can point at any file of the machine that reads it (``mq/QM9.mqsc -> ~/.token``),
whose first word would then be quoted in an error, in a public CI log. A link that stays inside the
folder is followed; one that leads outside it is refused with one line naming the link, never what it
points at (neither its target's path nor its content).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from mqctl.domain.errors import InputError


def leads_outside(root: Path, path: Path) -> bool:
    """Whether ``path`` resolves outside ``root`` (links followed; a loop of links counts as outside)."""
    try:
        real = path.resolve()
        top = root.resolve()
    except (OSError, RuntimeError):
        return True
    return real != top and top not in real.parents


def inside(root: Path, path: Path) -> Path:
    """``path`` (found under ``root``) when it resolves inside ``root``; an ``InputError`` naming the
    link otherwise (a link in a parent folder counts too)."""
    if leads_outside(root, path):
        raise InputError(f"is a symbolic link that leads outside {root}; not followed", file=str(path))
    return path


def files_under(root: Path, pattern: str = "*") -> Iterator[Path]:
    """The files under ``root`` matching ``pattern`` (``Path.rglob``), each checked by ``inside``."""
    for path in root.rglob(pattern):
        if path.is_symlink() or path.parent != root:
            inside(root, path)
        if path.is_file():
            yield path
