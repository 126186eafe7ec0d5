"""Read-only views for the bot: the scoreboard and the unit names to autocomplete. Nothing here
changes a state, and nothing here is worded for a channel: players are ids and the dice are records,
which the bot turns into words."""

from __future__ import annotations

from typing import Literal

from rules.fortyk.models import (
    ConditionResult,
    ContinueRollRecord,
    FortyKState,
    Kill,
    Phase,
    RollOffRecord,
    SeizeRecord,
)
from rules.fortyk.scoring import kill_points
from rules.fortyk.units import alive_units, holder_of_relic, markable_units, marked_survivors
from rules.session import Model

__all__ = ["Purpose", "Scoreboard", "SideBoard", "scoreboard", "unit_suggestions"]


Purpose = Literal["mark", "destroyed", "relic", "report"]


def unit_suggestions(
    state: FortyKState, actor: int, purpose: Purpose, typed: str = "", limit: int = 25
) -> list[str]:
    """Names for autocomplete: enemy units to mark or kill, own units to take the relic or report alive."""
    enemy = state.opponent(actor) if actor in state.players else state.players[0]
    if purpose == "mark":
        names = markable_units(state, actor)
    elif purpose == "destroyed":
        names = alive_units(state, enemy)
    elif purpose == "relic":
        names = alive_units(state, actor)
    else:
        names = marked_survivors(state, actor)
    needle = typed.strip().casefold()
    return [n for n in names if needle in n.casefold()][:limit]


class SideBoard(Model):
    player: int
    zone: str | None
    kill_points: int
    kills: list[Kill]
    marks_made: list[str]  # enemy units this player has marked
    marked_alive: list[str]  # this player's units the enemy marked that are still alive
    carries_enemy_relic: str | None  # the unit carrying the enemy relic
    quarters: int | None
    total: int | None


class Scoreboard(Model):
    mission: str
    deployment_map: str
    phase: Phase
    round: int
    max_rounds: int
    active: int | None
    first_player: int | None
    sides: list[SideBoard]
    results: list[ConditionResult]
    winner: int | None
    # the set-up and battle-length dice so far
    deployment_roll: RollOffRecord | None
    first_turn_roll: RollOffRecord | None
    seize: SeizeRecord | None
    continue_rolls: list[ContinueRollRecord]


def _zone_of(state: FortyKState, player: int) -> str | None:
    if state.zone is None:
        return None
    return state.zone.zone if state.zone.chooser == player else state.zone.opponent_zone


def scoreboard(state: FortyKState) -> Scoreboard:
    reports = {r.player: r for r in state.reports}
    totals = {p: sum(r.points_for(p) for r in state.results) for p in state.players} if state.results else {}
    sides = []
    for player in state.players:
        carried = holder_of_relic(state, state.opponent(player))
        report = reports.get(player)
        sides.append(
            SideBoard(
                player=player,
                zone=_zone_of(state, player),
                kill_points=kill_points(state, player),
                kills=[k for k in state.kills if k.by == player],
                marks_made=[m.unit for m in state.marks if m.by == player],
                marked_alive=report.marked_alive if report else marked_survivors(state, player),
                carries_enemy_relic=carried.unit if carried else None,
                quarters=report.quarters if report else None,
                total=totals.get(player),
            )
        )
    return Scoreboard(
        mission=state.mission.title,
        deployment_map=state.mission.deployment.map,
        phase=state.phase,
        round=state.round,
        max_rounds=state.mission.battle_length.max_rounds,
        active=state.active_player,
        first_player=state.first_player,
        sides=sides,
        results=state.results,
        winner=state.outcome.winner if state.outcome else None,
        deployment_roll=state.deployment_roll,
        first_turn_roll=state.first_turn_roll,
        seize=state.seize,
        continue_rolls=state.continue_rolls,
    )
