"""Shared by the benchmarks: the emulator, the real bot as its own process, a bare pong, percentiles."""

from __future__ import annotations

import asyncio
import contextlib
import io
import os
import pstats
import re
import signal
import statistics
import sys
import tempfile
from collections.abc import AsyncIterator, Awaitable
from pathlib import Path
from typing import Any

import discord
from pydantic import SecretStr

from bot.app import MusterBot
from bot.chat import custom_ids
from bot.config import Settings
from tests.databases import fresh_postgres
from tests.emulator import (
    BotProcess,
    DefaultWorld,
    Emulator,
    discord_globals_restored,
    run_bot,
    start_bot_process,
)
from tests.emulator.interactions import InteractionRecord
from tests.emulator.model import Message, User

ROOT = Path(__file__).resolve().parents[1]


def add_pong(bot: MusterBot) -> None:
    """The floor: a command that does nothing but answer, so discord.py's own cost is measured."""

    @bot.tree.command(name="pong", description="Benchmark floor")
    async def pong(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message("pong")

    _ = pong


POSTGRES_ENV = "MUSTER_BENCH_DATABASE_URL"
"""Set to a PostgreSQL server's URL to benchmark on a fresh database there instead of SQLite."""


def engine_name() -> str:
    return "PostgreSQL" if os.environ.get(POSTGRES_ENV) else "SQLite"


@contextlib.asynccontextmanager
async def bench_database(folder: str) -> AsyncIterator[str]:
    """A fresh database: SQLite in `folder`, or a new database on MUSTER_BENCH_DATABASE_URL's server."""
    server = os.environ.get(POSTGRES_ENV)
    if not server:
        yield f"sqlite+aiosqlite:///{Path(folder) / 'bench.sqlite3'}"
        return
    async with fresh_postgres(server) as url:
        yield url


@contextlib.asynccontextmanager
async def bench_bot(
    seed: int = 1, extra_env: dict[str, str] | None = None
) -> AsyncIterator[tuple[Emulator, DefaultWorld, BotProcess]]:
    """The emulator (and the measuring driver) here, the bot in a child process on the same machine
    (`extra_env` added to its environment)."""
    with tempfile.TemporaryDirectory() as tmp:
        async with Emulator(min_reaction_time=0.0) as emu, bench_database(tmp) as database_url:
            world = emu.add_default_world()
            env = {
                "DATABASE_URL": database_url,
                "MUSTER_DICE_SEED": str(seed),
                "LOG_LEVEL": "WARNING",
                "LOG_FORMAT": "text",
                **(extra_env or {}),
            }
            bot = await start_bot_process(
                [sys.executable, str(ROOT / "bench" / "bot_process.py")], emu, env=env, cwd=tmp
            )
            try:
                await emu.wait_commands_synced(["pong", "roll"], timeout=30)
                yield emu, world, bot
            finally:
                await bot.stop()


@contextlib.asynccontextmanager
async def bench_bot_in_process(seed: int = 1) -> AsyncIterator[tuple[Emulator, DefaultWorld, MusterBot]]:
    """The bot in this process, for benchmarks that call its services directly."""
    with tempfile.TemporaryDirectory() as tmp, discord_globals_restored():
        async with Emulator(min_reaction_time=0.0) as emu:
            world = emu.add_default_world()
            settings = Settings(
                discord_token=SecretStr(emu.token),
                database_url=f"sqlite+aiosqlite:///{Path(tmp) / 'bench.sqlite3'}",
                discord_api_base=emu.api_base,
                muster_dice_seed=seed,
                log_level="WARNING",
                log_format="text",
            )
            bot = MusterBot(settings)
            add_pong(bot)
            async with run_bot(bot, emu):
                await emu.wait_commands_synced(["pong", "roll"])
                yield emu, world, bot


def percentile(samples: list[float], p: float) -> float:
    ordered = sorted(samples)
    if not ordered:
        return float("nan")
    k = (len(ordered) - 1) * p / 100
    low, high = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (k - low)


def summary(name: str, samples_s: list[float]) -> str:
    ms = [s * 1000 for s in samples_s]
    return (
        f"{name:<32} n={len(ms):<5} p50={percentile(ms, 50):7.2f} ms  p99={percentile(ms, 99):7.2f} ms  "
        f"mean={statistics.fmean(ms):7.2f} ms"
    )


BID_STEP = "bid.mission.1"
"""The step of a Kill Team game's first mission bid (a sealed number question, 0..10 tokens)."""

BID_MENU = re.compile(rf"qs:(?P<sid>[0-9a-f]{{12}}):{re.escape(BID_STEP)}")
"""The select menu of a Kill Team mission bid's numbers, in a player's DMs (bot/play/questions.py
draws a number question of 6 to 25 values as a menu: one pick answers it)."""


def bid_menu_id(sid: str) -> str:
    """The custom_id of game `sid`'s mission-bid menu."""
    return custom_ids.select(sid, BID_STEP)


def bid_menus(emu: Emulator, user: User) -> dict[str, Message]:
    """The message holding each game's mission-bid menu in the user's DMs, per game."""
    found: dict[str, Message] = {}
    for message in emu.dms(user):
        for component in message.walk_components():
            match = BID_MENU.fullmatch(str(component.get("custom_id", "")))
            if match:
                found[match["sid"]] = message
    return found


async def pick_bid(emu: Emulator, user: User, prompt: Message, sid: str, amount: int) -> InteractionRecord:
    """Seal `amount` by picking it in the game's bid menu on `prompt`: one interaction, answered by
    redrawing that DM prompt (UPDATE_MESSAGE, bot/play/in_place.py). The record is returned as sent,
    unanswered, so its latency is the pick's."""
    return await emu.select(user, prompt, bid_menu_id(sid), [str(amount)])


async def profiled_in_bot(emu: Emulator, bot: BotProcess, path: Path, played: Awaitable[Any]) -> pstats.Stats:
    """`played` awaited under cProfile in the bot's event loop thread (bench/bot_process.py, started
    with MUSTER_BENCH_PROFILE=`path`, which must not exist yet: it appears once the stats are
    written), and the stats."""
    bot.process.send_signal(signal.SIGUSR1)
    await asyncio.sleep(0.2)
    await played
    bot.process.send_signal(signal.SIGUSR2)
    await emu.wait_until(path.exists, 10, "the profile's stats")
    return pstats.Stats(str(path), stream=io.StringIO())


async def until_quiet(emu: Emulator, quiet: float = 0.03, limit: float = 10.0) -> None:
    """Wait until the bot (every process of it) has made no REST request for `quiet` seconds: all a
    click caused is done."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + limit
    seen, last_change = len(emu.requests), loop.time()
    while loop.time() < deadline:
        await asyncio.sleep(quiet / 4)
        if len(emu.requests) != seen:
            seen, last_change = len(emu.requests), loop.time()
        elif loop.time() - last_change >= quiet:
            return
    raise TimeoutError("the bot never went quiet")


GAME_ID = re.compile(r"\b([0-9a-f]{12})\b")


def started_game(record: InteractionRecord) -> str | None:
    """The game a start command opened, from its answer: the start card, which names it in its
    embed's footer."""
    for embed in (record.response_data or {}).get("embeds") or []:
        found = GAME_ID.search(str((embed.get("footer") or {}).get("text", "")))
        if found is not None:
            return found.group(1)
    return None
