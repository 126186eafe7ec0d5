"""Swiss pairing by hand-made examples: round 1 (random and by rating), a pair-down, a forced
rematch, the bye, dropped players, tables."""

from __future__ import annotations

import random

import pytest

from rules.errors import RuleError
from rules.event import pairing
from rules.event.models import Entrant, Game, Pairing, Scoring, played_pairs
from rules.event.pairing import assign_tables, pair_round
from rules.event.standings import standings


def pair(
    entrants: list[Entrant], games: list[Game], number: int, seed: int = 0, **options: object
) -> list[Pairing]:
    return pair_round(
        entrants,
        games,
        number,
        scoring=Scoring(),
        seeding=options.get("seeding", "random"),  # type: ignore[arg-type]
        tables=options.get("tables"),  # type: ignore[arg-type]
        rng=random.Random(seed),
    )


def won(number: int, table: int, winner: int, loser: int) -> Game:
    return Game(round=number, table=table, first=winner, second=loser, first_vp=10, second_vp=0)


FOUR = [Entrant(player=p) for p in (1, 2, 3, 4)]


def test_round_one_is_the_seeds_shuffle_the_same_seed_the_same_pairs() -> None:
    field = [Entrant(player=p) for p in range(1, 17)]
    assert pair(field, [], 1, seed=5) == pair(field, [], 1, seed=5)
    assert {frozenset(p.players) for p in pair(field, [], 1, seed=5)} != {
        frozenset(p.players) for p in pair(field, [], 1, seed=6)
    }


def test_round_one_by_rating_meets_the_top_half_with_the_bottom_half_and_the_lowest_has_the_bye() -> None:
    field = [Entrant(player=p, rating=r) for p, r in [(1, 1500), (2, 1400), (3, 1300), (4, 1200), (5, None)]]
    made = pair(field, [], 1, seeding="rating")
    assert [(p.table, p.first, p.second) for p in made] == [(1, 1, 3), (2, 2, 4), (0, 5, None)]


def test_winners_meet_winners_and_losers_meet_losers() -> None:
    games = [won(1, 1, 1, 2), won(1, 2, 3, 4)]
    made = pair(FOUR, games, 2)
    assert [(p.table, {p.first, p.second}) for p in made] == [(1, {1, 3}), (2, {2, 4})]


def test_an_odd_score_group_floats_one_player_down_and_avoids_the_rematch() -> None:
    # After round 2: 1 and 3 on 6 points... 1 beat 2 and 3; 4 beat 5 and 6; 2 beat 6; 3 beat 5.
    field = [Entrant(player=p) for p in range(1, 7)]
    games = [
        won(1, 1, 1, 2),
        won(1, 2, 3, 5),
        won(1, 3, 4, 6),
        won(2, 1, 1, 3),
        won(2, 2, 4, 5),
        won(2, 3, 2, 6),
    ]
    made = pair(field, games, 3)
    pairs = {frozenset(p.players) for p in made}
    assert frozenset((1, 4)) in pairs  # the two on 6 points
    assert frozenset((2, 3)) in pairs  # the two on 3 points
    assert frozenset((5, 6)) in pairs


def test_a_rematch_only_when_nothing_else_is_possible() -> None:
    two = [Entrant(player=1), Entrant(player=2)]
    made = pair(two, [won(1, 1, 1, 2)], 2)
    assert [(p.first, p.second) for p in made] == [(2, 1)] or [(p.first, p.second) for p in made] == [(1, 2)]


def test_the_bye_goes_to_the_lowest_ranked_without_one() -> None:
    field = [Entrant(player=p) for p in range(1, 6)]
    games = [won(1, 1, 1, 2), won(1, 2, 3, 4), Game(round=1, table=0, first=5)]
    made = pair(field, games, 2)
    bye = [p.first for p in made if p.second is None]
    assert bye in ([2], [4])  # 5 had a bye; 2 and 4 lost: the lowest-ranked of those takes it


def test_dropped_players_are_never_paired() -> None:
    field = [*FOUR[:3], Entrant(player=4, dropped=True)]
    made = pair(field, [won(1, 1, 1, 2), won(1, 2, 3, 4)], 2)
    assert 4 not in {p for pairing in made for p in pairing.players}
    assert sum(1 for p in made if p.second is None) == 1


def test_a_pair_is_moved_off_a_table_one_of_them_had_last_round_the_least_it_can() -> None:
    points = {1: 6, 2: 6, 3: 3, 4: 3, 5: 0, 6: 0}
    ranked = [1, 2, 3, 4, 5, 6]
    plain = assign_tables([(1, 2), (3, 4), (5, 6)], points, ranked, {}, 3)
    assert [(p.table, p.first) for p in plain] == [(1, 1), (2, 3), (3, 5)]  # top scores on top
    moved = assign_tables([(1, 2), (3, 4), (5, 6)], points, ranked, {1: 1, 4: 3}, 3)
    assert [(p.table, p.first) for p in moved] == [(1, 3), (2, 1), (3, 5)]
    stuck = assign_tables([(1, 2), (3, 4)], points, ranked, {1: 1, 2: 2, 3: 1, 4: 2}, 2)
    assert [(p.table, p.first) for p in stuck] == [(1, 1), (2, 3)]  # no way out: order kept


def test_too_few_players_or_tables_are_refused() -> None:
    with pytest.raises(RuleError) as refused:
        pair([Entrant(player=1), Entrant(player=2, dropped=True)], [], 1)
    assert refused.value.code == "event.too_few_players"
    with pytest.raises(RuleError) as refused:
        pair(FOUR, [], 1, tables=1)
    assert refused.value.code == "event.too_few_tables"
    assert {p.table for p in pair(FOUR, [], 1, tables=5)} <= set(range(1, 6))


def swiss_history(count: int, rounds: int, seed: int) -> tuple[list[Entrant], list[Game]]:
    """`rounds` rounds of a `count`-player event paired by `pair_round`, results at random."""
    rng = random.Random(seed)
    entrants = [Entrant(player=p) for p in range(count)]
    games: list[Game] = []
    for number in range(1, rounds + 1):
        for p in pair(entrants, games, number, seed=seed + number):
            vp = rng.choice([(10, 5), (5, 10), (6, 6)]) if p.second is not None else (None, None)
            games.append(
                Game(
                    round=number,
                    table=p.table,
                    first=p.first,
                    second=p.second,
                    first_vp=vp[0],
                    second_vp=vp[1],
                )
            )
    return entrants, games


@pytest.mark.parametrize(("count", "rounds", "seed"), [(66, 4, 1), (81, 5, 2), (100, 6, 5)])
def test_a_big_field_in_blocks_is_as_good_as_the_whole_graph_on_swiss_histories(
    count: int, rounds: int, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Blocks are exact within themselves only; on Swiss histories they match the whole graph's
    rematches and squared score gaps (bench/event_pairing.py --full compares 256 players)."""
    entrants, games = swiss_history(count, rounds, seed)
    met = played_pairs(games)
    points = {s.player: s.points for s in standings(entrants, games, Scoring())}

    def quality(made: list[Pairing]) -> tuple[int, int]:
        pairs = [(p.first, p.second) for p in made if p.second is not None]
        return sum(met.get(frozenset(q), 0) for q in pairs), sum(
            (points[a] - points[b]) ** 2 for a, b in pairs
        )

    in_blocks = quality(pair(entrants, games, rounds + 1))
    monkeypatch.setattr(pairing, "FULL_GRAPH_MAX", 10**6)
    assert in_blocks == quality(pair(entrants, games, rounds + 1))
