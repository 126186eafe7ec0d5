"""One AsyncEngine and one async_sessionmaker per process; SQLite gets WAL, a busy timeout and FKs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker, create_async_engine

SQLITE_BUSY_TIMEOUT_MS = 5000


def make_engine(url: str) -> AsyncEngine:
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        # No pre-ping: it costs a round trip before every transaction. A connection found dead is
        # invalidated (with the pool) when it fails, and the store retries that unit of work once.
        engine = create_async_engine(url, pool_size=10, max_overflow=20)
        event.listen(engine.sync_engine, "before_cursor_execute", _without_nul, retval=True)
        return engine
    database = parsed.database
    if database and database != ":memory:":
        Path(database).parent.mkdir(parents=True, exist_ok=True)
    engine = create_async_engine(url, connect_args={"timeout": SQLITE_BUSY_TIMEOUT_MS / 1000})
    event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
    return engine


NUL = "\x00"
REPLACEMENT = "\ufffd"


def without_nul(value: Any) -> Any:
    """A parameter with every NUL character shown as U+FFFD: PostgreSQL text can't hold NUL (it
    refuses the whole statement), and anyone can type one into a slash command's text."""
    if isinstance(value, str):
        return text_without_nul(value)
    if isinstance(value, tuple | list):
        return type(value)(without_nul(item) for item in value)
    if isinstance(value, dict):
        return {key: without_nul(item) for key, item in value.items()}
    return value


def text_without_nul(value: Any) -> Any:
    """`without_nul` for one flat parameter: a text with NUL shown as U+FFFD, anything else as it
    is (a step's statement checks its listed values so, without walking containers)."""
    return value.replace(NUL, REPLACEMENT) if isinstance(value, str) and NUL in value else value


def _without_nul(
    _conn: Any, _cursor: Any, statement: str, parameters: Any, _context: Any, _executemany: bool
) -> tuple[str, Any]:
    return statement, without_nul(parameters)


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    sqlite_pragmas(dbapi_connection)


def sqlite_pragmas(dbapi_connection: Any) -> None:
    """What every connection to the SQLite file sets, whoever opens it."""
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


def make_sqlite_sync_engine(engine: AsyncEngine) -> Engine:
    """A plain (pysqlite) engine on the same SQLite file, for units of work run in one thread."""
    url = engine.url.set(drivername="sqlite+pysqlite")
    sync = create_engine(
        url, connect_args={"timeout": SQLITE_BUSY_TIMEOUT_MS / 1000, "check_same_thread": False}
    )
    event.listen(sync, "connect", _sqlite_pragmas)
    return sync


def make_sessionmaker(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    return async_sessionmaker(engine, expire_on_commit=False)
