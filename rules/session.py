"""The contract every game procedure follows.

A procedure is an explicit state machine: `step(state, action, roller) -> (state, events)`.
States, actions and events are pydantic models, so the store saves a state as JSON and a restart
resumes it exactly. `step` never mutates its input: it returns a new state (use `model_copy`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from rules.dice import Roller
from rules.errors import RuleError


class Model(BaseModel):
    """Base for every rules model: strict about unknown fields so a corrupt save fails loudly."""

    model_config = ConfigDict(extra="forbid")


class Action(Model):
    """Something a player (or the bot on a player's behalf) does. `actor` is a Discord user id."""

    actor: int


class Event(Model):
    """Something that happened. `private_to` set means only that player may ever see it."""

    private_to: int | None = None


class SideResult(Model):
    player: int
    score: int
    faction: str | None = None


class GameOutcome(Model):
    """How a finished game ended, in the one shape the score store takes from every game."""

    sides: list[SideResult]
    winner: int | None  # a player id, or None for a draw
    mission: str | None = None
    summary: str = ""


class GameState(Model):
    """Fields every game session's state carries."""

    session_id: str
    players: list[int] = Field(min_length=2, max_length=2)
    finished: bool = False
    outcome: GameOutcome | None = None

    def opponent(self, player: int) -> int:
        return self.players[1] if player == self.players[0] else self.players[0]

    def require_player(self, actor: int) -> None:
        if actor not in self.players:
            raise RuleError("Only the two players of this game can do that.")

    def require_open(self) -> None:
        if self.finished:
            raise RuleError("This game has already finished.")


S = TypeVar("S", bound=GameState)

StepFunction = Callable[[S, Any, Roller], tuple[S, list[Event]]]


class Procedure(Generic[S]):
    """Binds a game system's name, state model and step function, so the bot can run any game."""

    def __init__(
        self,
        system: str,
        state_type: type[S],
        step: Callable[[S, Any, Roller], tuple[S, list[Event]]],
        awaiting: Callable[[S], list[int]] | None = None,
    ) -> None:
        self.system = system
        self.state_type = state_type
        self._step = step
        self._awaiting = awaiting

    def load(self, data: str | bytes) -> S:
        return self.state_type.model_validate_json(data)

    def dump(self, state: S) -> str:
        return state.model_dump_json()

    def step(self, state: S, action: Any, roller: Roller) -> tuple[S, list[Event]]:
        """Apply an action; refuse any action on a finished game or from a stranger."""
        state.require_open()
        if isinstance(action, Action):
            state.require_player(action.actor)
        return self._step(state, action, roller)

    def awaiting(self, state: S) -> list[int]:
        """Players whose private input (a sealed choice) the game is waiting for; used for reminders."""
        return self._awaiting(state) if self._awaiting else []
