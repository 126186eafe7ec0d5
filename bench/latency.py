"""Interaction → response latency of `/roll 3d6+2` against a bare pong, same run, same process.

Usage: python bench/latency.py [N]   (prints figures; asserts nothing)
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import bench_bot, percentile, summary


async def main(n: int) -> None:
    async with bench_bot() as (emu, world, _bot):
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
        print(f"ratio /roll : pong at p50 = {ratio:.2f}x (target <= 1.3x)")


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 500))
