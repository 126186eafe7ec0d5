"""Steps 10-11: the four turning points, victory points within their caps, and the result."""

from __future__ import annotations

from rules.dice import Roller
from rules.errors import RuleError
from rules.killteam.actions import EndGame, EndTurningPoint, Score, SetBattleReady
from rules.killteam.events import GameEnded, TurningPointEnded, TurningPointStarted, VictoryPointsScored
from rules.killteam.state import (
    BATTLE_READY_VP,
    MISSION_VP_PER_TP,
    MISSION_VP_TOTAL,
    TAC_OP_VP_EACH,
    TAC_OP_VP_TOTAL,
    TURNING_POINTS,
    VP_TOTAL,
    KillTeamState,
    PlayerScore,
)
from rules.killteam.views import map_label, mission_name
from rules.session import Event, GameOutcome, SideResult

Step = tuple[KillTeamState, list[Event]]


def enter(state: KillTeamState, roller: Roller) -> Step:
    scores = {p: state.scores.get(p, PlayerScore()) for p in state.players}
    state = state.model_copy(
        update={
            "stage": "battle",
            "turning_point": 1,
            "queue": list(state.players),
            "ordered": False,
            "decider": None,
            "scores": scores,
        }
    )
    return state, [TurningPointStarted(turning_point=1)]


def _require_battle(state: KillTeamState, actor: int) -> PlayerScore:
    if state.stage != "battle":
        raise RuleError("Victory points are recorded once the battle has begun.")
    if actor not in state.queue:
        raise RuleError(
            f"You have ended turning point {state.turning_point}; record further VP in the next one."
        )
    return state.scores[actor]


def score(state: KillTeamState, action: Score) -> Step:
    current = _require_battle(state, action.actor)
    tp = state.turning_point
    if action.turning_point is not None and action.turning_point != tp:
        raise RuleError(
            f"That score is for turning point {action.turning_point}, but this is turning point {tp}."
        )
    if action.tac_op_vp and action.tac_op is None:
        raise RuleError("Say which Tac Op scored those VP.")
    if not action.mission_vp and not action.tac_op_vp:
        raise RuleError("Give the victory points to record (mission VP, Tac Op VP or both).")
    events: list[Event] = []
    mission = list(current.mission)
    if action.mission_vp:
        this_tp = mission[tp - 1] + action.mission_vp
        if this_tp < 0:
            raise RuleError(f"That would take your mission VP for turning point {tp} below 0.")
        if this_tp > MISSION_VP_PER_TP:
            raise RuleError(
                f"That would make {this_tp} mission VP in turning point {tp}; the cap is "
                f"{MISSION_VP_PER_TP} mission VP per turning point."
            )
        mission[tp - 1] = this_tp
        if sum(mission) > MISSION_VP_TOTAL:
            raise RuleError(
                f"That would make {sum(mission)} mission VP; the cap is {MISSION_VP_TOTAL} mission VP "
                "in a battle."
            )
    tac_ops = dict(current.tac_ops)
    card_name = ""
    if action.tac_op_vp:
        assert action.tac_op is not None
        card = state.pack.find_tac_op(action.tac_op, state.tac.held.get(action.actor, []))
        if card is None:
            raise RuleError("You don't hold a Tac Op by that name.")
        if state.tac.secret and card.id not in state.tac.revealed.get(action.actor, []):
            raise RuleError(f"Reveal {card.name} before you score it.")
        card_name = card.name
        this_op = tac_ops.get(card.id, 0) + action.tac_op_vp
        if this_op < 0:
            raise RuleError(f"That would take your VP from {card.name} below 0.")
        if this_op > TAC_OP_VP_EACH:
            raise RuleError(
                f"That would make {this_op} VP from {card.name}; the cap is {TAC_OP_VP_EACH} VP "
                "from each Tac Op."
            )
        tac_ops[card.id] = this_op
        if sum(tac_ops.values()) > TAC_OP_VP_TOTAL:
            raise RuleError(
                f"That would make {sum(tac_ops.values())} VP from Tac Ops; the cap is "
                f"{TAC_OP_VP_TOTAL} VP from Tac Ops."
            )
    updated = current.model_copy(update={"mission": mission, "tac_ops": tac_ops})
    if updated.total > VP_TOTAL:
        raise RuleError(f"That would make {updated.total} VP; the cap is {VP_TOTAL} VP in all.")
    if action.mission_vp:
        events.append(
            VictoryPointsScored(
                player=action.actor,
                turning_point=tp,
                what="mission",
                amount=action.mission_vp,
                total=updated.total,
            )
        )
    if action.tac_op_vp:
        events.append(
            VictoryPointsScored(
                player=action.actor,
                turning_point=tp,
                what=card_name,
                amount=action.tac_op_vp,
                total=updated.total,
            )
        )
    return state.model_copy(update={"scores": {**state.scores, action.actor: updated}}), events


def battle_ready(state: KillTeamState, action: SetBattleReady) -> Step:
    current = _require_battle(state, action.actor)
    if current.battle_ready == action.painted:
        already = "already counts" if action.painted else "is not counted"
        raise RuleError(f"Your Battle Ready painted roster {already}.")
    updated = current.model_copy(update={"battle_ready": action.painted})
    if updated.total > VP_TOTAL:
        raise RuleError(f"That would make {updated.total} VP; the cap is {VP_TOTAL} VP in all.")
    event = VictoryPointsScored(
        player=action.actor,
        turning_point=state.turning_point,
        what="Battle Ready painted roster",
        amount=BATTLE_READY_VP if action.painted else -BATTLE_READY_VP,
        total=updated.total,
    )
    return state.model_copy(update={"scores": {**state.scores, action.actor: updated}}), [event]


def end_turning_point(state: KillTeamState, action: EndTurningPoint) -> Step:
    if state.stage != "battle":
        raise RuleError("The battle hasn't begun yet.")
    tp = state.turning_point
    if action.turning_point != tp:
        raise RuleError(
            f"Turning point {action.turning_point} is not the current one (this is turning point {tp})."
        )
    if action.actor not in state.queue:
        raise RuleError(f"You have already ended turning point {tp}; waiting for your opponent.")
    queue = [p for p in state.queue if p != action.actor]
    events: list[Event] = [TurningPointEnded(player=action.actor, turning_point=tp, complete=not queue)]
    if queue:
        return state.model_copy(update={"queue": queue}), events
    if tp == TURNING_POINTS:
        state, ended = finish(state)
        return state, events + ended
    state = state.model_copy(update={"turning_point": tp + 1, "queue": list(state.players)})
    return state, [*events, TurningPointStarted(turning_point=tp + 1)]


def end_game(state: KillTeamState, action: EndGame) -> Step:
    return finish(state, early=True)


def finish(state: KillTeamState, early: bool = False) -> Step:
    """The higher total wins; equal totals are a draw."""
    totals = {p: state.scores[p].total if p in state.scores else 0 for p in state.players}
    first, second = state.players
    winner = None if totals[first] == totals[second] else max(state.players, key=lambda p: totals[p])
    mission, board = mission_name(state), map_label(state)
    where = f"{mission} on {board}" if mission and board else "Kill Team"
    if not state.turning_point:
        when = "ended before the battle began"
    elif early:
        when = f"ended early in turning point {state.turning_point}"
    else:
        when = f"after {state.turning_point} turning points"
    result = ", a draw" if winner is None else ""
    summary = f"{where}, {when}: {totals[first]} VP to {totals[second]} VP{result}."
    outcome = GameOutcome(
        sides=[SideResult(player=p, score=totals[p], faction=state.faction_of(p)) for p in state.players],
        winner=winner,
        mission=mission,
        summary=summary,
    )
    state = state.model_copy(
        update={
            "finished": True,
            "outcome": outcome,
            "macro": "finished",
            "stage": "finished",
            "queue": [],
            "decider": None,
            "ordered": False,
        }
    )
    return state, [GameEnded(outcome=outcome, totals=totals)]
