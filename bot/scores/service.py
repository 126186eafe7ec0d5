"""The score service: the status changes of results, and the background sweep.

Life of a result:
- hand-entered (`/scores record`): *pending*, the opponent confirms or disputes with a button (in
  the results channel and in a DM); a pending result confirms itself after `auto_confirm_hours`.
- from a finished session: stored *confirmed* by the one results hook, in the transaction of the
  game's last step (both players played it through the bot, whose rules computed the outcome).
- *disputed*: waits for someone with Manage Server (`/scores resolve`); *void*: never counts.
Every confirmed result is then announced once (bot/scores/announce.py). Everything said in Discord
goes through the outbox, written in the same transaction as the change it reports or after it,
so it is never sent before it is stored. Every query is scoped to one server.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from sqlalchemy import event, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from bot.chat.messages import Outgoing
from bot.chat.outbox import enqueue
from bot.db.models import ClubEvent, GameResult, utcnow
from bot.play.games import SessionInfo
from bot.scores.announce import Announcer
from bot.scores.cache import ResultCache, bump_generation
from bot.scores.names import NameCache
from bot.scores.prompts import confirm_prompts
from bot.scores.rows import AUTO_CONFIRMED, CONFIRMED_BY, UNRATED_EVENT, session_result_row
from bot.scores.seasons import Seasons
from bot.scores.systems import known_systems, system_key
from bot.worker import Worker
from rules.errors import RuleError
from rules.event.state import EventState
from rules.scores import MAX_SCORE, ResultStatus, check_manual_entry, winner_from_scores
from rules.session import GameOutcome
from rules.text import clip

if TYPE_CHECKING:
    from bot.app import MusterBot

log = logging.getLogger("muster.scores")

NOTE_MAX = 500


@dataclass(frozen=True)
class ManualResult:
    """A hand-entered result just stored, and the channel its opponent is asked to confirm it in."""

    row: GameResult
    asked_in: int


async def unrated_event(db: AsyncSession, night_id: str | None) -> bool:
    """Whether a game was opened by a round of an event made unrated: its games carry
    `event:<id>:<round>` as their night (bot/events/rounds.py `round_tag`)."""
    if night_id is None or not night_id.startswith("event:"):
        return False
    state = await db.scalar(select(ClubEvent.state).where(ClubEvent.id == night_id.split(":")[1]))
    return state is not None and not EventState.model_validate_json(state).settings.rated


class ScoreService:
    """Owns the parts (cached results, seasons, names, announcements) and every write to results."""

    def __init__(self, bot: MusterBot) -> None:
        self.bot = bot
        self.store = bot.store
        self.results = ResultCache(bot.store)
        self.seasons = Seasons(bot.store)
        self.names = NameCache()
        self.announcer = Announcer(bot, self.results)
        self._sweeper = Worker(
            "score-announcer", self._sweep, bot.settings.sweep_seconds, ready=bot.wait_until_ready
        )
        self._warming: asyncio.Task[None] | None = None

    # ------------------------------------------------------------------ running

    def start(self) -> None:
        self._sweeper.start()
        if self._warming is None:
            self._warming = asyncio.create_task(
                self.results.warm_up(self.bot.wait_until_ready), name="score-warm-up"
            )
        self.kick()  # anything confirmed but not announced before a restart goes out now

    async def stop(self) -> None:
        await self._sweeper.stop()
        if self._warming is not None:
            self._warming.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._warming
            self._warming = None

    def kick(self) -> None:
        """Wake the sweep: auto-confirm what is due, then announce every confirmed result."""
        self._sweeper.kick()

    async def idle(self, limit: float = 10.0) -> None:
        """Wait until every confirmed result so far has been announced (tests use it)."""
        await self._sweeper.idle(limit)

    async def _sweep(self) -> None:
        await self.auto_confirm()
        while await self.announcer.announce_due():
            pass

    def game_rendered(self, session_id: str) -> None:
        """A game that ended has its last messages queued (`StepRenderer.ended_rendered`): its
        result, left waiting for them, is announced now, behind them."""
        self.kick()

    async def _changed(self, db: AsyncSession, guild_id: int, *, announce: bool) -> None:
        """In a transaction that changes a server's results: bump its stored generation (so every
        process's cached results are refreshed), and wake the announcer once it commits."""
        await bump_generation(db, guild_id)
        if announce:
            event.listen(db.sync_session, "after_commit", lambda _session: self.kick(), once=True)

    # ------------------------------------------------------------------ reading

    async def systems(self, guild_id: int) -> list[str]:
        """Every system with a result in this server, and every known one."""
        async with self.store.read() as db:
            used = await db.scalars(
                select(GameResult.system).where(GameResult.guild_id == guild_id).distinct()
            )
            return sorted(set(used) | {key for _title, key in known_systems()})

    # ------------------------------------------------------------------ recording

    async def record_session_result(
        self, db: AsyncSession, info: SessionInfo, outcome: GameOutcome
    ) -> list[Outgoing]:
        """The results hook: store a finished session's result, confirmed and filed in the running
        season, in the transaction of the game's last step (so a game never finishes without its
        result, nor has one twice). The announcer announces it once that transaction commits."""
        season = await self.seasons.running(info.guild_id, db)
        row = session_result_row(info, outcome, season_id=season.id if season else None, at=utcnow())
        if await unrated_event(db, info.night_id):  # kept for the event, out of the scores
            row.status, row.note, row.announced = ResultStatus.VOID.value, UNRATED_EVENT, True
        db.add(row)
        await self._changed(db, info.guild_id, announce=not row.announced)
        return []

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
            raise RuleError(code="scores.system_unreadable")
        now = utcnow()
        settings = await self.bot.guild_settings.get(guild_id)
        asked_in = settings.results_channel_id if settings.results_channel_id is not None else channel_id
        languages = await self.bot.languages.for_players(guild_id, [opponent])
        async with self.store.write() as db:
            season = await self.seasons.running(guild_id, db)
            row = GameResult(
                guild_id=guild_id,
                channel_id=channel_id,
                system=key,
                mission=(mission or "").strip() or None,
                player_a=reporter,
                player_b=opponent,
                faction_a=(my_faction or "").strip() or None,
                faction_b=(their_faction or "").strip() or None,
                score_a=my_score,
                score_b=their_score,
                winner_id=winner_from_scores(reporter, opponent, my_score, their_score),
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
            await enqueue(db, None, confirm_prompts(row, asked_in, guild_name, languages))
        log.info("result %s recorded by %s in guild %s (pending)", row.id, reporter, guild_id)
        return ManualResult(row, asked_in)

    # ------------------------------------------------------------------ the opponent's answer

    async def confirm(self, result_id: int, guild_id: int | None, user_id: int) -> GameResult:
        return await self._answer(result_id, guild_id, user_id, to=ResultStatus.CONFIRMED)

    async def dispute(self, result_id: int, guild_id: int | None, user_id: int) -> GameResult:
        row = await self._answer(result_id, guild_id, user_id, to=ResultStatus.DISPUTED)
        await self.announcer.disputed(row, user_id)
        return row

    async def _answer(
        self, result_id: int, guild_id: int | None, user_id: int, *, to: ResultStatus
    ) -> GameResult:
        """The opponent's confirm or dispute of a pending result."""
        action = "confirm" if to is ResultStatus.CONFIRMED else "dispute"
        async with self.store.write() as db:
            row = await db.get(GameResult, result_id)
            if row is None or (guild_id is not None and row.guild_id != guild_id):
                raise RuleError(code="scores.no_result", result=result_id)
            opponent = row.player_b if row.reported_by == row.player_a else row.player_a
            if row.reported_by is None or user_id != opponent:
                if user_id == row.reported_by:
                    raise RuleError(code="scores.reporter_cannot_answer", opponent=opponent, action=action)
                raise RuleError(code="scores.only_opponent", opponent=opponent, action=action)
            if row.status != ResultStatus.PENDING.value:
                raise RuleError(code="scores.already_answered", result=row.id, status=row.status)
            row.status = to.value
            if to is ResultStatus.CONFIRMED:
                row.confirmed_at = utcnow()
            await self._changed(db, row.guild_id, announce=to is ResultStatus.CONFIRMED)
        log.info("result %s %sed by %s", result_id, action.rstrip("e"), user_id)
        return row

    # ------------------------------------------------------------------ rulings

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
            raise RuleError(code="scores.correction_needs_both")
        if not confirm and score_a is not None:
            raise RuleError(code="scores.correction_when_voiding")
        for field, score in (("score_a", score_a), ("score_b", score_b)):
            if score is not None and not 0 <= score <= MAX_SCORE:
                raise RuleError(code="scores.correction_range", field=field, minimum=0, maximum=MAX_SCORE)
        async with self.store.write() as db:
            row = await db.get(GameResult, result_id)
            if row is None or row.guild_id != guild_id:
                raise RuleError(code="scores.no_result", result=result_id)
            if row.status == ResultStatus.VOID.value:
                raise RuleError(code="scores.resolve_void", result=row.id)
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
                    raise RuleError(code="scores.already_confirmed", result=row.id)
                row.status = ResultStatus.CONFIRMED.value
                row.confirmed_at = row.confirmed_at or utcnow()
                row.announced = False  # announce it (again, when corrected)
            await self._changed(db, guild_id, announce=confirm)
            row.note = clip(
                f"{CONFIRMED_BY if confirm else 'voided by'} {by}" + (f": {note}" if note else ""), NOTE_MAX
            )
        log.info(
            "result %s resolved by %s: %s%s",
            result_id,
            by,
            "confirmed" if confirm else "void",
            " with corrected scores" if corrected else "",
        )
        if was_counted and not confirm:
            await self.announcer.voided(row, by)
        return row, corrected

    async def void(
        self, *, guild_id: int, result_id: int, by: int, may_manage: bool, reason: str | None = None
    ) -> GameResult:
        """Manage Server may void any result; the reporter may withdraw their own while it is pending."""
        async with self.store.write() as db:
            row = await db.get(GameResult, result_id)
            if row is None or row.guild_id != guild_id:
                raise RuleError(code="scores.no_result", result=result_id)
            own_pending = row.reported_by == by and row.status == ResultStatus.PENDING.value
            if not (may_manage or own_pending):
                raise RuleError(code="scores.void_not_allowed")
            if row.status == ResultStatus.VOID.value:
                raise RuleError(code="scores.already_void", result=row.id)
            was_counted = row.status == ResultStatus.CONFIRMED.value
            row.status = ResultStatus.VOID.value
            row.note = clip(f"voided by {by}" + (f": {reason}" if reason else ""), NOTE_MAX)
            await self._changed(db, guild_id, announce=False)
        log.info("result %s voided by %s", result_id, by)
        if was_counted:
            await self.announcer.voided(row, by)
        return row

    async def auto_confirm(self, now: datetime | None = None) -> list[int]:
        """Confirm every result still pending after `auto_confirm_hours`; returns their ids."""
        cutoff = (now or utcnow()) - timedelta(hours=self.bot.settings.auto_confirm_hours)
        async with self.store.write() as db:
            # One conditional UPDATE: a result another process confirmed (or anyone answered)
            # meanwhile is not confirmed twice.
            rows = (
                await db.execute(
                    update(GameResult)
                    .where(GameResult.status == ResultStatus.PENDING.value, GameResult.played_at <= cutoff)
                    .values(
                        status=ResultStatus.CONFIRMED.value, confirmed_at=now or utcnow(), note=AUTO_CONFIRMED
                    )
                    .returning(GameResult.id, GameResult.guild_id)
                )
            ).all()
            for guild_id in {r.guild_id for r in rows}:
                await self._changed(db, guild_id, announce=False)
        if rows:
            log.info("auto-confirmed results %s", [r.id for r in rows])
            self.kick()
        return [r.id for r in rows]
