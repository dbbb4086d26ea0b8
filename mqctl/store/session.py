"""One transaction per command: everything a command changes commits together or not at all."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.orm import Session

from mqctl.domain.errors import ConflictError, StoreError
from mqctl.store.engine import open_store, redact
from mqctl.store.repository import Repository


@contextmanager
def unit_of_work(url: str) -> Iterator[Repository]:
    """Open the store, yield a repository, commit on success and roll back on any error."""
    engine = open_store(url)
    try:
        with Session(engine) as session:
            try:
                repo = Repository(session)
                yield repo
                repo.flush_seq()
                session.commit()
            except IntegrityError as exc:
                session.rollback()
                raise ConflictError(
                    f"the store refused the change: {str(exc.orig).splitlines()[0]}"
                ) from None
            except DBAPIError as exc:
                session.rollback()
                raise StoreError(f"store {redact(url)}: {str(exc.orig).splitlines()[0]}") from None
            except BaseException:
                session.rollback()
                raise
    finally:
        engine.dispose()
