"""The background worker: woken on demand, stopped cleanly whatever it is doing at that moment."""

from __future__ import annotations

import asyncio

from bot.worker import Worker


class Counting:
    def __init__(self, pause: float = 0.0) -> None:
        self.passes = 0
        self.finished = 0
        self.pause = pause

    async def __call__(self) -> None:
        self.passes += 1
        await asyncio.sleep(self.pause)
        self.finished += 1


async def test_a_kick_runs_a_pass_and_idle_waits_for_it() -> None:
    work = Counting()
    worker = Worker("test", work, every=10.0)
    worker.start()
    await worker.idle(2)
    assert work.passes == 1
    await asyncio.wait_for(worker.stop(), 2)


async def test_stop_right_after_a_kick_still_stops() -> None:
    """A wake-up and the stop landing in the same loop turn must not lose the stop (it used to hang)."""
    for every in (10.0, None):
        work = Counting()
        worker = Worker("test", work, every=every)
        worker.start()
        await asyncio.sleep(0.01)  # waiting for a wake-up
        running = worker._task
        assert running is not None
        worker.kick()
        stopping = asyncio.create_task(worker.stop())
        running.cancel()  # what stop does, in the same loop turn as the wake-up
        done, _ = await asyncio.wait({stopping}, timeout=2)
        assert done and running.done(), "the worker ignored its stop"


async def test_stop_waits_for_the_pass_in_progress() -> None:
    work = Counting(pause=0.1)
    worker = Worker("test", work, every=None)
    worker.start()
    worker.kick()
    await asyncio.sleep(0.02)  # the pass has begun
    await asyncio.wait_for(worker.stop(), 2)
    assert (work.passes, work.finished) == (1, 1)  # never cut half way


async def test_stop_before_ready_does_not_wait_for_ready() -> None:
    never = asyncio.Event()
    worker = Worker("test", Counting(), every=None, ready=never.wait)
    worker.start()
    await asyncio.sleep(0.01)
    await asyncio.wait_for(worker.stop(), 2)
