"""/warcry: battleplans, the blocked-objective roll-off, warband and battle-group checks, packs, battles.

A thin adapter: options and clicks become rules calls (rules/warcry), events become messages.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands
from pydantic import ValidationError

from bot.app import MusterBot
from bot.checks import channel_id_of, guild_id_of, require_manage, require_opponent
from bot.dice import RollContext
from bot.errors import UserError
from bot.games import Click, GameAdapter, SessionInfo
from bot.limits import fit
from bot.messages import Button, Embed, Modal, ModalField, Outgoing, Reply, Select, SelectOption
from bot.packs import read_attachment
from bot.render import embed as to_discord_embed
from bot.text import add_words, refusal
from cogs.warcry_text import ENGLISH
from rules.errors import RuleError
from rules.session import Action, Event
from rules.text import ECHO_CHARS, echo, fit_lines
from rules.warcry import actions as act
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
from rules.warcry.pack import PackError, core_pack, empty_decks, parse_pack
from rules.warcry.views import dormant_objectives, legal_actions, prompt, scoreboard
from rules.warcry.warband import MAX_ROSTER_CHARS, check_roster

log = logging.getLogger(__name__)

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


def _whole(text: str, low: int, high: int, what: str) -> int:
    cleaned = text.strip()
    try:
        value = int(cleaned)
    except ValueError:
        raise RuleError(
            code="warcry.entry_not_number", what=what, minimum=low, maximum=high, text=cleaned[:20]
        ) from None
    if not low <= value <= high:
        raise RuleError(code="warcry.entry_range", what=what, minimum=low, maximum=high, number=value)
    return value


def _player_arg(state: WarcryState, arg: str) -> int | None:
    if arg == "none":
        return None
    if not arg.isdigit() or int(arg) not in state.players:
        raise RuleError(code="warcry.no_such_player")
    return int(arg)


# number entries: action -> (form title, field label, maximum)
NUMBER_FORMS: dict[str, tuple[str, str, int]] = {
    "treasure": ("Fighters carrying treasure", "How many fighters carry treasure?", 15),
    "near": ('Fighters within 3" of the relic', 'How many fighters are within 3"?', 15),
    "quarters": ("Quarters captured", "How many quarters are held?", 4),
    "blood": ("Blood tally", "Points of enemy fighters taken down this round", 1000),
    "altar": ("Fighters on the altar", "How many fighters are on the altar?", 15),
    "champion_tally": ("Great champion's tally", "Damage to add to the tally", 200),
}


class WarcryAdapter(GameAdapter[WarcryState]):
    procedure = PROCEDURE
    title = "Warcry"
    start_command = "/warcry battle"
    help = (
        "`/warcry battleplan` · `/warcry battle @opponent` tracks a battle · `/warcry warband` checks "
        "a roster · `/warcry battlegroups`"
    )

    # ------------------------------------------------------------ clicks

    def action_for(self, info: SessionInfo, state: WarcryState, click: Click) -> Action | None:
        try:
            return self._action(state, click)
        except ValidationError:
            raise RuleError(code="warcry.entry_invalid") from None

    def _action(self, state: WarcryState, click: Click) -> Action | None:
        user, kind, arg = click.user_id, click.action, click.arg
        if kind == "split":
            numbers = [
                _whole(click.fields.get(g, ""), 0, 15, GROUP_TITLES[g])
                for g in ("dagger", "shield", "hammer")
            ]
            return act.SplitBattleGroups(actor=user, dagger=numbers[0], shield=numbers[1], hammer=numbers[2])
        if kind == "colour":
            return act.ChooseColour(actor=user, colour="red" if arg == "red" else "blue")
        if kind == "deploy":
            if arg not in GROUP_TITLES:
                raise RuleError(code="warcry.no_such_group")
            return act.Deploy(actor=user, group=arg)  # type: ignore[arg-type]
        if kind == "blocked":
            return act.RollBlockedObjective(actor=user)
        if kind == "begin":
            return act.BeginBattle(actor=user)
        if kind == "end_round":
            return act.EndRound(actor=user, round=_whole(arg or "0", 1, 99, "The round"))
        if kind == "initiative":
            return act.SetInitiative(actor=user, player=_required(_player_arg(state, arg)))
        if kind in NUMBER_FORMS:
            title, _, high = NUMBER_FORMS[kind]
            player = _required(_player_arg(state, arg))
            value = _whole(click.fields.get("value", ""), 1 if kind == "champion_tally" else 0, high, title)
            builders: dict[str, Callable[[], Action]] = {
                "treasure": lambda: act.SetTreasureCarriers(actor=user, player=player, count=value),
                "near": lambda: act.SetFightersNear(actor=user, player=player, count=value),
                "quarters": lambda: act.SetQuarters(actor=user, player=player, count=value),
                "blood": lambda: act.SetBloodTally(actor=user, player=player, points=value),
                "altar": lambda: act.SetOnAltar(actor=user, player=player, count=value),
                "champion_tally": lambda: act.AddChampionTally(actor=user, player=player, amount=value),
            }
            return builders[kind]()
        if kind == "carrier":
            return act.SetCarrier(actor=user, player=_player_arg(state, arg))
        if kind == "carrier_damage":
            return act.RollCarrierDamage(actor=user)
        if kind in ("awaken", "remove"):
            objective = (click.values or [arg])[0]
            if kind == "awaken":
                return act.AwakenObjective(actor=user, objective=objective)
            return act.RemoveObjective(actor=user, objective=objective)
        if kind == "control":
            objective, _, who = (click.values or [""])[0].partition("|")
            return act.SetControl(actor=user, objective=objective, player=_player_arg(state, who))
        if kind == "champion":
            name = click.fields.get("name", "").strip()
            if not name:
                raise RuleError(code="warcry.champion_unnamed")
            return act.NominateChampion(actor=user, player=_required(_player_arg(state, arg)), name=name[:60])
        if kind == "champion_down":
            return act.ChampionTakenDown(actor=user, player=_required(_player_arg(state, arg)))
        if kind == "condition":
            return act.SetConditionMet(actor=user, player=_player_arg(state, arg))
        if kind == "last_warband":
            return act.DeclareLastWarband(actor=user, player=_required(_player_arg(state, arg)))
        if kind == "answer":
            return act.AnswerLastWarband(actor=user, accept=arg == "yes")
        raise RuleError(code="warcry.unknown_button")

    def modal_for(self, info: SessionInfo, state: WarcryState, click: Click) -> Modal | None:
        if click.action == "split":
            return Modal(
                title="Split your warband",
                fields=[
                    ModalField(
                        key=g, label=f"Fighters in your {GROUP_TITLES[g]}", max_length=2, placeholder="3"
                    )
                    for g in ("dagger", "shield", "hammer")
                ],
            )
        who = self._name(state, int(click.arg)) if click.arg.isdigit() else ""
        if click.action in NUMBER_FORMS:
            title, label, high = NUMBER_FORMS[click.action]
            return Modal(
                title=f"{title}: {who}"[:45],
                fields=[
                    ModalField(key="value", label=label[:45], max_length=len(str(high)), placeholder="0")
                ],
            )
        if click.action == "champion":
            return Modal(
                title=f"Great champion: {who}"[:45],
                fields=[ModalField(key="name", label="Which fighter is the great champion?", max_length=60)],
            )
        return None

    # ------------------------------------------------------------ messages

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
        if state.finished:
            return Outgoing(key="scoreboard", embeds=[card])
        buttons, selects = self._controls(state)
        return Outgoing(key="scoreboard", embeds=[card], buttons=buttons, selects=selects)

    def _controls(self, state: WarcryState) -> tuple[list[Button], list[Select]]:
        """The buttons the current phase needs; either player's, since the scoreboard is shared."""
        kinds = set(legal_actions(state, state.players[0])) | set(legal_actions(state, state.players[1]))
        names = {p: self._name(state, p)[:20] for p in state.players}
        buttons: list[Button] = []
        selects: list[Select] = []
        if "split" in kinds:
            buttons.append(Button(label="Split battle groups", action="split", style="primary", modal=True))
        if "colour" in kinds:
            buttons += [
                Button(label="Take red", action="colour", arg="red", style="danger"),
                Button(label="Take blue", action="colour", arg="blue", style="primary"),
            ]
        if "deploy" in kinds:
            current = next(s for s in state.deployment if not s.done)
            buttons.append(
                Button(
                    label=f"{names[current.player]}: {GROUP_TITLES[current.group]} set up",
                    action="deploy",
                    arg=current.group,
                    style="primary",
                )
            )
        if "begin" in kinds:
            buttons.append(Button(label="Begin battle", action="begin", style="success"))
        if "blocked_objective" in kinds:
            buttons.append(Button(label="Blocked objective roll-off", action="blocked"))
        if "remove" in kinds:
            selects.append(
                Select(
                    action="remove",
                    placeholder="Remove which objective?",
                    options=[SelectOption(label=f"Objective {o}", value=o) for o in state.objectives],
                )
            )
        if "answer_last_warband" in kinds:
            buttons += [
                Button(
                    label="Confirm: only their warband is left", action="answer", arg="yes", style="success"
                ),
                Button(label="Reject the claim", action="answer", arg="no", style="danger"),
            ]
        if state.phase != "battle" or state.removal_by is not None or state.last_warband_claim is not None:
            return buttons, selects
        for player in state.players:
            if "initiative" in kinds and state.initiative != player:
                buttons.append(
                    Button(label=f"Initiative: {names[player]}", action="initiative", arg=str(player))
                )
        for kind, label in (
            ("treasure", "Treasure carriers"),
            ("near", 'Within 3"'),
            ("quarters", "Quarters"),
            ("blood", "Blood tally"),
            ("altar", "On the altar"),
        ):
            if kind in kinds:
                buttons += [
                    Button(label=f"{label}: {names[p]}", action=kind, arg=str(p), modal=True)
                    for p in state.players
                ]
        if "carrier" in kinds:
            buttons += [
                Button(label=f"Carrier: {names[p]}", action="carrier", arg=str(p)) for p in state.players
            ]
            buttons.append(Button(label="Carrier: nobody", action="carrier", arg="none"))
        if "carrier_damage" in kinds:
            buttons.append(Button(label="Roll carrier's D6 damage", action="carrier_damage", style="danger"))
        if "champion" in kinds:
            for p in state.players:
                champion = state.champions.get(p)
                if champion is None or not champion.on_battlefield:
                    buttons.append(
                        Button(label=f"Name champion: {names[p]}", action="champion", arg=str(p), modal=True)
                    )
                else:
                    buttons += [
                        Button(
                            label=f"Add to tally: {names[p]}", action="champion_tally", arg=str(p), modal=True
                        ),
                        Button(label=f"Champion down: {names[p]}", action="champion_down", arg=str(p)),
                    ]
        if "condition" in kinds:
            buttons += [
                Button(label=f"Condition met: {names[p]}", action="condition", arg=str(p))
                for p in state.players
            ]
            buttons.append(Button(label="Condition met: nobody", action="condition", arg="none"))
        if "awaken" in kinds:
            dormant = dormant_objectives(state)
            if dormant:
                selects.append(
                    Select(
                        action="awaken",
                        placeholder="Awaken a dormant objective",
                        options=[SelectOption(label=f"Objective {o}", value=o) for o in dormant],
                    )
                )
        if "control" in kinds:
            scoring = [
                o
                for o in state.objectives
                if state.battleplan is not None
                and (state.battleplan.scoring != "ley_lines" or o in state.awakened)
            ]
            options = [
                SelectOption(label=f"{o}: {who}", value=f"{o}|{arg}")
                for o in scoring
                for who, arg in (*((names[p], str(p)) for p in state.players), ("nobody", "none"))
            ]
            if options:
                selects.append(
                    Select(action="control", placeholder="Who controls an objective?", options=options[:25])
                )
        if "last_warband" in kinds:
            buttons += [
                Button(label=f"Only {names[p]}'s warband is left", action="last_warband", arg=str(p))
                for p in state.players
            ]
        buttons.append(
            Button(
                label=f"End battle round {state.round}",
                action="end_round",
                arg=str(state.round),
                style="success",
            )
        )
        return buttons, selects


def _required(player: int | None) -> int:
    if player is None:
        raise RuleError(code="warcry.name_a_player")
    return player


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
    commands.GroupCog, group_name="warcry", group_description="Warcry battleplans, warbands and battles"
):
    pack = app_commands.Group(name="pack", description="This server's own Warcry cards")

    def __init__(self, bot: MusterBot) -> None:
        self.bot = bot
        super().__init__()

    async def cog_load(self) -> None:
        self.bot.games.register(WarcryAdapter())

    async def server_pack(self, guild_id: int) -> WarcryPack:
        text = await self.bot.packs.get(guild_id, SYSTEM)
        if not text:
            return core_pack()
        try:
            return parse_pack(text)
        except PackError:
            log.warning("stored Warcry pack of guild %s no longer validates; using the core pack", guild_id)
            return core_pack()

    @app_commands.command(
        name="battleplan", description="Roll a battleplan (matched, champions or the card decks)"
    )
    @app_commands.describe(kind="matched: D6 table · champions: D3 table · generator: one card per deck")
    @app_commands.guild_only()
    async def battleplan(
        self, interaction: discord.Interaction[MusterBot], kind: KindOption = "matched"
    ) -> None:
        pack = await self.server_pack(guild_id_of(interaction))
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
        pack = await self.server_pack(guild)
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
        wanted = current.casefold()
        return [
            app_commands.Choice(name=b.name, value=b.name)
            for b in core_pack().battleplans
            if wanted in b.name.casefold()
        ][:25]

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
        pack = await self.server_pack(guild_id_of(interaction))
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
