"""Battle length: a roll after round 5 (first player, 3+), after round 6 (second player, 4+), and a hard
end after round 7. The bot rolls; every die is in the events."""

from __future__ import annotations

import random

import pytest
from fortyk_helpers import ALICE, BOB, dice, end_rounds, in_battle, no_dice, run

from rules.dice import Roller
from rules.errors import RuleError
from rules.fortyk import step
from rules.fortyk.actions import EndTurn
from rules.fortyk.events import BattleEnded, BattleLengthRolled, TurnStarted
from rules.fortyk.models import ContinueRollRecord, Phase
from rules.session import Event


def _rolls(events: list[Event]) -> list[ContinueRollRecord]:
    return [e.record for e in events if isinstance(e, BattleLengthRolled)]


def test_no_die_is_rolled_before_round_five_ends() -> None:
    state, events = end_rounds(in_battle(), 4)  # no_dice(): any roll fails the test
    assert state.round == 5 and state.turn == 0 and state.phase is Phase.BATTLE
    assert not _rolls(events)


@pytest.mark.parametrize("die", [1, 2])
def test_after_round_five_the_first_player_ends_it_below_three(die: int) -> None:
    state, _ = end_rounds(in_battle(first=BOB), 4)
    state, events = end_rounds(state, 1, dice(die))
    [roll] = _rolls(events)
    assert roll.player == BOB and roll.after_round == 5 and roll.die == die and roll.needs == 3
    assert not roll.continues
    assert BattleEnded(after_round=5, reason="roll") in events
    assert state.phase is Phase.SCORING and state.ended_after_round == 5


@pytest.mark.parametrize("die", [3, 4, 5, 6])
def test_after_round_five_three_or_more_goes_on(die: int) -> None:
    state, _ = end_rounds(in_battle(first=BOB), 4)
    state, events = end_rounds(state, 1, dice(die))
    [roll] = _rolls(events)
    assert roll.continues and roll.player == BOB
    assert state.phase is Phase.BATTLE and state.round == 6
    assert TurnStarted(round=6, player=BOB) in events


@pytest.mark.parametrize(("die", "goes_on"), [(1, False), (3, False), (4, True), (6, True)])
def test_after_round_six_the_second_player_needs_four(die: int, goes_on: bool) -> None:
    state, _ = end_rounds(in_battle(first=ALICE), 5, dice(3))
    state, events = end_rounds(state, 1, dice(die))
    [roll] = _rolls(events)
    assert roll.player == BOB and roll.after_round == 6 and roll.needs == 4 and roll.continues is goes_on
    if goes_on:
        assert state.phase is Phase.BATTLE and state.round == 7
    else:
        assert state.phase is Phase.SCORING and state.ended_after_round == 6


def test_round_seven_is_the_last_and_needs_no_die() -> None:
    state, _ = end_rounds(in_battle(), 6, dice(3, 4))
    assert state.round == 7
    state, events = end_rounds(state, 1, no_dice())
    assert not _rolls(events)
    assert BattleEnded(after_round=7, reason="last_round") in events
    assert state.phase is Phase.SCORING and state.ended_after_round == 7
    assert [(r.after_round, r.player, r.die) for r in state.continue_rolls] == [(5, ALICE, 3), (6, BOB, 4)]


def test_the_first_turn_of_a_round_does_not_roll() -> None:
    state, _ = end_rounds(in_battle(), 4)
    state, _ = run(state, [EndTurn(actor=ALICE)], no_dice())  # round 5, first player's turn
    assert state.round == 5 and state.turn == 1


def test_after_the_battle_no_turn_can_be_ended() -> None:
    state, _ = end_rounds(in_battle(), 5, dice(1))
    with pytest.raises(RuleError) as caught:
        step(state, EndTurn(actor=ALICE), no_dice())
    assert (caught.value.code, caught.value.params["phase"]) == ("fortyk.no_longer.end_turn", "scoring")


def _ended_after(seed: int) -> int:
    state, _ = end_rounds(in_battle(), 4)
    roller = Roller(random.Random(seed + 10_000))
    while state.phase is Phase.BATTLE:
        state, _ = end_rounds(state, 1, roller)
    assert state.ended_after_round is not None
    return state.ended_after_round


def test_seeded_dice_reach_every_ending() -> None:
    """Over seeded real dice each ending occurs, and the frequencies are the rule's (2/6 end after 5)."""
    endings = [_ended_after(seed) for seed in range(600)]
    counts = {n: endings.count(n) for n in (5, 6, 7)}
    assert set(endings) == {5, 6, 7}
    # P(5) = 1/3, P(6) = 2/3 * 1/2 = 1/3, P(7) = 1/3
    for n in (5, 6, 7):
        assert 150 < counts[n] < 250, counts
