"""Alembic, driven from ``mqctl db``: works from a checkout and from a wheel (migrations shipped inside)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.script import ScriptDirectory
from sqlalchemy.engine import Engine

import mqctl


def migrations_dir() -> Path:
    """The wheel ships ``migrations/`` as ``mqctl/_migrations``; a checkout has it beside the package."""
    package = Path(mqctl.__file__).resolve().parent
    shipped = package / "_migrations"
    if (shipped / "env.py").exists():
        return shipped
    return package.parent / "migrations"


def alembic_config(engine: Engine | None = None) -> Config:
    config = Config()
    config.set_main_option("script_location", str(migrations_dir()))
    if engine is not None:
        config.attributes["engine"] = engine
    return config


def upgrade(engine: Engine, revision: str = "head") -> None:
    command.upgrade(alembic_config(engine), revision)


def downgrade(engine: Engine, revision: str) -> None:
    command.downgrade(alembic_config(engine), revision)


def history() -> list[dict[str, Any]]:
    """Revisions newest first, as data (the CLI renders them)."""
    script = ScriptDirectory.from_config(alembic_config())
    out = []
    for rev in script.walk_revisions():
        out.append(
            {
                "revision": rev.revision,
                "down_revision": rev.down_revision,
                "message": (rev.doc or "").strip(),
                "head": rev.is_head,
            }
        )
    return out


def head_revision() -> str:
    script = ScriptDirectory.from_config(alembic_config())
    head = script.get_current_head()
    assert head is not None
    return head
