"""The Muster bot as its own process, plus a bare `/pong` command as the benchmark floor.

Run by the benchmarks (`start_bot_process`), so the bot does not share a CPU or the GIL with the
emulator that stands in for Discord, as in production. Reads the same environment as `muster run`.

With MUSTER_BENCH_PROFILE=<file>, SIGUSR1 starts cProfile in the bot's event loop thread and SIGUSR2
stops it and writes the stats to that file (`bench/latency.py --profile`): a profile of exactly the
interactions sent in between, not of the start-up. It counts the loop thread's CPU time, not the
wall clock: on a busy machine a process is often descheduled in the middle of a call (a loopback
send wakes the receiver), and the wall clock would charge that wait to whatever call was running.

With MUSTER_BENCH_MEMORY=<file> instead, tracemalloc runs from the start; SIGUSR1 takes a snapshot
and SIGUSR2 writes to that file what was allocated since it and is still held, by line
(`bench/scale.py --memory`): what open games cost in memory, and where.

With MUSTER_BENCH_TIMELINE=<file>, the path of an interaction is marked as it goes (bench/timeline.py)
and SIGUSR2 writes the marks to that file (`bench/seal_timeline.py`).

With MUSTER_BENCH_REDRAWS=<file>, each redraw of a clicked message is timed as the click's handler
makes it, then made again at once, and again a moment later, and each click's handler is timed in
CPU time (`bench/seal_cold.py`); SIGUSR2 writes the times to that file.

With MUSTER_BENCH_GC=<file> (beside any of those), each full garbage collection adds a line to that
file: how long it held the event loop, in seconds (`bench/killteam_sealed.py`).
"""

from __future__ import annotations

import asyncio
import cProfile
import gc
import json
import os
import signal
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import timeline
from bench.common import add_pong
from bot import logs
from bot.app import MusterBot
from bot.cli import run_async
from bot.config import Settings

PROFILE_ENV = "MUSTER_BENCH_PROFILE"
TIMELINE_ENV = "MUSTER_BENCH_TIMELINE"
REDRAWS_ENV = "MUSTER_BENCH_REDRAWS"
GC_ENV = "MUSTER_BENCH_GC"
LATER = 0.02
"""How long after a click's redraw it is made the third time: the click's answer, its render and
its outbox are done by then, as they are before the next click of a player seconds later."""
MEMORY_ENV = "MUSTER_BENCH_MEMORY"
MEMORY_LINES = 40
MEMORY_STACKS = 12


def profile_on_signals(path: str) -> None:
    """SIGUSR1: start profiling afresh; SIGUSR2: stop and write the stats to `path`."""
    profilers: list[cProfile.Profile] = []

    def start() -> None:
        profilers[:] = [cProfile.Profile(time.thread_time)]
        profilers[0].enable()

    def stop() -> None:
        profilers[0].disable()
        profilers[0].dump_stats(path + ".part")
        os.replace(path + ".part", path)  # the bench waits for the file: it appears whole

    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGUSR1, start)
    loop.add_signal_handler(signal.SIGUSR2, stop)


def memory_on_signals(path: str) -> None:
    """SIGUSR1: a snapshot; SIGUSR2: what grew since it, by line and by file, written to `path`."""
    tracemalloc.start(8)
    snapshots: list[tracemalloc.Snapshot] = []

    def before() -> None:
        gc.collect()
        snapshots[:] = [tracemalloc.take_snapshot()]

    def after() -> None:
        gc.collect()
        now = tracemalloc.take_snapshot()
        lines = []
        for key in ("filename", "lineno"):
            grown = now.compare_to(snapshots[0], key)
            total = sum(stat.size_diff for stat in grown)
            lines.append(f"== grown by {key}: {total / 1024 / 1024:.2f} MB in all ==")
            lines += [str(stat) for stat in grown[:MEMORY_LINES]]
        lines.append("== the largest, with where they were allocated from ==")
        for stat in now.compare_to(snapshots[0], "traceback")[:MEMORY_STACKS]:
            lines.append(f"{stat.size_diff / 1024:.0f} KiB in {stat.count_diff} blocks, allocated at:")
            lines += [f"    {frame.filename}:{frame.lineno}" for frame in stat.traceback]
        Path(path + ".part").write_text("\n".join(lines) + "\n")
        os.replace(path + ".part", path)

    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGUSR1, before)
    loop.add_signal_handler(signal.SIGUSR2, after)


def redraws_timed(path: str) -> None:
    """Time each redraw of a clicked message three times: as the click's handler makes it, at once
    again (what it touches is now in the CPU's caches), and `LATER` seconds later. Also each click's
    handler, in CPU time, from its start until its answer is handed to discord.py, less the second
    redraw. SIGUSR2 writes the times, in seconds, to `path`."""
    import discord.webhook.async_

    from bot.chat import router
    from bot.play import in_place

    redraws: list[list[float]] = []
    handlers: list[float] = []
    started: list[float] = []  # the handler's start, in CPU time, moved on by the second redraw
    redrawn, on_question = in_place.redrawn, router.on_question
    adapter = discord.webhook.async_.AsyncWebhookAdapter
    answer = adapter.create_interaction_response

    def later(row: list[float], args: Any, kwargs: Any) -> None:
        start = time.perf_counter()
        redrawn(*args, **kwargs)
        row.append(time.perf_counter() - start)

    def timed(*args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        made = redrawn(*args, **kwargs)
        first, cpu = time.perf_counter(), time.thread_time()
        redrawn(*args, **kwargs)
        if started:
            started[0] += time.thread_time() - cpu
        row = [first - start, time.perf_counter() - first]
        redraws.append(row)
        asyncio.get_running_loop().call_later(LATER, later, row, args, kwargs)
        return made

    async def handler(*args: Any, **kwargs: Any) -> None:
        started[:] = [time.thread_time()]
        await on_question(*args, **kwargs)

    def answered(*args: Any, **kwargs: Any) -> Any:
        if started:
            handlers.append(time.thread_time() - started.pop())
        return answer(*args, **kwargs)

    def write() -> None:
        Path(path + ".part").write_text(json.dumps({"redraws": redraws, "handlers": handlers}))
        os.replace(path + ".part", path)

    in_place.redrawn = timed  # type: ignore[assignment]
    router.on_question = handler  # type: ignore[assignment]
    adapter.create_interaction_response = answered  # type: ignore[method-assign]
    asyncio.get_running_loop().add_signal_handler(signal.SIGUSR2, write)


def collections_timed(path: str) -> None:
    """Append to `path` how long each full collection of the garbage collector took (a line each,
    in seconds): the event loop, every game's clicks with it, waits that long."""
    started: list[float] = []

    def timed(phase: str, info: dict[str, Any]) -> None:
        if info["generation"] != 2:
            return
        if phase == "start":
            started[:] = [time.perf_counter()]
        elif started:
            with open(path, "a") as out:
                out.write(f"{time.perf_counter() - started[0]:.6f}\n")

    gc.callbacks.append(timed)


async def main() -> int:
    settings = Settings()  # type: ignore[call-arg]
    logs.configure(settings.log_level, settings.log_format)
    if path := os.environ.get(GC_ENV):
        collections_timed(path)
    if path := os.environ.get(PROFILE_ENV):
        profile_on_signals(path)
    elif path := os.environ.get(MEMORY_ENV):
        memory_on_signals(path)
    elif path := os.environ.get(TIMELINE_ENV):
        timeline.install()
        asyncio.get_running_loop().add_signal_handler(signal.SIGUSR2, timeline.write, path)
    elif path := os.environ.get(REDRAWS_ENV):
        redraws_timed(path)
    bot = MusterBot(settings, settle_heap=True)  # as `muster run` starts it
    add_pong(bot)
    async with bot:
        await bot.start(settings.discord_token.get_secret_value())
    return 0


if __name__ == "__main__":
    run_async(main())  # the loop `muster run` runs on
