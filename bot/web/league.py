"""The league table without loading every result: tallies summed by the store, ratings from a snapshot.

A league page needs each player's tallies in its system and season, and their rating in that system
over every confirmed result. The tallies are one aggregate query (on `ix_results_guild_status`). The
ratings are a replay of every result, which costs a second or more on a big server, so they are kept:
in this process while the server's results generation stays the same (as the score service keeps
its own), and in the store (`rating_snapshots`, written after each replay) so a restarted site
process does not replay them again. A snapshot is used only at the version it was made at (the
generation with the results' count and newest id, which a change made behind the bot's back moves); the order
and numbers are then the same as `/scores leaderboard`'s (`rules.scores.standings.rank` ranks both).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from sqlalchemy import Select, Table, case, func, select, union_all
from sqlalchemy.orm import Session

from bot.db.models import GameResult, RatingSnapshot, utcnow
from bot.db.store import Store
from bot.db.upsert import insert_or_update
from bot.scores.cache import WARM_STEP, ResultCache
from rules.scores import Rating, RatingBook, ResultStatus
from rules.scores.standings import Tally

log = logging.getLogger("muster.web")

SNAPSHOTS: Table = RatingSnapshot.__table__  # type: ignore[assignment]
CONFIRMED = ResultStatus.CONFIRMED.value
KEPT = 256
"""Scopes whose ratings this process keeps (a server and a system, or overall)."""


def tallies_query(guild_id: int, system: str | None, season_id: int | None) -> Select[Any]:
    """(player, games, wins, draws, points for, points against) of every player with a confirmed
    result in the scope: each result counted once from each side."""
    chosen = [GameResult.guild_id == guild_id, GameResult.status == CONFIRMED]
    if system is not None:
        chosen.append(GameResult.system == system)
    if season_id is not None:
        chosen.append(GameResult.season_id == season_id)
    side_a = select(
        GameResult.player_a.label("player"),
        GameResult.score_a.label("scored"),
        GameResult.score_b.label("conceded"),
        GameResult.winner_id.label("winner"),
    ).where(*chosen)
    side_b = select(GameResult.player_b, GameResult.score_b, GameResult.score_a, GameResult.winner_id).where(
        *chosen
    )
    sides = union_all(side_a, side_b).subquery()
    return select(
        sides.c.player,
        func.count(),
        func.sum(case((sides.c.winner == sides.c.player, 1), else_=0)),
        func.sum(case((sides.c.winner.is_(None), 1), else_=0)),
        func.sum(sides.c.scored),
        func.sum(sides.c.conceded),
    ).group_by(sides.c.player)


def systems_query(guild_id: int) -> Select[Any]:
    return (
        select(GameResult.system)
        .where(GameResult.guild_id == guild_id, GameResult.status == CONFIRMED)
        .distinct()
        .order_by(GameResult.system)
    )


def dump_ratings(ratings: dict[int, Rating]) -> str:
    return json.dumps({str(player): [r.mu, r.sigma] for player, r in ratings.items()}, separators=(",", ":"))


def load_ratings(text: str) -> dict[int, Rating]:
    return {int(player): Rating(float(mu), float(sigma)) for player, (mu, sigma) in json.loads(text).items()}


class LeagueReader:
    def __init__(self, store: Store, book: Callable[[int], Awaitable[tuple[RatingBook, Any]]]) -> None:
        self.store = store
        self.book = book
        self._ratings: dict[tuple[int, str], tuple[int, dict[int, Rating]]] = {}
        self._writes: set[asyncio.Task[None]] = set()

    async def tallies(self, guild_id: int, system: str | None, season_id: int | None) -> dict[int, Tally]:
        query = tallies_query(guild_id, system, season_id)
        rows = await self.store.run(lambda db: db.execute(query).all())
        return {
            int(player): Tally(
                games=int(games),
                wins=int(wins),
                draws=int(draws),
                losses=int(games) - int(wins) - int(draws),
                points_for=int(scored),
                points_against=int(conceded),
            )
            for player, games, wins, draws, scored, conceded in rows
        }

    async def systems(self, guild_id: int) -> list[str]:
        query = systems_query(guild_id)
        return [str(s) for s in await self.store.run(lambda db: db.scalars(query).all())]

    async def ratings(self, guild_id: int, generation: int, system: str | None) -> dict[int, Rating]:
        """Every rating of the scope at the results' `generation`: kept in this process, else stored
        at the results' version, else replayed (and stored)."""
        key = (guild_id, system or "")
        kept = self._ratings.get(key)
        if kept is not None and kept[0] == generation:
            return kept[1]
        version = await self.version(guild_id, generation)
        ratings = await self.stored(guild_id, key[1], version)
        if ratings is None:
            book, _records = await self.book(guild_id)
            ratings = book.ledger(system).ratings()
            self._store_later(guild_id, key[1], version, ratings)
        self._ratings[key] = (generation, ratings)
        while len(self._ratings) > KEPT:
            self._ratings.pop(next(iter(self._ratings)))
        return ratings

    async def version(self, guild_id: int, generation: int) -> str:
        """The results' version: their generation, count and newest id (so a result stored behind
        the bot's back, which bumps no generation, still makes a stored snapshot old)."""
        query = select(func.count(), func.max(GameResult.id)).where(
            GameResult.guild_id == guild_id, GameResult.status == CONFIRMED
        )
        row = await self.store.run(lambda db: db.execute(query).one())
        return f"{generation}.{row[0]}.{row[1]}"

    async def stored(self, guild_id: int, scope: str, version: str) -> dict[int, Rating] | None:
        query = select(RatingSnapshot.ratings).where(
            RatingSnapshot.guild_id == guild_id,
            RatingSnapshot.scope == scope,
            RatingSnapshot.version == version,
        )
        text = await self.store.run(lambda db: db.scalar(query))
        return None if text is None else load_ratings(text)

    def _store_later(self, guild_id: int, scope: str, version: str, ratings: dict[int, Rating]) -> None:
        row = {
            "guild_id": guild_id,
            "scope": scope,
            "version": version,
            "ratings": dump_ratings(ratings),
            "updated_at": utcnow(),
        }
        statement = insert_or_update(self.store.dialect, SNAPSHOTS, row, ["guild_id", "scope"])

        def write(db: Session) -> None:
            db.execute(statement)

        async def store() -> None:
            try:
                await self.store.run_write(write)
            except Exception:
                log.warning(
                    "could not store the ratings of %s (%s)", guild_id, scope or "overall", exc_info=True
                )

        task = asyncio.get_running_loop().create_task(store())
        self._writes.add(task)
        task.add_done_callback(self._writes.discard)

    async def settle(self) -> None:
        """Wait for the snapshot writes under way (tests, shutdown)."""
        while self._writes:
            await asyncio.gather(*list(self._writes), return_exceptions=True)


async def store_ratings(store: Store, results: ResultCache, guild_id: int) -> None:
    """Store every scope's ratings of a server for the site, from the bot's own cached results (when
    `/settings web on` shows it), so the site's first page of it needs no replay. The replay runs a
    few hundred results at a time, between other interactions."""
    generation = await results.generation(guild_id)
    book, _records = await results.book(guild_id)
    reader = LeagueReader(store, results.book)
    try:
        for scope in [None, *book.systems()]:
            for _ in book.warm(scope, step=WARM_STEP):
                await asyncio.sleep(0)
            await reader.ratings(guild_id, generation, scope)
    finally:
        await reader.settle()
