"""/scores privacy, and the names the web site shows (bot/web/members.py).

A mixin of the Scores cog (its commands and listeners are the cog's): `/scores privacy hide|show`
is a member's own choice to be named on the league web site or not; every interaction in a server
notes the display names it carries (its member's, and those of members it names), stored when they
change, because the site has no Discord connection of its own.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import MusterBot
from bot.chat.checks import guild_id_of
from bot.lang.i18n import Domain
from bot.web.members import MemberNames

_ = Domain("muster")


def seen_names(interaction: discord.Interaction[Any]) -> list[tuple[int, str]]:
    """(user id, display name as this server shows it) of the member and the members it names."""
    found: list[tuple[int, str]] = []
    user = interaction.user
    if isinstance(user, discord.Member) and not user.bot:
        found.append((user.id, user.display_name))
    data: Any = interaction.data or {}
    resolved = data.get("resolved", {}) if isinstance(data, dict) else {}
    users = resolved.get("users", {}) if isinstance(resolved, dict) else {}
    for key, member in (resolved.get("members", {}) if isinstance(resolved, dict) else {}).items():
        person = users.get(key, {})
        if not isinstance(member, dict) or not isinstance(person, dict) or person.get("bot"):
            continue
        name = member.get("nick") or person.get("global_name") or person.get("username")
        if isinstance(name, str) and key.isdigit():
            found.append((int(key), name))
    return found


class Privacy(commands.Cog):
    """The Scores cog's part that keeps members' names and their choice about the web site."""

    bot: MusterBot
    members: MemberNames

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        if interaction.guild_id is None:
            return
        for user_id, name in seen_names(interaction):
            self.members.note(interaction.guild_id, user_id, name)

    @app_commands.command(name="privacy", description="Whether the league web site shows your name")
    @app_commands.describe(name="hide: the web site shows you as a hidden player, with no page of your own")
    @app_commands.choices(
        name=[app_commands.Choice(name="hide", value="hide"), app_commands.Choice(name="show", value="show")]
    )
    async def privacy(self, interaction: discord.Interaction[MusterBot], name: str) -> None:
        guild_id = guild_id_of(interaction)
        hide = name == "hide"
        await self.members.set_hidden(guild_id, interaction.user.id, hide)
        text = (
            _("The league web site no longer shows your name or a page of yours in this server.")
            if hide
            else _("The league web site shows your name in this server again.")
        )
        await interaction.response.send_message(text, ephemeral=True)
