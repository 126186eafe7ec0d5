"""/killteam: Kill Team matched play at the table, with sealed bids and secrets in DMs.

A thin adapter: the rules live in rules/killteam. This file turns slash command options into rules
actions and hands the platform (bot/play/table.py) the game's words: the board, the event lines and the
prompts (cogs/killteam_lines.py), each question of the rules in the reader's language
(cogs/killteam_words.py). The platform decides what is posted and edited: the game runs in a thread
under a short start card, with one board edited in place, a message per question the game waits on
(edited once answered, its buttons gone), sealed bids and private picks as DM prompts, and each
reveal in a post of its own that is never edited. The thread speaks the server's language, DMs the
player's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import discord
from discord import app_commands

from bot.app import MusterBot
from bot.chat.checks import channel_id_of, guild_id_of, require_manage, require_opponent
from bot.chat.errors import UserError
from bot.chat.limits import CONTENT, EMBED_DESCRIPTION, fit
from bot.chat.messages import Embed, Outgoing, Reply
from bot.chat.router import send_reply
from bot.lang.i18n import Domain
from bot.lang.text import add_words
from bot.play.game_cog import GameCog
from bot.play.games import GameAdapter, PackSpec, SessionInfo
from bot.play.table import sealed_line
from cogs.killteam_lines import (
    COLOUR,
    MISSION_METHOD_LABELS,
    board_embed,
    describe,
    describe_briefly,
    describe_private,
    method,
    private_reply,
    question_text,
    reveal_value,
    who,
)
from cogs.killteam_text import ENGLISH
from cogs.killteam_words import localise, map_label, sealed_label
from cogs.killteam_words import summary as word_summary
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
    start,
    supported_methods,
)
from rules.killteam import events as ev
from rules.killteam.hand import METHOD_LABELS
from rules.killteam.state import TacOpsMethod
from rules.sealed import ChoiceSealed, ChoicesRevealed
from rules.session import Event, Question
from rules.text import clip

add_words(ENGLISH)

SYSTEM = PROCEDURE.system
QUICK_MISSIONS = "random"  # a game opened without options (a night's pairing): Random mission and map
QUICK_TACOPS: TacOpsMethod = "free"  # and Free Selection of Tac Ops
_ = Domain("killteam")


# ---------------------------------------------------------------------- the adapter


def record(step: str, line: str) -> Outgoing:
    """A post of its own at the table, never edited: what a player checks a sealed choice with.
    Keyed by its step, it never rides on a question's message (bot/play/table.py), which is redrawn as
    the question changes."""
    return Outgoing(
        key=f"reveal.{step}", embeds=[Embed(description=clip(line, EMBED_DESCRIPTION), colour=COLOUR)]
    )


def own_seal(events: list[Event], actor: int) -> ChoiceSealed | None:
    """The seal the actor's own answer made, if it made one. A seal is the first thing its step
    says (rules/sealed.py); a seal of the actor's later in the step was made for them (a bid with no
    tokens left) after whatever they pressed, and their reply is about what they pressed."""
    first = events[0] if events else None
    return first if isinstance(first, ChoiceSealed) and first.player == actor else None


class KillTeamAdapter(GameAdapter[KillTeamState]):
    procedure = PROCEDURE
    title = "Kill Team"
    start_command = "/killteam start"
    aliases = ("kill-team", "kt")
    help = _.mark(
        "`/killteam start @opponent` runs the matched-play sequence: mission and map, sealed bids "
        "and scouting in DMs, Tac Ops, scoring with the caps"
    )
    domain = "killteam"
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

    def localise(self, state: KillTeamState, asked: Question) -> Question:
        return localise(state, asked)

    def outcome_summary(self, state: KillTeamState) -> str:
        return word_summary(state.outcome.summary) if state.outcome is not None else ""

    def board(self, info: SessionInfo, state: KillTeamState) -> Embed:
        return board_embed(state)

    def lines(self, info: SessionInfo, state: KillTeamState, events: list[Event]) -> list[str]:
        return [line for e in events if e.private_to is None and (line := describe_briefly(e, state))]

    def moments(self, info: SessionInfo, state: KillTeamState, events: list[Event]) -> list[Outgoing]:
        """A reveal stays readable in the thread, with what anyone needs to check the commitments."""
        return [
            record(e.step, line)
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
        shown = reveal_value(state, asked.step, str(choice)) if choice is not None else None
        said = [
            e.model_copy(update={"label": sealed_label(e.label)}) if isinstance(e, ChoiceSealed) else e
            for e in events
        ]
        return sealed_line(said, player, shown)

    def reply(self, info: SessionInfo, state: KillTeamState, events: list[Event], actor: int) -> Reply:
        if own_seal(events, actor) is not None:
            revealed = any(isinstance(e, ChoicesRevealed) for e in events)
            if revealed:
                return Reply(content=_("Sealed. Both choices are now revealed in the game's channel."))
            return Reply(content=_("Sealed. It stays hidden until your opponent has sealed too."))
        if any(isinstance(e, ev.EndAsked) and e.by == actor for e in events):
            return Reply(
                content=_(
                    "Your request to end the game is waiting for a confirmation: {player} presses "
                    "{confirm} in the game's thread, or you may confirm it yourself there. {not_yet} "
                    "withdraws it.",
                    player=who(state.opponent(actor)),
                    confirm=_.p("button", "Confirm"),
                    not_yet=_.p("button", "Not yet"),
                )
            )
        mine = [line for e in events if e.private_to == actor and (line := describe_private(e))]
        said = mine or self.lines(info, state, events)  # what the action did ("… +2 VP …; total 9")
        return Reply(content=clip("\n".join(said), CONTENT) or _("Recorded."))

    def private_prompt(self, info: SessionInfo, state: KillTeamState, user_id: int) -> Reply | None:
        return private_reply(state, user_id)

    def summary(self, info: SessionInfo, state: KillTeamState) -> str:
        return localise(state, prompt(state)).title


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
            raise UserError(_("A mission and a map are only given with the Organised method."))
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
        return self.choices(((map_label(m.label), m.id) for m in pack.maps), current)

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
        name="end", description="Ask to end the game now (either player confirms); the higher total wins"
    )
    async def end(self, interaction: discord.Interaction[MusterBot]) -> None:
        await self.act(interaction, EndGame(actor=interaction.user.id))

    @app_commands.command(name="hand", description="Your Tac Ops and any secret choice waiting for you")
    async def hand(self, interaction: discord.Interaction[MusterBot]) -> None:
        info = await self.my_game(interaction)
        _info, state = await self.bot.sessions.load(info.id)
        reply = private_reply(state, interaction.user.id)
        if reply is None:
            await interaction.response.send_message(_("Nothing secret is waiting for you."), ephemeral=True)
            return
        await send_reply(interaction, info.id, reply)

    # ------------------------------------------------------------ packs

    @pack.command(name="load", description="Load this server's own Kill Team cards (Manage Server)")
    @app_commands.describe(file="A YAML file shaped like the shipped pack")
    async def pack_load(self, interaction: discord.Interaction[MusterBot], file: discord.Attachment) -> None:
        loaded = await self.bot.packs.load(interaction, SYSTEM, file, parse_pack)
        methods = ", ".join(method(METHOD_LABELS[m]) for m in supported_methods(loaded)) or _("none")
        loaded_text = _(
            "Loaded **{name}**: {missions}, {maps}, {tac_ops}, {factions}. Tac Ops methods it can run: "
            "{methods}.",
            name=loaded.name,
            missions=_.n("{count} mission", "{count} missions", len(loaded.missions)),
            maps=_.n("{count} map", "{count} maps", len(loaded.maps)),
            tac_ops=_.n("{count} Tac Op", "{count} Tac Ops", len(loaded.all_tac_ops())),
            factions=_.n("{count} faction", "{count} factions", len(loaded.factions)),
            methods=methods,
        )
        await interaction.response.send_message(**fit(content=loaded_text, ephemeral=True))

    @pack.command(name="reset", description="Go back to the shipped Kill Team cards (Manage Server)")
    async def pack_reset(self, interaction: discord.Interaction[MusterBot]) -> None:
        require_manage(interaction)
        removed = await self.bot.packs.delete(guild_id_of(interaction), SYSTEM)
        text = (
            _("This server uses the shipped Kill Team cards again.")
            if removed
            else _("This server already uses the shipped Kill Team cards.")
        )
        await interaction.response.send_message(text, ephemeral=True)


async def setup(bot: MusterBot) -> None:
    await bot.add_cog(KillTeam(bot))
