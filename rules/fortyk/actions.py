"""What a player does in a 40K mission: each action `step` takes, as a JSON-serialisable model."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StringConstraints, TypeAdapter

from rules.session import Action

UnitName = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=80)]


class RollForDeployment(Action):
    kind: Literal["roll_deployment"] = "roll_deployment"


class ChooseZone(Action):
    kind: Literal["choose_zone"] = "choose_zone"
    zone: str


class FinishDeployment(Action):
    kind: Literal["deployment_done"] = "deployment_done"


class RollForFirstTurn(Action):
    kind: Literal["roll_first_turn"] = "roll_first_turn"


class ChooseOrder(Action):
    kind: Literal["choose_order"] = "choose_order"
    go_first: bool


class SeizeInitiative(Action):
    kind: Literal["seize"] = "seize"
    attempt: bool  # False: the player lets the opponent go first without rolling


class MarkUnit(Action):
    kind: Literal["mark"] = "mark"
    unit: UnitName


class RecordDestroyed(Action):
    """The actor destroyed the enemy unit `unit`."""

    kind: Literal["destroyed"] = "destroyed"
    unit: UnitName


class CaptureRelic(Action):
    """The actor's unit `unit` takes the enemy's relic."""

    kind: Literal["capture_relic"] = "capture_relic"
    unit: UnitName


class DropRelic(Action):
    """The actor's unit carrying the enemy's relic drops it."""

    kind: Literal["drop_relic"] = "drop_relic"


class EndTurn(Action):
    kind: Literal["end_turn"] = "end_turn"


class ReportEnd(Action):
    """The actor's table quarters, and which of their marked units are alive (None: every marked unit
    of theirs not recorded as destroyed)."""

    kind: Literal["report_end"] = "report_end"
    quarters: int = Field(ge=0, le=8)
    marked_alive: list[UnitName] | None = None


FortyKAction = Annotated[
    RollForDeployment
    | ChooseZone
    | FinishDeployment
    | RollForFirstTurn
    | ChooseOrder
    | SeizeInitiative
    | MarkUnit
    | RecordDestroyed
    | CaptureRelic
    | DropRelic
    | EndTurn
    | ReportEnd,
    Field(discriminator="kind"),
]
ACTION_ADAPTER: TypeAdapter[FortyKAction] = TypeAdapter(FortyKAction)
