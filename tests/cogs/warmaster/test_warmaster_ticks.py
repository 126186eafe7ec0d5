"""What heads a Warmaster hand after a step: what its owner just did with the hand's tools, ticked,
so the hand redrawn can be the click's answer (bot/play/in_place.py)."""

from __future__ import annotations

from bot.play.games import SessionInfo
from bot.play.prompts import DONE_MARK
from cogs.warmaster.adapter import WarmasterAdapter
from cogs.warmaster.board import loss_line
from rules.warmaster.actions import RecordLoss, RevealCard
from rules.warmaster.events import CardRevealed, LossRecorded
from rules.warmaster.models import RevealReason
from tests.rules.warmaster.warmaster_helpers import ALICE, BOB, act, laid_game, named

INFO = SessionInfo("0123456789ab", 1, 2, "warmaster", ALICE, (ALICE, BOB), "open", 9)
ADAPTER = WarmasterAdapter()


def test_a_loss_is_ticked_for_the_player_who_recorded_it_not_for_the_cards_it_turned_up() -> None:
    """Bob records the loss of Alice's Knights, which carry her face-down Sword of Might: the card
    turns up because the unit was lost, not by her hand, so only Bob's hand ticks anything."""
    state, events = act(laid_game(), RecordLoss(actor=BOB, target=named("Knights"), base_points=110))
    [loss] = [e for e in events if isinstance(e, LossRecorded)]
    assert any(isinstance(e, CardRevealed) and e.reason is RevealReason.LOST for e in events)
    assert ADAPTER.private_lines(INFO, state, BOB, events) == [f"{DONE_MARK} {loss_line(loss)}"]
    assert ADAPTER.private_lines(INFO, state, ALICE, events) == []


def test_a_card_turned_up_by_its_owner_is_ticked_on_their_hand_only() -> None:
    state, events = act(laid_game(), RevealCard(actor=ALICE, placement=1))
    [ticked] = ADAPTER.private_lines(INFO, state, ALICE, events)
    assert ticked.startswith(f"{DONE_MARK} #1: ") and "turned face up" in ticked, ticked
    assert ADAPTER.private_lines(INFO, state, BOB, events) == []
