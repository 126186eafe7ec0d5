"""Seeding for the web tests: a server whose every member-typed text is hostile, beside the friendly
club of the browser tests (tests/web/browser/club.py, `seed_club`), which these tests reuse too.

Everything is written straight to the tables the bot writes; the facts are returned (`Hostile`) so
tests check the pages against them without asking the site.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from sqlalchemy.ext.asyncio import AsyncEngine

from bot.db.engine import make_sessionmaker
from bot.db.models import GameResult, GuildSettings, MemberName, Night, Season
from rules.night.models import Signup
from rules.night.night import NightState
from rules.night.settings import NightSettings

HOSTILE_GUILD = 430_000_000_000_000_001
FIRST = 440_000_000_000_000_001
RTL = "\u202e"
SCRIPT = "<script>alert(1)</script>"
IMAGE = '"><img src=x onerror=alert(1)>'
SVG = "<svg onload=alert(1)>"
TEMPLATE = "{{ 7*7 }}{% raw %}"
QUOTE = "'; DROP TABLE results; --"
HOSTILE = (SCRIPT, IMAGE, f"{RTL}evil{RTL}gnp.exe", SVG, TEMPLATE, QUOTE)
"""Display names, warbands, missions, titles: what a member may type, each a known attack."""


@dataclass
class Hostile:
    guild_id: int
    server_name: str
    names: dict[int, str]
    factions: list[str] = field(default_factory=list)
    night_title: str = ""
    season_name: str = ""


async def seed_hostile(engine: AsyncEngine, now: datetime | None = None) -> Hostile:
    """A public server named with a script, whose players, warbands, mission, season and night
    are all named with the strings of `HOSTILE`."""
    now = now or datetime.now(UTC)
    hostile = Hostile(
        guild_id=HOSTILE_GUILD,
        server_name=f"{SCRIPT} Club {RTL}",
        names={FIRST + i: text for i, text in enumerate(HOSTILE)},
        factions=[f"{text} warband" for text in HOSTILE],
        night_title=f"{IMAGE} night {RTL}",
        season_name=f"{SCRIPT} season",
    )
    sessions = make_sessionmaker(engine)
    async with sessions.begin() as db:
        db.add(GuildSettings(guild_id=HOSTILE_GUILD, web_public=True, web_name=hostile.server_name))
        for user, name in hostile.names.items():
            db.add(MemberName(guild_id=HOSTILE_GUILD, user_id=user, display_name=name))
        season = Season(guild_id=HOSTILE_GUILD, name=hostile.season_name, started_at=now - timedelta(days=30))
        db.add(season)
        await db.flush()
        players = list(hostile.names)
        for number, (a, b) in enumerate(zip(players, players[1:] + players[:1], strict=True)):
            db.add(
                GameResult(
                    guild_id=HOSTILE_GUILD,
                    system="killteam",
                    mission=HOSTILE[number],
                    player_a=a,
                    player_b=b,
                    faction_a=hostile.factions[number],
                    faction_b=hostile.factions[-1 - number],
                    score_a=10 + number,
                    score_b=9,
                    winner_id=a,
                    played_at=now - timedelta(days=20 - number),
                    status="confirmed",
                    season_id=season.id,
                    announced=True,
                )
            )
        db.add(_night(hostile, players, now + timedelta(days=2)))
    return hostile


def _night(hostile: Hostile, players: list[int], starts: datetime) -> Night:
    starts = starts.replace(microsecond=0)
    start = int(starts.timestamp())
    state = NightState(
        night_id="hostile1",
        organiser=players[0],
        settings=NightSettings(
            title=hostile.night_title,
            starts_at=start,
            time_zone="UTC",
            systems=["killteam"],
            capacity=8,
            cutoff=start - 3600,
        ),
        signups=[
            Signup(player=p, systems=["killteam"], note=f"{SCRIPT} private note", seq=i + 1)
            for i, p in enumerate(players[:3])
        ],
        next_seq=4,
    )
    return Night(
        id="hostile1",
        guild_id=hostile.guild_id,
        channel_id=1,
        organiser_id=players[0],
        title=hostile.night_title,
        place="",
        status="open",
        state=state.model_dump_json(),
        starts_at=starts,
        cutoff_at=starts - timedelta(hours=1),
        remind_at=starts - timedelta(hours=2),
    )
