"""How many cards each player is dealt, and how many each may lay."""

from __future__ import annotations

from rules.errors import RuleError
from rules.session import Model

BASE_MAGIC = 4
BASE_TACTICS = 3
SCALE_FROM_POINTS = 3000  # every full 1,000 above this adds one card of each deck
SCALE_STEP = 1000
WRITTEN_FOR_POINTS = 1500  # the rules are written for games of this size and up
FIRST_PLAYER_BASE_LIMIT = 4
SECOND_PLAYER_BASE_LIMIT = 3
MAX_POINTS = 100_000


class HandSize(Model):
    points: int
    magic: int
    tactics: int
    extra: int  # cards of each deck above the base hand
    below_written_size: bool  # under 1,500 points: the base hand is dealt, with a note


def check_points(points: int) -> None:
    if points < 1:
        raise RuleError(code="warmaster.army_points", points=points)
    if points > MAX_POINTS:
        raise RuleError(code="warmaster.army_too_big", points=points, maximum=MAX_POINTS)


def hand_size(points: int) -> HandSize:
    """4 magic item + 3 tactics cards, +1 of each per full 1,000 points above 3,000."""
    check_points(points)
    extra = max(0, (points - SCALE_FROM_POINTS) // SCALE_STEP)
    return HandSize(
        points=points,
        magic=BASE_MAGIC + extra,
        tactics=BASE_TACTICS + extra,
        extra=extra,
        below_written_size=points < WRITTEN_FOR_POINTS,
    )


def play_limits(first: HandSize, second: HandSize) -> tuple[int, int]:
    """How many cards the first and the second player may lay.

    The rules give 4 and 3 (7 in all) for the base hand. For bigger games both limits grow by one
    for each extra card of each deck the *smaller* of the two hands received, so the first player
    still lays one card more than the second (the first and the last card), and neither side's
    limit grows past what the smaller army was dealt. Examples: 4,000 v 4,000 → 5 and 4;
    6,500 v 6,500 → 7 and 6; 6,500 v 3,000 → 4 and 3.
    """
    extra = min(first.extra, second.extra)
    return FIRST_PLAYER_BASE_LIMIT + extra, SECOND_PLAYER_BASE_LIMIT + extra
