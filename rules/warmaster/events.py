"""What happened in a Warmaster game, as the table (or only the player concerned) is told."""

from __future__ import annotations

from typing import Literal

from rules.session import Event, GameOutcome, Model
from rules.warmaster.actions import ConfirmableKind
from rules.warmaster.cards import DeckKind, Special
from rules.warmaster.models import HeldCard, PassReason, RevealReason
from rules.warmaster.targets import NOT_LAID, Target


class CardView(Model):
    """A card as its holder sees it."""

    id: str
    deck: DeckKind
    name: str
    cost: int | None
    carrier: str
    effect: str
    special: Special | None = None

    @classmethod
    def of(cls, held: HeldCard) -> CardView:
        card = held.card
        carrier = card.carrier.describe() if card.carrier else str(NOT_LAID)
        return cls(
            id=held.id,
            deck=held.deck,
            name=card.name,
            cost=card.cost,
            carrier=carrier,
            effect=card.effect,
            special=card.special,
        )


class HandInfo(Model):
    player: int
    points: int
    magic: int
    tactics: int
    limit: int
    below_written_size: bool


class GameStarted(Event):
    kind: Literal["started"] = "started"
    first: int
    rolloff: list[tuple[int, int]] = []  # the dice, when a roll-off chose the first player
    hands: list[HandInfo]  # each says whether its army is below the size the card rules are written for
    tactics_dealt: bool  # False: no tactics deck was loaded, so only magic item cards were dealt


class HandDealt(Event):
    """Private: the cards a player was dealt."""

    kind: Literal["hand"] = "hand"
    player: int
    cards: list[CardView]


class TurnToLay(Event):
    kind: Literal["turn"] = "turn"
    player: int
    laid: int
    limit: int


class CardLaidFaceUp(Event):
    kind: Literal["laid_face_up"] = "laid_face_up"
    placement: int
    player: int
    target: Target
    card: CardView


class CardLaidFaceDown(Event):
    """Public: names the target and the deck (the card back shows it), never the card."""

    kind: Literal["laid_face_down"] = "laid_face_down"
    placement: int
    player: int
    deck: DeckKind
    target: Target


class YouLaidFaceDown(Event):
    """Private confirmation to the player who laid a face-down card."""

    kind: Literal["you_laid"] = "you_laid"
    placement: int
    player: int
    target: Target
    card: CardView


class TurnPassed(Event):
    kind: Literal["passed"] = "passed"
    player: int
    reason: PassReason


class LuckyFindTraded(Event):
    kind: Literal["lucky_find"] = "lucky_find"
    player: int
    drawn: int


class CardsDrawn(Event):
    """Private: the magic item cards a Lucky Find! brought."""

    kind: Literal["drawn"] = "drawn"
    player: int
    cards: list[CardView]


class CardRevealed(Event):
    kind: Literal["revealed"] = "revealed"
    placement: int
    player: int
    target: Target
    card: CardView
    reason: RevealReason


class CardPhaseComplete(Event):
    kind: Literal["cards_done"] = "cards_done"
    laid: dict[int, int]


class ConfirmAsked(Event):
    """`by` pressed a step that now waits for `other` to confirm it (or `by` to confirm their own)."""

    kind: Literal["confirm_asked"] = "confirm_asked"
    step: ConfirmableKind
    by: int
    other: int


class ConfirmAnswered(Event):
    """`player` confirmed the step `by` pressed (it follows at once), or withdrew it (nothing changed)."""

    kind: Literal["confirm_answered"] = "confirm_answered"
    step: ConfirmableKind
    by: int
    player: int
    confirmed: bool


class BattleBegun(Event):
    kind: Literal["begun"] = "begun"


class LossRecorded(Event):
    kind: Literal["lost"] = "lost"
    target: Target
    base_points: int
    card_costs: int
    adjusted: int
    vp: int
    to_player: int


class SideVp(Model):
    player: int
    from_losses: int  # VP for enemy units and characters destroyed
    survival_bonus: int  # card bonuses for own carriers alive at the end (counted when the game ends)
    total: int
    destroyed: int  # enemy units and characters destroyed


class VpSummary(Model):
    sides: list[SideVp]
    final: bool


class GameFinished(Event):
    kind: Literal["finished"] = "finished"
    summary: VpSummary
    outcome: GameOutcome
