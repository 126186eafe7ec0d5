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
    def __init__(
        self,
        url: URL,
        on_wake: Callable[[str], None],
        channel: str = CHANNEL,
        on_lost: Callable[[], None] | None = None,
    ) -> None:
        """`on_wake` runs for each NOTIFY on `channel`, given its payload (what changed, where the
        sender says; '' for a bare wake-up); `on_lost` when the listening connection dies (whatever
        was heard through it can no longer be relied on)."""
        self._dsn = url.set(drivername="postgresql").render_as_string(hide_password=False)
        self._on_wake = on_wake
        self._on_lost = on_lost
        self.channel = channel
        self._connection: asyncpg.Connection | None = None
        self.enabled = url.get_backend_name() == "postgresql"

    @property
    def listening(self) -> bool:
        return self._connection is not None and not self._connection.is_closed()

    async def start(self) -> None:
        """Listen for wake-ups (a failure is logged: the timer sweep still finds everything)."""
        if not self.enabled or self._connection is not None:
            return
        try:
            self._connection = await asyncpg.connect(self._dsn)
            await self._connection.add_listener(self.channel, self._heard)
            self._connection.add_termination_listener(self._ended)
        except (OSError, asyncpg.PostgresError) as exc:
            log.warning("not listening for %s from other processes (%s)", self.channel, exc)
            self._connection = None

    def _ended(self, *_args: Any) -> None:
        self._connection = None
        if self._on_lost is not None:
            self._on_lost()

    def _heard(self, _connection: Any, _pid: int, _channel: str, payload: str) -> None:
        self._on_wake(payload)

    async def notify(self) -> None:
        """Wake every process listening (this one too)."""
        if self._connection is None:
            return
        try:
            await self._connection.execute("SELECT pg_notify($1, '')", self.channel)
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
            log.info("could not wake the other processes (%s)", exc)

    async def stop(self) -> None:
        if self._connection is not None:
            connection, self._connection = self._connection, None
            connection.remove_termination_listener(self._ended)
            await connection.close()
