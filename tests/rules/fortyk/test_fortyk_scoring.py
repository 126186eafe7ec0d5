"""The four victory conditions, split rounding up, and the outcome the score store receives."""

from __future__ import annotations

import pytest
from fortyk_helpers import ALICE, BOB, dice, end_rounds, in_battle, run

from rules.fortyk import FortyKState
from rules.fortyk.actions import CaptureRelic, EndTurn, MarkUnit, RecordDestroyed, ReportEnd
from rules.fortyk.events import GameScored
from rules.fortyk.models import Phase
from rules.fortyk.scoring import split_share


@pytest.mark.parametrize(("points", "share"), [(15, 8), (10, 5), (5, 3), (1, 1), (2, 1), (4, 2)])
def test_split_rounds_up(points: int, share: int) -> None:
    assert split_share(points) == share


def _points(state: FortyKState) -> dict[str, tuple[int, int]]:
    return {r.key: (r.points_for(ALICE), r.points_for(BOB)) for r in state.results}


def test_a_hand_worked_result() -> None:
    """Alice marks and kills the Terminators (2 KP to 0); Bob marks the Dreadnought, which lives, and his
    Scout Bikers take Alice's relic and keep it. The battle ends after round 5. Alice claims 2 quarters,
    Bob 1. Primary: Alice 15. Secondary: Bob 10. Tertiary: Alice 5. Quaternary: Alice +1 (the Dreadnought).
    Alice 21, Bob 10."""
    state, _ = run(
        in_battle(),
        [
            MarkUnit(actor=ALICE, unit="Terminators"),
            RecordDestroyed(actor=ALICE, unit="Terminators"),
            EndTurn(actor=ALICE),
            MarkUnit(actor=BOB, unit="Dreadnought"),
            CaptureRelic(actor=BOB, unit="Scout Bikers"),
            EndTurn(actor=BOB),
        ],
    )
    state, _ = end_rounds(state, 4, dice(2))
    assert state.phase is Phase.SCORING and state.ended_after_round == 5
    state, events = run(state, [ReportEnd(actor=BOB, quarters=1), ReportEnd(actor=ALICE, quarters=2)])
    assert _points(state) == {
        "primary": (15, 0),
        "secondary": (0, 10),
        "tertiary": (5, 0),
        "quaternary": (1, 0),
    }
    assert [r.marked_alive for r in state.reports] == [[], ["Dreadnought"]]
    scored = events[-1]
    assert isinstance(scored, GameScored)
    assert [(t.player, t.points) for t in scored.totals] == [(ALICE, 21), (BOB, 10)]
    assert scored.winner == ALICE
    assert state.finished and state.phase is Phase.FINISHED
    assert state.outcome is not None
    assert state.outcome.winner == ALICE
    assert state.outcome.mission == "Marked for Death"
    assert [(s.player, s.score) for s in state.outcome.sides] == [(ALICE, 21), (BOB, 10)]
    primary, secondary, tertiary, quaternary = state.results
    assert (primary.counts, primary.winner) == ([2, 0], ALICE)
    assert (secondary.counts, secondary.units, secondary.winner) == ([0, 1], [[], ["Scout Bikers"]], BOB)
    assert (tertiary.counts, tertiary.winner) == ([2, 1], ALICE)
    assert (quaternary.counts, quaternary.units) == ([1, 0], [["Dreadnought"], []])
    assert state.outcome.summary.splitlines() == [
        "Marked for Death v2.0.0, ended after battle round 5.",
        "Primary — Marked for Death: 15–0",
        "Secondary — Defiance: 0–10",
        "Tertiary — Table Quarters: 5–0",
        "Quaternary — Marked and alive: 1–0",
    ]
    assert "<@" not in state.outcome.summary


def test_nothing_achieved_splits_every_condition_but_the_quaternary() -> None:
    state, _ = end_rounds(in_battle(), 5, dice(1))
    state, _ = run(state, [ReportEnd(actor=ALICE, quarters=0), ReportEnd(actor=BOB, quarters=0)])
    assert _points(state) == {
        "primary": (8, 8),
        "secondary": (5, 5),
        "tertiary": (3, 3),
        "quaternary": (0, 0),
    }
    assert [r.outcome for r in state.results] == ["split", "split", "split", "per_unit"]
    assert state.outcome is not None and state.outcome.winner is None
    assert [r.winner for r in state.results] == [None, None, None, None]


def test_ties_split_too() -> None:
    """One kill each, both relics held, two quarters each: 8/8, 5/5, 3/3."""
    state, _ = run(
        in_battle(),
        [
            RecordDestroyed(actor=ALICE, unit="Scouts"),
            CaptureRelic(actor=ALICE, unit="Bikers"),
            EndTurn(actor=ALICE),
            RecordDestroyed(actor=BOB, unit="Guardsmen"),
            CaptureRelic(actor=BOB, unit="Jetbikes"),
            EndTurn(actor=BOB),
        ],
    )
    state, _ = end_rounds(state, 4, dice(1))
    state, _ = run(state, [ReportEnd(actor=ALICE, quarters=2), ReportEnd(actor=BOB, quarters=2)])
    assert _points(state) == {
        "primary": (8, 8),
        "secondary": (5, 5),
        "tertiary": (3, 3),
        "quaternary": (0, 0),
    }
    assert (state.results[1].counts, state.results[1].units) == ([1, 1], [["Bikers"], ["Jetbikes"]])


def test_every_marked_survivor_scores_and_a_player_may_report_fewer() -> None:
    state, _ = run(
        in_battle(),
        [
            MarkUnit(actor=ALICE, unit="Terminators"),
            EndTurn(actor=ALICE),
            EndTurn(actor=BOB),
            MarkUnit(actor=ALICE, unit="Wraithguard"),
            EndTurn(actor=ALICE),
            EndTurn(actor=BOB),
        ],
    )
    state, _ = end_rounds(state, 3, dice(1))
    state, _ = run(
        state,
        [ReportEnd(actor=ALICE, quarters=0), ReportEnd(actor=BOB, quarters=0, marked_alive=["wraithguard"])],
    )
    assert _points(state)["quaternary"] == (0, 1)
    assert state.reports[-1].marked_alive == ["Wraithguard"]


def test_by_default_every_marked_unit_not_destroyed_is_alive() -> None:
    state, _ = run(
        in_battle(),
        [
            MarkUnit(actor=ALICE, unit="Terminators"),
            EndTurn(actor=ALICE),
            EndTurn(actor=BOB),
            MarkUnit(actor=ALICE, unit="Wraithguard"),
            EndTurn(actor=ALICE),
            EndTurn(actor=BOB),
        ],
    )
    state, _ = end_rounds(state, 3, dice(1))
    state, _ = run(state, [ReportEnd(actor=ALICE, quarters=0), ReportEnd(actor=BOB, quarters=0)])
    assert _points(state)["quaternary"] == (0, 2)


def test_a_condition_that_is_not_split_gives_nothing_on_a_tie() -> None:
    state = in_battle()
    conditions = [
        c.model_copy(update={"split_ties": False}) if c.key == "primary" else c
        for c in state.mission.conditions
    ]
    state = state.model_copy(update={"mission": state.mission.model_copy(update={"conditions": conditions})})
    state, _ = end_rounds(state, 5, dice(1))
    state, _ = run(state, [ReportEnd(actor=ALICE, quarters=0), ReportEnd(actor=BOB, quarters=0)])
    assert _points(state)["primary"] == (0, 0)
    assert state.results[0].outcome == "none"


def test_tabling_the_enemy_does_not_end_the_game() -> None:
    state, _ = run(
        in_battle(),
        [
            RecordDestroyed(actor=ALICE, unit="Scouts"),
            RecordDestroyed(actor=ALICE, unit="Terminators"),
            EndTurn(actor=ALICE),
        ],
    )
    assert state.phase is Phase.BATTLE and state.active_player == BOB
    state, _ = run(state, [EndTurn(actor=BOB)])
    assert state.round == 2 and not state.finished


def test_a_game_saved_with_worded_results_still_loads() -> None:
    """Results saved before they were values carried a sentence with mentions; it is dropped on load."""
    state, _ = end_rounds(in_battle(), 5, dice(1))
    state, _ = run(state, [ReportEnd(actor=ALICE, quarters=0), ReportEnd(actor=BOB, quarters=0)])
    saved = state.model_dump(mode="json")
    for result in saved["results"]:
        result["detail"] = f"<@{ALICE}> 0 KP, <@{BOB}> 0 KP: tied"
    loaded = FortyKState.model_validate(saved)
    assert [r.awards for r in loaded.results] == [r.awards for r in state.results]
