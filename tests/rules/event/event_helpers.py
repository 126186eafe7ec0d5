"""Shared makers for the event rules' tests: histories of games, and a brute-force Swiss pairing
that scores every perfect matching by the pairing rules' levels, written apart from
rules/event/pairing.py so the two are compared, not copied."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

from hypothesis import strategies as st

from rules.event.models import Entrant, Game, Pairing, Scoring, played_pairs
from rules.event.standings import standings

ByeTaker = int | None


def matchings(players: Sequence[int | None]) -> Iterator[list[tuple[int | None, int | None]]]:
    """Every perfect matching of an even list (None stands for the bye)."""
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for index, other in enumerate(rest):
        for tail in matchings([*rest[:index], *rest[index + 1 :]]):
            yield [(first, other), *tail]


def levels(
    pairs: Sequence[tuple[int, int]], bye: ByeTaker, entrants: Sequence[Entrant], games: Sequence[Game]
) -> tuple[int, int, int, int]:
    """(byes beyond the fewest, rematches, the bye's places above the bottom, squared score gaps)."""
    rows = standings(entrants, games, Scoring())
    active = [r.player for r in rows if not r.dropped]
    points = {r.player: r.points for r in rows}
    met = played_pairs(list(games))
    byes = {p: sum(1 for g in games if g.second is None and g.first == p) for p in active}
    fewest = min(byes.values())
    extra = byes[bye] - fewest if bye is not None else 0
    from_bottom = len(active) - 1 - active.index(bye) if bye is not None else 0
    rematches = sum(met.get(frozenset(pair), 0) for pair in pairs)
    gaps = sum((points[a] - points[b]) ** 2 for a, b in pairs)
    return extra, rematches, from_bottom, gaps


def split(made: Sequence[Pairing]) -> tuple[list[tuple[int, int]], ByeTaker]:
    pairs = [(p.first, p.second) for p in made if p.second is not None]
    bye = next((p.first for p in made if p.second is None), None)
    return pairs, bye


def best_levels(entrants: Sequence[Entrant], games: Sequence[Game]) -> tuple[int, int, int, int]:
    """The least levels over every pairing of the players still in (brute force)."""
    active: list[int | None] = [e.player for e in entrants if not e.dropped]
    if len(active) % 2:
        active.append(None)
    best: tuple[int, int, int, int] | None = None
    for matching in matchings(active):
        bye = next((a if b is None else b for a, b in matching if None in (a, b)), None)
        pairs = [(a, b) for a, b in matching if a is not None and b is not None]
        found = levels(pairs, bye, entrants, games)
        best = found if best is None or found < best else best
    assert best is not None
    return best


@st.composite
def histories(
    draw: st.DrawFn, min_players: int = 2, max_players: int = 10
) -> tuple[list[Entrant], list[Game]]:
    """Entrants (some dropped) and earlier rounds: each round a random matching of a random subset
    (so rematches, repeat byes and lopsided score groups all happen), results at random."""
    count = draw(st.integers(min_players, max_players))
    players = [100 + p for p in range(count)]
    rounds = draw(st.integers(1, 4))
    rng = random.Random(draw(st.integers(0, 2**32)))
    games: list[Game] = []
    for number in range(1, rounds + 1):
        playing = [p for p in players if rng.random() < 0.9]
        rng.shuffle(playing)
        for table, index in enumerate(range(0, len(playing) - 1, 2), start=1):
            a, b = playing[index], playing[index + 1]
            first_vp, second_vp = rng.choice([(10, 5), (5, 10), (7, 7), (12, 0), (3, 9)])
            games.append(
                Game(round=number, table=table, first=a, second=b, first_vp=first_vp, second_vp=second_vp)
            )
        if len(playing) % 2:
            games.append(Game(round=number, table=0, first=playing[-1]))
    dropped = set(draw(st.lists(st.sampled_from(players), max_size=max(0, count - 2), unique=True)))
    entrants = [
        Entrant(player=p, rating=float(rng.randint(800, 1200)), dropped=p in dropped) for p in players
    ]
    return entrants, games
