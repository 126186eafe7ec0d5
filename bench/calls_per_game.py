"""Discord calls per whole game: the REST calls the bot makes for one game of each system, played as
the whole-game e2e tests play it, with the emulator's rate limits on.

Usage: python bench/calls_per_game.py [RATE_LIMIT_SCALE]   (default 0.01; prints a table, asserts nothing)

Each game is the flow of its e2e whole-game test (Kill Team bid game, Warcry Reaper battle, 40K
Marked for Death, Warmaster cards), run on a fresh bot and emulator. Counted from `emu.requests`
after the bot is ready: posts and edits in the game's thread, other channel posts, edits and
deletes, DM posts and edits, interaction responses (callbacks and followups; of them, the clicks
answered by their message redrawn, bot/play/in_place.py, which edit that message in the same call),
every request, the most thread edits one action (a slash command, a click, a select, a form) caused
(an answer redrawing a thread's message counts as one), and the 429s Discord answered.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import sys
import tempfile
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.databases import fresh_database
from tests.e2e.conftest import Muster
from tests.e2e.table_counts import actions_marked, thread_edits_per_action
from tests.e2e.test_fortyk import test_a_whole_game_in_its_thread_in_few_messages_and_pings as fortyk
from tests.e2e.test_killteam import (
    test_a_bid_game_stays_in_its_thread_and_pings_a_player_only_to_act as killteam,
)
from tests.e2e.test_warcry import test_a_whole_battle_in_its_thread_within_the_budgets as warcry
from tests.e2e.test_warmaster import (
    test_a_whole_game_stays_in_its_thread_and_pings_a_player_only_to_act as warmaster,
)
from tests.emulator import Emulator, discord_globals_restored
from tests.emulator.emulator import RecordedRequest

GAMES: list[tuple[str, Callable[[Muster], Awaitable[None]]]] = [
    ("Kill Team (bid)", killteam),
    ("Warcry", warcry),
    ("40K", fortyk),
    ("Warmaster", warmaster),
]
MESSAGES = re.compile(r"/channels/(\d+)/messages(?:/(\d+))?")
INTERACTION = re.compile(r"/(interactions|webhooks)/")


@dataclass
class Calls:
    thread_posts: int = 0
    thread_edits: int = 0
    other: int = 0  # other channels' posts, edits and deletes
    dm_posts: int = 0
    dm_edits: int = 0
    interaction: int = 0
    in_place: int = 0  # of the interaction responses: a click answered by its message redrawn
    total: int = 0
    most_thread_edits: int = 0  # by one action
    rate_limited: int = 0
    actions: int = 0
    per_action: list[int] = field(default_factory=list)


def kind(emu: Emulator, request: RecordedRequest) -> str | None:
    """Which column a request counts in (None: only the total)."""
    if INTERACTION.match(request.path):
        return "interaction"
    found = MESSAGES.fullmatch(request.path)
    if found is None or request.method == "GET":
        return None
    channel = emu.channels.get(int(found.group(1)))
    edit = request.method == "PATCH"
    if channel is not None and channel.is_dm:
        return "dm_edits" if edit else "dm_posts"
    if channel is not None and channel.is_thread:
        if request.method == "POST" and found.group(2) is None:
            return "thread_posts"
        if edit:
            return "thread_edits"
    return "other"


def count(emu: Emulator, start: int, marks: list[int]) -> Calls:
    calls = Calls()
    requests = emu.requests[start:]
    calls.total = len(requests)
    calls.rate_limited = sum(r.status == 429 for r in requests)
    for request in requests:
        column = kind(emu, request)
        if column is not None:
            setattr(calls, column, getattr(calls, column) + 1)
        if column == "interaction" and isinstance(request.json, dict) and request.json.get("type") == 7:
            calls.in_place += 1
    calls.per_action = thread_edits_per_action(emu, marks)
    calls.actions = len(marks)
    calls.most_thread_edits = max(calls.per_action, default=0)
    return calls


@contextlib.asynccontextmanager
async def muster_at_limits(scale: float) -> AsyncIterator[tuple[Emulator, Muster]]:
    """A fresh bot, started, on a fresh SQLite database and a fresh emulator with its rate limits on
    at `scale` (the default world added); stopped when done."""
    with tempfile.TemporaryDirectory() as tmp:
        async with (
            Emulator(rate_limits=True, rate_limit_scale=scale) as emu,
            fresh_database("sqlite", Path(tmp)) as url,
        ):
            world = emu.add_default_world()
            with discord_globals_restored():
                muster = Muster(emu, world, url)
                await muster.start()
                try:
                    yield emu, muster
                finally:
                    await muster.stop()


async def play(game: Callable[[Muster], Awaitable[None]], scale: float) -> Calls:
    async with muster_at_limits(scale) as (emu, muster):
        start = len(emu.requests)
        marks: list[int] = []
        with actions_marked(emu, marks):
            await game(muster)
        await muster.announced()
    return count(emu, start, marks)


COLUMNS = [
    ("thread posts", "thread_posts"),
    ("thread edits", "thread_edits"),
    ("other", "other"),
    ("DM posts", "dm_posts"),
    ("DM edits", "dm_edits"),
    ("interactions", "interaction"),
    ("of them in place", "in_place"),
    ("total", "total"),
    ("actions", "actions"),
    ("most thread edits/action", "most_thread_edits"),
    ("429s", "rate_limited"),
]


async def main(scale: float) -> None:
    print(f"rate limits on, scale {scale}")
    print("| game | " + " | ".join(title for title, _ in COLUMNS) + " |")
    print("|---" * (len(COLUMNS) + 1) + "|")
    for name, game in GAMES:
        calls = await play(game, scale)
        print(f"| {name} | " + " | ".join(str(getattr(calls, attr)) for _, attr in COLUMNS) + " |")


if __name__ == "__main__":
    asyncio.run(main(float(sys.argv[1]) if len(sys.argv) > 1 else 0.01))
