"""Guild scheduled events, as Discord's REST API serves them to a bot (discord.py 2.7's calls:
`GET`/`POST /guilds/{id}/scheduled-events`, `GET`/`PATCH`/`DELETE .../scheduled-events/{event}`).

What is checked, as Discord checks it: Create Events or Manage Events in the server (403/50013
without; editing or deleting an event someone else made needs Manage Events), the fields' lengths,
an external event's location and end time, a start time in the future (on creation, or when it
changes), an end after the start, and the status moves Discord allows (scheduled → active or
cancelled, active → completed; a finished event can't change). Unknown events answer 404/10070.
Changes are dispatched as GUILD_SCHEDULED_EVENT_CREATE/UPDATE/DELETE to a bot with that intent.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .model import JSON, Guild, permissions
from .validation import FormErrors, _length

if TYPE_CHECKING:
    from .emulator import Emulator
    from .server import ApiRequest

INTENT_GUILD_SCHEDULED_EVENTS = 1 << 16
CREATE_EVENTS = permissions("create_events")
MANAGE_EVENTS = permissions("manage_events")
UNKNOWN_EVENT = 10070

SCHEDULED, ACTIVE, COMPLETED, CANCELED = 1, 2, 3, 4
EXTERNAL = 3
GUILD_ONLY = 2
STATUS_MOVES = {SCHEDULED: {SCHEDULED, ACTIVE, CANCELED}, ACTIVE: {ACTIVE, COMPLETED}}


@dataclass(eq=False)
class ScheduledEvent:
    id: int
    guild_id: int
    creator_id: int
    name: str
    scheduled_start_time: dt.datetime
    scheduled_end_time: dt.datetime | None
    entity_type: int
    privacy_level: int = GUILD_ONLY
    status: int = SCHEDULED
    description: str | None = None
    channel_id: int | None = None
    location: str | None = None
    deleted: bool = False
    history: list[JSON] = field(default_factory=list)  # earlier versions, oldest first

    def payload(self, *, with_user_count: bool = False) -> JSON:
        data: JSON = {
            "id": str(self.id),
            "guild_id": str(self.guild_id),
            "channel_id": str(self.channel_id) if self.channel_id else None,
            "creator_id": str(self.creator_id),
            "name": self.name,
            "description": self.description,
            "scheduled_start_time": self.scheduled_start_time.isoformat(),
            "scheduled_end_time": self.scheduled_end_time.isoformat() if self.scheduled_end_time else None,
            "privacy_level": self.privacy_level,
            "status": self.status,
            "entity_type": self.entity_type,
            "entity_id": None,
            "entity_metadata": {"location": self.location} if self.entity_type == EXTERNAL else None,
            "image": None,
        }
        if with_user_count:
            data["user_count"] = 0
        return data


def _time(errors: FormErrors, key: str, value: Any) -> dt.datetime | None:
    if value is None:
        return None
    try:
        parsed = dt.datetime.fromisoformat(str(value))
    except ValueError:
        errors.add((key,), "DATE_TIME_TYPE_PARSE", f'Could not parse "{value}". Should be ISO8601.')
        return None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=dt.UTC)


class ScheduledEvents:
    """The handlers; the emulator keeps the events in `emu.scheduled_events` (deleted ones too)."""

    def __init__(self, emu: Emulator) -> None:
        self.emu = emu

    def routes(self, guild: str) -> list[tuple[str, str, Any, bool]]:
        event = r"(?P<event>\d+)"
        return [
            ("GET", rf"/guilds/{guild}/scheduled-events", self.list_events, True),
            ("POST", rf"/guilds/{guild}/scheduled-events", self.create_event, True),
            ("GET", rf"/guilds/{guild}/scheduled-events/{event}", self.get_event, True),
            ("PATCH", rf"/guilds/{guild}/scheduled-events/{event}", self.edit_event, True),
            ("DELETE", rf"/guilds/{guild}/scheduled-events/{event}", self.delete_event, True),
        ]

    # --- lookups ------------------------------------------------------------------------------

    def _guild(self, req: ApiRequest) -> Guild:
        from .server import ApiError

        guild = self.emu.guilds.get(int(req.params["guild"]))
        if guild is None:
            raise ApiError(404, 10004, "Unknown Guild")
        if self.emu.bot_user.id not in guild.members:
            raise ApiError(403, 50001, "Missing Access")
        return guild

    def _event(self, req: ApiRequest, guild: Guild) -> ScheduledEvent:
        from .server import ApiError

        found = self.emu.scheduled_events.get(int(req.params["event"]))
        if found is None or found.deleted or found.guild_id != guild.id:
            raise ApiError(404, UNKNOWN_EVENT, "Unknown Guild Scheduled Event")
        return found

    def _check_may(self, guild: Guild, event: ScheduledEvent | None) -> None:
        """Create Events lets the bot make events and change its own; Manage Events, anyone's."""
        from .server import ApiError

        granted = guild.base_permissions(self.emu.bot_user.id)
        own = event is None or event.creator_id == self.emu.bot_user.id
        if granted & MANAGE_EVENTS or (own and granted & CREATE_EVENTS):
            return
        raise ApiError(403, 50013, "Missing Permissions")

    async def _dispatch(self, guild: Guild, kind: str, event: ScheduledEvent) -> None:
        await self.emu.gateway.dispatch(
            guild.id, f"GUILD_SCHEDULED_EVENT_{kind}", event.payload(), intent=INTENT_GUILD_SCHEDULED_EVENTS
        )

    # --- handlers -----------------------------------------------------------------------------

    async def list_events(self, req: ApiRequest) -> tuple[int, Any]:
        guild = self._guild(req)
        counted = req.flag("with_user_count")
        return 200, [
            e.payload(with_user_count=counted)
            for e in self.emu.scheduled_events.values()
            if e.guild_id == guild.id and not e.deleted
        ]

    async def get_event(self, req: ApiRequest) -> tuple[int, Any]:
        guild = self._guild(req)
        return 200, self._event(req, guild).payload(with_user_count=req.flag("with_user_count"))

    async def create_event(self, req: ApiRequest) -> tuple[int, Any]:
        from .server import invalid

        guild = self._guild(req)
        self._check_may(guild, None)
        payload = req.json()
        errors = FormErrors()
        _length(errors, ("name",), payload.get("name"), 1, 100)
        if payload.get("description") is not None:
            _length(errors, ("description",), payload["description"], 0, 1000)
        if payload.get("privacy_level") != GUILD_ONLY:
            errors.add(("privacy_level",), "BASE_TYPE_CHOICES", "Value must be one of (2,).")
        kind = payload.get("entity_type")
        if kind not in (1, 2, EXTERNAL):
            errors.add(("entity_type",), "BASE_TYPE_CHOICES", "Value must be one of (1, 2, 3).")
        start = _time(errors, "scheduled_start_time", payload.get("scheduled_start_time"))
        end = _time(errors, "scheduled_end_time", payload.get("scheduled_end_time"))
        location = (payload.get("entity_metadata") or {}).get("location")
        self._check_shape(errors, kind, location, end, payload.get("channel_id"))
        if start is None:
            errors.add(("scheduled_start_time",), "BASE_TYPE_REQUIRED", "This field is required")
        self._check_times(errors, start, end, start_changed=True)
        if errors:
            raise invalid(errors)
        assert start is not None
        event = ScheduledEvent(
            id=self.emu.ids.next(),
            guild_id=guild.id,
            creator_id=self.emu.bot_user.id,
            name=payload["name"],
            description=payload.get("description"),
            scheduled_start_time=start,
            scheduled_end_time=end,
            entity_type=int(str(kind)),
            location=location,
            channel_id=int(payload["channel_id"]) if payload.get("channel_id") else None,
        )
        self.emu.scheduled_events[event.id] = event
        await self._dispatch(guild, "CREATE", event)
        return 200, event.payload()

    async def edit_event(self, req: ApiRequest) -> tuple[int, Any]:
        from .server import ApiError, invalid

        guild = self._guild(req)
        event = self._event(req, guild)
        self._check_may(guild, event)
        if event.status not in STATUS_MOVES:
            raise ApiError(400, 180000, "Cannot modify a finished event")
        payload = req.json()
        errors = FormErrors()
        if "name" in payload:
            _length(errors, ("name",), payload["name"], 1, 100)
        if payload.get("description") is not None:
            _length(errors, ("description",), payload["description"], 0, 1000)
        status = payload.get("status", event.status)
        if status not in STATUS_MOVES[event.status]:
            errors.add(("status",), "GUILD_SCHEDULED_EVENT_INVALID_STATUS", "Invalid status transition")
        start = _time(errors, "scheduled_start_time", payload.get("scheduled_start_time"))
        end = _time(errors, "scheduled_end_time", payload.get("scheduled_end_time"))
        kind = payload.get("entity_type", event.entity_type)
        metadata = payload.get("entity_metadata")
        location = metadata.get("location") if isinstance(metadata, dict) else event.location
        new_end = end or event.scheduled_end_time
        self._check_shape(errors, kind, location, new_end, payload.get("channel_id", event.channel_id))
        new_start = start or event.scheduled_start_time
        changed = start is not None and start != event.scheduled_start_time
        self._check_times(errors, new_start, new_end, start_changed=changed)
        if errors:
            raise invalid(errors)
        event.history.append(event.payload())
        event.name = payload.get("name", event.name)
        if "description" in payload:
            event.description = payload["description"]
        event.scheduled_start_time, event.scheduled_end_time = new_start, new_end
        event.status, event.location = int(status), location
        await self._dispatch(guild, "UPDATE", event)
        return 200, event.payload()

    async def delete_event(self, req: ApiRequest) -> tuple[int, Any]:
        guild = self._guild(req)
        event = self._event(req, guild)
        self._check_may(guild, event)
        event.deleted = True
        await self._dispatch(guild, "DELETE", event)
        return 204, None

    # --- checks -------------------------------------------------------------------------------

    @staticmethod
    def _check_shape(
        errors: FormErrors, kind: Any, location: Any, end: dt.datetime | None, channel_id: Any
    ) -> None:
        """An external event has a location and an end time and no channel; the others a channel."""
        if kind == EXTERNAL:
            _length(errors, ("entity_metadata", "location"), location, 1, 100)
            if end is None:
                errors.add(("scheduled_end_time",), "BASE_TYPE_REQUIRED", "This field is required")
            if channel_id is not None:
                errors.add(("channel_id",), "BASE_TYPE_BAD_TYPE", "Must be null for an external event")
        elif kind in (1, 2) and channel_id is None:
            errors.add(("channel_id",), "BASE_TYPE_REQUIRED", "This field is required")

    @staticmethod
    def _check_times(
        errors: FormErrors, start: dt.datetime | None, end: dt.datetime | None, *, start_changed: bool
    ) -> None:
        now = dt.datetime.now(dt.UTC)
        if start is not None and start_changed and start <= now:
            errors.add(
                ("scheduled_start_time",),
                "GUILD_SCHEDULED_EVENT_SCHEDULE_PAST",
                "Cannot schedule event in the past.",
            )
        if start is not None and end is not None and end <= start:
            errors.add(
                ("scheduled_end_time",),
                "GUILD_SCHEDULED_EVENT_END_BEFORE_START",
                "The end time must be after the start time.",
            )
