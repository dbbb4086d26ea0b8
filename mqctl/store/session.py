"""One transaction per command: everything a command changes commits together or not at all.

Driver errors end here as one of mqctl's own: a uniqueness violation is an object defined twice (exit 2,
a race between two writers), anything else from the database (locked past the timeout, unreachable,
bad data) is a store error (exit 3). Writers are serialised (``Store.lock``), so none overwrites
another's change.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy.exc import DBAPIError, IntegrityError

from mqctl.domain.errors import ConflictError, StoreError
from mqctl.store.engine import WRITE, open_store, redact
from mqctl.store.repository import Store


def driver_message(exc: DBAPIError) -> str:
    text = str(exc.orig).strip()
    return text.splitlines()[0] if text else type(exc.orig).__name__


def store_error(exc: DBAPIError, url: str) -> StoreError:
    message = driver_message(exc)
    if "locked" in message or "lock timeout" in message or "could not obtain lock" in message:
        return StoreError(f"the store {redact(url)} is busy (another command holds it): {message}; try again")
    return StoreError(f"store {redact(url)}: {message}")


@contextmanager
def unit_of_work(url: str, *, write: bool = True) -> Iterator[Store]:
    """Open the store, yield a ``Store`` inside one transaction, commit on success, roll back on error.
    Only a writer creates the store on first use: a read never writes."""
    engine = open_store(url, initialise=write)
    try:
        with engine.connect() as conn:
            if write:
                conn = conn.execution_options(**{WRITE: True})
            try:
                with conn.begin():
                    store = Store(conn)
                    if write:
                        store.lock()
                    yield store
                    store.flush_seq()
            except IntegrityError as exc:
                raise ConflictError(
                    f"is already defined (the store refused a second definition: {driver_message(exc)})",
                    obj="object",
                ) from None
            except DBAPIError as exc:
                raise store_error(exc, url) from None
    finally:
        engine.dispose()
