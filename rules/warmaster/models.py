"""State, actions and events of a Warmaster card phase and the battle's victory points."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import Field, model_validator

from rules.confirmation import Confirmation, ConfirmPending, Request, from_old_shape
from rules.session import Action, Event, GameOutcome, GameState, Model
from rules.warmaster.cards import CardDef, DeckKind, Special
from rules.warmaster.hands import HandSize
from rules.warmaster.targets import CharacterRole, Side, Target, TargetKind, UnitType

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


# ------------------------------------------------------------------ actions


class TargetRef(Model):
    """A target as a player names it: a known target's `key`, or a name plus details for a new one."""

    key: str | None = None
    name: str | None = None
    kind: TargetKind | None = None
    side: Side | None = None
    unit_type: UnitType | None = None
    role: CharacterRole | None = None
    shooting: bool | None = None


class PlayCard(Action):
    kind: Literal["play"] = "play"
    card: str  # a card id from the hand (or its name)
    target: TargetRef


class PassTurn(Action):
    """Only when no card in hand can legally be laid."""

    kind: Literal["pass"] = "pass"


class TradeLuckyFind(Action):
    kind: Literal["lucky_find"] = "lucky_find"
    card: str | None = None


class RevealCard(Action):
    kind: Literal["reveal"] = "reveal"
    placement: int


class BeginBattle(Action):
    kind: Literal["begin"] = "begin"


class RecordLoss(Action):
    kind: Literal["lost"] = "lost"
    target: TargetRef
    base_points: int


class FinishGame(Action):
    kind: Literal["finish"] = "finish"


# Steps one player's press does not take alone: the other player confirms, or the player confirms their own.
Confirmable = Annotated[BeginBattle | FinishGame, Field(discriminator="kind")]
ConfirmableKind = Literal["begin", "finish"]

WarmasterAction = Annotated[
    PlayCard
    | PassTurn
    | TradeLuckyFind
    | RevealCard
    | BeginBattle
    | RecordLoss
    | FinishGame
    | ConfirmPending,
    Field(discriminator="kind"),
]


# ------------------------------------------------------------------ events


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
        carrier = card.carrier.describe() if card.carrier else "not laid: traded"
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
