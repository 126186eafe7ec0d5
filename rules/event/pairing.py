"""Who plays whom in a round of a Swiss event, and at which table.

Round 1 is random (the seed's shuffle; the odd player out has the bye) or seeded by rating: best
first (unrated last), the lowest-rated has the bye, and the top half meets the bottom half in order
(1 v n/2+1, 2 v n/2+2, ...), so the strongest do not meet before the later rounds.

Later rounds are one minimum-cost perfect matching over every pair of players still in (networkx's
blossom algorithm, as the nights pair), with a dummy "bye" node when the count is odd. A pairing's
cost is compared level by level, each level outweighing everything below it:
1. repeat byes: a player who already had more byes than the fewest anyone still in had (so at most
   one bye each until every player has had one);
2. rematches: each earlier meeting of the two;
3. the bye's rank: the bye goes to the lowest-ranked player who can take it;
4. score difference, squared (pair-downs: one player floated across two score groups costs more
   than two players floated across one);
5. a small jitter from the seed, so players level on all of the above meet in a random order.
Hence no rematch while a pairing without one exists, and the fewest floats otherwise.

A field of more than `FULL_GRAPH_MAX` players is matched in blocks of the standings (see
`_match_in_blocks`): the same levels, exact within each block, in a tenth of the time.

Tables: the top table to the top scores, a player not at the table they had last round where
possible (a minimum-cost assignment of pairings to tables, networkx again; a big round's pairings
in chunks of `FULL_TABLES_MAX`, each over its own tables).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import networkx as nx

from rules.errors import RuleError
from rules.event.models import Entrant, Game, Pairing, Scoring, Seeding, played_pairs
from rules.event.standings import standings

BYE = -1  # the dummy node of an odd field: whoever is matched with it has the bye
JITTER = 16
FULL_GRAPH_MAX = 64  # players matched on one complete graph (exact); a bigger field in blocks
BLOCK = 32
FULL_TABLES_MAX = 16  # pairings given tables in one assignment (a big round: in chunks of this many)


def pair_round(
    entrants: Sequence[Entrant],
    games: Sequence[Game],
    round_number: int,
    *,
    scoring: Scoring,
    seeding: Seeding,
    tables: int | None,
    rng: random.Random,
) -> list[Pairing]:
    """The pairings of round `round_number` for the entrants not dropped, games in table order
    and the bye (table 0) last. `tables`: how many the venue has (None: as many as needed);
    `event.too_few_players` under two players, `event.too_few_tables` if they don't fit."""
    active = [e for e in entrants if not e.dropped]
    if len(active) < 2:
        raise RuleError(code="event.too_few_players", players=len(active))
    needed = len(active) // 2
    if tables is not None and tables < needed:
        raise RuleError(code="event.too_few_tables", tables=tables, needed=needed)
    rows = standings(entrants, games, scoring)
    ranked = [s.player for s in rows if not s.dropped]
    points = {s.player: s.points for s in rows}
    if round_number <= 1:
        pairs, bye = first_round(active, seeding, rng)
    else:
        pairs, bye = swiss_pairs(ranked, games, points, rng)
    last = {
        p: g.table for g in games if g.round == round_number - 1 and g.second is not None for p in g.players
    }
    placed = assign_tables(pairs, points, ranked, last, tables if tables is not None else needed)
    if bye is not None:
        placed.append(Pairing(table=0, first=bye, second=None))
    return placed


def first_round(
    active: Sequence[Entrant], seeding: Seeding, rng: random.Random
) -> tuple[list[tuple[int, int]], int | None]:
    """Round 1: shuffled pairs, or by rating the top half against the bottom half (see the module)."""
    if seeding == "rating":
        order = [
            e.player for e in sorted(active, key=lambda e: (e.rating is None, -(e.rating or 0.0), e.player))
        ]
    else:
        order = sorted(e.player for e in active)
        rng.shuffle(order)
    bye = order.pop() if len(order) % 2 else None
    if seeding == "rating":
        half = len(order) // 2
        return [(order[i], order[i + half]) for i in range(half)], bye
    return [(order[i], order[i + 1]) for i in range(0, len(order), 2)], bye


class Costs:
    """The levels of a pairing's cost (see the module) for one round, and their weighting."""

    def __init__(
        self, ranked: Sequence[int], games: Sequence[Game], points: dict[int, int], rng: random.Random
    ) -> None:
        self.ranked = list(ranked)
        self.position = {p: i for i, p in enumerate(ranked)}
        self.points = points
        self.met = played_pairs(list(games))
        byes: dict[int, int] = dict.fromkeys(ranked, 0)
        for game in games:
            if game.second is None and game.first in byes:
                byes[game.first] += 1
        fewest = min(byes.values()) if byes else 0
        self.extra_byes = {p: byes[p] - fewest for p in ranked}
        self.rng = rng
        nodes = len(ranked) + len(ranked) % 2
        matched = nodes // 2 + 1  # edges in a matching, and one spare: a level's bound
        spread = max(points.values(), default=0) - min(points.values(), default=0)
        score_max = spread * spread
        rank_max = len(ranked)
        rematch_max = max(self.met.values(), default=0)
        self.score_scale = matched * JITTER + 1
        self.rank_scale = self.score_scale * (matched * score_max + 1)
        self.rematch_scale = self.rank_scale * (rank_max + 1)
        self.bye_scale = self.rematch_scale * (matched * rematch_max + 1)
        self.top = self.bye_scale * (matched * (max(self.extra_byes.values(), default=0) + 1) + 1)

    def pair(self, a: int, b: int) -> int:
        rematches = self.met.get(frozenset((a, b)), 0)
        gap = self.points[a] - self.points[b]
        return self.rematch_scale * rematches + self.score_scale * gap * gap + self.rng.randrange(JITTER)

    def bye(self, player: int) -> int:
        from_bottom = len(self.ranked) - 1 - self.position[player]
        return self.bye_scale * self.extra_byes[player] + self.rank_scale * from_bottom

    def weight(self, a: int, b: int) -> int:
        """The matching's weight of an edge: higher is better, always positive."""
        if a == BYE:
            return self.top - self.bye(b)
        if b == BYE:
            return self.top - self.bye(a)
        return self.top - self.pair(a, b)


def swiss_pairs(
    ranked: Sequence[int], games: Sequence[Game], points: dict[int, int], rng: random.Random
) -> tuple[list[tuple[int, int]], int | None]:
    """A later round: the minimum-cost perfect matching (see the module), pairs better-ranked first.
    `ranked`: the players still in, best first; `points`: their tournament points."""
    costs = Costs(ranked, games, points, rng)
    if len(ranked) + len(ranked) % 2 <= FULL_GRAPH_MAX:
        nodes = [*ranked, BYE] if len(ranked) % 2 else list(ranked)
        matched = _match(nodes, costs)
    else:
        matched = _match_in_blocks(ranked, costs)
    position = costs.position
    pairs: list[tuple[int, int]] = []
    bye: int | None = None
    for a, b in matched:
        if BYE in (a, b):
            bye = a if b == BYE else b
        else:
            pairs.append((a, b) if position[a] < position[b] else (b, a))
    pairs.sort(key=lambda pair: position[pair[0]])
    return pairs, bye


def _match(nodes: Sequence[int], costs: Costs) -> list[tuple[int, int]]:
    """The maximum-weight perfect matching of the complete graph on `nodes`."""
    graph: nx.Graph[int] = nx.Graph()
    for i, a in enumerate(nodes):
        for b in nodes[i + 1 :]:
            graph.add_edge(a, b, weight=costs.weight(a, b))
    return [(int(a), int(b)) for a, b in nx.max_weight_matching(graph, maxcardinality=True)]


def _match_in_blocks(ranked: Sequence[int], costs: Costs) -> list[tuple[int, int]]:
    """A big field: the bye first (the lowest-ranked of those with the fewest byes), then blocks of
    `BLOCK` players in standings order, each matched exactly. Pairing sorted neighbours is what
    minimises squared score gaps when nothing else binds, and even blocks cut in standings order
    keep that; a block whose best matching still holds a rematch is merged with the next and
    matched again, so rematches are avoided as on the full graph (the blossom algorithm's time
    grows with the cube of the players: 256 on one graph take seconds)."""
    players = list(ranked)
    matched: list[tuple[int, int]] = []
    if len(players) % 2:
        bye = min(players, key=lambda p: (costs.bye(p), p))
        players.remove(bye)
        matched.append((bye, BYE))
    start = 0
    size = BLOCK
    while start < len(players):
        end = start + size
        if len(players) - end < BLOCK // 2:  # a short tail joins this block
            end = len(players)
        block = _match(players[start:end], costs)
        if end < len(players) and any(frozenset(pair) in costs.met for pair in block):
            size += BLOCK
            continue
        matched.extend(block)
        start, size = end, BLOCK
    return matched


def assign_tables(
    pairs: Sequence[tuple[int, int]],
    points: dict[int, int],
    ranked: Sequence[int],
    last: dict[int, int],
    tables: int,
) -> list[Pairing]:
    """Tables 1..`tables` for `pairs`: in order of the pair's best score (then their sum, then the
    better rank) the top table first, moved off a table either player had last round where a
    minimum-cost assignment can (a clash outweighs every move; a move costs its distance)."""
    position = {p: i for i, p in enumerate(ranked)}
    order = sorted(
        pairs,
        key=lambda pair: (
            -max(points.get(p, 0) for p in pair),
            -sum(points.get(p, 0) for p in pair),
            min(position.get(p, len(position)) for p in pair),
        ),
    )
    placed: list[Pairing] = []
    for start in range(0, len(order), FULL_TABLES_MAX):
        chunk = order[start : start + FULL_TABLES_MAX]
        last_table = tables if start + FULL_TABLES_MAX >= len(order) else start + len(chunk)
        placed.extend(_tables_for(chunk, start, last_table, last))
    return sorted(placed, key=lambda p: p.table)


def _tables_for(
    chunk: Sequence[tuple[int, int]], start: int, last_table: int, last: dict[int, int]
) -> list[Pairing]:
    """Tables start+1..`last_table` for `chunk` (the pairs meant for tables start+1, start+2, ...):
    a minimum-cost assignment where a clash outweighs every move and a move costs its distance."""
    clash = 2 * (last_table - start) + 1
    top = 3 * clash + last_table + 1
    graph: nx.Graph[tuple[int, int]] = nx.Graph()
    for index, pair in enumerate(chunk, start=start + 1):
        for table in range(start + 1, last_table + 1):
            clashes = sum(1 for p in pair if last.get(p) == table)
            graph.add_edge((0, index), (1, table), weight=top - clash * clashes - abs(table - index))
    chosen: dict[int, int] = {}
    for a, b in nx.max_weight_matching(graph, maxcardinality=True):
        pair_node, table_node = (a, b) if a[0] == 0 else (b, a)
        chosen[pair_node[1]] = table_node[1]
    return [
        Pairing(table=chosen[index], first=pair[0], second=pair[1])
        for index, pair in enumerate(chunk, start=start + 1)
    ]
