"""The syncer that keeps a Discord scheduled event in step with a stored gathering (a game night or
an event): made once, edited while it is still to come, marked completed when it is finished,
deleted when it is cancelled.

A gathering's row says which of its versions its scheduled event shows. The sync takes every row
whose version is ahead of that, one process at a time per row (a lease on the lane
`<lane prefix><id>`, as the outbox leases its lanes), makes the scheduled event show the stored
row, and records the version shown. Making one carries no nonce, so its description ends with a
marker naming the row: a sync after a crash between making it and recording its id finds it by the
marker instead of making a second one.

When the bot may not make events in a server (Create Events missing), the gathering goes on without
one and its channel is told once per server what to grant (claimed under `no-events:<server>`, so
nights and events give the note once between them). The event and that note are public: they speak
the server's language; the marker is never translated.

`ScheduledEventSync` holds what is the same for both, down to the rows behind and the record of the
version shown (both tables have `event_id`, `event_version`, `version`); a subclass names its table
and says how to read a row, what stage it is at, when it runs and how its marker reads
(bot/nights/events.py, bot/events/scheduled.py).

`remind_once` is the other thing both tables share: a gathering's reminders, queued once whichever
process gets there first.
"""

from __future__ import annotations

import enum
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial
from typing import Any, ClassVar, Generic, Protocol, TypeVar

import discord
from sqlalchemy import select, update
from sqlalchemy.orm import Session

from bot.chat.limits import SCHEDULED_EVENT_DESCRIPTION, SCHEDULED_EVENT_LOCATION, SCHEDULED_EVENT_NAME
from bot.chat.messages import Outgoing
from bot.chat.outbox import claim_once, enqueue, free_lane, take_lane
from bot.db.models import ClubEvent, Night, utcnow
from bot.db.store import Store
from bot.lang.i18n import SOURCE, speaking
from bot.worker import Worker
from rules.text import clip

log = logging.getLogger(__name__)

EXTERNAL = 3
SCHEDULED, ACTIVE, COMPLETED = 1, 2, 3  # an event's statuses (Discord moves it only in this order)
GUILD_ONLY = 2
LEASE = timedelta(seconds=30)
BATCH = 25


@dataclass(frozen=True)
class EventText:
    """What the scheduled event shows (the cog words it)."""

    name: str
    description: str
    location: str


class Stage(enum.Enum):
    """Where a gathering stands, as far as its scheduled event is concerned."""

    CANCELLED = "cancelled"  # the scheduled event is deleted
    FINISHED = "finished"  # the scheduled event is marked completed
    UNDER_WAY = "under way"  # left as it is: its time can't move any more
    COMING = "coming"  # made or edited to show the gathering


class Gathering(Protocol):
    """The facts of a stored row the syncer needs."""

    @property
    def id(self) -> str: ...
    @property
    def guild_id(self) -> int: ...
    @property
    def version(self) -> int: ...


RowT = TypeVar("RowT", Night, ClubEvent)
InfoT = TypeVar("InfoT", bound=Gathering)
StateT = TypeVar("StateT")
ServerLanguage = Callable[[int], Awaitable[str]]


def find_marked(events: list[dict[str, Any]], mark: str) -> int | None:
    """The id of the scheduled event whose description ends with `mark`, if one does."""
    for event in events:
        if (event.get("description") or "").rstrip().endswith(mark):
            return int(event["id"])
    return None


async def remind_once(
    store: Store, model: type[RowT], row_id: str, outgoing: list[Outgoing], lane: str, now: datetime
) -> bool:
    """Queue a gathering's reminders once: `reminded_at` is claimed in the transaction that queues
    them, so a second process (or a second sweep) finds it taken and queues nothing."""
    async with store.write() as db:
        claimed = await db.execute(
            update(model).where(model.id == row_id, model.reminded_at.is_(None)).values(reminded_at=now)
        )
        if claimed.rowcount != 1:  # type: ignore[attr-defined]
            return False
        await enqueue(db, None, outgoing, session_id=lane)
    return True


class ScheduledEventSync(Generic[RowT, InfoT, StateT]):
    """One worker that sweeps the rows behind and syncs each under its lease."""

    model: type[RowT]  # the table of gatherings
    worker_name: ClassVar[str]
    lane_prefix: ClassVar[str]  # the lease's lane is this and the row's id
    noun: ClassVar[str]  # what a row is called in the log
    marker_prefix: ClassVar[str]  # the marker is this and the row's id
    location_fallback: ClassVar[str] = ""  # the location shown when the words give none

    def __init__(
        self,
        store: Store,
        client: discord.Client,
        owner: str,
        describe: Callable[[InfoT, StateT], EventText],
        no_right: Callable[[InfoT], Outgoing],
        every: float,
        server_language: ServerLanguage | None = None,
        kick_delivery: Callable[[], None] | None = None,
    ) -> None:
        self.store, self.client, self.owner = store, client, owner
        self.describe, self.no_right, self.server_language = describe, no_right, server_language
        self.kick_delivery = kick_delivery
        self._worker = Worker(self.worker_name, self.sync_all, every, ready=client.wait_until_ready)
        self.kick = self._worker.kick
        self.idle = self._worker.idle

    # ------------------------------------------------------------------ the rows

    def behind(self, db: Session) -> list[str]:
        """The ids of rows whose scheduled event doesn't show their latest version (at most BATCH)."""
        model = self.model
        query = select(model.id).where(model.event_version < model.version).order_by(model.updated_at)
        return list(db.scalars(query.limit(BATCH)))

    def read(self, db: Session, row_id: str) -> tuple[InfoT, StateT, int | None] | None:
        """A row still behind, with the scheduled event's id it records (None: no longer behind)."""
        row = db.get(self.model, row_id)
        if row is None or row.event_version >= row.version:
            return None
        info, state = self.load(row)
        return info, state, row.event_id

    def record(self, info: InfoT, scheduled: int | None, db: Session) -> None:
        """Record that the scheduled event `scheduled` shows the version in `info` (unless a later
        sync recorded a later one)."""
        model = self.model
        db.execute(
            update(model)
            .where(model.id == info.id, model.event_version < info.version)
            .values(event_id=scheduled, event_version=info.version)
        )

    # ------------------------------------------------------------------ what a subclass says

    def load(self, row: RowT) -> tuple[InfoT, StateT]:
        """A row's facts and state."""
        raise NotImplementedError

    def stage(self, info: InfoT, state: StateT) -> Stage:
        raise NotImplementedError

    def span(self, info: InfoT, state: StateT) -> tuple[datetime, datetime]:
        """When the gathering starts and ends."""
        raise NotImplementedError

    def marker(self, row_id: str) -> str:
        """The line that ends the description: how a resend finds the scheduled event it made."""
        return f"{self.marker_prefix}{row_id}"

    def note_lane(self, info: InfoT) -> str:
        """The outbox lane the no-right note goes out on."""
        raise NotImplementedError

    # ------------------------------------------------------------------ the sweep

    def start(self) -> None:
        self._worker.start()
        self._worker.kick()

    async def stop(self) -> None:
        await self._worker.stop()

    async def sync_all(self) -> int:
        """Bring every row's scheduled event up to date (those another process holds are left)."""
        done = 0
        for row_id in await self.store.run(self.behind):
            lane = f"{self.lane_prefix}{row_id}"
            if not await self.store.run_write(partial(take_lane, lane, self.owner, utcnow() + LEASE)):
                continue
            try:
                done += await self._sync(row_id)
            except discord.HTTPException as exc:  # 5xx or 429: the next sweep tries again
                log.warning(
                    "scheduled event of %s %s not synced (%s %s)", self.noun, row_id, exc.status, exc.code
                )
            finally:
                await self.store.run_write(partial(free_lane, lane, self.owner))
        return done

    async def _sync(self, row_id: str) -> int:
        found = await self.store.run(lambda db: self.read(db, row_id))  # read again under the lease
        if found is None:
            return 0
        info, state, scheduled = found
        language = SOURCE if self.server_language is None else await self.server_language(info.guild_id)
        with speaking(language):
            try:
                scheduled = await self._apply(info, state, scheduled)
            except discord.Forbidden as exc:
                if exc.code != 50013:
                    raise
                await self._tell_no_right(info)
                scheduled = None
        await self.store.run_write(partial(self.record, info, scheduled))
        return 1

    async def _apply(self, info: InfoT, state: StateT, scheduled: int | None) -> int | None:
        """Make the scheduled event show the row; returns its id (None: there is none)."""
        if scheduled is None:
            scheduled = await self._find(info)
        stage = self.stage(info, state)
        if stage is Stage.CANCELLED:
            if scheduled is not None:
                await self._delete(info.guild_id, scheduled)
            return None
        if stage is Stage.FINISHED:
            if scheduled is not None:
                await self._complete(info.guild_id, scheduled)
            return scheduled
        if stage is Stage.UNDER_WAY:
            return scheduled
        payload = self._payload(info, state)
        http = self.client.http
        if scheduled is not None:
            try:
                await http.edit_scheduled_event(info.guild_id, scheduled, **payload)
                return scheduled
            except discord.NotFound:
                pass  # deleted by someone: made again, since the gathering still stands
        made = await http.create_guild_scheduled_event(info.guild_id, **payload)
        return int(made["id"])

    def _payload(self, info: InfoT, state: StateT) -> dict[str, Any]:
        text = self.describe(info, state)
        start, end = self.span(info, state)
        tail = f"\n\n{self.marker(info.id)}"  # kept whole: a resend finds its event by it
        location = clip(text.location, SCHEDULED_EVENT_LOCATION) or self.location_fallback
        return {
            "name": clip(text.name, SCHEDULED_EVENT_NAME),
            "description": clip(text.description, SCHEDULED_EVENT_DESCRIPTION - len(tail)) + tail,
            "privacy_level": GUILD_ONLY,
            "entity_type": EXTERNAL,
            "entity_metadata": {"location": location},
            "channel_id": None,
            "scheduled_start_time": start.isoformat(),
            "scheduled_end_time": end.isoformat(),
        }

    async def _find(self, info: InfoT) -> int | None:
        """The scheduled event an earlier sync made for this row but didn't get to record."""
        events: list[dict[str, Any]] = await self.client.http.get_scheduled_events(info.guild_id, False)  # type: ignore[assignment]
        return find_marked(events, self.marker(info.id))

    async def _complete(self, guild_id: int, scheduled: int) -> None:
        """Mark a finished gathering's event completed, so it no longer shows as to come. Discord
        moves an event only scheduled -> active -> completed, so a scheduled one is started first;
        the status is read each time, so a sync cut off between the two moves picks up where it was."""
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
            pass  # deleted by someone: nothing left to end

    async def _delete(self, guild_id: int, scheduled: int) -> None:
        try:
            await self.client.http.delete_scheduled_event(guild_id, scheduled)
        except discord.NotFound:
            pass  # gone already

    async def _tell_no_right(self, info: InfoT) -> None:
        """Say once per server, in the gathering's channel, that events need Create Events."""
        if not await self.store.run_write(partial(claim_once, f"no-events:{info.guild_id}")):
            return
        async with self.store.write() as db:
            await enqueue(db, None, [self.no_right(info)], session_id=self.note_lane(info))
        if self.kick_delivery is not None:
            self.kick_delivery()
