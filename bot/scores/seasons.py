"""League seasons: at most one runs per server; a result is filed in the season running when stored."""

from __future__ import annotations

import re
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.models import Season, utcnow
from bot.db.store import Store
from bot.lang.i18n import Domain
from rules.errors import RuleError
from rules.text import clip

NAME_MAX = 100
ALL_TIME = ("all", "all time", "all-time", "alltime")
"""What asks for all-time standings instead of a season (so no season may be called that)."""
KNOWN_SHOWN = 10
KNOWN_NAME_SHOWN = 40  # of each season's name among those a refusal lists
_SEASON_ID = re.compile(r"[0-9]{1,18}")
_ = Domain("muster")


@dataclass(frozen=True)
class SeasonChoice:
    """What a leaderboard or export covers: one season, or all time (`season` None)."""

    season: Season | None

    @property
    def season_id(self) -> int | None:
        return self.season.id if self.season else None

    @property
    def label(self) -> str:
        return _("Season: {name}", name=self.season.name) if self.season else _("All time")

    @property
    def token(self) -> str:
        """The choice in a button's custom_id: the season's id, or `all`."""
        return str(self.season.id) if self.season else "all"


class Seasons:
    def __init__(self, store: Store) -> None:
        self.store = store

    async def in_server(self, guild_id: int) -> list[Season]:
        """A server's seasons, the latest first."""
        async with self.store.read() as db:
            return list(
                await db.scalars(
                    select(Season)
                    .where(Season.guild_id == guild_id)
                    .order_by(Season.started_at.desc(), Season.id.desc())
                )
            )

    async def running(self, guild_id: int, db: AsyncSession | None = None) -> Season | None:
        """The server's running season, read in `db` when given (to file a result in the same
        transaction that stores it)."""
        query = (
            select(Season)
            .where(Season.guild_id == guild_id, Season.ended_at.is_(None))
            .order_by(Season.id.desc())
            .limit(1)
        )
        if db is not None:
            return await db.scalar(query)
        async with self.store.read() as session:
            return await session.scalar(query)

    async def start(self, guild_id: int, name: str) -> Season:
        name = " ".join(name.split())
        if not name:
            raise RuleError(code="scores.season_name_missing")
        if len(name) > NAME_MAX:
            raise RuleError(code="scores.season_name_long", limit=NAME_MAX)
        if name.lower() in ALL_TIME:
            raise RuleError(code="scores.season_name_reserved", name=name)
        async with self.store.write() as db:
            running = await self.running(guild_id, db)
            if running is not None:
                raise RuleError(code="scores.season_running", season=running.name)
            taken = await db.scalar(select(Season).where(Season.guild_id == guild_id, Season.name == name))
            if taken is not None:
                raise RuleError(code="scores.season_taken", name=name)
            season = Season(guild_id=guild_id, name=name, started_at=utcnow())
            db.add(season)
        return season

    async def end(self, guild_id: int) -> Season:
        async with self.store.write() as db:
            running = await self.running(guild_id, db)
            if running is None:
                raise RuleError(code="scores.no_season_running")
            running.ended_at = utcnow()
        return running

    async def choose(self, guild_id: int, name: str | None) -> SeasonChoice:
        """A season by name (or id); "all" for all time; nothing: the running season, else all time."""
        if name is None or not name.strip():
            return SeasonChoice(await self.running(guild_id))
        wanted = " ".join(name.split())
        if wanted.lower() in ALL_TIME:
            return SeasonChoice(None)
        seasons = await self.in_server(guild_id)
        for season in seasons:
            if season.name.lower() == wanted.lower() or (
                _SEASON_ID.fullmatch(wanted)  # ASCII digits only: "²" is a digit int() can't read
                and season.id == int(wanted)
                and not any(s.name == wanted for s in seasons)
            ):
                return SeasonChoice(season)
        if not seasons:
            raise RuleError(code="scores.no_seasons_yet", name=clip(wanted, NAME_MAX))
        known = ", ".join(clip(s.name, KNOWN_NAME_SHOWN) for s in seasons[:KNOWN_SHOWN])
        raise RuleError(code="scores.no_such_season", name=clip(wanted, NAME_MAX), known=known)

    async def by_token(self, guild_id: int, token: str) -> SeasonChoice:
        """The choice a button's custom_id carries (see `SeasonChoice.token`)."""
        if token == "all":
            return SeasonChoice(None)
        async with self.store.read() as db:
            season = await db.get(Season, int(token))
        if season is None or season.guild_id != guild_id:
            raise RuleError(code="scores.season_gone")
        return SeasonChoice(season)
