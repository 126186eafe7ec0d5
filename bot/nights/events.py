"""Each game night's Discord scheduled event, kept in step with the night: made once, edited when
the night changes, marked completed when it is finished, deleted when it is cancelled.

A night row says which of its versions its event shows (`event_version`). The sync takes every
night whose version is ahead of that, one process at a time per night (a lease on the lane
`event:<night>`, as the outbox leases its lanes), makes the event show the stored night, and
records the version it showed. Making an event carries no nonce, so the event's description ends
with a marker naming the night: a sync after a crash between making the event and recording its
id finds the event it already made (by the marker) instead of making a second one.

When the bot may not make events in a server (Create Events missing), the night goes on without
one and the night's channel is told once what to grant. The event and that note are public: they
speak the server's language (`server_language`); the marker is never translated.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial
from typing import Any

import discord
from sqlalchemy import select, update
from sqlalchemy.orm import Session

from bot.chat.limits import SCHEDULED_EVENT_DESCRIPTION, SCHEDULED_EVENT_LOCATION, SCHEDULED_EVENT_NAME
from bot.chat.messages import Outgoing
from bot.chat.outbox import claim_once, enqueue, free_lane, take_lane
from bot.db.models import Night, utcnow
from bot.db.store import Store
from bot.lang.i18n import SOURCE, speaking
from bot.nights.service import NightInfo, info_of, lane_of
from bot.worker import Worker
from rules.night.night import NightState
from rules.text import clip

log = logging.getLogger(__name__)

EXTERNAL = 3
SCHEDULED, ACTIVE, COMPLETED = 1, 2, 3  # an event's statuses (Discord moves it only in this order)
GUILD_ONLY = 2
NIGHT_LENGTH = timedelta(hours=4)
LEASE = timedelta(seconds=30)
BATCH = 25


def marker(night_id: str) -> str:
    """The line that ends a night's event description: how a resend finds the event it made."""
    return f"muster-night:{night_id}"


@dataclass(frozen=True)
class EventText:
    """What the event shows (the cog words it)."""

    name: str
    description: str
    location: str


Describe = Callable[[NightInfo, NightState], EventText]
NoRight = Callable[[NightInfo], Outgoing]  # the note to the night's channel when events are refused
ServerLanguage = Callable[[int], Awaitable[str]]


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


class EventSync:
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
        self.store = store
        self.server_language = server_language
        self.client = client
        self.owner = owner
        self.describe = describe
        self.no_right = no_right
        self.kick_delivery = kick_delivery
        self._worker = Worker("night-events", self.sync_all, every, ready=client.wait_until_ready)
        self.kick = self._worker.kick
        self.idle = self._worker.idle

    def start(self) -> None:
        self._worker.start()
        self._worker.kick()

    async def stop(self) -> None:
        await self._worker.stop()

    async def sync_all(self) -> int:
        """Bring every night's event up to date (those another process is syncing are left to it)."""
        done = 0
        for row in await self.store.run(behind):
            lane = f"event:{row.id}"
            if not await self.store.run_write(partial(take_lane, lane, self.owner, utcnow() + LEASE)):
                continue
            try:
                done += await self._sync(row.id)
            except discord.HTTPException as exc:  # 5xx or 429: the next sweep tries again
                log.warning("scheduled event of night %s not synced (%s %s)", row.id, exc.status, exc.code)
            finally:
                await self.store.run_write(partial(free_lane, lane, self.owner))
        return done

    async def _sync(self, night_id: str) -> int:
        row = await self.store.run(lambda db: db.get(Night, night_id))  # read again under the lease
        if row is None or row.event_version >= row.version:
            return 0
        info, state = info_of(row), NightState.model_validate_json(row.state)
        language = SOURCE if self.server_language is None else await self.server_language(info.guild_id)
        with speaking(language):
            try:
                event_id = await self._apply(info, state, row.event_id)
            except discord.Forbidden as exc:
                if exc.code != 50013:
                    raise
                await self._tell_no_right(info)
                event_id = None
        await self.store.run_write(partial(record, info.id, info.version, event_id))
        return 1

    async def _apply(self, info: NightInfo, state: NightState, event_id: int | None) -> int | None:
        """Make the event show the night; returns the event's id (None: there is none)."""
        if event_id is None:
            event_id = await self._find(info)
        if state.status == "cancelled":
            if event_id is not None:
                await self._delete(info.guild_id, event_id)
            return None
        if state.status == "finished":
            if event_id is not None:
                await self._complete(info.guild_id, event_id)
            return event_id
        if info.starts_at <= utcnow():
            return event_id  # under way: its time can't move any more
        payload = self._payload(info, state)
        http = self.client.http
        if event_id is not None:
            try:
                await http.edit_scheduled_event(info.guild_id, event_id, **payload)
                return event_id
            except discord.NotFound:
                pass  # deleted by someone: made again, since the night still stands
        made = await http.create_guild_scheduled_event(info.guild_id, **payload)
        return int(made["id"])

    def _payload(self, info: NightInfo, state: NightState) -> dict[str, Any]:
        text = self.describe(info, state)
        start = datetime.fromtimestamp(state.settings.starts_at, info.starts_at.tzinfo)
        tail = f"\n\n{marker(info.id)}"  # kept whole: a resend finds its event by it
        description = clip(text.description, SCHEDULED_EVENT_DESCRIPTION - len(tail)) + tail
        return {
            "name": clip(text.name, SCHEDULED_EVENT_NAME),
            "description": description,
            "privacy_level": GUILD_ONLY,
            "entity_type": EXTERNAL,
            "entity_metadata": {"location": clip(text.location, SCHEDULED_EVENT_LOCATION) or "The club"},
            "channel_id": None,
            "scheduled_start_time": start.isoformat(),
            "scheduled_end_time": (start + NIGHT_LENGTH).isoformat(),
        }

    async def _find(self, info: NightInfo) -> int | None:
        """The event a earlier sync made for this night but didn't get to record."""
        events: list[dict[str, Any]] = await self.client.http.get_scheduled_events(info.guild_id, False)  # type: ignore[assignment]
        for event in events:
            if (event.get("description") or "").rstrip().endswith(marker(info.id)):
                return int(event["id"])
        return None

    async def _complete(self, guild_id: int, event_id: int) -> None:
        """Mark a finished night's event completed, so it no longer shows as to come. Discord moves
        an event only scheduled -> active -> completed, so a scheduled one is started first; the
        status is read each time, so a sync cut off between the two moves picks up where it was."""
        http = self.client.http
        try:
            event: dict[str, Any] = await http.get_scheduled_event(guild_id, event_id, False)  # type: ignore[assignment]
            status = event.get("status")
            if status == SCHEDULED:
                await http.edit_scheduled_event(guild_id, event_id, status=ACTIVE)
                status = ACTIVE
            if status == ACTIVE:
                await http.edit_scheduled_event(guild_id, event_id, status=COMPLETED)
        except discord.NotFound:
            pass  # deleted by someone: nothing left to end

    async def _delete(self, guild_id: int, event_id: int) -> None:
        try:
            await self.client.http.delete_scheduled_event(guild_id, event_id)
        except discord.NotFound:
            pass  # gone already

    async def _tell_no_right(self, info: NightInfo) -> None:
        """Say once per server, in the night's channel, that events need Create Events."""
        key = f"no-events:{info.guild_id}"
        if not await self.store.run_write(partial(claim_once, key)):
            return
        async with self.store.write() as db:
            await enqueue(db, None, [self.no_right(info)], session_id=lane_of(info.id))
        self.kick_delivery()
