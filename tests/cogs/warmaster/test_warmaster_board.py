"""What the Warmaster table reads after a step: the event lines the cog words for dealing, laying,
losses and scoring."""

from __future__ import annotations

import pytest

from cogs.warmaster.board import event_text
from rules.errors import RuleError
from rules.warmaster import (
    DeckKind,
    FinishGame,
    PassTurn,
    Phase,
    RecordLoss,
    TargetRef,
    builtin_magic_deck,
    vp_summary,
)
from rules.warmaster.events import (
    CardLaidFaceDown,
    CardLaidFaceUp,
    CardRevealed,
    GameFinished,
    LossRecorded,
    TurnPassed,
    YouLaidFaceDown,
)
from rules.warmaster.models import PassReason, RevealReason
from rules.warmaster.targets import Side, TargetKind
from tests.rules.warmaster.warmaster_helpers import (
    ALICE,
    BOB,
    TACTIC,
    act,
    character,
    confirmed,
    give,
    laid_game,
    lose,
    named,
    new_game,
    play,
    terrain,
    unit,
)

BY_NAME = {c.name: c for c in builtin_magic_deck()}


def test_without_a_tactics_deck_only_magic_items_are_dealt_and_the_game_says_so() -> None:
    state, events = new_game(points=(2000, 2000))
    assert all(h.deck is DeckKind.MAGIC for s in state.sides for h in s.hand)
    assert [len(s.hand) for s in state.sides] == [4, 4]
    assert not state.tactics_dealt
    assert "only magic item cards" in event_text(events[0])


def test_small_armies_get_a_note_and_the_base_hand() -> None:
    state, events = new_game(points=(1000, 2000), tactics=[TACTIC])
    assert len(state.side(ALICE).hand) == 7
    text = event_text(events[0])
    assert "1,000 points" in text and "1,500" in text


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


def test_face_down_on_own_and_neutral_face_up_on_the_enemy() -> None:
    state, _ = new_game(points=(4000, 4000))
    cases = [
        (ALICE, unit("Spears"), False),
        (BOB, unit("Goblins", side="mine"), False),
        (ALICE, terrain("Old Wood"), False),
        (BOB, unit("Halberds", side="enemy"), True),
        (ALICE, TargetRef(kind=TargetKind.TABLE), False),
        (BOB, TargetRef(kind=TargetKind.PLAYER, side=Side.ENEMY), True),
        (ALICE, TargetRef(kind=TargetKind.ARMY, side=Side.MINE), False),
        (BOB, character("Grom", side="enemy", role="general"), True),
    ]
    state = give(state, ALICE, *[BY_NAME["Bad Luck! It's the Blank!"]] * 5)
    state = give(state, BOB, *[BY_NAME["Bad Luck! It's the Blank!"]] * 4)
    for actor, target, face_up in cases:
        state, events = play(state, actor, "Bad Luck! It's the Blank!", target)
        laid = events[0]
        if face_up:
            assert isinstance(laid, CardLaidFaceUp) and laid.card.name == "Bad Luck! It's the Blank!"
        else:
            assert isinstance(laid, CardLaidFaceDown)
            assert "Blank" not in laid.model_dump_json() and "Blank" not in event_text(laid)
            assert "face-down magic item card" in event_text(laid)
            mine = events[1]
            assert isinstance(mine, YouLaidFaceDown) and mine.private_to == actor


def test_must_play_a_card_that_fits_a_known_target() -> None:
    state, _ = new_game()
    state = give(state, ALICE, BY_NAME["Ring of Power"], BY_NAME["Wand of Power"])
    state = give(state, BOB, BY_NAME["Ring of Power"])
    # No wizard named yet: Alice may say none of her cards fits.
    state, events = act(state, PassTurn(actor=ALICE))
    assert isinstance(events[0], TurnPassed) and events[0].reason is PassReason.NO_FIT
    assert "no card in hand fits" in event_text(events[0])
    # Bob's Ring of Power fits a wizard of Alice's that he names.
    state, _ = play(state, BOB, "Ring of Power", character("Magnus", side="enemy", role="wizard"))
    assert state.turn is None  # Bob has no cards left; Alice has passed
    assert state.side(BOB).done is PassReason.NO_CARDS
