"""/warcry: battleplans, the blocked-objective roll-off, warband and battle-group checks, packs, battles.

A thin adapter: slash-command options become rules calls (rules/warcry), events become lines, and
every button or menu answers one of the battle's questions (rules/warcry/questions.py), whose clicks
the router checks and steps like any game's. A battle is played at the shared table (bot/play/table.py):
`/warcry battle` posts a start card and the battle runs in a thread opened from it, on one board
edited in place (battleplan, round, tallies, what decides the battle now) that carries the tallies as
its buttons; the battleplan card is posted once; the set-up and "End battle round N" with its
confirmation are a few messages edited as the battle goes on.

Every word comes from the warcry catalogue (the cog's other modules, cogs/warcry/__init__.py lists them,
say the battle from the rules' codes and values): the table renders the thread in the server's
language and each press's answer in its player's; a public answer here speaks the server's language.
"""

from __future__ import annotations

from typing import Any, Literal

import discord
from discord import app_commands

from bot.app import MusterBot
from bot.chat.checks import channel_id_of, guild_id_of, require_manage, require_opponent
from bot.chat.errors import UserError
from bot.chat.limits import MODAL_TITLE, TEXT_INPUT_LABEL, fit
from bot.chat.render import embed as to_discord_embed
from bot.lang.i18n import Domain, speaking
from bot.lang.text import refusal
from bot.play.dice import RollContext
from bot.play.game_cog import GameCog
from bot.play.packs import read_attachment
from cogs.warcry.adapter import WarcryAdapter
from cogs.warcry.board import battleplan_embed, pack_summary, roll_off_text
from cogs.warcry.vocabulary import mention
from rules.errors import RuleError
from rules.session import Event
from rules.text import ECHO_CHARS, clip, echo, fit_lines
from rules.warcry.battlegroups import Split, shield_minimum, split_problems, split_refusal, valid_splits
from rules.warcry.battleplans import Kind, blocked_objective, roll_battleplan
from rules.warcry.models import SYSTEM, WarcryState
from rules.warcry.pack import WarcryPack, core_pack, parse_pack
from rules.warcry.setup import start
from rules.warcry.warband import MAX_ROSTER_CHARS, RosterError, WarbandReport, check_roster

_ = Domain("warcry")
PROBLEMS_SHOWN = 1500  # of a roster's problems in a check's answer: room left for the words around them
LINES_SHOWN = 10  # roster lines a refusal lists: enough to fix a paste, short enough to read
KindOption = Literal["matched", "champions", "generator", "generator-matched"]


# ---------------------------------------------------------------- the warband form


class RosterForm(discord.ui.Modal):
    """A roster typed in a form, in the words of the player who opened it."""

    def __init__(self) -> None:
        super().__init__(title=clip(_.p("title", "Check a Warcry warband"), MODAL_TITLE))
        self.roster: discord.ui.TextInput[RosterForm] = discord.ui.TextInput(
            label=clip(_.p("label", "One fighter a line: name, points, runemark"), TEXT_INPUT_LABEL),
            style=discord.TextStyle.paragraph,
            placeholder="Dominar, 135, Iron Golem, leader\nBreacher, 190, Iron Golem",
            max_length=4000,
        )
        self.add_item(self.roster)

    async def on_submit(self, interaction: discord.Interaction[Any]) -> None:
        try:
            answer = warband_answer(self.roster.value)
        except RuleError as error:
            answer = roster_refusal(error)
        await interaction.response.send_message(**fit(content=answer, ephemeral=True))


def worded(code: str, values: dict[str, str | int]) -> str:
    """A code-keyed sentence (a muster rule broken, a roster line unread) in the language in force."""
    return refusal(RuleError(code=code, **values))


def roster_refusal(error: RuleError) -> str:
    """Why a roster can't be read, each unreadable line said in the language in force."""
    if isinstance(error, RosterError) and error.lines:
        listed = "\n".join(
            "- "
            + _(
                "line {number} ({text}): {problem}",
                number=line.number,
                text=f"`{line.text}`",
                problem=worded(line.problem.code, line.problem.values),
            )
            for line in error.lines[:LINES_SHOWN]
        )
        error = RuleError(code=error.code, **{**error.params, "lines": listed})
    return refusal(error)


def _report_head(report: WarbandReport) -> str:
    leaders = ", ".join(report.leaders) or _("none")
    return (
        ", ".join(
            [
                _.n("{count} fighter", "{count} fighters", len(report.fighters)),
                _.n("{count} point", "{count} points", report.total_points),
                _.n(
                    "runemark {names}",
                    "runemarks {names}",
                    len(report.factions),
                    names=", ".join(report.factions),
                ),
                _.n("leader: {names}", "leaders: {names}", len(report.leaders), names=leaders),
            ]
        )
        + "."
    )


def warband_answer(text: str) -> str:
    report = check_roster(text)
    head = _report_head(report)
    if report.ok:
        return _("✅ This warband can be mustered: {summary}", summary=head)
    broken = [worded(p.code, p.values) for p in report.problems] or report.violations
    problems = fit_lines([f"• {v}" for v in broken], PROBLEMS_SHOWN)
    return _.n(
        "❌ This warband breaks {count} muster rule:\n{problems}\n({summary})",
        "❌ This warband breaks {count} muster rules:\n{problems}\n({summary})",
        len(broken),
        problems=problems,
        summary=head,
    )


# ---------------------------------------------------------------- the cog


class Warcry(
    GameCog[WarcryState], group_name="warcry", group_description="Warcry battleplans, warbands and battles"
):
    adapter = WarcryAdapter()
    pack = app_commands.Group(name="pack", description="This server's own Warcry cards")

    @app_commands.command(
        name="battleplan", description="Roll a battleplan (matched, champions or the card decks)"
    )
    @app_commands.describe(kind="matched: D6 table · champions: D3 table · generator: one card per deck")
    @app_commands.guild_only()
    async def battleplan(
        self, interaction: discord.Interaction[MusterBot], kind: KindOption = "matched"
    ) -> None:
        pack: WarcryPack = await self.server_pack(guild_id_of(interaction), interaction.channel_id)
        roller = self.bot.dice.roller()
        plan = roll_battleplan(kind, pack, roller)
        with speaking(await self.bot.languages.of_server(interaction.guild_id)):  # everyone sees it
            card = to_discord_embed(battleplan_embed(plan))
        await interaction.response.send_message(
            **fit(embed=card, allowed_mentions=discord.AllowedMentions.none())
        )
        self.bot.dice.audit_later(
            roller, RollContext(interaction.guild_id, interaction.channel_id, interaction.user.id)
        )

    @app_commands.command(
        name="blocked-objective",
        description="Roll off for who places an objective or treasure that terrain blocks",
    )
    @app_commands.describe(opponent="The other player")
    @app_commands.guild_only()
    async def blocked(self, interaction: discord.Interaction[MusterBot], opponent: discord.User) -> None:
        require_opponent(interaction, opponent)
        roller = self.bot.dice.roller()
        roll = blocked_objective(roller, (interaction.user.id, opponent.id))
        with speaking(await self.bot.languages.of_server(interaction.guild_id)):  # everyone sees it
            text = (
                roll_off_text(roll)
                + "\n"
                + _(
                    '**{player} wins** and places the blocked objective or treasure token within 1" '
                    "horizontally "
                    "of its spot, on the battlefield floor or a platform.",
                    player=mention(roll.winner),
                )
            )
        await interaction.response.send_message(text, allowed_mentions=discord.AllowedMentions.none())
        self.bot.dice.audit_later(
            roller, RollContext(interaction.guild_id, interaction.channel_id, interaction.user.id)
        )

    @app_commands.command(name="warband", description="Check a roster against the Warcry muster rules")
    @app_commands.describe(roster="A text file, one fighter a line: name, points, faction runemark, leader")
    async def warband(
        self, interaction: discord.Interaction[MusterBot], roster: discord.Attachment | None = None
    ) -> None:
        if roster is None:
            await interaction.response.send_modal(RosterForm())
            return
        text = await read_attachment(roster, limit=MAX_ROSTER_CHARS)
        try:
            answer = warband_answer(text)
        except RuleError as error:
            raise UserError(roster_refusal(error)) from None
        await interaction.response.send_message(**fit(content=answer, ephemeral=True))

    @app_commands.command(
        name="battlegroups", description="Check a Dagger/Shield/Hammer split, or list the valid ones"
    )
    @app_commands.describe(
        fighters="Fighters in the warband",
        dagger="Fighters in the Dagger",
        shield="Fighters in the Shield",
        hammer="Fighters in the Hammer",
    )
    async def battlegroups(
        self,
        interaction: discord.Interaction[MusterBot],
        fighters: app_commands.Range[int, 0, 100],
        dagger: app_commands.Range[int, 0, 100] | None = None,
        shield: app_commands.Range[int, 0, 100] | None = None,
        hammer: app_commands.Range[int, 0, 100] | None = None,
    ) -> None:
        given = [g for g in (dagger, shield, hammer) if g is not None]
        if given and len(given) != 3:
            raise UserError(
                _("Give all three groups (dagger, shield and hammer), or none to list the valid splits.")
            )
        if dagger is not None and shield is not None and hammer is not None:
            split = Split(dagger=dagger, shield=shield, hammer=hammer)
            problems = split_problems(fighters, split)
            if problems:
                raise split_refusal(problems)
            await interaction.response.send_message(
                _.n(
                    "✅ Dagger {dagger}, Shield {shield}, Hammer {hammer} is a valid split of {count} "
                    "fighter.",
                    "✅ Dagger {dagger}, Shield {shield}, Hammer {hammer} is a valid split of {count} "
                    "fighters.",
                    fighters,
                    dagger=dagger,
                    shield=shield,
                    hammer=hammer,
                ),
                ephemeral=True,
            )
            return
        splits = valid_splits(fighters)
        if not splits:
            raise split_problems(fighters, Split(dagger=0, shield=0, hammer=0))[0].error()

        listing = "\n".join(
            _(
                "Dagger {dagger} · Shield {shield} · Hammer {hammer}",
                dagger=s.dagger,
                shield=s.shield,
                hammer=s.hammer,
            )
            for s in splits
        )
        said = _(
            "Valid splits of {fighters} fighters (each group 1 to {half}, Shield at least "
            "{minimum}):\n{listing}",
            fighters=fighters,
            half=fighters // 2,
            minimum=shield_minimum(fighters),
            listing=listing,
        )
        await interaction.response.send_message(**fit(content=said, ephemeral=True))

    @app_commands.command(name="battle", description="Open a tracked Warcry battle against another player")
    @app_commands.describe(
        opponent="Who you fight",
        kind="How the battleplan is decided",
        battleplan="Or name a matched or Test of Champions battleplan to play",
    )
    @app_commands.guild_only()
    async def battle(
        self,
        interaction: discord.Interaction[MusterBot],
        opponent: discord.User,
        kind: KindOption = "matched",
        battleplan: str | None = None,
    ) -> None:
        require_opponent(interaction, opponent)
        if battleplan is not None and len(battleplan) > ECHO_CHARS:
            # names are at most 80 characters: this one can only be refused, so keep its echo short
            battleplan = echo(battleplan)
        guild, channel = guild_id_of(interaction), channel_id_of(interaction)
        me = interaction.user.id
        await self.bot.sessions.refuse_second_game(guild, channel, SYSTEM, me, opponent.id)
        pack: WarcryPack = await self.server_pack(guild, channel)
        names = {me: interaction.user.display_name, opponent.id: opponent.display_name}
        plan_kind: Kind = kind

        def build(session_id: str, roller: Any) -> tuple[WarcryState, list[Event]]:
            return start(
                session_id,
                (me, opponent.id),
                roller,
                kind=plan_kind,
                pack=pack,
                battleplan=battleplan,
                names=names,
            )

        await self.open_game(
            interaction, opponent, build, title=f"Warcry: {names[me]} vs {names[opponent.id]}"
        )

    @battle.autocomplete("battleplan")
    async def battleplan_names(
        self, interaction: discord.Interaction[MusterBot], current: str
    ) -> list[app_commands.Choice[str]]:
        return self.choices(((b.name, b.name) for b in core_pack().battleplans), current)

    @pack.command(name="load", description="Load this server's own Warcry cards (YAML file; Manage Server)")
    @app_commands.describe(file="A YAML pack: name, mode (add or replace) and decks")
    @app_commands.guild_only()
    async def pack_load(self, interaction: discord.Interaction[MusterBot], file: discord.Attachment) -> None:
        merged = await self.bot.packs.load(interaction, SYSTEM, file, parse_pack)
        await interaction.response.send_message(
            **fit(content=_("Pack loaded.") + "\n" + pack_summary(merged), ephemeral=True)
        )

    @pack.command(name="show", description="What this server's Warcry decks hold")
    @app_commands.guild_only()
    async def pack_show(self, interaction: discord.Interaction[MusterBot]) -> None:
        pack: WarcryPack = await self.server_pack(guild_id_of(interaction), interaction.channel_id)
        await interaction.response.send_message(**fit(content=pack_summary(pack), ephemeral=True))

    @pack.command(name="clear", description="Go back to the core Warcry data (Manage Server)")
    @app_commands.guild_only()
    async def pack_clear(self, interaction: discord.Interaction[MusterBot]) -> None:
        require_manage(interaction)
        removed = await self.bot.packs.delete(guild_id_of(interaction), SYSTEM)
        await interaction.response.send_message(
            _("This server's Warcry pack was removed.")
            if removed
            else _("This server had no Warcry pack loaded."),
            ephemeral=True,
        )
