"""Why a paced seal costs more than its pieces measured warm (bench/seal_warm.py): the same work,
the clicked DM's redraw, timed three times in the bot process on each paced seal.

As bench/seal_timeline.py does, it opens GAMES Kill Team Bid games and, once the bot is quiet each
time, sends a pong and then each player's seal. In the bot (bench/bot_process.py, `redraws_timed`)
each redraw of the clicked DM is timed as the click's handler makes it, then made again at once, and
again 20 ms later, once the click's answer, its render and its outbox are done. The first and the
third run cold (what they touch has left the CPU's caches); the second runs warm. How far apart they
are is how much of a paced seal is the CPU fetching again what it touches, rather than work that
could be left out. The handler's own CPU time, from its start until the answer is handed to
discord.py (less the second redraw), is printed too.

Usage: python bench/seal_cold.py [GAMES]   (prints figures; asserts nothing)
"""

from __future__ import annotations

import asyncio
import json
import signal
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bot_process import LATER, REDRAWS_ENV
from bench.common import bench_bot, engine_name
from bench.seal_timeline import played

RUNS = (
    "as the click's handler made it",
    "made again at once",
    f"made again {LATER * 1000:.0f} ms later",
)


async def main(games: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "redraws.json"
        async with bench_bot(extra_env={REDRAWS_ENV: str(path)}) as (emu, world, bot):
            sent = await played(emu, world, games)
            await asyncio.sleep(LATER * 5)  # the last seal's third redraw
            bot.process.send_signal(signal.SIGUSR2)
            await emu.wait_until(path.exists, 10, "the bot's times")
            times = json.loads(path.read_text())
    seals = [row for row in times["redraws"] if len(row) == len(RUNS)]
    print(f"{games} Kill Team games open on {engine_name()}; {len(sent)} interactions sent")
    print(f"the clicked DM's redraw on {len(seals)} paced seals, p50 in µs:")
    for index, name in enumerate(RUNS):
        print(f"  {name:<32} {statistics.median(row[index] for row in seals) * 1e6:7.0f}")
    handlers = times["handlers"]
    print(
        f"the seal's handler until its answer is handed to discord.py, in CPU time: p50 "
        f"{statistics.median(handlers) * 1e6:.0f} µs (n={len(handlers)})"
    )


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 60))
