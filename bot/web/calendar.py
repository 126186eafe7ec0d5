"""The iCalendar feed of a server's game nights and events (`/g/<id>/nights.ics`), written with `icalendar`
(the maintained RFC 5545 library: it folds long lines and escapes text, which a hand-made writer
gets wrong with commas, semicolons and non-ASCII names)."""

from __future__ import annotations

from datetime import timedelta

from icalendar import Calendar, Event

from bot.scores.systems import system_title
from bot.web.events import EventRow
from bot.web.queries import NightRow
from bot.web.words import places

PRODUCT = "-//Muster//league site//EN"


def night_feed(
    club_name: str, nights: list[NightRow], base_url: str, guild_id: int, events: list[EventRow] | None = None
) -> bytes:
    """A VCALENDAR with one VEVENT per upcoming night and event: UID stable per each, times in UTC."""
    feed = Calendar()
    feed.add("prodid", PRODUCT)
    feed.add("version", "2.0")
    feed.add("calscale", "GREGORIAN")
    feed.add("method", "PUBLISH")
    feed.add("x-wr-calname", club_name or "Muster")
    feed.add("refresh-interval", timedelta(hours=1), parameters={"VALUE": "DURATION"})
    for night in nights:
        event = Event()
        event.add("uid", f"night-{night.id}@{guild_id}.muster")
        event.add("dtstamp", night.updated_at)
        event.add("dtstart", night.starts_at)
        event.add("dtend", night.ends_at)
        event.add("summary", night.title)
        systems = ", ".join(system_title(s) for s in night.systems)
        event.add("description", f"{systems}\n{places(night.signed_up, night.capacity)}")
        event.add("url", f"{base_url}/g/{guild_id}/nights")
        feed.add_component(event)
    for tournament in events or []:
        event = Event()
        event.add("uid", f"event-{tournament.id}@{guild_id}.muster")
        event.add("dtstamp", tournament.updated_at)
        event.add("dtstart", tournament.starts_at)
        event.add("dtend", tournament.ends_at)
        event.add("summary", tournament.name)
        event.add("description", system_title(tournament.system))
        event.add("url", f"{base_url}/g/{guild_id}/events")
        feed.add_component(event)
    return bytes(feed.to_ical())
