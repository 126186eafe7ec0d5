"""What a Pick player does. `ConfirmPending` (rules/confirmation.py) answers a draw call."""

from __future__ import annotations

from typing import Literal

from rules.confirmation import ConfirmPending
from rules.session import Action


class Pick(Action):
    """A sealed pick; `nonce` hides it inside its commitment until both have picked."""

    kind: Literal["pick"] = "pick"
    value: int
    nonce: str


class CallDraw(Action):
    """Call the game a draw: held until the other player confirms it."""

    kind: Literal["draw"] = "draw"


PickAction = Pick | CallDraw | ConfirmPending
