"""Shared helpers for the 40K mission tests: scripted dice and short ways to reach a phase."""

from __future__ import annotations

import random
from collections.abc import Iterable

from rules.dice import Roller
from rules.fortyk import FortyKState, start, step
from rules.fortyk.actions import (
    ChooseOrder,
    ChooseZone,
    EndTurn,
    FinishDeployment,
    FortyKAction,
    RollForDeployment,
    RollForFirstTurn,
    SeizeInitiative,
)
from rules.fortyk.models import Phase
from rules.session import Event

ALICE = 111_111_111_111
BOB = 222_222_222_222


class ScriptedSource(random.Random):
    """A random source whose dice are given in advance, to force one branch of a rule."""

    def __init__(self, values: Iterable[int]) -> None:
        super().__init__(0)
        self.values = list(values)

    def randint(self, a: int, b: int) -> int:
        if not self.values:
            raise AssertionError("the scripted dice ran out: the rules rolled more dice than expected")
        value = self.values.pop(0)
        assert a <= value <= b, f"scripted {value} is not a d{b} result"
        return value


def dice(*values: int) -> Roller:
    return Roller(ScriptedSource(values))


def no_dice() -> Roller:
    """A roller that fails the test if any die is thrown."""
    return Roller(ScriptedSource([]))


def checked_step(state: FortyKState, action: FortyKAction, roller: Roller) -> tuple[FortyKState, list[Event]]:
    """Step, and check the input was not changed and the new state survives a JSON round trip."""
    before = state.model_dump_json()
    new, events = step(state, action, roller)
    assert state.model_dump_json() == before, "step changed its input state"
    assert FortyKState.model_validate_json(new.model_dump_json()) == new
    return new, events


def run(
    state: FortyKState, actions: Iterable[FortyKAction], roller: Roller | None = None
) -> tuple[FortyKState, list[Event]]:
    roller = roller or no_dice()
    events: list[Event] = []
    for action in actions:
        state, new_events = checked_step(state, action, roller)
        events.extend(new_events)
    return state, events


def new_game() -> FortyKState:
    state, _ = start("session-1", [ALICE, BOB])
    return state


def deployed(setup_first: int = ALICE) -> FortyKState:
    """Alice wins the deployment roll-off (5 v 2) and picks a zone; both finish deploying."""
    other = BOB if setup_first == ALICE else ALICE
    state, _ = run(
        new_game(),
        [
            RollForDeployment(actor=BOB),
            ChooseZone(actor=ALICE, zone="North-west quarter"),
            FinishDeployment(actor=setup_first),
            FinishDeployment(actor=other),
        ],
        dice(5, 2),
    )
    assert state.phase is Phase.FIRST_TURN_ROLL
    return state


def in_battle(first: int = ALICE) -> FortyKState:
    """A battle in round 1 with `first` taking the first turn (Alice wins the roll-off and chooses)."""
    state, _ = run(deployed(), [RollForFirstTurn(actor=ALICE)], dice(6, 1))
    if first == ALICE:
        state, _ = run(
            state,
            [ChooseOrder(actor=ALICE, go_first=True), SeizeInitiative(actor=BOB, attempt=True)],
            dice(1),
        )
    else:
        state, _ = run(state, [ChooseOrder(actor=ALICE, go_first=False)])
    assert state.phase is Phase.BATTLE and state.first_player == first
    return state


def end_rounds(
    state: FortyKState, rounds: int, roller: Roller | None = None
) -> tuple[FortyKState, list[Event]]:
    """Both players end their turns for `rounds` battle rounds."""
    events: list[Event] = []
    for _ in range(rounds):
        for _turn in range(2):
            assert state.active_player is not None
            state, new_events = run(state, [EndTurn(actor=state.active_player)], roller or no_dice())
            events.extend(new_events)
    return state, events
