"""Game nights: load, step and save a night's pure state (rules/night) with a version check, as
every gathering is (bot/gatherings.py).

Every change is one transaction: the versioned UPDATE of the night, whatever else the change does
in the store (the games a publish opens, inside the same transaction, so a crash never opens them
twice) and the outbox rows of what it says (the card edited in place, DMs, the pairings). A night's
messages form one outbox lane, `night:<id>`, so they arrive in order and its card is edited where
it was posted.

The words are the cog's: it registers a `NightRenderer` (the events of a step become messages),
given the languages of the server and of the night's people, read before each step's transaction.
The Discord scheduled event is kept in step by bot/nights/events.py; reminders, the cut-off and the
summary by bot/nights/clock.py.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from functools import partial
from typing import Protocol

from sqlalchemy import Table, delete, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from bot.chat.messages import Outgoing
from bot.chat.outbox import enqueue
from bot.db.models import Night, NightReminderOptOut, utcnow
from bot.db.upsert import insert_or_ignore
from bot.gatherings import GatheringService, Stale, at
from bot.lang.languages import ENGLISH, Languages
from rules.night.night import NightState, start, step
from rules.night.settings import NightSettings
from rules.session import Action, Event

log = logging.getLogger(__name__)

REMIND_BEFORE = timedelta(hours=24)
TITLE_CHARS = 200  # the nights.title column (bot/db/models.py)
PLACE_CHARS = 100  # the nights.place column
"""A reminder goes this long before the night (or halfway there, for a night made nearer to it)."""
ACTIVE = ("open", "closed", "review", "published")
OPTOUTS: Table = NightReminderOptOut.__table__  # type: ignore[assignment]


@dataclass(frozen=True)
class NightInfo:
    """The store's facts about a night, beside its pure state."""

    id: str
    guild_id: int
    channel_id: int
    organiser_id: int
    status: str
    version: int
    starts_at: datetime
    place: str = ""
    event_id: int | None = None

    @property
    def lane(self) -> str:
        """The night's outbox lane (its messages in order, its card edited in place)."""
        return lane_of(self.id)


@dataclass(frozen=True)
class NightStep:
    info: NightInfo
    before: NightState
    state: NightState
    events: list[Event]
    languages: Languages = ENGLISH  # the server's and the night's people's (its messages spoke them)


class NightRenderer(Protocol):
    """What the night cog says; the service stores it in the step's transaction."""

    def created(self, info: NightInfo, state: NightState, languages: Languages) -> list[Outgoing]: ...

    def after_step(
        self,
        info: NightInfo,
        before: NightState,
        after: NightState,
        events: list[Event],
        languages: Languages,
    ) -> list[Outgoing]: ...

    def reminder(self, info: NightInfo, state: NightState, player: int, languages: Languages) -> Outgoing: ...


# Inside the step's transaction: the action to take on the freshest state (None: nothing to do).
Decide = Callable[[AsyncSession, NightInfo, NightState], Awaitable[Action | None]]
# Inside the step's transaction, once the new state is known: more messages (a summary).
Extra = Callable[[AsyncSession, NightStep], Awaitable[list[Outgoing]]]


def lane_of(night_id: str) -> str:
    return f"night:{night_id}"


def epoch(when: datetime) -> int:
    return int(when.timestamp())


def remind_time(created: datetime, starts: datetime) -> datetime:
    """When the night's reminder is due: a day before, or halfway there for a night made nearer."""
    return starts - min(REMIND_BEFORE, (starts - created) / 2)


def info_of(row: Night) -> NightInfo:
    return NightInfo(
        id=row.id,
        guild_id=row.guild_id,
        channel_id=row.channel_id,
        organiser_id=row.organiser_id,
        status=row.status,
        version=row.version,
        starts_at=row.starts_at,
        place=row.place,
        event_id=row.event_id,
    )


class NightService(GatheringService[Night, NightInfo, NightState, NightRenderer]):
    model = Night
    state_type = NightState
    noun = "night"

    def info(self, row: Night) -> NightInfo:
        return info_of(row)

    def people(self, state: NightState) -> list[int]:
        return [state.organiser, *(s.player for s in state.signups + state.waitlist)]

    # ------------------------------------------------------------------ reading

    async def in_server(
        self, guild_id: int, *, active: bool = True, limit: int = 25
    ) -> list[tuple[NightInfo, NightState]]:
        """The server's nights: the active ones soonest first, or the past ones latest first."""
        query = select(Night).where(Night.guild_id == guild_id)
        if active:
            query = query.where(Night.status.in_(ACTIVE)).order_by(Night.starts_at)
        else:
            query = query.where(Night.status.in_(("finished", "cancelled"))).order_by(Night.starts_at.desc())
        async with self.store.read() as db:
            rows = await db.scalars(query.limit(limit))
            return [self.of_row(r) for r in rows]

    async def due(
        self, column: str, now: datetime, statuses: tuple[str, ...], *, unrepeated: bool = False
    ) -> list[NightInfo]:
        """Nights in `statuses` whose `column` time has come (the clock's sweeps); a reminder only
        while unclaimed and before the night; `unrepeated`: whose next night isn't made yet."""
        when = getattr(Night, column)
        query = select(Night).where(Night.status.in_(statuses), when <= now)
        if column == "remind_at":
            query = query.where(Night.reminded_at.is_(None), Night.starts_at > now)
        if unrepeated:
            query = query.where(Night.next_night_id.is_(None))
        async with self.store.read() as db:
            return [info_of(r) for r in await db.scalars(query.order_by(when).limit(100))]

    async def opted_out(self, guild_id: int, players: list[int]) -> set[int]:
        async with self.store.read() as db:
            rows = await db.scalars(
                select(OPTOUTS.c.user_id).where(
                    OPTOUTS.c.guild_id == guild_id, OPTOUTS.c.user_id.in_(players)
                )
            )
            return set(rows)

    # ------------------------------------------------------------------ writing

    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        organiser_id: int,
        settings: NightSettings,
        now: datetime,
        place: str = "",
    ) -> tuple[NightInfo, NightState]:
        """Make a night (the rules check its settings) and queue its card, in one transaction."""
        languages = await self.languages_of(guild_id)
        async with self.store.write() as db:
            info, state = await self.insert(
                db,
                guild_id=guild_id,
                channel_id=channel_id,
                organiser_id=organiser_id,
                settings=settings,
                now=now,
                place=place,
                languages=languages,
            )
        self._changed()
        return info, state

    async def insert(
        self,
        db: AsyncSession,
        *,
        guild_id: int,
        channel_id: int,
        organiser_id: int,
        settings: NightSettings,
        now: datetime,
        place: str = "",
        languages: Languages = ENGLISH,
    ) -> tuple[NightInfo, NightState]:
        """`create` inside the caller's transaction (a recurring night's next one)."""
        night_id = secrets.token_hex(6)
        state, _events = start(night_id, organiser_id, settings, epoch(now))
        row = Night(
            id=night_id,
            guild_id=guild_id,
            channel_id=channel_id,
            organiser_id=organiser_id,
            title=settings.title[:TITLE_CHARS],
            place=place[:PLACE_CHARS],
            status=state.status,
            state=state.model_dump_json(),
            version=1,
            starts_at=at(settings.starts_at),
            cutoff_at=at(settings.cutoff),
            remind_at=remind_time(now, at(settings.starts_at)),
            event_version=0,
            created_at=now,
            updated_at=now,
        )
        db.add(row)
        await db.flush()
        info = info_of(row)
        await enqueue(db, None, self._render().created(info, state, languages), session_id=info.lane)
        return info, state

    async def step(
        self, night_id: str, decide: Decide, *, guild_id: int | None = None, extra: Extra | None = None
    ) -> NightStep | None:
        """Take the action `decide` makes on the freshest state, retrying on a concurrent change.

        `decide` runs inside the transaction (what it writes, e.g. the games a publish opens, is
        kept only with the step) and may raise RuleError: nothing is stored. None: nothing to do.
        """
        stepped = await self._judged(night_id, guild_id, partial(self._try_step, decide, extra))
        if stepped is not None:
            self._changed()
        return stepped

    async def _try_step(
        self, decide: Decide, extra: Extra | None, info: NightInfo, state: NightState, languages: Languages
    ) -> NightStep | None:
        async with self.store.write() as db:
            action = await decide(db, info, state)
            if action is None:
                return None
            now = utcnow()
            new_state, events = step(state, action, epoch(now))
            moved = {}
            if new_state.settings.starts_at != state.settings.starts_at:  # a new time: a new reminder
                moved = {"remind_at": remind_time(now, at(new_state.settings.starts_at)), "reminded_at": None}
            new_info = replace(
                info,
                status=new_state.status,
                version=info.version + 1,
                starts_at=at(new_state.settings.starts_at),
            )
            stored = await db.execute(
                update(Night)
                .where(Night.id == info.id, Night.version == info.version)
                .values(
                    state=new_state.model_dump_json(),
                    version=new_info.version,
                    status=new_state.status,
                    title=new_state.settings.title[:TITLE_CHARS],
                    starts_at=at(new_state.settings.starts_at),
                    cutoff_at=at(new_state.settings.cutoff),
                    updated_at=now,
                    **moved,
                )
            )
            if stored.rowcount != 1:  # type: ignore[attr-defined]
                raise Stale()
            done = NightStep(new_info, state, new_state, events, languages)
            outgoing = self._render().after_step(new_info, state, new_state, events, languages)
            if extra is not None:
                outgoing += await extra(db, done)
            await enqueue(db, None, outgoing, session_id=new_info.lane)
        return done

    async def say(self, info: NightInfo, outgoing: list[Outgoing]) -> None:
        """Queue messages about a night outside a step (a request passed to the organiser)."""
        async with self.store.write() as db:
            await enqueue(db, None, outgoing, session_id=info.lane)
        self.delivery.kick()

    async def set_reminders(self, guild_id: int, user_id: int, wanted: bool) -> None:
        """A player's choice of game-night reminders from this server (opted out: a row)."""
        async with self.store.write() as db:
            if wanted:
                await db.execute(
                    delete(OPTOUTS).where(OPTOUTS.c.guild_id == guild_id, OPTOUTS.c.user_id == user_id)
                )
            else:
                row = {"guild_id": guild_id, "user_id": user_id, "created_at": utcnow()}
                await db.execute(insert_or_ignore(self.store.dialect, OPTOUTS, row, ["guild_id", "user_id"]))

    async def make_next(
        self, info: NightInfo, settings: NightSettings | None, now: datetime
    ) -> NightInfo | None:
        """A recurring night's next one, made once (its claim and the new night in one
        transaction); `settings` None ends the series. None: made already, or no more."""
        languages = await self.languages_of(info.guild_id)
        async with self.store.write() as db:
            claimed = await db.execute(
                update(Night)
                .where(Night.id == info.id, Night.next_night_id.is_(None))
                .values(next_night_id="" if settings is None else "pending")
            )
            if claimed.rowcount != 1 or settings is None:  # type: ignore[attr-defined]
                return None
            made, _state = await self.insert(
                db,
                guild_id=info.guild_id,
                channel_id=info.channel_id,
                organiser_id=info.organiser_id,
                settings=settings,
                now=now,
                place=info.place,
                languages=languages,
            )
            await db.execute(update(Night).where(Night.id == info.id).values(next_night_id=made.id))
        self._changed()
        return made
