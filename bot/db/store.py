"""Units of work over the store.

SQLite allows one writer; a transaction that reads first and writes later can fail at once with
"database is locked" when another writer got in between. So writes in this process go through one
asyncio lock when the backend is SQLite, and every write path starts with its write. Other backends
rely on the optimistic version check alone.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from bot.db.engine import make_engine, make_sessionmaker


class Store:
    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self.sessionmaker: async_sessionmaker[AsyncSession] = make_sessionmaker(engine)
        self._write_lock: asyncio.Lock | None = asyncio.Lock() if engine.dialect.name == "sqlite" else None

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

    async def close(self) -> None:
        await self.engine.dispose()
