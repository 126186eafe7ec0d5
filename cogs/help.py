"""/help: what Muster can do, grouped by game."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import MusterBot
from bot.games import GameRegistry
from bot.limits import fit

BEFORE_GAMES: list[tuple[str, str]] = [
    ("Dice", "`/roll 3d6+2` · `/roll 20d6>=4` counts hits · `/rolloff @opponent` · `/rolls recent`"),
]
AFTER_GAMES: list[tuple[str, str]] = [
    ("Games", "`/games` lists your open games · `/game cancel` · `/verify` checks a sealed commitment"),
    (
        "Scores",
        "`/scores record` · `/scores leaderboard` · `/scores history` · `/scores player` · `/scores export`",
    ),
    ("Settings", "`/settings results-channel #channel` · `/settings show` (Manage Server)"),
]


def sections(games: GameRegistry) -> list[tuple[str, str]]:
    """/help's sections: the shared commands around one line per registered game."""
    return [*BEFORE_GAMES, *((game.title, game.help) for game in games if game.help), *AFTER_GAMES]


class Help(commands.Cog):
    def __init__(self, bot: MusterBot) -> None:
        self.bot = bot

    @app_commands.command(name="help", description="What Muster can do")
    async def help(self, interaction: discord.Interaction[MusterBot]) -> None:
        embed = discord.Embed(title="Muster", description="Runs the fiddly parts of a wargame night, fairly.")
        for name, text in sections(self.bot.games):
            embed.add_field(name=name, value=text, inline=False)
        await interaction.response.send_message(**fit(embed=embed, ephemeral=True))


async def setup(bot: MusterBot) -> None:
    await bot.add_cog(Help(bot))
