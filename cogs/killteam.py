"""/killteam: Kill Team matched play run in a channel, with sealed bids and secrets in DMs.

A thin adapter: the rules live in rules/killteam. This file turns options and clicks into rules
actions, and events and prompts into messages. Public events go to the channel (in embeds, so
mentions name players without pinging them; only the players asked to act are pinged). Secret
questions (sealed bids, scouting, private Tac Op picks) go to each player's DMs; when DMs are closed
the platform shows the same prompt ephemerally behind an "Open my secret prompt" button.

Components carry the question's step id, so a click on an old question is refused by the rules:
`<kind>-<step with '.' written as '-'>` is the action, the arg an option index, amount or id.
"""

from __future__ import annotations

from functools import lru_cache

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import MusterBot
from bot.checks import channel_id_of, guild_id_of, require_manage, require_opponent
from bot.errors import UserError
from bot.games import Click, GameAdapter, SessionInfo
from bot.limits import fit
from bot.messages import Button, Embed, Modal, ModalField, Outgoing, Reply, Select, SelectOption
from bot.text import add_words
from cogs.killteam_text import ENGLISH
from rules.errors import RuleError
from rules.killteam import (
    PROCEDURE,
    Choose,
    Done,
    EndGame,
    EndTurningPoint,
    KillTeamPack,
    KillTeamState,
    PackError,
    PreviousGame,
    RevealTacOp,
    Score,
    SealBid,
    SealScouting,
    SetBattleReady,
    load_default_pack,
    parse_pack,
    private_prompt,
    private_view,
    prompt,
    scoreboard,
    start,
    supported_methods,
)
from rules.killteam import events as ev
from rules.killteam.hand import METHOD_LABELS
from rules.killteam.views import CAPS_TEXT
from rules.sealed import ChoiceSealed, ChoicesRevealed
from rules.session import Action, Event, Question

add_words(ENGLISH)

SYSTEM = PROCEDURE.system
COLOUR = 0x3B5B3B
MISSION_METHOD_LABELS = {
    "organised": "Organised",
    "random": "Random",
    "veto": "Veto",
    "control": "Control",
    "bid": "Bid",
}
TACOPS_LABELS: dict[str, str] = {str(key): label for key, label in METHOD_LABELS.items()}
MAX_BUTTON_CHOICES = 10
DONE_WORDS = {
    "equipment": "has picked their equipment",
    "a barricade": "has set up a barricade",
    "a group of operatives": "has set up a group of operatives",
    "their scouting": "has carried out their scouting pick",
}


def who(player: int) -> str:
    return f"<@{player}>"


# ---------------------------------------------------------------------- component ids


def action_id(kind: str, step: str) -> str:
    """`c-veto_missions-5`: the kind of answer and the step it answers (dots become dashes)."""
    return f"{kind}-{step.replace('.', '-')}"


def parse_action_id(action: str) -> tuple[str, str]:
    kind, _, code = action.partition("-")
    return kind, code.replace("-", ".")


def parse_bid(text: str) -> int:
    try:
        return int(text.strip())
    except ValueError:
        raise RuleError(code="killteam.bid_not_number") from None


def prompt_components(asked: Question, tokens: int | None = None) -> tuple[list[Button], list[Select]]:
    """Buttons or a menu for one question."""
    step = asked.step
    if asked.kind == "done":
        return [Button(label="Done", action=action_id("d", step), style="success")], []
    if asked.kind == "number":
        top = asked.number.maximum if asked.number else (tokens or 0)
        buttons = [
            Button(label=str(n), action=action_id("b", step), arg=str(n), style="primary")
            for n in range(top + 1)
        ]
        return [*buttons, Button(label="Type a bid…", action=action_id("b", step), modal=True)], []
    if asked.topic == "killteam.scouting":
        return [
            Button(label=o.label, action=action_id("o", step), arg=o.value, style="primary")
            for o in asked.options
        ], []
    if asked.topic == "killteam.battle":
        tp = step.rsplit(".", 1)[-1]
        return [
            Button(label=f"End turning point {tp}", action=action_id("e", step), style="success"),
            Button(label="Battle Ready painted (+2)", action=action_id("r", step), arg="on"),
            Button(label="Not Battle Ready", action=action_id("r", step), arg="off"),
        ], []
    if asked.kind != "choose" or not asked.options:
        return [], []
    if asked.max_values == 1 and len(asked.options) <= MAX_BUTTON_CHOICES:
        return [
            Button(
                label=o.label,
                action=action_id("c", step),
                arg=str(i),
                disabled=o.disabled,
                style="secondary" if o.disabled else "primary",
            )
            for i, o in enumerate(asked.options)
        ], []
    choices = [o for o in asked.options if not o.disabled][:25]
    select = Select(
        action=action_id("s", step),
        min_values=asked.min_values,
        max_values=asked.max_values,
        placeholder=f"Pick {asked.min_values}" if asked.min_values == asked.max_values else None,
        options=[
            SelectOption(label=o.label, value=o.value, description=(o.group or o.description or None))
            for o in choices
        ],
    )
    return [], [select]


# ---------------------------------------------------------------------- event lines


def _card(card: object) -> str:
    name = getattr(card, "name", "?")
    origin = getattr(card, "archetype", None) or getattr(card, "faction", None)
    return f"**{name}** ({origin})" if origin else f"**{name}**"


def _tokens(tokens: dict[int, int]) -> str:
    return ", ".join(f"{who(p)} {n}" for p, n in tokens.items())


def describe(event: Event, state: KillTeamState) -> str | None:
    """One public line per event, in the bot's own words."""
    match event:
        case ev.GameStarted():
            a, b = state.players
            return (
                f"Kill Team matched play: {who(a)} against {who(b)}. Mission and map by "
                f"**{MISSION_METHOD_LABELS.get(event.mission_method, event.mission_method)}**, Tac Ops by "
                f"**{TACOPS_LABELS.get(event.tacops_method, event.tacops_method)}** "
                f"(pack: {event.pack})."
            )
        case ev.Notice():
            return event.text
        case ev.RolledOff():
            a, b = event.players
            rolls = ", then ".join(f"{x}–{y}" for x, y in event.rounds)
            return (
                f"Roll-off ({event.purpose}): {who(a)} against {who(b)}, {rolls}: {who(event.winner)} wins."
            )
        case ev.SideChosen():
            return f"{who(event.attacker)} is the **attacker**; {who(event.defender)} is the **defender**."
        case ev.MissionsPutForward():
            return f"{who(event.by)} puts forward the missions {' and '.join(event.missions)}."
        case ev.MapsPutForward():
            return f"{who(event.by)} puts forward the maps {', '.join(event.maps)}."
        case ev.MapDiscarded():
            return f"{who(event.by)} discards {event.map}."
        case ev.MapGroupChosen():
            return f"{who(event.by)} picks the map type {event.group}."
        case ev.MissionChosen():
            by = f" ({who(event.by)}'s pick)" if event.by else ""
            return f"Mission: **{event.name}**{by}."
        case ev.MapChosen():
            by = f" ({who(event.by)}'s pick)" if event.by else ""
            return f"Map: **{event.label}**, type {event.group}{by}."
        case ev.KillzoneReady():
            return (
                f"Set up the objective markers and the killzone from map **{event.map}** for "
                f"**{event.mission}**."
            )
        case ev.DropZoneChosen():
            return f"{who(event.defender)} takes drop zone {event.zone}; the attacker has the other."
        case ev.FactionChosen():
            return (
                f"{who(event.player)} plays **{event.faction or 'a faction without Tac Ops in this pack'}**."
            )
        case ev.CommandPointsAdded():
            return f"Each player gains {event.amount} CP ({_tokens(event.totals)})."
        case ev.BidRoundOpened():
            again = f", round {event.round}" if event.round > 1 else ""
            return (
                f"Sealed **{event.label}**{again}. Tokens left: {_tokens(event.tokens)}. "
                "Each player bids in private (check your DMs)."
            )
        case ChoiceSealed():
            return f"{who(event.player)} has sealed their {event.label}. Commitment: `{event.commitment}`"
        case ChoicesRevealed():
            picks = ", ".join(
                f"{who(e.player)} **{_reveal_value(state, event.step, e.choice)}**" for e in event.entries
            )
            checks = "\n".join(
                f"• {who(e.player)}: choice `{e.choice}`, nonce `{e.nonce}`, commitment `{e.commitment}`"
                for e in event.entries
            )
            return (
                f"Revealed, the {event.label}: {picks}.\n"
                f"To check: `/verify` with game `{state.session_id}`, step `{event.step}` and\n{checks}"
            )
        case ev.BidTied():
            return f"Both bid {event.amount}: that bid is cancelled and nothing is spent. Bid again."
        case ev.BidWon():
            how = " after a roll-off" if event.rolled_off else ""
            return f"{who(event.winner)} wins the {event.label}{how}. Tokens left: {_tokens(event.tokens)}."
        case ev.TacOpsChosen():
            return f"{who(event.player)} has their three Tac Ops (kept secret)."
        case ev.TacOpRow():
            added = f" (added: {', '.join(c.name for c in event.added)})" if event.added else ""
            return f"Tac Ops row: {', '.join(_card(c) for c in event.row)}{added}."
        case ev.TacOpTaken():
            return f"{who(event.player)} takes {_card(event.card)}."
        case ev.ArchetypeChosen():
            return f"{who(event.by)} picks **{event.archetype}**: both players take their Tac Ops from it."
        case ev.TacOpPairOffered():
            return f"Tac Op pair {event.number}: {' or '.join(_card(c) for c in event.pair)}."
        case ev.TacOpRevealed():
            return f"{who(event.player)} reveals the Tac Op {_card(event.card)}."
        case ev.PlayerDone():
            return f"{who(event.player)} {DONE_WORDS.get(event.what, 'is done with ' + event.what)}."
        case ev.ScoutingRevealed():
            order = " then ".join(who(p) for p in event.order)
            return f"Scouting is resolved in this order: {order}."
        case ev.InitiativeDecided():
            ways = {
                "bid": "decided by bid",
                "scouting": "from the scouting picks",
                "roll-off": "after a roll-off",
            }
            return (
                f"{who(event.player)} has the initiative in turning point 1 "
                f"({ways.get(event.how, event.how)})."
            )
        case ev.TurningPointStarted():
            return f"**Turning point {event.turning_point}** begins."
        case ev.VictoryPointsScored():
            return (
                f"{who(event.player)}: {event.amount:+d} VP ({event.what}) in turning point "
                f"{event.turning_point}; total {event.total}."
            )
        case ev.TurningPointEnded():
            return f"{who(event.player)} has ended turning point {event.turning_point}."
        case ev.GameEnded():
            outcome = event.outcome
            if outcome.winner is None:
                return f"**The battle is over: a draw.** {outcome.summary}"
            return f"**The battle is over: {who(outcome.winner)} wins.** {outcome.summary}"
    return None


def _reveal_value(state: KillTeamState, step: str, choice: str) -> str:
    if step == "scouting":
        option = state.pack.scouting_option(choice)
        return option.name if option else choice
    return f"{choice} token{'s' if choice != '1' else ''}"


def describe_private(event: Event) -> str | None:
    match event:
        case ev.TacOpsDrawn():
            return f"You drew {' and '.join(_card(c) for c in event.cards)}."
        case ev.TacOpsSetAside():
            return f"{' and '.join(_card(c) for c in event.cards)}: {event.reason}"
        case ev.TacOpKept():
            gone = f", discarding {', '.join(c.name for c in event.discarded)}" if event.discarded else ""
            return f"You keep {_card(event.card)}{gone}."
        case ev.TacOpsHand():
            return (
                f"Your secret Tac Ops: {', '.join(_card(c) for c in event.cards)}. Reveal one with "
                "`/killteam reveal-tacop` when its card says so."
            )
        case ev.Notice():
            return event.text
    return None


# ---------------------------------------------------------------------- embeds


def scoreboard_embed(state: KillTeamState) -> Embed:
    board = scoreboard(state)
    title = f"Kill Team: {board.mission or '?'} on {board.map or '?'}"
    if board.finished:
        status = "A draw." if board.draw else f"{who(board.winner or 0)} wins."
    else:
        status = f"Turning point {board.turning_point} of 4"
    if board.first_initiative:
        status += f" · first initiative: {who(board.first_initiative)}"
    embed = Embed(title=title, description=status, colour=COLOUR, footer=CAPS_TEXT)
    for side in board.sides:
        lines = [who(side.player) + (f" ({side.role})" if side.role else "")]
        if side.faction:
            lines.append(f"Faction: {side.faction}")
        lines.append(f"CP gained: {side.cp}")
        lines.append(f"Mission VP: {' · '.join(str(v) for v in side.mission_vp)} (**{side.mission_total}**)")
        ops = [f"{t.name} {t.vp}" for t in side.tac_ops]
        if side.hidden_tac_ops:
            ops.append(f"{side.hidden_tac_ops} secret")
        if ops:
            lines.append(f"Tac Ops: {', '.join(ops)}")
        if side.battle_ready:
            lines.append("Battle Ready painted: +2")
        lines.append(f"Total: **{side.total}**")
        embed.add(
            "Attacker" if side.role == "attacker" else "Defender" if side.role else "Player",
            "\n".join(lines),
            inline=True,
        )
    return embed


def prompt_text(asked: Question) -> str:
    lines = [f"**{asked.title}**", asked.text]
    described = [
        f"• **{o.label}**: {o.description}" for o in asked.options if o.description and not o.disabled
    ]
    if asked.topic == "killteam.scouting" and described:
        lines += described
    return "\n".join(lines)


def private_reply(state: KillTeamState, user_id: int) -> Reply | None:
    """The player's own secret prompt (with its components) and their Tac Ops."""
    view = private_view(state, user_id)
    parts: list[str] = []
    if view.tac_ops:
        cards = ", ".join(
            f"**{c.name}** ({c.archetype or c.faction})" + (" (revealed)" if c.revealed else "")
            for c in view.tac_ops
        )
        parts.append(f"Your Tac Ops: {cards}.")
    if view.sealed_choice is not None:
        parts.append(f"You have sealed: {view.sealed_choice}. It stays hidden until both have sealed.")
    buttons: list[Button] = []
    selects: list[Select] = []
    if view.prompt is not None:
        parts.append(prompt_text(view.prompt))
        buttons, selects = prompt_components(view.prompt, view.tokens)
    if not parts:
        return None
    return Reply(
        embeds=[Embed(title="Kill Team: only for you", description="\n\n".join(parts)[:4000], colour=COLOUR)],
        buttons=buttons,
        selects=selects,
    )


# ---------------------------------------------------------------------- the adapter


class KillTeamAdapter(GameAdapter[KillTeamState]):
    procedure = PROCEDURE
    title = "Kill Team"
    start_command = "/killteam start"
    aliases = ("kill-team", "kt")
    help = (
        "`/killteam start @opponent` runs the matched-play sequence: mission and map, sealed bids "
        "and scouting in DMs, Tac Ops, scoring with the caps"
    )

    def action_for(self, info: SessionInfo, state: KillTeamState, click: Click) -> Action | None:
        kind, step = parse_action_id(click.action)
        user = click.user_id
        if kind == "c":
            asked = private_prompt(state, user) or prompt(state)
            value = "?"
            if asked.step == step and click.arg.isdigit() and int(click.arg) < len(asked.options):
                value = asked.options[int(click.arg)].value
            return Choose(actor=user, step=step, values=[value])
        if kind == "s":
            return Choose(actor=user, step=step, values=list(click.values) or ["?"])
        if kind == "d":
            return Done(actor=user, step=step)
        if kind == "b":
            amount = parse_bid(click.fields.get("bid", click.arg))
            return SealBid(actor=user, step=step, amount=amount, nonce=click.nonce)
        if kind == "o":
            return SealScouting(actor=user, step=step, option=click.arg, nonce=click.nonce)
        if kind == "e":
            tp = step.rsplit(".", 1)[-1]
            return EndTurningPoint(actor=user, turning_point=int(tp) if tp.isdigit() else 0)
        if kind == "r":
            return SetBattleReady(actor=user, painted=click.arg == "on")
        raise RuleError(code="killteam.unknown_button")

    def modal_for(self, info: SessionInfo, state: KillTeamState, click: Click) -> Modal | None:
        kind, _ = parse_action_id(click.action)
        view = private_view(state, click.user_id)
        if kind != "b" or view.prompt is None or view.prompt.kind != "number":
            return None
        left = view.tokens or 0
        return Modal(
            title="Your sealed bid",
            fields=[
                ModalField(key="bid", label=f"Tokens to bid (0 to {left})", placeholder="0", max_length=5)
            ],
        )

    def render(self, info: SessionInfo, state: KillTeamState, events: list[Event]) -> list[Outgoing]:
        out: list[Outgoing] = []
        lines = [line for e in events if e.private_to is None and (line := describe(e, state))]
        if lines:
            out.append(self._channel_message(state, lines))
        if state.macro in ("battle", "finished") and any(isinstance(e, BOARD_EVENTS) for e in events):
            out.append(Outgoing(key="scoreboard", embeds=[scoreboard_embed(state)]))
        for player in state.players:
            mine = [e for e in events if e.private_to == player]
            if mine:
                out.append(self._dm(info, state, player, mine))
        return out

    def _channel_message(self, state: KillTeamState, lines: list[str]) -> Outgoing:
        now = prompt(state)
        text = "\n".join(lines)
        buttons: list[Button] = []
        selects: list[Select] = []
        content = ""
        if not state.finished:
            text += "\n\n" + prompt_text(now)
            if now.sealed or now.private:
                text += "\n*(Answer in your DMs; if they are closed, use the button the bot posts here.)*"
            else:
                buttons, selects = prompt_components(now)
            content = " ".join(who(p) for p in now.players)
        return Outgoing(
            content=content,
            embeds=[Embed(description=text[-4000:], colour=COLOUR)],
            buttons=buttons,
            selects=selects,
        )

    def _dm(self, info: SessionInfo, state: KillTeamState, player: int, mine: list[Event]) -> Outgoing:
        lines = [line for e in mine if (line := describe_private(e))]
        asked = any(isinstance(e, ev.SecretAsked) for e in mine)
        buttons: list[Button] = []
        selects: list[Select] = []
        view = private_view(state, player)
        if asked and view.prompt is not None:
            lines.append(prompt_text(view.prompt))
            buttons, selects = prompt_components(view.prompt, view.tokens)
        header = f"Kill Team in <#{info.channel_id}>"
        return Outgoing(
            to="dm",
            user_id=player,
            secret=True,
            content=header,
            embeds=[Embed(description="\n\n".join(lines)[:4000] or "…", colour=COLOUR)],
            buttons=buttons,
            selects=selects,
        )

    def reply(self, info: SessionInfo, state: KillTeamState, events: list[Event], actor: int) -> Reply:
        sealed = next((e for e in events if isinstance(e, ChoiceSealed) and e.player == actor), None)
        if sealed is not None:
            revealed = any(isinstance(e, ChoicesRevealed) for e in events)
            after = (
                "Both choices are now revealed in the game's channel."
                if revealed
                else ("It stays hidden until your opponent has sealed too.")
            )
            return Reply(content=f"Sealed. {after}")
        mine = [line for e in events if e.private_to == actor and (line := describe_private(e))]
        return Reply(content="\n".join(mine)[:1900] or "Done.")

    def private_prompt(self, info: SessionInfo, state: KillTeamState, user_id: int) -> Reply | None:
        return private_reply(state, user_id)

    def summary(self, info: SessionInfo, state: KillTeamState) -> str:
        return prompt(state).title


BOARD_EVENTS = (
    ev.TurningPointStarted,
    ev.VictoryPointsScored,
    ev.TacOpRevealed,
    ev.TurningPointEnded,
    ev.GameEnded,
)


# ---------------------------------------------------------------------- packs


@lru_cache(maxsize=32)
def _parsed(text: str) -> KillTeamPack:
    return parse_pack(text)


async def server_pack(bot: MusterBot, guild_id: int | None) -> KillTeamPack:
    """The server's own pack if it loaded one, else the shipped one."""
    if guild_id is not None:
        text = await bot.packs.get(guild_id, SYSTEM)
        if text:
            try:
                return _parsed(text)
            except PackError:
                pass  # it was valid when saved; a later rules change must not stop every game
    return load_default_pack()


def _matching(names: list[tuple[str, str]], current: str) -> list[app_commands.Choice[str]]:
    needle = current.casefold()
    return [
        app_commands.Choice(name=label[:100], value=value)
        for label, value in names
        if needle in label.casefold()
    ][:25]


# ---------------------------------------------------------------------- the cog


class KillTeam(commands.GroupCog, group_name="killteam", group_description="Kill Team matched play"):
    def __init__(self, bot: MusterBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.games.register(KillTeamAdapter())

    pack = app_commands.Group(name="pack", description="This server's Kill Team cards")

    @app_commands.command(name="start", description="Start a Kill Team matched play game in this channel")
    @app_commands.describe(
        opponent="Who you are playing",
        mission_method="How the mission and map are decided",
        tacops_method="How Tac Ops are chosen",
        mission="Organised only: the mission card",
        map="Organised only: the map card (its id, such as A4)",
    )
    @app_commands.choices(
        mission_method=[
            app_commands.Choice(name=label, value=key) for key, label in MISSION_METHOD_LABELS.items()
        ],
        tacops_method=[app_commands.Choice(name=label, value=key) for key, label in METHOD_LABELS.items()],
    )
    @app_commands.guild_only()
    async def start_game(
        self,
        interaction: discord.Interaction[MusterBot],
        opponent: discord.User,
        mission_method: str,
        tacops_method: str,
        mission: str | None = None,
        map: str | None = None,
    ) -> None:
        require_opponent(interaction, opponent)
        guild_id, channel_id = guild_id_of(interaction), channel_id_of(interaction)
        caller = interaction.user.id
        if mission_method != "organised" and (mission or map):
            raise UserError("A mission and a map are only given with the Organised method.")
        await self.bot.sessions.refuse_second_game(guild_id, channel_id, SYSTEM, caller, opponent.id)
        pack = await server_pack(self.bot, guild_id)
        previous: PreviousGame | None = None
        if mission_method == "control":
            last = await self.bot.sessions.last_finished_between(guild_id, SYSTEM, caller, opponent.id)
            if last is not None:
                _info, old = last
                winner = old.outcome.winner if old.outcome else None
                previous = PreviousGame(winner=winner, mission=old.mission, map=old.map)
        players = [caller, opponent.id]
        result = await self.bot.sessions.open(
            guild_id=guild_id,
            channel_id=channel_id,
            organiser_id=caller,
            system=SYSTEM,
            build=lambda sid, roller: start(
                sid,
                players,
                mission_method,
                tacops_method,
                roller,
                pack=pack,
                mission=mission,
                map=map,
                previous=previous,
            ),
            title=f"Kill Team: {who(caller)} vs {who(opponent.id)}",
        )
        await interaction.response.send_message(
            f"Kill Team game `{result.info.id}` started: follow the prompts in this channel and your DMs.",
            ephemeral=True,
        )

    @start_game.autocomplete("mission")
    async def mission_autocomplete(
        self, interaction: discord.Interaction[MusterBot], current: str
    ) -> list[app_commands.Choice[str]]:
        pack = await server_pack(self.bot, interaction.guild_id)
        return _matching([(m.name, m.id) for m in pack.missions], current)

    @start_game.autocomplete("map")
    async def map_autocomplete(
        self, interaction: discord.Interaction[MusterBot], current: str
    ) -> list[app_commands.Choice[str]]:
        pack = await server_pack(self.bot, interaction.guild_id)
        return _matching([(m.label, m.id) for m in pack.maps], current)

    # ------------------------------------------------------------ in-game commands

    async def _my_game(self, interaction: discord.Interaction[MusterBot]) -> SessionInfo:
        return await self.bot.sessions.caller_game(
            guild_id_of(interaction), channel_id_of(interaction), interaction.user.id, SYSTEM
        )

    async def _act(
        self, interaction: discord.Interaction[MusterBot], make: type[Action] | None, **fields: object
    ) -> None:
        info = await self._my_game(interaction)
        user = interaction.user.id
        assert make is not None
        result = await self.bot.sessions.act(info.id, user, lambda _i, _s: make(actor=user, **fields))
        assert result is not None
        reply = self.bot.games.get(SYSTEM).reply(result.info, result.state, result.events, user)
        await interaction.response.send_message(**fit(content=reply.content or "Done.", ephemeral=True))

    async def _my_state(self, interaction: discord.Interaction[MusterBot]) -> KillTeamState | None:
        state = await self.bot.sessions.caller_state(
            interaction.guild_id, interaction.channel_id, interaction.user.id, SYSTEM
        )
        return state if isinstance(state, KillTeamState) else None

    async def _my_tac_ops(
        self, interaction: discord.Interaction[MusterBot], current: str, revealed: bool | None
    ) -> list[app_commands.Choice[str]]:
        state = await self._my_state(interaction)
        if state is None:
            return []
        cards = [
            c
            for c in private_view(state, interaction.user.id).tac_ops
            if revealed is None or c.revealed == revealed
        ]
        return _matching([(c.name, c.id) for c in cards], current)

    @app_commands.command(name="reveal-tacop", description="Reveal one of your secret Tac Ops")
    @app_commands.describe(tacop="Which of your Tac Ops")
    async def reveal_tacop(self, interaction: discord.Interaction[MusterBot], tacop: str) -> None:
        await self._act(interaction, RevealTacOp, tac_op=tacop)

    @reveal_tacop.autocomplete("tacop")
    async def reveal_autocomplete(
        self, interaction: discord.Interaction[MusterBot], current: str
    ) -> list[app_commands.Choice[str]]:
        return await self._my_tac_ops(interaction, current, revealed=False)

    @app_commands.command(name="score", description="Record the VP you scored this turning point")
    @app_commands.describe(
        mission_vp="Mission VP to add (negative corrects a mistake)",
        tacop="The Tac Op that scored (revealed ones)",
        tacop_vp="VP from that Tac Op",
    )
    async def score(
        self,
        interaction: discord.Interaction[MusterBot],
        mission_vp: app_commands.Range[int, -16, 16] = 0,
        tacop: str | None = None,
        tacop_vp: app_commands.Range[int, -6, 6] = 0,
    ) -> None:
        await self._act(interaction, Score, mission_vp=mission_vp, tac_op=tacop, tac_op_vp=tacop_vp)

    @score.autocomplete("tacop")
    async def score_autocomplete(
        self, interaction: discord.Interaction[MusterBot], current: str
    ) -> list[app_commands.Choice[str]]:
        state = await self._my_state(interaction)
        return await self._my_tac_ops(
            interaction, current, revealed=True if state and state.tac.secret else None
        )

    @app_commands.command(name="end", description="End the battle now; the higher total wins")
    async def end(self, interaction: discord.Interaction[MusterBot]) -> None:
        await self._act(interaction, EndGame)

    @app_commands.command(name="hand", description="Your Tac Ops and any secret choice waiting for you")
    async def hand(self, interaction: discord.Interaction[MusterBot]) -> None:
        info = await self._my_game(interaction)
        _info, state = await self.bot.sessions.load(info.id)
        reply = private_reply(state, interaction.user.id)
        if reply is None:
            await interaction.response.send_message("Nothing secret is waiting for you.", ephemeral=True)
            return
        from bot.router import send_reply

        await send_reply(interaction, info.id, reply)

    # ------------------------------------------------------------ packs

    @pack.command(name="load", description="Load this server's own Kill Team cards (Manage Server)")
    @app_commands.describe(file="A YAML file shaped like the shipped pack")
    async def pack_load(self, interaction: discord.Interaction[MusterBot], file: discord.Attachment) -> None:
        loaded = await self.bot.packs.load(interaction, SYSTEM, file, parse_pack)
        methods = ", ".join(METHOD_LABELS[m] for m in supported_methods(loaded)) or "none"
        await interaction.response.send_message(
            **fit(
                content=f"Loaded **{loaded.name}**: {len(loaded.missions)} missions, "
                f"{len(loaded.maps)} maps, {len(loaded.all_tac_ops())} Tac Ops, {len(loaded.factions)} "
                f"factions. Tac Ops methods it can run: {methods}.",
                ephemeral=True,
            )
        )

    @pack.command(name="reset", description="Go back to the shipped Kill Team cards (Manage Server)")
    async def pack_reset(self, interaction: discord.Interaction[MusterBot]) -> None:
        require_manage(interaction)
        removed = await self.bot.packs.delete(guild_id_of(interaction), SYSTEM)
        text = (
            "This server uses the shipped Kill Team cards again."
            if removed
            else ("This server already uses the shipped Kill Team cards.")
        )
        await interaction.response.send_message(text, ephemeral=True)


async def setup(bot: MusterBot) -> None:
    await bot.add_cog(KillTeam(bot))
