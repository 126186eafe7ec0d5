"""The migrations build exactly the models' schema, on a fresh database, twice over."""

from __future__ import annotations

import asyncio
from pathlib import Path

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect
from sqlalchemy.engine import Connection

from bot.db.engine import make_engine
from bot.db.models import INLINE_ROWS, Base
from bot.migrate import upgrade
from tests.databases import fresh_postgres


def _diff(connection: Connection) -> list[object]:
    context = MigrationContext.configure(connection, opts={"compare_type": True})
    return list(compare_metadata(context, Base.metadata))


async def test_migrations_produce_the_models_schema(database_url: str) -> None:
    engine = make_engine(database_url)
    try:
        await upgrade(engine)
        await upgrade(engine)  # idempotent: a second start-up changes nothing
        async with engine.connect() as connection:
            diff = await connection.run_sync(_diff)
            tables = await connection.run_sync(lambda c: set(inspect(c).get_table_names()))
        assert diff == []
        assert set(Base.metadata.tables) <= tables
    finally:
        await engine.dispose()


async def test_processes_starting_together_migrate_once_and_all_start(database_url: str) -> None:
    """Three start-ups at the same moment on a fresh database (each its own engine, as processes
    have): one upgrades under the lock, the others wait and find the schema at head."""
    engines = [make_engine(database_url) for _ in range(3)]
    try:
        await asyncio.gather(*(upgrade(engine) for engine in engines))
        async with engines[0].connect() as connection:
            diff = await connection.run_sync(_diff)
            versions = (await connection.exec_driver_sql("SELECT version_num FROM alembic_version")).all()
        assert diff == []
        assert len(versions) == 1
    finally:
        for engine in engines:
            await engine.dispose()


async def test_sqlite_pragmas(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite+aiosqlite:///{tmp_path / 'p.sqlite3'}")
    try:
        async with engine.connect() as connection:
            journal = (await connection.exec_driver_sql("PRAGMA journal_mode")).scalar()
            fks = (await connection.exec_driver_sql("PRAGMA foreign_keys")).scalar()
            busy = (await connection.exec_driver_sql("PRAGMA busy_timeout")).scalar()
        assert (journal, fks) == ("wal", 1)
        assert busy and int(busy) >= 1000
    finally:
        await engine.dispose()


async def test_postgresql_keeps_a_steps_rows_inline() -> None:
    """A state and a render job's state before its step stay in their rows up to a page, as the
    models say (`INLINE_ROWS`): nothing is TOASTed on a click. (SQLite has no such setting.)"""
    async with fresh_postgres() as url:
        engine = make_engine(url)
        try:
            await upgrade(engine)
            async with engine.connect() as connection:
                rows = await connection.exec_driver_sql(
                    "SELECT relname, reloptions FROM pg_class "
                    "WHERE relname IN ('game_sessions', 'render_jobs') AND relkind = 'r'"
                )
                options = {name: list(values) for name, values in rows.all()}
        finally:
            await engine.dispose()
    expected = [f"{key}={value}" for key, value in INLINE_ROWS.items()]
    assert options == {"game_sessions": expected, "render_jobs": expected}
