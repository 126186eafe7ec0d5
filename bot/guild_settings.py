"""Per-server settings (the results channel, reminder delay, game threads, the organiser role) and
who may organise game nights and events (Manage Server, or the organiser role)."""

from __future__ import annotations

from typing import Any

import discord
from sqlalchemy import Table

from bot.chat.checks import guild_id_of
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

    async def organiser(self, interaction: discord.Interaction[Any]) -> bool:
        """Manage Server, or the server's organiser role: who may run game nights and events."""
        member = interaction.user
        if not isinstance(member, discord.Member):
            return False
        if member.guild_permissions.manage_guild:
            return True
        role = (await self.get(guild_id_of(interaction))).organiser_role_id
        return role is not None and any(r.id == role for r in member.roles)
