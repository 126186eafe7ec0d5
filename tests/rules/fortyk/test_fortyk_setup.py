"""Deployment and first turn: roll-offs, the zone choice, the +1 for finishing set-up first, seizing."""

from __future__ import annotations

import pytest
from fortyk_helpers import ALICE, BOB, deployed, dice, new_game, no_dice, run

from rules.errors import RuleError
from rules.fortyk import FortyKState, step
from rules.fortyk.actions import (
    ChooseOrder,
    ChooseZone,
    FinishDeployment,
    FortyKAction,
    RollForDeployment,
    RollForFirstTurn,
    SeizeInitiative,
)
from rules.fortyk.events import (
    BattleStarted,
    DeploymentFinished,
    DeploymentRolled,
    FirstTurnRolled,
    SeizeRolled,
    TurnStarted,
    ZoneChosen,
)
from rules.fortyk.models import Phase


def refusal_of(state: FortyKState, action: FortyKAction) -> RuleError:
    with pytest.raises(RuleError) as caught:
        step(state, action, no_dice())
    return caught.value


def test_deployment_roll_off_winner_chooses_zone_and_the_other_deploys_first() -> None:
    state, events = run(new_game(), [RollForDeployment(actor=ALICE)], dice(2, 5))
    assert isinstance(events[0], DeploymentRolled)
    assert events[0].roll.winner == BOB and events[0].roll.rolls == [(2, 5)]
    assert state.phase is Phase.CHOOSE_ZONE
    refused = refusal_of(state, ChooseZone(actor=ALICE, zone="North-west quarter"))
    assert (refused.code, refused.params) == ("fortyk.zone_chooser", {"player": BOB})
    state, events = run(state, [ChooseZone(actor=BOB, zone=" south-west QUARTER ")])
    assert isinstance(events[0], ZoneChosen)
    assert events[0].choice.zone == "South-west quarter"
    assert events[0].choice.opponent_zone == "North-east quarter"
    assert state.deploys_first == ALICE and events[0].deploys_first == ALICE
    assert state.phase is Phase.DEPLOYING


def test_deployment_ties_are_rolled_again_and_shown() -> None:
    _state, events = run(new_game(), [RollForDeployment(actor=ALICE)], dice(4, 4, 1, 1, 3, 2))
    assert isinstance(events[0], DeploymentRolled)
    assert events[0].roll.rolls == [(4, 4), (1, 1), (3, 2)]
    assert events[0].roll.winner == ALICE


def test_unknown_zone_is_refused_with_the_choices() -> None:
    state, _ = run(new_game(), [RollForDeployment(actor=ALICE)], dice(6, 1))
    refused = refusal_of(state, ChooseZone(actor=ALICE, zone="the middle"))
    assert refused.code == "fortyk.unknown_zone" and refused.params["zone"] == "the middle"
    assert str(refused.params["zones"]).startswith("North-west quarter, ")


def test_deployment_done_records_who_finished_first_once() -> None:
    state, _ = run(
        new_game(),
        [RollForDeployment(actor=ALICE), ChooseZone(actor=ALICE, zone="North-east quarter")],
        dice(6, 1),
    )
    state, events = run(state, [FinishDeployment(actor=BOB)])
    assert events == [DeploymentFinished(player=BOB, first=True)]
    assert refusal_of(state, FinishDeployment(actor=BOB)).code == "fortyk.already_deployed"
    state, events = run(state, [FinishDeployment(actor=ALICE)])
    assert events == [DeploymentFinished(player=ALICE, first=False)]
    assert state.setup_done == [BOB, ALICE]
    assert state.phase is Phase.FIRST_TURN_ROLL


def test_finishing_set_up_first_adds_one_to_the_first_turn_roll() -> None:
    # Bob finished first: Alice rolls 4, Bob rolls 3 (+1 = 4): a tie, rolled again; then 2 v 2 (+1 = 3): Bob.
    state, events = run(deployed(setup_first=BOB), [RollForFirstTurn(actor=ALICE)], dice(4, 3, 2, 2))
    assert isinstance(events[0], FirstTurnRolled)
    roll = events[0].roll
    assert roll.bonuses == (0, 1)
    assert roll.rolls == [(4, 3), (2, 2)]
    assert roll.totals == [(4, 4), (2, 3)]
    assert roll.winner == BOB
    assert state.phase is Phase.CHOOSE_ORDER


def test_the_bonus_follows_whoever_finished_first() -> None:
    # Alice finished first: 3 v 4 is 4 v 4 with her bonus (tie), then 5 v 5 is 6 v 5: Alice wins.
    _, events = run(deployed(setup_first=ALICE), [RollForFirstTurn(actor=BOB)], dice(3, 4, 5, 5))
    assert isinstance(events[0], FirstTurnRolled)
    assert events[0].roll.bonuses == (1, 0)
    assert events[0].roll.totals == [(4, 4), (6, 5)]
    assert events[0].roll.winner == ALICE


def test_without_the_bonus_the_same_dice_would_have_gone_the_other_way() -> None:
    # Same dice as above, but Bob finished first: 3 v 5 then Bob.
    _, events = run(deployed(setup_first=BOB), [RollForFirstTurn(actor=BOB)], dice(3, 4))
    assert isinstance(events[0], FirstTurnRolled)
    assert events[0].roll.totals == [(3, 5)]
    assert events[0].roll.winner == BOB


def test_a_six_seizes_the_initiative() -> None:
    state, _ = run(deployed(), [RollForFirstTurn(actor=ALICE)], dice(6, 2))
    state, events = run(state, [ChooseOrder(actor=ALICE, go_first=True)])
    assert state.phase is Phase.SEIZE
    state, events = run(state, [SeizeInitiative(actor=BOB, attempt=True)], dice(6))
    seize = events[0]
    assert isinstance(seize, SeizeRolled) and seize.record.die == 6 and seize.record.seized
    assert state.first_player == BOB and state.active_player == BOB
    assert BattleStarted(first=BOB, second=ALICE) in events
    assert TurnStarted(round=1, player=BOB) in events


@pytest.mark.parametrize("die", [1, 2, 3, 4, 5])
def test_anything_below_six_does_not_seize(die: int) -> None:
    state, _ = run(
        deployed(), [RollForFirstTurn(actor=ALICE), ChooseOrder(actor=ALICE, go_first=True)], dice(6, 2)
    )
    state, events = run(state, [SeizeInitiative(actor=BOB, attempt=True)], dice(die))
    assert isinstance(events[0], SeizeRolled) and not events[0].record.seized
    assert state.first_player == ALICE and state.round == 1 and state.turn == 0


def test_declining_to_seize_rolls_nothing() -> None:
    state, _ = run(
        deployed(), [RollForFirstTurn(actor=ALICE), ChooseOrder(actor=ALICE, go_first=True)], dice(6, 2)
    )
    state, events = run(state, [SeizeInitiative(actor=BOB, attempt=False)], no_dice())
    assert isinstance(events[0], SeizeRolled) and events[0].record.die is None
    assert state.first_player == ALICE


def test_only_the_opponent_may_seize() -> None:
    state, _ = run(
        deployed(), [RollForFirstTurn(actor=ALICE), ChooseOrder(actor=ALICE, go_first=True)], dice(6, 2)
    )
    refused = refusal_of(state, SeizeInitiative(actor=ALICE, attempt=True))
    assert (refused.code, refused.params) == ("fortyk.seizer", {"player": BOB})


def test_choosing_to_go_second_gives_no_seize_roll() -> None:
    state, _ = run(deployed(), [RollForFirstTurn(actor=ALICE)], dice(6, 2))
    refused = refusal_of(state, ChooseOrder(actor=BOB, go_first=True))
    assert (refused.code, refused.params) == ("fortyk.order_chooser", {"player": ALICE})
    state, events = run(state, [ChooseOrder(actor=ALICE, go_first=False)], no_dice())
    assert state.phase is Phase.BATTLE and state.first_player == BOB
    assert not any(isinstance(e, SeizeRolled) for e in events)


def test_a_mission_without_seizing_starts_the_battle_at_once() -> None:
    state, _ = run(deployed(), [RollForFirstTurn(actor=ALICE)], dice(6, 2))
    mission = state.mission.model_copy(
        update={"first_turn": state.mission.first_turn.model_copy(update={"seize_on": None})}
    )
    state = state.model_copy(update={"mission": mission})
    state, _ = run(state, [ChooseOrder(actor=ALICE, go_first=True)], no_dice())
    assert state.phase is Phase.BATTLE and state.first_player == ALICE


def test_set_up_actions_out_of_order_are_refused() -> None:
    state = new_game()
    assert (
        refusal_of(state, ChooseZone(actor=ALICE, zone="North-west quarter")).code
        == "fortyk.not_yet.choose_zone"
    )
    assert refusal_of(state, FinishDeployment(actor=ALICE)).code == "fortyk.not_yet.deployment_done"
    assert refusal_of(state, RollForFirstTurn(actor=ALICE)).code == "fortyk.not_yet.roll_first_turn"
    state = deployed()
    refused = refusal_of(state, RollForDeployment(actor=ALICE))
    assert (refused.code, refused.params) == (
        "fortyk.no_longer.roll_deployment",
        {"phase": "first_turn_roll", "round": 0},
    )


def test_strangers_are_refused() -> None:
    with pytest.raises(RuleError, match=r"game\.not_player"):
        step(new_game(), RollForDeployment(actor=333), no_dice())
