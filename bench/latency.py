"""Interaction → response latency of `/roll 3d6+2` against a bare pong, same run, same process.

Usage: python bench/latency.py [N] [--profile FILE]   (prints figures; asserts nothing)

With --profile, after the measured run the bot's event loop is profiled (cProfile over the loop
thread's CPU time, in the bot's own process: bench/bot_process.py) over PROFILED `/roll`s sent one
after another, then a pause long enough for the dice audit to be written; then the same for as
many pongs. The stats go to FILE.roll and FILE.pong; the heaviest lines are printed, and what a
`/roll` costs beyond a pong, function by function.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import os
import pstats
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bot_process import PROFILE_ENV
from bench.common import bench_bot, percentile, profiled_in_bot, summary
from tests.emulator import BotProcess, DefaultWorld, Emulator

PROFILED = 300
AUDIT_PAUSE = 2.0  # seconds after the last profiled /roll: the dice audit's flush falls inside


async def measure(emu: Emulator, world: DefaultWorld, n: int) -> None:
    pong: list[float] = []
    roll: list[float] = []
    for i in range(n + 20):  # interleaved, so both see the same machine conditions
        runs: tuple[tuple[str, list[float], dict[str, Any]], ...] = (
            ("pong", pong, {}),
            ("roll", roll, {"dice": "3d6+2"}),
        )
        for name, samples, options in runs:
            record = await emu.slash(world.alice, world.channel, name, **options)
            await record.response(timeout=5)
            if i >= 20:  # warm-up
                assert record.latency is not None
                samples.append(record.latency)
    print(summary("pong (discord.py floor)", pong))
    print(summary("/roll 3d6+2", roll))
    ratio = percentile(roll, 50) / percentile(pong, 50)
    print(f"ratio /roll : pong at p50 = {ratio:.2f}x (target <= 1.05x)")


async def profiled(
    emu: Emulator, world: DefaultWorld, bot: BotProcess, path: Path, name: str
) -> pstats.Stats:
    """PROFILED interactions of one command under cProfile in the bot's process (`path`, which
    must not exist yet: it appears once the stats are written)."""
    options: dict[str, Any] = {"dice": "3d6+2"} if name == "roll" else {}

    async def sent() -> None:
        for _ in range(PROFILED):
            record = await emu.slash(world.alice, world.channel, name, **options)
            await record.response(timeout=5)
        await asyncio.sleep(AUDIT_PAUSE)

    stats = await profiled_in_bot(emu, bot, path, sent())
    os.replace(path, f"{path}.{name}")  # kept; the next profile is written to `path` again
    return stats


def own_times(stats: pstats.Stats) -> dict[str, tuple[int, float]]:
    """Each function's calls and own CPU time."""
    table: dict[Any, Any] = stats.stats  # type: ignore[attr-defined]
    return {f"{file}:{line}({name})": (row[1], row[2]) for (file, line, name), row in table.items()}


async def profile(emu: Emulator, world: DefaultWorld, bot: BotProcess, path: Path) -> None:
    """PROFILED `/roll`s, then as many pongs, each profiled in the bot's process: where the loop's
    time went for a `/roll`, and what a `/roll` costs beyond a pong."""
    roll = await profiled(emu, world, bot, path, "roll")
    pong = own_times(await profiled(emu, world, bot, path, "pong"))
    for order in ("cumulative", "tottime"):
        out = io.StringIO()
        roll.stream = out  # type: ignore[attr-defined]
        roll.sort_stats(order).print_stats(25)
        print(f"\n== profile of {PROFILED} /roll in the bot's event loop (CPU), by {order} ==")
        print(out.getvalue().strip())
    total = sum(t for _n, t in pong.values())
    print(f"\n== {PROFILED} /roll beyond {PROFILED} pongs ({total:.3f} s): own CPU time, largest first ==")
    more = {f: (n, t - pong.get(f, (0, 0.0))[1]) for f, (n, t) in own_times(roll).items()}
    for function, (calls, extra) in sorted(more.items(), key=lambda item: -item[1][1])[:25]:
        print(f"{extra * 1000:8.1f} ms  {calls:6d} calls  {function}")


async def main(n: int, profile_to: Path | None) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = profile_to or Path(tmp) / "roll.prof"
        async with bench_bot(extra_env={PROFILE_ENV: str(path)} if profile_to else None) as (
            emu,
            world,
            bot,
        ):
            await measure(emu, world, n)
            if profile_to is not None:
                await profile(emu, world, bot, path)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("n", type=int, nargs="?", default=500, help="samples of each")
    parser.add_argument("--profile", type=Path, default=None, help="profile PROFILED /roll into FILE")
    args = parser.parse_args()
    if args.profile:
        args.profile.unlink(missing_ok=True)
    asyncio.run(main(args.n, args.profile.resolve() if args.profile else None))
