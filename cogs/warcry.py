"""/warcry: battleplans, the blocked-objective roll-off, warband and battle-group checks, packs, battles.

A thin adapter: slash-command options become rules calls (rules/warcry), events become lines, and
every button or menu answers one of the battle's questions (rules/warcry/questions.py), whose clicks
the router checks and steps like any game's. A battle is played at the shared table (bot/table.py):
`/warcry battle` posts a start card and the battle runs in a thread opened from it, on one board
edited in place (battleplan, round, tallies, what decides the battle now) that carries the tallies as
its buttons; the battleplan card is posted once; the set-up and "End battle round N" with its
confirmation are a few messages edited as the battle goes on.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
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
from bot.render import embed as to_discord_embed
from bot.text import add_words, refusal
from cogs.warcry_text import ENGLISH, EXTRA_ROUND, LAST_WARBAND_DECIDES, NOTICES, QUESTION_TEXT
from rules.dice import Roller
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
from rules.warcry.events import Notice, describe_roll_off, fill
from rules.warcry.models import DECK_NAMES, WarcryPack
from rules.warcry.pack import core_pack, empty_decks, parse_pack
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


def describe(event: Event) -> str | None:
    """One public line for an event (with the dice of a roll-off), in the bot's own words where the
    battle leaves the wording to the cog; None for what the questions already say."""
    if not isinstance(event, Notice) or event.code == "prompt":
        return None
    words = NOTICES.get(event.code)
    text = fill(words, event.who, mention).format(**event.values) if words else event.render(mention)
    if event.roll_off is not None:
        text = f"{roll_off_text(event.roll_off)}\n{text}"
    return text


def board_embed(state: WarcryState) -> Embed:
    """The battle at a glance: battleplan and round, colours, the battleplan's tallies, priority, and
    what decides the battle now (past the extra round: the last warband standing)."""
    a, b = state.players
    card = Embed(title=f"Warcry: {state.label_of(a)} vs {state.label_of(b)}", colour=COLOUR)
    lines = scoreboard(state, mention)
    if state.battleplan is not None:
        lines[0] = f"**{lines[0]}**"  # the battleplan and round head the board
    priority = state.priority
    lines.append(f"Priority: {mention(priority.winner)} ({DICE} {describe_roll_off(priority, mention)})")
    card.description = "\n".join(lines)
    if not state.finished and state.last_warband_decides:
        card.add("Victory", LAST_WARBAND_DECIDES)
    elif not state.finished and state.extra_rounds:
        card.add("Victory", EXTRA_ROUND)
    card.add("Now", prompt(state, mention))
    return card


class WarcryAdapter(GameAdapter[WarcryState]):
    procedure = PROCEDURE
    title = "Warcry"
    start_command = "/warcry battle"
    help = (
        "`/warcry battleplan` · `/warcry battle @opponent` tracks a battle · `/warcry warband` checks "
        "a roster · `/warcry battlegroups`"
    )
    pack = PackSpec(parse=parse_pack, shipped=core_pack)
    colour = COLOUR

    def quick_start(
        self,
        session_id: str,
        players: Sequence[int],
        roller: Roller,
        pack: WarcryPack | None,
        names: Mapping[int, str] | None = None,
    ) -> tuple[WarcryState, list[Event]]:
        """A club night's battle, as `/warcry battle` opens it by default: a rolled matched battleplan."""
        return start(session_id, players, roller, kind="matched", pack=pack, names=dict(names or {}))

    def board(self, info: SessionInfo, state: WarcryState) -> Embed:
        return board_embed(state)

    def lines(self, info: SessionInfo, state: WarcryState, events: list[Event]) -> list[str]:
        return [line for event in events if (line := describe(event))]

    def moments(self, info: SessionInfo, state: WarcryState, events: list[Event]) -> list[Outgoing]:
        """The battleplan card, with every die rolled to decide it, stays readable in the thread."""
        return [
            Outgoing(embeds=[battleplan_embed(event.battleplan)])
            for event in events
            if isinstance(event, Notice) and event.battleplan is not None
        ]

    def question_text(self, state: WarcryState, asked: Question) -> str:
        lines = [f"**{asked.title}**"]
        if asked.topic == "warcry.confirm" and state.pending is not None:
            lines.append(f"{mention(state.pending.by)} pressed it.")
        if asked.text:
            lines.append(asked.text)
        if asked.topic in QUESTION_TEXT:
            lines.append(QUESTION_TEXT[asked.topic])
        return "\n".join(lines)

    def reply(self, info: SessionInfo, state: WarcryState, events: list[Event], actor: int) -> Reply:
        """What the press did ("Bob's blood tally for battle round 1: 80."), else where the battle is."""
        said = self.lines(info, state, events)
        return Reply(content="\n".join(said)[:1900] or prompt(state, mention))

    def summary(self, info: SessionInfo, state: WarcryState) -> str:
        plan = state.battleplan.name if state.battleplan else "battleplan not drawn yet"
        return f"Warcry — {plan}: {prompt(state, mention)}"


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
