"""The background worker: woken on demand, stopped cleanly whatever it is doing at that moment."""

from __future__ import annotations

import asyncio

from bot.worker import Worker


class Counting:
    """Counts passes begun and finished; with `hold`, a pass waits for `release` before finishing."""

    def __init__(self, hold: bool = False) -> None:
        self.passes = 0
        self.finished = 0
        self.hold = hold
        self.begun = asyncio.Event()
        self.release = asyncio.Event()

    async def __call__(self) -> None:
        self.passes += 1
        self.begun.set()
        if self.hold:
            await self.release.wait()
        self.finished += 1


class Waiting:
    """A `ready` for the worker that says when it is called; what it awaits decides when it returns.

    The worker goes from `ready` to waiting for a wake-up without yielding, so once `called` is set
    and the test runs again, the worker is waiting for a wake-up (or still in `ready`).
    """

    def __init__(self, until: asyncio.Event | None = None) -> None:
        self.called = asyncio.Event()
        self.until = until

    async def __call__(self) -> None:
        self.called.set()
        if self.until is not None:
            await self.until.wait()


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
        work, ready = Counting(), Waiting()
        worker = Worker("test", work, every=every, ready=ready)
        worker.start()
        await ready.called.wait()  # the worker is now waiting for a wake-up
        running = worker._task
        assert running is not None
        worker.kick()
        stopping = asyncio.create_task(worker.stop())
        running.cancel()  # what stop does, in the same loop turn as the wake-up
        done, _ = await asyncio.wait({stopping}, timeout=2)
        assert done and running.done(), "the worker ignored its stop"


async def test_stop_waits_for_the_pass_in_progress() -> None:
    work = Counting(hold=True)
    worker = Worker("test", work, every=None)
    worker.start()
    worker.kick()
    await work.begun.wait()
    stopping = asyncio.create_task(worker.stop())
    for _ in range(10):  # let the stop run as far as it can
        await asyncio.sleep(0)
    assert not stopping.done() and work.finished == 0  # it waits for the pass
    work.release.set()
    await asyncio.wait_for(stopping, 2)
    assert (work.passes, work.finished) == (1, 1)  # never cut half way


async def test_stop_before_ready_does_not_wait_for_ready() -> None:
    ready = Waiting(until=asyncio.Event())  # never set: the bot never becomes ready
    worker = Worker("test", Counting(), every=None, ready=ready)
    worker.start()
    await ready.called.wait()
    await asyncio.wait_for(worker.stop(), 2)
