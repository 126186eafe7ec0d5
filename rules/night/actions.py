"""What an organiser or a player does to a game night (`step` in rules/night/night.py applies it),
and a stored action read back."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, TypeAdapter

from rules.night.models import PairingContext, Signup, Table
from rules.night.settings import NightSettings
from rules.session import Action


class OrganiserAction(Action):
    as_organiser: bool = False  # the bot found the actor may organise nights here


class SignUp(OrganiserAction):
    """A new or changed sign-up (the organiser may sign anyone up, also after the cut-off)."""

    kind: Literal["sign_up"] = "sign_up"
    signup: Signup


class Leave(OrganiserAction):
    """A player leaves (or the organiser takes them off) before pairing; during review it is a drop."""

    kind: Literal["leave"] = "leave"
    player: int


class Close(OrganiserAction):
    kind: Literal["close"] = "close"
    now: int | None = None  # when sign-ups closed, if not the step's own time


class Pair(OrganiserAction):
    kind: Literal["pair"] = "pair"
    tables: list[Table]
    context: PairingContext
    seed: int


class Swap(OrganiserAction):
    kind: Literal["swap"] = "swap"
    first: int
    second: int


class MoveTable(OrganiserAction):
    kind: Literal["move_table"] = "move_table"
    pairing: int  # index into result.pairings
    table_id: str


class Drop(OrganiserAction):
    kind: Literal["drop"] = "drop"
    player: int


class Publish(OrganiserAction):
    kind: Literal["publish"] = "publish"
    session_ids: dict[int, str] = {}  # pairing index -> the game opened for it


class Cancel(OrganiserAction):
    kind: Literal["cancel"] = "cancel"


class Edit(OrganiserAction):
    kind: Literal["edit"] = "edit"
    settings: NightSettings


class Finish(OrganiserAction):
    kind: Literal["finish"] = "finish"


class MarkReminded(OrganiserAction):
    """The bot reminded these players (so a restart reminds nobody twice)."""

    kind: Literal["reminded"] = "reminded"
    players: list[int]


NightAction = Annotated[
    SignUp | Leave | Close | Pair | Swap | MoveTable | Drop | Publish | Cancel | Edit | Finish | MarkReminded,
    Field(discriminator="kind"),
]
ACTIONS: TypeAdapter[Any] = TypeAdapter(NightAction)


def parse_action(data: str | bytes) -> Any:
    """A stored action back as its model (the bot logs actions as JSON)."""
    return ACTIONS.validate_json(data)
