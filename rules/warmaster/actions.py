"""What a Warmaster player does: lay a card, pass, trade, turn a card up, begin, record a loss, finish."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from rules.confirmation import ConfirmPending
from rules.session import Action, Model
from rules.warmaster.targets import CharacterRole, Side, TargetKind, UnitType


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
