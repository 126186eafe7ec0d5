"""What happened in a 40K mission: the events `step` returns, which the board turns into lines."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, TypeAdapter

from rules.fortyk.models import (
    Award,
    ConditionResult,
    ContinueRollRecord,
    EndReport,
    Kill,
    Mark,
    RelicHolder,
    RollOffRecord,
    SeizeRecord,
    ZoneChoice,
)
from rules.session import Event


class GameOpened(Event):
    kind: Literal["opened"] = "opened"
    mission: str
    players: list[int]


class DeploymentRolled(Event):
    kind: Literal["deployment_rolled"] = "deployment_rolled"
    roll: RollOffRecord


class ZoneChosen(Event):
    kind: Literal["zone_chosen"] = "zone_chosen"
    choice: ZoneChoice
    deploys_first: int


class DeploymentFinished(Event):
    kind: Literal["deployment_finished"] = "deployment_finished"
    player: int
    first: bool  # finished setting up before the opponent


class FirstTurnRolled(Event):
    kind: Literal["first_turn_rolled"] = "first_turn_rolled"
    roll: RollOffRecord


class OrderChosen(Event):
    kind: Literal["order_chosen"] = "order_chosen"
    player: int
    go_first: bool


class SeizeRolled(Event):
    kind: Literal["seize_rolled"] = "seize_rolled"
    record: SeizeRecord
    needs: int


class BattleStarted(Event):
    kind: Literal["battle_started"] = "battle_started"
    first: int
    second: int


class TurnStarted(Event):
    kind: Literal["turn_started"] = "turn_started"
    round: int
    player: int


class UnitMarked(Event):
    kind: Literal["marked"] = "marked"
    mark: Mark


class UnitDestroyed(Event):
    kind: Literal["destroyed"] = "destroyed"
    kill: Kill
    total_kill_points: int  # the destroyer's total after this kill


class RelicCaptured(Event):
    kind: Literal["relic_captured"] = "relic_captured"
    holder: RelicHolder


class RelicDropped(Event):
    kind: Literal["relic_dropped"] = "relic_dropped"
    holder: RelicHolder
    because_destroyed: bool


class MarkSurvived(Event):
    """The marked unit lived through the turn: it is worth no kill points from now on."""

    kind: Literal["mark_survived"] = "mark_survived"
    mark: Mark


class TurnEnded(Event):
    kind: Literal["turn_ended"] = "turn_ended"
    round: int
    player: int


class BattleLengthRolled(Event):
    kind: Literal["battle_length_rolled"] = "battle_length_rolled"
    record: ContinueRollRecord


class BattleEnded(Event):
    kind: Literal["battle_ended"] = "battle_ended"
    after_round: int
    reason: Literal["roll", "last_round"]


class EndReported(Event):
    kind: Literal["end_reported"] = "end_reported"
    report: EndReport


class GameScored(Event):
    kind: Literal["scored"] = "scored"
    results: list[ConditionResult]
    totals: list[Award]
    winner: int | None


FortyKEvent = Annotated[
    GameOpened
    | DeploymentRolled
    | ZoneChosen
    | DeploymentFinished
    | FirstTurnRolled
    | OrderChosen
    | SeizeRolled
    | BattleStarted
    | TurnStarted
    | UnitMarked
    | UnitDestroyed
    | RelicCaptured
    | RelicDropped
    | MarkSurvived
    | TurnEnded
    | BattleLengthRolled
    | BattleEnded
    | EndReported
    | GameScored,
    Field(discriminator="kind"),
]
EVENT_ADAPTER: TypeAdapter[FortyKEvent] = TypeAdapter(FortyKEvent)
