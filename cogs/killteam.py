"""/killteam: Kill Team matched play at the table, with sealed bids and secrets in DMs.

A thin adapter: the rules live in rules/killteam. This file turns slash command options into rules
actions, and says what the game's board shows and how its events read; the platform (bot/table.py)
decides what is posted and edited: the game runs in a thread under a short start card, with one
board edited in place, a message per question the game waits on (edited once answered, its buttons
gone), sealed bids and private picks as DM prompts, and a reveal riding on the question it leads to.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import discord
from discord import app_commands

from bot.app import MusterBot
from bot.checks import channel_id_of, guild_id_of, require_manage, require_opponent
from bot.errors import UserError
from bot.game_cog import GameCog
from bot.games import GameAdapter, PackSpec, SessionInfo
from bot.limits import fit
from bot.messages import Embed, Outgoing, Reply
from bot.questions import components
from bot.router import send_reply
from bot.table import DONE_MARK, sealed_line
from bot.text import add_words
from cogs.killteam_text import ENGLISH
from rules.dice import Roller
from rules.killteam import (
    PROCEDURE,
    EndGame,
    KillTeamPack,
    KillTeamState,
    PreviousGame,
    RevealTacOp,
    Score,
    load_default_pack,
    parse_pack,
    private_view,
    prompt,
    scoreboard,
    start,
    supported_methods,
)
from rules.killteam import events as ev
from rules.killteam.hand import METHOD_LABELS
from rules.killteam.state import TacOpsMethod
from rules.killteam.views import CAPS_TEXT
from rules.sealed import ChoiceSealed, ChoicesRevealed
from rules.session import Event, Question

add_words(ENGLISH)

SYSTEM = PROCEDURE.system
QUICK_MISSIONS = "random"  # a game opened without options (a night's pairing): Random mission and map
QUICK_TACOPS: TacOpsMethod = "free"  # and Free Selection of Tac Ops
COLOUR = 0x3B5B3B
MISSION_METHOD_LABELS = {
    "organised": "Organised",
    "random": "Random",
    "veto": "Veto",
    "control": "Control",
    "bid": "Bid",
}
TACOPS_LABELS: dict[str, str] = {str(key): label for key, label in METHOD_LABELS.items()}
DONE_WORDS = {
    "equipment": "has picked their equipment",
    "their barricades": "has set up their barricades",
    "their operatives": "has set up their operatives",
    "their scouting": "has carried out their scouting pick",
}
# Questions each player answers once with Done: their message says who is done already.
EACH_DONE = frozenset({"killteam.equipment", "killteam.barricades", "killteam.operatives"})


def who(player: int) -> str:
    return f"<@{player}>"


# ---------------------------------------------------------------------- the questions asked


def private_question(state: KillTeamState, player: int) -> Question | None:
    """`player`'s own secret question, answered in their DMs."""
    return next((asked for asked in PROCEDURE.ask(state, player) if asked.private), None)


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
        case ev.EndAsked():
            other = state.opponent(event.by)
            return (
                f"{who(event.by)} asks to end the game now. It ends once {who(other)} confirms "
                f"(or {who(event.by)} confirms their own)."
            )
        case ev.EndAnswered() if event.confirmed:
            own = " their own request" if event.player == event.by else ""
            return f"{who(event.player)} confirms{own}: the game ends now."
        case ev.EndAnswered():
            return f"{who(event.player)} says not yet: the game goes on."
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


def board_embed(state: KillTeamState) -> Embed:
    """The living board: mission, map, where the game is, and each side's numbers."""
    board = scoreboard(state)
    a, b = state.players
    title = f"Kill Team: {board.mission or 'mission to come'} on {board.map or 'map to come'}"
    if board.finished:
        status = "**A draw.**" if board.draw else f"**{who(board.winner or 0)} wins.**"
    elif state.macro == "battle":
        status = f"Turning point {board.turning_point} of 4"
    else:
        status = f"Setting up: {prompt(state).title}"
    if board.first_initiative:
        status += f" · first initiative: {who(board.first_initiative)}"
    if state.pending_end is not None and not board.finished:
        status += f"\n{who(state.pending_end.by)} has asked to end the game: waiting for a confirmation."
    scoring = state.macro in ("battle", "finished")
    embed = Embed(
        title=title,
        description=f"{who(a)} vs {who(b)}\n{status}",
        colour=COLOUR,
        footer=CAPS_TEXT if scoring else None,  # the caps matter once VP are scored
    )
    tokens = state.bids.tokens if state.bids else {}
    for side in board.sides:
        lines = [who(side.player) + (f" ({side.role})" if side.role else "")]
        if side.faction:
            lines.append(f"Faction: {side.faction}")
        if side.player in tokens and state.macro != "battle" and not board.finished:
            lines.append(f"Bid tokens: {tokens[side.player]}")
        lines.append(f"CP gained: {side.cp}")
        if scoring:
            mission = " · ".join(str(v) for v in side.mission_vp)
            lines.append(f"Mission VP: {mission} (**{side.mission_total}**)")
        ops = [f"{t.name} {t.vp}" for t in side.tac_ops]
        if side.hidden_tac_ops:
            ops.append(f"{side.hidden_tac_ops} secret")
        if ops:
            lines.append(f"Tac Ops: {', '.join(ops)}")
        if side.battle_ready:
            lines.append("Battle Ready painted: +2")
        if scoring:
            lines.append(f"Total: **{side.total}**")
        embed.add(
            "Attacker" if side.role == "attacker" else "Defender" if side.role else "Player",
            "\n".join(lines),
            inline=True,
        )
    return embed


def describe_briefly(event: Event, state: KillTeamState) -> str | None:
    """The board's line for an event: a reveal is named there and posted in full on its own."""
    if isinstance(event, ChoicesRevealed):
        picks = ", ".join(
            f"{who(e.player)} **{_reveal_value(state, event.step, e.choice)}**" for e in event.entries
        )
        return f"Revealed, the {event.label}: {picks}."
    if isinstance(event, ChoiceSealed):
        return f"{who(event.player)} has sealed their {event.label}."
    return describe(event, state)


def prompt_text(asked: Question) -> str:
    lines = [f"**{asked.title}**", asked.text]
    described = [
        f"• **{o.label}**: {o.description}" for o in asked.options if o.description and not o.disabled
    ]
    if asked.topic == "killteam.scouting" and described:
        lines += described
    return "\n".join(lines)


def question_text(state: KillTeamState, asked: Question) -> str:
    """A question's message: its words, and what the table needs besides (who asked to end the game,
    who is done with a step each player finishes once)."""
    lines = [prompt_text(asked)]
    if asked.topic == "killteam.end" and state.pending_end is not None:
        lines.append(f"{who(state.pending_end.by)} asked to end the game.")
    if asked.topic in EACH_DONE:
        done = [p for p in state.players if p not in asked.players]
        if done:
            lines.append(f"{DONE_MARK} Done: {', '.join(who(p) for p in done)}")
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
    asked = private_question(state, user_id)
    buttons, selects = components(asked) if asked is not None else ([], [])
    if asked is not None:
        parts.append(prompt_text(asked))
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
    pack = PackSpec(parse=parse_pack, shipped=load_default_pack)

    colour = COLOUR

    def quick_start(
        self,
        session_id: str,
        players: Sequence[int],
        roller: Roller,
        pack: KillTeamPack | None,
        names: Mapping[int, str] | None = None,
    ) -> tuple[KillTeamState, list[Event]]:
        """A club night's game, as `/killteam start` opens it: mission and map dealt at random, and
        Tac Ops chosen freely, the core sequence's own way (else the first way this pack allows)."""
        pack = pack or load_default_pack()
        methods = supported_methods(pack)
        tacops = QUICK_TACOPS if QUICK_TACOPS in methods or not methods else methods[0]
        return start(session_id, list(players), QUICK_MISSIONS, tacops, roller, pack=pack)

    def board(self, info: SessionInfo, state: KillTeamState) -> Embed:
        return board_embed(state)

    def lines(self, info: SessionInfo, state: KillTeamState, events: list[Event]) -> list[str]:
        return [line for e in events if e.private_to is None and (line := describe_briefly(e, state))]

    def moments(self, info: SessionInfo, state: KillTeamState, events: list[Event]) -> list[Outgoing]:
        """A reveal stays readable in the thread, with what anyone needs to check the commitments."""
        return [
            Outgoing(embeds=[Embed(description=line[:4000], colour=COLOUR)])
            for e in events
            if isinstance(e, ChoicesRevealed) and (line := describe(e, state))
        ]

    def private_lines(
        self, info: SessionInfo, state: KillTeamState, player: int, events: list[Event]
    ) -> list[str]:
        return [line for e in events if e.private_to == player and (line := describe_private(e))]

    def question_text(self, state: KillTeamState, asked: Question) -> str:
        return question_text(state, asked)

    def answered_privately(
        self, info: SessionInfo, state: KillTeamState, player: int, asked: Question, events: list[Event]
    ) -> str | None:
        revealed = next((e for e in events if isinstance(e, ChoicesRevealed) and e.step == asked.step), None)
        mine = next((e for e in revealed.entries if e.player == player), None) if revealed else None
        choice = mine.choice if mine else private_view(state, player).sealed_choice
        shown = _reveal_value(state, asked.step, str(choice)) if choice is not None else None
        return sealed_line(events, player, shown)

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
        if any(isinstance(e, ev.EndAsked) and e.by == actor for e in events):
            other = who(state.opponent(actor))
            return Reply(
                content=f"Your request to end the game is waiting for a confirmation: {other} presses "
                "Confirm in the game's thread, or you may confirm it yourself there. Not yet withdraws it."
            )
        mine = [line for e in events if e.private_to == actor and (line := describe_private(e))]
        said = mine or self.lines(info, state, events)  # what the action did ("… +2 VP …; total 9")
        return Reply(content="\n".join(said)[:1900] or "Recorded.")

    def private_prompt(self, info: SessionInfo, state: KillTeamState, user_id: int) -> Reply | None:
        return private_reply(state, user_id)

    def summary(self, info: SessionInfo, state: KillTeamState) -> str:
        return prompt(state).title


# ---------------------------------------------------------------------- the cog


class KillTeam(GameCog[KillTeamState], group_name="killteam", group_description="Kill Team matched play"):
    adapter = KillTeamAdapter()

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
        pack = await self.server_pack(guild_id, channel_id)
        previous: PreviousGame | None = None
        if mission_method == "control":
            last = await self.bot.sessions.last_finished_between(guild_id, SYSTEM, caller, opponent.id)
            if last is not None:
                _info, old = last
                winner = old.outcome.winner if old.outcome else None
                previous = PreviousGame(winner=winner, mission=old.mission, map=old.map)
        players = [caller, opponent.id]
        await self.open_game(
            interaction,
            opponent,
            lambda sid, roller: start(
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
        )

    @start_game.autocomplete("mission")
    async def mission_autocomplete(
        self, interaction: discord.Interaction[MusterBot], current: str
    ) -> list[app_commands.Choice[str]]:
        pack = await self.server_pack(interaction.guild_id, interaction.channel_id)
        return self.choices(((m.name, m.id) for m in pack.missions), current)

    @start_game.autocomplete("map")
    async def map_autocomplete(
        self, interaction: discord.Interaction[MusterBot], current: str
    ) -> list[app_commands.Choice[str]]:
        pack = await self.server_pack(interaction.guild_id, interaction.channel_id)
        return self.choices(((m.label, m.id) for m in pack.maps), current)

    # ------------------------------------------------------------ in-game commands

    async def _my_tac_ops(
        self, interaction: discord.Interaction[MusterBot], current: str, revealed: bool | None
    ) -> list[app_commands.Choice[str]]:
        state = await self.my_state(interaction)
        if state is None:
            return []
        cards = [
            c
            for c in private_view(state, interaction.user.id).tac_ops
            if revealed is None or c.revealed == revealed
        ]
        return self.choices(((c.name, c.id) for c in cards), current)

    @app_commands.command(name="reveal-tacop", description="Reveal one of your secret Tac Ops")
    @app_commands.describe(tacop="Which of your Tac Ops")
    async def reveal_tacop(self, interaction: discord.Interaction[MusterBot], tacop: str) -> None:
        user = interaction.user.id
        await self.act(interaction, lambda _state: RevealTacOp(actor=user, tac_op=tacop))

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
        user = interaction.user.id
        await self.act(
            interaction,
            lambda _state: Score(actor=user, mission_vp=mission_vp, tac_op=tacop, tac_op_vp=tacop_vp),
        )

    @score.autocomplete("tacop")
    async def score_autocomplete(
        self, interaction: discord.Interaction[MusterBot], current: str
    ) -> list[app_commands.Choice[str]]:
        state = await self.my_state(interaction)
        return await self._my_tac_ops(
            interaction, current, revealed=True if state and state.tac.secret else None
        )

    @app_commands.command(
        name="end", description="Ask to end the game now (your opponent confirms); the higher total wins"
    )
    async def end(self, interaction: discord.Interaction[MusterBot]) -> None:
        await self.act(interaction, EndGame(actor=interaction.user.id))

    @app_commands.command(name="hand", description="Your Tac Ops and any secret choice waiting for you")
    async def hand(self, interaction: discord.Interaction[MusterBot]) -> None:
        info = await self.my_game(interaction)
        _info, state = await self.bot.sessions.load(info.id)
        reply = private_reply(state, interaction.user.id)
        if reply is None:
            await interaction.response.send_message("Nothing secret is waiting for you.", ephemeral=True)
            return
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
