"""The migrations build exactly the models' schema, on a fresh database, twice over."""

from __future__ import annotations

from pathlib import Path

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect
from sqlalchemy.engine import Connection

from bot.db.engine import make_engine
from bot.db.models import Base
from bot.migrate import upgrade


def _diff(connection: Connection) -> list[object]:
    context = MigrationContext.configure(connection, opts={"compare_type": True})
    return list(compare_metadata(context, Base.metadata))


async def test_migrations_produce_the_models_schema(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite+aiosqlite:///{tmp_path / 'schema.sqlite3'}")
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
