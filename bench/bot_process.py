"""The Muster bot as its own process, plus a bare `/pong` command as the benchmark floor.

Run by the benchmarks (`start_bot_process`), so the bot does not share a CPU or the GIL with the
emulator that stands in for Discord, as in production. Reads the same environment as `muster run`.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import add_pong
from bot import logs
from bot.app import MusterBot
from bot.cli import run_async
from bot.config import Settings


async def main() -> int:
    settings = Settings()  # type: ignore[call-arg]
    logs.configure(settings.log_level, settings.log_format)
    bot = MusterBot(settings)
    add_pong(bot)
    async with bot:
        await bot.start(settings.discord_token.get_secret_value())
    return 0


if __name__ == "__main__":
    run_async(main())  # the loop `muster run` runs on
