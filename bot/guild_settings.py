"""Per-server settings (the results channel, reminder delay, game threads)."""

from __future__ import annotations

from sqlalchemy import Table

from bot.db.models import GuildSettings, utcnow
from bot.db.store import Store
from bot.db.upsert import insert_or_update

SETTINGS: Table = GuildSettings.__table__  # type: ignore[assignment]


class GuildSettingsService:
    def __init__(self, store: Store) -> None:
        self.store = store

    async def get(self, guild_id: int) -> GuildSettings:
        async with self.store.read() as db:
            row = await db.get(GuildSettings, guild_id)
            return row if row is not None else GuildSettings(guild_id=guild_id)

    async def update(self, guild_id: int, **values: object) -> GuildSettings:
        """Set some settings in one statement (a first setting in two processes at once never fails)."""
        row = {"guild_id": guild_id, **values, "updated_at": utcnow()}
        async with self.store.write() as db:
            await db.execute(insert_or_update(self.store.dialect, SETTINGS, row, ["guild_id"]))
        return await self.get(guild_id)
