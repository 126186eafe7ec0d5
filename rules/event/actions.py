"""What an organiser or a player does to an event; `apply` (rules/event/machine.py) applies it.
Times (`now`, epoch seconds) and seeds are given by the bot: the rules read no clock and draw no
randomness of their own."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, TypeAdapter

from rules.event.state import EventAction


class Join(EventAction):
    """A player enters (the organiser may enter anyone, also late: until round 1)."""

    kind: Literal["join"] = "join"
    player: int
    rating: float | None = None


class Leave(EventAction):
    """Before round 1 a player leaves (a waitlisted player moves up); after, it is a drop."""

    kind: Literal["leave"] = "leave"
    player: int


class SubmitList(EventAction):
    """A player's army list, sealed: before the deadline, or again after the organiser rejected it
    (until round 1). `nonce`: random, from the bot."""

    kind: Literal["submit_list"] = "submit_list"
    player: int
    faction: str
    text: str
    nonce: str
    now: int


class RejectList(EventAction):
    kind: Literal["reject_list"] = "reject_list"
    player: int
    reason: str


class CloseLists(EventAction):
    """Sign-ups and lists close (the organiser, or the bot at the deadline with `as_organiser`)."""

    kind: Literal["close_lists"] = "close_lists"
    now: int


class PublishRound(EventAction):
    """Pair and publish the next round (the next top cut round during the cut)."""

    kind: Literal["publish_round"] = "publish_round"
    seed: int


class ReportResult(EventAction):
    """A game's VP, by one of its players (the bot reports a confirmed result) or the organiser (who
    may also correct one). `first`, `second` in either order; each VP goes with the player before it."""

    kind: Literal["report_result"] = "report_result"
    round: int
    first: int
    second: int
    first_vp: int
    second_vp: int


class Drop(EventAction):
    kind: Literal["drop"] = "drop"
    player: int


class GiveBye(EventAction):
    """The organiser gives `player` a bye in this round: a player not paired in it, or one whose
    opponent dropped before their game had a result."""

    kind: Literal["give_bye"] = "give_bye"
    player: int


class StartTopCut(EventAction):
    kind: Literal["start_top_cut"] = "start_top_cut"


class Finish(EventAction):
    kind: Literal["finish"] = "finish"


class Cancel(EventAction):
    kind: Literal["cancel"] = "cancel"


AnyAction = Annotated[
    Join
    | Leave
    | SubmitList
    | RejectList
    | CloseLists
    | PublishRound
    | ReportResult
    | Drop
    | GiveBye
    | StartTopCut
    | Finish
    | Cancel,
    Field(discriminator="kind"),
]
_ADAPTER: TypeAdapter[Any] = TypeAdapter(AnyAction)


def parse_action(data: dict[str, Any]) -> EventAction:
    """A stored action (its `model_dump()`) read back as the action it was."""
    action: EventAction = _ADAPTER.validate_python(data)
    return action
