"""Standings: tournament points, the tiebreakers as defined, in the organiser's order, worked out by
hand; and for any results, the order the configured tiebreakers give."""

from __future__ import annotations

import itertools
import math

import pytest
from event_helpers import histories
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.errors import RuleError
from rules.event.models import Entrant, Game, Scoring, Tiebreaker
from rules.event.standings import Standing, next_cut_round, rounds_for, standings, top_cut

A, B, C, D, E = 1, 2, 3, 4, 5
T = Tiebreaker

# Round 1: A 10-5 B, C 7-7 D, E bye. Round 2: A 3-9 C, B 12-0 D, E not played (reported later).
GAMES = [
    Game(round=1, table=1, first=A, second=B, first_vp=10, second_vp=5),
    Game(round=1, table=2, first=C, second=D, first_vp=7, second_vp=7),
    Game(round=2, table=1, first=A, second=C, first_vp=3, second_vp=9),
    Game(round=2, table=2, first=B, second=D, first_vp=12, second_vp=0),
]
FOUR = [Entrant(player=p) for p in (A, B, C, D)]


def order(scoring: Scoring, entrants: list[Entrant] = FOUR, games: list[Game] = GAMES) -> list[int]:
    return [s.player for s in standings(entrants, games, scoring)]


def by_player(rows: list[Standing]) -> dict[int, Standing]:
    return {row.player: row for row in rows}


def test_points_records_and_every_tiebreaker_as_worked_out_by_hand() -> None:
    rows = by_player(standings(FOUR, GAMES, Scoring()))
    # points: A W L = 3, B L W = 3, C D W = 4, D D L = 1
    assert {p: (r.wins, r.draws, r.losses, r.points) for p, r in rows.items()} == {
        A: (1, 0, 1, 3),
        B: (1, 0, 1, 3),
        C: (1, 1, 0, 4),
        D: (0, 1, 1, 1),
    }
    assert {p: r.tiebreaks[T.TOTAL_VP] for p, r in rows.items()} == {A: 13, B: 17, C: 16, D: 7}
    assert {p: r.tiebreaks[T.VP_DIFFERENCE] for p, r in rows.items()} == {A: -1, B: 7, C: 6, D: -12}
    # SOS: A met B (3) and C (4); B met A (3), D (1); C met D (1), A (3); D met C (4), B (3)
    assert {p: r.tiebreaks[T.SOS] for p, r in rows.items()} == {A: 7, B: 4, C: 4, D: 7}
    assert {p: r.tiebreaks[T.OPP_SOS] for p, r in rows.items()} == {A: 8, B: 14, C: 14, D: 8}


@pytest.mark.parametrize(
    ("tiebreakers", "expected"),
    [
        ((T.SOS, T.VP_DIFFERENCE, T.TOTAL_VP), [C, A, B, D]),  # A and B on 3: SOS 7 v 4
        ((T.VP_DIFFERENCE,), [C, B, A, D]),  # 7 v -1
        ((T.TOTAL_VP,), [C, B, A, D]),  # 17 v 13
        ((T.OPP_SOS, T.SOS), [C, B, A, D]),  # 14 v 8
        ((T.HEAD_TO_HEAD, T.VP_DIFFERENCE), [C, A, B, D]),  # A beat B, whatever the VP
        ((T.VP_DIFFERENCE, T.HEAD_TO_HEAD), [C, B, A, D]),  # the order is the organiser's
    ],
)
def test_the_configured_tiebreakers_decide_in_their_order(
    tiebreakers: tuple[T, ...], expected: list[int]
) -> None:
    assert order(Scoring(tiebreakers=tiebreakers)) == expected


def test_scoring_points_are_the_organisers() -> None:
    rows = by_player(standings(FOUR, GAMES, Scoring(win=2, draw=1, loss=0, bye=2)))
    assert {p: r.points for p, r in rows.items()} == {A: 2, B: 2, C: 3, D: 1}


def test_a_bye_scores_the_bye_points_and_no_vp_and_adds_nothing_to_sos() -> None:
    entrants = [*FOUR, Entrant(player=E)]
    games = [*GAMES, Game(round=1, table=0, first=E)]
    rows = by_player(standings(entrants, games, Scoring()))
    assert (rows[E].byes, rows[E].points, rows[E].tiebreaks[T.TOTAL_VP], rows[E].tiebreaks[T.SOS]) == (
        1,
        3,
        0,
        0,
    )
    assert rows[E].record() == "1-0-0"
    assert rows[A].tiebreaks[T.SOS] == 7  # nobody met E


def test_a_game_without_a_result_counts_for_nothing_yet() -> None:
    games = [*GAMES, Game(round=3, table=1, first=A, second=D)]
    assert by_player(standings(FOUR, games, Scoring()))[A].points == 3
    assert by_player(standings(FOUR, games, Scoring()))[A].tiebreaks[T.SOS] == 7


def test_head_to_head_ignores_players_level_who_never_met() -> None:
    # B and C level on 3 points, never met: head-to-head separates nobody, SOS decides.
    games = [
        Game(round=1, table=1, first=A, second=B, first_vp=1, second_vp=5),  # B beats A
        Game(round=1, table=2, first=C, second=D, first_vp=5, second_vp=1),  # C beats D
    ]
    rows = standings(FOUR, games, Scoring(tiebreakers=(T.HEAD_TO_HEAD, T.TOTAL_VP)))
    assert [r.player for r in rows][:2] == [B, C]  # 5 VP each: level on everything
    assert rows[0].rank == rows[1].rank == 1
    assert rows[0].tiebreaks[T.HEAD_TO_HEAD] == rows[1].tiebreaks[T.HEAD_TO_HEAD] == 0


def game(first: int, second: int, first_vp: int, second_vp: int, number: int = 1) -> Game:
    return Game(round=number, table=1, first=first, second=second, first_vp=first_vp, second_vp=second_vp)


F = 6
SIX = [Entrant(player=p) for p in (A, B, C, D, E, F)]
# A, B and C end on 7 points; among themselves A took 4 (beat B, drew C), C 2, B 1 (drew C).
# B has by far the most VP (20-0 against D).
AMONG_THREE = [game(A, B, 1, 0), game(A, C, 2, 2), game(B, C, 2, 2)]
OUTSIDE = [
    game(A, F, 1, 0),
    game(B, D, 20, 0),
    game(B, E, 1, 0),
    game(C, D, 1, 0),
    game(C, E, 2, 2),
    game(C, F, 2, 2),
]


def test_head_to_head_orders_three_level_players_who_all_met() -> None:
    rows = standings(SIX, [*AMONG_THREE, *OUTSIDE], Scoring(tiebreakers=(T.HEAD_TO_HEAD, T.TOTAL_VP)))
    assert [r.points for r in rows[:3]] == [7, 7, 7]
    assert [r.player for r in rows[:3]] == [A, C, B]
    assert [r.tiebreaks[T.HEAD_TO_HEAD] for r in rows[:3]] == [4, 2, 1]


def test_head_to_head_counts_nothing_when_not_every_two_of_the_level_players_met() -> None:
    # B and C did not meet: each drew someone else instead. Still 7 each; total VP decides.
    games = [*AMONG_THREE[:2], game(B, F, 2, 2, 2), game(C, D, 2, 2, 2), *OUTSIDE]
    rows = standings(SIX, games, Scoring(tiebreakers=(T.HEAD_TO_HEAD, T.TOTAL_VP)))
    assert [r.points for r in rows[:3]] == [7, 7, 7]
    assert [r.player for r in rows[:3]] == [B, C, A]  # VP 23, 9, 4
    assert {r.tiebreaks[T.HEAD_TO_HEAD] for r in rows[:3]} == {0}


def test_head_to_head_breaks_a_three_way_tie_of_players_who_all_met() -> None:
    # Each of A, B, C beat one and lost to one of the others; D lost to A and beat B and C twice.
    games = [
        Game(round=1, table=1, first=A, second=B, first_vp=9, second_vp=1),
        Game(round=2, table=1, first=B, second=C, first_vp=9, second_vp=1),
        Game(round=3, table=1, first=C, second=A, first_vp=9, second_vp=1),
    ]
    entrants = [Entrant(player=p) for p in (A, B, C)]
    rows = standings(entrants, games, Scoring(tiebreakers=(T.HEAD_TO_HEAD, T.TOTAL_VP)))
    assert {r.tiebreaks[T.HEAD_TO_HEAD] for r in rows} == {3}  # all took 3 from the others: still level
    assert len({r.rank for r in rows}) == 1  # and level on total VP (10 each)


@pytest.mark.parametrize(
    ("players", "rounds"),
    [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (8, 3), (9, 4), (13, 4), (16, 4), (17, 5), (64, 6), (65, 7)],
)
def test_rounds_for_is_log2_rounded_up(players: int, rounds: int) -> None:
    assert rounds_for(players) == rounds


@given(st.integers(2, 10_000))
def test_rounds_for_finds_one_undefeated(players: int) -> None:
    rounds = rounds_for(players)
    assert 2 ** (rounds - 1) < players <= 2**rounds
    assert rounds == math.ceil(math.log2(players))


def ranked(count: int, dropped: tuple[int, ...] = ()) -> list[Standing]:
    return [Standing(rank=i, player=100 + i, dropped=100 + i in dropped) for i in range(1, count + 1)]


def test_top_cut_of_eight_meets_one_with_eight_and_the_bracket_halves_meet_later() -> None:
    pairs = [(p.table, p.first - 100, (p.second or 0) - 100) for p in top_cut(ranked(10), 8)]
    assert pairs == [(1, 1, 8), (2, 4, 5), (3, 2, 7), (4, 3, 6)]
    pairs = [(p.table, p.first - 100, (p.second or 0) - 100) for p in top_cut(ranked(5), 4)]
    assert pairs == [(1, 1, 4), (2, 2, 3)]


def test_top_cut_skips_dropped_players_and_needs_enough() -> None:
    cut = top_cut(ranked(6, dropped=(102,)), 4)
    assert [(p.first, p.second) for p in cut] == [(101, 105), (103, 104)]
    with pytest.raises(RuleError) as refused:
        top_cut(ranked(7, dropped=(101,)), 8)
    assert refused.value.code == "event.cut_too_few"


def test_the_cut_advances_winners_to_the_final() -> None:
    quarter = [
        Game(round=5, table=t, first=a, second=b, first_vp=va, second_vp=vb)
        for t, a, b, va, vb in [(1, 1, 8, 10, 2), (2, 4, 5, 3, 9), (3, 2, 7, 1, 8), (4, 3, 6, 6, 5)]
    ]
    semi = next_cut_round(quarter)
    assert [(p.table, p.first, p.second) for p in semi] == [(1, 1, 5), (2, 7, 3)]
    final = next_cut_round(
        [
            Game(round=6, table=1, first=1, second=5, first_vp=4, second_vp=2),
            Game(round=6, table=2, first=7, second=3, first_vp=0, second_vp=1),
        ]
    )
    assert [(p.first, p.second) for p in final] == [(1, 3)]
    assert next_cut_round([Game(round=7, table=1, first=1, second=3, first_vp=1, second_vp=0)]) == []
    with pytest.raises(RuleError) as refused:
        next_cut_round([Game(round=7, table=1, first=1, second=3, first_vp=1, second_vp=1)])
    assert refused.value.code == "event.cut_unfinished"


PLAIN = [T.TOTAL_VP, T.VP_DIFFERENCE, T.SOS, T.OPP_SOS]


@settings(max_examples=150, deadline=None)
@given(histories(max_players=16), st.permutations(PLAIN), st.integers(0, 4))
def test_standings_are_in_the_order_of_points_then_each_tiebreaker(
    history: tuple[list[Entrant], list[Game]], keys: list[T], count: int
) -> None:
    entrants, games = history
    scoring = Scoring(tiebreakers=tuple(keys[:count]))
    rows = standings(entrants, games, scoring)
    assert sorted(r.player for r in rows) == sorted(e.player for e in entrants)

    def key(row: Standing) -> tuple[float, ...]:
        return (row.points, *(row.tiebreaks[k] for k in scoring.tiebreakers))

    for upper, lower in itertools.pairwise(rows):
        assert key(upper) >= key(lower)
        assert (upper.rank == lower.rank) == (key(upper) == key(lower))
    assert rows[0].rank == 1
    for row in rows:
        assert row.rank == 1 + sum(1 for other in rows if key(other) > key(row))
