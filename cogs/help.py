"""/help: what Muster can do, grouped by game."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import MusterBot
from bot.limits import fit

SECTIONS: list[tuple[str, str]] = [
    ("Dice", "`/roll 3d6+2` · `/roll 20d6>=4` counts hits · `/rolloff @opponent` · `/rolls recent`"),
    (
        "Kill Team",
        "`/killteam start @opponent` runs the matched-play sequence: mission and map, sealed bids "
        "and scouting in DMs, Tac Ops, scoring with the caps",
    ),
    (
        "Warcry",
        "`/warcry battleplan` · `/warcry battle @opponent` tracks a battle · `/warcry warband` checks "
        "a roster · `/warcry battlegroups`",
    ),
    ("Warmaster", "`/warmaster game @opponent` deals hidden magic item and tactics hands and runs card play"),
    ("40K", "`/40k start @opponent` runs Marked for Death: roll-offs, seize, marks and kill points"),
    ("Games", "`/games` lists your open games · `/game cancel` · `/verify` checks a sealed commitment"),
    (
        "Scores",
        "`/scores record` · `/scores leaderboard` · `/scores history` · `/scores player` · `/scores export`",
    ),
    ("Settings", "`/settings results-channel #channel` · `/settings show` (Manage Server)"),
]


class Help(commands.Cog):
    def __init__(self, bot: MusterBot) -> None:
        self.bot = bot

    @app_commands.command(name="help", description="What Muster can do")
    async def help(self, interaction: discord.Interaction[MusterBot]) -> None:
        embed = discord.Embed(title="Muster", description="Runs the fiddly parts of a wargame night, fairly.")
        for name, text in SECTIONS:
            embed.add_field(name=name, value=text, inline=False)
        await interaction.response.send_message(**fit(embed=embed, ephemeral=True))


async def setup(bot: MusterBot) -> None:
    await bot.add_cog(Help(bot))
