"""The statements every click runs on PostgreSQL, straight on asyncpg.

A click checks its session's stored version, reads the languages its messages speak, and then
stores its step (`PostgresStepStatement`: one statement). Through SQLAlchemy's async layer each
costs several times the round trip itself, so these go through a small asyncpg pool of their own,
with statements compiled once and prepared once per connection. Everything else uses SQLAlchemy.

A step's statement runs on a connection the fast path holds for steps, taken from that pool once:
asyncpg's acquire and release cost a paced step about 0.05 ms. Steps at the same moment as it take
the pool's other connections; a held connection that dies goes back to the pool, which replaces it.

A step is committed without waiting for its WAL to reach the disk (`synchronous_commit = off`, on
these connections only): that wait is a disk flush per click (about 3 ms here, more than the rest
of the click together). It is safe because nothing a step causes reaches the table before a commit
that does wait: its messages are rendered into the outbox by a transaction on the store's ordinary
connections (bot/play/jobs.py), and that commit flushes the WAL up to itself, so the step's too.
A restart of the bot loses nothing. Only if PostgreSQL itself crashes can the last steps taken
(within a few `wal_writer_delay`s, 0.6 s by default) be lost, whole, before anything of them was
posted: a player may have been told their click was taken, and clicks it again. SQLite's
`synchronous=NORMAL` (bot/db/engine.py) makes the same trade, for a power cut.
"""

from __future__ import annotations

import asyncio

import asyncpg
from sqlalchemy.engine import URL

from bot.db.engine import without_nul
from bot.db.step_write import PostgresStepStatement, StepWrite

POOL_SIZE = 10
LOST = (asyncpg.PostgresConnectionError, asyncpg.InterfaceError, ConnectionError, OSError)
"""What a dead connection (a restarted server) raises: the store then checks what was stored."""

STEP_SETTINGS = {"synchronous_commit": "off"}
"""A step's commit does not wait for the disk: why that is safe is said above."""

VERSION_SQL = "SELECT version, status FROM game_sessions WHERE id = $1"
LANGUAGES_SQL = (
    "SELECT NULL::bigint AS user_id, language AS value FROM guild_settings WHERE guild_id = $1 "
    "UNION ALL SELECT user_id, locale FROM user_locales WHERE user_id = ANY($2::bigint[])"
)


async def _nothing_to_reset(_connection: asyncpg.Connection) -> None:
    """These two statements leave nothing in a session (no transaction, lock, listener or
    setting), so a connection goes back to the pool as it is: asyncpg's default reset would cost
    a round trip after every statement."""


class PostgresFastPath:
    def __init__(self, url: URL) -> None:
        self._dsn = url.set(drivername="postgresql").render_as_string(hide_password=False)
        self._pool: asyncpg.Pool | None = None
        self._opening = asyncio.Lock()
        self._steps = PostgresStepStatement()
        self._held: asyncpg.Connection | None = None
        self._held_busy = False

    async def _connections(self) -> asyncpg.Pool:
        if self._pool is not None:
            return self._pool
        async with self._opening:
            if self._pool is None:
                self._pool = await asyncpg.create_pool(
                    self._dsn,
                    min_size=1,
                    max_size=POOL_SIZE,
                    reset=_nothing_to_reset,
                    server_settings=STEP_SETTINGS,
                )
        return self._pool

    async def version_of(self, session_id: str) -> tuple[int, str] | None:
        row = await (await self._connections()).fetchrow(VERSION_SQL, without_nul(session_id))
        return None if row is None else (int(row["version"]), str(row["status"]))

    async def languages_of(self, guild_id: int | None, users: list[int]) -> tuple[str | None, dict[int, str]]:
        """A server's chosen language and some users' last-seen locales: one round trip."""
        rows = await (await self._connections()).fetch(LANGUAGES_SQL, guild_id, users)
        chosen = next((row["value"] for row in rows if row["user_id"] is None), None)
        return chosen, {int(row["user_id"]): str(row["value"]) for row in rows if row["user_id"] is not None}

    async def apply(self, write: StepWrite) -> bool:
        """Store one step (False: the session's version moved on, nothing written)."""
        sql, values = self._steps.build(write)
        pool = await self._connections()
        if self._held_busy:  # steps at the same moment: the others take the pool's connections
            return bool(await pool.fetchval(sql, *values))
        self._held_busy = True
        try:
            if self._held is None:
                self._held = await pool.acquire()
            return bool(await self._held.fetchval(sql, *values))
        except LOST:
            await self._let_go(pool)
            raise
        finally:
            self._held_busy = False

    async def _let_go(self, pool: asyncpg.Pool) -> None:
        """The held connection back to the pool (which replaces it if it died)."""
        held, self._held = self._held, None
        if held is not None:
            await pool.release(held)

    async def close(self) -> None:
        if self._pool is not None:
            await self._let_go(self._pool)
            await self._pool.close()
            self._pool = None
