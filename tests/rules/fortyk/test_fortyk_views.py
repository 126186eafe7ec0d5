"""Views for the Discord layer: prompts and buttons per phase, unit suggestions, the scoreboard, and a
channel line for every event."""

from __future__ import annotations

import pytest
from fortyk_helpers import ALICE, BOB, deployed, dice, end_rounds, in_battle, new_game, run

from rules.errors import RuleError
from rules.fortyk import (
    FortyKState,
    action_for_button,
    describe,
    known_units,
    prompt,
    scoreboard,
    unit_suggestions,
)
from rules.fortyk.models import (
    EVENT_ADAPTER,
    CaptureRelic,
    ChooseZone,
    EndTurn,
    FinishDeployment,
    MarkUnit,
    Phase,
    RecordDestroyed,
    ReportEnd,
    RollForDeployment,
    RollForFirstTurn,
    SeizeInitiative,
)
from rules.session import Event


def _keys(state: FortyKState) -> list[str]:
    return [b.key for b in prompt(state).buttons]


def test_prompts_walk_through_the_set_up() -> None:
    state = new_game()
    assert prompt(state).phase is Phase.DEPLOYMENT_ROLL and _keys(state) == ["roll_deployment"]
    assert prompt(state).acting == [ALICE, BOB]
    state, _ = run(state, [RollForDeployment(actor=ALICE)], dice(1, 6))
    assert prompt(state).acting == [BOB]
    assert _keys(state) == ["zone:0", "zone:1", "zone:2", "zone:3"]
    assert next(b.label for b in prompt(state).buttons) == "North-west quarter"
    state, _ = run(state, [action_for_button(state, "zone:2", BOB)])
    assert state.zone is not None and state.zone.zone == "North-east quarter"
    assert prompt(state).acting == [ALICE, BOB] and _keys(state) == ["deployment_done"]
    assert f"<@{ALICE}> sets up a unit first" in prompt(state).text
    state, _ = run(state, [FinishDeployment(actor=BOB)])
    assert prompt(state).acting == [ALICE] and "has finished" in prompt(state).text
    state, _ = run(state, [FinishDeployment(actor=ALICE)])
    assert _keys(state) == ["roll_first_turn"] and f"<@{BOB}> +1" in prompt(state).text
    state, _ = run(state, [RollForFirstTurn(actor=BOB)], dice(6, 1))
    assert _keys(state) == ["order:first", "order:second"] and prompt(state).acting == [ALICE]
    state, _ = run(state, [action_for_button(state, "order:first", ALICE)])
    assert _keys(state) == ["seize:yes", "seize:no"] and prompt(state).acting == [BOB]
    assert action_for_button(state, "seize:no", BOB) == SeizeInitiative(actor=BOB, attempt=False)


def test_battle_buttons_follow_the_turn() -> None:
    state = in_battle()
    p = prompt(state)
    assert p.acting == [ALICE]
    assert [b.key for b in p.buttons] == ["mark", "destroyed", "capture_relic", "end_turn"]
    mark = p.buttons[0]
    assert mark.players == [ALICE] and mark.needs == "unit"
    state, _ = run(state, [MarkUnit(actor=ALICE, unit="Scouts"), CaptureRelic(actor=ALICE, unit="Bikers")])
    assert _keys(state) == ["destroyed", "drop_relic", "end_turn"]
    assert action_for_button(state, "destroyed", BOB, "Bikers") == RecordDestroyed(actor=BOB, unit="Bikers")


def test_stale_or_incomplete_buttons_are_refused() -> None:
    state = in_battle()
    with pytest.raises(RuleError, match="earlier step"):
        action_for_button(state, "zone:9", ALICE)
    with pytest.raises(RuleError, match="Name the unit"):
        action_for_button(state, "mark", ALICE, "   ")
    with pytest.raises(RuleError, match="at most 80"):
        action_for_button(state, "mark", ALICE, "x" * 81)


def test_scoring_prompt_and_finished_prompt() -> None:
    state, _ = end_rounds(in_battle(), 5, dice(2))
    p = prompt(state)
    assert p.phase is Phase.SCORING and p.buttons[0].needs == "report" and "flyers" in p.text
    state, _ = run(state, [ReportEnd(actor=ALICE, quarters=1)])
    assert prompt(state).acting == [BOB]
    state, _ = run(state, [ReportEnd(actor=BOB, quarters=1)])
    assert prompt(state).buttons == [] and prompt(state).acting == []


def test_unit_suggestions_for_each_purpose() -> None:
    state, _ = run(
        in_battle(),
        [
            MarkUnit(actor=ALICE, unit="Terminators"),
            RecordDestroyed(actor=ALICE, unit="Scouts"),
            CaptureRelic(actor=ALICE, unit="Bikers"),
            EndTurn(actor=ALICE),
            RecordDestroyed(actor=BOB, unit="Tactical Squad"),
            EndTurn(actor=BOB),
        ],
    )
    assert known_units(state, BOB) == ["Terminators", "Scouts"]
    assert known_units(state, ALICE) == ["Bikers", "Tactical Squad"]
    assert unit_suggestions(state, ALICE, "mark") == []  # Terminators survived their mark
    assert unit_suggestions(state, ALICE, "destroyed") == ["Terminators"]
    assert unit_suggestions(state, ALICE, "relic") == ["Bikers"]
    assert unit_suggestions(state, BOB, "mark") == []  # the Bikers carry Bob's relic
    assert unit_suggestions(state, BOB, "destroyed", "bik") == ["Bikers"]
    assert unit_suggestions(state, BOB, "report") == ["Terminators"]


def test_scoreboard_shows_each_side_and_the_dice() -> None:
    state, _ = run(
        in_battle(),
        [
            MarkUnit(actor=ALICE, unit="Terminators"),
            RecordDestroyed(actor=ALICE, unit="Terminators"),
            CaptureRelic(actor=ALICE, unit="Bikers"),
        ],
    )
    board = scoreboard(state)
    alice, bob = board.sides
    assert (alice.kill_points, bob.kill_points) == (2, 0)
    assert alice.carries_enemy_relic == "Bikers" and alice.marks_made == ["Terminators"]
    assert alice.zone == "North-west quarter" and bob.zone == "South-east quarter"
    assert board.active == ALICE and board.round == 1 and board.max_rounds == 7
    assert board.dice[0].startswith("Deployment roll-off") and "Seize" in board.dice[-1]
    state, _ = end_rounds(state, 5, dice(1))
    state, _ = run(state, [ReportEnd(actor=ALICE, quarters=2), ReportEnd(actor=BOB, quarters=1)])
    board = scoreboard(state)
    assert [s.total for s in board.sides] == [15 + 10 + 5, 0]
    assert board.winner == ALICE and len(board.results) == 4
    assert "the battle ends" in board.dice[-1]


def test_every_event_of_a_whole_game_has_a_channel_line() -> None:
    events: list[Event] = []
    state = deployed()
    state, more = run(state, [RollForFirstTurn(actor=ALICE)], dice(3, 3, 6, 1))
    events += more
    state, more = run(
        state,
        [
            action_for_button(state, "order:first", ALICE),
            SeizeInitiative(actor=BOB, attempt=True),
            MarkUnit(actor=ALICE, unit="Terminators"),
            RecordDestroyed(actor=ALICE, unit="Terminators"),
            CaptureRelic(actor=ALICE, unit="Bikers"),
            EndTurn(actor=ALICE),
            MarkUnit(actor=BOB, unit="Rhino"),
            RecordDestroyed(actor=BOB, unit="Bikers"),
            EndTurn(actor=BOB),
        ],
        dice(2),
    )
    events += more
    state, more = end_rounds(state, 6, dice(3, 4))
    events += more
    state, more = run(state, [ReportEnd(actor=ALICE, quarters=2), ReportEnd(actor=BOB, quarters=2)])
    events += more
    kinds = {EVENT_ADAPTER.validate_python(e).kind for e in events}
    assert {
        "first_turn_rolled",
        "order_chosen",
        "seize_rolled",
        "battle_started",
        "turn_started",
        "marked",
        "destroyed",
        "relic_captured",
        "relic_dropped",
        "mark_survived",
        "turn_ended",
        "battle_length_rolled",
        "battle_ended",
        "end_reported",
        "scored",
    } <= kinds
    for event in events:
        line = describe(event, state.players)
        assert line and "None" not in line
        assert EVENT_ADAPTER.validate_json(event.model_dump_json()) == event
    lines = [describe(e, state.players) for e in events]
    assert any("🎲 3 (+1 = 4)" in line for line in lines), lines[:3]
    assert any("rolls 🎲 3 (needs 3+) — the battle goes on" in line for line in lines)
    assert any("the last one" in line for line in lines)


def test_set_up_events_have_lines_too() -> None:
    _, events = run(
        new_game(),
        [
            RollForDeployment(actor=ALICE),
            ChooseZone(actor=ALICE, zone="North-west quarter"),
            FinishDeployment(actor=BOB),
        ],
        dice(6, 1),
    )
    lines = [describe(e, [ALICE, BOB]) for e in events]
    assert lines[0].startswith("Deployment roll-off") and "wins" in lines[0]
    assert "North-west quarter" in lines[1] and "South-east quarter" in lines[1]
    assert lines[2].endswith("finished deploying first.")
