"""The /pick commands: start a game, call it a draw, and the server's own pack (load, show, clear).

Everything else a game does (its questions, DM prompts, the board) the platform does from the
adapter (cogs/pick/adapter.py); a command only opens the game or answers about the pack.
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.app import MusterBot
from bot.chat.checks import channel_id_of, guild_id_of, require_manage, require_opponent
from bot.lang.i18n import Domain
from bot.play.game_cog import GameCog
from cogs.pick.adapter import PickAdapter
from cogs.pick.vocabulary import pack_line
from rules.dice import Roller
from rules.pick.actions import CallDraw
from rules.pick.models import PickPack, PickState
from rules.pick.pack import parse_pack
from rules.pick.procedure import SYSTEM, start
from rules.session import Event

_ = Domain("pick")


class PickGame(GameCog[PickState], group_name="pick", group_description="Pick: the higher secret pick wins"):
    adapter = PickAdapter()
    pack = app_commands.Group(name="pack", description="This server's own Pick pack")

    @app_commands.command(name="start", description="Start a game of Pick in this channel")
    @app_commands.guild_only()
    async def start_game(self, interaction: discord.Interaction[MusterBot], opponent: discord.User) -> None:
        require_opponent(interaction, opponent)
        players = [interaction.user.id, opponent.id]
        pack: PickPack = await self.server_pack(guild_id_of(interaction), channel_id_of(interaction))

        def build(session_id: str, roller: Roller) -> tuple[PickState, list[Event]]:
            return start(session_id, players, roller, pack)

        await self.open_game(interaction, opponent, build)

    @app_commands.command(name="draw", description="Call your game of Pick a draw: your opponent confirms")
    @app_commands.guild_only()
    async def call_draw(self, interaction: discord.Interaction[MusterBot]) -> None:
        await self.act(interaction, CallDraw(actor=interaction.user.id))

    @pack.command(name="load", description="Load this server's own Pick pack (YAML file; Manage Server)")
    @app_commands.describe(file="A YAML pack: name and highest")
    @app_commands.guild_only()
    async def pack_load(self, interaction: discord.Interaction[MusterBot], file: discord.Attachment) -> None:
        loaded = await self.bot.packs.load(interaction, SYSTEM, file, parse_pack)
        said = _("Pack loaded: {pack} New games use it.", pack=pack_line(loaded))
        await interaction.response.send_message(said, ephemeral=True)

    @pack.command(name="show", description="Which pack new Pick games use here")
    @app_commands.guild_only()
    async def pack_show(self, interaction: discord.Interaction[MusterBot]) -> None:
        pack: PickPack = await self.server_pack(guild_id_of(interaction), channel_id_of(interaction))
        await interaction.response.send_message(pack_line(pack), ephemeral=True)

    @pack.command(name="clear", description="Go back to the shipped Pick pack (Manage Server)")
    @app_commands.guild_only()
    async def pack_clear(self, interaction: discord.Interaction[MusterBot]) -> None:
        require_manage(interaction)
        removed = await self.bot.packs.delete(guild_id_of(interaction), SYSTEM)
        said = (
            _("This server's Pick pack was removed.")
            if removed
            else _("This server had no Pick pack loaded.")
        )
        await interaction.response.send_message(said, ephemeral=True)
