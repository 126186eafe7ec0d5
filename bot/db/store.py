"""Units of work over the store.

SQLite allows one writer; a transaction that reads first and writes later can fail at once with
"database is locked" when another writer got in between. So writes in this process go through one
asyncio lock when the backend is SQLite. Other backends rely on the optimistic version check alone.

Hot paths (a game step, the outbox) use `run`/`run_write`: a plain synchronous unit of work. On
SQLite it runs whole in one worker thread (one hand-off per transaction instead of several per
statement, which is what keeps a click's answer quick while the event loop is busy); elsewhere it
runs through the async session's `run_sync`.

The hottest write of all, a game step, has its own fast form on SQLite (`commit_step`, see
`bot/db/step_write.py`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import TypeVar

from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker
from sqlalchemy.orm import Session, sessionmaker

from bot.db.engine import make_engine, make_sessionmaker, make_sqlite_sync_engine, sqlite_pragmas
from bot.db.step_write import SqliteStepWriter, StepWrite, WriterBusy, apply_step

log = logging.getLogger(__name__)

T = TypeVar("T")


class Store:
    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self.sessionmaker: async_sessionmaker[AsyncSession] = make_sessionmaker(engine)
        self.dialect = engine.dialect.name  # "sqlite" or "postgresql"
        sqlite = self.dialect == "sqlite"
        self._write_lock: asyncio.Lock | None = asyncio.Lock() if sqlite else None
        self._sync_sessions: sessionmaker[Session] | None = None
        self._worker: ThreadPoolExecutor | None = None
        self._step_writer: SqliteStepWriter | None = None
        if sqlite:
            self._sync_engine = make_sqlite_sync_engine(engine)
            self._sync_sessions = sessionmaker(self._sync_engine, expire_on_commit=False)
            self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sqlite")
            database = engine.url.database
            if database and database != ":memory:":
                self._step_writer = SqliteStepWriter(database, sqlite_pragmas)

    @classmethod
    def from_url(cls, url: str) -> Store:
        return cls(make_engine(url))

    @contextlib.asynccontextmanager
    async def read(self) -> AsyncIterator[AsyncSession]:
        async with self.sessionmaker() as session:
            yield session

    @contextlib.asynccontextmanager
    async def write(self) -> AsyncIterator[AsyncSession]:
        """A transaction that commits on success and rolls back on any exception."""
        lock = self._write_lock or contextlib.nullcontext()
        async with lock, self.sessionmaker() as session, session.begin():
            yield session

    async def run(self, work: Callable[[Session], T]) -> T:
        """Run a synchronous unit of work in one transaction (committed if it returns)."""
        if self._sync_sessions is None or self._worker is None:
            async with self.sessionmaker() as session, session.begin():
                return await session.run_sync(work)
        sessions = self._sync_sessions

        def unit() -> T:
            with sessions() as session, session.begin():
                return work(session)

        return await asyncio.get_running_loop().run_in_executor(self._worker, unit)

    async def run_write(self, work: Callable[[Session], T]) -> T:
        """`run` for a unit of work that writes: serialised with every other writer here."""
        lock = self._write_lock or contextlib.nullcontext()
        async with lock:
            return await self.run(work)

    async def commit_step(self, write: StepWrite) -> bool:
        """Store one game step; False (nothing written) if the session's version moved on."""
        if self._step_writer is None or self._write_lock is None:
            return await self.run_write(partial(apply_step, write))
        async with self._write_lock:
            try:
                return self._step_writer.apply(write)
            except WriterBusy:
                log.info("SQLite is busy with another process; storing %s off the loop", write.session_id)
            return await self.run(partial(apply_step, write))

    async def close(self) -> None:
        if self._step_writer is not None:
            self._step_writer.close()
        if self._worker is not None:
            self._worker.shutdown(wait=True)
            self._sync_engine.dispose()
        await self.engine.dispose()
