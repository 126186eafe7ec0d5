"""What a game night does by itself, and its steps that reach beyond the night: pairing (with
what the store knows), publishing (each pairing's game opened in the night's transaction), the
summary; and the sweep that closes sign-ups at the cut-off and pairs, reminds the players once,
posts the summary once the games are over, and makes a recurring night's next one. The summary
speaks the server's language, each reminder its player's.

Each of these is a versioned step of the night (bot/nights/service.py), so whichever process gets there
first does it and the others find it done.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Protocol

from sqlalchemy.ext.asyncio import AsyncSession

from bot.chat.messages import Outgoing
from bot.db.models import utcnow
from bot.nights.club import Club, tables_in
from bot.nights.games import NightGame, night_games, open_pairing_games
from bot.nights.service import NightInfo, NightService, NightStep, epoch
from bot.scores.names import NameCache
from bot.worker import Worker
from rules.errors import RuleError
from rules.night.actions import Close, Finish, Pair, Publish
from rules.night.night import NightState, step
from rules.night.settings import MAX_CAPACITY, next_occurrence
from rules.scores import RatingBook

if TYPE_CHECKING:
    from bot.app import MusterBot

log = logging.getLogger(__name__)

SUMMARY_AFTER = timedelta(hours=12)
"""A published night's summary is posted once its games are over, or this long after it started."""
ORGANISER_STATUSES = ("open", "closed", "review", "published")


class SummaryRenderer(Protocol):
    def summary(
        self, info: NightInfo, state: NightState, games: list[NightGame], channel_id: int, language: str
    ) -> list[Outgoing]: ...


class NightClock:
    def __init__(self, bot: MusterBot, nights: NightService, club: Club, renderer: SummaryRenderer) -> None:
        self.bot = bot
        self.nights = nights
        self.club = club
        self.renderer = renderer
        self.names = NameCache(fetch_limit=MAX_CAPACITY)  # players' display names, for their games
        self._worker = Worker(
            "night-clock", self.sweep, bot.settings.sweep_seconds, ready=bot.wait_until_ready
        )
        self.kick = self._worker.kick
        self.idle = self._worker.idle

    def start(self) -> None:
        self._worker.start()

    async def stop(self) -> None:
        await self._worker.stop()

    # ------------------------------------------------------------------ steps beyond the night

    async def _book(self, guild_id: int) -> RatingBook | None:
        return (await self.bot.scores.results.book(guild_id))[0]

    async def pair(
        self,
        night_id: str,
        actor: int,
        as_organiser: bool,
        guild_id: int | None = None,
        *,
        again: bool = True,
    ) -> NightStep | None:
        """Close sign-ups if still open, and pair (with the club's tables and what the store knows).
        `again` False (the cut-off's sweep): a night paired already is left as it is (None)."""
        info, state = await self.nights.load(night_id, guild_id)
        players = [s.player for s in state.signups]
        context = await self.club.context(info.guild_id, players, await self._book(info.guild_id))
        seed = secrets.randbits(31)

        async def decide(db: AsyncSession, info: NightInfo, state: NightState) -> Pair | Close | None:
            if state.status == "open":
                return Close(actor=actor, as_organiser=as_organiser, now=epoch(utcnow()))
            if state.status != "closed" and not again:
                return None  # another process paired it first
            tables = await tables_in(db, info.guild_id)
            return Pair(actor=actor, as_organiser=as_organiser, tables=tables, context=context, seed=seed)

        stepped = await self.nights.step(night_id, decide, guild_id=guild_id)
        if stepped is not None and stepped.state.status == "closed":
            stepped = await self.nights.step(night_id, decide, guild_id=guild_id)
        return stepped

    async def publish(
        self, night_id: str, actor: int, as_organiser: bool, guild_id: int | None = None
    ) -> NightStep:
        """Publish the pairings: each pairing's game is opened in the same transaction as the
        night's change, so a crash (or a second click) never opens a game twice. The players'
        display names are looked up first (not while the transaction waits), so each game and its
        thread are named after its players, as a start command names them."""
        info, state = await self.nights.load(night_id, guild_id)
        players = [p for pairing in (state.result.pairings if state.result else []) for p in pairing.players]
        names = await self.names.names(self.bot.get_guild(info.guild_id), info.guild_id, players)

        async def decide(db: AsyncSession, info: NightInfo, state: NightState) -> Publish:
            step(state, Publish(actor=actor, as_organiser=as_organiser, session_ids={}), epoch(utcnow()))
            assert state.result is not None  # a night in review has its pairings
            opened = await open_pairing_games(
                self.bot,
                db,
                guild_id=info.guild_id,
                channel_id=info.channel_id,
                night_id=info.id,
                pairings=state.result.pairings,
                organiser_id=state.organiser,
                names=names,
            )
            return Publish(actor=actor, as_organiser=as_organiser, session_ids=opened)

        stepped = await self.nights.step(night_id, decide, guild_id=guild_id)
        assert stepped is not None
        return stepped

    async def finish(
        self, night_id: str, actor: int, as_organiser: bool, guild_id: int | None = None
    ) -> NightStep:
        """End the night and post its summary (in the results channel, else the night's channel);
        a recurring night makes its next one now (the sweep would at its start: whichever comes
        first makes it, once)."""
        info, _state = await self.nights.load(night_id, guild_id)
        games = await self.games(night_id)
        channel = (await self.bot.guild_settings.get(info.guild_id)).results_channel_id or info.channel_id

        async def decide(_db: AsyncSession, _info: NightInfo, _state: NightState) -> Finish:
            return Finish(actor=actor, as_organiser=as_organiser)

        async def summary(_db: AsyncSession, done: NightStep) -> list[Outgoing]:
            return self.renderer.summary(done.info, done.state, games, channel, done.languages.table)

        stepped = await self.nights.step(night_id, decide, guild_id=guild_id, extra=summary)
        assert stepped is not None
        await self._repeat(stepped.info, stepped.state, utcnow())
        return stepped

    async def games(self, night_id: str) -> list[NightGame]:
        return await night_games(self.bot.store, night_id, results=self.bot.scores.results)

    # ------------------------------------------------------------------ the sweep

    async def sweep(self, now: datetime | None = None) -> None:
        """Everything due by `now` (tests pass a time ahead; the worker, the present)."""
        now = now or utcnow()
        for name, part in (
            ("cut-off", self._close_due),
            ("reminders", self._remind_due),
            ("summary", self._finish_due),
            ("recurrence", self._repeat_due),
        ):
            try:
                await part(now)
            except Exception:
                log.exception("night sweep (%s) failed", name)

    async def _each(self, infos: list[NightInfo], act: Callable[[NightInfo], Awaitable[object]]) -> None:
        for info in infos:
            try:
                await act(info)
            except RuleError as refused:  # e.g. too few players to pair: the organiser pairs by hand
                log.info("night %s: %s", info.id, refused.code)

    async def _close_due(self, now: datetime) -> None:
        due = await self.nights.due("cutoff_at", now, ("open",))
        await self._each(due, lambda info: self.pair(info.id, info.organiser_id, True, again=False))

    async def _remind_due(self, now: datetime) -> None:
        for info in await self.nights.due("remind_at", now, ORGANISER_STATUSES):
            _info, state = await self.nights.load(info.id)
            players = [s.player for s in state.signups]
            quiet = await self.nights.opted_out(info.guild_id, players)
            languages = await self.nights.languages_of(info.guild_id, state)  # each DM in its reader's
            renderer = self.nights.renderer
            assert renderer is not None
            messages = [renderer.reminder(info, state, p, languages) for p in players if p not in quiet]
            await self.nights.remind(info, messages, now)

    async def _finish_due(self, now: datetime) -> None:
        for info in await self.nights.due("starts_at", now, ("published",)):
            if info.starts_at > now - SUMMARY_AFTER:
                games = await self.games(info.id)
                if not games or any(g.status == "open" for g in games):
                    continue  # still being played
            await self._each([info], lambda info: self.finish(info.id, info.organiser_id, True))

    async def _repeat_due(self, now: datetime) -> None:
        every = ("open", "closed", "review", "published", "finished", "cancelled")
        for info in await self.nights.due("starts_at", now, every, unrepeated=True):
            _info, state = await self.nights.load(info.id)
            await self._repeat(info, state, now)

    async def _repeat(self, info: NightInfo, state: NightState, now: datetime) -> None:
        """A recurring night's next one, unless made already (`make_next` claims it once)."""
        try:
            await self.nights.make_next(info, next_occurrence(state.settings), now)
        except RuleError as refused:
            log.info("night %s: no next night (%s)", info.id, refused.code)
