"""/games, /game cancel and /verify: what every game session shares."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import MusterBot
from bot.chat.checks import can_manage, guild_id_of
from bot.chat.errors import UserError
from bot.chat.limits import AUTOCOMPLETE_CHOICES, fit
from bot.lang.i18n import Domain
from rules.sealed import verify

_ = Domain("muster")
GAMES_SHOWN = 25  # of a player's open games listed by /games: more is a list nobody reads


class Games(commands.Cog):
    def __init__(self, bot: MusterBot) -> None:
        self.bot = bot

    @app_commands.command(name="games", description="Your open games in this server")
    @app_commands.guild_only()
    async def games(self, interaction: discord.Interaction[MusterBot]) -> None:
        sessions = await self.bot.sessions.open_sessions(guild_id_of(interaction), interaction.user.id)
        if not sessions:
            await interaction.response.send_message(
                _("You have no open games in this server."), ephemeral=True
            )
            return
        lines = []
        for info in sessions[:GAMES_SHOWN]:
            title = self.bot.games.get(info.system).title if info.system in self.bot.games else info.system
            other = info.players[1] if info.players[0] == interaction.user.id else info.players[0]
            link = f"https://discord.com/channels/{info.guild_id}/{info.channel_id}"
            lines.append(
                _(
                    "{id} **{game}** vs {opponent} in {channel} ([open]({link}))",
                    id=f"`{info.id}`",
                    game=title,
                    opponent=f"<@{other}>",
                    channel=f"<#{info.channel_id}>",
                    link=link,
                )
            )
        embed = discord.Embed(title=_.p("title", "Your open games"), description="\n".join(lines))
        await interaction.response.send_message(**fit(embed=embed, ephemeral=True))

    game = app_commands.Group(name="game", description="Manage a game session", guild_only=True)

    @game.command(name="cancel", description="Cancel an open game (organiser or Manage Server)")
    @app_commands.describe(game="The game's id (see /games); defaults to your only game in this channel")
    async def cancel(self, interaction: discord.Interaction[MusterBot], game: str | None = None) -> None:
        guild_id = guild_id_of(interaction)
        if game is None:
            here = [
                s
                for s in await self.bot.sessions.open_sessions(guild_id, channel_id=interaction.channel_id)
                if interaction.user.id in (*s.players, s.organiser_id)
            ]
            if len(here) != 1:
                raise UserError(
                    _("Give the game's id (see `/games`): you have no open game in this channel.")
                    if not here
                    else _(
                        "Give the game's id (see `/games`): you have more than one open game in this channel."
                    )
                )
            game = here[0].id
        info, _state = await self.bot.sessions.load(game.strip())
        if info.guild_id != guild_id:
            raise UserError(_("There is no game with that id in this server."))
        await self.bot.sessions.cancel(info.id, interaction.user.id, can_manage(interaction))
        await interaction.response.send_message(
            _("Game {id} is cancelled.", id=f"`{info.id}`"), ephemeral=True
        )

    @cancel.autocomplete("game")
    async def cancel_autocomplete(
        self, interaction: discord.Interaction[MusterBot], current: str
    ) -> list[app_commands.Choice[str]]:
        if interaction.guild_id is None:
            return []
        sessions = await self.bot.sessions.open_sessions(interaction.guild_id, interaction.user.id)
        return [
            app_commands.Choice(name=f"{s.id} · {s.system}", value=s.id)
            for s in sessions
            if s.id.startswith(current)
        ][:AUTOCOMPLETE_CHOICES]

    @app_commands.command(name="verify", description="Check a sealed choice against its commitment")
    @app_commands.describe(
        game="The game id",
        step="The step shown in the reveal",
        player="Who sealed it",
        choice="The revealed choice",
        nonce="The revealed nonce",
        commitment="The SHA-256 shown",
    )
    async def verify(
        self,
        interaction: discord.Interaction[MusterBot],
        game: str,
        step: str,
        player: discord.User,
        choice: str,
        nonce: str,
        commitment: str,
    ) -> None:
        ok = verify(game.strip(), step.strip(), player.id, choice.strip(), nonce.strip(), commitment)
        text = (
            "✅ " + _("The commitment matches: this choice was sealed before the reveal and not changed.")
            if ok
            else "❌ " + _("The commitment does not match these values.")
        )
        await interaction.response.send_message(text, ephemeral=True)


async def setup(bot: MusterBot) -> None:
    await bot.add_cog(Games(bot))
