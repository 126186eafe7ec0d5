"""Every refusal is a RuleError with a specific message, and the state given to `step` is unchanged."""

from __future__ import annotations

import pytest
from fortyk_helpers import ALICE, BOB, dice, end_rounds, in_battle, new_game, no_dice, run

from rules.dice import Roller
from rules.errors import RuleError
from rules.fortyk import FortyKState, step
from rules.fortyk.models import (
    CaptureRelic,
    DropRelic,
    EndTurn,
    FortyKAction,
    MarkUnit,
    RecordDestroyed,
    ReportEnd,
    RollForDeployment,
)


def refused(state: FortyKState, action: FortyKAction, match: str, roller: Roller | None = None) -> None:
    before = state.model_dump_json()
    with pytest.raises(RuleError, match=match):
        step(state, action, roller or no_dice())
    assert state.model_dump_json() == before


def test_marking_twice_in_a_turn() -> None:
    state, _ = run(in_battle(), [MarkUnit(actor=ALICE, unit="Terminators")])
    refused(state, MarkUnit(actor=ALICE, unit="Scouts"), "already marked Terminators this turn")


def test_marking_your_own_unit() -> None:
    # The Scout Bikers are known to be Bob's because they carry Alice's relic.
    state, _ = run(
        in_battle(), [EndTurn(actor=ALICE), CaptureRelic(actor=BOB, unit="Scout Bikers"), EndTurn(actor=BOB)]
    )
    state, _ = run(state, [EndTurn(actor=ALICE)])
    refused(state, MarkUnit(actor=BOB, unit="scout bikers"), "one of your own units")


def test_marking_the_unit_that_carries_your_relic() -> None:
    state, _ = run(
        in_battle(), [EndTurn(actor=ALICE), CaptureRelic(actor=BOB, unit="Scout Bikers"), EndTurn(actor=BOB)]
    )
    refused(state, MarkUnit(actor=ALICE, unit="Scout Bikers"), "carries your relic")


def test_marking_a_unit_that_survived_an_earlier_mark() -> None:
    state, _ = run(
        in_battle(), [MarkUnit(actor=ALICE, unit="Terminators"), EndTurn(actor=ALICE), EndTurn(actor=BOB)]
    )
    refused(state, MarkUnit(actor=ALICE, unit="Terminators"), "worth no kill points now")


def test_marking_a_destroyed_unit() -> None:
    state, _ = run(
        in_battle(), [RecordDestroyed(actor=ALICE, unit="Scouts"), EndTurn(actor=ALICE), EndTurn(actor=BOB)]
    )
    refused(state, MarkUnit(actor=ALICE, unit="Scouts"), "was destroyed in battle round 1")


def test_marking_after_the_turn_has_moved_on() -> None:
    state, _ = run(in_battle(), [RecordDestroyed(actor=ALICE, unit="Scouts")])
    refused(state, MarkUnit(actor=ALICE, unit="Terminators"), "before movement")


def test_a_late_kill_by_the_opponent_does_not_close_the_marking_window() -> None:
    state, _ = run(
        in_battle(), [RecordDestroyed(actor=BOB, unit="Guardsmen"), MarkUnit(actor=ALICE, unit="Orks")]
    )
    assert [m.unit for m in state.marks] == ["Orks"]


def test_recording_a_destroyed_unit_twice() -> None:
    state, _ = run(in_battle(), [RecordDestroyed(actor=ALICE, unit="Scouts")])
    refused(state, RecordDestroyed(actor=ALICE, unit="SCOUTS"), "already recorded as destroyed")


def test_recording_your_own_unit_as_your_kill() -> None:
    state, _ = run(in_battle(), [RecordDestroyed(actor=ALICE, unit="Scouts")])
    refused(state, RecordDestroyed(actor=BOB, unit="Scouts"), "one of your own units")


@pytest.mark.parametrize(
    ("action", "match"),
    [
        (MarkUnit(actor=BOB, unit="Scouts"), "mark a unit only in your own turn"),
        (EndTurn(actor=BOB), "end the turn only in your own turn"),
        (CaptureRelic(actor=BOB, unit="Bikers"), "take the enemy relic only in your own turn"),
    ],
)
def test_acting_out_of_turn(action: FortyKAction, match: str) -> None:
    refused(in_battle(first=ALICE), action, match)


def test_taking_the_relic_with_an_enemy_unit() -> None:
    # Scouts are known to be Bob's, so Alice cannot name them as the unit taking Bob's relic.
    state, _ = run(in_battle(), [RecordDestroyed(actor=ALICE, unit="Scouts")])
    refused(state, CaptureRelic(actor=ALICE, unit="Scouts"), "one of <@222222222222>'s units")


def test_taking_the_relic_twice_and_dropping_what_you_do_not_hold() -> None:
    state = in_battle()
    refused(state, DropRelic(actor=ALICE), "None of your units carries")
    state, _ = run(state, [CaptureRelic(actor=ALICE, unit="Jump Pack Squad")])
    refused(state, CaptureRelic(actor=ALICE, unit="Bikers"), "already carries the enemy relic")
    state, _ = run(state, [DropRelic(actor=ALICE)])
    assert state.relic_holders == []


def test_a_destroyed_unit_cannot_take_the_relic() -> None:
    state, _ = run(
        in_battle(), [EndTurn(actor=ALICE), RecordDestroyed(actor=BOB, unit="Scouts"), EndTurn(actor=BOB)]
    )
    refused(state, CaptureRelic(actor=ALICE, unit="Scouts"), "destroyed in battle round 1")


def test_battle_actions_before_the_battle() -> None:
    refused(new_game(), MarkUnit(actor=ALICE, unit="Scouts"), "can't mark a unit now")
    refused(new_game(), RecordDestroyed(actor=ALICE, unit="Scouts"), "can't record a destroyed unit now")
    refused(new_game(), ReportEnd(actor=ALICE, quarters=1), "can't report table quarters now")


def _scoring() -> FortyKState:
    state, _ = end_rounds(in_battle(), 5, dice(1))
    return state


def test_quarters_over_the_table() -> None:
    refused(_scoring(), ReportEnd(actor=ALICE, quarters=5), "only 4 table quarters")


def test_quarters_claimed_together_over_four() -> None:
    state, _ = run(_scoring(), [ReportEnd(actor=ALICE, quarters=3)])
    refused(
        state, ReportEnd(actor=BOB, quarters=2), "claims 3 table quarters, so you can claim at most 1 of 4"
    )


def test_a_report_can_be_corrected_before_the_other_side_reports() -> None:
    state, _ = run(_scoring(), [ReportEnd(actor=ALICE, quarters=3), ReportEnd(actor=ALICE, quarters=1)])
    assert [(r.player, r.quarters) for r in state.reports] == [(ALICE, 1)]
    state, _ = run(state, [ReportEnd(actor=BOB, quarters=3)])
    assert state.finished


def test_reporting_an_unmarked_unit_as_a_marked_survivor() -> None:
    state, _ = run(in_battle(), [MarkUnit(actor=ALICE, unit="Terminators")])
    state, _ = end_rounds(state, 5, dice(1))
    refused(state, ReportEnd(actor=BOB, quarters=1, marked_alive=["Scouts"]), "Terminators")
    refused(state, ReportEnd(actor=ALICE, quarters=1, marked_alive=["Terminators"]), "marked .*: none")


def test_a_finished_game_refuses_everything() -> None:
    state, _ = run(_scoring(), [ReportEnd(actor=ALICE, quarters=1), ReportEnd(actor=BOB, quarters=1)])
    refused(state, RollForDeployment(actor=ALICE), "already finished")
