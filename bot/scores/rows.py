"""Result rows as the store keeps them, and as the pure score functions read them."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from bot.db.models import GameResult
from bot.play.games import SessionInfo
from bot.scores.systems import system_key
from rules.scores import MAX_SCORE, ResultRecord, ResultStatus
from rules.scores.model import FACTION_MAX, MISSION_MAX
from rules.session import GameOutcome

SUMMARY_MAX = 4000

COLUMNS = (
    GameResult.id,
    GameResult.system,
    GameResult.mission,
    GameResult.player_a,
    GameResult.player_b,
    GameResult.score_a,
    GameResult.score_b,
    GameResult.winner_id,
    GameResult.played_at,
    GameResult.faction_a,
    GameResult.faction_b,
    GameResult.season_id,
    GameResult.status,
)
"""What a `ResultRecord` needs, selected as plain columns: loading thousands skips the ORM objects."""


def record_of(row: GameResult) -> ResultRecord:
    return record_of_columns([getattr(row, column.key) for column in COLUMNS])


def record_of_columns(values: Sequence[Any]) -> ResultRecord:
    """A record from one row of `COLUMNS`, in that order."""
    (
        rid,
        system,
        mission,
        a,
        b,
        score_a,
        score_b,
        winner,
        played_at,
        faction_a,
        faction_b,
        season,
        status,
    ) = values
    return ResultRecord(
        id=rid,
        system=system,
        mission=mission,
        player_a=a,
        player_b=b,
        score_a=score_a,
        score_b=score_b,
        winner=winner,
        played_at=played_at,
        faction_a=faction_a,
        faction_b=faction_b,
        season_id=season,
        status=ResultStatus(status),
    )


def _clipped(text: str | None, limit: int) -> str | None:
    if text is None:
        return None
    return text.strip()[:limit] or None


def session_result_row(
    info: SessionInfo, outcome: GameOutcome, *, season_id: int | None, at: datetime
) -> GameResult:
    """A finished session's result, confirmed as it is stored: both players played it through the
    bot, whose rules decided it. Side A is the session's first player; texts and scores are kept
    within what a `ResultRecord` accepts, so the row always loads."""
    by_player = {side.player: side for side in outcome.sides}
    a, b = info.players
    side_a, side_b = by_player.get(a), by_player.get(b)
    return GameResult(
        guild_id=info.guild_id,
        channel_id=info.channel_id,
        system=system_key(info.system) or info.system,
        mission=_clipped(outcome.mission, MISSION_MAX),
        player_a=a,
        player_b=b,
        faction_a=_clipped(side_a.faction if side_a else None, FACTION_MAX),
        faction_b=_clipped(side_b.faction if side_b else None, FACTION_MAX),
        score_a=max(0, min(side_a.score if side_a else 0, MAX_SCORE)),
        score_b=max(0, min(side_b.score if side_b else 0, MAX_SCORE)),
        winner_id=outcome.winner,
        summary=outcome.summary[:SUMMARY_MAX],
        played_at=at,
        session_id=info.id,
        night_id=info.night_id,
        season_id=season_id,
        status=ResultStatus.CONFIRMED.value,
        confirmed_at=at,
        reported_by=None,
        announced=False,
    )


UNRATED_EVENT = "unrated event"
"""The note of a game played in Muster for an unrated event: filed void, so the scores never count
it, and read back by the event as its result (bot/events/rounds.py)."""
AUTO_CONFIRMED = "auto-confirmed"
"""The note of a result that confirmed itself after `auto_confirm_hours`."""
CONFIRMED_BY = "confirmed by"
"""How the note of a result confirmed by Manage Server's ruling starts (`voided by` for a void)."""
