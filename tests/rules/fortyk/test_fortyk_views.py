"""Views for the bot: who acts and the buttons per phase, unit suggestions, and the scoreboard as data
(its words, and a channel line for every event, are tested with the cog's text in tests/cogs/fortyk)."""

from __future__ import annotations

import pytest
from fortyk_helpers import ALICE, BOB, dice, end_rounds, in_battle, new_game, run

from rules.errors import RuleError
from rules.fortyk import (
    FortyKState,
    action_for_button,
    known_units,
    prompt,
    scoreboard,
    unit_suggestions,
)
from rules.fortyk.actions import (
    CaptureRelic,
    EndTurn,
    FinishDeployment,
    MarkUnit,
    RecordDestroyed,
    ReportEnd,
    RollForDeployment,
    RollForFirstTurn,
    SeizeInitiative,
)
from rules.fortyk.models import Phase


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
    assert state.deploys_first == ALICE
    state, _ = run(state, [FinishDeployment(actor=BOB)])
    assert prompt(state).acting == [ALICE]
    state, _ = run(state, [FinishDeployment(actor=ALICE)])
    assert _keys(state) == ["roll_first_turn"] and state.first_turn_bonuses() == (0, 1)
    state, _ = run(state, [RollForFirstTurn(actor=BOB)], dice(6, 1))
    assert _keys(state) == ["order:first", "order:second"] and prompt(state).acting == [ALICE]
    state, _ = run(state, [action_for_button(state, "order:first", ALICE)])
    assert _keys(state) == ["seize:yes", "seize:no"] and prompt(state).acting == [BOB]
    assert action_for_button(state, "seize:no", BOB) == SeizeInitiative(actor=BOB, attempt=False)


def test_battle_buttons_follow_the_turn() -> None:
    state = in_battle()
    p = prompt(state)
    assert p.acting == [ALICE]
    assert [b.key for b in p.buttons] == ["mark", "destroyed", "capture_relic", "end_turn:r1.t1.turn"]
    mark = p.buttons[0]
    assert mark.players == [ALICE] and mark.needs == "unit"
    state, _ = run(state, [MarkUnit(actor=ALICE, unit="Scouts"), CaptureRelic(actor=ALICE, unit="Bikers")])
    assert _keys(state) == ["destroyed", "drop_relic", "end_turn:r1.t1.turn"]
    assert action_for_button(state, "destroyed", BOB, "Bikers") == RecordDestroyed(actor=BOB, unit="Bikers")


def _refused_code(state: FortyKState, key: str, actor: int, unit: str | None = None) -> RuleError:
    with pytest.raises(RuleError) as caught:
        action_for_button(state, key, actor, unit)
    return caught.value


def test_stale_or_incomplete_buttons_are_refused() -> None:
    state = in_battle()
    assert _refused_code(state, "zone:9", ALICE).code == "fortyk.stale_button"
    assert _refused_code(state, "mark", ALICE, "   ").code == "fortyk.unit_missing"
    too_long = _refused_code(state, "mark", ALICE, "x" * 81)
    assert (too_long.code, too_long.params) == ("fortyk.unit_long", {"limit": 80})


def test_an_end_turn_button_from_an_earlier_turn_is_refused() -> None:
    state = in_battle()
    old_key = next(b.key for b in prompt(state).buttons if b.key.startswith("end_turn"))
    state, _ = run(state, [action_for_button(state, old_key, ALICE)])
    state, _ = run(state, [EndTurn(actor=BOB)], dice(6))
    assert (state.round, state.active_player) == (2, ALICE)
    assert _refused_code(state, old_key, ALICE).code == "fortyk.stale_button"
    fresh = next(b.key for b in prompt(state).buttons if b.key.startswith("end_turn"))
    assert fresh == "end_turn:r2.t1.turn" and action_for_button(state, fresh, ALICE) == EndTurn(actor=ALICE)
    assert action_for_button(state, "end_turn", ALICE) == EndTurn(actor=ALICE)  # /40k end-turn


def test_scoring_prompt_and_finished_prompt() -> None:
    state, _ = end_rounds(in_battle(), 5, dice(2))
    p = prompt(state)
    assert p.phase is Phase.SCORING and p.buttons[0].needs == "report"
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
    assert board.deployment_roll == state.deployment_roll and board.deployment_roll is not None
    assert board.seize is not None and board.seize.player == BOB and not board.seize.seized
    state, _ = end_rounds(state, 5, dice(1))
    state, _ = run(state, [ReportEnd(actor=ALICE, quarters=2), ReportEnd(actor=BOB, quarters=1)])
    board = scoreboard(state)
    assert [s.total for s in board.sides] == [15 + 10 + 5, 0]
    assert board.winner == ALICE and len(board.results) == 4
    assert board.continue_rolls[-1].continues is False
    kill_result = next(r for r in board.results if r.key == "primary")
    assert (kill_result.counts, kill_result.winner, kill_result.outcome) == ([2, 0], ALICE, "won")
