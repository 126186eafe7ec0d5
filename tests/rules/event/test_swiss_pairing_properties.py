"""Properties of Swiss pairing for any history: everyone still in placed once, the bye rules, no
rematch while one can be avoided, the fewest and smallest floats, and the matching's levels equal to
the brute-force best of every possible pairing on small fields."""

from __future__ import annotations

import random
from itertools import permutations

from event_helpers import best_levels, histories, levels, split
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.event.models import Entrant, Game, Pairing, Scoring, played_pairs
from rules.event.pairing import FULL_GRAPH_MAX, assign_tables, pair_round
from rules.event.standings import standings

SLOW = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
History = tuple[list[Entrant], list[Game]]


def next_round(
    entrants: list[Entrant], games: list[Game], seed: int, *, seeding: str = "random"
) -> list[Pairing]:
    number = max((g.round for g in games), default=0) + 1
    return pair_round(
        entrants,
        games,
        number,
        scoring=Scoring(),
        seeding="rating" if seeding == "rating" else "random",
        tables=None,
        rng=random.Random(seed),
    )


def check_placed(entrants: list[Entrant], made: list[Pairing]) -> None:
    placed = [p for pairing in made for p in pairing.players]
    assert len(placed) == len(set(placed)), "a player twice in a round"
    assert set(placed) == {e.player for e in entrants if not e.dropped}, (
        "the field is not exactly the players still in"
    )
    assert sum(1 for p in made if p.second is None) == len(placed) % 2
    assert sorted(p.table for p in made if p.second is not None) == list(range(1, len(placed) // 2 + 1))


@SLOW
@given(histories(), st.integers(0, 1000))
def test_every_player_still_in_is_paired_or_has_the_bye_exactly_once(history: History, seed: int) -> None:
    entrants, games = history
    check_placed(entrants, next_round(entrants, games, seed))


@SLOW
@given(histories(max_players=9), st.integers(0, 1000))
def test_the_pairing_is_as_good_as_the_best_of_every_possible_pairing(history: History, seed: int) -> None:
    """Compared level by level (repeat byes, rematches, the bye's rank, squared score gaps) with
    brute force over every perfect matching."""
    entrants, games = history
    pairs, bye = split(next_round(entrants, games, seed))
    assert levels(pairs, bye, entrants, games) == best_levels(entrants, games)


@SLOW
@given(histories(max_players=9), st.integers(0, 1000))
def test_no_rematch_when_a_pairing_without_one_exists(history: History, seed: int) -> None:
    entrants, games = history
    pairs, _ = split(next_round(entrants, games, seed))
    met = played_pairs(games)
    rematches = sum(met.get(frozenset(pair), 0) for pair in pairs)  # a pair met twice counts twice
    _, least_rematches, _, _ = best_levels(entrants, games)
    assert rematches == least_rematches
    if least_rematches == 0:
        assert not any(frozenset(pair) in met for pair in pairs)


@SLOW
@given(histories(max_players=11), st.integers(0, 1000))
def test_the_bye_goes_to_one_with_the_fewest_byes_and_lowest_ranked_when_nothing_forbids(
    history: History, seed: int
) -> None:
    entrants, games = history
    _, bye = split(next_round(entrants, games, seed))
    active = [s.player for s in standings(entrants, games, Scoring()) if not s.dropped]
    if bye is None:
        assert len(active) % 2 == 0
        return
    byes = {p: sum(1 for g in games if g.second is None and g.first == p) for p in active}
    assert byes[bye] == min(byes.values()), "a second bye while someone still in has had fewer"
    fewest = [p for p in active if byes[p] == byes[bye]]
    lowest = fewest[-1]
    if bye != lowest:  # only to keep rematches fewer: with the lowest's bye there are more
        without = [e for e in entrants if e.player != lowest]
        forced = best_levels(without, games)[1]
        assert forced > best_levels(entrants, games)[1]


@SLOW
@given(histories(max_players=10), st.integers(0, 1000))
def test_score_groups_meet_in_order_the_sum_of_score_gaps_is_least(history: History, seed: int) -> None:
    """With no earlier meeting in the way (a fresh history of byes only), the squared score gaps
    are those of pairing sorted neighbours: the least there is."""
    entrants, games = history
    made = next_round(entrants, [g for g in games if g.second is None], seed)
    pairs, bye = split(made)
    points = {
        s.player: s.points for s in standings(entrants, [g for g in games if g.second is None], Scoring())
    }
    active = sorted((points[e.player] for e in entrants if not e.dropped and e.player != bye), reverse=True)
    neighbours = sum((active[i] - active[i + 1]) ** 2 for i in range(0, len(active) - 1, 2))
    assert sum((points[a] - points[b]) ** 2 for a, b in pairs) == neighbours


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(histories(min_players=2, max_players=7), st.integers(0, 1000))
def test_tables_avoid_last_rounds_table_wherever_an_assignment_can(history: History, seed: int) -> None:
    entrants, games = history
    last_round = max((g.round for g in games), default=0)
    made = next_round(entrants, games, seed)
    last = {p: g.table for g in games if g.round == last_round and g.second is not None for p in g.players}
    played = [p for p in made if p.second is not None]

    def clashes(tables: tuple[int, ...]) -> int:
        return sum(
            1
            for pairing, table in zip(played, tables, strict=True)
            for p in pairing.players
            if last.get(p) == table
        )

    got = clashes(tuple(p.table for p in played))
    best = min(clashes(order) for order in permutations(range(1, len(played) + 1)))
    assert got == best


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(histories(min_players=2, max_players=40), st.integers(0, 1000))
def test_without_clashes_the_top_tables_go_to_the_top_scores(history: History, seed: int) -> None:
    entrants, games = history
    made = next_round(entrants, games, seed)
    rows = standings(entrants, games, Scoring())
    points = {s.player: s.points for s in rows}
    pairs = [(p.first, p.second) for p in made if p.second is not None]
    placed = assign_tables(pairs, points, [s.player for s in rows], {}, len(pairs))
    assert [p.table for p in placed] == list(range(1, len(pairs) + 1))
    tops = [max(points[p.first], points[p.second or p.first]) for p in placed]
    assert tops == sorted(tops, reverse=True)


@SLOW
@given(histories(min_players=2, max_players=14), st.integers(0, 1000))
def test_round_one_by_rating_meets_top_half_with_bottom_half(history: History, seed: int) -> None:
    entrants, _ = history
    made = next_round(entrants, [], seed, seeding="rating")
    active = [e for e in entrants if not e.dropped]
    order = [e.player for e in sorted(active, key=lambda e: (-(e.rating or 0.0), e.player))]
    pairs, bye = split(made)
    if len(order) % 2:
        assert bye == order.pop()
    half = len(order) // 2
    assert sorted(pairs) == sorted((order[i], order[i + half]) for i in range(half))


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(FULL_GRAPH_MAX + 1, 140), st.integers(0, 1000))
def test_a_big_field_paired_in_blocks_places_everyone_without_rematches(count: int, seed: int) -> None:
    rng = random.Random(seed)
    entrants = [Entrant(player=p) for p in range(count)]
    games: list[Game] = []
    for number in range(1, 5):
        for p in next_round(entrants, games, seed + number):
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
        check_placed(
            entrants,
            [Pairing(table=g.table, first=g.first, second=g.second) for g in games if g.round == number],
        )
    assert not [k for k, times in played_pairs(games).items() if times > 1], "a rematch in a big field"
    byes = [g.first for g in games if g.second is None]
    assert len(byes) == len(set(byes))
