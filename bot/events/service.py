"""Events (a club's Swiss tournaments): load, step and save an event's state (rules/event/machine.py)
with a version check, as every gathering is (bot/gatherings.py).

Every change is one transaction: the versioned UPDATE of the event, whatever else the change does
in the store (a list's row, the games a round opens: inside the same transaction, so a crash never
opens them twice) and the outbox rows of what it says. An event's messages form one outbox lane,
`event:<id>`, so they arrive in order and its card is edited where it was posted.

Beside the state the row keeps what is the bot's own: the round's clock and its warnings, and the
results a player reported that wait for the opponent's same report (`reports`).
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from datetime import datetime
from functools import partial
from typing import Protocol

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from bot.chat.messages import Outgoing
from bot.chat.outbox import enqueue
from bot.db.models import ClubEvent, utcnow
from bot.gatherings import GatheringService, Stale, at
from bot.lang.languages import ENGLISH, Languages
from bot.nights.service import remind_time
from rules.event.events import TableScore
from rules.event.machine import start
from rules.event.state import EventSettings, EventState, Phase
from rules.session import Event

ACTIVE = (Phase.SIGNUP, Phase.LISTS_CLOSED, Phase.ROUND, Phase.TOP_CUT)
PLAYING = (Phase.ROUND, Phase.TOP_CUT)
NAME_CHARS = 200  # the events.name column (bot/db/models.py)
SYSTEM_CHARS = 40  # the events.system column


@dataclass(frozen=True)
class EventInfo:
    """The store's facts about an event, beside its pure state."""

    id: str
    guild_id: int
    channel_id: int
    organiser_id: int
    status: str
    version: int
    round_ends_at: datetime | None = None

    @property
    def lane(self) -> str:
        return lane_of(self.id)


@dataclass(frozen=True)
class EventStep:
    info: EventInfo
    before: EventState
    state: EventState
    events: list[Event]
    languages: Languages = ENGLISH


class EventRenderer(Protocol):
    """What the event cog says; the service stores it in the step's transaction."""

    def created(self, info: EventInfo, state: EventState, languages: Languages) -> list[Outgoing]: ...

    def after_step(self, done: EventStep) -> list[Outgoing]: ...


class ReportWaiting(TableScore):
    """A player's result waits for the opponent's same report (the bot's, not the rules': a result
    stands in the event once both players said it, or the organiser entered it)."""

    kind: str = "report_waiting"
    by: int


# Inside the step's transaction: (the new state, what happened) from the freshest state.
Decide = Callable[[AsyncSession, EventInfo, EventState], Awaitable[tuple[EventState, list[Event]]]]


def lane_of(event_id: str) -> str:
    return f"event:{event_id}"


def info_of(row: ClubEvent) -> EventInfo:
    return EventInfo(
        id=row.id,
        guild_id=row.guild_id,
        channel_id=row.channel_id,
        organiser_id=row.organiser_id,
        status=row.status,
        version=row.version,
        round_ends_at=row.round_ends_at,
    )


def placed(info: EventInfo, outgoing: list[Outgoing]) -> list[Outgoing]:
    """The messages with the event's channel where they name none (a lane is no session)."""
    return [
        replace(m, channel_id=info.channel_id) if m.to == "channel" and m.channel_id is None else m
        for m in outgoing
    ]


class EventService(GatheringService[ClubEvent, EventInfo, EventState, EventRenderer]):
    model = ClubEvent
    state_type = EventState
    noun = "event"

    def info(self, row: ClubEvent) -> EventInfo:
        return info_of(row)

    def people(self, state: EventState) -> list[int]:
        return [state.organiser, *(e.player for e in state.entrants + state.waitlist)]

    # ------------------------------------------------------------------ reading

    async def in_server(
        self, guild_id: int, *, active: bool = True, limit: int = 25
    ) -> list[tuple[EventInfo, EventState]]:
        """The server's events: the active ones soonest first."""
        query = select(ClubEvent).where(ClubEvent.guild_id == guild_id)
        if active:
            query = query.where(ClubEvent.status.in_(ACTIVE))
        async with self.store.read() as db:
            rows = await db.scalars(query.order_by(ClubEvent.starts_at).limit(limit))
            return [self.of_row(r) for r in rows]

    async def reminders_due(self, now: datetime) -> list[EventInfo]:
        """Events whose players' reminder is due and not yet sent (before their start)."""
        query = select(ClubEvent).where(
            ClubEvent.status.in_(ACTIVE),
            ClubEvent.remind_at <= now,
            ClubEvent.reminded_at.is_(None),
            ClubEvent.starts_at > now,
        )
        async with self.store.read() as db:
            return [info_of(r) for r in await db.scalars(query.limit(100))]

    async def round_due(self, now: datetime) -> list[EventInfo]:
        """Events in a round whose clock runs (the sweep's warnings)."""
        query = select(ClubEvent).where(ClubEvent.status.in_(PLAYING), ClubEvent.round_ends_at.is_not(None))
        async with self.store.read() as db:
            return [info_of(r) for r in await db.scalars(query.limit(100))]

    # ------------------------------------------------------------------ writing

    async def create(
        self, *, guild_id: int, channel_id: int, organiser_id: int, settings: EventSettings
    ) -> tuple[EventInfo, EventState]:
        """Make an event (the rules check its settings) and queue its card, in one transaction."""
        languages = await self.languages_of(guild_id)
        event_id = secrets.token_hex(6)
        state, _events = start(event_id, organiser_id, settings)
        now = utcnow()
        async with self.store.write() as db:
            row = ClubEvent(
                id=event_id,
                guild_id=guild_id,
                channel_id=channel_id,
                organiser_id=organiser_id,
                name=state.settings.name[:NAME_CHARS],
                system=state.settings.system[:SYSTEM_CHARS],
                status=state.phase,
                state=state.model_dump_json(),
                version=1,
                starts_at=at(settings.starts_at),
                remind_at=remind_time(now, at(settings.starts_at)),
                round_warned=0,
                event_version=0,
                reports="{}",
                created_at=now,
                updated_at=now,
            )
            db.add(row)
            await db.flush()
            info = info_of(row)
            await enqueue(
                db, None, placed(info, self._render().created(info, state, languages)), session_id=info.lane
            )
        self._changed()
        return info, state

    async def step(self, event_id: str, decide: Decide, *, guild_id: int | None = None) -> EventStep:
        """Take the step `decide` makes on the freshest state, retrying on a concurrent change.

        `decide` runs inside the transaction (what it writes, e.g. a list or the games a round
        opens, is kept only with the step) and may raise RuleError: nothing is stored."""
        done = await self._judged(event_id, guild_id, partial(self._try_step, decide))
        self._changed()
        return done

    async def _try_step(
        self, decide: Decide, info: EventInfo, state: EventState, languages: Languages
    ) -> EventStep:
        async with self.store.write() as db:
            new_state, events = await decide(db, info, state)
            now = utcnow()
            values: dict[str, object] = {}
            if new_state.round_number != state.round_number:  # a new round: its clock starts
                minutes = new_state.settings.round_minutes
                values = {"round_ends_at": at(int(now.timestamp()) + minutes * 60), "round_warned": 0}
            if new_state.phase not in PLAYING:
                values["round_ends_at"] = None
            new_info = replace(info, status=new_state.phase, version=info.version + 1)
            stored = await db.execute(
                update(ClubEvent)
                .where(ClubEvent.id == info.id, ClubEvent.version == info.version)
                .values(
                    state=new_state.model_dump_json(),
                    version=new_info.version,
                    status=new_state.phase,
                    updated_at=now,
                    **values,
                )
            )
            if stored.rowcount != 1:  # type: ignore[attr-defined]
                raise Stale()
            if "round_ends_at" in values:
                new_info = replace(new_info, round_ends_at=values["round_ends_at"])  # type: ignore[arg-type]
            done = EventStep(new_info, state, new_state, events, languages)
            outgoing = placed(new_info, self._render().after_step(done))
            await enqueue(db, None, outgoing, session_id=new_info.lane)
        return done

    @staticmethod
    async def reports(db: AsyncSession, event_id: str) -> dict[str, ReportWaiting]:
        """The results waiting for a confirmation, by "round:table" (in the step's transaction)."""
        raw = await db.scalar(select(ClubEvent.reports).where(ClubEvent.id == event_id))
        return {key: ReportWaiting.model_validate(value) for key, value in json.loads(raw or "{}").items()}

    @staticmethod
    async def keep_reports(db: AsyncSession, event_id: str, reports: dict[str, ReportWaiting]) -> None:
        dumped = {key: value.model_dump(mode="json") for key, value in reports.items()}
        await db.execute(update(ClubEvent).where(ClubEvent.id == event_id).values(reports=json.dumps(dumped)))

    async def warn(self, info: EventInfo, mark: int, outgoing: list[Outgoing]) -> bool:
        """Queue a round's warning once (claimed by raising `round_warned` to `mark`)."""
        async with self.store.write() as db:
            claimed = await db.execute(
                update(ClubEvent)
                .where(ClubEvent.id == info.id, ClubEvent.round_warned < mark)
                .values(round_warned=mark)
            )
            if claimed.rowcount != 1:  # type: ignore[attr-defined]
                return False
            await enqueue(db, None, placed(info, outgoing), session_id=info.lane)
        self.delivery.kick()
        return True
