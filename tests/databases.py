"""The databases tests run on: a fresh SQLite file always, and a fresh PostgreSQL database too when
MUSTER_TEST_DATABASE_URL names a server (`.ci/run` sets it when one answers on 127.0.0.1:5432).

Each test gets a database of its own (created from the named one, dropped afterwards), so tests
run side by side on one server exactly as they do on separate SQLite files. `fresh_database` is
empty. `migrated_database` is already at the migrations' head, so a bot starting on it has
nothing to migrate: on SQLite a copy of a file each test process migrates once; on PostgreSQL one
database per test process, migrated once and emptied before each test (every table but Alembic's
truncated, and any connection a test left behind ended). Migrating every test's database cost
the suite about 0.1 s a test, and creating a PostgreSQL database about 0.3 s more; the migrations
are tested on empty databases apart (tests/platform/test_migrations.py, tests/e2e/test_shards.py).
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import os
import secrets
import shutil
import sqlite3
import tempfile
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import asyncpg
import pytest
from sqlalchemy.engine import make_url

from bot.db.engine import make_engine
from bot.migrate import upgrade

POSTGRES_URL = os.environ.get("MUSTER_TEST_DATABASE_URL", "").strip() or None
"""The server to make test databases on (its database is only used to create and drop them)."""

ENGINES = ["sqlite", "postgresql"] if POSTGRES_URL else ["sqlite"]
"""The engines a test taking `database_url` runs on: one test id per engine."""


def _dsn(url: str) -> str:
    """asyncpg's own DSN for a SQLAlchemy URL (postgresql+asyncpg://… → postgresql://…)."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


@asynccontextmanager
async def fresh_postgres(base_url: str | None = None) -> AsyncIterator[str]:
    """A new, empty PostgreSQL database for one test; yields its SQLAlchemy URL, drops it after."""
    base = base_url or POSTGRES_URL
    if base is None:
        pytest.skip("MUSTER_TEST_DATABASE_URL is not set")
    name = await _created(base)
    try:
        yield make_url(base).set(database=name).render_as_string(hide_password=False)
    finally:
        await _drop(base, name)


@asynccontextmanager
async def fresh_database(engine: str, folder: Path) -> AsyncIterator[str]:
    """A new, empty database of `engine` ("sqlite": a file in `folder`); yields its URL."""
    if engine == "sqlite":
        yield f"sqlite+aiosqlite:///{folder / 'muster.sqlite3'}"
        return
    async with fresh_postgres() as url:
        yield url


_MIGRATED: dict[str, str] = {}
"""This process's migrated databases: a SQLite file's path (copied for each test), a PostgreSQL
database's name (emptied for each test)."""


@asynccontextmanager
async def migrated_database(engine: str, folder: Path) -> AsyncIterator[str]:
    """A database of `engine` at the migrations' head, with no rows but Alembic's."""
    if engine == "sqlite":
        copy = folder / "muster.sqlite3"
        shutil.copyfile(await _sqlite_template(), copy)
        yield f"sqlite+aiosqlite:///{copy}"
        return
    if POSTGRES_URL is None:
        pytest.skip("MUSTER_TEST_DATABASE_URL is not set")
    name = await _postgres_migrated(POSTGRES_URL)
    url = make_url(POSTGRES_URL).set(database=name).render_as_string(hide_password=False)
    await _emptied(url)
    yield url


async def _migrate(url: str) -> None:
    engine = make_engine(url)
    try:
        await upgrade(engine)
    finally:
        await engine.dispose()


async def _sqlite_template() -> str:
    if "sqlite" not in _MIGRATED:
        folder = tempfile.mkdtemp(prefix="muster-template-")
        atexit.register(shutil.rmtree, folder, True)
        path = Path(folder) / "template.sqlite3"
        await _migrate(f"sqlite+aiosqlite:///{path}")
        with contextlib.closing(sqlite3.connect(path)) as connection:  # all in the file, none in its WAL
            connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        _MIGRATED["sqlite"] = str(path)
    return _MIGRATED["sqlite"]


async def _postgres_migrated(base: str) -> str:
    if "postgresql" not in _MIGRATED:
        name = await _created(base)
        atexit.register(lambda: asyncio.run(_drop(base, name)))
        await _migrate(make_url(base).set(database=name).render_as_string(hide_password=False))
        _MIGRATED["postgresql"] = name
    return _MIGRATED["postgresql"]


async def _emptied(url: str) -> None:
    """Every row of every table gone (but Alembic's version), and no connection of an earlier test left."""
    connection = await asyncpg.connect(_dsn(url))
    try:
        await connection.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        tables = await connection.fetch(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'alembic_version'"
        )
        names = ", ".join(f'"{row["tablename"]}"' for row in tables)
        await connection.execute(f"TRUNCATE {names} RESTART IDENTITY CASCADE")
    finally:
        await connection.close()


async def _created(base: str) -> str:
    """The name of a new, empty database on `base`'s server."""
    name = f"muster_test_{secrets.token_hex(6)}"
    admin = await asyncpg.connect(_dsn(base))
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()
    return name


async def _drop(base: str, name: str) -> None:
    admin = await asyncpg.connect(_dsn(base))
    try:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await admin.close()


async def _answers(url: str) -> bool:
    try:
        connection = await asyncpg.connect(_dsn(url), timeout=3)
    except (OSError, asyncpg.PostgresError, TimeoutError):
        return False
    await connection.close()
    return True


if __name__ == "__main__":  # `python -m tests.databases --check URL`: exit 0 if the server answers
    import asyncio
    import sys

    url = sys.argv[-1]
    answers = asyncio.run(_answers(url))
    print(f"PostgreSQL at {make_url(url).host}: {'answers' if answers else 'does not answer'}")
    sys.exit(0 if answers else 1)
