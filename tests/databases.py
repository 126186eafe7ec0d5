"""The databases tests run on: a fresh SQLite file always, and a fresh PostgreSQL database too when
MUSTER_TEST_DATABASE_URL names a server (`.ci/run` sets it when one answers on 127.0.0.1:5432).

Each test gets a database of its own (created from the named one, dropped afterwards), so tests
run side by side on one server exactly as they do on separate SQLite files.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import asyncpg
import pytest
from sqlalchemy.engine import make_url

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
    name = f"muster_test_{secrets.token_hex(6)}"
    admin = await asyncpg.connect(_dsn(base))
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()
    try:
        yield make_url(base).set(database=name).render_as_string(hide_password=False)
    finally:
        admin = await asyncpg.connect(_dsn(base))
        try:
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await admin.close()


@asynccontextmanager
async def fresh_database(engine: str, folder: Path) -> AsyncIterator[str]:
    """A new, empty database of `engine` ("sqlite": a file in `folder`); yields its URL."""
    if engine == "sqlite":
        yield f"sqlite+aiosqlite:///{folder / 'muster.sqlite3'}"
        return
    async with fresh_postgres() as url:
        yield url


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
