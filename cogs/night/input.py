"""Reading what organisers and players type for a game night: a date and a time of day in the
server's time zone, the systems offered, and the sign-up form's fields. Every refusal is a
polite `RuleError` with a code (cogs/night/text.py words it), raised before anything is stored.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, time
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from bot.chat.limits import AUTOCOMPLETE_CHOICES
from rules.errors import RuleError
from rules.night.models import Signup, system_slug
from rules.text import echo

TIME = re.compile(r"(?P<hour>\d{1,2})(?:[:.h](?P<minute>\d{2}))?\s*(?P<half>am|pm)?")
DATE_FORMATS = ("%Y-%m-%d", "%d/%m/%Y", "%d.%m.%Y")
MAX_CUTOFF_HOURS = 24 * 14
ZONE_SHOWN = 60  # of a typed time zone a refusal repeats: the longest IANA names fit
TYPED_SHOWN = 40  # of a typed date, time or table a refusal repeats
NOTE_CHARS = 200  # a sign-up's note, as long as its form field allows (cogs/night/signup.py)


def zone(name: str | None) -> ZoneInfo:
    """A server's time zone (None: UTC)."""
    try:
        return ZoneInfo(name or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        raise RuleError(code="night.time_zone", name=echo(name or "", ZONE_SHOWN)) from None


def time_zone_name(typed: str) -> str:
    """A typed time zone's IANA name, matched without regard to case ("europe/london")."""
    text = typed.strip()
    known = {name.lower(): name for name in available_timezones()}
    name = known.get(text.lower().replace(" ", "_"))
    if name is None:
        raise RuleError(code="night.time_zone", name=echo(text, ZONE_SHOWN))
    return name


def zone_choices(typed: str, limit: int = AUTOCOMPLETE_CHOICES) -> list[str]:
    """Time zone names containing what was typed, for autocomplete."""
    needle = typed.strip().lower().replace(" ", "_")
    return sorted(n for n in available_timezones() if needle in n.lower() and "/" in n)[:limit]


def parse_date(typed: str) -> date:
    text = typed.strip()
    for format in DATE_FORMATS:
        try:
            return datetime.strptime(text, format).date()
        except ValueError:
            continue
    raise RuleError(code="night.bad_date", typed=echo(text, TYPED_SHOWN))


def parse_time(typed: str) -> time:
    """19:00, 19.30, 7pm, 7:30 pm."""
    match = TIME.fullmatch(typed.strip().lower())
    if match is None:
        raise RuleError(code="night.bad_time", typed=echo(typed.strip(), TYPED_SHOWN))
    hour, minute = int(match["hour"]), int(match["minute"] or 0)
    if match["half"]:
        if not 1 <= hour <= 12:
            raise RuleError(code="night.bad_time", typed=echo(typed.strip(), TYPED_SHOWN))
        hour = hour % 12 + (12 if match["half"] == "pm" else 0)
    if hour > 23 or minute > 59:
        raise RuleError(code="night.bad_time", typed=echo(typed.strip(), TYPED_SHOWN))
    return time(hour, minute)


def starts_at(typed_date: str, typed_time: str, zone_name: str | None) -> int:
    """Epoch seconds of a wall-clock date and time in the server's zone (refused if it doesn't exist)."""
    tz = zone(zone_name)
    day, clock = parse_date(typed_date), parse_time(typed_time)
    local = datetime.combine(day, clock, tzinfo=tz)
    back = local.astimezone(UTC).astimezone(tz)
    if (back.hour, back.minute) != (clock.hour, clock.minute):  # a spring-forward gap
        raise RuleError(code="night.no_such_time", date=str(day), time=clock.strftime("%H:%M"), zone=tz.key)
    return int(local.timestamp())


def systems_typed(typed: str) -> list[str]:
    """Comma- or slash-separated system names, as slugs (the rules check the rest)."""
    parts = [p for p in re.split(r"[,/;\n]+", typed) if p.strip()]
    return list(dict.fromkeys(system_slug(p) for p in parts))


def form_values(components: list[Any]) -> dict[str, Any]:
    """A submitted form's values by custom id: text as str, selects as a list of str."""
    values: dict[str, Any] = {}
    for component in components:
        if not isinstance(component, dict):
            continue
        if "custom_id" in component:
            if "values" in component:
                values[str(component["custom_id"])] = [str(v) for v in component["values"] or []]
            elif "value" in component:
                values[str(component["custom_id"])] = str(component["value"] or "")
        values.update(form_values(list(component.get("components") or [])))
        if isinstance(component.get("component"), dict):
            values.update(form_values([component["component"]]))
    return values


def signup_of(player: int, values: dict[str, Any]) -> Signup:
    """The sign-up a submitted form asks for (its systems as slugs; the rules check the rest)."""
    points_text = str(values.get("points") or "").strip().replace(",", "")
    points = None
    if points_text:
        if not points_text.isdigit():
            raise RuleError(code="night.points_typed")
        points = int(points_text)
    teaching = set(values.get("teaching") or [])
    arranged = [int(v) for v in values.get("arranged") or [] if str(v).isdigit()]
    return Signup(
        player=player,
        systems=systems_typed(str(values.get("systems") or "")),
        points=points,
        can_teach="teach" in teaching,
        wants_to_learn="learn" in teaching,
        arranged_with=arranged[0] if arranged else None,
        note=str(values.get("note") or "").strip()[:NOTE_CHARS],
    )
