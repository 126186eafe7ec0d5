"""Each event's Discord scheduled event, kept in step with it as a night's is, by the syncer in
bot/scheduling.py: made once, edited when the event changes before it starts, marked completed when
it is finished, deleted when it is cancelled.

An event row says which of its versions its scheduled event shows (`event_version`); the lease is
on the lane `schedule:<event>` and the description ends with the marker `muster-event:<event>`.
An event lasts its rounds (a top cut counts one more) and SLACK. Without Create Events the event
goes on without one; the channel is told once per server (the note nights give, claimed under the
same key).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from typing import ClassVar

import discord
from sqlalchemy import select, update
from sqlalchemy.orm import Session

from bot.chat.messages import Outgoing
from bot.db.models import ClubEvent, utcnow
from bot.db.store import Store
from bot.events.service import EventInfo, info_of
from bot.scheduling import BATCH, EventText, ScheduledEventSync, Stage
from rules.event.state import EventState, Phase

SLACK = timedelta(hours=1)  # an event's length beyond its rounds: registration, lunch, prizes

Describe = Callable[[EventInfo, EventState], EventText]
NoRight = Callable[[EventInfo], Outgoing]


def marker(event_id: str) -> str:
    """The line that ends an event's description: how a resend finds the scheduled event it made."""
    return f"muster-event:{event_id}"


def behind(db: Session) -> list[ClubEvent]:
    query = (
        select(ClubEvent).where(ClubEvent.event_version < ClubEvent.version).order_by(ClubEvent.updated_at)
    )
    return list(db.scalars(query.limit(BATCH)))


def record(event_id: str, version: int, scheduled_id: int | None, db: Session) -> None:
    db.execute(
        update(ClubEvent)
        .where(ClubEvent.id == event_id, ClubEvent.event_version < version)
        .values(event_id=scheduled_id, event_version=version)
    )


class ScheduledSync(ScheduledEventSync[EventInfo, EventState]):
    worker_name: ClassVar[str] = "event-schedule"
    lane_prefix: ClassVar[str] = "schedule:"
    noun: ClassVar[str] = "event"

    def __init__(
        self,
        store: Store,
        client: discord.Client,
        owner: str,
        describe: Describe,
        no_right: NoRight,
        every: float,
        server_language: Callable[[int], Awaitable[str]],
    ) -> None:
        super().__init__(store, client, owner, describe, no_right, every, server_language)

    def behind(self, db: Session) -> list[str]:
        return [row.id for row in behind(db)]

    def read(self, db: Session, row_id: str) -> tuple[EventInfo, EventState, int | None] | None:
        row = db.get(ClubEvent, row_id)
        if row is None or row.event_version >= row.version:
            return None
        return info_of(row), EventState.model_validate_json(row.state), row.event_id

    def record(self, info: EventInfo, scheduled: int | None, db: Session) -> None:
        record(info.id, info.version, scheduled, db)

    def stage(self, info: EventInfo, state: EventState) -> Stage:
        if state.phase is Phase.CANCELLED:
            return Stage.CANCELLED
        if state.phase is Phase.FINISHED:
            return Stage.FINISHED
        return Stage.UNDER_WAY if state.settings.starts_at <= utcnow().timestamp() else Stage.COMING

    def span(self, info: EventInfo, state: EventState) -> tuple[datetime, datetime]:
        start = datetime.fromtimestamp(state.settings.starts_at, utcnow().tzinfo)
        rounds = (state.total_rounds or state.settings.rounds or 5) + (1 if state.settings.top_cut else 0)
        return start, start + rounds * timedelta(minutes=state.settings.round_minutes) + SLACK

    def marker(self, row_id: str) -> str:
        return marker(row_id)

    def note_lane(self, info: EventInfo) -> str:
        return info.lane
