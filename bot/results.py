"""Storing finished games: every game's outcome becomes one row of the one result model."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.models import GameResult
from bot.games import SessionInfo
from bot.messages import Outgoing
from rules.session import GameOutcome


def result_row(info: SessionInfo, outcome: GameOutcome) -> GameResult:
    by_player = {side.player: side for side in outcome.sides}
    a, b = info.players
    side_a, side_b = by_player.get(a), by_player.get(b)
    return GameResult(
        guild_id=info.guild_id,
        channel_id=info.channel_id,
        system=info.system,
        mission=outcome.mission,
        player_a=a,
        player_b=b,
        faction_a=side_a.faction if side_a else None,
        faction_b=side_b.faction if side_b else None,
        score_a=side_a.score if side_a else 0,
        score_b=side_b.score if side_b else 0,
        winner_id=outcome.winner,
        summary=outcome.summary[:4000],
        session_id=info.id,
        status="pending",
        reported_by=None,
    )


async def record_session_outcome(db: AsyncSession, info: SessionInfo, outcome: GameOutcome) -> list[Outgoing]:
    """Result hook for finished sessions: add the result row (the scores service then confirms it)."""
    db.add(result_row(info, outcome))
    return []
