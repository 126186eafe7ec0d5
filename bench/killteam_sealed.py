"""A Kill Team sealed-bid round (two seals and the reveal, each persisted) against a bare pong.

Opens SESSIONS Kill Team Bid games at once (each in its own channel, all on one SQLite file), then
in every game both players press their bid button in their DMs: the first seal stores a commitment,
the second reveals both. Measured from the click to the interaction's answer, like the pong floor.
A second pass fires the seals of BURST games at the same moment.

Usage: python bench/killteam_sealed.py [SESSIONS] [BURST]   (prints figures; asserts nothing)
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import bench_bot, percentile, summary
from bot.app import MusterBot
from rules.killteam import start
from tests.emulator import DefaultWorld, Emulator
from tests.emulator.model import Message, User


def dm_with(emu: Emulator, user: User, custom_id: str) -> Message:
    for message in reversed(emu.dms(user)):
        if any(c.get("custom_id") == custom_id for c in message.walk_components()):
            return message
    raise LookupError(custom_id)


async def open_games(emu: Emulator, world: DefaultWorld, bot: MusterBot, count: int, tag: str) -> list[str]:
    alice, bob = world.alice.id, world.bob.id
    sids = []
    for i in range(count):
        channel = emu.add_channel(world.guild, f"kt-{tag}-{i}")
        result = await bot.sessions.open(
            guild_id=world.guild.id,
            channel_id=channel.id,
            organiser_id=alice,
            system="killteam",
            build=lambda sid, roller: start(sid, [alice, bob], "bid", "free", roller),
            title="bench",
        )
        sids.append(result.info.id)
    await bot.delivery.idle(60)
    return sids


async def seal(emu: Emulator, user: User, sid: str, amount: int) -> float:
    custom_id = f"s:{sid}:b-bid-mission-1:{amount}"
    record = await emu.click(user, dm_with(emu, user, custom_id), custom_id=custom_id)
    await record.response(timeout=10)
    assert record.latency is not None
    return record.latency


async def main(sessions: int, burst: int) -> None:
    async with bench_bot() as (emu, world, bot):
        pong: list[float] = []
        for i in range(220):
            record = await emu.slash(world.alice, world.channel, "pong")
            await record.response(timeout=5)
            if i >= 20 and record.latency is not None:
                pong.append(record.latency)
        sids = await open_games(emu, world, bot, sessions, "a")
        first: list[float] = []
        second: list[float] = []
        rounds: list[float] = []
        for sid in sids:  # one game at a time, with every other game open
            a = await seal(emu, world.alice, sid, 3)
            b = await seal(emu, world.bob, sid, 1)
            first.append(a)
            second.append(b)
            rounds.append(a + b)
        await bot.delivery.idle(60)
        print(f"{sessions} Kill Team games open on SQLite; one sealed-bid round in each:")
        print(summary("pong (discord.py floor)", pong))
        print(summary("first seal (commitment stored)", first))
        print(summary("second seal (reveal stored)", second))
        print(summary("whole round (both seals)", rounds))
        seals = first + second
        ratio = percentile(seals, 50) / percentile(pong, 50)
        print(
            f"ratio seal : pong at p50 = {ratio:.2f}x (target <= 2x); seal p99 = "
            f"{percentile(seals, 99) * 1000:.1f} ms (target <= 25 ms)"
        )
        burst_sids = await open_games(emu, world, bot, sessions, "b")
        together: list[float] = []
        for start_at in range(0, len(burst_sids), burst):
            group = burst_sids[start_at : start_at + burst]
            together += await asyncio.gather(*(seal(emu, world.alice, sid, 2) for sid in group))
            together += await asyncio.gather(*(seal(emu, world.bob, sid, 2) for sid in group))
        await bot.delivery.idle(60)
        print(summary(f"seals, {burst} games at the same moment", together))


if __name__ == "__main__":
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    asyncio.run(main(count, int(sys.argv[2]) if len(sys.argv) > 2 else 10))
