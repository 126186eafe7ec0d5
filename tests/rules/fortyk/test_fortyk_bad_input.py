"""Every refusal is a RuleError with a specific code and values, and the state given to `step` is
unchanged."""

from __future__ import annotations

import pytest
from fortyk_helpers import ALICE, BOB, dice, end_rounds, in_battle, new_game, no_dice, run

from rules.dice import Roller
from rules.errors import RuleError
from rules.fortyk import FortyKState, step
from rules.fortyk.actions import (
    CaptureRelic,
    DropRelic,
    EndTurn,
    FortyKAction,
    MarkUnit,
    RecordDestroyed,
    ReportEnd,
    RollForDeployment,
)


def refused(
    state: FortyKState, action: FortyKAction, code: str, roller: Roller | None = None, **params: object
) -> None:
    """`action` is refused with `code`, whose values include `params`, and nothing changes."""
    before = state.model_dump_json()
    with pytest.raises(RuleError) as caught:
        step(state, action, roller or no_dice())
    assert caught.value.code == code, caught.value
    assert params.items() <= caught.value.params.items(), caught.value.params
    assert state.model_dump_json() == before


def test_marking_twice_in_a_turn() -> None:
    state, _ = run(in_battle(), [MarkUnit(actor=ALICE, unit="Terminators")])
    refused(state, MarkUnit(actor=ALICE, unit="Scouts"), "fortyk.marked_this_turn", unit="Terminators")


def test_marking_your_own_unit() -> None:
    # The Scout Bikers are known to be Bob's because they carry Alice's relic.
    state, _ = run(
        in_battle(), [EndTurn(actor=ALICE), CaptureRelic(actor=BOB, unit="Scout Bikers"), EndTurn(actor=BOB)]
    )
    state, _ = run(state, [EndTurn(actor=ALICE)])
    refused(
        state,
        MarkUnit(actor=BOB, unit="scout bikers"),
        "fortyk.own_unit.mark",
        unit="Scout Bikers",
        enemy=ALICE,
    )


def test_marking_the_unit_that_carries_your_relic() -> None:
    state, _ = run(
        in_battle(), [EndTurn(actor=ALICE), CaptureRelic(actor=BOB, unit="Scout Bikers"), EndTurn(actor=BOB)]
    )
    refused(
        state, MarkUnit(actor=ALICE, unit="Scout Bikers"), "fortyk.mark_relic_carrier", unit="Scout Bikers"
    )


def test_marking_a_unit_that_survived_an_earlier_mark() -> None:
    state, _ = run(
        in_battle(), [MarkUnit(actor=ALICE, unit="Terminators"), EndTurn(actor=ALICE), EndTurn(actor=BOB)]
    )
    refused(
        state, MarkUnit(actor=ALICE, unit="Terminators"), "fortyk.mark_survived", unit="Terminators", round=1
    )


def test_marking_a_destroyed_unit() -> None:
    state, _ = run(
        in_battle(), [RecordDestroyed(actor=ALICE, unit="Scouts"), EndTurn(actor=ALICE), EndTurn(actor=BOB)]
    )
    refused(state, MarkUnit(actor=ALICE, unit="Scouts"), "fortyk.mark_destroyed", unit="Scouts", round=1)


def test_marking_after_the_turn_has_moved_on() -> None:
    state, _ = run(in_battle(), [RecordDestroyed(actor=ALICE, unit="Scouts")])
    refused(state, MarkUnit(actor=ALICE, unit="Terminators"), "fortyk.marking_closed")


def test_a_late_kill_by_the_opponent_does_not_close_the_marking_window() -> None:
    state, _ = run(
        in_battle(), [RecordDestroyed(actor=BOB, unit="Guardsmen"), MarkUnit(actor=ALICE, unit="Orks")]
    )
    assert [m.unit for m in state.marks] == ["Orks"]


def test_recording_a_destroyed_unit_twice() -> None:
    state, _ = run(in_battle(), [RecordDestroyed(actor=ALICE, unit="Scouts")])
    refused(
        state, RecordDestroyed(actor=ALICE, unit="SCOUTS"), "fortyk.already_destroyed", unit="Scouts", round=1
    )


def test_recording_your_own_unit_as_your_kill() -> None:
    state, _ = run(in_battle(), [RecordDestroyed(actor=ALICE, unit="Scouts")])
    refused(state, RecordDestroyed(actor=BOB, unit="Scouts"), "fortyk.own_unit.destroyed", enemy=ALICE)


@pytest.mark.parametrize(
    ("action", "code"),
    [
        (MarkUnit(actor=BOB, unit="Scouts"), "fortyk.not_your_turn.mark"),
        (EndTurn(actor=BOB), "fortyk.not_your_turn.end_turn"),
        (CaptureRelic(actor=BOB, unit="Bikers"), "fortyk.not_your_turn.capture_relic"),
    ],
)
def test_acting_out_of_turn(action: FortyKAction, code: str) -> None:
    refused(in_battle(first=ALICE), action, code, player=ALICE)


def test_taking_the_relic_with_an_enemy_unit() -> None:
    # Scouts are known to be Bob's, so Alice cannot name them as the unit taking Bob's relic.
    state, _ = run(in_battle(), [RecordDestroyed(actor=ALICE, unit="Scouts")])
    refused(
        state, CaptureRelic(actor=ALICE, unit="Scouts"), "fortyk.relic_enemy_unit", unit="Scouts", enemy=BOB
    )


def test_taking_the_relic_twice_and_dropping_what_you_do_not_hold() -> None:
    state = in_battle()
    refused(state, DropRelic(actor=ALICE), "fortyk.no_relic_carried")
    state, _ = run(state, [CaptureRelic(actor=ALICE, unit="Jump Pack Squad")])
    refused(state, CaptureRelic(actor=ALICE, unit="Bikers"), "fortyk.relic_held", unit="Jump Pack Squad")
    state, _ = run(state, [DropRelic(actor=ALICE)])
    assert state.relic_holders == []


def test_a_destroyed_unit_cannot_take_the_relic() -> None:
    state, _ = run(
        in_battle(), [EndTurn(actor=ALICE), RecordDestroyed(actor=BOB, unit="Scouts"), EndTurn(actor=BOB)]
    )
    refused(
        state, CaptureRelic(actor=ALICE, unit="Scouts"), "fortyk.relic_destroyed_unit", unit="Scouts", round=1
    )


def test_battle_actions_before_the_battle() -> None:
    refused(new_game(), MarkUnit(actor=ALICE, unit="Scouts"), "fortyk.not_yet.mark", phase="deployment_roll")
    refused(new_game(), RecordDestroyed(actor=ALICE, unit="Scouts"), "fortyk.not_yet.destroyed")
    refused(new_game(), ReportEnd(actor=ALICE, quarters=1), "fortyk.not_yet.report_end")
    refused(
        in_battle(), ReportEnd(actor=ALICE, quarters=1), "fortyk.not_yet.report_end", phase="battle", round=1
    )
    refused(in_battle(), RollForDeployment(actor=ALICE), "fortyk.no_longer.roll_deployment")


def _scoring() -> FortyKState:
    state, _ = end_rounds(in_battle(), 5, dice(1))
    return state


def test_quarters_over_the_table() -> None:
    refused(_scoring(), ReportEnd(actor=ALICE, quarters=5), "fortyk.quarters_over", quarters=4, claimed=5)


def test_quarters_claimed_together_over_four() -> None:
    state, _ = run(_scoring(), [ReportEnd(actor=ALICE, quarters=3)])
    refused(
        state,
        ReportEnd(actor=BOB, quarters=2),
        "fortyk.quarters_taken",
        player=ALICE,
        claimed=3,
        left=1,
        quarters=4,
    )


def test_a_report_can_be_corrected_before_the_other_side_reports() -> None:
    state, _ = run(_scoring(), [ReportEnd(actor=ALICE, quarters=3), ReportEnd(actor=ALICE, quarters=1)])
    assert [(r.player, r.quarters) for r in state.reports] == [(ALICE, 1)]
    state, _ = run(state, [ReportEnd(actor=BOB, quarters=3)])
    assert state.finished


def test_reporting_an_unmarked_unit_as_a_marked_survivor() -> None:
    state, _ = run(in_battle(), [MarkUnit(actor=ALICE, unit="Terminators")])
    state, _ = end_rounds(state, 5, dice(1))
    refused(
        state,
        ReportEnd(actor=BOB, quarters=1, marked_alive=["Scouts"]),
        "fortyk.not_marked_alive",
        unit="Scouts",
        units="Terminators",
    )
    refused(
        state,
        ReportEnd(actor=ALICE, quarters=1, marked_alive=["Terminators"]),
        "fortyk.no_marked_alive",
        unit="Terminators",
    )


def test_a_finished_game_refuses_everything() -> None:
    state, _ = run(_scoring(), [ReportEnd(actor=ALICE, quarters=1), ReportEnd(actor=BOB, quarters=1)])
    refused(state, RollForDeployment(actor=ALICE), "game.finished")  # rules/session.py
