"""Where a sealed bid's time goes, against a pong's: each stretch of the path from the emulator's
gateway frame to the answer arriving back, at p50.

As bench/killteam_sealed.py does, it opens GAMES Kill Team Bid games and, once the bot is quiet each
time, sends a pong and then each player's seal. The bot process marks its path (bench/timeline.py);
marks and the emulator's own times are on one clock, so each interaction splits into stretches:

- the frame on its way: the emulator sends, the bot's loop wakes and reads it;
- discord.py: the frame read until the interaction is parsed, and until a handler runs;
- the seal's own work: the rules' step (judged, stepped, dumped) until the store is written to,
  the store's write, and the redraw of the clicked DM until the answer is handed to discord.py;
- the answer on its way: discord.py's request until the emulator has it.

The marks cost a few microseconds each, so the totals read a little above bench/killteam_sealed.py.

Usage: python bench/seal_timeline.py [GAMES]   (prints figures; asserts nothing)
On PostgreSQL: MUSTER_BENCH_DATABASE_URL=postgresql+asyncpg://user@host/db (a fresh database is made).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import signal
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bot_process import TIMELINE_ENV
from bench.common import bench_bot, bid_menus, engine_name, until_quiet
from bench.killteam_sealed import open_games, ponged, sealed
from tests.emulator import DefaultWorld, Emulator
from tests.emulator.interactions import InteractionRecord

Marks = list[tuple[str, float]]


async def played(emu: Emulator, world: DefaultWorld, games: int) -> list[tuple[str, InteractionRecord]]:
    """A pong and the two seals of each game, each sent once the bot has gone quiet."""
    sids = await open_games(emu, world, games, "t")
    await until_quiet(emu)
    menus = {world.alice.id: bid_menus(emu, world.alice), world.bob.id: bid_menus(emu, world.bob)}
    sent: list[tuple[str, InteractionRecord]] = []
    for sid in sids:
        sent.append(("pong", await ponged(emu, world, settle=True)))
        for user, amount in ((world.alice, 3), (world.bob, 1)):
            sent.append(("seal", await sealed(emu, user, menus[user.id], sid, amount, settle=True)))
    return sent


def stretches(record: InteractionRecord, marks: Marks) -> dict[str, float]:
    """The interaction's stretches in ms, named by the marks that close them."""
    assert record.sent_at is not None and record.responded_at is not None
    start, end = record.sent_at, record.responded_at
    inside = [(name, at) for name, at in marks if start <= at <= end]
    points = [("emulator sends", start), *inside, ("answer arrives", end)]
    return {f"{a} -> {b}": (tb - ta) * 1000 for (a, ta), (b, tb) in itertools.pairwise(points)}


def report(kind: str, rows: list[dict[str, float]]) -> None:
    print(f"== {kind} (n={len(rows)}), p50 of each stretch in ms")
    names = list(dict.fromkeys(name for row in rows for name in row))
    for name in names:
        values = [row[name] for row in rows if name in row]
        print(f"  {name:45s} {statistics.median(values):7.3f}")
    print(f"  {'in all':45s} {statistics.median(sum(row.values()) for row in rows):7.3f}")


async def main(games: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "marks.json"
        async with bench_bot(extra_env={TIMELINE_ENV: str(path)}) as (emu, world, bot):
            sent = await played(emu, world, games)
            bot.process.send_signal(signal.SIGUSR2)
            await emu.wait_until(path.exists, 10, "the bot's marks")
            marks: Marks = [(str(n), float(t)) for n, t in json.loads(path.read_text())]
    print(f"{games} Kill Team games open on {engine_name()}")
    for kind in ("pong", "seal"):
        report(kind, [stretches(record, marks) for k, record in sent if k == kind])


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 40))
