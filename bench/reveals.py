"""Kill Team sealed rounds with Discord's rate limits at their real windows: how soon a round's
reveal shows among many open games, and how soon twenty games stepping at once show their effects.

The bot runs as its own process (bench/bot_process.py); this process is the emulated Discord, rate
limits on at scale 1.0 (5 posts and 5 edits per 5 s per channel, 50 requests a second in all),
and the players. Every game has its own two players, as games on a real server do, so their DMs
are theirs alone. It opens GAMES + BURST Kill Team Bid games (each in its own channel, all open at
once), then:

- rounds: in each of GAMES games, both players seal their mission bid (each picks it from the
  menu in their DMs: one interaction, answered by redrawing the DM prompt; it used to be two, a
  button opening a form and then its submit), the rounds' first seals arriving at random
  (Poisson, RATE a second) and each second seal 0.3-1 s after its game's first is answered.
  Measured: from the second seal's interaction to the reveal visible in the game's thread
  (target p50 <= 300 ms, p99 <= 1.5 s);
- burst: in BURST other games, the first seals one after another, then all BURST second seals at
  the same moment. Measured per game: from the moment to the last post or edit it caused in its
  thread, its channel and its players' DMs (target: all within 5 s).

Over the whole run it counts the 429s Discord answered and the most requests counted against the
global limit in any one second (sliding), from the emulator's record of requests. It exits
non-zero when a reveal is missing, an interaction fails, a 429 was received or the global limit
was exceeded (timings are printed against their targets, not asserted).

Usage: python bench/reveals.py [--games 200] [--burst 20] [--rate 2] [--seed 1]
On PostgreSQL: MUSTER_BENCH_DATABASE_URL=postgresql+asyncpg://user@host/db (a fresh database is made).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import re
import sys
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import (
    ROOT,
    bench_database,
    bid_menu_id,
    engine_name,
    pick_bid,
    started_game,
    summary,
    until_quiet,
)
from tests.emulator import Emulator, start_bot_process
from tests.emulator.emulator import RecordedRequest
from tests.emulator.interactions import InteractionRecord
from tests.emulator.model import Channel, Guild, Message, User
from tests.emulator.ratelimits import GLOBAL, GLOBAL_EXEMPT

REVEAL = "Revealed, the bid to choose the mission"
CHANNELS_PER_GUILD = 50
MESSAGES = re.compile(r"/channels/(\d+)/messages(?:/\d+)?")


@dataclass
class Game:
    sid: str
    channel: Channel
    players: tuple[User, User]
    table: Channel | None = None
    prompts: dict[int, Message] = field(default_factory=dict)  # player id -> their bid prompt (its menu)
    second_sent: float = 0.0  # when the second seal was sent (wall time)

    def channels(self, emu: Emulator) -> set[int]:
        found = {self.channel.id, *(emu.dm_channel(p).id for p in self.players)}
        return found | ({self.table.id} if self.table is not None else set())


@dataclass
class Figures:
    reveals: list[float] = field(default_factory=list)
    burst: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


@contextlib.asynccontextmanager
async def bot_at_real_limits(seed: int, count: int) -> AsyncIterator[tuple[Emulator, list[Seat]]]:
    """The emulator at Discord's own windows with `count` seats, the bot in a child process."""
    with tempfile.TemporaryDirectory() as tmp:
        async with (
            Emulator(min_reaction_time=0.0, rate_limit_scale=1.0) as emu,
            bench_database(tmp) as database_url,
        ):
            places = seats(emu, count)
            env = {
                "DATABASE_URL": database_url,
                "MUSTER_DICE_SEED": str(seed),
                "LOG_LEVEL": "WARNING",
                "LOG_FORMAT": "text",
            }
            bot = await start_bot_process(
                [sys.executable, str(ROOT / "bench" / "bot_process.py")], emu, env=env, cwd=tmp
            )
            try:
                await emu.wait_commands_synced(["pong", "killteam"], timeout=60)
                yield emu, places
            finally:
                await bot.stop()


def prompt_of(emu: Emulator, user: User, sid: str) -> Message | None:
    """The user's DM prompt holding game `sid`'s bid menu, once posted."""
    custom_id = bid_menu_id(sid)
    for message in emu.dms(user):
        if any(c.get("custom_id") == custom_id for c in message.walk_components()):
            return message
    return None


async def answered(record: InteractionRecord, errors: list[str], what: str) -> InteractionRecord | None:
    try:
        await record.response(timeout=10)
    except Exception as error:  # counted, not fatal
        errors.append(f"{what}: {error}")
        return None
    return record


@dataclass
class Seat:
    """Where a game will be started, and by whom."""

    channel: Channel
    players: tuple[User, User]


def seats(emu: Emulator, count: int) -> list[Seat]:
    """`count` channels, each with its own two players, 50 to a server (made before the bot starts,
    so it learns of them all at once)."""
    made: list[Seat] = []
    guild: Guild | None = None
    for index in range(count):
        if index % CHANNELS_PER_GUILD == 0:
            guild = emu.add_guild(f"Club {index // CHANNELS_PER_GUILD}")
        assert guild is not None
        players = (emu.add_user(f"a{index}"), emu.add_user(f"b{index}"))
        for player in players:
            emu.add_member(guild, player)
        made.append(Seat(emu.add_channel(guild, f"kt-{index}"), players))
    return made


async def open_games(emu: Emulator, places: list[Seat], figures: Figures) -> list[Game]:
    """A game at every seat, a few starts at a time; returns once every bid prompt is posted."""
    games: list[Game] = []
    limit = asyncio.Semaphore(4)

    async def start(seat: Seat) -> None:
        async with limit:
            record = await emu.slash(
                seat.players[0],
                seat.channel,
                "killteam start",
                opponent=seat.players[1],
                mission_method="bid",
                tacops_method="free",
            )
            if await answered(record, figures.errors, f"start in {seat.channel.name}") is None:
                return
        sid = started_game(record)
        if sid is None:
            figures.errors.append(f"start in {seat.channel.name}: no game id on the card it answered")
            return
        games.append(Game(sid, seat.channel, seat.players))

    await asyncio.gather(*(start(seat) for seat in places))

    def prompted() -> bool:
        return all(prompt_of(emu, p, g.sid) is not None for g in games for p in g.players)

    await emu.wait_until(prompted, 600, "every game's bid prompts")
    for game in games:
        game.table = next(iter(emu.threads(game.channel)), None)
        game.prompts = {p.id: m for p in game.players if (m := prompt_of(emu, p, game.sid)) is not None}
    return games


async def seal(emu: Emulator, game: Game, player: int, amount: int, figures: Figures) -> bool:
    """One player's sealed bid: pick it from the menu in their DMs; True once answered."""
    user = game.players[player]
    if player == 1:
        game.second_sent = time.time()
    sent = await pick_bid(emu, user, game.prompts[user.id], game.sid, amount)
    return await answered(sent, figures.errors, f"seal {game.sid}") is not None


def shown_at(request: RecordedRequest) -> float:
    """When a request's effect was visible: once the emulator answered it."""
    return request.at + request.elapsed


def reveal_shown(emu: Emulator, game: Game) -> float | None:
    """When the game's reveal first showed in its thread (or channel)."""
    places = {game.channel.id} | ({game.table.id} if game.table is not None else set())
    for request in emu.requests:
        found = MESSAGES.fullmatch(request.path)
        if found is None or int(found.group(1)) not in places or request.at < game.second_sent:
            continue
        if request.method in ("POST", "PATCH") and request.status == 200 and REVEAL in str(request.json):
            return shown_at(request)
    return None


def last_effect(emu: Emulator, game: Game, since: float) -> float | None:
    """When the last post or edit made in the game's places since `since` showed."""
    places = game.channels(emu)
    times = [
        shown_at(r)
        for r in emu.requests
        if r.at >= since
        and r.method in ("POST", "PATCH")
        and r.status == 200
        and (found := MESSAGES.fullmatch(r.path)) is not None
        and int(found.group(1)) in places
    ]
    return max(times, default=None)


async def rounds(
    emu: Emulator, games: list[Game], rate: float, chance: random.Random, figures: Figures
) -> None:
    """Each game's round: its first seal at a random moment, its second 0.3-1 s after."""

    async def one(game: Game, delay: float) -> None:
        await asyncio.sleep(delay)
        first, second = chance.sample(range(11), 2)  # never a tie (a tie is bid again)
        if not await seal(emu, game, 0, first, figures):
            return
        await asyncio.sleep(chance.uniform(0.3, 1.0))
        await seal(emu, game, 1, second, figures)

    at = 0.0
    delays = []
    for _ in games:
        at += chance.expovariate(rate)
        delays.append(at)
    await asyncio.gather(*(one(g, d) for g, d in zip(games, delays, strict=True)))
    await until_quiet(emu, quiet=2.0, limit=300)
    for game in games:
        shown = reveal_shown(emu, game)
        if shown is None:
            figures.errors.append(f"game {game.sid}: no reveal")
        else:
            figures.reveals.append(shown - game.second_sent)


async def burst(emu: Emulator, games: list[Game], chance: random.Random, figures: Figures) -> None:
    """Every game's first seal one after another, then all their second seals at once."""
    amounts = {game.sid: chance.sample(range(11), 2) for game in games}
    for game in games:
        await seal(emu, game, 0, amounts[game.sid][0], figures)
    await until_quiet(emu, quiet=6.0, limit=300)  # the first seals' effects shown, buckets refilled

    moment = time.time()  # every second seal picked at this moment
    await asyncio.gather(*(seal(emu, game, 1, amounts[game.sid][1], figures) for game in games))
    await until_quiet(emu, quiet=2.0, limit=300)
    for game in games:
        shown = last_effect(emu, game, moment)
        if shown is None or reveal_shown(emu, game) is None:
            figures.errors.append(f"game {game.sid}: no reveal after the burst")
        else:
            figures.burst.append(shown - moment)


def busiest_second(requests: list[RecordedRequest]) -> tuple[int, list[RecordedRequest]]:
    """The most requests counted against the global limit in any one second, and those requests."""
    counted = sorted((r for r in requests if not GLOBAL_EXEMPT.fullmatch(r.path)), key=lambda r: r.at)
    most, begin, where = 0, 0, (0, 0)
    for end, request in enumerate(counted):
        while request.at - counted[begin].at >= GLOBAL.window:
            begin += 1
        if end - begin + 1 > most:
            most, where = end - begin + 1, (begin, end + 1)
    return most, counted[where[0] : where[1]]


async def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--burst", type=int, default=20)
    parser.add_argument("--rate", type=float, default=2.0, help="rounds starting a second, on average")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    chance = random.Random(args.seed)
    figures = Figures()
    async with bot_at_real_limits(args.seed, args.games + args.burst) as (emu, places):
        began = time.perf_counter()
        games = await open_games(emu, places, figures)
        await until_quiet(emu, quiet=2.0, limit=600)
        print(f"{len(games)} Kill Team games open on {engine_name()} in {time.perf_counter() - began:.0f} s")
        chance.shuffle(games)
        await rounds(emu, games[: args.games], args.rate, chance, figures)
        await burst(emu, games[args.games :], chance, figures)
        rate_limited = [r for r in emu.requests if r.status == 429]
        busiest, those = busiest_second(emu.requests)
    print(f"rate limits on, scale 1.0; rounds starting {args.rate:g} a second at random")
    print(summary("reveal shown after the 2nd seal", figures.reveals) + "  (target p50 <= 300, p99 <= 1500)")
    print(summary(f"{args.burst} games at once: last effect", figures.burst) + "  (target all <= 5000)")
    print(f"max {max(figures.burst, default=0) * 1000:.0f} ms; 429s received: {len(rate_limited)}")
    print(f"most requests against the global limit in one second: {busiest} (limit {GLOBAL.count})")
    for request in rate_limited[:5]:
        print(f"  429: {request.method} {request.path} ({request.rate_limit})")
    for error in figures.errors[:10]:
        print(f"  error: {error}")
    kinds = Counter(f"{r.method} {re.sub(r'[0-9]{6,}', '#', r.path)}" for r in those)
    print("  in that second: " + ", ".join(f"{n} x {k}" for k, n in kinds.most_common(6)))
    broken = figures.errors or rate_limited or busiest > GLOBAL.count
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
