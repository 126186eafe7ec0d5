"""The score service: recording, confirming, disputing, resolving and voiding results; seasons;
announcements; and the data the leaderboards, history and export read.

The numbers come from `rules.scores` (pure); this module only moves rows in and out of the store.
Everything it says in Discord goes through the outbox (bot/delivery.py), written in the same
transaction as the change it reports, so it is sent once, retried, and never before it is stored.
Every query is scoped to one server, so nothing leaks between servers.

Life of a result:
- hand-entered (`/scores record`): *pending*, the opponent confirms or disputes with a button (in
  the results channel and in a DM); a pending result confirms itself after `auto_confirm_hours`.
- from a finished session: *confirmed* at once (both players played it through the bot, whose rules
  computed the outcome), then announced.
- *disputed*: waits for someone with Manage Server (`/scores resolve`); *void*: never counts.
Announcing is driven by the `announced` flag: a worker turns every confirmed, unannounced result
into an outbox message and sets the flag in the same transaction (so a crash only delays it).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

import discord
from sqlalchemy import event, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.models import GameResult, GameSession, Season, utcnow
from bot.delivery import enqueue
from bot.games import SessionInfo
from bot.messages import Button, Embed, Outgoing
from bot.worker import Worker
from rules.errors import RuleError
from rules.scores import (
    RatingBook,
    ResultRecord,
    ResultStatus,
    check_manual_entry,
    winner_from_scores,
)
from rules.scores.layout import clip, factions_line, format_change, score_line
from rules.session import GameOutcome

if TYPE_CHECKING:
    from bot.app import MusterBot

log = logging.getLogger("muster.scores")

SYSTEM_TITLES: dict[str, str] = {
    "killteam": "Kill Team",
    "warcry": "Warcry",
    "warmaster": "Warmaster",
    "fortyk": "Warhammer 40,000",
}
_ALIASES: dict[str, str] = {
    "kill-team": "killteam",
    "kt": "killteam",
    "40k": "fortyk",
    "40-k": "fortyk",
    "warhammer-40k": "fortyk",
    "warhammer-40-000": "fortyk",
    "warhammer-40000": "fortyk",
    "w40k": "fortyk",
}
ANNOUNCE_COLOUR = 0x2E8B57
PROMPT_COLOUR = 0xD4A017
DISPUTE_COLOUR = 0xC0392B
ANNOUNCE_BATCH = 25
AUTO_CONFIRMED = "auto-confirmed"
LOAD_STEP = 1000
_SEASON_ID = re.compile(r"[0-9]{1,18}")
WARM_STEP = 250
CONFIRMED_BY = "confirmed by"


def system_key(text: str) -> str:
    """The stored name of a game system: lower case words joined by hyphens, common aliases merged."""
    slug = re.sub(r"[^a-z0-9]+", "-", text.strip().lower()).strip("-")[:32].strip("-")
    return _ALIASES.get(slug, slug)


def system_title(key: str) -> str:
    return SYSTEM_TITLES.get(key, key.replace("-", " ").title() if key else "Game")


# The opponent's Confirm / Dispute buttons; the scores cog's persistent item answers them.
RESULT_BUTTON = re.compile(r"score:(?P<rid>\d{1,18}):(?P<action>confirm|dispute)")


def result_buttons(result_id: int) -> list[Button]:
    return [
        Button(label="Confirm", style="success", custom_id=f"score:{result_id}:confirm"),
        Button(label="Dispute", style="danger", custom_id=f"score:{result_id}:dispute"),
    ]


def prompt_embed(row: GameResult) -> Embed:
    """The result a hand-entered game's opponent is asked to confirm."""
    record = record_of(row)
    lines = [score_line(record) + (" — a draw" if record.winner is None else "")]
    if record.mission:
        lines.append(f"Mission: {clip(record.mission, 200)}")
    factions = factions_line(record)
    if factions:
        lines.append(factions)
    lines.append(
        f"Recorded by <@{row.reported_by}>. It counts once <@{row.player_b}> confirms it "
        "(or by itself after 24 hours)."
    )
    return Embed(
        title=f"{system_title(row.system)}: confirm this result?",
        description="\n".join(lines),
        colour=PROMPT_COLOUR,
        footer=f"Result #{row.id}",
    )


def record_of(row: GameResult) -> ResultRecord:
    return ResultRecord(
        id=row.id,
        system=row.system,
        mission=row.mission,
        player_a=row.player_a,
        player_b=row.player_b,
        score_a=row.score_a,
        score_b=row.score_b,
        winner=row.winner_id,
        played_at=row.played_at,
        faction_a=row.faction_a,
        faction_b=row.faction_b,
        season_id=row.season_id,
        status=ResultStatus(row.status),
    )


_COLUMNS = (
    GameResult.id,
    GameResult.system,
    GameResult.mission,
    GameResult.player_a,
    GameResult.player_b,
    GameResult.score_a,
    GameResult.score_b,
    GameResult.winner_id,
    GameResult.played_at,
    GameResult.faction_a,
    GameResult.faction_b,
    GameResult.season_id,
    GameResult.status,
)


def _record_of_columns(values: Sequence[Any]) -> ResultRecord:
    (
        rid,
        system,
        mission,
        a,
        b,
        score_a,
        score_b,
        winner,
        played_at,
        faction_a,
        faction_b,
        season_id,
        status,
    ) = values
    return ResultRecord(
        id=rid,
        system=system,
        mission=mission,
        player_a=a,
        player_b=b,
        score_a=score_a,
        score_b=score_b,
        winner=winner,
        played_at=played_at,
        faction_a=faction_a,
        faction_b=faction_b,
        season_id=season_id,
        status=ResultStatus(status),
    )


@dataclass(frozen=True)
class ManualResult:
    """A hand-entered result just stored, and the channel its opponent is asked to confirm it in."""

    row: GameResult
    asked_in: int


@dataclass(frozen=True)
class SeasonChoice:
    """What a leaderboard or export covers: one season, or all time (`season` None)."""

    season: Season | None

    @property
    def season_id(self) -> int | None:
        return self.season.id if self.season else None

    @property
    def label(self) -> str:
        return f"Season: {self.season.name}" if self.season else "All time"

    @property
    def token(self) -> str:
        return str(self.season.id) if self.season else "all"


class NameCache:
    """Display names for images and exports (embeds use mentions, which Discord renders itself).

    Names seen in interactions are remembered; the rest are fetched one member at a time (no
    privileged intent needed), at most `fetch_limit` per request, and kept for an hour.
    """

    TTL = 3600.0

    def __init__(self, fetch_limit: int = 50) -> None:
        self.fetch_limit = fetch_limit
        self._names: dict[tuple[int, int], tuple[str, float]] = {}

    def remember(self, guild_id: int | None, user: discord.abc.User | None) -> None:
        if guild_id is not None and user is not None:
            self._names[(guild_id, user.id)] = (user.display_name, time.monotonic())

    async def names(self, guild: discord.Guild | None, guild_id: int, users: Iterable[int]) -> dict[int, str]:
        found: dict[int, str] = {}
        missing: list[int] = []
        now = time.monotonic()
        for user in dict.fromkeys(users):
            known = self._names.get((guild_id, user))
            if known is not None and now - known[1] < self.TTL:
                found[user] = known[0]
            else:
                missing.append(user)
        for user in missing[: self.fetch_limit]:
            if guild is None:
                break
            try:
                member = await guild.fetch_member(user)
            except discord.HTTPException:
                continue  # left the server, or Discord is busy: the caller shows the id instead
            self._names[(guild_id, user)] = (member.display_name, now)
            found[user] = member.display_name
        return found


class ScoreService:
    def __init__(self, bot: MusterBot) -> None:
        self.bot = bot
        self.store = bot.store
        self.books: dict[int, RatingBook] = {}
        self.names = NameCache()
        # Confirmed results per server, kept between commands. Every write to `results` in this
        # process goes through this service (session results pass through `on_session_result`),
        # and each bumps the server's generation once committed; a cached list is used only while
        # its generation is current, so a read that raced a write is never reused.
        self._generation: dict[int, int] = {}
        self._confirmed: dict[int, tuple[int, list[ResultRecord]]] = {}
        self._book_source: dict[int, list[ResultRecord]] = {}
        self._announcer = Worker(
            "score-announcer", self._announce_pass, bot.settings.sweep_seconds, ready=bot.wait_until_ready
        )
        self._warming: asyncio.Task[None] | None = None

    # ------------------------------------------------------------------ reading

    async def records(
        self, guild_id: int, *, confirmed_only: bool = True, season_id: int | None = None
    ) -> list[ResultRecord]:
        query = select(*_COLUMNS).where(GameResult.guild_id == guild_id)
        if confirmed_only:
            query = query.where(GameResult.status == ResultStatus.CONFIRMED.value)
        if season_id is not None:
            query = query.where(GameResult.season_id == season_id)
        ordered = query.order_by(GameResult.played_at, GameResult.id)
        rows = await self.store.run(lambda db: db.execute(ordered).all())  # one hand-off for every row
        records: list[ResultRecord] = []
        for start in range(0, len(rows), LOAD_STEP):
            records.extend(_record_of_columns(row) for row in rows[start : start + LOAD_STEP])
            if start + LOAD_STEP < len(rows):
                await asyncio.sleep(0)  # a big server's results: let other interactions in between
        return records

    def changed(self, guild_id: int) -> None:
        """Forget what is cached for a server: call after committing any change to its results."""
        self._generation[guild_id] = self._generation.get(guild_id, 0) + 1

    def forget(self, guild_id: int) -> None:
        """Drop everything cached for a server (the next command reloads and replays from scratch)."""
        self.changed(guild_id)
        self._confirmed.pop(guild_id, None)
        self.books.pop(guild_id, None)
        self._book_source.pop(guild_id, None)

    async def confirmed(self, guild_id: int) -> list[ResultRecord]:
        """The server's confirmed results, oldest first (shared: never modify the list)."""
        generation = self._generation.get(guild_id, 0)
        cached = self._confirmed.get(guild_id)
        if cached is not None and cached[0] == generation:
            return cached[1]
        records = await self.records(guild_id)
        if self._generation.get(guild_id, 0) == generation:
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

    async def result(self, guild_id: int | None, result_id: int) -> GameResult:
        async with self.store.read() as db:
            row = await db.get(GameResult, result_id)
        if row is None or (guild_id is not None and row.guild_id != guild_id):
            raise RuleError(f"There is no result #{result_id} in this server.")
        return row

    async def systems(self, guild_id: int) -> list[str]:
        async with self.store.read() as db:
            used = await db.scalars(
                select(GameResult.system).where(GameResult.guild_id == guild_id).distinct()
            )
            return sorted(set(used) | set(SYSTEM_TITLES))

    async def organiser_of(self, row: GameResult) -> int | None:
        """Who should hear about a problem with this result: the session's organiser, or the reporter."""
        if row.session_id is not None:
            async with self.store.read() as db:
                session = await db.get(GameSession, row.session_id)
            if session is not None:
                return session.organiser_id
        return row.reported_by

    # ------------------------------------------------------------------ seasons

    async def seasons(self, guild_id: int) -> list[Season]:
        async with self.store.read() as db:
            return list(
                await db.scalars(
                    select(Season)
                    .where(Season.guild_id == guild_id)
                    .order_by(Season.started_at.desc(), Season.id.desc())
                )
            )

    async def active_season(self, guild_id: int, db: AsyncSession | None = None) -> Season | None:
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

    async def start_season(self, guild_id: int, name: str) -> Season:
        name = " ".join(name.split())
        if not name:
            raise RuleError("Give the season a name, e.g. `Spring 2025`.")
        if len(name) > 100:
            raise RuleError("A season name can be at most 100 characters.")
        if name.lower() in ("all", "all time", "all-time"):
            raise RuleError(f"`{name}` is kept for all-time standings; pick another season name.")
        async with self.store.write() as db:
            running = await self.active_season(guild_id, db)
            if running is not None:
                raise RuleError(
                    f"Season **{running.name}** is still running: end it first with `/scores season end`."
                )
            taken = await db.scalar(select(Season).where(Season.guild_id == guild_id, Season.name == name))
            if taken is not None:
                raise RuleError(f"This server already had a season called **{name}**; pick another name.")
            season = Season(guild_id=guild_id, name=name, started_at=utcnow())
            db.add(season)
        return season

    async def end_season(self, guild_id: int) -> Season:
        async with self.store.write() as db:
            running = await self.active_season(guild_id, db)
            if running is None:
                raise RuleError("No season is running in this server. Start one with `/scores season start`.")
            running.ended_at = utcnow()
        return running

    async def choose_season(self, guild_id: int, name: str | None) -> SeasonChoice:
        """A season by name; "all" for all time; nothing: the running season, else all time."""
        if name is None or not name.strip():
            return SeasonChoice(await self.active_season(guild_id))
        wanted = " ".join(name.split())
        if wanted.lower() in ("all", "all time", "all-time", "alltime"):
            return SeasonChoice(None)
        seasons = await self.seasons(guild_id)
        for season in seasons:
            if season.name.lower() == wanted.lower() or (
                _SEASON_ID.fullmatch(wanted)  # ASCII digits only: "²" is a digit int() can't read
                and season.id == int(wanted)
                and not any(s.name == wanted for s in seasons)
            ):
                return SeasonChoice(season)
        known = ", ".join(f"**{clip(s.name, 40)}**" for s in seasons[:10])
        hint = (
            f" Seasons here: {known}, or `all`." if known else " This server has no seasons yet; try `all`."
        )
        raise RuleError(f"There is no season called **{clip(wanted, 100)}** in this server.{hint}")

    async def season_by_token(self, guild_id: int, token: str) -> SeasonChoice:
        if token == "all":
            return SeasonChoice(None)
        async with self.store.read() as db:
            season = await db.get(Season, int(token))
        if season is None or season.guild_id != guild_id:
            raise RuleError("That season no longer exists.")
        return SeasonChoice(season)

    # ------------------------------------------------------------------ recording

    async def record_manual(
        self,
        *,
        guild_id: int,
        channel_id: int,
        reporter: int,
        opponent: int,
        opponent_is_bot: bool,
        system: str,
        my_score: int,
        their_score: int,
        mission: str | None = None,
        my_faction: str | None = None,
        their_faction: str | None = None,
        guild_name: str = "a server",
    ) -> ManualResult:
        """A game played without a session: pending until the opponent confirms. The reporter is side A.

        The confirm prompt (results channel, else this one) and the opponent's DM are outbox rows
        written with the result, so the caller answers first and nothing is posted twice or lost.
        The caller kicks the delivery once it has answered.
        """
        check_manual_entry(
            reporter=reporter,
            opponent=opponent,
            opponent_is_bot=opponent_is_bot,
            system=system,
            my_score=my_score,
            their_score=their_score,
            mission=mission,
            my_faction=my_faction,
            their_faction=their_faction,
        )
        key = system_key(system)
        if not key:
            raise RuleError("Say which game system you played, in letters or digits (e.g. `warcry`).")
        now = utcnow()
        settings = await self.bot.guild_settings.get(guild_id)
        results = settings.results_channel_id
        asked_in = results if results is not None else channel_id
        record = ResultRecord(
            id=0,
            system=key,
            mission=mission,
            player_a=reporter,
            player_b=opponent,
            score_a=my_score,
            score_b=their_score,
            winner=winner_from_scores(reporter, opponent, my_score, their_score),
            played_at=now,
            faction_a=my_faction,
            faction_b=their_faction,
            status=ResultStatus.PENDING,
        )
        async with self.store.write() as db:
            season = await self.active_season(guild_id, db)
            row = GameResult(
                guild_id=guild_id,
                channel_id=channel_id,
                system=record.system,
                mission=record.mission,
                player_a=reporter,
                player_b=opponent,
                faction_a=record.faction_a,
                faction_b=record.faction_b,
                score_a=my_score,
                score_b=their_score,
                winner_id=record.winner,
                summary="",
                played_at=now,
                session_id=None,
                season_id=season.id if season else None,
                status=ResultStatus.PENDING.value,
                reported_by=reporter,
                announced=False,
            )
            db.add(row)
            await db.flush()  # the result's id, for its buttons
            await enqueue(db, None, self._confirm_prompts(row, asked_in, guild_name))
        log.info("result %s recorded by %s in guild %s (pending)", row.id, reporter, guild_id)
        return ManualResult(row, asked_in)

    def _confirm_prompts(self, row: GameResult, asked_in: int, guild_name: str) -> list[Outgoing]:
        """The opponent's Confirm / Dispute: where results go (else the game's channel), and by DM."""
        embed, buttons = prompt_embed(row), result_buttons(row.id)
        moved = asked_in != row.channel_id
        note = (
            f"I couldn't post in <#{asked_in}> (I'm missing permission there), so I asked here "
            "instead; someone with Manage Server should fix the permissions or pick another channel "
            "with `/settings results-channel`."
        )
        return [
            Outgoing(
                channel_id=asked_in,
                content=f"<@{row.player_b}>, please confirm or dispute this result.",
                embeds=[embed],
                buttons=buttons,
                fallback_channel_id=row.channel_id if moved else None,
                failure_note=note if moved else None,
            ),
            Outgoing(
                to="dm",
                user_id=row.player_b,
                content=(
                    f"<@{row.reported_by}> recorded a game against you in **{clip(guild_name, 100)}**. "
                    "Please confirm or dispute it."
                ),
                embeds=[embed],
                buttons=buttons,
            ),
        ]

    async def on_session_result(
        self, db: AsyncSession, info: SessionInfo, outcome: GameOutcome
    ) -> list[Outgoing]:
        """Session result hook: the platform has just added the row; confirm it and file it in the season."""
        row = next((obj for obj in db.new if isinstance(obj, GameResult) and obj.session_id == info.id), None)
        if row is None:
            row = await db.scalar(select(GameResult).where(GameResult.session_id == info.id))
        if row is None:
            log.warning("finished session %s left no result row", info.id)
            return []
        season = await self.active_season(info.guild_id, db)
        row.season_id = season.id if season else None
        row.system = system_key(row.system) or row.system
        row.score_a, row.score_b = (max(0, min(s, 10_000)) for s in (row.score_a, row.score_b))
        row.status = ResultStatus.CONFIRMED.value
        row.confirmed_at = utcnow()
        row.announced = False
        self._after_commit(db, info.guild_id, announce=True)
        return []

    def _after_commit(self, db: AsyncSession, guild_id: int, *, announce: bool) -> None:
        """Once the transaction commits: drop the server's cached results, and wake the announcer."""

        def committed(_session: Any) -> None:
            self.changed(guild_id)
            if announce:
                self.kick()

        event.listen(db.sync_session, "after_commit", committed, once=True)

    async def _change_status(
        self, result_id: int, guild_id: int | None, user_id: int, *, to: ResultStatus
    ) -> GameResult:
        """The opponent's confirm or dispute of a pending result."""
        verb = "confirm" if to is ResultStatus.CONFIRMED else "dispute"
        async with self.store.write() as db:
            row = await db.get(GameResult, result_id)
            if row is None or (guild_id is not None and row.guild_id != guild_id):
                raise RuleError(f"There is no result #{result_id} in this server.")
            opponent = row.player_b if row.reported_by == row.player_a else row.player_a
            if row.reported_by is None or user_id != opponent:
                if user_id == row.reported_by:
                    raise RuleError(f"You recorded this result, so <@{opponent}> has to {verb} it.")
                raise RuleError(f"Only <@{opponent}>, the opponent in this game, can {verb} this result.")
            if row.status != ResultStatus.PENDING.value:
                raise RuleError(f"Result #{row.id} is already {row.status}; nothing changed.")
            row.status = to.value
            if to is ResultStatus.CONFIRMED:
                row.confirmed_at = utcnow()
            self._after_commit(db, row.guild_id, announce=to is ResultStatus.CONFIRMED)
        log.info("result %s %sed by %s", result_id, verb.rstrip("e"), user_id)
        return row

    async def confirm(self, result_id: int, guild_id: int | None, user_id: int) -> GameResult:
        return await self._change_status(result_id, guild_id, user_id, to=ResultStatus.CONFIRMED)

    async def dispute(self, result_id: int, guild_id: int | None, user_id: int) -> GameResult:
        row = await self._change_status(result_id, guild_id, user_id, to=ResultStatus.DISPUTED)
        await self._flag_dispute(row, user_id)
        return row

    async def _flag_dispute(self, row: GameResult, user_id: int) -> None:
        """Tell the people with Manage Server, where results are posted."""
        await self._notice(
            row,
            f"⚠️ Result #{row.id} ({system_title(row.system)}: {score_line(record_of(row))}) was disputed "
            f"by <@{user_id}>. Someone with Manage Server can settle it with "
            f"`/scores resolve result:{row.id}`.",
        )

    async def _notice(self, row: GameResult, text: str) -> None:
        """A line where results are posted, through the outbox (so it is retried, and falls back to
        the game's channel when the results channel refuses)."""
        settings = await self.bot.guild_settings.get(row.guild_id)
        target = settings.results_channel_id or row.channel_id
        if target is None:
            return
        fallback = row.channel_id if row.channel_id != target else None
        await self.bot.sessions.queue(
            None,
            [
                Outgoing(
                    channel_id=target,
                    content=text,
                    fallback_channel_id=fallback,
                    failure_note="(I couldn't post this in the results channel.)" if fallback else None,
                )
            ],
        )

    async def resolve(
        self,
        *,
        guild_id: int,
        result_id: int,
        by: int,
        confirm: bool,
        score_a: int | None = None,
        score_b: int | None = None,
        note: str | None = None,
    ) -> tuple[GameResult, bool]:
        """Manage Server's ruling: confirm (maybe with corrected scores) or void; returns (row, corrected)."""
        if (score_a is None) != (score_b is None):
            raise RuleError("To correct the scores give both `score_a` and `score_b`.")
        if not confirm and score_a is not None:
            raise RuleError("Corrected scores only make sense when confirming; leave them out to void.")
        for label, score in (("score_a", score_a), ("score_b", score_b)):
            if score is not None and not 0 <= score <= 10_000:
                raise RuleError(f"`{label}` must be between 0 and 10000.")
        async with self.store.write() as db:
            row = await db.get(GameResult, result_id)
            if row is None or row.guild_id != guild_id:
                raise RuleError(f"There is no result #{result_id} in this server.")
            if row.status == ResultStatus.VOID.value:
                raise RuleError(f"Result #{row.id} was voided; record the game again if it should count.")
            corrected = False
            if (
                score_a is not None
                and score_b is not None
                and (score_a, score_b) != (row.score_a, row.score_b)
            ):
                row.score_a, row.score_b = score_a, score_b
                row.winner_id = winner_from_scores(row.player_a, row.player_b, score_a, score_b)
                corrected = True
            was_counted = row.status == ResultStatus.CONFIRMED.value
            if not confirm:
                row.status = ResultStatus.VOID.value
            else:
                if was_counted and not corrected:
                    raise RuleError(
                        f"Result #{row.id} is already confirmed; give corrected scores to change "
                        "it, or void it."
                    )
                row.status = ResultStatus.CONFIRMED.value
                row.confirmed_at = row.confirmed_at or utcnow()
                row.announced = False  # announce it (again, when corrected)
            self._after_commit(db, guild_id, announce=confirm)
            row.note = clip(
                f"{CONFIRMED_BY if confirm else 'voided by'} {by}" + (f": {note}" if note else ""), 500
            )
        log.info(
            "result %s resolved by %s: %s%s",
            result_id,
            by,
            "confirmed" if confirm else "void",
            " with corrected scores" if corrected else "",
        )
        if was_counted and not confirm:
            await self._announce_void(row, by)
        return row, corrected

    async def void(
        self, *, guild_id: int, result_id: int, by: int, may_manage: bool, reason: str | None = None
    ) -> GameResult:
        """Manage Server may void any result; the reporter may withdraw their own while it is pending."""
        async with self.store.write() as db:
            row = await db.get(GameResult, result_id)
            if row is None or row.guild_id != guild_id:
                raise RuleError(f"There is no result #{result_id} in this server.")
            own_pending = row.reported_by == by and row.status == ResultStatus.PENDING.value
            if not (may_manage or own_pending):
                raise RuleError(
                    "Only someone with Manage Server can void a result (you may withdraw one "
                    "you recorded while it is still pending)."
                )
            if row.status == ResultStatus.VOID.value:
                raise RuleError(f"Result #{row.id} is already void.")
            was_counted = row.status == ResultStatus.CONFIRMED.value
            row.status = ResultStatus.VOID.value
            row.note = clip(f"voided by {by}" + (f": {reason}" if reason else ""), 500)
            self._after_commit(db, guild_id, announce=False)
        log.info("result %s voided by %s", result_id, by)
        if was_counted:
            await self._announce_void(row, by)
        return row

    async def _announce_void(self, row: GameResult, by: int) -> None:
        await self._notice(
            row,
            f"Result #{row.id} ({system_title(row.system)}: {score_line(record_of(row))}) was voided by "
            f"<@{by}>: it no longer counts, and ratings have been replayed without it.",
        )

    async def auto_confirm(self, now: datetime | None = None) -> list[int]:
        """Confirm every result still pending after `auto_confirm_hours`; returns their ids."""
        cutoff = (now or utcnow()) - timedelta(hours=self.bot.settings.auto_confirm_hours)
        async with self.store.write() as db:
            rows = list(
                await db.scalars(
                    select(GameResult).where(
                        GameResult.status == ResultStatus.PENDING.value, GameResult.played_at <= cutoff
                    )
                )
            )
            for row in rows:
                row.status = ResultStatus.CONFIRMED.value
                row.confirmed_at = now or utcnow()
                row.note = AUTO_CONFIRMED
        for guild_id in {r.guild_id for r in rows}:
            self.changed(guild_id)
        if rows:
            log.info("auto-confirmed results %s", [r.id for r in rows])
            self.kick()
        return [r.id for r in rows]

    # ------------------------------------------------------------------ announcing

    def kick(self) -> None:
        self._announcer.kick()

    async def idle(self, limit: float = 10.0) -> None:
        """Wait until every confirmed result so far has been announced (tests use it)."""
        await self._announcer.idle(limit)

    def start(self) -> None:
        self._announcer.start()
        if self._warming is None:
            self._warming = asyncio.create_task(self.warm_up(), name="score-warm-up")
        self.kick()  # anything confirmed but not announced before a restart goes out now

    async def stop(self) -> None:
        await self._announcer.stop()
        if self._warming is not None:
            self._warming.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._warming
            self._warming = None

    async def warm_up(self) -> None:
        """Replay every server's ratings after start-up, a few hundred results at a time.

        So the first leaderboard after a restart is as quick as any other, and a big replay never
        holds up other interactions for long. A command arriving meanwhile just finishes the job.
        """
        try:
            await self.bot.wait_until_ready()
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

    async def _announce_pass(self) -> None:
        await self.auto_confirm()
        while await self.announce_due():
            pass

    async def announce_due(self) -> int:
        """Queue the announcement of every confirmed result not yet announced; returns how many.

        Each announcement is an outbox row written in the same transaction as the result's
        `announced` flag, so it is sent exactly once (and retried) by the outbox. A result that
        changed since it was read (corrected, voided) is left for the next pass.
        """
        async with self.store.read() as db:
            rows = list(
                await db.scalars(
                    select(GameResult)
                    .where(GameResult.status == ResultStatus.CONFIRMED.value, GameResult.announced.is_(False))
                    .order_by(GameResult.id)
                    .limit(ANNOUNCE_BATCH)
                )
            )
        if not rows:
            return 0
        messages = [(row, await self.announcement(row)) for row in rows]
        handled = 0
        async with self.store.write() as db:
            for row, message in messages:
                claimed = await db.execute(
                    update(GameResult)
                    .where(
                        GameResult.id == row.id,
                        GameResult.status == ResultStatus.CONFIRMED.value,
                        GameResult.announced.is_(False),
                        GameResult.score_a == row.score_a,
                        GameResult.score_b == row.score_b,
                    )
                    .values(announced=True)
                )
                if claimed.rowcount != 1:  # type: ignore[attr-defined]
                    continue
                if message is not None:  # behind the game's own last messages, if it had a session
                    await enqueue(db, None, [message], session_id=row.session_id)
                handled += 1
        self.bot.delivery.kick()
        return handled

    async def announcement_embed(self, row: GameResult) -> Embed:
        record = record_of(row)
        book, _ = await self.book(row.guild_id)
        lines = [score_line(record) + (" — a draw" if record.winner is None else "")]
        if record.mission:
            lines.append(f"Mission: {clip(record.mission, 200)}")
        factions = factions_line(record)
        if factions:
            lines.append(factions)
        if row.summary:
            lines.append(clip(row.summary, 1500))
        embed = Embed(
            title=f"{system_title(row.system)} result",
            description="\n".join(lines),
            colour=ANNOUNCE_COLOUR,
            timestamp=row.played_at,
        )
        own = book.ledger(record.system).change(record.id)
        overall = book.ledger(None).change(record.id)
        if own is not None:
            embed.add(
                f"{system_title(record.system)} rating",
                "\n".join(f"<@{c.player}> {format_change(c)}" for c in own),
            )
        if overall is not None and own is not None and [c.before for c in overall] != [c.before for c in own]:
            embed.add("Overall rating", "\n".join(f"<@{c.player}> {format_change(c)}" for c in overall))
        if row.session_id:
            how = "from the game session"
        elif row.note == AUTO_CONFIRMED:
            how = f"auto-confirmed after {self.bot.settings.auto_confirm_hours:g} hours"
        elif row.note and row.note.startswith(CONFIRMED_BY):
            how = "confirmed by Manage Server"
        else:
            how = "confirmed by the opponent"
        season = None
        if row.season_id is not None:
            async with self.store.read() as db:
                season = await db.get(Season, row.season_id)
        footer = f"Result #{row.id} · {how}" + (f" · {season.name}" if season else "")
        embed.footer = clip(footer, 2048)
        return embed

    async def announcement(self, row: GameResult) -> Outgoing | None:
        """The result's announcement: in the results channel, else the game's channel (None: neither
        is known). If the results channel refuses it goes to the game's channel, and failing that to
        the organiser by DM, with a note telling the organiser what to fix."""
        settings = await self.bot.guild_settings.get(row.guild_id)
        target = settings.results_channel_id or row.channel_id
        if target is None:
            return None
        organiser = await self.organiser_of(row)
        mention = f"<@{organiser}> " if organiser else ""
        return Outgoing(
            channel_id=target,
            embeds=[await self.announcement_embed(row)],
            fallback_channel_id=row.channel_id if row.channel_id != target else None,
            failure_note=(
                f"{mention}I couldn't announce result #{row.id} in <#{target}>: I'm missing permission "
                "to post there (View Channel, Send Messages and Embed Links). Please fix the "
                "permissions or pick another channel with `/settings results-channel`."
            ),
            failure_user_id=organiser,
        )
