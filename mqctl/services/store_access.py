"""The CLI's one door to the store: URL resolution, a unit of work per command, schema revisions and
the redaction of passwords in store URLs and messages.

``cli/`` imports nothing from ``mqctl.store`` (tests/test_layers.py); it asks here. The store modules are
imported on use, so a command that needs no store (``topic match``) or only the lean Core path
(``explain``) does not pay for the ORM or Alembic.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mqctl.store.repository import Store as Store


def resolve_url(option: str | None) -> str:
    """The store URL from ``--db`` / ``MQCTL_DB`` / the default store (a bare path becomes sqlite)."""
    from mqctl.store.engine import resolve_url as resolve

    return resolve(option)


@contextmanager
def transaction(url: str) -> Iterator[Store]:
    """One write transaction (writers run one after another)."""
    from mqctl.store.session import unit_of_work

    with unit_of_work(url) as store:
        yield store


@contextmanager
def reading(url: str) -> Iterator[Store]:
    """One read-only transaction: a consistent view of the store, taking no write lock."""
    from mqctl.store.session import unit_of_work

    with unit_of_work(url, write=False) as store:
        yield store


def hide_secrets(text: str) -> str:
    """TEXT with the password of any store URL in it replaced."""
    from mqctl.store.engine import hide_secrets as hide

    return hide(text)


def redact(url: str) -> str:
    """A store URL fit to print (no password)."""
    from mqctl.store.engine import redact as red

    return red(url)


def store_failure(exc: BaseException) -> str | None:
    """The one line that reports ``exc`` when it is the database's failure (exit 3), else None."""
    from sqlalchemy.exc import SQLAlchemyError

    if not isinstance(exc, SQLAlchemyError):
        return None
    return hide_secrets(str(exc).splitlines()[0] if str(exc) else type(exc).__name__)


def upgrade(url: str, revision: str) -> None:
    """Migrate the store up to ``revision`` (all or nothing)."""
    from mqctl.store.engine import make_engine
    from mqctl.store.migrate import upgrade as run_upgrade

    engine = make_engine(url)
    try:
        run_upgrade(engine, revision)
    finally:
        engine.dispose()


def downgrade(url: str, revision: str, *, confirmed: bool) -> None:
    """Migrate the store down to ``revision``; to base only ``confirmed`` (it deletes every definition)."""
    from mqctl.store.engine import make_engine
    from mqctl.store.migrate import downgrade as run_downgrade

    engine = make_engine(url)
    try:
        run_downgrade(engine, revision, confirmed=confirmed)
    finally:
        engine.dispose()


def revision(url: str) -> tuple[str | None, str]:
    """(the store's revision or None when empty, the revision this mqctl needs).

    A read: a SQLite store whose file does not exist yet is not created by asking.
    """
    from mqctl.store.engine import current_revision, make_engine, store_file_missing
    from mqctl.store.revision import HEAD

    if store_file_missing(url):
        return None, HEAD
    engine = make_engine(url, create=False)
    try:
        return current_revision(engine), HEAD
    finally:
        engine.dispose()


def history() -> list[dict[str, Any]]:
    """The migrations, newest first."""
    from mqctl.store.migrate import history as revisions

    return list(revisions())
