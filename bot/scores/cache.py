"""Each server's confirmed results and rating memo, kept between commands and warmed up at start.

Every write to `results` goes through the score service (session results through its results
hook), and each bumps the server's generation in the database in the same transaction
(`bump_generation`). A cached list is used only while the stored generation is the one read before
loading it, so a result confirmed by another process (or a read that raced a write) is never
served stale: one read of one small row per leaderboard instead of every result.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable

from sqlalchemy import Table, select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.models import GameResult, ResultsGeneration
from bot.db.store import Store
from bot.db.upsert import dialect_insert
from bot.scores.rows import COLUMNS, record_of_columns
from rules.scores import RatingBook, ResultRecord, ResultStatus

log = logging.getLogger("muster.scores")

GENERATIONS: Table = ResultsGeneration.__table__  # type: ignore[assignment]
LOAD_STEP = 1000
"""Records built between two yields to the event loop while loading a big server's results."""
WARM_STEP = 250
"""Results replayed between two yields while warming the ratings up."""


async def bump_generation(db: AsyncSession, guild_id: int) -> None:
    """Mark a server's results changed, inside the transaction that changes them."""
    statement = dialect_insert(db.get_bind().dialect.name, GENERATIONS).values(
        guild_id=guild_id, generation=1
    )
    await db.execute(
        statement.on_conflict_do_update(
            index_elements=["guild_id"], set_={"generation": GENERATIONS.c.generation + 1}
        )
    )


class ResultCache:
    def __init__(self, store: Store) -> None:
        self.store = store
        self.books: dict[int, RatingBook] = {}
        self._confirmed: dict[int, tuple[int, list[ResultRecord]]] = {}
        self._book_source: dict[int, list[ResultRecord]] = {}

    async def records(
        self, guild_id: int, *, confirmed_only: bool = True, season_id: int | None = None
    ) -> list[ResultRecord]:
        """A server's results from the store (never cached), oldest first."""
        query = select(*COLUMNS).where(GameResult.guild_id == guild_id)
        if confirmed_only:
            query = query.where(GameResult.status == ResultStatus.CONFIRMED.value)
        if season_id is not None:
            query = query.where(GameResult.season_id == season_id)
        ordered = query.order_by(GameResult.played_at, GameResult.id)
        rows = await self.store.run(lambda db: db.execute(ordered).all())  # one hand-off for every row
        records: list[ResultRecord] = []
        for start in range(0, len(rows), LOAD_STEP):
            records.extend(record_of_columns(row) for row in rows[start : start + LOAD_STEP])
            if start + LOAD_STEP < len(rows):
                await asyncio.sleep(0)  # a big server's results: let other interactions in between
        return records

    def forget(self, guild_id: int) -> None:
        """Drop everything cached for a server (the next command reloads and replays from scratch)."""
        self._confirmed.pop(guild_id, None)
        self.books.pop(guild_id, None)
        self._book_source.pop(guild_id, None)

    async def generation(self, guild_id: int) -> int:
        """The server's results generation as stored (0: its results never changed)."""
        query = select(ResultsGeneration.generation).where(ResultsGeneration.guild_id == guild_id)
        stored = await self.store.run(lambda db: db.execute(query).scalar())
        return stored or 0

    async def confirmed(self, guild_id: int) -> list[ResultRecord]:
        """The server's confirmed results, oldest first (shared: never modify the list)."""
        generation = await self.generation(guild_id)
        cached = self._confirmed.get(guild_id)
        if cached is not None and cached[0] == generation:
            return cached[1]
        records = await self.records(guild_id)  # at least as new as `generation`: read after it
        self._confirmed[guild_id] = (generation, records)
        return records

    async def book(self, guild_id: int) -> tuple[RatingBook, list[ResultRecord]]:
        """The server's rating memo, in line with its confirmed results (which it returns too)."""
        records = await self.confirmed(guild_id)
        book = self.books.get(guild_id)
        if book is None:
            book = self.books[guild_id] = RatingBook()
        if self._book_source.get(guild_id) is not records:
            book.sync(records)
            self._book_source[guild_id] = records
        return book, records

    async def warm_up(self, ready: Callable[[], Awaitable[object]] | None = None) -> None:
        """Replay every server's ratings (after `ready`), a few hundred results at a time.

        So the first leaderboard after a restart is as quick as any other, and a big replay never
        holds up other interactions for long. A command arriving meanwhile just finishes the job.
        """
        try:
            if ready is not None:
                await ready()
            async with self.store.read() as db:
                guilds = list(
                    await db.scalars(
                        select(GameResult.guild_id)
                        .where(GameResult.status == ResultStatus.CONFIRMED.value)
                        .distinct()
                    )
                )
            started = time.perf_counter()
            for guild_id in guilds:
                book, _ = await self.book(guild_id)
                for scope in [None, *book.systems()]:
                    for _ in book.warm(scope, step=WARM_STEP):
                        await asyncio.sleep(0)
            if guilds:
                log.info(
                    "ratings of %d servers replayed in %.2f s", len(guilds), time.perf_counter() - started
                )
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("warming the ratings up failed; they will be replayed on first use")
