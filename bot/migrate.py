"""Apply Alembic migrations programmatically (start-up and `muster migrate`), once, under a lock.

Any number of processes may start together on a fresh database: each takes the database's
migration lock first (PostgreSQL: an advisory lock held by the upgrade's own transaction; a SQLite
file: an exclusive lock on a file beside it), so one upgrades and the others then find the schema
at head and do nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
from collections.abc import AsyncIterator
from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import text
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine

import migrations

SCRIPT_LOCATION = Path(migrations.__file__).parent
MIGRATION_LOCK = 0x6D757374  # "must": the advisory lock key every Muster process agrees on


def alembic_config(url: str = "") -> Config:
    config = Config()
    config.set_main_option("script_location", str(SCRIPT_LOCATION))
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


@contextlib.asynccontextmanager
async def _sqlite_file_lock(engine: AsyncEngine) -> AsyncIterator[None]:
    """An exclusive lock on `<database>.migrate.lock` while the upgrade runs (none in memory)."""
    database = engine.url.database
    if engine.dialect.name != "sqlite" or not database or database == ":memory:":
        yield
        return
    path = Path(database).with_name(Path(database).name + ".migrate.lock")
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a") as handle:
        await asyncio.to_thread(fcntl.flock, handle.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


async def upgrade(engine: AsyncEngine, revision: str = "head") -> None:
    """Upgrade the database behind `engine` to `revision`, sharing its connection with Alembic."""

    def _upgrade(connection: Connection) -> None:
        if connection.dialect.name == "postgresql":  # released when this transaction ends
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        config = alembic_config(str(engine.url))
        config.attributes["connection"] = connection
        command.upgrade(config, revision)

    async with _sqlite_file_lock(engine), engine.begin() as connection:
        await connection.run_sync(_upgrade)
