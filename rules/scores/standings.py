"""Standings, player summaries and history: plain tallies over confirmed results.

Ranking order (a league table, so winning games matters most):
1. league points, 3 for a win and 1 for a draw, highest first;
2. rating (the exact OpenSkill ordinal of the same scope), highest first;
3. points difference (points for minus points against), highest first;
4. Discord user id, lowest first, so the order is total and never depends on input order.
Ranks are positions 1, 2, 3...: the tie-breaks leave no two players level.

The rating column is the player's rating in the scope asked for (a system, or overall) over every
confirmed result, whatever the season: a season filters the table's tallies, not the skill estimate.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime

from rules.scores.model import ResultRecord, ResultStatus
from rules.scores.ratings import INITIAL, Rating, RatingLedger, ratings_of

WIN_POINTS = 3
DRAW_POINTS = 1


@dataclass(slots=True)
class Tally:
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    points_for: int = 0
    points_against: int = 0

    def add(self, result: ResultRecord, player: int) -> None:
        scored, conceded, _ = result.side(player)
        self.games += 1
        self.points_for += scored
        self.points_against += conceded
        if result.winner is None:
            self.draws += 1
        elif result.winner == player:
            self.wins += 1
        else:
            self.losses += 1

    @property
    def league_points(self) -> int:
        return WIN_POINTS * self.wins + DRAW_POINTS * self.draws

    @property
    def points_difference(self) -> int:
        return self.points_for - self.points_against


@dataclass(frozen=True, slots=True)
class Standing:
    rank: int
    player: int
    games: int
    wins: int
    draws: int
    losses: int
    points_for: int
    points_against: int
    rating: Rating

    @property
    def league_points(self) -> int:
        return WIN_POINTS * self.wins + DRAW_POINTS * self.draws

    @property
    def points_difference(self) -> int:
        return self.points_for - self.points_against


def select(
    results: Iterable[ResultRecord],
    *,
    system: str | None = None,
    season_id: int | None = None,
    statuses: frozenset[ResultStatus] = frozenset({ResultStatus.CONFIRMED}),
) -> list[ResultRecord]:
    """Results of the given statuses (confirmed by default), optionally of one system and season."""
    return [
        r
        for r in results
        if r.status in statuses
        and (system is None or r.system == system)
        and (season_id is None or r.season_id == season_id)
    ]


def tallies(results: Iterable[ResultRecord]) -> dict[int, Tally]:
    table: dict[int, Tally] = {}
    for result in results:
        for player in (result.player_a, result.player_b):
            tally = table.get(player)
            if tally is None:
                tally = table[player] = Tally()
            tally.add(result, player)
    return table


def standings(
    results: Iterable[ResultRecord],
    ratings: RatingLedger | Mapping[int, Rating],
    *,
    system: str | None = None,
    season_id: int | None = None,
) -> list[Standing]:
    """The ranked league table; `ratings` should be the ledger of the same scope (`system`)."""
    return rank(tallies(select(results, system=system, season_id=season_id)), ratings)


def rank(table: Mapping[int, Tally], ratings: RatingLedger | Mapping[int, Rating]) -> list[Standing]:
    """The ranked table of players' tallies (however they were counted: from results here, or summed
    by the store for the web site), in the ranking order above."""
    rated = {player: ratings_of(ratings, player) for player in table}

    def order(player: int) -> tuple[int, float, int, int]:
        t = table[player]
        return (-t.league_points, -rated[player].ordinal, -t.points_difference, player)

    ranked = sorted(table, key=order)
    return [
        Standing(
            rank=i,
            player=p,
            games=table[p].games,
            wins=table[p].wins,
            draws=table[p].draws,
            losses=table[p].losses,
            points_for=table[p].points_for,
            points_against=table[p].points_against,
            rating=rated[p],
        )
        for i, p in enumerate(ranked, start=1)
    ]


@dataclass(frozen=True, slots=True)
class HeadToHead:
    """One player's record against one opponent."""

    opponent: int
    games: int
    wins: int
    draws: int
    losses: int
    points_for: int
    points_against: int


@dataclass(frozen=True, slots=True)
class PlayerSummary:
    player: int
    games: int
    wins: int
    draws: int
    losses: int
    points_for: int
    points_against: int
    rating: Rating  # overall
    system_ratings: dict[str, Rating] = field(default_factory=dict)
    systems: list[tuple[str, int]] = field(default_factory=list)  # (system, games), most played first
    favourite_factions: list[tuple[str, int]] = field(default_factory=list)  # (faction, games)
    opponents: list[HeadToHead] = field(default_factory=list)  # most games first
    last_played: datetime | None = None


def player_summary(
    results: Iterable[ResultRecord],
    player: int,
    *,
    overall: RatingLedger | Mapping[int, Rating] | None = None,
    by_system: Mapping[str, RatingLedger | Mapping[int, Rating]] | None = None,
    system: str | None = None,
    season_id: int | None = None,
    top_factions: int = 3,
) -> PlayerSummary:
    """A player's record, systems, favourite factions (most played, then by name) and head-to-heads."""
    mine = [r for r in select(results, system=system, season_id=season_id) if r.involves(player)]
    total = Tally()
    against: dict[int, Tally] = {}
    factions: Counter[str] = Counter()
    systems: Counter[str] = Counter()
    for result in mine:
        total.add(result, player)
        opponent = result.opponent_of(player)
        against.setdefault(opponent, Tally()).add(result, player)
        _, _, faction = result.side(player)
        if faction:
            factions[faction] += 1
        systems[result.system] += 1
    heads = [
        HeadToHead(
            opponent=o,
            games=t.games,
            wins=t.wins,
            draws=t.draws,
            losses=t.losses,
            points_for=t.points_for,
            points_against=t.points_against,
        )
        for o, t in against.items()
    ]
    heads.sort(key=lambda h: (-h.games, h.opponent))
    return PlayerSummary(
        player=player,
        games=total.games,
        wins=total.wins,
        draws=total.draws,
        losses=total.losses,
        points_for=total.points_for,
        points_against=total.points_against,
        rating=INITIAL if overall is None else ratings_of(overall, player),
        system_ratings={
            s: ratings_of(ledger, player) for s, ledger in sorted((by_system or {}).items()) if s in systems
        },
        systems=sorted(systems.items(), key=lambda item: (-item[1], item[0])),
        favourite_factions=sorted(factions.items(), key=lambda item: (-item[1], item[0]))[:top_factions],
        opponents=heads,
        last_played=max((r.played_at for r in mine), default=None),
    )


def history(
    results: Iterable[ResultRecord],
    *,
    user: int | None = None,
    vs: int | None = None,
    system: str | None = None,
    season_id: int | None = None,
    limit: int | None = None,
    statuses: frozenset[ResultStatus] = frozenset({ResultStatus.CONFIRMED}),
) -> list[ResultRecord]:
    """Games newest first; `user` and `vs` together mean games between the two of them."""
    chosen = [
        r
        for r in select(results, system=system, season_id=season_id, statuses=statuses)
        if (user is None or r.involves(user)) and (vs is None or r.involves(vs))
    ]
    chosen.sort(key=lambda r: r.order_key, reverse=True)
    return chosen if limit is None else chosen[:limit]
