"""Seals of many games at the same moment: how long they wait, what the bot's process spends on
them, and, in its event loop, which packages that CPU goes to.

bench/killteam_sealed.py's second pass fires the seals of BURST games at the same moment: on
PostgreSQL they wait about three times as long as on SQLite. This bench plays that pass twice on
fresh games, GAMES each time:

- unprofiled: the seals' latency, and the bot process's CPU time per seal, all of its threads
  counted (`/proc/<pid>/stat`), from the first burst until the bot is quiet again (the steps'
  messages rendered and sent included);
- under cProfile in the bot's event loop thread (bench/bot_process.py, on the thread's CPU clock):
  the loop's own CPU time by package. The store's work on SQLite runs in its worker thread, which
  the profile does not see; on PostgreSQL it runs in the loop, through SQLAlchemy's async layer.

Usage: python bench/burst_profile.py [GAMES] [BURST]   (prints figures; asserts nothing)
On PostgreSQL: MUSTER_BENCH_DATABASE_URL=postgresql+asyncpg://user@host/db (a fresh database is made).
"""

from __future__ import annotations

import asyncio
import os
import pstats
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bot_process import PROFILE_ENV
from bench.common import ROOT, bench_bot, engine_name, profiled_in_bot, summary, until_quiet
from bench.killteam_sealed import open_games, seals_at_once
from tests.emulator import BotProcess, DefaultWorld, Emulator

SHOWN = 8  # packages printed, the costliest first


def cpu_seconds(pid: int) -> float:
    """A process's CPU time so far (user and system, all threads)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def bursts(emu: Emulator, world: DefaultWorld, games: int, burst: int, tag: str) -> list[float]:
    """Fresh games, then their seals `burst` games at a time, as killteam_sealed.py's second pass."""
    sids = await open_games(emu, world, games, tag)
    await until_quiet(emu)
    return await seals_at_once(emu, world, sids, burst)


def package_of(file: str) -> str:
    """Where a profiled function lives: an installed package, one of the project's own, the
    standard library, or a built-in."""
    if "site-packages/" in file:
        return file.split("site-packages/", 1)[1].split("/", 1)[0]
    if file.startswith(f"{ROOT}/"):
        return "muster: " + file[len(f"{ROOT}/") :].split("/", 1)[0]
    if file == "~":
        return "built-ins (C functions and methods)"
    return "standard library"


def by_package(stats: pstats.Stats) -> dict[str, float]:
    """Own CPU time by package, the costliest first."""
    table: dict[tuple[str, int, str], tuple[Any, ...]] = stats.stats  # type: ignore[attr-defined]
    own: dict[str, float] = {}
    for (file, _line, _name), row in table.items():
        package = package_of(file)
        own[package] = own.get(package, 0.0) + float(row[2])
    return dict(sorted(own.items(), key=lambda item: -item[1]))


async def profiled(
    emu: Emulator, world: DefaultWorld, bot: BotProcess, path: Path, games: int, burst: int
) -> dict[str, float]:
    async def played() -> None:
        await bursts(emu, world, games, burst, "p")
        await until_quiet(emu)

    return by_package(await profiled_in_bot(emu, bot, path, played()))


async def main(games: int, burst: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "burst.prof"
        async with bench_bot(extra_env={PROFILE_ENV: str(path)}) as (emu, world, bot):
            pid = bot.process.pid
            before = cpu_seconds(pid)
            started = time.perf_counter()
            together = await bursts(emu, world, games, burst, "u")
            await until_quiet(emu)
            spent = cpu_seconds(pid) - before
            print(f"{games} Kill Team games on {engine_name()}, their seals {burst} games at a time:")
            print(summary(f"seals, {burst} games at the same moment", together))
            print(
                f"the bot's CPU: {spent / len(together) * 1000:.2f} ms per seal, its messages included "
                f"(all threads; {time.perf_counter() - started:.2f} s from the first burst until quiet)"
            )
            own = await profiled(emu, world, bot, path, games, burst)
    total = sum(own.values())
    print("the event loop's own CPU by package, under cProfile (which inflates it):")
    for package, seconds in list(own.items())[:SHOWN]:
        print(f"  {package:<40} {seconds / total * 100:5.1f} %")


if __name__ == "__main__":
    asyncio.run(
        main(int(sys.argv[1]) if len(sys.argv) > 1 else 100, int(sys.argv[2]) if len(sys.argv) > 2 else 10)
    )
