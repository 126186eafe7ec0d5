"""What happened to an event, as `apply` (rules/event/machine.py) says it: ids and numbers, worded
by the bot. An event with `private_to` is for that player's eyes only (a list shown to its opponent)."""

from __future__ import annotations

from typing import Literal

from rules.event.models import Pairing
from rules.event.standings import Standing
from rules.session import Event, Model


class Created(Event):
    kind: Literal["created"] = "created"
    event_id: str


class Joined(Event):
    kind: Literal["joined"] = "joined"
    player: int
    waitlisted: bool
    position: int  # 1-based, among the entrants or on the waitlist
    late: bool = False  # after sign-ups closed


class Left(Event):
    kind: Literal["left"] = "left"
    player: int
    waitlisted: bool


class Promoted(Event):
    kind: Literal["promoted"] = "promoted"
    player: int


class ListSealed(Event):
    """Public: who submitted, and the commitment; never the list."""

    kind: Literal["list_sealed"] = "list_sealed"
    player: int
    commitment: str
    resubmitted: bool = False


class ListRejected(Event):
    kind: Literal["list_rejected"] = "list_rejected"
    player: int
    reason: str


class RevealedList(Model):
    player: int
    faction: str
    text: str
    nonce: str
    commitment: str


class ListsClosed(Event):
    kind: Literal["lists_closed"] = "lists_closed"
    missing: list[int]  # entrants without a standing list (none submitted, or rejected)


class ListsRevealed(Event):
    """Public: lists with their nonces, so every commitment can be checked."""

    kind: Literal["lists_revealed"] = "lists_revealed"
    lists: list[RevealedList]


class ListShown(Event):
    """Private to `private_to`: their opponent's list for this round."""

    kind: Literal["list_shown"] = "list_shown"
    round: int
    list: RevealedList


class RoundPublished(Event):
    kind: Literal["round_published"] = "round_published"
    round: int
    pairings: list[Pairing]
    top_cut: bool = False
    total_rounds: int


class TableScore(Event):
    """A game's score at one table of a round: reported and standing, or waiting for a confirmation."""

    round: int
    table: int
    first: int
    second: int
    first_vp: int
    second_vp: int


class ResultReported(TableScore):
    kind: Literal["result_reported"] = "result_reported"
    corrected: bool = False  # a result already in was changed (by the organiser)
    round_complete: bool = False  # every game of the round now has its result


class Dropped(Event):
    kind: Literal["dropped"] = "dropped"
    player: int


class ByeGiven(Event):
    kind: Literal["bye_given"] = "bye_given"
    round: int
    player: int


class Finished(Event):
    kind: Literal["finished"] = "finished"
    standings: list[Standing]
    champion: int | None  # the top cut's winner, else the first of the standings


class Cancelled(Event):
    kind: Literal["cancelled"] = "cancelled"
