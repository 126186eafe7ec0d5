"""Who plays whom on a game night: arranged games first, then a minimum-cost matching per system.

1. Arranged games: a player who named an opponent plays them when that opponent signed up, lists a
   system with them, and did not name someone else (the earliest sign-up wins an opponent two named).
2. Everyone else goes to the pool of their first-choice system. A pool with an odd count is evened
   up by moving a player to another system they listed whose pool is odd too (through a chain of
   such moves if need be); a player alone in a system joins another system they listed.
3. In a pool still odd, one player sits out: the one with the fewest nights sat out so far (so the
   nights sat out rotate round the club), the latest sign-up among equals. Sitting out a game night
   is the cost every player should share: the player who has sat out least takes this one.
4. The rest of each pool is a maximum-weight perfect matching (networkx): the cost of a pair grows
   with the games they played together and how recently, and with their rating gap; a teacher with
   a learner is a bonus. A small jitter drawn from the seed breaks ties, so the same inputs and seed
   give the same pairings and another seed may give another of the equally good ones.
5. Tables (rules/night/tables.py).
"""

from __future__ import annotations

import itertools
import random
from collections import deque
from collections.abc import Iterable

import networkx as nx

from rules.errors import RuleError
from rules.night.models import (
    MAX_SYSTEMS_PER_SIGNUP,
    Pairing,
    PairingContext,
    PairingResult,
    Reason,
    SatOut,
    Signup,
    Table,
)
from rules.night.tables import allocate_tables

BASE_WEIGHT = 4000
GAME_COST = 50  # per game the two played together (up to MAX_GAMES)
MAX_GAMES = 20
RECENT_DAYS = 60  # a game within this many days costs a point a day closer
RATING_STEP = 10  # a rating point gap costs a point per this many
MAX_RATING_COST = 80
TEACH_BONUS = 300
JITTER = 4
SPARSE_ABOVE = 60  # players in one system's pool beyond which only the best edges are kept
SPARSE_KEEP = 16

# Sat-out reasons of players free to stand in for a dropped player's opponent.
STAND_IN_CODES = ("night.bye_rotation", "night.no_opponent", "night.opponent_dropped")


def pair_players(
    signups: list[Signup], tables: list[Table], context: PairingContext, seed: int
) -> PairingResult:
    """Every signed-up player paired once, or sat out with a reason; deterministic for a seed."""
    ordered = sorted(signups, key=lambda s: (s.seq, s.player))
    by_player = _index(ordered)
    systems = system_order(ordered)
    pairings: list[Pairing] = []
    sat_out: list[SatOut] = []
    arranged = arrange(ordered)
    for first, second, system in arranged:
        pairings.append(Pairing(system=system, players=[first, second], table_id=None, reasons=[]))
    taken = {p for first, second, _ in arranged for p in (first, second)}
    pools = pools_of([s for s in ordered if s.player not in taken], systems)
    for system in systems:
        pool = pools[system]
        if len(pool) % 2 == 1:
            sitter = sitting_out(pool, context)
            sat_out.append(SatOut(player=sitter.player, reason=sit_out_reason(system, pool, sitter, context)))
            pool = [s for s in pool if s.player != sitter.player]
        for first, second in match(pool, system, context, seed):
            pairings.append(Pairing(system=system, players=[first, second], table_id=None, reasons=[]))
    arranged_pairs = {(first, second) for first, second, _ in arranged}
    explained = []
    for pairing in pairings:
        first, second = pairing.players
        reasons = (
            [Reason(code="night.arranged")]
            if (first, second) in arranged_pairs
            else explain(by_player[first], by_player[second], pairing.system, context)
        )
        explained.append(pairing.model_copy(update={"reasons": reasons}))
    rank = {system: index for index, system in enumerate(systems)}
    explained.sort(key=lambda p: (rank[p.system], by_player[p.players[0]].seq))
    sat_out.sort(key=lambda s: by_player[s.player].seq)
    return PairingResult(pairings=allocate_tables(explained, tables), sat_out=sat_out, seed=seed)


def _index(ordered: list[Signup]) -> dict[int, Signup]:
    by_player: dict[int, Signup] = {}
    for signup in ordered:
        if signup.player in by_player:
            raise RuleError(code="night.signup_twice", player=signup.player)
        if not signup.systems:
            raise RuleError(code="night.signup_systems", limit=MAX_SYSTEMS_PER_SIGNUP)
        by_player[signup.player] = signup
    return by_player


def system_order(ordered: Iterable[Signup]) -> list[str]:
    """Every system listed, in the order sign-ups first named them (pairings are listed so too)."""
    return list(dict.fromkeys(system for signup in ordered for system in signup.systems))


def arrange(ordered: list[Signup]) -> list[tuple[int, int, str]]:
    """Arranged games (players in sign-up order, system) that can be honoured, earliest claim first."""
    by_player = {s.player: s for s in ordered}
    taken: set[int] = set()
    games: list[tuple[int, int, str]] = []
    for claimant in ordered:
        target = by_player.get(claimant.arranged_with) if claimant.arranged_with is not None else None
        if target is None or claimant.player in taken or target.player in taken:
            continue
        if target.arranged_with not in (None, claimant.player):
            continue
        first, second = sorted((claimant, target), key=lambda s: s.seq)
        system = shared_system(first, second)
        if system is None:
            continue
        taken.update((claimant.player, target.player))
        games.append((first.player, second.player, system))
    return games


def shared_system(first: Signup, second: Signup) -> str | None:
    """The system both list that suits them best together (first's preference breaks ties)."""
    common = [s for s in first.systems if s in second.systems]
    if not common:
        return None
    return min(
        common, key=lambda s: (first.systems.index(s) + second.systems.index(s), first.systems.index(s))
    )


def pools_of(free: list[Signup], systems: list[str]) -> dict[str, list[Signup]]:
    """Each system's players: first choices, odd pools evened up by moving players to other choices."""
    pools: dict[str, list[Signup]] = {system: [] for system in systems}
    for signup in free:
        pools[signup.systems[0]].append(signup)
    moved: set[int] = set()
    while True:
        odd = [s for s in systems if len(pools[s]) % 2 == 1]
        path = next((p for p in (_path_to_odd(pools, systems, moved, s) for s in odd) if p), None)
        if path is not None:
            for here, there in itertools.pairwise(path):
                _move(pools, moved, here, there)
            continue
        lone = next((s for s in systems if _lone_move(pools, moved, s)), None)
        if lone is None:
            break
        _move(pools, moved, lone, _lone_move(pools, moved, lone) or lone)
    for system in systems:
        pools[system].sort(key=lambda s: (s.seq, s.player))
    return pools


def _lone_move(pools: dict[str, list[Signup]], moved: set[int], system: str) -> str | None:
    """Where the one player of `system` could play instead: another system they listed with players."""
    if len(pools[system]) != 1 or pools[system][0].player in moved:
        return None
    return next((s for s in pools[system][0].systems[1:] if pools[s]), None)


def _movers(pools: dict[str, list[Signup]], moved: set[int], here: str, there: str) -> list[Signup]:
    return [s for s in pools[here] if s.player not in moved and there in s.systems[1:]]


def _move(pools: dict[str, list[Signup]], moved: set[int], here: str, there: str) -> None:
    """Move the player of `here` who ranks `there` highest (the latest sign-up among equals)."""
    mover = min(_movers(pools, moved, here, there), key=lambda s: (s.systems.index(there), -s.seq))
    pools[here].remove(mover)
    pools[there].append(mover)
    moved.add(mover.player)


def _path_to_odd(
    pools: dict[str, list[Signup]], systems: list[str], moved: set[int], start: str
) -> list[str]:
    """The shortest chain of moves from odd pool `start` to another odd pool ([] if none)."""
    parent: dict[str, str] = {}
    queue = deque([start])
    seen = {start}
    while queue:
        here = queue.popleft()
        for there in systems:
            if there in seen or not _movers(pools, moved, here, there):
                continue
            parent[there] = here
            if len(pools[there]) % 2 == 1:
                path = [there]
                while path[-1] != start:
                    path.append(parent[path[-1]])
                return path[::-1]
            seen.add(there)
            queue.append(there)
    return []


def sitting_out(pool: list[Signup], context: PairingContext) -> Signup:
    """Who sits out an odd pool: the fewest nights sat out so far, then the latest sign-up."""
    return min(pool, key=lambda s: (context.byes_of(s.player), -s.seq, -s.player))


def sit_out_reason(system: str, pool: list[Signup], sitter: Signup, context: PairingContext) -> Reason:
    if len(pool) == 1:
        return Reason(code="night.no_opponent", values={"system": system})
    return Reason(
        code="night.bye_rotation", values={"system": system, "byes": context.byes_of(sitter.player)}
    )


def pair_weight(first: Signup, second: Signup, system: str, context: PairingContext) -> int:
    """How good a game these two make (higher is better), before the seed's jitter."""
    games = context.games(first.player, second.player)
    cost = GAME_COST * min(games, MAX_GAMES)
    days = context.days(first.player, second.player)
    if days is not None and days < RECENT_DAYS:
        cost += RECENT_DAYS - max(days, 0)
    first_rating = context.rating(first.player, system)
    second_rating = context.rating(second.player, system)
    if first_rating is not None and second_rating is not None:
        cost += min(int(abs(first_rating - second_rating)) // RATING_STEP, MAX_RATING_COST)
    if teacher_and_learner(first, second) is not None:
        cost -= TEACH_BONUS
    return BASE_WEIGHT - cost


def teacher_and_learner(first: Signup, second: Signup) -> tuple[int, int] | None:
    if first.can_teach and second.wants_to_learn:
        return first.player, second.player
    if second.can_teach and first.wants_to_learn:
        return second.player, first.player
    return None


def match(pool: list[Signup], system: str, context: PairingContext, seed: int) -> list[tuple[int, int]]:
    """A maximum-weight perfect matching of an even pool, each pair in sign-up order.

    A big pool keeps only each player's best few opponents as edges (the blossom algorithm's time
    grows with the edges); players the sparse matching leaves over are matched among themselves."""
    if len(pool) < 2:
        return []
    if len(pool) == 2:
        return [(pool[0].player, pool[1].player)]
    jitter = random.Random(f"{seed}:{system}")
    weights: dict[tuple[int, int], int] = {}
    for i, first in enumerate(pool):
        for second in pool[i + 1 :]:
            weight = pair_weight(first, second, system, context) + jitter.randint(0, JITTER)
            weights[first.player, second.player] = weight
    edges = _best_edges(pool, weights) if len(pool) > SPARSE_ABOVE else weights
    graph: nx.Graph[int] = nx.Graph()
    graph.add_nodes_from(s.player for s in pool)
    for (a, b), weight in edges.items():
        graph.add_edge(a, b, weight=weight)
    order = {s.player: index for index, s in enumerate(pool)}
    pairs: list[tuple[int, int]] = []
    for a, b in nx.max_weight_matching(graph, maxcardinality=True):
        pairs.append((a, b) if order[a] < order[b] else (b, a))
    paired = {p for pair in pairs for p in pair}
    left = [s for s in pool if s.player not in paired]
    if left:
        pairs.extend(match(left, system, context, seed) if len(left) < len(pool) else _in_order(left))
    return sorted(pairs, key=lambda pair: order[pair[0]])


def _best_edges(pool: list[Signup], weights: dict[tuple[int, int], int]) -> dict[tuple[int, int], int]:
    """Each player's SPARSE_KEEP best opponents (the edge kept if either end wants it)."""
    around: dict[int, list[tuple[int, tuple[int, int]]]] = {s.player: [] for s in pool}
    for key, weight in weights.items():
        around[key[0]].append((weight, key))
        around[key[1]].append((weight, key))
    kept: set[tuple[int, int]] = set()
    for signup in pool:  # a stable sort: among equal weights the earlier sign-up's edge is kept
        best = sorted(around[signup.player], key=lambda item: -item[0])[:SPARSE_KEEP]
        kept.update(key for _, key in best)
    return {key: weights[key] for key in weights if key in kept}


def _in_order(pool: list[Signup]) -> list[tuple[int, int]]:
    return [(pool[i].player, pool[i + 1].player) for i in range(0, len(pool) - 1, 2)]


def explain(first: Signup, second: Signup, system: str, context: PairingContext) -> list[Reason]:
    """Why these two were paired, in values the bot words ("first game between you; ratings 1012 vs 998")."""
    reasons: list[Reason] = []
    teaching = teacher_and_learner(first, second)
    if teaching is not None:
        reasons.append(Reason(code="night.teach", values={"teacher": teaching[0], "learner": teaching[1]}))
    games = context.games(first.player, second.player)
    if games == 0:
        reasons.append(Reason(code="night.first_game"))
    else:
        values: dict[str, int | float | str] = {"times": games}
        days = context.days(first.player, second.player)
        if days is not None:
            values["days_ago"] = days
        reasons.append(Reason(code="night.played_before", values=values))
    first_rating = context.rating(first.player, system)
    second_rating = context.rating(second.player, system)
    if first_rating is not None and second_rating is not None:
        values = {"first": round(first_rating), "second": round(second_rating)}
        reasons.append(Reason(code="night.ratings", values=values))
    for signup in (first, second):
        if signup.systems[0] != system:
            reasons.append(
                Reason(code="night.other_system", values={"player": signup.player, "system": system})
            )
    return reasons
