"""Pick's state and the shape of its pack."""

from __future__ import annotations

from pydantic import Field

from rules.confirmation import Confirmation
from rules.pick.actions import CallDraw
from rules.sealed import SealedRound
from rules.session import GameState, Model

LOWEST = 1
HIGHEST = 9
"""A pack's `highest` is at most this: one number per button, on two rows of a message."""


class PickPack(Model):
    """What a server may change: the pack's name and the highest number a player may pick."""

    name: str = Field(min_length=1, max_length=80)
    highest: int = Field(default=3, ge=LOWEST + 1, le=HIGHEST)


class PickState(GameState):
    """The sealed round of picks, the pack's range, and a draw call waiting for its Confirm."""

    round: SealedRound
    highest: int = 3
    pack: str = "Classic"
    confirmation: Confirmation[CallDraw] = Confirmation[CallDraw]()
    drawn: bool = False  # ended as a draw both players agreed to, before the reveal
