"""/warcry: battleplans, the blocked-objective roll-off, warband and battle-group checks, packs, battles.

A thin adapter: slash-command options become rules calls (rules/warcry), events become messages,
and every button or menu answers one of the battle's questions (rules/warcry/questions.py), whose
clicks the router checks and steps like any game's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

import discord
from discord import app_commands

from bot.app import MusterBot
from bot.checks import channel_id_of, guild_id_of, require_manage, require_opponent
from bot.dice import RollContext
from bot.errors import UserError
from bot.game_cog import GameCog
from bot.games import GameAdapter, PackSpec, SessionInfo
from bot.limits import fit
from bot.messages import Embed, Outgoing, Reply
from bot.packs import read_attachment
from bot.questions import components
from bot.render import embed as to_discord_embed
from bot.table import AutoAnswer
from bot.text import add_words, refusal
from cogs.warcry_text import ENGLISH
from rules.errors import RuleError
from rules.session import Event, Question
from rules.text import ECHO_CHARS, echo, fit_lines
from rules.warcry.battle import GROUP_TITLES, PROCEDURE, SYSTEM, WarcryState, start
from rules.warcry.battlegroups import Split, shield_minimum, split_problems, valid_splits
from rules.warcry.battleplans import (
    BattleplanInPlay,
    Kind,
    RollOffShown,
    blocked_objective,
    roll_battleplan,
)
from rules.warcry.events import Notice, describe_roll_off
from rules.warcry.models import DECK_NAMES, WarcryPack
from rules.warcry.pack import core_pack, empty_decks, parse_pack
from rules.warcry.questions import questions
from rules.warcry.views import prompt, scoreboard
from rules.warcry.warband import MAX_ROSTER_CHARS, check_roster

add_words(ENGLISH)

KindOption = Literal["matched", "champions", "generator", "generator-matched"]
COLOUR = 0x7A1F1F
DICE = "🎲"


def mention(player: int) -> str:
    return f"<@{player}>"


# ---------------------------------------------------------------- rendering


def battleplan_embed(plan: BattleplanInPlay, name_of: Callable[[int], str] = mention) -> Embed:
    """The battleplan as an embed, with every die the bot rolled to decide it."""
    card = Embed(title=f"Battleplan: {plan.name}", colour=COLOUR, description=plan.table or None)
    if plan.dice:
        card.add("Dice", "\n".join(f"{DICE} {d.describe()}" for d in plan.dice))
    card.add("Victory condition", plan.victory or "—")
    placed = []
    if plan.objectives:
        labels = f" ({', '.join(plan.objective_labels)})" if plan.objective_labels else ""
        placed.append(f"{plan.objectives} objective{'s' if plan.objectives > 1 else ''}{labels}")
    if plan.treasure:
        placed.append(f"{plan.treasure} treasure token{'s' if plan.treasure > 1 else ''}")
    deployment = plan.deployment or "—"
    if placed:
        deployment += "\nPlaced: " + " and ".join(placed) + "."
    if plan.deployment_map and plan.deployment_map.has_reserves():
        reserves = [
            f"{colour} {GROUP_TITLES[g]}: {points.arrival(g)}"
            for colour, points in (("Red", plan.deployment_map.red), ("Blue", plan.deployment_map.blue))
            for g in GROUP_TITLES
            if points.arrival(g) != "start"
        ]
        deployment += "\nIn reserve: " + ", ".join(reserves) + "."
    card.add("Deployment", deployment)
    card.add("Terrain", plan.terrain or "—")
    card.add("Twist", plan.twist)
    for ability in plan.abilities:
        cost = f" ({ability.cost})" if ability.cost and ability.cost != "rule" else ""
        card.add(f"{ability.name}{cost}", ability.summary)
    if plan.notes:
        card.footer = " ".join(plan.notes)
    return card


def roll_off_text(roll: RollOffShown, name_of: Callable[[int], str] = mention) -> str:
    return f"{DICE} {describe_roll_off(roll, name_of)}"


def pack_summary(pack: WarcryPack) -> str:
    counts = pack.decks.counts()
    lines = [f"**{pack.name}**", "Decks: " + ", ".join(f"{deck} {counts[deck]}" for deck in DECK_NAMES)]
    empty = empty_decks(pack)
    if empty:
        lines.append(
            "Empty: " + ", ".join(empty) + ". No cards are invented: load a pack with "
            "`/warcry pack load` to deal from them."
        )
    return "\n".join(lines)


class WarcryAdapter(GameAdapter[WarcryState]):
    answers_only_choices = False  # not yet on the shared table
    procedure = PROCEDURE
    title = "Warcry"
    start_command = "/warcry battle"
    help = (
        "`/warcry battleplan` · `/warcry battle @opponent` tracks a battle · `/warcry warband` checks "
        "a roster · `/warcry battlegroups`"
    )
    pack = PackSpec(parse=parse_pack, shipped=core_pack)

    # ------------------------------------------------------------ messages

    def render_step(
        self,
        info: SessionInfo,
        before: WarcryState | None,
        after: WarcryState,
        events: list[Event],
        auto: list[AutoAnswer] | None = None,
    ) -> list[Outgoing]:
        """Not yet on the shared table: every step posts in the game's channel."""
        return self.render(info, after, events)

    def render(self, info: SessionInfo, state: WarcryState, events: list[Event]) -> list[Outgoing]:
        lines: list[str] = []
        embeds: list[Embed] = []
        for event in events:
            if not isinstance(event, Notice) or event.code == "prompt":
                continue
            text = event.render(mention)
            if event.roll_off is not None:
                text = f"{roll_off_text(event.roll_off)}\n{text}"
            if event.battleplan is not None:
                embeds.append(battleplan_embed(event.battleplan))
            lines.append(text)
        messages: list[Outgoing] = []
        if lines or embeds:
            messages.append(Outgoing(content="\n".join(lines), embeds=embeds))
        messages.append(self._scoreboard(state))
        messages += [question_message(q) for q in public_questions(state)]
        return messages

    def reply(self, info: SessionInfo, state: WarcryState, events: list[Event], actor: int) -> Reply:
        texts = [e.render(mention) for e in events if isinstance(e, Notice) and e.code != "prompt"]
        return Reply(content="\n".join(texts) or "Done.")

    def summary(self, info: SessionInfo, state: WarcryState) -> str:
        plan = state.battleplan.name if state.battleplan else "battleplan not drawn yet"
        return f"Warcry — {plan}: {prompt(state, mention)}"

    def _name(self, state: WarcryState, player: int) -> str:
        return state.names.get(player) or f"Player {state.players.index(player) + 1}"

    def _scoreboard(self, state: WarcryState) -> Outgoing:
        a, b = state.players
        card = Embed(title=f"Warcry: {self._name(state, a)} vs {self._name(state, b)}", colour=COLOUR)
        lines = scoreboard(state, mention)
        if state.battleplan is not None:
            lines[0] = f"**{lines[0]}**"  # the battleplan and round head the board
        card.description = "\n".join(lines)
        card.add("Now", prompt(state, mention))
        return Outgoing(key="scoreboard", embeds=[card])


# Questions open through several set-up steps: one message, edited in place as their step id moves
# on with the set-up (so a press from an earlier step is still refused), not a new one each step.
STANDING_TOPICS = frozenset({"warcry.blocked_objective"})


def public_questions(state: WarcryState) -> list[Question]:
    """What the battle asks in the channel now, each question once, in the battle's own order."""
    asked = {q.step for player in state.players for q in PROCEDURE.ask(state, player) if not q.private}
    return [q for q in questions(state) if q.step in asked]


def question_message(question: Question) -> Outgoing:
    """One channel message per question, keyed by its step: posted when the battle first asks it,
    then edited in place while it is asked (its options follow the tallies), never posted twice."""
    buttons, selects = components(question)
    content = f"{question.title}\n{question.text}" if question.text else question.title
    key = question.topic if question.topic in STANDING_TOPICS else question.step
    return Outgoing(key=f"question.{key}", content=content, buttons=buttons, selects=selects)


# ---------------------------------------------------------------- the warband form


class RosterForm(discord.ui.Modal, title="Check a Warcry warband"):
    roster: discord.ui.TextInput[RosterForm] = discord.ui.TextInput(
        label="One fighter a line: name, points, runemark",
        style=discord.TextStyle.paragraph,
        placeholder="Dominar, 135, Iron Golem, leader\nBreacher, 190, Iron Golem",
        max_length=4000,
    )

    async def on_submit(self, interaction: discord.Interaction[Any]) -> None:
        try:
            answer = warband_answer(self.roster.value)
        except RuleError as error:
            answer = refusal(error)
        await interaction.response.send_message(**fit(content=answer, ephemeral=True))


def warband_answer(text: str) -> str:
    report = check_roster(text)
    head = (
        f"{len(report.fighters)} fighters, {report.total_points} points, "
        f"runemark{'s' if len(report.factions) > 1 else ''} {', '.join(report.factions)}, "
        f"leader{'s' if len(report.leaders) != 1 else ''}: {', '.join(report.leaders) or 'none'}."
    )
    if report.ok:
        return f"✅ This warband can be mustered: {head}"
    problems = fit_lines([f"• {v}" for v in report.violations], 1500)
    return (
        f"❌ This warband breaks {len(report.violations)} muster "
        f"rule{'s' if len(report.violations) > 1 else ''}:\n{problems}\n({head})"
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
        await interaction.response.send_message(
            **fit(
                embed=to_discord_embed(battleplan_embed(plan)),
                allowed_mentions=discord.AllowedMentions.none(),
            )
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
        await interaction.response.send_message(
            f"{roll_off_text(roll)}\n**{mention(roll.winner)} wins** and places the blocked objective or "
            'treasure token within 1" horizontally of its spot, on the battlefield floor or a platform.',
            allowed_mentions=discord.AllowedMentions.none(),
        )
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
        await interaction.response.send_message(**fit(content=warband_answer(text), ephemeral=True))

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
                "Give all three groups (dagger, shield and hammer), or none to list the valid splits."
            )
        if dagger is not None and shield is not None and hammer is not None:
            split = Split(dagger=dagger, shield=shield, hammer=hammer)
            problems = split_problems(fighters, split)
            if problems:
                raise UserError(
                    "That split breaks the battle-group rules:\n"
                    + "\n".join(f"• {refusal(p.error())}" for p in problems)
                )
            await interaction.response.send_message(
                f"✅ Dagger {dagger}, Shield {shield}, Hammer {hammer} is a valid split of "
                f"{fighters} fighters.",
                ephemeral=True,
            )
            return
        splits = valid_splits(fighters)
        if not splits:
            raise split_problems(fighters, Split(dagger=0, shield=0, hammer=0))[0].error()

        listing = "\n".join(f"Dagger {s.dagger} · Shield {s.shield} · Hammer {s.hammer}" for s in splits)
        await interaction.response.send_message(
            **fit(
                content=f"Valid splits of {fighters} fighters (each group 1 to {fighters // 2}, "
                f"Shield at least {shield_minimum(fighters)}):\n{listing}",
                ephemeral=True,
            )
        )

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

        await self.bot.sessions.open(
            guild_id=guild,
            channel_id=channel,
            organiser_id=me,
            system=SYSTEM,
            build=build,
            title=f"Warcry: {names[me]} vs {names[opponent.id]}",
        )
        await interaction.response.send_message(
            "Battle opened: the priority roll and the scoreboard are below.", ephemeral=True
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
            **fit(content=f"Pack loaded.\n{pack_summary(merged)}", ephemeral=True)
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
            "This server's Warcry pack was removed." if removed else "This server had no Warcry pack loaded.",
            ephemeral=True,
        )


async def setup(bot: MusterBot) -> None:
    await bot.add_cog(Warcry(bot))
