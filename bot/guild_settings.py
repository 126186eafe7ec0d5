"""Per-server settings (the results channel, reminder delay)."""

from __future__ import annotations

from bot.db.models import GuildSettings
from bot.db.store import Store


class GuildSettingsService:
    def __init__(self, store: Store) -> None:
        self.store = store

    async def get(self, guild_id: int) -> GuildSettings:
        async with self.store.read() as db:
            row = await db.get(GuildSettings, guild_id)
            return row if row is not None else GuildSettings(guild_id=guild_id)

    async def update(self, guild_id: int, **values: object) -> GuildSettings:
        async with self.store.write() as db:
            row = await db.get(GuildSettings, guild_id)
            if row is None:
                row = GuildSettings(guild_id=guild_id)
                db.add(row)
            for key, value in values.items():
                setattr(row, key, value)
        return row
