"""Victory conditions at the end of a mission: who achieved what, and the points each side gets.

A condition tied, or achieved by nobody, is split with each side getting half rounded up; per-unit
conditions (the quaternary) are never split.
"""

from __future__ import annotations

from rules.fortyk.mission import Condition, ConditionKind
from rules.fortyk.models import Award, ConditionResult, EndReport, FortyKState
from rules.fortyk.units import holder_of_relic
from rules.session import GameOutcome, SideResult


def split_share(points: int) -> int:
    """Each side's share of a split condition: half, rounded up (15 -> 8, 10 -> 5, 5 -> 3)."""
    return (points + 1) // 2


def kill_points(state: FortyKState, player: int) -> int:
    return sum(k.kill_points for k in state.kills if k.by == player)


def _compare(condition: Condition, players: list[int], values: list[int]) -> ConditionResult:
    """Higher value takes the condition; equal values split it (or give nothing if it is not split)."""
    a, b = players
    if values[0] != values[1]:
        winner = a if values[0] > values[1] else b
        return ConditionResult(
            key=condition.key,
            tier=condition.tier,
            name=condition.name,
            points=condition.points,
            outcome="won",
            counts=values,
            winner=winner,
            awards=[Award(player=p, points=condition.points if p == winner else 0) for p in players],
        )
    return _tied(condition, players, values, [])


def _tied(
    condition: Condition, players: list[int], values: list[int], units: list[list[str]]
) -> ConditionResult:
    share = split_share(condition.points) if condition.split_ties else 0
    return ConditionResult(
        key=condition.key,
        tier=condition.tier,
        name=condition.name,
        points=condition.points,
        outcome="split" if condition.split_ties else "none",
        counts=values,
        units=units,
        awards=[Award(player=p, points=share) for p in players],
    )


def _report(reports: list[EndReport], player: int) -> EndReport:
    return next(r for r in reports if r.player == player)


def score_condition(state: FortyKState, condition: Condition) -> ConditionResult:
    players = state.players
    if condition.kind is ConditionKind.MOST_KILL_POINTS:
        return _compare(condition, players, [kill_points(state, p) for p in players])
    if condition.kind is ConditionKind.MORE_QUARTERS:
        return _compare(condition, players, [_report(state.reports, p).quarters for p in players])
    if condition.kind is ConditionKind.HOLDS_ENEMY_RELIC:
        holders = [holder_of_relic(state, state.opponent(p)) for p in players]
        holding = [1 if h is not None else 0 for h in holders]
        units = [[h.unit] if h is not None else [] for h in holders]
        if holding[0] != holding[1]:
            winner = players[0] if holding[0] else players[1]
            return ConditionResult(
                key=condition.key,
                tier=condition.tier,
                name=condition.name,
                points=condition.points,
                outcome="won",
                counts=holding,
                units=units,
                winner=winner,
                awards=[Award(player=p, points=condition.points if p == winner else 0) for p in players],
            )
        return _tied(condition, players, holding, units)
    # per_marked_survivor: each side scores for its own marked units still alive, never split
    alive = [_report(state.reports, p).marked_alive for p in players]
    return ConditionResult(
        key=condition.key,
        tier=condition.tier,
        name=condition.name,
        points=condition.points,
        outcome="per_unit",
        counts=[len(units) for units in alive],
        units=[list(units) for units in alive],
        awards=[
            Award(player=p, points=condition.points * len(units))
            for p, units in zip(players, alive, strict=True)
        ],
    )


def score(state: FortyKState) -> tuple[list[ConditionResult], list[Award], int | None]:
    """Every condition's result, each side's total, and the winner (None for a draw)."""
    results = [score_condition(state, c) for c in state.mission.conditions]
    totals = [Award(player=p, points=sum(r.points_for(p) for r in results)) for p in state.players]
    if totals[0].points == totals[1].points:
        return results, totals, None
    winner = max(totals, key=lambda t: t.points).player
    return results, totals, winner


def summary(state: FortyKState, results: list[ConditionResult]) -> str:
    """A plain record of the result for the score store: each condition's points in player order (the
    store names the players); the channel gets the full account from the bot."""
    lines = [f"{state.mission.title}, ended after battle round {state.ended_after_round}."]
    for result in results:
        points = "–".join(str(result.points_for(p)) for p in state.players)
        lines.append(f"{result.tier} — {result.name}: {points}")
    return "\n".join(lines)


def outcome(state: FortyKState) -> tuple[list[ConditionResult], list[Award], int | None, GameOutcome]:
    results, totals, winner = score(state)
    game_outcome = GameOutcome(
        sides=[SideResult(player=t.player, score=t.points) for t in totals],
        winner=winner,
        mission=state.mission.name,
        summary=summary(state, results),
    )
    return results, totals, winner, game_outcome
