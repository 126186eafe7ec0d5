"""SQLite's one writer, taken in turns, with a game step first.

SQLite lets one transaction write at a time, so this process's writers queue for it. A game step is
what a player's click waits on; the writes that follow it (its rendered messages, the dice audit, a
score sweep) wait on nobody. So a step waiting for the writer goes before every such write still
waiting: in a burst of steps, each answer waits only on the steps ahead of it.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator


class WriteTurns:
    """The writer's turns: `step()` for a game step, `later()` for anything that can wait."""

    def __init__(self) -> None:
        self._lock = asyncio.Lock()
        self._steps_waiting = 0
        self._no_step_waiting = asyncio.Event()
        self._no_step_waiting.set()

    @contextlib.asynccontextmanager
    async def step(self) -> AsyncIterator[None]:
        self._steps_waiting += 1
        self._no_step_waiting.clear()
        try:
            await self._lock.acquire()
        finally:
            self._steps_waiting -= 1
            if not self._steps_waiting:
                self._no_step_waiting.set()
        try:
            yield
        finally:
            self._lock.release()

    @contextlib.asynccontextmanager
    async def later(self) -> AsyncIterator[None]:
        while True:
            await self._no_step_waiting.wait()
            await self._lock.acquire()
            if not self._steps_waiting:
                break
            self._lock.release()  # a step came while this waited: it goes first
            await asyncio.sleep(0)
        try:
            yield
        finally:
            self._lock.release()
