"""What a game night is set up with (its title, time, systems, capacity, cut-off, recurrence), the
checks a new or edited night's settings pass, and the next night of a recurring one."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Literal
from zoneinfo import ZoneInfo

from rules.errors import RuleError
from rules.night.models import system_slug
from rules.session import Model

MAX_TITLE = 100
MIN_CAPACITY = 2
MAX_CAPACITY = 200
MAX_NIGHT_SYSTEMS = 8
MAX_TIME_ZONE = 64
RECURRENCE_DAYS = {"weekly": 7, "fortnightly": 14}

Recurrence = Literal["none", "weekly", "fortnightly"]


class NightSettings(Model):
    title: str
    starts_at: int  # epoch seconds, UTC
    time_zone: str  # IANA name
    systems: list[str]  # offered system slugs
    capacity: int
    cutoff: int  # epoch seconds, at or before starts_at
    recurrence: Recurrence = "none"


def check_time_zone(name: str) -> str:
    """`name` if it is an IANA time zone this machine knows, else `night.time_zone`."""
    name = name.strip()
    try:
        if not name or len(name) > MAX_TIME_ZONE:
            raise ValueError(name)
        ZoneInfo(name)
    except (ValueError, KeyError, OSError):
        raise RuleError(code="night.time_zone", name=name[:MAX_TIME_ZONE]) from None
    return name


def check_settings(settings: NightSettings, now: int, before: NightSettings | None = None) -> NightSettings:
    """`settings` tidied (systems as slugs), or a refusal. Times are checked against `now` only when
    new (`before` is the night's settings when editing)."""
    title = settings.title.strip()
    if not title:
        raise RuleError(code="night.title_missing")
    if len(title) > MAX_TITLE:
        raise RuleError(code="night.title_long", limit=MAX_TITLE)
    if not MIN_CAPACITY <= settings.capacity <= MAX_CAPACITY:
        raise RuleError(code="night.capacity", minimum=MIN_CAPACITY, maximum=MAX_CAPACITY)
    if not settings.systems:
        raise RuleError(code="night.no_systems")
    if len(settings.systems) > MAX_NIGHT_SYSTEMS:
        raise RuleError(code="night.systems_many", limit=MAX_NIGHT_SYSTEMS)
    systems: list[str] = []
    for typed in settings.systems:
        system = system_slug(typed)
        if system in systems:
            raise RuleError(code="night.system_twice", system=system)
        systems.append(system)
    time_zone = check_time_zone(settings.time_zone)
    if (before is None or settings.starts_at != before.starts_at) and settings.starts_at <= now:
        raise RuleError(code="night.in_past")
    if settings.cutoff > settings.starts_at:
        raise RuleError(code="night.cutoff_after_start")
    if (before is None or settings.cutoff != before.cutoff) and settings.cutoff <= now:
        raise RuleError(code="night.cutoff_past")
    return settings.model_copy(update={"title": title, "systems": systems, "time_zone": time_zone})


def next_occurrence(settings: NightSettings) -> NightSettings | None:
    """The next night of a recurring one: 7 or 14 days on at the same wall-clock time in its time
    zone (so a night at 19:00 stays at 19:00 across a change of summer time)."""
    days = RECURRENCE_DAYS.get(settings.recurrence)
    if days is None:
        return None
    zone = ZoneInfo(check_time_zone(settings.time_zone))

    def later(moment: int) -> int:
        local = datetime.fromtimestamp(moment, zone) + timedelta(days=days)  # wall-clock arithmetic
        return int(local.timestamp())

    return settings.model_copy(
        update={"starts_at": later(settings.starts_at), "cutoff": later(settings.cutoff)}
    )
