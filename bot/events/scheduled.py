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

from datetime import datetime, timedelta
from typing import ClassVar

from bot.db.models import ClubEvent, utcnow
from bot.events.service import EventInfo, info_of
from bot.scheduling import ScheduledEventSync, Stage
from rules.event.state import EventState, Phase

SLACK = timedelta(hours=1)  # an event's length beyond its rounds: registration, lunch, prizes


class ScheduledSync(ScheduledEventSync[ClubEvent, EventInfo, EventState]):
    model = ClubEvent
    worker_name: ClassVar[str] = "event-schedule"
    lane_prefix: ClassVar[str] = "schedule:"
    noun: ClassVar[str] = "event"
    marker_prefix: ClassVar[str] = "muster-event:"

    def load(self, row: ClubEvent) -> tuple[EventInfo, EventState]:
        return info_of(row), EventState.model_validate_json(row.state)

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

    def note_lane(self, info: EventInfo) -> str:
        return info.lane
