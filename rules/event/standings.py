"""Standings of an event: tournament points, then the organiser's tiebreakers in their order.

Only reported games count (a bye always does). Tiebreakers, for each player:
- total VP: the sum of their own VP; VP difference: own VP minus opponents' VP (byes score no VP);
- SOS (strength of schedule): the sum of the tournament points of every opponent they met, once
  per meeting (a bye has no opponent and adds nothing); opponents' SOS: the sum of those
  opponents' SOS;
- head-to-head: among the players still level at that point of the order, the tournament points each
  took from games against the others, but only when every two of them met (two tied players who
  played each other; three who all played one another); otherwise it separates nobody (0 for all).
Players level on everything share a rank (listed by player id). Dropped players keep their place.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import combinations

from pydantic import Field

from rules.errors import RuleError
from rules.event.models import CutSize, Entrant, Game, Pairing, Scoring, Tiebreaker, played_pairs
from rules.session import Model


class Standing(Model):
    rank: int
    player: int
    wins: int = 0
    draws: int = 0
    losses: int = 0
    byes: int = 0
    points: int = 0
    tiebreaks: dict[Tiebreaker, float] = Field(default_factory=dict)
    dropped: bool = False

    def record(self) -> str:
        """W-D-L, a bye counted as a win (the table shows byes apart too)."""
        return f"{self.wins + self.byes}-{self.draws}-{self.losses}"


def rounds_for(players: int) -> int:
    """Swiss rounds that can find one undefeated player: ⌈log2 n⌉, at least 1."""
    return max(1, math.ceil(math.log2(players))) if players > 1 else 1


def _tally(entrants: Sequence[Entrant], games: Sequence[Game], scoring: Scoring) -> dict[int, Standing]:
    table = {e.player: Standing(rank=0, player=e.player, dropped=e.dropped) for e in entrants}
    for game in games:
        if not game.reported:
            continue
        for player in game.players:
            if player not in table:
                continue
            row = table[player]
            if game.second is None:
                row.byes += 1
                row.points += scoring.bye
            elif game.winner is None:
                row.draws += 1
                row.points += scoring.draw
            elif game.winner == player:
                row.wins += 1
                row.points += scoring.win
            else:
                row.losses += 1
                row.points += scoring.loss
    return table


def _opponents(games: Sequence[Game]) -> dict[int, list[int]]:
    """Each player's opponents in reported games, once per meeting."""
    met: dict[int, list[int]] = {}
    for game in games:
        if game.second is not None and game.reported:
            met.setdefault(game.first, []).append(game.second)
            met.setdefault(game.second, []).append(game.first)
    return met


def _plain_tiebreaks(table: dict[int, Standing], games: Sequence[Game]) -> None:
    opponents = _opponents(games)
    vp: dict[int, int] = dict.fromkeys(table, 0)
    diff: dict[int, int] = dict.fromkeys(table, 0)
    for game in games:
        for player in game.players:
            scored = game.vp_of(player)
            if scored is not None and player in table:
                vp[player] += scored[0]
                diff[player] += scored[0] - scored[1]

    def points(player: int) -> int:
        return table[player].points if player in table else 0

    sos = {p: sum(points(o) for o in opponents.get(p, [])) for p in table}
    opp_sos = {p: sum(sos.get(o, 0) for o in opponents.get(p, [])) for p in table}
    for player, row in table.items():
        row.tiebreaks = {
            Tiebreaker.TOTAL_VP: float(vp[player]),
            Tiebreaker.VP_DIFFERENCE: float(diff[player]),
            Tiebreaker.SOS: float(sos[player]),
            Tiebreaker.OPP_SOS: float(opp_sos[player]),
            Tiebreaker.HEAD_TO_HEAD: 0.0,
        }


def head_to_head(group: Sequence[int], games: Sequence[Game], scoring: Scoring) -> dict[int, float]:
    """Points each of `group` took from the others of `group`, if every two of them met; else 0s."""
    members = set(group)
    met = played_pairs([g for g in games if g.reported])
    if len(members) < 2 or any(frozenset(pair) not in met for pair in combinations(members, 2)):
        return dict.fromkeys(group, 0.0)
    taken = dict.fromkeys(group, 0.0)
    for game in games:
        if game.second is None or not game.reported or not set(game.players) <= members:
            continue
        for player in game.players:
            if game.winner is None:
                taken[player] += scoring.draw
            else:
                taken[player] += scoring.win if game.winner == player else scoring.loss
    return taken


def _order(
    group: list[int],
    keys: Sequence[Tiebreaker],
    table: dict[int, Standing],
    games: Sequence[Game],
    scoring: Scoring,
) -> list[list[int]]:
    """`group` (level so far) split by the tiebreakers `keys` in order: best first, ties kept together."""
    if len(group) < 2 or not keys:
        return [sorted(group)]
    key, rest = keys[0], keys[1:]
    if key is Tiebreaker.HEAD_TO_HEAD:
        values = head_to_head(group, games, scoring)
        for player, value in values.items():
            table[player].tiebreaks[Tiebreaker.HEAD_TO_HEAD] = value
    else:
        values = {p: table[p].tiebreaks[key] for p in group}
    ordered: list[list[int]] = []
    for value in sorted(set(values.values()), reverse=True):
        ordered.extend(_order([p for p in group if values[p] == value], rest, table, games, scoring))
    return ordered


def standings(entrants: Sequence[Entrant], games: Sequence[Game], scoring: Scoring) -> list[Standing]:
    """Every entrant ranked: points first, then `scoring.tiebreakers` in order (see the module)."""
    table = _tally(entrants, games, scoring)
    _plain_tiebreaks(table, games)
    by_points: dict[int, list[int]] = {}
    for player, row in table.items():
        by_points.setdefault(row.points, []).append(player)
    ranked: list[Standing] = []
    for points in sorted(by_points, reverse=True):
        for tied in _order(by_points[points], scoring.tiebreakers, table, games, scoring):
            rank = len(ranked) + 1
            ranked.extend(table[p].model_copy(update={"rank": rank}) for p in tied)
    return ranked


BRACKET_SEEDS: dict[int, list[tuple[int, int]]] = {
    4: [(1, 4), (2, 3)],
    8: [(1, 8), (4, 5), (2, 7), (3, 6)],  # the winners of 1v8 and 4v5 meet, as those of 2v7 and 3v6
}


def top_cut(ranked: Sequence[Standing], size: CutSize) -> list[Pairing]:
    """The first round of a single-elimination cut of the best `size` players still in (not
    dropped): 1v8, 4v5, 2v7, 3v6 (or 1v4, 2v3), the better seed `first`, tables 1, 2, ..."""
    seeds = [s.player for s in ranked if not s.dropped][:size]
    if len(seeds) < size:
        raise RuleError(code="event.cut_too_few", size=size, players=len(seeds))
    return [
        Pairing(table=table, first=seeds[high - 1], second=seeds[low - 1])
        for table, (high, low) in enumerate(BRACKET_SEEDS[size], start=1)
    ]


def next_cut_round(previous: Sequence[Game]) -> list[Pairing]:
    """The next bracket round from the games of the last (in table order): the winners of tables 1
    and 2 meet, of 3 and 4, ...; [] when the last round was the final. Every game must have a winner
    (`event.cut_unfinished` otherwise: a cut game cannot end in a draw)."""
    ordered = sorted(previous, key=lambda g: g.table)
    winners: list[int] = []
    for game in ordered:
        if game.winner is None:
            raise RuleError(code="event.cut_unfinished", table=game.table)
        winners.append(game.winner)
    if len(winners) < 2:
        return []
    return [
        Pairing(table=index // 2 + 1, first=winners[index], second=winners[index + 1])
        for index in range(0, len(winners) - 1, 2)
    ]
