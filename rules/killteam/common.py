"""Small helpers every Kill Team step uses: roll-offs, answer checks, nonces, state updates."""

from __future__ import annotations

from typing import Any, TypeVar

from rules.dice import Roller
from rules.errors import RuleError
from rules.killteam.events import RolledOff
from rules.killteam.models import COMPLETE, KillTeamState
from rules.killteam.prompts import prompt
from rules.rolloff import roll_off
from rules.session import Action

A = TypeVar("A", bound=Action)


def roll_off_players(players: list[int], roller: Roller, purpose: str) -> tuple[int, RolledOff]:
    result = roll_off(roller, reason=f"Kill Team: {purpose}")
    winner = players[result.winner]
    event = RolledOff(
        purpose=purpose, players=list(players), rounds=[list(r.rolls) for r in result.rounds], winner=winner
    )
    return winner, event


def expect(state: KillTeamState, action: Any, kind: type[A]) -> A:
    """Refuse an action of the wrong kind for the current question, naming what is asked."""
    if not isinstance(action, kind):
        raise RuleError(code="killteam.not_that", now=prompt(state).title)
    return action


def fresh_nonce(roller: Roller) -> str:
    """Randomness that hides a sealed choice in its commitment, from the game's own source. Not
    recorded as a roll: the audit log is public, and the nonce must stay secret until the reveal."""
    return f"{roller.source.getrandbits(128):032x}"


def ask(
    state: KillTeamState,
    stage: str,
    *,
    decider: int | None = None,
    queue: list[int] | None = None,
    ordered: bool = False,
    **update: Any,
) -> KillTeamState:
    """Move to a new question: a new stage with a fresh question number."""
    return state.model_copy(
        update={
            "stage": stage,
            "question": state.question + 1,
            "decider": decider,
            "queue": list(queue or []),
            "ordered": ordered,
            **update,
        }
    )


def complete(state: KillTeamState, **update: Any) -> KillTeamState:
    """End the current step of the sequence; the procedure enters the next one."""
    return state.model_copy(
        update={"stage": COMPLETE, "decider": None, "queue": [], "ordered": False, **update}
    )
