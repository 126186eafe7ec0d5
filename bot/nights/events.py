"""Each game night's Discord scheduled event, kept in step with the night by the syncer in
bot/scheduling.py: made once, edited when the night changes, marked completed when it is finished,
deleted when it is cancelled.

A night row says which of its versions its event shows (`event_version`); the lease is on the lane
`event:<night>` and the description ends with the marker `muster-night:<night>`. A night lasts
NIGHT_LENGTH; its event is edited until it starts.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import ClassVar

import discord
from sqlalchemy import select, update
from sqlalchemy.orm import Session

from bot.chat.messages import Outgoing
from bot.db.models import Night, utcnow
from bot.db.store import Store
from bot.nights.service import NightInfo, info_of, lane_of
from bot.scheduling import BATCH, EventText, ScheduledEventSync, ServerLanguage, Stage
from rules.night.night import NightState

NIGHT_LENGTH = timedelta(hours=4)

Describe = Callable[[NightInfo, NightState], EventText]
NoRight = Callable[[NightInfo], Outgoing]  # the note to the night's channel when events are refused


def marker(night_id: str) -> str:
    """The line that ends a night's event description: how a resend finds the event it made."""
    return f"muster-night:{night_id}"


def behind(db: Session) -> list[Night]:
    """Nights whose event doesn't show their latest version yet."""
    query = select(Night).where(Night.event_version < Night.version).order_by(Night.updated_at)
    return list(db.scalars(query.limit(BATCH)))


def record(night_id: str, version: int, event_id: int | None, db: Session) -> None:
    db.execute(
        update(Night)
        .where(Night.id == night_id, Night.event_version < version)
        .values(event_id=event_id, event_version=version)
    )


class EventSync(ScheduledEventSync[NightInfo, NightState]):
    worker_name: ClassVar[str] = "night-events"
    lane_prefix: ClassVar[str] = "event:"
    noun: ClassVar[str] = "night"
    location_fallback: ClassVar[str] = "The club"

    def __init__(
        self,
        store: Store,
        client: discord.Client,
        owner: str,
        describe: Describe,
        no_right: NoRight,
        every: float,
        kick_delivery: Callable[[], None],
        server_language: ServerLanguage | None = None,
    ) -> None:
        super().__init__(store, client, owner, describe, no_right, every, server_language, kick_delivery)

    def behind(self, db: Session) -> list[str]:
        return [row.id for row in behind(db)]

    def read(self, db: Session, row_id: str) -> tuple[NightInfo, NightState, int | None] | None:
        row = db.get(Night, row_id)
        if row is None or row.event_version >= row.version:
            return None
        return info_of(row), NightState.model_validate_json(row.state), row.event_id

    def record(self, info: NightInfo, scheduled: int | None, db: Session) -> None:
        record(info.id, info.version, scheduled, db)

    def stage(self, info: NightInfo, state: NightState) -> Stage:
        if state.status == "cancelled":
            return Stage.CANCELLED
        if state.status == "finished":
            return Stage.FINISHED
        return Stage.UNDER_WAY if info.starts_at <= utcnow() else Stage.COMING

    def span(self, info: NightInfo, state: NightState) -> tuple[datetime, datetime]:
        start = datetime.fromtimestamp(state.settings.starts_at, info.starts_at.tzinfo)
        return start, start + NIGHT_LENGTH

    def marker(self, row_id: str) -> str:
        return marker(row_id)

    def note_lane(self, info: NightInfo) -> str:
        return lane_of(info.id)
