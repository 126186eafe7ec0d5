"""Kill points with marks, worked by hand: unmarked 1, marked and destroyed that turn 2, marked earlier
and survived 0."""

from __future__ import annotations

import pytest
from fortyk_helpers import ALICE, BOB, in_battle, run

from rules.fortyk.actions import CaptureRelic, EndTurn, MarkUnit, RecordDestroyed
from rules.fortyk.events import MarkSurvived, RelicDropped, UnitDestroyed
from rules.fortyk.models import KillReason
from rules.fortyk.procedure import kill_value
from rules.fortyk.scoring import kill_points
from rules.session import Event


def _kills(events: list[Event]) -> list[tuple[int, str, int, KillReason]]:
    return [
        (e.kill.by, e.kill.unit, e.kill.kill_points, e.kill.reason)
        for e in events
        if isinstance(e, UnitDestroyed)
    ]


def test_an_unmarked_unit_is_worth_one() -> None:
    state, events = run(in_battle(), [RecordDestroyed(actor=ALICE, unit="Scouts")])
    assert _kills(events) == [(ALICE, "Scouts", 1, KillReason.UNMARKED)]
    assert kill_points(state, ALICE) == 1


def test_a_unit_marked_and_destroyed_the_same_turn_is_worth_two() -> None:
    state, events = run(
        in_battle(),
        [MarkUnit(actor=ALICE, unit="Terminators"), RecordDestroyed(actor=ALICE, unit="terminators")],
    )
    assert _kills(events) == [(ALICE, "Terminators", 2, KillReason.MARKED_THIS_TURN)]
    assert kill_points(state, ALICE) == 2


def test_a_marked_unit_that_survives_its_turn_is_worth_nothing_later() -> None:
    state, events = run(in_battle(), [MarkUnit(actor=ALICE, unit="Dreadnought"), EndTurn(actor=ALICE)])
    assert any(isinstance(e, MarkSurvived) and e.mark.unit == "Dreadnought" for e in events)
    assert kill_value(state, BOB, "Dreadnought") == (0, KillReason.MARKED_EARLIER)
    # destroyed by Alice in Bob's turn of the same round: not the turn it was marked in
    state, events = run(state, [RecordDestroyed(actor=ALICE, unit="Dreadnought")])
    assert _kills(events) == [(ALICE, "Dreadnought", 0, KillReason.MARKED_EARLIER)]
    assert kill_points(state, ALICE) == 0


def test_a_unit_destroyed_in_its_marking_turn_does_not_survive_the_mark() -> None:
    _, events = run(
        in_battle(),
        [
            MarkUnit(actor=ALICE, unit="Rhino"),
            RecordDestroyed(actor=ALICE, unit="Rhino"),
            EndTurn(actor=ALICE),
        ],
    )
    assert not any(isinstance(e, MarkSurvived) for e in events)


def test_a_hand_worked_battle() -> None:
    """Round 1: Alice marks and kills Terminators (2) and kills Scouts (1); in Bob's turn she kills the
    Assault Squad (1); Bob marks the Dreadnought and fails, and kills a Tactical Squad (1).
    Round 2: Alice marks the Devastators and fails; she kills them in Bob's turn anyway (0). Bob marks
    the Rhino before moving, then kills it (2) and the Dreadnought that survived his round-1 mark (0).
    Alice: 2 + 1 + 1 + 0 = 4 KP. Bob: 1 + 2 + 0 = 3 KP."""
    state, events = run(
        in_battle(),
        [
            MarkUnit(actor=ALICE, unit="Terminators"),
            RecordDestroyed(actor=ALICE, unit="Terminators"),
            RecordDestroyed(actor=ALICE, unit="Scouts"),
            EndTurn(actor=ALICE),
            MarkUnit(actor=BOB, unit="Dreadnought"),
            RecordDestroyed(actor=ALICE, unit="Assault Squad"),
            RecordDestroyed(actor=BOB, unit="Tactical Squad"),
            EndTurn(actor=BOB),
            MarkUnit(actor=ALICE, unit="Devastators"),
            EndTurn(actor=ALICE),
            MarkUnit(actor=BOB, unit="Rhino"),
            RecordDestroyed(actor=ALICE, unit="Devastators"),
            RecordDestroyed(actor=BOB, unit="Rhino"),
            RecordDestroyed(actor=BOB, unit="Dreadnought"),
        ],
    )
    assert _kills(events) == [
        (ALICE, "Terminators", 2, KillReason.MARKED_THIS_TURN),
        (ALICE, "Scouts", 1, KillReason.UNMARKED),
        (ALICE, "Assault Squad", 1, KillReason.UNMARKED),
        (BOB, "Tactical Squad", 1, KillReason.UNMARKED),
        (ALICE, "Devastators", 0, KillReason.MARKED_EARLIER),
        (BOB, "Rhino", 2, KillReason.MARKED_THIS_TURN),
        (BOB, "Dreadnought", 0, KillReason.MARKED_EARLIER),
    ]
    assert [e.mark.unit for e in events if isinstance(e, MarkSurvived)] == ["Dreadnought", "Devastators"]
    assert (kill_points(state, ALICE), kill_points(state, BOB)) == (4, 3)
    [last] = [e for e in events if isinstance(e, UnitDestroyed)][-1:]
    assert last.total_kill_points == 3


def test_the_bonus_comes_from_the_mission_data() -> None:
    state = in_battle()
    marks = state.mission.marks
    assert marks is not None
    mission = state.mission.model_copy(update={"marks": marks.model_copy(update={"bonus_kill_points": 3})})
    state, events = run(
        state.model_copy(update={"mission": mission}),
        [MarkUnit(actor=ALICE, unit="Terminators"), RecordDestroyed(actor=ALICE, unit="Terminators")],
    )
    assert _kills(events) == [(ALICE, "Terminators", 4, KillReason.MARKED_THIS_TURN)]


def test_destroying_the_relic_carrier_drops_the_relic() -> None:
    state, _ = run(in_battle(), [EndTurn(actor=ALICE), CaptureRelic(actor=BOB, unit="Scout Bikers")])
    assert [(h.relic_owner, h.unit) for h in state.relic_holders] == [(ALICE, "Scout Bikers")]
    state, events = run(state, [RecordDestroyed(actor=ALICE, unit="scout bikers")])
    assert _kills(events) == [(ALICE, "Scout Bikers", 1, KillReason.UNMARKED)]
    assert any(isinstance(e, RelicDropped) and e.because_destroyed for e in events)
    assert state.relic_holders == []


@pytest.mark.parametrize("name", ["Intercessors", "  intercessors ", "INTERCESSORS"])
def test_unit_names_match_without_case_or_spacing(name: str) -> None:
    state, _ = run(in_battle(), [MarkUnit(actor=ALICE, unit="Intercessors")])
    state, events = run(state, [RecordDestroyed(actor=ALICE, unit=name)])
    assert _kills(events)[0][1] == "Intercessors"
    assert state.named_units == [(BOB, "Intercessors")]
