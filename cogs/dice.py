"""/roll, /rolloff and /rolls recent.

The model of a converted cog (docs/LANGUAGES.md): its words are marked in the muster domain; a
public answer (a roll everyone sees) speaks the server's language, an ephemeral one (the dice log,
a refusal) the language of the player who asked, which is already in force.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import MusterBot
from bot.chat.checks import require_opponent
from bot.chat.errors import UserError
from bot.chat.limits import CONTENT, EMBED_DESCRIPTION, fit
from bot.lang.i18n import Domain, speaking
from bot.lang.text import refusal
from bot.play.dice import RollContext
from rules.dice import RollResult, TermResult, roll_notation
from rules.errors import RuleError
from rules.rolloff import roll_off
from rules.text import ELLIPSIS, fit_lines

DICE_FILE = "roll.txt"
RESULTS_SHOWN = 80  # of a roll's results on its line of /roll history: the rest is cut, the bracket kept
_ = Domain("muster")


def _dice_list(dice: Sequence[int], room: int) -> str:
    """`[4, 1, 6]`, or as many dice as fit in `room` characters followed by "…"."""
    whole = f"[{', '.join(map(str, dice))}]"
    if len(whole) <= room:
        return whole
    shown: list[str] = []
    used = len("[, …]")
    for die in map(str, dice):
        if used + len(die) + 2 > room:
            break
        shown.append(die)
        used += len(die) + 2
    return f"[{', '.join([*shown, ELLIPSIS])}]"


def _term_line(term: TermResult, room: int | None) -> str:
    """One term: its dice (cut to `room` characters when given) and what they count for."""
    sign = "-" if term.term.sign < 0 else ""
    head = f"{sign}{term.term.describe()}: "
    if term.term.target is not None:
        tail = " → " + _.n("{count} success", "{count} successes", abs(term.value))
    elif term.term.keep:
        kept = _dice_list(term.kept, 10_000 if room is None else max(room // 3, 8))
        tail = " " + _("kept {dice}", dice=kept) + ("" if room is None else f" = {abs(term.value)}")
    else:
        tail = "" if room is None else f" = {abs(term.value)}"
    dice_room = 10_000 if room is None else max(room - len(head) - len(tail), 8)
    return head + _dice_list(term.dice, dice_room) + tail


def _total_line(result: RollResult) -> str:
    if result.successes is not None and len(result.terms) == 1 and not result.modifier:
        return _("Successes: {total}", total=f"**{result.total}**")
    return _("Total: {total}", total=f"**{result.total}**")


def describe_roll(result: RollResult, room: int = CONTENT) -> tuple[str, str | None]:
    """`3d6+2` → "3d6: [4, 1, 6]\n+2\nTotal: **13**", and None.

    A roll too long for `room` characters (e.g. 8 × 120d999) is summarised instead: every term with
    its own total and as many of its dice as fit, then "…"; the second value is then the full
    listing of every die, for an attachment, so the roll can still be checked die by die.
    """
    modifier = [f"{result.modifier:+d}"] if result.modifier else []
    total = _total_line(result)
    whole = "\n".join([*(_term_line(t, None) for t in result.terms), *modifier, total])
    if len(whole) <= room:
        return whole, None
    note = _("(every die is in {file})", file=DICE_FILE)
    fixed = sum(len(line) + 1 for line in [*modifier, total, note])
    share = (room - fixed) // len(result.terms) - 1
    lines = [_term_line(t, share) for t in result.terms]
    return "\n".join([*lines, *modifier, total, note]), whole


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
            result = roll_notation(dice, roller, reason=f"/roll {dice}")
        except RuleError as error:
            raise UserError(refusal(error)) from None
        with speaking(await self.bot.languages.of_server(interaction.guild_id)):  # everyone sees it
            who = f"<@{interaction.user.id}>"
            head = "🎲 " + _("{player} rolled {dice}", player=who, dice=f"`{result.notation}`") + "\n"
            text, every_die = describe_roll(result, CONTENT - len(head))
        extra: dict[str, Any] = {}
        if every_die is not None:
            listing = f"/roll {result.notation}\n{every_die.replace('**', '')}\n"
            extra["file"] = discord.File(io.BytesIO(listing.encode()), filename=DICE_FILE)
        await interaction.response.send_message(
            **fit(content=head + text, allowed_mentions=discord.AllowedMentions.none(), **extra)
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
            raise UserError(_("Bonuses must be between -10 and +10."))
        roller = self.bot.dice.roller()
        result = roll_off(roller, (my_bonus, their_bonus), reason=f"roll-off vs {opponent.id}")
        me, them = interaction.user.id, opponent.id
        lines = []
        with speaking(await self.bot.languages.of_server(interaction.guild_id)):  # everyone sees it
            for number, rnd in enumerate(result.rounds, start=1):
                mine = f"{rnd.rolls[0]}" + (f"{my_bonus:+d}={rnd.totals[0]}" if my_bonus else "")
                theirs = f"{rnd.rolls[1]}" + (f"{their_bonus:+d}={rnd.totals[1]}" if their_bonus else "")
                tie = " — " + _("tie, roll again") if rnd.totals[0] == rnd.totals[1] else ""
                line = _(
                    "Roll {number}: {me} {mine} vs {them} {theirs}",
                    number=number,
                    me=f"<@{me}>",
                    mine=mine,
                    them=f"<@{them}>",
                    theirs=theirs,
                )
                lines.append(line + tie)
            winner = me if result.winner == 0 else them
            won = "**" + _("{player} wins.", player=f"<@{winner}>") + "**"
            text = "🎲 " + _("Roll-off") + "\n" + "\n".join(lines) + "\n" + won
        await interaction.response.send_message(
            **fit(content=text, allowed_mentions=discord.AllowedMentions.none())
        )
        self.bot.dice.audit_later(roller, RollContext(interaction.guild_id, interaction.channel_id, me))

    rolls = app_commands.Group(name="rolls", description="The dice log")

    @rolls.command(name="recent", description="The last rolls made in this channel")
    async def recent(self, interaction: discord.Interaction[MusterBot]) -> None:
        if interaction.channel_id is None:
            raise UserError(_("That only works in a channel."))
        rows = await self.bot.dice.recent(interaction.channel_id, limit=15)
        if not rows:
            await interaction.response.send_message(_("No rolls in this channel yet."), ephemeral=True)
            return
        lines = []
        for row in rows:
            when = int(row.created_at.timestamp())
            who = f"<@{row.user_id}>" if row.user_id else "Muster"
            results = (
                row.results
                if len(row.results) <= RESULTS_SHOWN
                else f"{row.results[: RESULTS_SHOWN - 2]}{ELLIPSIS}]"
            )
            lines.append(f"<t:{when}:t> {who} · {row.reason} · `{row.notation}` → {results}")
        more = _("…and {n} more")  # fit_lines fills in {n}
        embed = discord.Embed(
            title=_.p("title", "Recent rolls in this channel"),
            description=fit_lines(lines, EMBED_DESCRIPTION, more=more),
        )
        await interaction.response.send_message(**fit(embed=embed, ephemeral=True))


async def setup(bot: MusterBot) -> None:
    await bot.add_cog(Dice(bot))
