"""Members' display names and their `/scores privacy` choice, stored for the web site.

The site has no Discord connection, so it shows the names the bot saw: each interaction in a server
notes its member's display name (and those of members it names), and a name is written only when it
differs from the last one this process wrote, off the interaction's path.
"""

from __future__ import annotations

import asyncio
import logging

from sqlalchemy import Table, select
from sqlalchemy.orm import Session

from bot.db.models import MemberName, utcnow
from bot.db.store import Store
from bot.db.upsert import dialect_insert

log = logging.getLogger("muster.web")

MEMBERS: Table = MemberName.__table__  # type: ignore[assignment]
NAME_MAX = 100
SEEN_MAX = 50_000
"""Names remembered as written, per process (the oldest forgotten first): a bound, not a truth."""


class MemberNames:
    def __init__(self, store: Store) -> None:
        self.store = store
        self._written: dict[tuple[int, int], str] = {}
        self._writes: set[asyncio.Task[None]] = set()

    def note(self, guild_id: int, user_id: int, name: str) -> None:
        """A member seen with `name` in a server: store it (in the background) if it changed."""
        name = name.strip()[:NAME_MAX]
        if not name or self._written.get((guild_id, user_id)) == name:
            return
        self._written[(guild_id, user_id)] = name
        if len(self._written) > SEEN_MAX:
            self._written.pop(next(iter(self._written)))
        task = asyncio.get_running_loop().create_task(self._store_name(guild_id, user_id, name))
        self._writes.add(task)
        task.add_done_callback(self._writes.discard)

    async def _store_name(self, guild_id: int, user_id: int, name: str) -> None:
        values = {"guild_id": guild_id, "user_id": user_id, "display_name": name, "updated_at": utcnow()}

        def write(db: Session) -> None:
            statement = dialect_insert(self.store.dialect, MEMBERS).values(values)
            db.execute(
                statement.on_conflict_do_update(
                    index_elements=["guild_id", "user_id"],
                    set_={
                        "display_name": statement.excluded.display_name,
                        "updated_at": statement.excluded.updated_at,
                    },
                    where=MEMBERS.c.display_name.is_distinct_from(statement.excluded.display_name),
                )
            )

        try:
            await self.store.run_write(write)
        except Exception:
            self._written.pop((guild_id, user_id), None)
            log.warning("could not store the name of member %s in %s", user_id, guild_id, exc_info=True)

    async def set_hidden(self, guild_id: int, user_id: int, hidden: bool) -> None:
        """A member's `/scores privacy` choice, stored before the command answers."""
        values = {"guild_id": guild_id, "user_id": user_id, "hidden": hidden, "updated_at": utcnow()}
        async with self.store.write() as db:
            statement = dialect_insert(self.store.dialect, MEMBERS).values(values)
            await db.execute(
                statement.on_conflict_do_update(
                    index_elements=["guild_id", "user_id"],
                    set_={"hidden": statement.excluded.hidden, "updated_at": statement.excluded.updated_at},
                )
            )

    async def hidden(self, guild_id: int, user_id: int) -> bool:
        query = select(MemberName.hidden).where(
            MemberName.guild_id == guild_id, MemberName.user_id == user_id
        )
        async with self.store.read() as db:
            return bool(await db.scalar(query))

    async def settle(self) -> None:
        """Wait for the name writes under way (tests, shutdown)."""
        while self._writes:
            await asyncio.gather(*list(self._writes), return_exceptions=True)
