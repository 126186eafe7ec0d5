"""Pairing a big event's round: 256 players after 4 rounds (results drawn at random, a few draws
and drops), round 5 paired by `pair_round`. Prints the median of 5 timings (the target is under
500 ms) and what the pairing made (rematches, floats); asserts nothing. With `--full` it also times
the same round on the full graph of every pair (no sparse edges), interleaved, to compare.

Run: .venv/bin/python bench/event_pairing.py [players] [rounds] [runs] [--full]
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.event import pairing
from rules.event.models import Entrant, Game, Pairing, Scoring, played_pairs
from rules.event.pairing import pair_round
from rules.event.standings import standings


def history(players: int, rounds: int, seed: int = 7) -> tuple[list[Entrant], list[Game]]:
    """An event of `players` after `rounds` rounds paired by `pair_round`, results at random."""
    rng = random.Random(seed)
    entrants = [Entrant(player=1000 + p, rating=rng.gauss(1000, 120)) for p in range(players)]
    games: list[Game] = []
    for number in range(1, rounds + 1):
        made = pair_round(
            entrants,
            games,
            number,
            scoring=Scoring(),
            seeding="random",
            tables=None,
            rng=random.Random(number),
        )
        for p in made:
            if p.second is None:
                games.append(Game(round=number, table=0, first=p.first))
                continue
            a, b = rng.randint(0, 20), rng.randint(0, 20)
            games.append(
                Game(round=number, table=p.table, first=p.first, second=p.second, first_vp=a, second_vp=b)
            )
        if number == 2:  # a few players drop after round 2
            for index in rng.sample(range(players), 3):
                entrants[index] = entrants[index].model_copy(update={"dropped": True})
    return entrants, games


def timed(entrants: list[Entrant], games: list[Game], number: int, seed: int) -> tuple[float, list[Pairing]]:
    start = time.perf_counter()
    made = pair_round(
        entrants, games, number, scoring=Scoring(), seeding="random", tables=None, rng=random.Random(seed)
    )
    return time.perf_counter() - start, made


def describe(entrants: list[Entrant], games: list[Game], made: list[Pairing]) -> str:
    met = played_pairs(games)
    points = {s.player: s.points for s in standings(entrants, games, Scoring())}
    rematches = sum(1 for p in made if p.second is not None and frozenset(p.players) in met)
    floats = [abs(points[p.first] - points[p.second]) for p in made if p.second is not None]
    moved = sum(1 for f in floats if f)
    squared = sum(f * f for f in floats)
    return f"{len(made)} pairings, {rematches} rematches, {moved} across score groups, squared gaps {squared}"


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    players = int(args[0]) if args else 256
    rounds = int(args[1]) if len(args) > 1 else 4
    runs = int(args[2]) if len(args) > 2 else 5
    full = "--full" in sys.argv
    entrants, games = history(players, rounds)
    block_times: list[float] = []
    full_times: list[float] = []
    made: list[Pairing] = []
    full_made: list[Pairing] = []
    for run in range(runs):
        took, made = timed(entrants, games, rounds + 1, run)
        block_times.append(took)
        if full:
            limit = pairing.FULL_GRAPH_MAX
            pairing.FULL_GRAPH_MAX = 10**6
            try:
                took, full_made = timed(entrants, games, rounds + 1, run)
            finally:
                pairing.FULL_GRAPH_MAX = limit
            full_times.append(took)
    median = statistics.median(block_times) * 1000
    print(
        f"pair_round, {players} players after {rounds} rounds: median {median:.0f} ms of {runs}",
        "(target < 500 ms)",
    )
    print(f"  {describe(entrants, games, made)}")
    if full:
        print(f"full graph: median {statistics.median(full_times) * 1000:.0f} ms of {runs}")
        print(f"  {describe(entrants, games, full_made)}")


if __name__ == "__main__":
    main()
