"""A background job woken on demand and on a timer: the outbox, the dice audit, score announcements.

Each pass runs whole: `stop` waits for a pass in progress before cancelling, so a job is never cut
between sending something and recording that it was sent. A failed pass is logged and retried.

The wait for a wake-up uses `asyncio.timeout`, not `asyncio.wait_for`: on Python 3.11 `wait_for`
swallows a cancellation that lands in the same loop turn as the wake-up, and `stop` then waited
forever. The `_stopping` flag ends the loop even if some awaited library swallows one again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

log = logging.getLogger(__name__)

RETRY_PAUSE = 1.0


class Worker:
    def __init__(
        self,
        name: str,
        work: Callable[[], Awaitable[object]],
        every: float | None,
        gather: float = 0.0,
        ready: Callable[[], Awaitable[object]] | None = None,
    ) -> None:
        """`work` runs once per wake-up; `every` also wakes it on a timer (None: only on kick);
        `gather` waits that long after a kick so a burst is handled in one pass; `ready` is awaited
        before the first pass (outside any pass, so `stop` never waits on it)."""
        self.name = name
        self._work = work
        self._ready = ready
        self._every = every
        self._gather = gather
        self._wake = asyncio.Event()
        self._idle = asyncio.Event()
        self._idle.set()
        self._busy = asyncio.Lock()
        self._task: asyncio.Task[None] | None = None
        self._stopping = False

    def kick(self) -> None:
        self._idle.clear()
        self._wake.set()

    async def idle(self, limit: float = 10.0) -> None:
        """Wait until a pass has run after everything asked so far (tests and shutdown use it)."""
        self.kick()
        async with asyncio.timeout(limit):
            await self._idle.wait()

    def start(self) -> None:
        if self._task is None:
            self._stopping = False
            self._task = asyncio.create_task(self._run(), name=self.name)

    async def stop(self) -> None:
        if self._task is not None:
            self._stopping = True
            async with self._busy:  # never cancel a pass half done
                self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _run(self) -> None:
        if self._ready is not None:
            await self._ready()
        while not self._stopping:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self._every):
                    await self._wake.wait()
            if self._stopping:
                break
            self._wake.clear()
            if self._gather:
                await asyncio.sleep(self._gather)
            try:
                async with self._busy:
                    await self._work()
            except Exception:
                log.exception("%s failed; will retry", self.name)
                await asyncio.sleep(RETRY_PAUSE)
                self._wake.set()
            if not self._wake.is_set():
                self._idle.set()
