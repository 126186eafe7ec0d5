"""/night tables: the club's tables and the terrain kits on them (a part of `NightCog`)."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.app import MusterBot
from bot.chat.checks import guild_id_of
from bot.chat.limits import AUTOCOMPLETE_CHOICES, COMMAND_CHOICE_NAME, EMBED_DESCRIPTION
from bot.nights.club import MAX_TABLES
from cogs.night import input as night_input
from cogs.night.base import NightBase, reply
from cogs.night.text import word
from rules.errors import RuleError
from rules.night.models import Table, check_table
from rules.text import clip, echo


class ClubTables(NightBase):
    """Add, remove and list the tables a night's pairings are seated at."""

    tables = app_commands.Group(name="tables", description="The club's tables and terrain kits")

    @tables.command(
        name="add", description="Add a table (or change one) with the systems it suits (organisers)"
    )
    @app_commands.describe(
        table="A short id, like kz1 or table-3",
        name="Its name, like Killzone 1 or 44x60 table",
        systems="The systems it suits, e.g. Kill Team, Warcry",
        terrain="The terrain kit on it (optional)",
    )
    async def tables_add(
        self,
        interaction: discord.Interaction[MusterBot],
        table: str,
        name: str,
        systems: str,
        terrain: str = "",
    ) -> None:
        guild_id = guild_id_of(interaction)
        await self.require_organiser(interaction)
        checked = check_table(
            Table(
                table_id=table.strip().lower(),
                name=name,
                systems=night_input.systems_typed(systems),
                terrain=terrain,
            )
        )
        if not await self.club.save_table(guild_id, checked):
            raise RuleError(code="night.tables_full", limit=MAX_TABLES)
        await reply(
            interaction,
            word(
                "reply.table_saved",
                table=checked.table_id,
                name=checked.name,
                systems=self.renderer.systems(checked.systems),
            ),
        )

    @tables.command(name="remove", description="Remove a table (organisers)")
    @app_commands.describe(table="The table's id")
    async def tables_remove(self, interaction: discord.Interaction[MusterBot], table: str) -> None:
        guild_id = guild_id_of(interaction)
        await self.require_organiser(interaction)
        if not await self.club.remove_table(guild_id, table.strip().lower()):
            raise RuleError(code="night.table_unknown", table=echo(table.strip(), night_input.TYPED_SHOWN))
        await reply(interaction, word("reply.table_removed", table=table.strip().lower()))

    @tables.command(name="list", description="The club's tables and the systems each suits")
    async def tables_list(self, interaction: discord.Interaction[MusterBot]) -> None:
        tables = await self.club.tables(guild_id_of(interaction))
        lines = [
            word(
                "tables.line",
                table=t.table_id,
                name=t.name,
                systems=self.renderer.systems(t.systems),
                terrain=f" · {t.terrain}" if t.terrain else "",
            )
            for t in tables
        ]
        embed = discord.Embed(
            title=word("tables.title"),
            description=clip("\n".join(lines) or word("tables.none"), EMBED_DESCRIPTION),
        )
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @tables_remove.autocomplete("table")
    async def _table_autocomplete(
        self, interaction: discord.Interaction[MusterBot], current: str
    ) -> list[app_commands.Choice[str]]:
        if interaction.guild_id is None:
            return []
        tables = await self.club.tables(interaction.guild_id)
        needle = current.casefold()
        return [
            app_commands.Choice(name=clip(f"{t.table_id} · {t.name}", COMMAND_CHOICE_NAME), value=t.table_id)
            for t in tables
            if needle in f"{t.table_id} {t.name}".casefold()
        ][:AUTOCOMPLETE_CHOICES]
