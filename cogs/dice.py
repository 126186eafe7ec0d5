"""/roll, /rolloff and /rolls recent.

The model of a converted cog (docs/LANGUAGES.md): its words are marked in the muster domain; a
public answer (a roll everyone sees) speaks the server's language, an ephemeral one (the dice log,
a refusal) the language of the player who asked, which is already in force.
"""

from __future__ import annotations

import functools
import io
from collections.abc import Sequence
from dataclasses import dataclass

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import MusterBot
from bot.chat.checks import require_opponent
from bot.chat.errors import UserError
from bot.chat.limits import CONTENT, EMBED_DESCRIPTION, fit
from bot.lang.i18n import Domain, language, speaking
from bot.lang.text import refusal
from bot.play.dice import RollContext
from rules.dice import DiceTerm, RollResult, TermResult, roll_notation
from rules.errors import RuleError
from rules.rolloff import roll_off
from rules.text import ELLIPSIS, clip, fit_lines

DICE_FILE = "roll.txt"
TERMS_KEPT = 512
FORMS_KEPT = 1024  # /roll answer forms kept, by language and notation
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


@functools.lru_cache(maxsize=TERMS_KEPT)
def _term_head(term: DiceTerm) -> str:
    """`3d6: `, `-d3: `: a term's name never changes, and a club rolls the same few (kept as
    their parse is)."""
    return f"{'-' if term.sign < 0 else ''}{term.describe()}: "


def _term_line(term: TermResult, room: int | None) -> str:
    """One term: its dice (cut to `room` characters when given) and what they count for."""
    head = _term_head(term.term)
    if room is None and term.term.target is None and not term.term.keep:  # the common `3d6: [4, 1, 6]`
        return f"{head}[{', '.join(map(str, term.dice))}]"
    if term.term.target is not None:
        tail = " → " + _.n("{count} success", "{count} successes", abs(term.value))
    elif term.term.keep:
        kept = _dice_list(term.kept, 10_000 if room is None else max(room // 3, 8))
        tail = " " + _("kept {dice}", dice=kept) + ("" if room is None else f" = {abs(term.value)}")
    else:
        tail = "" if room is None else f" = {abs(term.value)}"
    dice_room = 10_000 if room is None else max(room - len(head) - len(tail), 8)
    return head + _dice_list(term.dice, dice_room) + tail


_PLAYER, _NOTATION, _TOTAL = "\x00player\x00", "\x00dice\x00", "\x00total\x00"
"""Stand-ins for a roll's values in its sentences, replaced by them (no translation holds a NUL)."""


@dataclass(frozen=True)
class RollWords:
    """A /roll answer's fixed sentences in one language, with `_PLAYER`, `_NOTATION` and `_TOTAL`
    where the values go."""

    head: str
    total: str
    successes: str


@functools.cache
def roll_words(lang: str) -> RollWords:
    """/roll's sentences in `lang`, looked up once per language (catalogues never change while the
    bot runs): every `/roll` answer is made of them, and a lookup and a fill per sentence was a
    measurable part of a reply that is otherwise little more than discord.py's own cost.
    `_()` falls back to the English when a translation's placeholders are wrong, so a stand-in is
    there in either case."""
    with speaking(lang):
        return RollWords(
            head="🎲 " + _("{player} rolled {dice}", player=_PLAYER, dice=_NOTATION) + "\n",
            total=_("Total: {total}", total=_TOTAL),
            successes=_("Successes: {total}", total=_TOTAL),
        )


def _total_line(result: RollResult) -> str:
    words = roll_words(language())
    if result.successes is not None and len(result.terms) == 1 and not result.modifier:
        return words.successes.replace(_TOTAL, f"**{result.total}**")
    return words.total.replace(_TOTAL, f"**{result.total}**")


def describe_roll(result: RollResult, room: int = CONTENT) -> tuple[str, str | None]:
    """`3d6+2` → "3d6: [4, 1, 6]\n+2\nTotal: **13**", and None.

    A roll too long for `room` characters (e.g. 8 × 120d999) is summarised instead: every term with
    its own total and as many of its dice as fit, then "…"; the second value is then the full
    listing of every die, for an attachment, so the roll can still be checked die by die.
    """
    modifier = [f"{result.modifier:+d}"] if result.modifier else []
    total = _total_line(result)
    whole = "\n".join([*[_term_line(t, None) for t in result.terms], *modifier, total])
    if len(whole) <= room:
        return whole, None
    note = _("(every die is in {file})", file=DICE_FILE)
    fixed = sum(len(line) + 1 for line in [*modifier, total, note])
    share = (room - fixed) // len(result.terms) - 1
    lines = [_term_line(t, share) for t in result.terms]
    return "\n".join([*lines, *modifier, total, note]), whole


def _literal(text: str) -> str:
    """`text` as it reads inside a `str.format` form."""
    return text.replace("{", "{{").replace("}", "}}")


def _plain_form(result: RollResult) -> str | None:
    """The answer to any roll of `result`'s notation, in the language in force, as one `str.format`
    form: `{0}` the player, then each term's dice, then the total. None when a term keeps or
    counts dice (their lines are worded per roll: `describe_roll`)."""
    if any(t.term.keep or t.term.target is not None for t in result.terms):
        return None
    words = roll_words(language())
    head = _literal(words.head).replace(_PLAYER, "{0}").replace(_NOTATION, _literal(f"`{result.notation}`"))
    lines = [f"{_literal(_term_head(t.term))}[{{{i}}}]" for i, t in enumerate(result.terms, start=1)]
    modifier = [f"{result.modifier:+d}"] if result.modifier else []
    total = _literal(words.total).replace(_TOTAL, f"**{{{len(lines) + 1}}}**")
    return head + "\n".join([*lines, *modifier, total])


_forms: dict[tuple[str, str], str | None] = {}


def _form(result: RollResult) -> str | None:
    """`_plain_form`, kept per language and notation: a club rolls the same few, and the answer
    is then one `str.format` of the dice, which is most of what a plain roll's reply costs beyond
    discord.py's own work."""
    key = (language(), result.notation)
    form = _forms.get(key)
    if form is None and key not in _forms:
        if len(_forms) >= FORMS_KEPT:
            _forms.clear()
        form = _forms[key] = _plain_form(result)
    return form


def roll_answer(result: RollResult, player: int) -> tuple[str, str | None]:
    """The public answer to a `/roll` in the language in force (and the listing of every die when
    the answer had to be summarised: `describe_roll`)."""
    form = _form(result)
    if form is not None:
        content = form.format(
            f"<@{player}>", *[", ".join(map(str, t.dice)) for t in result.terms], result.total
        )
        if len(content) <= CONTENT:
            return content, None
    head = roll_words(language()).head.replace(_PLAYER, f"<@{player}>")
    head = head.replace(_NOTATION, f"`{result.notation}`")
    text, every_die = describe_roll(result, CONTENT - len(head))
    return clip(head + text, CONTENT), every_die


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
        languages, guild_id = self.bot.languages, interaction.guild_id
        lang = languages.remembered_server(guild_id) or await languages.of_server(guild_id)
        if lang == language():  # already in force (the player's own): no context to switch
            content, every_die = roll_answer(result, interaction.user.id)
        else:
            with speaking(lang):  # everyone sees it: the server's language
                content, every_die = roll_answer(result, interaction.user.id)
        # It names its player and pings nobody: the bot's own allowed_mentions (bot/app.py) say so
        # for every message, in the payload as given here, without a merge per roll.
        if every_die is None:
            await interaction.response.send_message(content)
        else:
            listing = f"/roll {result.notation}\n{every_die.replace('**', '')}\n"
            await interaction.response.send_message(
                content, file=discord.File(io.BytesIO(listing.encode()), filename=DICE_FILE)
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
