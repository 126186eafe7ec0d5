"""What a Kill Team player can do. Every action names its actor; answers name the question."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, TypeAdapter

from rules.confirmation import ConfirmPending
from rules.session import Action

NONCE_PATTERN = r"^(|.{8,128})$"  # empty, or long enough to hide a choice


class Choose(Action):
    """Answer the current question (a button or menu): one or more option values."""

    kind: Literal["choose"] = "choose"
    step: str = Field(max_length=60)
    values: list[str] = Field(min_length=1, max_length=10)


class Done(Action):
    """Press "done" on a prompt that only asks the players to do something at the table."""

    kind: Literal["done"] = "done"
    step: str = Field(max_length=60)


class SealBid(Action):
    """A sealed bid of tokens; the nonce hides it inside the commitment (none given: the step draws
    one from the game's roller)."""

    kind: Literal["bid"] = "bid"
    step: str = Field(max_length=60)
    amount: int
    nonce: str = Field(default="", pattern=NONCE_PATTERN)


class SealScouting(Action):
    kind: Literal["scouting"] = "scouting"
    step: str = Field(max_length=60)
    option: str = Field(max_length=40)
    nonce: str = Field(default="", pattern=NONCE_PATTERN)


class RevealTacOp(Action):
    kind: Literal["reveal_tacop"] = "reveal_tacop"
    tac_op: str = Field(max_length=100)


class Score(Action):
    """Victory points the actor scored in the current turning point (negative to correct)."""

    kind: Literal["score"] = "score"
    mission_vp: int = 0
    tac_op: str | None = Field(default=None, max_length=100)
    tac_op_vp: int = 0
    turning_point: int | None = None


class SetBattleReady(Action):
    kind: Literal["battle_ready"] = "battle_ready"
    painted: bool = True


class EndTurningPoint(Action):
    kind: Literal["end_turning_point"] = "end_turning_point"
    turning_point: int


class EndGame(Action):
    """Ask to end the game now; it ends once confirmed (by the other player, or by the actor)."""

    kind: Literal["end"] = "end"


KillTeamAction = Annotated[
    Choose
    | Done
    | SealBid
    | SealScouting
    | RevealTacOp
    | Score
    | SetBattleReady
    | EndTurningPoint
    | EndGame
    | ConfirmPending,
    Field(discriminator="kind"),
]
ACTION_ADAPTER: TypeAdapter[KillTeamAction] = TypeAdapter(KillTeamAction)
