"""What the web site reads: a public server's facts, its league, players, results, nights, events.

Every read is scoped to one server that chose to be shown (`club` is None otherwise, and the caller
answers 404). `club` is one indexed query that also returns the server's *stamp*: it changes when
anything a page shows changes (results generation, seasons, settings, names, nights, each step of an
event), so a page already rendered (or a browser's copy, by its ETag) is reused until then. Private
things are never read: no DMs, notes, sealed choices, hands or sign-up details, only counts.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import BigInteger, Select, bindparam, func, select
from sqlalchemy.orm import Session

from bot.db.models import ClubEvent, GuildSettings, MemberName, Night, ResultsGeneration, Season
from bot.db.store import Store
from bot.lang.i18n import LANGUAGES, supported
from bot.nights.events import NIGHT_LENGTH
from bot.scores.cache import ResultCache
from bot.scores.seasons import Seasons
from bot.web.events import EventRow, read_events, upcoming_events
from bot.web.league import LeagueReader
from rules.errors import RuleError
from rules.night.night import NightState
from rules.scores import (
    PlayerSummary,
    RatingBook,
    ResultRecord,
    Standing,
    history,
    player_summary,
)
from rules.scores.standings import rank

ACTIVE_NIGHTS = ("open", "closed", "review", "published")
NIGHTS_SHOWN = 25
RESULTS_SHOWN = 50
PLAYER_RESULTS_SHOWN = 200
LEAGUES_KEPT = 128
EVENT_UNDER_WAY = timedelta(days=1)  # an event that started this long ago still shows in the calendar


@dataclass(frozen=True)
class Club:
    """A server that chose to be shown, as the site shows it."""

    guild_id: int
    name: str
    language: str
    time_zone: str
    stamp: str
    generation: int  # of its results (bumped by every change the bot makes to them)


@dataclass(frozen=True)
class Member:
    name: str | None  # None: the bot never saw their name
    hidden: bool


@dataclass(frozen=True)
class League:
    standings: list[Standing]
    systems: list[str]
    system: str | None
    seasons: list[Season]
    season: Season | None  # None: all time


@dataclass(frozen=True)
class RatingPoint:
    result_id: int
    played_at: datetime
    rating: int


@dataclass(frozen=True)
class PlayerPage:
    summary: PlayerSummary
    results: list[ResultRecord]  # newest first
    points: list[RatingPoint]  # oldest first: the rating after each of their results
    changes: dict[int, tuple[int, int]]  # result id -> (rating before, after)
    system: str | None


@dataclass(frozen=True)
class NightRow:
    id: str
    title: str
    starts_at: datetime
    ends_at: datetime
    time_zone: str
    systems: list[str]
    signed_up: int
    capacity: int
    waiting: int
    status: str
    updated_at: datetime


def _stamp_query() -> Select[Any]:
    """One row: the server's web settings and what changes whenever a page of it would (built once:
    every request runs it, with the server's id bound)."""
    guild_id = bindparam("guild_id", type_=BigInteger)
    generation = select(ResultsGeneration.generation).where(ResultsGeneration.guild_id == guild_id)
    season_ids = select(func.max(Season.id)).where(Season.guild_id == guild_id)
    seasons_ended = select(func.count(Season.ended_at)).where(Season.guild_id == guild_id)
    names = select(func.max(MemberName.updated_at)).where(MemberName.guild_id == guild_id)
    nights = select(func.max(Night.updated_at)).where(Night.guild_id == guild_id)
    # Every event step bumps its version (and its time): the sum moves on with any step of any event.
    events = select(func.max(ClubEvent.updated_at), func.sum(ClubEvent.version)).where(
        ClubEvent.guild_id == guild_id
    )
    return select(
        GuildSettings.web_public,
        GuildSettings.web_name,
        GuildSettings.web_locale,
        GuildSettings.language,
        GuildSettings.time_zone,
        GuildSettings.updated_at,
        generation.scalar_subquery(),
        season_ids.scalar_subquery(),
        seasons_ended.scalar_subquery(),
        names.scalar_subquery(),
        nights.scalar_subquery(),
        events.with_only_columns(func.max(ClubEvent.updated_at)).scalar_subquery(),
        events.with_only_columns(func.sum(ClubEvent.version)).scalar_subquery(),
    ).where(GuildSettings.guild_id == guild_id)


STAMP = _stamp_query()


def club_language(chosen: str | None, discord_locale: str | None) -> str:
    """The server's `/settings language`, else its Discord locale (as stored at `/settings web on`)."""
    return chosen if chosen in LANGUAGES else supported(discord_locale)


class SiteData:
    def __init__(self, store: Store) -> None:
        self.store = store
        self.results = ResultCache(store)
        self.seasons = Seasons(store)
        self.league_reader = LeagueReader(store, self.book)
        self._members: dict[int, tuple[str, dict[int, Member]]] = {}
        self._books = asyncio.Lock()
        self._leagues: OrderedDict[tuple[int, str, str | None, str | None], League | None] = OrderedDict()

    async def club(self, guild_id: int) -> Club | None:
        """The server if it is shown now, read fresh every request (`/settings web off` hides at once)."""
        row = await self.store.run(lambda db: db.execute(STAMP, {"guild_id": guild_id}).first())
        if row is None or not row[0]:
            return None
        stamp = ".".join(
            str(value.timestamp() if isinstance(value, datetime) else value) for value in row[3:]
        )
        return Club(
            guild_id=guild_id,
            name=row[1] or "",
            language=club_language(row[3], row[2]),
            time_zone=row[4] or "UTC",
            stamp=stamp,
            generation=int(row[6] or 0),
        )

    async def members(self, club: Club) -> dict[int, Member]:
        """The server's members as the bot saw them (kept while the server's stamp stays the same)."""
        kept = self._members.get(club.guild_id)
        if kept is not None and kept[0] == club.stamp:
            return kept[1]
        query = select(MemberName.user_id, MemberName.display_name, MemberName.hidden).where(
            MemberName.guild_id == club.guild_id
        )
        rows = await self.store.run(lambda db: db.execute(query).all())
        found = {int(r.user_id): Member(r.display_name, bool(r.hidden)) for r in rows}
        self._members[club.guild_id] = (club.stamp, found)
        return found

    async def league(self, club: Club, system: str | None, season: str | None) -> League | None:
        """The table `/scores leaderboard` shows (same order, same ratings); None: no such season
        or system. Summed by the store, rated from the kept or stored ratings (bot/web/league.py);
        kept while the server's stamp stays the same (one table serves the page in every language)."""
        key = (club.guild_id, club.stamp, system, season)
        if key in self._leagues:
            self._leagues.move_to_end(key)
            return self._leagues[key]
        league = await self._league(club, system, season)
        self._leagues[key] = league
        while len(self._leagues) > LEAGUES_KEPT:
            self._leagues.popitem(last=False)
        return league

    async def _league(self, club: Club, system: str | None, season: str | None) -> League | None:
        try:
            choice = await self.seasons.choose(club.guild_id, season)
        except RuleError:
            return None
        systems = await self.league_reader.systems(club.guild_id)
        if system is not None and system not in systems:
            return None
        tallies = await self.league_reader.tallies(club.guild_id, system, choice.season_id)
        ratings = await self.league_reader.ratings(club.guild_id, club.generation, system)
        seasons = await self.seasons.in_server(club.guild_id)
        return League(rank(tallies, ratings), systems, system, seasons, choice.season)

    async def book(self, guild_id: int) -> tuple[RatingBook, list[ResultRecord]]:
        """The score service's cached results and rating memo, loaded once however many pages ask."""
        async with self._books:
            return await self.results.book(guild_id)

    async def player(self, guild_id: int, player: int, system: str | None) -> PlayerPage | None:
        """A player's record and rating over time (overall, or in one system); None: no results."""
        book, records = await self.book(guild_id)
        if system is not None and system not in book.systems():
            return None
        ledger = book.ledger(system)
        summary = player_summary(
            records,
            player,
            overall=ledger,
            by_system={s: book.ledger(s) for s in book.systems()},
            system=system,
        )
        if summary.games == 0:
            return None
        mine = history(records, user=player, system=system)
        changes: dict[int, tuple[int, int]] = {}
        points: list[RatingPoint] = []
        for result in reversed(mine):
            found = ledger.change(result.id)
            if found is None:
                continue
            change = found[0] if found[0].player == player else found[1]
            changes[result.id] = (change.before.display, change.after.display)
            points.append(RatingPoint(result.id, result.played_at, change.after.display))
        return PlayerPage(summary, mine[:PLAYER_RESULTS_SHOWN], points, changes, system)

    async def recent(self, guild_id: int, limit: int = RESULTS_SHOWN) -> list[ResultRecord]:
        _book, records = await self.book(guild_id)
        return history(records, limit=limit)

    async def nights(self, guild_id: int, now: datetime) -> list[NightRow]:
        """Upcoming nights (and one under way), soonest first, with their sign-up counts only."""
        query = (
            select(Night.id, Night.state, Night.status, Night.starts_at, Night.updated_at)
            .where(
                Night.guild_id == guild_id,
                Night.status.in_(ACTIVE_NIGHTS),
                Night.starts_at >= now - NIGHT_LENGTH,
            )
            .order_by(Night.starts_at)
            .limit(NIGHTS_SHOWN)
        )

        def read(db: Session) -> list[NightRow]:
            return [_night_row(row) for row in db.execute(query)]

        return await self.store.run(read)

    async def events(self, guild_id: int) -> list[EventRow]:
        """A server's latest events with their rounds and standings (bot/web/events.py)."""
        return await read_events(self.store, guild_id)

    async def upcoming_events(self, guild_id: int, now: datetime) -> list[EventRow]:
        """Events coming up or under way (started within a day), for the calendar feed."""
        return await upcoming_events(self.store, guild_id, now - EVENT_UNDER_WAY)


def _night_row(row: Any) -> NightRow:
    state = NightState.model_validate_json(row.state)
    starts_at: datetime = row.starts_at
    return NightRow(
        id=row.id,
        title=state.settings.title,
        starts_at=starts_at,
        ends_at=starts_at + NIGHT_LENGTH,
        time_zone=state.settings.time_zone,
        systems=list(state.settings.systems),
        signed_up=len(state.signups),
        capacity=state.settings.capacity,
        waiting=len(state.waitlist),
        status=row.status,
        updated_at=row.updated_at,
    )
