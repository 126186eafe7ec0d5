"""Units of work over the store.

SQLite allows one writer; a transaction that reads first and writes later can fail at once with
"database is locked" when another writer got in between. So writes in this process go through one
asyncio lock when the backend is SQLite. Other backends rely on the optimistic version check alone.

Hot paths (a game step, the outbox) use `run`/`run_write`: a plain synchronous unit of work. On
SQLite it runs whole in one worker thread (one hand-off per transaction instead of several per
statement, which is what keeps a click's answer quick while the event loop is busy); elsewhere it
runs through the async session's `run_sync`.

The hottest write of all, a game step, has its own fast forms (`commit_step`, see
`bot/db/step_write.py`): on SQLite in the event loop, on PostgreSQL one statement in one round trip
straight on asyncpg (`bot/db/postgres_fast.py`), as is the version check before it.

On PostgreSQL connections are not pinged before use: a unit of work that fails because its
connection was dead (the server restarted) is run once more on a fresh one.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any, TypeVar

from sqlalchemy import Table, insert, select
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker
from sqlalchemy.orm import Session, sessionmaker

from bot.db.engine import make_engine, make_sessionmaker, make_sqlite_sync_engine, sqlite_pragmas
from bot.db.models import GameSession, GuildSettings, UserLocale, utcnow
from bot.db.postgres_fast import LOST, PostgresFastPath
from bot.db.step_write import SqliteStepWriter, StepWrite, WriterBusy, apply_step
from bot.db.write_turns import WriteTurns

log = logging.getLogger(__name__)

T = TypeVar("T")


async def _once_more_if_disconnected(unit: Callable[[], Awaitable[T]]) -> T:
    """Run a unit of work; if its connection turned out dead (and was invalidated), run it again
    on a fresh one. For the store's bookkeeping (outbox records, leases, reads), where doing it
    again is harmless; a game step has its own check (`_after_lost_step`)."""
    try:
        return await unit()
    except DBAPIError as error:
        if not error.connection_invalidated:
            raise
        log.warning("a database connection was dead; trying again on a fresh one")
        return await unit()


def _insert_rows(table: Table, rows: list[dict[str, Any]], db: Session) -> None:
    db.execute(insert(table), rows)


class Store:
    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self.sessionmaker: async_sessionmaker[AsyncSession] = make_sessionmaker(engine)
        self.dialect = engine.dialect.name  # "sqlite" or "postgresql"
        sqlite = self.dialect == "sqlite"
        self._write_lock: WriteTurns | None = WriteTurns() if sqlite else None
        self._sync_sessions: sessionmaker[Session] | None = None
        self._worker: ThreadPoolExecutor | None = None
        self._step_writer: SqliteStepWriter | None = None
        self._fast = PostgresFastPath(engine.url) if self.dialect == "postgresql" else None
        if sqlite:
            self._sync_engine = make_sqlite_sync_engine(engine)
            self._sync_sessions = sessionmaker(self._sync_engine, expire_on_commit=False)
            self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sqlite")
            database = engine.url.database
            if database and database != ":memory:":
                self._step_writer = SqliteStepWriter(database, sqlite_pragmas)

    @property
    def steps_wait(self) -> bool:
        """Whether storing a step waits on the database's answer (PostgreSQL's round trip), time the
        loop can spend on other work; SQLite's step writer stores it on the loop itself."""
        return self._step_writer is None

    @classmethod
    def from_url(cls, url: str) -> Store:
        return cls(make_engine(url))

    @contextlib.asynccontextmanager
    async def read(self) -> AsyncIterator[AsyncSession]:
        async with self.sessionmaker() as session:
            yield session

    @contextlib.asynccontextmanager
    async def write(self, *, step: bool = False) -> AsyncIterator[AsyncSession]:
        """A transaction that commits on success and rolls back on any exception; `step`: a game
        step a player waits on, which takes SQLite's writer before writes that can wait."""
        if self._write_lock is None:
            lock: contextlib.AbstractAsyncContextManager[None] = contextlib.nullcontext()
        else:
            lock = self._write_lock.step() if step else self._write_lock.later()
        async with lock, self.sessionmaker() as session, session.begin():
            yield session

    async def run(self, work: Callable[[Session], T]) -> T:
        """Run a synchronous unit of work in one transaction (committed if it returns)."""
        if self._sync_sessions is None or self._worker is None:

            async def unit_async() -> T:
                async with self.sessionmaker() as session, session.begin():
                    return await session.run_sync(work)

            return await _once_more_if_disconnected(unit_async)
        sessions = self._sync_sessions

        def unit() -> T:
            with sessions() as session, session.begin():
                return work(session)

        return await asyncio.get_running_loop().run_in_executor(self._worker, unit)

    async def run_write(self, work: Callable[[Session], T]) -> T:
        """`run` for a unit of work that writes: serialised with every other writer here."""
        lock = self._write_lock.later() if self._write_lock else contextlib.nullcontext()
        async with lock:
            return await self.run(work)

    async def insert_later(self, table: Table, rows: list[dict[str, Any]]) -> None:
        """Rows no click waits on (the dice audit of stand-alone rolls), in one statement for all:
        on SQLite after any step waiting for the writer, and in the loop on the steps' own
        connection (a page-cache commit, no hand-off to a thread that then competes for the GIL
        with the answers being sent), off the loop only if another process holds the writer."""
        if not rows:
            return
        if self._write_lock is None:
            await self.run_write(partial(_insert_rows, table, rows))
            return
        async with self._write_lock.later():
            if self._step_writer is not None:
                try:
                    self._step_writer.insert(table, rows, utcnow())
                    return
                except WriterBusy:
                    log.info("SQLite is busy with another process; writing %s off the loop", table.name)
            await self.run(partial(_insert_rows, table, rows))

    async def commit_step(self, write: StepWrite) -> bool:
        """Store one game step; False (nothing written) if the session's version moved on."""
        if self._fast is not None:
            try:
                return await self._fast.apply(write)
            except LOST:
                return await self._after_lost_step(write)
        if self._write_lock is None:
            return await self.run_write(partial(apply_step, write))
        async with self._write_lock.step():
            if self._step_writer is None:
                return await self.run(partial(apply_step, write))
            try:
                return self._step_writer.apply(write)
            except WriterBusy:
                log.info("SQLite is busy with another process; storing %s off the loop", write.session_id)
            return await self.run(partial(apply_step, write))

    async def session_version(self, session_id: str) -> tuple[int, str] | None:
        """A session's stored (version, status), None if there is no such session: what a cached
        state is checked against before the rules judge an action on it."""
        if self._step_writer is not None:
            return self._step_writer.version_of(session_id)
        if self._fast is not None:
            try:
                return await self._fast.version_of(session_id)
            except LOST:
                log.warning("a database connection was dead; reading the version on a fresh one")
        query = select(GameSession.version, GameSession.status).where(GameSession.id == session_id)
        row = await self.run(lambda db: db.execute(query).first())
        return None if row is None else (row.version, row.status)

    async def languages_of(self, guild_id: int | None, users: list[int]) -> tuple[str | None, dict[int, str]]:
        """A server's `/settings language` (None: not chosen) and some users' last-seen Discord
        locales, read as cheaply as a session's version (every step's messages need them)."""
        if self._step_writer is not None:
            return self._step_writer.languages_of(guild_id, users)
        if self._fast is not None:
            try:
                return await self._fast.languages_of(guild_id, users)
            except LOST:
                log.warning("a database connection was dead; reading the languages on a fresh one")

        def read(db: Session) -> tuple[str | None, dict[int, str]]:
            chosen = None
            if guild_id is not None:
                chosen = db.scalar(select(GuildSettings.language).where(GuildSettings.guild_id == guild_id))
            query = select(UserLocale.user_id, UserLocale.locale).where(UserLocale.user_id.in_(users))
            return chosen, {int(row.user_id): str(row.locale) for row in db.execute(query)} if users else {}

        return await self.run(read)

    async def _after_lost_step(self, write: StepWrite) -> bool:
        """A step whose connection died: it may or may not have been stored. Look (on a fresh
        connection): stored as written is True; untouched is tried once more; anything else is a
        step someone else took, so False (the caller judges again on the new state)."""
        log.warning("a database connection died during a step; checking what was stored")
        query = select(GameSession.version, GameSession.state).where(GameSession.id == write.session_id)
        async with self.engine.connect() as connection:
            stored = (await connection.execute(query)).first()
        if stored is None:
            return False
        if stored.version == write.version and stored.state == write.state:
            return True
        if stored.version != write.expected_version:
            return False
        assert self._fast is not None
        return await self._fast.apply(write)

    async def close(self) -> None:
        if self._fast is not None:
            await self._fast.close()
        if self._step_writer is not None:
            self._step_writer.close()
        if self._worker is not None:
            self._worker.shutdown(wait=True)
            self._sync_engine.dispose()
        await self.engine.dispose()
