"""Templates and what they are given: Jinja2 with autoescape always on, names, dates, the chart.

Jinja2 (the most used Python template engine, maintained by Pallets) escapes every value put into a
page unless it is marked safe, and nothing here marks a stored value safe: a display name, a
warband or a night's title is always shown as text. Names are also wrapped in `<bdi>` by the
templates, so a right-to-left override in one name cannot reorder the text around it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from babel.dates import format_date, format_time
from jinja2 import Environment, FileSystemLoader, StrictUndefined

from bot.lang.i18n import LANGUAGES, speaking
from bot.scores.systems import system_title
from bot.web.queries import Member, RatingPoint
from bot.web.words import isolate, unnamed, words

TEMPLATES = Path(__file__).resolve().parent / "templates"
CHART_WIDTH = 640
CHART_HEIGHT = 220
CHART_PAD = 28


def environment() -> Environment:
    """The templates, compiled now (and each language's dates and words loaded) rather than by the
    first visitor after a start."""
    env = Environment(
        loader=FileSystemLoader(TEMPLATES),
        autoescape=True,  # every template, whatever its name: nothing is ever shown unescaped
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        auto_reload=False,
    )
    env.filters["system"] = system_title
    env.filters["isolate"] = isolate
    for name in env.list_templates(extensions=["j2"]):
        env.get_template(name)
    moment = datetime(2000, 1, 1, tzinfo=ZoneInfo("UTC"))
    for lang in LANGUAGES:
        Dates(lang, "UTC").moment(moment)
        with speaking(lang):
            words()  # the catalogue's files, read once
    return env


@dataclass(frozen=True)
class Shown:
    """A member as a page shows them: their name, and whether their page may be linked."""

    name: str
    linked: bool


class Names:
    """Display names as the server shows them; a member who chose `/scores privacy hide` is shown
    as "Hidden player", never linked."""

    def __init__(self, members: dict[int, Member], hidden_word: str) -> None:
        self.members = members
        self.hidden_word = hidden_word

    def __call__(self, user_id: int) -> Shown:
        member = self.members.get(user_id)
        if member is not None and member.hidden:
            return Shown(self.hidden_word, False)
        if member is None or not member.name:
            return Shown(unnamed(user_id), True)
        return Shown(member.name, True)

    def hidden(self, user_id: int) -> bool:
        member = self.members.get(user_id)
        return member is not None and member.hidden


class Dates:
    """Dates and times in the server's time zone, worded in the page's language."""

    def __init__(self, language: str, time_zone: str) -> None:
        self.language = language
        try:
            self.zone = ZoneInfo(time_zone)
        except (KeyError, ValueError, OSError):
            self.zone = ZoneInfo("UTC")

    def day(self, when: datetime) -> str:
        return format_date(when.astimezone(self.zone).date(), format="medium", locale=self.language)

    def moment(self, when: datetime, zone: str | None = None) -> str:
        tz = self.zone
        if zone:
            try:
                tz = ZoneInfo(zone)
            except (KeyError, ValueError, OSError):
                pass
        local = when.astimezone(tz)
        day = format_date(local.date(), format="full", locale=self.language)
        return f"{day} · {format_time(local.time(), format='short', locale=self.language)}"


@dataclass(frozen=True)
class ChartPoint:
    x: float
    y: float
    rating: int
    result_id: int
    played_at: datetime


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    points: list[ChartPoint]
    low: int
    high: int

    @property
    def line(self) -> str:
        return " ".join(f"{p.x:.1f},{p.y:.1f}" for p in self.points)


def chart(points: list[RatingPoint]) -> Chart | None:
    """The rating after each game, left to right in play order, scaled to the box."""
    if not points:
        return None
    low = min(p.rating for p in points)
    high = max(p.rating for p in points)
    span = max(high - low, 1)
    inner_w = CHART_WIDTH - 2 * CHART_PAD
    inner_h = CHART_HEIGHT - 2 * CHART_PAD
    step = inner_w / max(len(points) - 1, 1)
    placed = [
        ChartPoint(
            x=CHART_PAD + (i * step if len(points) > 1 else inner_w / 2),
            y=CHART_PAD + inner_h * (1 - (p.rating - low) / span) if high != low else CHART_HEIGHT / 2,
            rating=p.rating,
            result_id=p.result_id,
            played_at=p.played_at,
        )
        for i, p in enumerate(points)
    ]
    return Chart(CHART_WIDTH, CHART_HEIGHT, placed, low, high)


def render(env: Environment, template: str, **values: Any) -> str:
    return env.get_template(template).render(**values)
