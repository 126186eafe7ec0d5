"""What the store knows about a club, for its game nights: its tables and terrain kits, and what
pairing takes into account (games the players had together and how long ago, their ratings, the
nights each sat out), built here so rules/night's pairing stays pure.
"""

from __future__ import annotations

import json
from datetime import datetime

from sqlalchemy import Table as SqlTable
from sqlalchemy import and_, delete, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.models import ClubTable, GameResult, Night, utcnow
from bot.db.store import Store
from bot.db.upsert import insert_or_update
from rules.night.models import PairingContext, Table, pair_key, rating_key
from rules.night.night import NightState
from rules.scores import RatingBook

MAX_TABLES = 50
PAST_NIGHTS = 50
"""How many of a server's past nights count towards who sat out how often."""
TABLES: SqlTable = ClubTable.__table__  # type: ignore[assignment]


def table_of(row: ClubTable) -> Table:
    return Table(table_id=row.table_id, name=row.name, systems=json.loads(row.systems), terrain=row.terrain)


async def tables_in(db: AsyncSession, guild_id: int) -> list[Table]:
    rows = await db.scalars(
        select(ClubTable).where(ClubTable.guild_id == guild_id).order_by(ClubTable.created_at)
    )
    return [table_of(r) for r in rows]


class Club:
    def __init__(self, store: Store) -> None:
        self.store = store

    async def tables(self, guild_id: int) -> list[Table]:
        async with self.store.read() as db:
            return await tables_in(db, guild_id)

    async def save_table(self, guild_id: int, table: Table) -> bool:
        """Add a table, or change the one with its id; False when the club has MAX_TABLES already."""
        async with self.store.write() as db:
            count = await db.scalar(select(func.count()).where(TABLES.c.guild_id == guild_id))
            known = await db.get(ClubTable, (guild_id, table.table_id))
            if known is None and (count or 0) >= MAX_TABLES:
                return False
            row = {
                "guild_id": guild_id,
                "table_id": table.table_id,
                "name": table.name,
                "systems": json.dumps(table.systems),
                "terrain": table.terrain,
                "created_at": known.created_at if known is not None else utcnow(),
            }
            await db.execute(insert_or_update(self.store.dialect, TABLES, row, ["guild_id", "table_id"]))
        return True

    async def remove_table(self, guild_id: int, table_id: str) -> bool:
        async with self.store.write() as db:
            gone = await db.execute(
                delete(TABLES).where(TABLES.c.guild_id == guild_id, TABLES.c.table_id == table_id)
            )
            return bool(gone.rowcount)  # type: ignore[attr-defined]

    async def context(
        self, guild_id: int, players: list[int], book: RatingBook | None, now: datetime | None = None
    ) -> PairingContext:
        """What pairing weighs for these players: their confirmed games together (how many, how
        long ago), their ratings in each system they have played, and the nights they sat out."""
        now = now or utcnow()
        wanted = set(players)
        games: dict[str, int] = {}
        last: dict[str, datetime] = {}
        query = select(GameResult.player_a, GameResult.player_b, GameResult.played_at).where(
            GameResult.guild_id == guild_id,
            GameResult.status == "confirmed",
            and_(GameResult.player_a.in_(wanted), GameResult.player_b.in_(wanted)),
        )
        async with self.store.read() as db:
            for a, b, played in await db.execute(query):
                key = pair_key(a, b)
                games[key] = games.get(key, 0) + 1
                if key not in last or played > last[key]:
                    last[key] = played
            byes = await self._byes(db, guild_id, wanted)
        ratings: dict[str, float] = {}
        if book is not None:
            for system in book.systems():
                for player, rating in book.ledger(system).ratings().items():
                    if player in wanted:
                        ratings[rating_key(player, system)] = float(rating.display)
        return PairingContext(
            games_between=games,
            days_since={key: max(0, (now - when).days) for key, when in last.items()},
            ratings=ratings,
            byes=byes,
        )

    @staticmethod
    async def _byes(db: AsyncSession, guild_id: int, players: set[int]) -> dict[int, int]:
        """How many of the server's recent nights each player sat out."""
        query = (
            select(Night.state)
            .where(Night.guild_id == guild_id, or_(Night.status == "finished", Night.status == "published"))
            .order_by(Night.starts_at.desc())
            .limit(PAST_NIGHTS)
        )
        byes: dict[int, int] = {}
        for raw in await db.scalars(query):
            result = NightState.model_validate_json(raw).result
            for sat in result.sat_out if result is not None else []:
                if sat.player in players:
                    byes[sat.player] = byes.get(sat.player, 0) + 1
        return byes
