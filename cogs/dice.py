"""/roll, /rolloff and /rolls recent."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import MusterBot
from bot.checks import require_opponent
from bot.dice import RollContext
from bot.errors import UserError
from rules.dice import RollResult, roll_notation
from rules.errors import RuleError
from rules.rolloff import roll_off

MAX_SHOWN_DICE = 120


def describe_roll(result: RollResult) -> str:
    """`3d6+2` → "3d6: [4, 1, 6] = 11, +2 → **13**"; long pools are summarised."""
    parts = []
    for term in result.terms:
        dice = list(term.dice)
        shown = ", ".join(map(str, dice[:MAX_SHOWN_DICE])) + (" …" if len(dice) > MAX_SHOWN_DICE else "")
        sign = "-" if term.term.sign < 0 else ""
        if term.term.target is not None:
            parts.append(f"{sign}{term.term.describe()}: [{shown}] → {abs(term.value)} successes")
        elif term.term.keep:
            parts.append(f"{sign}{term.term.describe()}: [{shown}] kept {list(term.kept)}")
        else:
            parts.append(f"{sign}{term.term.describe()}: [{shown}]")
    if result.modifier:
        parts.append(f"{result.modifier:+d}")
    label = (
        "Successes"
        if result.successes is not None and len(result.terms) == 1 and not result.modifier
        else "Total"
    )
    return "\n".join(parts) + f"\n{label}: **{result.total}**"


class Dice(commands.Cog):
    def __init__(self, bot: MusterBot) -> None:
        self.bot = bot

    @app_commands.command(name="roll", description="Roll dice: 3d6+2, d3, 2d6kh1, 20d6>=4, 2d6+d3")
    @app_commands.describe(dice="Dice notation, e.g. 3d6+2, d3, 2d6kh1 (keep highest), 20d6>=4 (count hits)")
    async def roll(
        self, interaction: discord.Interaction[MusterBot], dice: app_commands.Range[str, 1, 100]
    ) -> None:
        roller = self.bot.dice.roller()
        try:
            result = roll_notation(dice, roller, reason=f"/roll {dice}"[:200])
        except RuleError as error:
            raise UserError(error.message) from None
        await interaction.response.send_message(
            f"🎲 <@{interaction.user.id}> rolled `{result.notation}`\n{describe_roll(result)}",
            allowed_mentions=discord.AllowedMentions.none(),
        )
        self.bot.dice.audit_later(
            roller, RollContext(interaction.guild_id, interaction.channel_id, interaction.user.id)
        )

    @app_commands.command(
        name="rolloff", description="Roll off against another player: D6 each, ties re-rolled"
    )
    @app_commands.describe(
        opponent="Who you roll off against", my_bonus="Added to your roll", their_bonus="Added to their roll"
    )
    async def rolloff(
        self,
        interaction: discord.Interaction[MusterBot],
        opponent: discord.User,
        my_bonus: app_commands.Range[int, -10, 10] = 0,
        their_bonus: app_commands.Range[int, -10, 10] = 0,
    ) -> None:
        require_opponent(interaction, opponent)
        if not (-10 <= my_bonus <= 10 and -10 <= their_bonus <= 10):
            raise UserError("Bonuses must be between -10 and +10.")
        roller = self.bot.dice.roller()
        result = roll_off(roller, (my_bonus, their_bonus), reason=f"roll-off vs {opponent.id}")
        me, them = interaction.user.id, opponent.id
        lines = []
        for number, rnd in enumerate(result.rounds, start=1):
            mine = f"{rnd.rolls[0]}" + (f"{my_bonus:+d}={rnd.totals[0]}" if my_bonus else "")
            theirs = f"{rnd.rolls[1]}" + (f"{their_bonus:+d}={rnd.totals[1]}" if their_bonus else "")
            tie = " — tie, roll again" if rnd.totals[0] == rnd.totals[1] else ""
            lines.append(f"Roll {number}: <@{me}> {mine} vs <@{them}> {theirs}{tie}")
        winner = me if result.winner == 0 else them
        await interaction.response.send_message(
            "🎲 Roll-off\n" + "\n".join(lines) + f"\n**<@{winner}> wins.**",
            allowed_mentions=discord.AllowedMentions.none(),
        )
        self.bot.dice.audit_later(roller, RollContext(interaction.guild_id, interaction.channel_id, me))

    rolls = app_commands.Group(name="rolls", description="The dice log")

    @rolls.command(name="recent", description="The last rolls made in this channel")
    async def recent(self, interaction: discord.Interaction[MusterBot]) -> None:
        if interaction.channel_id is None:
            raise UserError("That only works in a channel.")
        rows = await self.bot.dice.recent(interaction.channel_id, limit=15)
        if not rows:
            await interaction.response.send_message("No rolls in this channel yet.", ephemeral=True)
            return
        lines = []
        for row in rows:
            when = int(row.created_at.timestamp())
            who = f"<@{row.user_id}>" if row.user_id else "Muster"
            results = row.results if len(row.results) <= 80 else row.results[:77] + "…]"
            lines.append(f"<t:{when}:t> {who} · {row.reason} · `{row.notation}` → {results}")
        embed = discord.Embed(title="Recent rolls in this channel", description="\n".join(lines)[:4000])
        await interaction.response.send_message(embed=embed, ephemeral=True)


async def setup(bot: MusterBot) -> None:
    await bot.add_cog(Dice(bot))
