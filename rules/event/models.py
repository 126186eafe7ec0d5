"""What an event is made of: its scoring, its entrants, the games of its rounds and the pairings a
round is made from. Plain pydantic models (rules.session.Model), stored as JSON with the event.

A game's result is its victory points (VP); who won is derived from them, so a result can never say
one thing in VP and another in the winner. A bye is a game whose `second` is None: it is complete
as soon as it is made, scores `Scoring.bye` tournament points for `first` and no VP.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

from rules.session import Model

Seeding = Literal["random", "rating"]
Reveal = Literal["all", "opponent"]  # every list at once when lists close, or each to its opponent
CutSize = Literal[4, 8]


class Tiebreaker(StrEnum):
    """How players level on tournament points are ordered (`Scoring.tiebreakers`, in that order)."""

    TOTAL_VP = "total_vp"  # the sum of one's own VP
    VP_DIFFERENCE = "vp_difference"  # own VP minus the opponents' VP, over all games
    SOS = "sos"  # strength of schedule: the sum of the opponents' tournament points (byes excluded)
    OPP_SOS = "opp_sos"  # the sum of the opponents' SOS
    HEAD_TO_HEAD = "head_to_head"  # points taken from the others tied, when every one of them met


DEFAULT_TIEBREAKERS = (Tiebreaker.SOS, Tiebreaker.VP_DIFFERENCE, Tiebreaker.TOTAL_VP)


class Scoring(Model):
    """Tournament points for a win, a draw, a loss and a bye, and the tiebreakers in order."""

    win: int = 3
    draw: int = 1
    loss: int = 0
    bye: int = 3
    tiebreakers: tuple[Tiebreaker, ...] = DEFAULT_TIEBREAKERS


class Entrant(Model):
    """A player in the event. `rating` seeds round 1 when seeding is by rating (None: unrated, seeded
    last). A dropped player keeps their games and standing but is never paired again."""

    player: int
    rating: float | None = None
    dropped: bool = False


class Pairing(Model):
    """Who plays whom at which table in a round; `second` None is a bye (table 0)."""

    table: int
    first: int
    second: int | None = None

    @property
    def players(self) -> tuple[int, ...]:
        return (self.first,) if self.second is None else (self.first, self.second)


class Game(Model):
    """One game of a round (or a bye). `first_vp`, `second_vp` both None: not reported yet."""

    round: int
    table: int
    first: int
    second: int | None = None
    first_vp: int | None = None
    second_vp: int | None = None

    @property
    def is_bye(self) -> bool:
        return self.second is None

    @property
    def reported(self) -> bool:
        """A bye is complete when made; a game once both VP are in."""
        return self.second is None or (self.first_vp is not None and self.second_vp is not None)

    @property
    def winner(self) -> int | None:
        """Who won: from the VP (None for a draw or a game not reported); a bye's `first` wins."""
        if self.second is None:
            return self.first
        if self.first_vp is None or self.second_vp is None or self.first_vp == self.second_vp:
            return None
        return self.first if self.first_vp > self.second_vp else self.second

    @property
    def players(self) -> tuple[int, ...]:
        return (self.first,) if self.second is None else (self.first, self.second)

    def opponent_of(self, player: int) -> int | None:
        """The other player of this game (None: a bye, or `player` is not in it)."""
        if player == self.first:
            return self.second
        if player == self.second:
            return self.first
        return None

    def vp_of(self, player: int) -> tuple[int, int] | None:
        """(own VP, opponent's VP) of `player`, None for a bye or a game not reported."""
        if self.second is None or self.first_vp is None or self.second_vp is None:
            return None
        if player == self.first:
            return self.first_vp, self.second_vp
        if player == self.second:
            return self.second_vp, self.first_vp
        return None


def played_pairs(games: list[Game] | tuple[Game, ...]) -> dict[frozenset[int], int]:
    """How many times each two players met (byes are no meeting)."""
    met: dict[frozenset[int], int] = {}
    for game in games:
        if game.second is not None:
            key = frozenset((game.first, game.second))
            met[key] = met.get(key, 0) + 1
    return met
