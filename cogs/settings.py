"""/settings: per-server configuration, for Manage Server only.

Discord hides the whole group from other members (`default_permissions` on the group: Discord
honours it on a top-level command only, not per sub-command); the bot still checks Manage Server
itself, since a server can grant the command to anyone in its integration settings.
"""

from __future__ import annotations

import asyncio
import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import MusterBot
from bot.chat.checks import guild_id_of, require_manage
from bot.chat.errors import UserError
from bot.chat.limits import fit
from bot.lang.i18n import LANGUAGES, Domain
from bot.lang.languages import FOLLOW_DISCORD
from bot.web.league import store_ratings
from cogs.night.input import time_zone_name, zone_choices
from rules.text import clip

_ = Domain("muster")
log = logging.getLogger("muster.settings")
WEB_NAME_MAX = 100  # the stored server name (Discord allows 100)
LANGUAGE_NAMES = {"en": "English", "de": "Deutsch", "fr": "Français", "es": "Español"}
"""Each language by its own name, as a picker shows it."""


def web_address(base_url: str, guild_id: int) -> str:
    """The server's league page on the web site (`MUSTER_WEB_BASE_URL/g/<server id>`)."""
    return f"{base_url}/g/{guild_id}"


def language_name(code: str | None) -> str:
    """How /settings shows a server's language choice, in the language in force."""
    if code and code != FOLLOW_DISCORD:
        return LANGUAGE_NAMES.get(code, code)
    return _("the server's Discord language")


@app_commands.default_permissions(manage_guild=True)
@app_commands.guild_only()
class Settings(commands.GroupCog, group_name="settings", group_description="This server's Muster settings"):
    def __init__(self, bot: MusterBot) -> None:
        self.bot = bot
        self._storing: set[asyncio.Task[None]] = set()

    async def cog_unload(self) -> None:
        for task in self._storing:
            task.cancel()
        await asyncio.gather(*self._storing, return_exceptions=True)

    def _store_ratings(self, guild_id: int) -> None:
        """The server's ratings stored for the web site in the background (bot/web/league.py), so
        its first page there needs no replay; the site replays them itself if this fails."""

        async def store() -> None:
            try:
                await store_ratings(self.bot.store, self.bot.scores.results, guild_id)
            except Exception:
                log.warning("could not store the ratings of %s for the web site", guild_id, exc_info=True)

        task = asyncio.create_task(store(), name=f"web-ratings-{guild_id}")
        self._storing.add(task)
        task.add_done_callback(self._storing.discard)

    async def ratings_stored(self) -> None:
        """Wait for the ratings being stored for the web site (tests)."""
        await asyncio.gather(*self._storing, return_exceptions=True)

    @app_commands.command(name="results-channel", description="Where finished games are announced")
    @app_commands.describe(channel="The channel for results (leave empty to use each game's own channel)")
    async def results_channel(
        self, interaction: discord.Interaction[MusterBot], channel: discord.TextChannel | None = None
    ) -> None:
        guild_id = guild_id_of(interaction)
        require_manage(interaction)
        await self.bot.guild_settings.update(guild_id, results_channel_id=channel.id if channel else None)
        text = (
            _("Results will be announced in {channel}.", channel=channel.mention)
            if channel
            else _("Results will be announced in each game's own channel.")
        )
        await interaction.response.send_message(**fit(content=text, ephemeral=True))

    @app_commands.command(name="reminders", description="How long a sealed choice may wait before a reminder")
    @app_commands.describe(minutes="Minutes of quiet before a waiting player gets a reminder DM")
    async def reminders(
        self, interaction: discord.Interaction[MusterBot], minutes: app_commands.Range[int, 5, 1440]
    ) -> None:
        guild_id = guild_id_of(interaction)
        require_manage(interaction)
        if not 5 <= minutes <= 1440:
            raise UserError(_("Reminders can be set between 5 and 1440 minutes."))
        await self.bot.guild_settings.update(guild_id, reminder_minutes=float(minutes))
        await interaction.response.send_message(
            _("Waiting players get a reminder after {minutes} minutes.", minutes=minutes), ephemeral=True
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
            raise UserError(_("Choose **on** or **off**."))
        await self.bot.guild_settings.update(guild_id, game_threads=enabled == "on")
        text = (
            _("Each new game is played in a thread under its start card.")
            if enabled == "on"
            else _("New games are played in the channel they are started in, without threads.")
        )
        await interaction.response.send_message(text, ephemeral=True)

    @app_commands.command(name="language", description="The language of this server's public posts")
    @app_commands.describe(
        language="Boards, cards, announcements (each player gets replies and DMs in their own language)"
    )
    @app_commands.choices(
        language=[
            app_commands.Choice(name="Discord's server language (default)", value=FOLLOW_DISCORD),
            *(app_commands.Choice(name=LANGUAGE_NAMES[code], value=code) for code in LANGUAGES),
        ]
    )
    async def language(self, interaction: discord.Interaction[MusterBot], language: str) -> None:
        guild_id = guild_id_of(interaction)
        require_manage(interaction)
        if language != FOLLOW_DISCORD and language not in LANGUAGES:
            raise UserError(_("Choose one of the offered languages."))
        await self.bot.guild_settings.update(guild_id, language=language)
        self.bot.languages.changed()
        now = await self.bot.languages.of_server(guild_id)
        await interaction.response.send_message(
            _(
                "Public posts here are now in {language} (currently {now}).",
                language=language_name(language),
                now=LANGUAGE_NAMES[now],
            ),
            ephemeral=True,
        )

    @app_commands.command(name="organiser-role", description="A role whose members may run game nights")
    @app_commands.describe(role="The organisers' role (leave empty: Manage Server only)")
    async def organiser_role(
        self, interaction: discord.Interaction[MusterBot], role: discord.Role | None = None
    ) -> None:
        guild_id = guild_id_of(interaction)
        require_manage(interaction)
        if role is not None and (role.is_default() or role.managed):
            raise UserError(
                _("{role} can't be the organisers' role: pick a role people are given.", role=role.mention)
            )
        await self.bot.guild_settings.update(guild_id, organiser_role_id=role.id if role else None)
        text = (
            _(
                "Members with {role} may now make and run game nights (as may Manage Server).",
                role=role.mention,
            )
            if role
            else _("Only members with Manage Server may make and run game nights now.")
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
            _("Dates and times typed in this server are read in **{zone}** now.", zone=name), ephemeral=True
        )

    @time_zone.autocomplete("zone")
    async def _zones(
        self, interaction: discord.Interaction[MusterBot], current: str
    ) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=name, value=name) for name in zone_choices(current)]

    @app_commands.command(name="web", description="Whether this server's league is shown on the web site")
    @app_commands.describe(enabled="On: anyone with the address sees the league, results and game nights")
    @app_commands.choices(
        enabled=[app_commands.Choice(name="on", value="on"), app_commands.Choice(name="off", value="off")]
    )
    async def web(self, interaction: discord.Interaction[MusterBot], enabled: str) -> None:
        guild_id = guild_id_of(interaction)
        require_manage(interaction)
        if enabled not in ("on", "off"):
            raise UserError(_("Choose **on** or **off**."))
        guild = interaction.guild
        await self.bot.guild_settings.update(
            guild_id,
            web_public=enabled == "on",
            web_name=clip(guild.name, WEB_NAME_MAX) if guild is not None else None,
            web_locale=str(guild.preferred_locale) if guild is not None else None,
        )
        if enabled == "on":
            self._store_ratings(guild_id)
            text = _(
                "This server's league is on the web now: {address}\nMembers who'd rather not be named "
                "there can use `/scores privacy hide`. `/settings web off` hides it again at once.",
                address=web_address(self.bot.settings.muster_web_base_url, guild_id),
            )
        else:
            text = _("This server's league is no longer on the web.")
        await interaction.response.send_message(**fit(content=text, ephemeral=True))

    @app_commands.command(name="show", description="Show this server's settings")
    async def show(self, interaction: discord.Interaction[MusterBot]) -> None:
        settings = await self.bot.guild_settings.get(guild_id_of(interaction))
        channel = (
            f"<#{settings.results_channel_id}>"
            if settings.results_channel_id
            else _("each game's own channel")
        )
        minutes = settings.reminder_minutes or self.bot.settings.reminder_minutes
        embed = discord.Embed(title=_.p("title", "Muster settings"))
        embed.add_field(name=_.p("field", "Results channel"), value=channel, inline=False)
        embed.add_field(
            name=_.p("field", "Reminders"),
            value=_("after {minutes} minutes of waiting", minutes=f"{minutes:g}"),
            inline=False,
        )
        threads = _("off") if settings.game_threads is False else _("on")
        embed.add_field(name=_.p("field", "Game threads"), value=threads, inline=False)
        embed.add_field(name=_.p("field", "Language"), value=language_name(settings.language), inline=False)
        role = f"<@&{settings.organiser_role_id}>" if settings.organiser_role_id else _("Manage Server only")
        embed.add_field(name=_.p("field", "Game night organisers"), value=role, inline=False)
        embed.add_field(name=_.p("field", "Time zone"), value=settings.time_zone or "UTC", inline=False)
        page = (
            web_address(self.bot.settings.muster_web_base_url, guild_id_of(interaction))
            if settings.web_public
            else _("not shown")
        )
        embed.add_field(name=_.p("field", "Web page"), value=page, inline=False)
        await interaction.response.send_message(**fit(embed=embed, ephemeral=True))


async def setup(bot: MusterBot) -> None:
    await bot.add_cog(Settings(bot))
