"""Pick: the smallest whole game, used to test the platform apart from any real game and shown in
docs/NEW_GAME.md as the shape of a new one.

Both players secretly pick 1, 2 or 3 in their DMs; the higher pick wins. It goes through exactly
the same platform code as the real games: a question with a step id asked through the prompt
contract, DM prompts with the closed-DM fallback, commitments, the versioned store, the outbox, the
router, the registry (its /help line and scores name) and the game-cog base.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal

import discord
from discord import app_commands

from bot.app import MusterBot
from bot.chat.checks import require_opponent
from bot.chat.messages import Embed, Reply
from bot.lang.text import add_words
from bot.play.game_cog import GameCog
from bot.play.games import GameAdapter, SessionInfo
from bot.play.questions import components
from bot.play.table import sealed_line
from rules.dice import Roller
from rules.errors import RuleError
from rules.sealed import ChoiceSealed, ChoicesRevealed, SealedRound, seal
from rules.session import (
    Action,
    Answer,
    Event,
    GameOutcome,
    GameState,
    Option,
    Procedure,
    Question,
    SideResult,
)

# ---------------------------------------------------------------------- rules (rules/<game>/)


class PickState(GameState):
    round: SealedRound


class Pick(Action):
    kind: Literal["pick"] = "pick"
    value: int
    nonce: str


def start(session_id: str, players: list[int], roller: Roller) -> tuple[PickState, list[Event]]:
    round_ = SealedRound(step="pick", label="pick", players=players)
    return PickState(session_id=session_id, players=players, round=round_), []


def step(state: PickState, action: Pick, roller: Roller) -> tuple[PickState, list[Event]]:
    if not 1 <= action.value <= 3:
        raise RuleError(code="toy.pick_range", low=1, high=3)
    round_, events = seal(state.round, state.session_id, action.actor, str(action.value), action.nonce)
    update: dict[str, object] = {"round": round_}
    if round_.revealed:
        picks = {p: int(c) for p, c in round_.choices().items()}
        a, b = state.players
        winner = None if picks[a] == picks[b] else (a if picks[a] > picks[b] else b)
        update.update(
            finished=True,
            outcome=GameOutcome(
                sides=[SideResult(player=p, score=picks[p]) for p in state.players],
                winner=winner,
                mission="Pick",
            ),
        )
    return state.model_copy(update=update), events


def awaiting(state: PickState) -> list[int]:
    return state.round.waiting_for()


def ask(state: PickState, player: int) -> list[Question]:
    """One sealed question, asked in DMs, until the player has picked."""
    if player not in state.round.waiting_for():
        return []
    return [
        Question(
            step="pick",
            topic="toy.pick",
            title="Pick a number in secret",
            players=[player],
            options=[Option(value=str(n), label=str(n)) for n in (1, 2, 3)],
            sealed=True,
            private=True,
        )
    ]


def to_action(state: PickState, question: Question, answer: Answer) -> Pick:
    return Pick(actor=answer.actor, value=int(answer.values[0]), nonce=answer.nonce)


PROCEDURE = Procedure("toy", PickState, step, awaiting, ask=ask, to_action=to_action)

# ---------------------------------------------------------------------- the cog (cogs/<game>.py)

add_words({"toy.pick_range": "Pick a number from {low} to {high}."})


class ToyAdapter(GameAdapter[PickState]):
    procedure = PROCEDURE
    title = "Pick"
    start_command = "/toy start"
    aliases = ("pick-game",)
    help = "`/toy start @opponent`: both pick 1, 2 or 3 in secret, the higher pick wins"

    def quick_start(
        self,
        session_id: str,
        players: Sequence[int],
        roller: Roller,
        pack: object,
        names: Mapping[int, str] | None = None,
    ) -> tuple[PickState, list[Event]]:
        """Pick has no options: a night's game is the game `/toy start` opens."""
        return start(session_id, list(players), roller)

    def board(self, info: SessionInfo, state: PickState) -> Embed:
        a, b = state.players
        picked = ", ".join(f"<@{p}> has picked" for p in state.round.entries) or "Nobody has picked yet."
        return Embed(title=f"Pick: <@{a}> vs <@{b}>", description=picked)

    def lines(self, info: SessionInfo, state: PickState, events: list[Event]) -> list[str]:
        lines = []
        for event in events:
            if isinstance(event, ChoiceSealed):
                lines.append(f"<@{event.player}> has sealed their pick `{event.commitment}`")
            elif isinstance(event, ChoicesRevealed):
                picks = [f"<@{e.player}> picked {e.choice} (nonce `{e.nonce}`)" for e in event.entries]
                lines.append("Revealed:\n" + "\n".join(picks))
        return lines

    def answered_privately(
        self, info: SessionInfo, state: PickState, player: int, asked: Question, events: list[Event]
    ) -> str | None:
        entry = state.round.entries.get(player)
        return sealed_line(events, player, entry.choice if entry else None)

    def reply(self, info: SessionInfo, state: PickState, events: list[Event], actor: int) -> Reply:
        return Reply(content=f"Your pick {state.round.entries[actor].choice} is sealed.")

    def private_prompt(self, info: SessionInfo, state: PickState, user_id: int) -> Reply | None:
        if user_id in state.round.entries:
            return Reply(content=f"You picked {state.round.entries[user_id].choice}; waiting for the reveal.")
        asked = PROCEDURE.ask(state, user_id)
        if not asked:
            return None
        buttons, selects = components(asked[0])
        return Reply(content=f"{asked[0].title}:", buttons=buttons, selects=selects)


class Toy(GameCog[PickState], group_name="toy", group_description="Pick: the higher secret pick wins"):
    adapter = ToyAdapter()

    @app_commands.command(name="start", description="Start a game of Pick in this channel")
    @app_commands.guild_only()
    async def start_game(self, interaction: discord.Interaction[MusterBot], opponent: discord.User) -> None:
        require_opponent(interaction, opponent)
        players = [interaction.user.id, opponent.id]
        await self.open_game(interaction, opponent, lambda sid, roller: start(sid, players, roller))


async def setup(bot: MusterBot) -> None:
    await bot.add_cog(Toy(bot))
