"""Victory points from adjusted values: a hand-worked game, and the refusals around losses."""

from __future__ import annotations

import pytest
from warmaster_helpers import (
    ALICE,
    BOB,
    act,
    confirmed,
    laid_game,
    lose,
    named,
    new_game,
    refused,
    unit,
)

from rules.warmaster import (
    FinishGame,
    RecordLoss,
    RevealCard,
    TargetRef,
    builtin_magic_deck,
)
from rules.warmaster.events import CardRevealed
from rules.warmaster.targets import Side, TargetKind

BY_NAME = {c.name: c for c in builtin_magic_deck()}


def test_a_negative_value_scores_nothing_rather_than_less() -> None:
    state = laid_game()
    state, loss = lose(state, ALICE, "Goblins", 10)
    assert (loss.adjusted, loss.vp) == (-5, 0)


def test_equal_totals_are_a_draw() -> None:
    state = laid_game()
    state, _ = lose(state, ALICE, "Orcs", 100, side="enemy")
    state, _ = lose(state, BOB, "Halberds", 100, side="enemy")
    state, _ = confirmed(state, FinishGame(actor=BOB))
    # Each scores 100 for a unit and 50 for a surviving Treasure of Sotek (Alice's Archers, Bob's Wolves).
    assert state.outcome is not None and state.outcome.winner is None
    assert "draw" in state.outcome.summary


@pytest.mark.parametrize(
    ("ref", "points", "code"),
    [
        (named("Knights"), 0, "warmaster.unit_points"),
        (named("Knights"), -5, "warmaster.unit_points"),
        (named("Knights"), 10_001, "warmaster.unit_points"),
        (TargetRef(kind=TargetKind.TABLE), 10, "warmaster.not_losable"),
        (TargetRef(kind=TargetKind.ARMY, side=Side.ENEMY), 10, "warmaster.not_losable"),
        (TargetRef(name="Nobody"), 10, "warmaster.new_target_kind"),
        (TargetRef(name="Nobody", kind=TargetKind.UNIT), 10, "warmaster.new_target_whose"),
    ],
)
def test_bad_losses_are_refused(ref: TargetRef, points: int, code: str) -> None:
    state = laid_game()
    with refused(code):
        act(state, RecordLoss(actor=ALICE, target=ref, base_points=points))


def test_a_unit_is_lost_only_once_and_only_in_the_battle() -> None:
    state, _ = new_game()
    with refused("warmaster.losses_before_battle"):
        act(state, RecordLoss(actor=ALICE, target=unit("Spears"), base_points=45))
    with refused("warmaster.battle_not_begun"):
        act(state, FinishGame(actor=ALICE))
    state = laid_game()
    state, _ = lose(state, BOB, "Knights", 110)
    with refused("warmaster.already_lost", target="Knights"):
        act(state, RecordLoss(actor=ALICE, target=named("knights"), base_points=110))


def test_reveal_during_the_battle() -> None:
    state = laid_game()
    placement = next(c.placement for c in state.laid if c.held.card.name == "Shield of Heroes")
    state, events = act(state, RevealCard(actor=BOB, placement=placement))
    assert isinstance(events[0], CardRevealed) and events[0].card.name == "Shield of Heroes"
