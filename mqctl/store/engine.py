"""Where the store lives and how to open it: URL choice, SQLite pragmas, the revision check.

Every command opens the store through ``open_store``. It never imports alembic unless the store has to
be created (first use), so the explain path stays fast.

Reads never write: only a command that changes the model creates the store (the SQLite file, its folder
0700, the schema at head). A read of a store that does not exist yet or has no schema is a store problem
(exit 3) whose message says to run ``mqctl db upgrade`` — the answer ``db current`` gives too.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Column,
    MetaData,
    PrimaryKeyConstraint,
    String,
    Table,
    create_engine,
    event,
    inspect,
    text,
)
from sqlalchemy.engine import URL, Engine, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, NoSuchModuleError, OperationalError

from mqctl.domain.errors import StoreError
from mqctl.domain.valid_text import check_text
from mqctl.store.revision import HEAD, KNOWN_REVISIONS

ENV_VAR = "MQCTL_DB"
LOCK_TIMEOUT_VAR = "MQCTL_LOCK_TIMEOUT"


def lock_timeout_ms() -> int:
    """How long a command waits for another writer: 30 s by default (a large import holds the store for
    seconds), ``MQCTL_LOCK_TIMEOUT`` seconds when set."""
    try:
        return max(0, int(float(os.environ.get(LOCK_TIMEOUT_VAR, "30")) * 1000))
    except ValueError:
        return 30000


WRITE = "mqctl_write"
"""Execution option of a connection that will write: SQLite then begins with ``BEGIN IMMEDIATE``."""


def default_store_path() -> Path:
    """``$XDG_DATA_HOME/mqctl/mqctl.db``, else ``~/.local/share/mqctl/mqctl.db``."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "mqctl" / "mqctl.db"


def resolve_url(option: str | None) -> str:
    """``--db`` wins over ``MQCTL_DB``, which wins over the default file. A bare path means SQLite."""
    raw = option or os.environ.get(ENV_VAR) or str(default_store_path())
    if "://" not in raw:
        return f"sqlite:///{Path(raw).expanduser().absolute()}"
    return raw


_USER_PASSWORD = re.compile(r"(://[^:/@\s]*:)[^@\s]*@")
_QUERY_PASSWORD = re.compile(r"\b(password|passwd|pwd|sslpassword)=[^&\s'\"]*", re.IGNORECASE)


def hide_secrets(text: str) -> str:
    """Any text (a message, a traceback) with the passwords of URLs in it replaced by ``***``."""
    return _QUERY_PASSWORD.sub(r"\1=***", _USER_PASSWORD.sub(r"\1***@", text))


def redact(url: str | URL) -> str:
    """The URL as it may be shown: never with its password, in the user part or the query string."""
    try:
        parsed = make_url(url)
    except (ArgumentError, ValueError):  # ValueError: a port that is no number (``[::1:5432``)
        return "<invalid URL>"
    return hide_secrets(parsed.render_as_string(hide_password=True))


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    _sqlite_connection(dbapi_connection, read_only=False)


def _sqlite_read_pragmas(dbapi_connection: Any, _record: Any) -> None:
    _sqlite_connection(dbapi_connection, read_only=True)


def _sqlite_connection(dbapi_connection: Any, *, read_only: bool) -> None:
    """The pragmas of every connection. A read neither sets the journal mode (that writes the file: a
    0-byte file would become a 4 KB store, a rollback-journal one be switched to WAL) nor may write
    (``query_only``): reads never write."""
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute(f"PRAGMA busy_timeout={lock_timeout_ms()}")
    if read_only:
        cursor.execute("PRAGMA query_only=ON")
    else:
        cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    # 64 MB page cache (default 2 MB), used only as filled: an import's bulk insert adds rows to every
    # digest index at random places, and with the small cache it re-reads index pages from the WAL
    cursor.execute("PRAGMA cache_size=-65536")
    cursor.close()
    # SQLAlchemy's documented recipe: let SQLAlchemy, not the driver, begin transactions, so that reads
    # are inside them too and DDL is transactional (a schema is created all or nothing).
    dbapi_connection.isolation_level = None


def _read_only_begin(conn: Any) -> None:
    """PostgreSQL: a read's transaction is read only (the server refuses any write in it)."""
    conn.exec_driver_sql("SET TRANSACTION READ ONLY")


def _sqlite_begin(conn: Any) -> None:
    """A writer takes the write lock first (``BEGIN IMMEDIATE``): writers run one after another, each
    reading what the previous one committed, so no update is lost."""
    conn.exec_driver_sql("BEGIN IMMEDIATE" if conn.get_execution_options().get(WRITE) else "BEGIN")


def make_engine(url: str, *, create: bool = True) -> Engine:
    """An engine with the SQLite pragmas (WAL, foreign keys, busy timeout); a new SQLite file is 0600 in a
    folder created 0700. Without ``create`` the engine reads only: a SQLite file that does not exist is
    refused, not created, and nothing is written to one that does (nor to a PostgreSQL database)."""
    try:
        parsed = make_url(url)
    except ArgumentError as exc:
        raise StoreError(f"not a database URL: {hide_secrets(str(exc))}") from None
    except ValueError:  # the port of ``postgresql://u:p@[::1:5432/x`` (the text would show the password)
        raise StoreError("not a database URL (is a host or port malformed?)") from None
    if parsed.get_backend_name() == "sqlite":
        _prepare_sqlite_file(parsed, create=create)
    try:
        engine = create_engine(parsed)
    except (NoSuchModuleError, ArgumentError, ImportError) as exc:
        raise StoreError(f"cannot use {redact(parsed)}: {exc}") from None
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _sqlite_pragmas if create else _sqlite_read_pragmas)
        event.listen(engine, "begin", _sqlite_begin)
    elif engine.dialect.name == "postgresql" and not create:
        event.listen(engine, "begin", _read_only_begin)
    event.listen(engine, "before_cursor_execute", _text_parameters)
    return engine


def _text_parameters(
    _conn: Any, _cursor: Any, _statement: str, parameters: Any, context: Any, executemany: bool
) -> None:
    """A value looked up in the store (``display qmgr NAME``...) that is not text, such as a command-line
    byte that is not UTF-8, names no object: an ``InputError`` as the domain gives for a definition
    (``domain.valid_text``), not the driver's UnicodeEncodeError. Writes are not looked at: they carry
    definitions the domain rules have checked (one that was not is a bug, and reported as one)."""
    if executemany or not parameters or context is None or context.isinsert or context.isupdate:
        return
    for value in parameters.values() if isinstance(parameters, dict) else parameters:
        if isinstance(value, str) and not value.isascii():
            check_text(value)


def store_file_missing(url: str) -> bool:
    """A SQLite store whose file does not exist yet (``db current`` answers without creating it)."""
    try:
        parsed = make_url(url)
    except (ArgumentError, ValueError):
        return False
    database = parsed.database if parsed.get_backend_name() == "sqlite" else None
    return (
        bool(database)
        and database != ":memory:"
        and "\0" not in str(database)
        and not Path(str(database)).exists()
    )


def _prepare_sqlite_file(url: URL, *, create: bool) -> None:
    database = url.database
    if not database or database == ":memory:":
        return
    if "\0" in database:
        raise StoreError("the store path holds a NUL character")
    path = Path(database)
    if path.exists():
        return
    if not create:
        raise StoreError(f"the store {redact(url)} {NO_SCHEMA_YET}")
    try:
        _private_folders(path.parent)  # it holds a whole topology
        fd = os.open(path, os.O_CREAT | os.O_WRONLY, 0o600)
        os.close(fd)
    except OSError as exc:
        raise StoreError(f"cannot create the store file {path}: {exc.strerror}") from None


def _private_folders(folder: Path) -> None:
    """``folder`` and each missing parent created 0700 (``mkdir(parents=True)`` gives the parents the
    umask's mode, 0755 mostly)."""
    missing = [p for p in (folder, *folder.parents) if not p.exists()]
    for path in reversed(missing):
        path.mkdir(mode=0o700, exist_ok=True)


BASE = "base"
NO_SCHEMA_YET = "does not exist yet: run `mqctl db upgrade` (a command that defines something creates it too)"


_READ_VERSION = text("SELECT version_num FROM alembic_version")


def current_revision(engine: Engine) -> str | None:
    """The store's revision from ``alembic_version``: None for a database never initialised (no tables),
    ``"base"`` for one downgraded to base (the version table is there, empty)."""
    try:
        with engine.connect() as conn:
            try:
                row = conn.execute(_READ_VERSION).first()
            except DBAPIError:
                conn.rollback()
                tables = inspect(conn).get_table_names()
                if not tables:
                    return None
                if "alembic_version" not in tables:
                    raise StoreError(
                        f"{redact(engine.url)} holds tables but no alembic_version: not an mqctl store"
                    ) from None
                # a first use elsewhere created the store between the two statements (in one
                # transaction, so it is seen whole now): read the revision it wrote
                row = conn.execute(_READ_VERSION).first()
    except OperationalError as exc:
        raise StoreError(f"cannot reach the store {redact(engine.url)}: {_first_line(exc)}") from None
    return BASE if row is None else str(row[0])


def open_store(url: str, *, initialise: bool = True) -> Engine:
    """Open the store and check its revision: created at head on first use when ``initialise`` (a command
    that writes), refused if old or newer, and refused with the hint when empty and not ``initialise``."""
    engine = make_engine(url, create=initialise)
    revision = current_revision(engine)
    if revision is None and initialise:
        create_at_head(engine)
        return engine
    if revision != HEAD:
        engine.dispose()
        if revision is None:
            raise StoreError(f"the store {redact(url)} is empty: {NO_SCHEMA_YET.split(': ', 1)[1]}")
        if revision in KNOWN_REVISIONS or revision == BASE:
            raise StoreError(
                f"the store {redact(url)} is at revision {revision}, this mqctl needs {HEAD}: run `mqctl db upgrade`"
            )
        raise StoreError(
            f"the store {redact(url)} is at revision {revision}, unknown to this mqctl (needs {HEAD}): "
            "run `mqctl db upgrade` with the mqctl that wrote it, or upgrade mqctl"
        )
    return engine


def create_at_head(engine: Engine) -> None:
    """A store never initialised, created as the migrations would leave it, in one transaction: the
    tables from ``store.tables``, the sequence counter, and ``alembic_version`` at HEAD
    (``tests/store/test_migrations.py`` proves schema and rows identical). Why: Alembic's import and three migrations are a fifth of a second
    of every first use; ``mqctl db upgrade`` still runs the migrations. A concurrent first use waits for
    this one (SQLite's write lock, PostgreSQL's advisory lock) and then finds the store made."""
    from mqctl.store.tables import metadata

    with engine.connect().execution_options(**{WRITE: True}) as conn, conn.begin():
        if conn.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _CREATE_LOCK})
        if inspect(conn).has_table("alembic_version"):
            return
        metadata.create_all(conn)
        conn.execute(text("INSERT INTO counters (name, value) VALUES ('seq', 0)"))  # as 0002 leaves it
        ALEMBIC_VERSION.create(conn)
        conn.execute(ALEMBIC_VERSION.insert().values(version_num=HEAD))


_CREATE_LOCK = 0x6D7163746C  # "mqctl"
"""PostgreSQL advisory lock key held while a first use creates the store."""

ALEMBIC_VERSION = Table(
    "alembic_version",
    MetaData(),
    Column("version_num", String(32), nullable=False),
    PrimaryKeyConstraint("version_num", name="alembic_version_pkc"),
)
"""Alembic's version table as Alembic creates it."""


def _first_line(exc: BaseException) -> str:
    orig = getattr(exc, "orig", None) or exc
    return str(orig).strip().splitlines()[0] if str(orig).strip() else type(orig).__name__
