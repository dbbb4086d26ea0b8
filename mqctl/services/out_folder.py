"""The ``--out`` folder of a command that writes a set of files (``snapshot export``, ``capture-kit``):
a folder that holds anything is written over only with ``--force``."""

from __future__ import annotations

from pathlib import Path

from mqctl.domain.errors import InputError


def check_out_folder(out: Path, *, force: bool, what: str) -> None:
    """Refuse ``out`` when it is a file, or a folder that holds anything without ``force`` (``what``: what
    would be written there, for the message)."""
    if out.exists() and not out.is_dir():
        raise InputError("is a file, not a folder", obj=str(out), attribute="--out")
    if out.is_dir() and any(out.iterdir()) and not force:
        raise InputError(
            f"is not empty (use --force to write the {what} there)", obj=str(out), attribute="--out"
        )
