"""The state of a Warmaster game: the phase, each side's hand and limit, the cards laid, the
targets named and the losses recorded."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from pydantic import Field, model_validator

from rules.confirmation import Confirmation, Request, from_old_shape
from rules.session import GameState, Model
from rules.warmaster.actions import Confirmable
from rules.warmaster.cards import CardDef, DeckKind
from rules.warmaster.hands import HandSize
from rules.warmaster.targets import Target

SYSTEM = "warmaster"


class Phase(StrEnum):
    CARDS = "cards"  # after set-up, before turn 1: cards are laid
    BATTLE = "battle"  # the game has begun: no card may be laid; losses are recorded
    OVER = "over"


class PassReason(StrEnum):
    LIMIT = "limit"  # laid as many cards as allowed
    NO_CARDS = "no_cards"  # nothing left in hand to lay
    NO_FIT = "no_fit"  # the player says none of their cards fits an open target


class RevealReason(StrEnum):
    OWNER = "owner"  # used, or contacted by the enemy: the owner turns it up
    LOST = "lost"  # its carrier was destroyed
    SCRYING = "scrying"  # a Scrying Glass made its owner turn every card up
    GAME_END = "game_end"


# ------------------------------------------------------------------ state


class HeldCard(Model):
    """One physical card. The id follows the shuffled deal order, so it says nothing about the card."""

    id: str
    deck: DeckKind
    card: CardDef


class LaidCard(Model):
    placement: int  # 1, 2, 3 ... in the order cards were laid
    player: int  # who laid it
    held: HeldCard
    target_key: str
    face_up: bool
    revealed: RevealReason | None = None  # set when a face-down card was turned up


class SideState(Model):
    player: int
    hand_size: HandSize
    limit: int
    hand: list[HeldCard]
    laid: int = 0
    done: PassReason | None = None
    exposed: bool = False  # a Scrying Glass works against this side: it lays face up from now on


class LossRecord(Model):
    target_key: str
    owner: int
    base_points: int
    card_costs: int
    adjusted: int  # base points plus the costs of the cards on it
    vp: int  # what the opponent scores: the adjusted value (never below 0) plus card bonuses
    to_player: int
    recorded_by: int


class WarmasterState(GameState):
    phase: Phase = Phase.CARDS
    first: int
    sides: list[SideState] = Field(min_length=2, max_length=2)  # in the order of `players`
    draw_pile: list[HeldCard] = []  # magic item cards left in the deck (drawn by a Lucky Find!)
    tactics_dealt: bool
    targets: list[Target] = []  # every unit, character and terrain feature named so far
    laid: list[LaidCard] = []
    turn: int | None = None  # who lays the next card; None once nobody can
    losses: list[LossRecord] = []
    notes: list[str] = []  # unused: games saved before the notes became GameStarted's typed fields
    # beginning the battle or finishing the game, waiting to be confirmed
    confirmation: Confirmation[Confirmable] = Field(default_factory=lambda: Confirmation[Confirmable]())

    @model_validator(mode="before")
    @classmethod
    def _shared_confirmation(cls, data: Any) -> Any:
        """Games saved when Warmaster kept its own confirmations (`pending`, `confirmations`)."""
        return from_old_shape(data, "pending", "confirmations")

    @property
    def pending(self) -> Request[Confirmable] | None:
        """The step waiting for a confirmation, if any: nothing else is taken meanwhile."""
        return self.confirmation.pending

    def side(self, player: int) -> SideState:
        return self.sides[self.players.index(player)]
