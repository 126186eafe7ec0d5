"""Each game night's Discord scheduled event, kept in step with the night by the syncer in
bot/scheduling.py: made once, edited when the night changes, marked completed when it is finished,
deleted when it is cancelled.

A night row says which of its versions its event shows (`event_version`); the lease is on the lane
`event:<night>` and the description ends with the marker `muster-night:<night>`. A night lasts
NIGHT_LENGTH; its event is edited until it starts.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import ClassVar

from bot.db.models import Night, utcnow
from bot.nights.service import NightInfo, info_of, lane_of
from bot.scheduling import ScheduledEventSync, Stage
from rules.night.night import NightState

NIGHT_LENGTH = timedelta(hours=4)


class EventSync(ScheduledEventSync[Night, NightInfo, NightState]):
    model = Night
    worker_name: ClassVar[str] = "night-events"
    lane_prefix: ClassVar[str] = "event:"
    noun: ClassVar[str] = "night"
    marker_prefix: ClassVar[str] = "muster-night:"
    location_fallback: ClassVar[str] = "The club"

    def load(self, row: Night) -> tuple[NightInfo, NightState]:
        return info_of(row), NightState.model_validate_json(row.state)

    def stage(self, info: NightInfo, state: NightState) -> Stage:
        if state.status == "cancelled":
            return Stage.CANCELLED
        if state.status == "finished":
            return Stage.FINISHED
        return Stage.UNDER_WAY if info.starts_at <= utcnow() else Stage.COMING

    def span(self, info: NightInfo, state: NightState) -> tuple[datetime, datetime]:
        start = datetime.fromtimestamp(state.settings.starts_at, info.starts_at.tzinfo)
        return start, start + NIGHT_LENGTH

    def note_lane(self, info: NightInfo) -> str:
        return lane_of(info.id)
