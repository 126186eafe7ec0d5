"""What happened to a game night, as `step` (rules/night/night.py) says it: ids and numbers, worded
by cogs/night/text.py."""

from __future__ import annotations

from typing import Literal

from rules.session import Event


class Created(Event):
    kind: Literal["created"] = "created"
    night_id: str


class SignedUp(Event):
    kind: Literal["signed_up"] = "signed_up"
    player: int
    waitlisted: bool
    position: int  # 1-based, in the confirmed list or the waitlist
    changed: bool = False  # an existing sign-up changed


class Left(Event):
    kind: Literal["left"] = "left"
    player: int
    waitlisted: bool


class Promoted(Event):
    kind: Literal["promoted"] = "promoted"
    player: int


class Closed(Event):
    kind: Literal["closed"] = "closed"


class Paired(Event):
    kind: Literal["paired"] = "paired"
    pairings: int
    sat_out: int


class Swapped(Event):
    kind: Literal["swapped"] = "swapped"
    first: int
    second: int


class TableMoved(Event):
    kind: Literal["table_moved"] = "table_moved"
    pairing: int
    table_id: str


class Dropped(Event):
    kind: Literal["dropped"] = "dropped"
    player: int
    opponent: int | None = None
    stand_in: int | None = None


class Published(Event):
    kind: Literal["published"] = "published"
    pairings: int


class Cancelled(Event):
    kind: Literal["cancelled"] = "cancelled"


class Edited(Event):
    kind: Literal["edited"] = "edited"
    changed: list[str]
    reopened: bool = False


class Finished(Event):
    kind: Literal["finished"] = "finished"


class Reminded(Event):
    kind: Literal["reminded"] = "reminded"
    players: list[int]
