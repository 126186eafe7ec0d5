"""The result record every score computation works on, independent of how the store keeps it.

The store converts its rows into `ResultRecord`s; ratings, standings, history and export are pure
functions of a list of them, so the same list always gives the same numbers.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime
from enum import StrEnum

from pydantic import ConfigDict, Field, field_validator, model_validator

from rules.errors import RuleError
from rules.session import GameOutcome, Model

MAX_SCORE = 10_000
"""Above this a score is a typo: no game's VP, kill points or wounds tally gets near it."""

SYSTEM_MAX = 32
MISSION_MAX = 200
FACTION_MAX = 100


class ResultStatus(StrEnum):
    PENDING = "pending"  # waiting for the opponent (or the 24-hour auto-confirm)
    CONFIRMED = "confirmed"  # the only status that counts
    DISPUTED = "disputed"  # waiting for someone with Manage Server
    VOID = "void"  # withdrawn; kept for the record, never counted


class ResultRecord(Model):
    """One game between two players. `winner` is one of the players, or None for a draw."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: int
    system: str = Field(min_length=1, max_length=SYSTEM_MAX)
    mission: str | None = Field(default=None, max_length=MISSION_MAX)
    player_a: int
    player_b: int
    score_a: int = Field(ge=0, le=MAX_SCORE)
    score_b: int = Field(ge=0, le=MAX_SCORE)
    winner: int | None
    played_at: datetime
    faction_a: str | None = Field(default=None, max_length=FACTION_MAX)
    faction_b: str | None = Field(default=None, max_length=FACTION_MAX)
    season_id: int | None = None
    status: ResultStatus = ResultStatus.CONFIRMED

    @field_validator("system", mode="before")
    @classmethod
    def _system(cls, value: object) -> object:
        return value.strip() if isinstance(value, str) else value

    @field_validator("mission", "faction_a", "faction_b", mode="before")
    @classmethod
    def _optional_text(cls, value: object) -> object:
        # Blank means "not given", so a record and its CSV export always agree.
        if isinstance(value, str):
            value = value.strip()
            return value or None
        return value

    @field_validator("played_at")
    @classmethod
    def _utc(cls, value: datetime) -> datetime:
        # A naive time is taken as UTC (SQLite forgets zones); every time is kept in UTC so that
        # ordering and export never depend on where the bot runs.
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)

    @model_validator(mode="after")
    def _consistent(self) -> ResultRecord:
        if self.player_a == self.player_b:
            raise ValueError("a result needs two different players")
        if self.winner is not None and self.winner not in (self.player_a, self.player_b):
            raise ValueError("the winner must be one of the two players")
        return self

    @property
    def order_key(self) -> tuple[datetime, int]:
        """Replay order: when it was played, then the id so equal times stay in a fixed order."""
        return (self.played_at, self.id)

    @property
    def counts(self) -> bool:
        return self.status is ResultStatus.CONFIRMED

    @property
    def is_draw(self) -> bool:
        return self.winner is None

    def involves(self, player: int) -> bool:
        return player in (self.player_a, self.player_b)

    def opponent_of(self, player: int) -> int:
        return self.player_b if player == self.player_a else self.player_a

    def side(self, player: int) -> tuple[int, int, str | None]:
        """(points for, points against, faction) from `player`'s side of the table."""
        if player == self.player_a:
            return self.score_a, self.score_b, self.faction_a
        return self.score_b, self.score_a, self.faction_b


def winner_from_scores(player_a: int, player_b: int, score_a: int, score_b: int) -> int | None:
    """The usual rule for games entered by hand: the higher score wins, equal scores draw."""
    if score_a > score_b:
        return player_a
    if score_b > score_a:
        return player_b
    return None


def record_from_outcome(
    outcome: GameOutcome,
    *,
    result_id: int,
    system: str,
    played_at: datetime,
    season_id: int | None = None,
    status: ResultStatus = ResultStatus.PENDING,
) -> ResultRecord:
    """A finished session's outcome as a result record (the game decided the winner, not the scores)."""
    if len(outcome.sides) != 2:
        raise ValueError("a result needs exactly two sides")
    side_a, side_b = outcome.sides
    return ResultRecord(
        id=result_id,
        system=system,
        mission=outcome.mission,
        player_a=side_a.player,
        player_b=side_b.player,
        score_a=max(0, min(MAX_SCORE, side_a.score)),
        score_b=max(0, min(MAX_SCORE, side_b.score)),
        winner=outcome.winner,
        played_at=played_at,
        faction_a=_clip(side_a.faction, FACTION_MAX),
        faction_b=_clip(side_b.faction, FACTION_MAX),
        season_id=season_id,
        status=status,
    )


def _clip(text: str | None, limit: int) -> str | None:
    if text is None:
        return None
    text = text.strip()
    return text[:limit] or None


def check_manual_entry(
    *,
    reporter: int,
    opponent: int,
    opponent_is_bot: bool,
    system: str,
    my_score: int,
    their_score: int,
    mission: str | None = None,
    my_faction: str | None = None,
    their_faction: str | None = None,
) -> None:
    """Refuse a hand-entered result specifically, by code, before anything is stored."""
    if opponent == reporter:
        raise RuleError(code="scores.against_self")
    if opponent_is_bot:
        raise RuleError(code="scores.opponent_bot")
    if not system.strip():
        raise RuleError(code="scores.system_missing")
    if len(system.strip()) > SYSTEM_MAX:
        raise RuleError(code="scores.system_long", limit=SYSTEM_MAX)
    for side, score in (("my", my_score), ("their", their_score)):
        if score < 0:
            raise RuleError(code=f"scores.{side}_score_negative")
        if score > MAX_SCORE:
            raise RuleError(code=f"scores.{side}_score_typo", score=score, maximum=MAX_SCORE)
    if mission is not None and len(mission.strip()) > MISSION_MAX:
        raise RuleError(code="scores.mission_long", limit=MISSION_MAX)
    for side, faction in (("my", my_faction), ("their", their_faction)):
        if faction is not None and len(faction.strip()) > FACTION_MAX:
            raise RuleError(code=f"scores.{side}_faction_long", limit=FACTION_MAX)


def confirmed_in_order(results: Iterable[ResultRecord]) -> list[ResultRecord]:
    """The results that count, in replay order."""
    return sorted((r for r in results if r.counts), key=lambda r: r.order_key)
