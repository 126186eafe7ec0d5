"""/settings: per-server configuration, for Manage Server only.

Discord hides the whole group from other members (`default_permissions` on the group: Discord
honours it on a top-level command only, not per sub-command); the bot still checks Manage Server
itself, since a server can grant the command to anyone in its integration settings.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import MusterBot
from bot.checks import guild_id_of, require_manage
from bot.errors import UserError
from bot.limits import fit
from cogs.night_input import time_zone_name, zone_choices


@app_commands.default_permissions(manage_guild=True)
@app_commands.guild_only()
class Settings(commands.GroupCog, group_name="settings", group_description="This server's Muster settings"):
    def __init__(self, bot: MusterBot) -> None:
        self.bot = bot

    @app_commands.command(name="results-channel", description="Where finished games are announced")
    @app_commands.describe(channel="The channel for results (leave empty to use each game's own channel)")
    async def results_channel(
        self, interaction: discord.Interaction[MusterBot], channel: discord.TextChannel | None = None
    ) -> None:
        guild_id = guild_id_of(interaction)
        require_manage(interaction)
        await self.bot.guild_settings.update(guild_id, results_channel_id=channel.id if channel else None)
        where = channel.mention if channel else "each game's own channel"
        await interaction.response.send_message(
            **fit(content=f"Results will be announced in {where}.", ephemeral=True)
        )

    @app_commands.command(name="reminders", description="How long a sealed choice may wait before a reminder")
    @app_commands.describe(minutes="Minutes of quiet before a waiting player gets a reminder DM")
    async def reminders(
        self, interaction: discord.Interaction[MusterBot], minutes: app_commands.Range[int, 5, 1440]
    ) -> None:
        guild_id = guild_id_of(interaction)
        require_manage(interaction)
        if not 5 <= minutes <= 1440:
            raise UserError("Reminders can be set between 5 and 1440 minutes.")
        await self.bot.guild_settings.update(guild_id, reminder_minutes=float(minutes))
        await interaction.response.send_message(
            f"Waiting players get a reminder after {minutes} minutes.", ephemeral=True
        )

    @app_commands.command(
        name="game-threads", description="Whether each game is played in a thread of its own"
    )
    @app_commands.describe(enabled="On: a game gets a thread under its start card (the default)")
    @app_commands.choices(
        enabled=[app_commands.Choice(name="on", value="on"), app_commands.Choice(name="off", value="off")]
    )
    async def game_threads(self, interaction: discord.Interaction[MusterBot], enabled: str) -> None:
        guild_id = guild_id_of(interaction)
        require_manage(interaction)
        if enabled not in ("on", "off"):
            raise UserError("Choose **on** or **off**.")
        await self.bot.guild_settings.update(guild_id, game_threads=enabled == "on")
        text = (
            "Each new game is played in a thread under its start card."
            if enabled == "on"
            else "New games are played in the channel they are started in, without threads."
        )
        await interaction.response.send_message(text, ephemeral=True)

    @app_commands.command(name="organiser-role", description="A role whose members may run game nights")
    @app_commands.describe(role="The organisers' role (leave empty: Manage Server only)")
    async def organiser_role(
        self, interaction: discord.Interaction[MusterBot], role: discord.Role | None = None
    ) -> None:
        guild_id = guild_id_of(interaction)
        require_manage(interaction)
        if role is not None and (role.is_default() or role.managed):
            raise UserError(f"{role.mention} can't be the organisers' role: pick a role people are given.")
        await self.bot.guild_settings.update(guild_id, organiser_role_id=role.id if role else None)
        text = (
            f"Members with {role.mention} may now make and run game nights (as may Manage Server)."
            if role
            else "Only members with Manage Server may make and run game nights now."
        )
        await interaction.response.send_message(
            **fit(content=text, ephemeral=True, allowed_mentions=discord.AllowedMentions.none())
        )

    @app_commands.command(name="time-zone", description="The time zone dates and times are typed in")
    @app_commands.describe(zone="A time zone name, like Europe/London (the list offers them as you type)")
    async def time_zone(self, interaction: discord.Interaction[MusterBot], zone: str) -> None:
        guild_id = guild_id_of(interaction)
        require_manage(interaction)
        name = time_zone_name(zone)
        await self.bot.guild_settings.update(guild_id, time_zone=name)
        await interaction.response.send_message(
            f"Dates and times typed in this server are read in **{name}** now.", ephemeral=True
        )

    @time_zone.autocomplete("zone")
    async def _zones(
        self, interaction: discord.Interaction[MusterBot], current: str
    ) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=name, value=name) for name in zone_choices(current)]

    @app_commands.command(name="show", description="Show this server's settings")
    async def show(self, interaction: discord.Interaction[MusterBot]) -> None:
        settings = await self.bot.guild_settings.get(guild_id_of(interaction))
        channel = (
            f"<#{settings.results_channel_id}>" if settings.results_channel_id else "each game's own channel"
        )
        minutes = settings.reminder_minutes or self.bot.settings.reminder_minutes
        embed = discord.Embed(title="Muster settings")
        embed.add_field(name="Results channel", value=channel, inline=False)
        embed.add_field(name="Reminders", value=f"after {minutes:g} minutes of waiting", inline=False)
        threads = "off" if settings.game_threads is False else "on"
        embed.add_field(name="Game threads", value=threads, inline=False)
        role = f"<@&{settings.organiser_role_id}>" if settings.organiser_role_id else "Manage Server only"
        embed.add_field(name="Game night organisers", value=role, inline=False)
        embed.add_field(name="Time zone", value=settings.time_zone or "UTC", inline=False)
        await interaction.response.send_message(**fit(embed=embed, ephemeral=True))


async def setup(bot: MusterBot) -> None:
    await bot.add_cog(Settings(bot))
