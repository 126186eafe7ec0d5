"""A Kill Team sealed-bid round (two seals and the reveal, each persisted) against a bare pong.

The bot runs as its own process (bench/bot_process.py) on one SQLite file; this process is the
emulated Discord and the players. It opens SESSIONS Kill Team Bid games with `/killteam start`
(each in its own channel, all open at once), then in every game both players pick their bid
from the menu in their DMs: the first seal stores a commitment, the second reveals both. A seal is
one interaction (the pick, answered by redrawing the DM prompt); it used to be two (a button
opening a form, then the form's submit, of which only the submit was timed). Latency is measured
from the pick to the interaction's answer, exactly like the pong floor. A second pass
fires the seals of BURST games at the same moment; a third lets seals arrive at random (Poisson,
RATE a second) across a fresh set of open games, neither waiting for the other, as on a busy server.
The bot's RSS is read before and after the first SESSIONS games are opened. That counts, beside the
games, what their opening grows once in a process (its bounded caches and memos, the pages the
interpreter and SQLite touch for the first time), so it reads far above the cost of one more open game:
bench/scale.py measures that, over 1,000 games. Last, it prints how many full garbage collections
the bot ran while the games were played, and the longest: the event loop waits for each
(bot/app.py `settle_heap` keeps them short).

Like is compared with like: players click seconds apart, so each seal is sent once the bot has
gone quiet, and the floor is a pong sent the same way, between the seals. Any interaction that
follows a pause costs about a millisecond more than one sent back to back on this machine (both
processes fetch again what it touches: bench/seal_cold.py), so a back-to-back pong is printed too,
for reference only.

Usage: python bench/killteam_sealed.py [SESSIONS] [BURST] [RATE]   (prints figures; asserts nothing)
On PostgreSQL: MUSTER_BENCH_DATABASE_URL=postgresql+asyncpg://user@host/db (a fresh database is made).
"""

from __future__ import annotations

import asyncio
import random
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bot_process import GC_ENV
from bench.common import bench_bot, bid_menus, engine_name, percentile, pick_bid, summary, until_quiet
from tests.emulator import BotProcess, DefaultWorld, Emulator
from tests.emulator.interactions import InteractionRecord
from tests.emulator.model import Message, User


async def open_games(emu: Emulator, world: DefaultWorld, count: int, tag: str) -> list[str]:
    before = set(bid_menus(emu, world.alice))
    for i in range(count):
        channel = emu.add_channel(world.guild, f"kt-{tag}-{i}")
        record = await emu.slash(
            world.alice,
            channel,
            "killteam start",
            opponent=world.bob,
            mission_method="bid",
            tacops_method="free",
        )
        await record.response(timeout=10)
    await emu.wait_until(lambda: len(set(bid_menus(emu, world.bob)) - before) >= count, 120, "bid prompts")
    await emu.wait_until(lambda: len(set(bid_menus(emu, world.alice)) - before) >= count, 120, "bid prompts")
    return sorted(set(bid_menus(emu, world.alice)) - before)


async def sealed(
    emu: Emulator, user: User, prompts: dict[str, Message], sid: str, amount: int, settle: bool = False
) -> InteractionRecord:
    """One seal (the bid picked from its menu: one interaction), answered; with `settle`, also wait
    until the bot has posted everything the seal caused."""
    seen = len(emu.requests)
    record = await pick_bid(emu, user, prompts[sid], sid, amount)
    await record.response(timeout=10)
    if settle:
        await emu.wait_until(
            lambda: len(emu.requests) > seen + 1,  # beyond the answer: the board or a prompt edited
            10,
            "what the seal posts or edits",
        )
        await until_quiet(emu)
    return record


async def ponged(emu: Emulator, world: DefaultWorld, settle: bool = False) -> InteractionRecord:
    """One pong, answered; with `settle`, also wait until the bot is quiet."""
    record = await emu.slash(world.alice, world.channel, "pong")
    await record.response(timeout=5)
    if settle:
        await until_quiet(emu)
    return record


def latency(record: InteractionRecord) -> float:
    assert record.latency is not None
    return record.latency


async def seal(
    emu: Emulator, user: User, prompts: dict[str, Message], sid: str, amount: int, settle: bool = False
) -> float:
    return latency(await sealed(emu, user, prompts, sid, amount, settle))


async def seals_at_once(emu: Emulator, world: DefaultWorld, sids: list[str], burst: int) -> list[float]:
    """Both seals of `burst` games at a time: the first player's all at the same moment, then the
    second's, each group as soon as the one before is answered."""
    alice, bob = bid_menus(emu, world.alice), bid_menus(emu, world.bob)
    together: list[float] = []
    for start_at in range(0, len(sids), burst):
        group = sids[start_at : start_at + burst]
        together += await asyncio.gather(*(seal(emu, world.alice, alice, sid, 2) for sid in group))
        together += await asyncio.gather(*(seal(emu, world.bob, bob, sid, 2) for sid in group))
    return together


async def pong(emu: Emulator, world: DefaultWorld, settle: bool = False) -> float:
    return latency(await ponged(emu, world, settle))


async def back_to_back_pongs(emu: Emulator, world: DefaultWorld, n: int = 200) -> list[float]:
    samples = [await pong(emu, world) for _ in range(n + 20)]
    return samples[20:]


async def random_arrivals(
    emu: Emulator, world: DefaultWorld, sids: list[str], rate: float, seed: int = 7
) -> list[float]:
    """Every game's two seals, each game's in order, fired at Poisson times without waiting."""
    alice, bob = bid_menus(emu, world.alice), bid_menus(emu, world.bob)
    chance = random.Random(seed)
    firsts = list(sids)  # games whose first seal is still to come
    chance.shuffle(firsts)
    seconds: list[str] = []  # games whose first seal has been sent
    sealed_first: dict[str, asyncio.Task[float]] = {}
    tasks: list[asyncio.Task[float]] = []

    async def second_seal(sid: str) -> float:
        await sealed_first[sid]  # a game's second seal only once its first has been answered
        return await seal(emu, world.bob, bob, sid, 1)

    while firsts or seconds:
        await asyncio.sleep(chance.expovariate(rate))
        if seconds and (not firsts or chance.random() < 0.5):
            sid = seconds.pop(chance.randrange(len(seconds)))
            tasks.append(asyncio.create_task(second_seal(sid)))
        else:
            sid = firsts.pop()
            sealed_first[sid] = asyncio.create_task(seal(emu, world.alice, alice, sid, 3))
            tasks.append(sealed_first[sid])
            seconds.append(sid)
    return list(await asyncio.gather(*tasks))


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def full_collections(path: Path) -> list[float]:
    """How long each full garbage collection in the bot took so far, in seconds (bot_process.py)."""
    return [float(line) for line in path.read_text().split()] if path.exists() else []


def print_collections(made: list[float]) -> None:
    longest = f"; the longest held the bot's event loop {max(made) * 1000:.1f} ms" if made else ""
    print(f"full garbage collections in the bot while the games were played: {len(made)}{longest}")


async def main(sessions: int, burst: int, rate: float) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        collections = Path(tmp) / "collections.txt"
        async with bench_bot(extra_env={GC_ENV: str(collections)}) as (emu, world, bot):
            at_start = len(full_collections(collections))  # start-up's own (bot/app.py `settle_heap`)
            await played(emu, world, bot, sessions, burst, rate)
            print_collections(full_collections(collections)[at_start:])


async def played(
    emu: Emulator, world: DefaultWorld, bot: BotProcess, sessions: int, burst: int, rate: float
) -> None:
    """The three passes, each printing its figures."""
    hot_pongs = await back_to_back_pongs(emu, world)
    idle = rss_mb(bot.process.pid)
    sids = await open_games(emu, world, sessions, "a")
    await until_quiet(emu)
    opened = rss_mb(bot.process.pid)
    print(
        f"RSS of the bot: {idle:.1f} MB before, {opened:.1f} MB with {len(sids)} games open = "
        f"{(opened - idle) / len(sids) * 1000:.1f} MB per 1,000 open games"
    )
    alice, bob = bid_menus(emu, world.alice), bid_menus(emu, world.bob)
    pongs: list[float] = []
    first: list[float] = []
    second: list[float] = []
    # One game at a time, with every other game open; each click waits until the bot has
    # finished posting what the previous one caused, as players a few seconds apart would.
    await until_quiet(emu)
    for sid in sids:
        pongs.append(await pong(emu, world, settle=True))
        first.append(await seal(emu, world.alice, alice, sid, 3, settle=True))
        second.append(await seal(emu, world.bob, bob, sid, 1, settle=True))
    rounds = [a + b for a, b in zip(first, second, strict=True)]
    print(f"{len(sids)} Kill Team games open on {engine_name()}; one sealed-bid round in each:")
    print(summary("pong, back to back (reference)", hot_pongs))
    print(summary("pong, paced like the seals", pongs))
    print(summary("first seal (commitment stored)", first))
    print(summary("second seal (reveal stored)", second))
    print(summary("whole round (both seals)", rounds))
    seals = first + second
    ratio = percentile(seals, 50) / percentile(pongs, 50)
    print(
        f"ratio seal : paced pong at p50 = {ratio:.2f}x (target <= "
        f"{'2.0' if engine_name() == 'PostgreSQL' else '1.6'}x); against the back-to-back "
        f"pong {percentile(seals, 50) / percentile(hot_pongs, 50):.2f}x; seal p99 = "
        f"{percentile(seals, 99) * 1000:.1f} ms (target <= 25 ms)"
    )
    together = await seals_at_once(emu, world, await open_games(emu, world, sessions, "b"), burst)
    print(summary(f"seals, {burst} games at the same moment", together))
    arrival_sids = await open_games(emu, world, sessions, "c")
    await until_quiet(emu)
    arrivals = await random_arrivals(emu, world, arrival_sids, rate)
    print(summary(f"seals at random, {rate:g} a second", arrivals))


if __name__ == "__main__":
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    burst = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    asyncio.run(main(count, burst, float(sys.argv[3]) if len(sys.argv) > 3 else 20.0))
