"""Each event's Discord scheduled event, kept in step with it as a night's is (bot/nights/events.py):
made once, edited when the event changes before it starts, marked completed when it is finished,
deleted when it is cancelled.

An event row says which of its versions its scheduled event shows (`event_version`). The sync takes
every event whose version is ahead of that, one process at a time per event (a lease on the lane
`schedule:<event>`), makes the scheduled event show it, and records the version shown. Making one
carries no nonce, so its description ends with a marker naming the event: a sync after a crash
between making it and recording its id finds it by the marker instead of making a second one.
Without Create Events the event goes on without one; the channel is told once per server (the
note nights give, claimed under the same key).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from functools import partial
from typing import Any

import discord
from sqlalchemy import select, update
from sqlalchemy.orm import Session

from bot.chat.limits import SCHEDULED_EVENT_DESCRIPTION, SCHEDULED_EVENT_LOCATION, SCHEDULED_EVENT_NAME
from bot.chat.messages import Outgoing
from bot.chat.outbox import claim_once, enqueue, free_lane, take_lane
from bot.db.models import ClubEvent, utcnow
from bot.db.store import Store
from bot.events.service import EventInfo, info_of
from bot.lang.i18n import speaking
from bot.nights.events import ACTIVE, BATCH, COMPLETED, EXTERNAL, GUILD_ONLY, LEASE, SCHEDULED, EventText
from bot.worker import Worker
from rules.event.state import EventState, Phase
from rules.text import clip

log = logging.getLogger(__name__)

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


class ScheduledSync:
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
        self.store, self.client, self.owner = store, client, owner
        self.describe, self.no_right, self.server_language = describe, no_right, server_language
        self._worker = Worker("event-schedule", self.sync_all, every, ready=client.wait_until_ready)
        self.kick = self._worker.kick
        self.idle = self._worker.idle

    def start(self) -> None:
        self._worker.start()
        self._worker.kick()

    async def stop(self) -> None:
        await self._worker.stop()

    async def sync_all(self) -> int:
        """Bring every event's scheduled event up to date (those another process holds are left)."""
        done = 0
        for row in await self.store.run(behind):
            lane = f"schedule:{row.id}"
            if not await self.store.run_write(partial(take_lane, lane, self.owner, utcnow() + LEASE)):
                continue
            try:
                done += await self._sync(row.id)
            except discord.HTTPException as exc:  # 5xx or 429: the next sweep tries again
                log.warning("scheduled event of event %s not synced (%s %s)", row.id, exc.status, exc.code)
            finally:
                await self.store.run_write(partial(free_lane, lane, self.owner))
        return done

    async def _sync(self, event_id: str) -> int:
        row = await self.store.run(lambda db: db.get(ClubEvent, event_id))  # read again under the lease
        if row is None or row.event_version >= row.version:
            return 0
        info, state = info_of(row), EventState.model_validate_json(row.state)
        with speaking(await self.server_language(info.guild_id)):
            try:
                scheduled = await self._apply(info, state, row.event_id)
            except discord.Forbidden as exc:
                if exc.code != 50013:
                    raise
                await self._tell_no_right(info)
                scheduled = None
        await self.store.run_write(partial(record, info.id, info.version, scheduled))
        return 1

    async def _apply(self, info: EventInfo, state: EventState, scheduled: int | None) -> int | None:
        http = self.client.http
        if scheduled is None:
            scheduled = await self._find(info)
        if state.phase is Phase.CANCELLED:
            if scheduled is not None:
                await self._quietly(http.delete_scheduled_event(info.guild_id, scheduled))
            return None
        if state.phase is Phase.FINISHED:
            if scheduled is not None:
                await self._complete(info.guild_id, scheduled)
            return scheduled
        if state.settings.starts_at <= utcnow().timestamp():
            return scheduled  # under way: its time can't move any more
        payload = self._payload(info, state)
        if scheduled is not None:
            try:
                await http.edit_scheduled_event(info.guild_id, scheduled, **payload)
                return scheduled
            except discord.NotFound:
                pass  # deleted by someone: made again, since the event still stands
        made = await http.create_guild_scheduled_event(info.guild_id, **payload)
        return int(made["id"])

    def _payload(self, info: EventInfo, state: EventState) -> dict[str, Any]:
        text = self.describe(info, state)
        start = datetime.fromtimestamp(state.settings.starts_at, utcnow().tzinfo)
        rounds = (state.total_rounds or state.settings.rounds or 5) + (1 if state.settings.top_cut else 0)
        tail = f"\n\n{marker(info.id)}"
        return {
            "name": clip(text.name, SCHEDULED_EVENT_NAME),
            "description": clip(text.description, SCHEDULED_EVENT_DESCRIPTION - len(tail)) + tail,
            "privacy_level": GUILD_ONLY,
            "entity_type": EXTERNAL,
            "entity_metadata": {"location": clip(text.location, SCHEDULED_EVENT_LOCATION)},
            "channel_id": None,
            "scheduled_start_time": start.isoformat(),
            "scheduled_end_time": (
                start + rounds * timedelta(minutes=state.settings.round_minutes) + SLACK
            ).isoformat(),
        }

    async def _find(self, info: EventInfo) -> int | None:
        events: list[dict[str, Any]] = await self.client.http.get_scheduled_events(info.guild_id, False)  # type: ignore[assignment]
        for event in events:
            if (event.get("description") or "").rstrip().endswith(marker(info.id)):
                return int(event["id"])
        return None

    async def _complete(self, guild_id: int, scheduled: int) -> None:
        """Discord moves an event only scheduled -> active -> completed: read, then step it on."""
        http = self.client.http
        try:
            event: dict[str, Any] = await http.get_scheduled_event(guild_id, scheduled, False)  # type: ignore[assignment]
            status = event.get("status")
            if status == SCHEDULED:
                await http.edit_scheduled_event(guild_id, scheduled, status=ACTIVE)
                status = ACTIVE
            if status == ACTIVE:
                await http.edit_scheduled_event(guild_id, scheduled, status=COMPLETED)
        except discord.NotFound:
            pass

    @staticmethod
    async def _quietly(call: Awaitable[Any]) -> None:
        try:
            await call
        except discord.NotFound:
            pass  # gone already

    async def _tell_no_right(self, info: EventInfo) -> None:
        if not await self.store.run_write(partial(claim_once, f"no-events:{info.guild_id}")):
            return
        async with self.store.write() as db:
            await enqueue(db, None, [self.no_right(info)], session_id=info.lane)
