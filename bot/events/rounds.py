"""An event's rounds beyond its state: pairing the next round (rules/event), opening each pairing's
game in the publishing transaction (as a night's publish does: `open_pairing_games`, so a crash or a
second click never opens a game twice), and the standings.

A round's games are tagged, on their sessions and results, with `round_tag(event, round)` in the
column a night's games use: a publish run again finds the games it opened, and a game played to its
end in Muster brings its result back to the event (`results_of`).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.models import GameResult
from bot.events.service import EventInfo
from bot.events.state import EventState, Played, swiss_games
from bot.nights.games import open_pairing_games
from rules.event.models import Entrant, Scoring, Tiebreaker
from rules.event.pairing import pair_round
from rules.event.standings import Standing, next_cut_round, rounds_for, standings, top_cut

if TYPE_CHECKING:
    from bot.app import MusterBot


def round_tag(event_id: str, number: int) -> str:
    """What a round's games carry as their night (≤ 40 characters)."""
    return f"event:{event_id}:{number}"


def scoring_of(state: EventState) -> Scoring:
    s = state.settings
    return Scoring(
        win=s.win,
        draw=s.draw,
        loss=s.loss,
        bye=s.bye,
        tiebreakers=tuple(Tiebreaker(t) for t in s.tiebreakers),
    )


def entrants_of(state: EventState, ratings: dict[int, float] | None = None) -> list[Entrant]:
    ratings = ratings or {}
    return [Entrant(player=p, rating=ratings.get(p), dropped=p in state.dropped) for p in state.entrants]


def table_of(state: EventState) -> list[Standing]:
    """The standings now: every entrant, points then the configured tiebreakers."""
    return standings(entrants_of(state), swiss_games(state), scoring_of(state))


def cut_round(state: EventState) -> list[Played]:
    """The top cut's next games: seeded from the standings, then the winners of the last cut round."""
    number = state.round_number + 1
    if state.phase == "top_cut":
        pairings = next_cut_round(state.round_games())
    else:
        pairings = top_cut(table_of(state), 8 if state.settings.top_cut == 8 else 4)
    return [Played(round=number, table=p.table, first=p.first, second=p.second) for p in pairings]


def next_round(state: EventState, seed: int, ratings: dict[int, float] | None = None) -> list[Played]:
    """The next round's games, paired by rules/event (a minimum-cost matching over all pairs)."""
    number = state.round_number + 1
    pairings = pair_round(
        entrants_of(state, ratings),
        state.games,
        number,
        scoring=scoring_of(state),
        seeding=state.settings.seeding,
        tables=None,
        rng=random.Random(seed),
    )
    return [Played(round=number, table=p.table, first=p.first, second=p.second) for p in pairings]


def total_rounds(state: EventState) -> int:
    return state.settings.rounds or rounds_for(len(state.active()))


class _PairingOf:
    """A game as `open_pairing_games` reads a pairing: its system and its two players."""

    def __init__(self, system: str, game: Played) -> None:
        self.system = system
        self.players = [p for p in game.players]


async def open_games(
    bot: MusterBot,
    db: AsyncSession,
    info: EventInfo,
    state: EventState,
    games: list[Played],
    names: dict[int, str],
) -> list[Played]:
    """Open, in the publishing transaction, the game of each pairing (not a bye) when Muster runs
    the event's system; the games with their sessions. Another system: nothing opens (its result
    comes by `/event result`)."""
    if not games:
        return games
    playing = [g for g in games if g.second is not None]
    opened = await open_pairing_games(
        bot,
        db,
        guild_id=info.guild_id,
        channel_id=info.channel_id,
        night_id=round_tag(info.id, games[0].round),
        pairings=[_PairingOf(state.settings.system, g) for g in playing],
        organiser_id=state.organiser,
        names=names,
    )
    by_table = {playing[i].table: sid for i, sid in opened.items()}
    return [g.model_copy(update={"session_id": by_table.get(g.table)}) for g in games]


async def results_of(db: AsyncSession, state: EventState) -> dict[str, tuple[int, int, int]]:
    """The confirmed results of this round's games played in Muster: session -> (player a, VP a, VP b)
    keyed by session id, for the games still without a result in the event."""
    wanted = {g.session_id for g in state.round_games() if g.session_id and not g.reported}
    if not wanted:
        return {}
    rows = await db.scalars(
        select(GameResult).where(
            GameResult.night_id == round_tag(state.event_id, state.round_number),
            GameResult.status == "confirmed",
        )
    )
    return {
        r.session_id: (r.player_a, r.score_a, r.score_b)
        for r in rows
        if r.session_id is not None and r.session_id in wanted
    }
