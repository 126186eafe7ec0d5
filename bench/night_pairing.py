"""Pairing a big game night: 200 sign-ups across 4 systems, with a club's history (games between
players and how long ago), ratings, teachers and learners, arranged games and 40 tables. Prints the
time of `pair_players` (the target is under 1 s) and what it made; asserts nothing.

Run: .venv/bin/python bench/night_pairing.py [sign-ups] [tables] [runs]
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.night import PairingContext, PairingResult, Signup, Table, pair_key, pair_players, rating_key

SYSTEMS = ["killteam", "warcry", "warmaster", "fortyk"]
SHARE = [0.35, 0.3, 0.15, 0.2]  # how the club's players spread over the systems (first choices)


def club_night(count: int, tables: int, seed: int = 7) -> tuple[list[Signup], list[Table], PairingContext]:
    """Sign-ups, tables and history like a busy club's: most list one or two systems, a few more."""
    rng = random.Random(seed)
    players = [100_000 + p for p in range(count)]
    signups = []
    for seq, player in enumerate(players, start=1):
        choice = rng.choices(SYSTEMS, SHARE)[0]
        others = [s for s in SYSTEMS if s != choice]
        rng.shuffle(others)
        listed = [choice, *others[: rng.choice([0, 0, 1, 1, 2, 3])]]
        signups.append(
            Signup(
                player=player,
                systems=listed,
                points=rng.choice([None, 500, 1000, 2000]),
                can_teach=rng.random() < 0.1,
                wants_to_learn=rng.random() < 0.08,
                seq=seq,
            )
        )
    for index in range(0, count // 10 * 2, 2):  # a tenth of the players arranged a game in pairs
        first, second = signups[index], signups[index + 1]
        signups[index] = first.model_copy(update={"arranged_with": second.player})
        signups[index + 1] = second.model_copy(
            update={"arranged_with": first.player, "systems": first.systems}
        )
    games: dict[str, int] = {}
    days: dict[str, int] = {}
    for _ in range(count * 15):  # a club's year of games
        a, b = rng.sample(players, 2)
        key = pair_key(a, b)
        games[key] = games.get(key, 0) + 1
        days[key] = min(days.get(key, 400), rng.randint(1, 365))
    ratings = {
        rating_key(p, system): rng.gauss(1000, 120)
        for p in players
        for system in SYSTEMS
        if rng.random() < 0.7
    }
    byes = {p: rng.choice([0, 0, 0, 1, 1, 2]) for p in players}
    context = PairingContext(games_between=games, days_since=days, ratings=ratings, byes=byes)
    kits = ["ruins", "forest", "city", "desert", "none"]
    tables_list = [
        Table(
            table_id=f"t{i + 1}",
            name=f"Table {i + 1}",
            systems=rng.sample(SYSTEMS, rng.choice([1, 1, 2, 3])),
            terrain=rng.choice(kits),
        )
        for i in range(tables)
    ]
    return signups, tables_list, context


def describe(result: PairingResult) -> str:
    per_system = Counter(p.system for p in result.pairings)
    reasons = Counter(r.code for p in result.pairings for r in p.reasons)
    reasons.update(s.reason.code for s in result.sat_out)
    on_tables = sum(1 for p in result.pairings if p.table_id is not None)
    return (
        f"{len(result.pairings)} pairings ({', '.join(f'{s} {n}' for s, n in sorted(per_system.items()))}), "
        f"{on_tables} on tables, {len(result.sat_out)} sat out\n"
        f"reasons: {', '.join(f'{code} {n}' for code, n in reasons.most_common())}"
    )


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    tables = int(sys.argv[2]) if len(sys.argv) > 2 else 40
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    signups, tables_list, context = club_night(count, tables)
    history = len(context.games_between)
    print(f"{count} sign-ups, {len(SYSTEMS)} systems, {tables} tables, {history} pairs with history")
    times = []
    result = None
    for run in range(runs):
        began = time.perf_counter()
        result = pair_players(signups, tables_list, context, seed=run)
        times.append(time.perf_counter() - began)
    assert result is not None
    again = pair_players(signups, tables_list, context, seed=runs - 1)
    print(describe(result))
    print(f"same inputs and seed, same pairings: {again == result}")
    print(
        f"pair_players: best {min(times) * 1000:.0f} ms, median {statistics.median(times) * 1000:.0f} ms, "
        f"worst {max(times) * 1000:.0f} ms over {runs} runs (target < 1000 ms)"
    )


if __name__ == "__main__":
    main()
