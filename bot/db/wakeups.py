"""Wake-ups between processes sharing one PostgreSQL database (LISTEN/NOTIFY); nothing on SQLite,
where one process runs and kicks its own workers.

Every process delivers what it stores itself (a local kick after each commit), and a lane held by
another process is read again by its holder before it lets go, so no message waits on a wake-up.
What a wake-up is for: a process that stops hands over at once (it frees its lanes and tells the
others, which look for owed messages now instead of at their next sweep), and an operator's
`NOTIFY muster_outbox` makes every process look at the outbox.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import asyncpg
from sqlalchemy.engine import URL

log = logging.getLogger(__name__)

CHANNEL = "muster_outbox"


class Wakeups:
    def __init__(self, url: URL, on_wake: Callable[[], None]) -> None:
        self._dsn = url.set(drivername="postgresql").render_as_string(hide_password=False)
        self._on_wake = on_wake
        self._connection: asyncpg.Connection | None = None
        self.enabled = url.get_backend_name() == "postgresql"

    async def start(self) -> None:
        """Listen for wake-ups (a failure is logged: the timer sweep still finds everything)."""
        if not self.enabled or self._connection is not None:
            return
        try:
            self._connection = await asyncpg.connect(self._dsn)
            await self._connection.add_listener(CHANNEL, self._heard)
        except (OSError, asyncpg.PostgresError) as exc:
            log.warning("not listening for wake-ups from other processes (%s); sweeps still run", exc)
            self._connection = None

    def _heard(self, *_args: Any) -> None:
        self._on_wake()

    async def notify(self) -> None:
        """Wake every process listening (this one too)."""
        if self._connection is None:
            return
        try:
            await self._connection.execute("SELECT pg_notify($1, '')", CHANNEL)
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
            log.info("could not wake the other processes (%s)", exc)

    async def stop(self) -> None:
        if self._connection is not None:
            connection, self._connection = self._connection, None
            await connection.close()
