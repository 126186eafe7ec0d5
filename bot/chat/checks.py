"""Permission and context checks done by the bot itself (Discord's defaults can be overridden)."""

from __future__ import annotations

from typing import Any

import discord

from bot.chat.errors import UserError
from bot.lang.i18n import Domain

_ = Domain("muster")


def guild_id_of(interaction: discord.Interaction[Any]) -> int:
    if interaction.guild_id is None:
        raise UserError(_("That command only works in a server channel."))
    return interaction.guild_id


def channel_id_of(interaction: discord.Interaction[Any]) -> int:
    if interaction.channel_id is None:
        raise UserError(_("That command only works in a channel."))
    return interaction.channel_id


def can_manage(interaction: discord.Interaction[Any]) -> bool:
    member = interaction.user
    return isinstance(member, discord.Member) and member.guild_permissions.manage_guild


def require_manage(interaction: discord.Interaction[Any]) -> None:
    if not can_manage(interaction):
        raise UserError(_("You need the Manage Server permission for that."))


def require_opponent(interaction: discord.Interaction[Any], opponent: discord.abc.User) -> None:
    """Two-player commands: not against yourself, not against a bot."""
    if opponent.id == interaction.user.id:
        raise UserError(_("You can't play against yourself: pick another player."))
    if opponent.bot:
        raise UserError(_("{name} is a bot and can't play: pick a person.", name=opponent.display_name))
