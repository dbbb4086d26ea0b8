"""Alembic, driven from ``mqctl db``: works from a checkout and from a wheel (migrations shipped inside)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.script import ScriptDirectory
from sqlalchemy import text
from sqlalchemy.engine import Engine

import mqctl
from mqctl.domain.errors import InputError, StoreError
from mqctl.store.engine import current_revision, redact


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
    """Upgrade in one transaction (a failure leaves the store as it was); a database that holds another
    program's tables is refused (``current_revision`` says so)."""
    current_revision(engine)
    command.upgrade(alembic_config(engine), revision)


def downgrade(engine: Engine, revision: str, *, confirmed: bool = False) -> None:
    """Downgrade; going back to base drops every table, so with definitions present it needs
    ``confirmed`` (the CLI's --yes) and says what would go."""
    current = current_revision(engine)
    if current is None:
        raise StoreError(f"the store {redact(engine.url)} is empty: nothing to downgrade")
    if _reaches_base(current, revision) and not confirmed:
        held = _definitions_held(engine)
        if held:
            raise InputError(
                f"downgrading to base deletes {held}; give --yes to confirm", attribute="db downgrade"
            )
    command.downgrade(alembic_config(engine), revision)


def _reaches_base(current: str, target: str) -> bool:
    if target == "base":
        return True
    if target.startswith("-") and target[1:].isdigit():
        script = ScriptDirectory.from_config(alembic_config())
        chain = [rev.revision for rev in script.iterate_revisions(current, "base")]
        return int(target[1:]) >= len(chain)
    return False


def _definitions_held(engine: Engine) -> str:
    """``12 nodes, 40 topics, ...``: what a downgrade to base would delete (empty when nothing)."""
    counts = []
    with engine.connect() as conn:
        for table in ("nodes", "clusters", "topics", "subscriptions", "routes", "channels", "namelists"):
            n = conn.execute(text(f"SELECT COUNT(*) FROM {table}")).scalar_one()
            if n:
                counts.append(f"{n} {table}")
    return ", ".join(counts)


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
