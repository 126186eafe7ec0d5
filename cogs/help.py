"""/help: what Muster can do, grouped by game, then game nights and the shared commands."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import MusterBot
from bot.chat.limits import fit
from bot.lang.i18n import Domain
from bot.play.games import GameRegistry

_ = Domain("muster")


def sections(games: GameRegistry) -> list[tuple[str, str]]:
    """/help's sections, in the language in force: the shared commands around one line per game (a
    game's `help` line is English until its cog words it through its own domain)."""
    dice = _("`/roll 3d6+2` · `/roll 20d6>=4` counts hits · `/rolloff @opponent` · `/rolls recent`")
    nights = (
        _.p("field", "Game nights"),
        _(
            "`/night create` makes a night with a sign-up card and a Discord event · `/night show` · "
            "`/night pair`, then `/night swap`, `/night move` or `/night drop`, then `/night publish` "
            "opens the games · `/night finish` · `/night edit` · `/night cancel` · `/night history` · "
            "`/night tables` · `/night reminders` (organisers: Manage Server or the organiser role)"
        ),
    )
    shared = [
        (
            _.p("field", "Games"),
            _("`/games` lists your open games · `/game cancel` · `/verify` checks a sealed commitment"),
        ),
        (
            _.p("field", "Scores"),
            "`/scores record` · `/scores leaderboard` · `/scores history` · `/scores player` · "
            "`/scores export` · `/scores privacy`",
        ),
        (
            _.p("field", "Settings"),
            _(
                "`/settings results-channel #channel` · `/settings language` · "
                "`/settings organiser-role` · `/settings time-zone` · `/settings web` · `/settings show` "
                "(Manage Server)"
            ),
        ),
    ]
    games_part = [(game.title, game.help_line()) for game in games if game.help]
    return [(_.p("field", "Dice"), dice), *games_part, nights, *shared]


class Help(commands.Cog):
    def __init__(self, bot: MusterBot) -> None:
        self.bot = bot

    @app_commands.command(name="help", description="What Muster can do")
    async def help(self, interaction: discord.Interaction[MusterBot]) -> None:
        embed = discord.Embed(
            title="Muster", description=_("Runs the fiddly parts of a wargame night, fairly.")
        )
        for name, text in sections(self.bot.games):
            embed.add_field(name=name, value=text, inline=False)
        await interaction.response.send_message(**fit(embed=embed, ephemeral=True))


async def setup(bot: MusterBot) -> None:
    await bot.add_cog(Help(bot))
