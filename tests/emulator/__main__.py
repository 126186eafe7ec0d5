"""Run the emulator on its own: `python -m tests.emulator [--port 8123]` from the repository root.

It serves the default world (guild "Club", #games, alice, bob, carol with Manage Server) and
prints the two variables a bot needs. Drive it through the JSON control API (see control.py).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import signal
import sys

from .emulator import Emulator


def _parse() -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m tests.emulator", description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8123, help="0 picks a free port (default 8123)")
    parser.add_argument("--token", help="the bot token to accept (default: a fresh one)")
    parser.add_argument("--shards", type=int, default=1, help="shard count GET /gateway/bot advises")
    parser.add_argument("--no-deadline", action="store_true", help="do not enforce the 3 s response deadline")
    parser.add_argument("--no-rate-limits", action="store_true", help="do not enforce Discord's rate limits")
    parser.add_argument(
        "--rate-limit-scale",
        type=float,
        default=1.0,
        help="rate-limit windows relative to Discord's (default 1: a sandbox feels them as they are)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON line instead of text")
    return parser.parse_args()


async def _serve(args: argparse.Namespace) -> None:
    emu = Emulator(
        host=args.host,
        port=args.port,
        token=args.token,
        shard_count=args.shards,
        response_deadline=None if args.no_deadline else 3.0,
        rate_limits=not args.no_rate_limits,
        rate_limit_scale=args.rate_limit_scale,
    )
    world = emu.add_default_world()
    await emu.start()
    if args.json:
        print(
            json.dumps(
                {
                    "api_base": emu.api_base,
                    "token": emu.token,
                    "guild_id": str(world.guild.id),
                    "channel_id": str(world.channel.id),
                    "users": {u.name: str(u.id) for u in (world.alice, world.bob, world.carol)},
                }
            ),
            flush=True,
        )
    else:
        print(f"DISCORD_API_BASE={emu.api_base}")
        print(f"DISCORD_TOKEN={emu.token}")
        print(f"guild Club {world.guild.id}, channel #games {world.channel.id}")
        print(f"users alice {world.alice.id}, bob {world.bob.id}, carol {world.carol.id} (Manage Server)")
        print(f"control API: {emu.base_url}/_emulator/state (see tests/emulator/control.py)", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    try:
        await stop.wait()
    finally:
        await emu.stop()


def main() -> None:
    try:
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(_serve(_parse()))
    except AssertionError as violations:  # requests outside Discord's spec (each logged as it came)
        sys.exit(str(violations))


if __name__ == "__main__":
    main()
