"""The one dice service: every die the bot throws, anywhere, comes from here and is audited.

Production dice come from `random.SystemRandom` (the OS's cryptographically strong source); tests
inject a seeded `random.Random`. Rolls made inside a game step are written in that step's own
transaction. Audit rows for stand-alone rolls (`/roll`, `/rolloff`) wait in memory, stamped with the
moment of the roll, and are written together: AUDIT_DELAY after the first of them, or at once when
AUDIT_BATCH are waiting, in one statement (`Store.insert_later`). Writing each roll as it came cost
a transaction per roll on the event loop that answers the next click; in a batch it is one per
second at most. `/rolls recent` writes what waits before it reads, and a clean shutdown writes it
all (`stop`), so no roll goes unaudited.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Table, insert, select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.models import DiceRoll, utcnow
from bot.db.store import Store
from bot.worker import Worker
from rules.dice import Roller, RollRecord

AUDIT_TEXT = 200  # the dice_rolls reason and notation columns (bot/db/models.py)
AUDIT_DELAY = 1.0  # seconds a stand-alone roll's audit row may wait to be written with others
AUDIT_BATCH = 500  # rows waiting that are written at once, without waiting for AUDIT_DELAY
DICE: Table = DiceRoll.__table__  # type: ignore[assignment]

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class RollContext:
    guild_id: int | None
    channel_id: int | None
    user_id: int | None
    session_id: str | None = None


def audit_rows(records: Sequence[RollRecord], ctx: RollContext) -> list[dict[str, Any]]:
    return [
        {
            "guild_id": ctx.guild_id,
            "channel_id": ctx.channel_id,
            "user_id": ctx.user_id,
            "session_id": ctx.session_id,
            "reason": r.reason[:AUDIT_TEXT] or "roll",
            "notation": r.notation[:AUDIT_TEXT],
            "results": json.dumps(list(r.results)),
        }
        for r in records
    ]


class DiceService:
    def __init__(self, store: Store, source_factory: Callable[[], random.Random] | None = None) -> None:
        self.store = store
        self._source_factory = source_factory or random.SystemRandom
        self._source: random.Random | None = None
        self._pending: list[dict[str, Any]] = []
        self._flushing: asyncio.Lock = asyncio.Lock()
        self._writer = Worker("dice-audit-writer", self.flush, every=None)
        self._timer: asyncio.TimerHandle | None = None
        self.audit_delay = AUDIT_DELAY

    @classmethod
    def seeded(cls, store: Store, seed: int) -> DiceService:
        return cls(store, lambda: random.Random(seed))

    def roller(self) -> Roller:
        """A roller over the service's source; one shared source so a seed gives one sequence."""
        if self._source is None:
            self._source = self._source_factory()
        return Roller(self._source)

    def audit_later(self, roller: Roller, ctx: RollContext) -> None:
        """Queue a roller's throws for the audit log (stand-alone rolls), stamped now."""
        rows = audit_rows(roller.rolls, ctx)
        if not rows:
            return
        at = utcnow()
        for row in rows:
            row["created_at"] = at
        self._pending.extend(rows)
        if len(self._pending) >= AUDIT_BATCH:
            self._writer.kick()
        elif self._timer is None:
            self._timer = asyncio.get_running_loop().call_later(self.audit_delay, self._writer.kick)

    async def audit_now(self, session: AsyncSession, roller: Roller, ctx: RollContext) -> None:
        """Add a roller's throws to an open write transaction (rolls made by a game step)."""
        if roller.rolls:
            await session.execute(insert(DiceRoll), audit_rows(roller.rolls, ctx))

    async def flush(self) -> None:
        """Write every audit row waiting, in one statement."""
        async with self._flushing:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
            if not self._pending:
                return
            rows, self._pending = self._pending, []
            try:
                await self.store.insert_later(DICE, rows)
            except Exception:
                self._pending[:0] = rows  # kept for the next try
                raise

    async def recent(self, channel_id: int, limit: int = 10) -> list[DiceRoll]:
        await self.flush()
        async with self.store.read() as session:
            result = await session.scalars(
                select(DiceRoll)
                .where(DiceRoll.channel_id == channel_id)
                .order_by(DiceRoll.id.desc())
                .limit(limit)
            )
            return list(result)

    def start(self) -> None:
        self._writer.start()

    async def stop(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        await self._writer.stop()
        try:
            await self.flush()
        except Exception:
            log.exception("dice audit rows lost at shutdown")
