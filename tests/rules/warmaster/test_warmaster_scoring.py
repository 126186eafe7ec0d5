"""Victory points from adjusted values: a hand-worked game, and the refusals around losses."""

from __future__ import annotations

import pytest
from warmaster_helpers import (
    ALICE,
    BOB,
    act,
    character,
    confirmed,
    give,
    named,
    new_game,
    play,
    refused,
    unit,
)

from cogs.warmaster.board import event_text
from rules.errors import RuleError
from rules.warmaster import (
    BeginBattle,
    FinishGame,
    RecordLoss,
    RevealCard,
    TargetRef,
    builtin_magic_deck,
    vp_summary,
)
from rules.warmaster.events import CardRevealed, GameFinished, LossRecorded
from rules.warmaster.models import Phase, RevealReason, WarmasterState
from rules.warmaster.targets import Side, TargetKind

BY_NAME = {c.name: c for c in builtin_magic_deck()}


def laid_game() -> WarmasterState:
    """Alice has the first turn; seven cards are laid (see the table in the test below)."""
    state, _ = new_game()
    state = give(
        state,
        ALICE,
        BY_NAME["Sword of Might"],
        BY_NAME["Treasure of Sotek"],
        BY_NAME["Banner of Hoohaa!"],
        BY_NAME["Crown of Command"],
    )
    state = give(
        state, BOB, BY_NAME["Sword of Weakness"], BY_NAME["Treasure of Sotek"], BY_NAME["Shield of Heroes"]
    )
    state, _ = play(state, ALICE, "Sword of Might", unit("Knights", unit_type="cavalry"))
    state, _ = play(state, BOB, "Sword of Weakness", unit("Spears", side="enemy"))
    state, _ = play(state, ALICE, "Treasure of Sotek", unit("Archers", shooting=True))
    state, _ = play(state, BOB, "Treasure of Sotek", unit("Wolves", side="mine", unit_type="cavalry"))
    state, _ = play(state, ALICE, "Banner of Hoohaa!", unit("Goblins", side="enemy"))
    state, _ = play(state, BOB, "Shield of Heroes", unit("Troll", side="mine", unit_type="monster"))
    state, _ = play(state, ALICE, "Crown of Command", character("Karl", role="general"))
    assert state.turn is None
    state, _ = confirmed(state, BeginBattle(actor=ALICE))
    return state


def lose(
    state: WarmasterState, actor: int, name: str, points: int, side: str | None = None
) -> tuple[WarmasterState, LossRecorded]:
    ref = TargetRef(name=name, side=Side(side) if side else None, kind=TargetKind.UNIT if side else None)
    state, events = act(state, RecordLoss(actor=actor, target=ref, base_points=points))
    loss = events[-1]
    assert isinstance(loss, LossRecorded)
    return state, loss


def test_hand_worked_victory_points() -> None:
    state = laid_game()
    # Worked by hand:
    #   Alice's Knights, 110 pts + Sword of Might +10        -> Bob scores 120
    #   Alice's Spears,   45 pts + Sword of Weakness -15      -> Bob scores 30
    #   Alice's General Karl, 125 pts + Crown of Command +80  -> Bob scores 205
    #   Bob's Wolves, 60 pts + Treasure of Sotek 0 (+40 VP)   -> Alice scores 100
    #   Bob's Goblins, 30 pts + Banner of Hoohaa! -15         -> Alice scores 15
    #   Bob's Orcs, 45 pts, no card                           -> Alice scores 45
    #   Alice's Archers survive with Treasure of Sotek        -> Alice +50 at the end
    #   Bob 120 + 30 + 205 = 355; Alice 100 + 15 + 45 = 160, and 210 at the end.
    state, loss = lose(state, BOB, "Knights", 110)
    assert (loss.adjusted, loss.vp, loss.to_player) == (120, 120, BOB)
    state, loss = lose(state, ALICE, "Spears", 45)
    assert (loss.adjusted, loss.vp, loss.to_player) == (30, 30, BOB)
    state, loss = lose(state, ALICE, "Wolves", 60)
    assert (loss.adjusted, loss.vp, loss.to_player) == (60, 100, ALICE)
    state, loss = lose(state, BOB, "Goblins", 30)
    assert (loss.adjusted, loss.vp) == (15, 15)
    state, loss = lose(state, ALICE, "Orcs", 45, side="enemy")
    assert (loss.adjusted, loss.vp, loss.to_player) == (45, 45, ALICE)
    state, events = act(state, RecordLoss(actor=BOB, target=named("Karl"), base_points=125))
    assert isinstance(events[-1], LossRecorded) and events[-1].vp == 205

    running = vp_summary(state)
    assert not running.final
    assert [(s.player, s.from_losses, s.survival_bonus, s.total, s.destroyed) for s in running.sides] == [
        (ALICE, 160, 0, 160, 3),
        (BOB, 355, 0, 355, 3),
    ]

    state, events = confirmed(state, FinishGame(actor=ALICE))
    assert state.finished and state.phase is Phase.OVER
    revealed = [e for e in events if isinstance(e, CardRevealed)]
    assert {(e.card.name, e.reason) for e in revealed} == {
        ("Treasure of Sotek", RevealReason.GAME_END),
        ("Shield of Heroes", RevealReason.GAME_END),
    }
    finished = events[-1]
    assert isinstance(finished, GameFinished)
    assert [(s.player, s.total, s.survival_bonus) for s in finished.summary.sides] == [
        (ALICE, 210, 50),
        (BOB, 355, 0),
    ]
    assert state.outcome is not None and state.outcome.winner == BOB
    assert [(s.player, s.score) for s in state.outcome.sides] == [(ALICE, 210), (BOB, 355)]
    assert "355 VP" in event_text(finished)
    with pytest.raises(RuleError, match=r"game\.finished"):
        act(state, FinishGame(actor=BOB))


def test_a_loss_turns_up_the_cards_on_the_carrier() -> None:
    state = laid_game()
    state, events = act(state, RecordLoss(actor=BOB, target=named("Knights"), base_points=110))
    assert isinstance(events[0], CardRevealed) and events[0].reason is RevealReason.LOST
    assert events[0].card.name == "Sword of Might" and events[0].private_to is None
    assert "Sword of Might" in event_text(events[0]) and "+10 pts" in event_text(events[0])


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
