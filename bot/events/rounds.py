"""An event's rounds beyond its state: opening each pairing's game in the publishing transaction (as a
night's publish does: `open_pairing_games`, so a crash or a second click never opens a game twice),
bringing the confirmed results of those games back into the event, and the standings.

A round's games are tagged, on their sessions and results, with `round_tag(event, round)` in the
column a night's games use: a publish run again finds the games it opened, and a game played to its
end in Muster is found by its players among the round's games (`muster_results`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from sqlalchemy import or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.models import GameResult, utcnow
from bot.events.service import EventInfo
from bot.nights.games import open_pairing_games
from bot.scores.cache import bump_generation
from bot.scores.rows import UNRATED_EVENT
from bot.scores.systems import system_key
from rules.event.actions import ReportResult
from rules.event.events import ResultReported
from rules.event.machine import apply
from rules.event.models import Game
from rules.event.standings import Standing, standings
from rules.event.state import EventState
from rules.scores import ResultStatus, winner_from_scores
from rules.session import Event

if TYPE_CHECKING:
    from bot.app import MusterBot


def round_tag(event_id: str, number: int) -> str:
    """What a round's games carry as their night (≤ 40 characters)."""
    return f"event:{event_id}:{number}"


def table_of(state: EventState) -> list[Standing]:
    """The standings now: every entrant, points then the configured tiebreakers (Swiss games only)."""
    return standings(state.entrants, state.swiss_games(), state.settings.scoring)


class _PairingOf:
    """A game as `open_pairing_games` reads a pairing: its system and its two players."""

    def __init__(self, system: str, game: Game) -> None:
        self.system = system
        self.players: Sequence[int] = game.players


async def open_games(
    bot: MusterBot, db: AsyncSession, info: EventInfo, state: EventState, names: dict[int, str]
) -> None:
    """Open, in the publishing transaction, the game of each pairing (not a bye) of the round just
    published when Muster runs the event's system. Another system: nothing opens (its result comes
    by `/event result`)."""
    playing = [g for g in state.round_games() if g.second is not None]
    if not playing:
        return
    await open_pairing_games(
        bot,
        db,
        guild_id=info.guild_id,
        channel_id=info.channel_id,
        night_id=round_tag(info.id, state.round_number),
        pairings=[_PairingOf(state.settings.system, g) for g in playing],
        organiser_id=state.organiser,
        names=names,
    )


async def muster_results(db: AsyncSession, state: EventState) -> list[ReportResult]:
    """The confirmed results of this round's games played in Muster that the event lacks, as the
    organiser's reports (the bot reports them on the players' behalf)."""
    waiting = {frozenset(g.players): g for g in state.open_games() if g.second is not None}
    if not waiting or state.round_number == 0:
        return []
    rows = await db.scalars(
        select(GameResult).where(
            GameResult.night_id == round_tag(state.event_id, state.round_number),
            # An unrated event's games are filed void (out of the scores), with their note.
            or_(
                GameResult.status == ResultStatus.CONFIRMED.value,
                (GameResult.status == ResultStatus.VOID.value) & (GameResult.note == UNRATED_EVENT),
            ),
        )
    )
    reports = []
    for row in rows:
        game = waiting.pop(frozenset((row.player_a, row.player_b)), None)
        if game is not None:
            reports.append(
                ReportResult(
                    actor=state.organiser,
                    as_organiser=True,
                    round=game.round,
                    first=row.player_a,
                    second=row.player_b,
                    first_vp=row.score_a,
                    second_vp=row.score_b,
                )
            )
    return reports


def with_results(state: EventState, reports: list[ReportResult]) -> tuple[EventState, list[Event]]:
    """`state` with `reports` applied in turn, and what they did."""
    events: list[Event] = []
    for report in reports:
        state, happened = apply(state, report)
        events += happened
    return state, events


async def file_results(
    bot: MusterBot, db: AsyncSession, info: EventInfo, state: EventState, events: list[Event]
) -> None:
    """The results that now stand in a rated event of a system Muster doesn't run, filed with the
    scores as confirmed results (in the step's transaction; a correction changes the filed one), so
    they count for ratings as any confirmed result does. Games Muster ran filed their own."""
    if not state.settings.rated or bot.games.system_for(state.settings.system) is not None:
        return
    reported = [e for e in events if isinstance(e, ResultReported)]
    for result in reported:
        tag = round_tag(info.id, result.round)
        known = await db.scalar(
            select(GameResult).where(
                GameResult.night_id == tag,
                GameResult.player_a == result.first,
                GameResult.player_b == result.second,
            )
        )
        row = known or GameResult(
            guild_id=info.guild_id,
            channel_id=info.channel_id,
            system=system_key(state.settings.system),
            player_a=result.first,
            player_b=result.second,
            summary="",
            played_at=utcnow(),
            night_id=tag,
            season_id=await _season(bot, db, info.guild_id),
            status=ResultStatus.CONFIRMED.value,
            confirmed_at=utcnow(),
            announced=True,  # the event's own posts say it; the results channel is not flooded
        )
        row.score_a, row.score_b = result.first_vp, result.second_vp
        row.winner_id = winner_from_scores(result.first, result.second, result.first_vp, result.second_vp)
        if known is None:
            db.add(row)
    if reported:
        await bump_generation(db, info.guild_id)


async def _season(bot: MusterBot, db: AsyncSession, guild_id: int) -> int | None:
    season = await bot.scores.seasons.running(guild_id, db)
    return season.id if season is not None else None
