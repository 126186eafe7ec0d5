"""A small club for the browser tests: a public server with named players, results in two systems
and two seasons, upcoming game nights with sign-ups; and a second server that never opted in.

Everything is written straight to the tables the bot writes, and kept as plain facts (`Club`) that
the tests check the pages against without asking the site.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine

from bot.db.engine import make_sessionmaker
from bot.db.models import GameResult, GuildSettings, MemberName, Night, ResultsGeneration, Season
from rules.night.models import Signup
from rules.night.night import NightState
from rules.night.settings import NightSettings
from rules.scores import ResultRecord, ResultStatus
from tests.web.event_seed import SeededEvents, seed_events

GUILD = 410_000_000_000_000_001
PRIVATE_GUILD = 410_000_000_000_000_002
HOSTILE_GUILD = 410_000_000_000_000_003
CHANNEL = 410_000_000_000_000_100
FIRST_PLAYER = 420_000_000_000_000_001
NAMES = [
    "Ada Brightblade",
    "Bruno Kettle",
    "Chiara Voss",
    "Dmitri Ashcroft",
    "Elif Sandor",
    "Farah Quill",
    "Gus Morrow",
    "Hana Ito",
    "Ivo Renn",
    "Jo Okafor",
]
SYSTEMS = ("killteam", "warcry")
HOSTILE = {
    "server": "<script>window.pwned='server'</script>Club",
    "player": '"><img src=x onerror="window.pwned=\'player\'">',
    "rtl": "\u202eevil\u202c name",
    "warband": "</td><script>window.pwned='warband'</script>",
    "night": "<svg onload=\"window.pwned='night'\">Night",
}
"""What members and organisers could type, shown by a server that opted in (HOSTILE_GUILD)."""


@dataclass
class SeededNight:
    night_id: str
    title: str
    place: str
    starts_at: datetime
    signed_up: int


@dataclass
class Club:
    guild_id: int
    private_guild_id: int
    server_name: str
    names: dict[int, str]
    results: list[ResultRecord] = field(default_factory=list)
    nights: list[SeededNight] = field(default_factory=list)
    running_season: int = 0  # the season the league shows by default
    hostile_guild_id: int = HOSTILE_GUILD
    events: SeededEvents | None = None  # seeded by `seed_club_with_events`

    def player(self, index: int) -> int:
        return FIRST_PLAYER + index


async def seed_club(engine: AsyncEngine, *, results: int = 60, now: datetime | None = None) -> Club:
    """The club, written to the database behind `engine` (already migrated)."""
    now = now or datetime.now(UTC)
    rng = random.Random(29)
    club = Club(
        guild_id=GUILD,
        private_guild_id=PRIVATE_GUILD,
        server_name="Harbour Street Wargamers",
        names={FIRST_PLAYER + i: name for i, name in enumerate(NAMES)},
    )
    sessions = make_sessionmaker(engine)
    async with sessions.begin() as db:
        db.add(GuildSettings(guild_id=GUILD, language="en", web_public=True, web_name=club.server_name))
        db.add(
            GuildSettings(guild_id=PRIVATE_GUILD, language="en", web_public=False, web_name="Secret Cellar")
        )
        for user, name in club.names.items():
            db.add(MemberName(guild_id=GUILD, user_id=user, display_name=name))
            db.add(MemberName(guild_id=PRIVATE_GUILD, user_id=user, display_name=f"Cellar {name}"))
        spring = Season(guild_id=GUILD, name="Spring", started_at=now - timedelta(days=200))
        autumn = Season(guild_id=GUILD, name="Autumn", started_at=now - timedelta(days=100))
        db.add_all([spring, autumn])
        await db.flush()
        spring.ended_at = autumn.started_at
        club.running_season = autumn.id
        players = list(club.names)
        for number in range(results):
            a, b = rng.sample(players, 2)
            score_a, score_b = rng.randint(0, 20), rng.randint(0, 20)
            played = now - timedelta(days=190) + timedelta(hours=70 * number + rng.randint(0, 30))
            status = ResultStatus.CONFIRMED if number % 13 else ResultStatus.DISPUTED
            row = GameResult(
                guild_id=GUILD,
                channel_id=CHANNEL,
                system=SYSTEMS[number % 3 == 0],
                player_a=a,
                player_b=b,
                score_a=score_a,
                score_b=score_b,
                winner_id=a if score_a > score_b else b if score_b > score_a else None,
                played_at=played,
                season_id=(spring if played < autumn.started_at else autumn).id,
                status=status.value,
                announced=True,
                reported_by=a,
            )
            db.add(row)
            await db.flush()
            club.results.append(
                ResultRecord(
                    id=row.id,
                    system=row.system,
                    player_a=a,
                    player_b=b,
                    score_a=score_a,
                    score_b=score_b,
                    winner=row.winner_id,
                    played_at=played,
                    season_id=row.season_id,
                    status=status,
                )
            )
            # The private server's games, played by the same people: never on the public pages.
            db.add(
                GameResult(
                    guild_id=PRIVATE_GUILD,
                    system="warmaster",
                    player_a=a,
                    player_b=b,
                    score_a=score_b,
                    score_b=score_a,
                    winner_id=row.winner_id,
                    played_at=played,
                    status="confirmed",
                    announced=True,
                )
            )
        for days, title, place, signed in (
            (3, "Kill Team Thursday", "Back room", 6),
            (10, "Warcry Sunday", "Hall", 4),
        ):
            club.nights.append(_night(db, club, now + timedelta(days=days), title, place, players[:signed]))
        _night(db, club, now + timedelta(days=5), "Cellar night", "Cellar", players[:3], guild=PRIVATE_GUILD)
        _hostile(db, club, now)
        # As the bot's score service leaves them: each server's results generation bumped.
        db.add_all(ResultsGeneration(guild_id=g, generation=1) for g in (GUILD, PRIVATE_GUILD, HOSTILE_GUILD))
    return club


def _hostile(db: Any, club: Club, now: datetime) -> None:
    """A third, public server whose names are all attacks on the page that shows them."""
    db.add(GuildSettings(guild_id=HOSTILE_GUILD, language="en", web_public=True, web_name=HOSTILE["server"]))
    a, b = club.player(0), club.player(1)
    db.add(MemberName(guild_id=HOSTILE_GUILD, user_id=a, display_name=HOSTILE["player"]))
    db.add(MemberName(guild_id=HOSTILE_GUILD, user_id=b, display_name=HOSTILE["rtl"]))
    for number in range(3):
        db.add(
            GameResult(
                guild_id=HOSTILE_GUILD,
                system="warcry",
                player_a=a,
                player_b=b,
                faction_a=HOSTILE["warband"],
                faction_b=HOSTILE["warband"],
                score_a=number + 1,
                score_b=2,
                winner_id=a if number > 1 else b if number < 1 else None,
                played_at=now - timedelta(days=10 - number),
                status="confirmed",
                announced=True,
            )
        )
    _night(db, club, now + timedelta(days=4), HOSTILE["night"], HOSTILE["night"], [a, b], guild=HOSTILE_GUILD)


def _night(
    db: Any,
    club: Club,
    starts: datetime,
    title: str,
    place: str,
    players: list[int],
    *,
    guild: int | None = None,
) -> SeededNight:
    starts = starts.replace(minute=0, second=0, microsecond=0)
    start = int(starts.timestamp())
    night_id = f"web{start}{'' if guild is None else guild % 10}"
    settings = NightSettings(
        title=title,
        starts_at=start,
        time_zone="Europe/London",
        systems=list(SYSTEMS),
        capacity=12,
        cutoff=start - 3600,
    )
    state = NightState(
        night_id=night_id,
        organiser=players[0],
        settings=settings,
        signups=[Signup(player=p, systems=[SYSTEMS[i % 2]], seq=i + 1) for i, p in enumerate(players)],
        next_seq=len(players) + 1,
    )
    db.add(
        Night(
            id=night_id,
            guild_id=guild or club.guild_id,
            channel_id=CHANNEL,
            organiser_id=players[0],
            title=title,
            place=place,
            status="open",
            state=state.model_dump_json(),
            starts_at=starts,
            cutoff_at=starts - timedelta(hours=1),
            remind_at=starts - timedelta(hours=2),
        )
    )
    return SeededNight(night_id, title, place, starts, len(players))


async def seed_club_with_events(engine: AsyncEngine) -> Club:
    """The club, and its events (tests/web/event_seed.py) among its first six players."""
    club = await seed_club(engine)
    club.events = await seed_events(club.guild_id, [club.player(i) for i in range(6)])(engine)
    return club
