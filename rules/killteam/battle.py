"""Steps 10-11: the four turning points, victory points within their caps, and the result."""

from __future__ import annotations

from rules.confirmation import ConfirmPending, answer, request
from rules.dice import Roller
from rules.errors import RuleError
from rules.killteam.actions import EndGame, EndTurningPoint, Score, SetBattleReady
from rules.killteam.events import (
    EndAnswered,
    EndAsked,
    GameAbandoned,
    GameEnded,
    TurningPointEnded,
    TurningPointStarted,
    VictoryPointsScored,
)
from rules.killteam.labels import map_label, mission_name
from rules.killteam.models import (
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
        raise RuleError(code="killteam.battle_not_begun")
    if actor not in state.queue:
        raise RuleError(code="killteam.turning_point_ended", turning_point=state.turning_point)
    return state.scores[actor]


def score(state: KillTeamState, action: Score) -> Step:
    current = _require_battle(state, action.actor)
    tp = state.turning_point
    if action.turning_point is not None and action.turning_point != tp:
        raise RuleError(code="killteam.score_turning_point", given=action.turning_point, turning_point=tp)
    if action.tac_op_vp and action.tac_op is None:
        raise RuleError(code="killteam.score_which_tac_op")
    if not action.mission_vp and not action.tac_op_vp:
        raise RuleError(code="killteam.score_nothing")
    events: list[Event] = []
    mission = list(current.mission)
    if action.mission_vp:
        this_tp = mission[tp - 1] + action.mission_vp
        if this_tp < 0:
            raise RuleError(code="killteam.mission_vp_negative", turning_point=tp)
        if this_tp > MISSION_VP_PER_TP:
            raise RuleError(
                code="killteam.mission_vp_turning_point_cap",
                vp=this_tp,
                turning_point=tp,
                cap=MISSION_VP_PER_TP,
            )
        mission[tp - 1] = this_tp
        if sum(mission) > MISSION_VP_TOTAL:
            raise RuleError(code="killteam.mission_vp_cap", vp=sum(mission), cap=MISSION_VP_TOTAL)
    tac_ops = dict(current.tac_ops)
    card_name = ""
    if action.tac_op_vp:
        assert action.tac_op is not None
        card = state.pack.find_tac_op(action.tac_op, state.tac.held.get(action.actor, []))
        if card is None:
            raise RuleError(code="killteam.tac_op_not_held")
        if state.tac.secret and card.id not in state.tac.revealed.get(action.actor, []):
            raise RuleError(code="killteam.tac_op_unrevealed", tac_op=card.name)
        card_name = card.name
        this_op = tac_ops.get(card.id, 0) + action.tac_op_vp
        if this_op < 0:
            raise RuleError(code="killteam.tac_op_vp_negative", tac_op=card.name)
        if this_op > TAC_OP_VP_EACH:
            raise RuleError(
                code="killteam.tac_op_vp_each_cap", vp=this_op, tac_op=card.name, cap=TAC_OP_VP_EACH
            )
        tac_ops[card.id] = this_op
        if sum(tac_ops.values()) > TAC_OP_VP_TOTAL:
            raise RuleError(code="killteam.tac_op_vp_cap", vp=sum(tac_ops.values()), cap=TAC_OP_VP_TOTAL)
    updated = current.model_copy(update={"mission": mission, "tac_ops": tac_ops})
    if updated.total > VP_TOTAL:
        raise RuleError(code="killteam.vp_cap", vp=updated.total, cap=VP_TOTAL)
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
        raise RuleError(
            code="killteam.battle_ready_counts" if action.painted else "killteam.battle_ready_not_counted"
        )
    updated = current.model_copy(update={"battle_ready": action.painted})
    if updated.total > VP_TOTAL:
        raise RuleError(code="killteam.vp_cap", vp=updated.total, cap=VP_TOTAL)
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
        raise RuleError(code="killteam.battle_not_begun_yet")
    tp = state.turning_point
    if action.turning_point != tp:
        raise RuleError(
            code="killteam.turning_point_not_current", given=action.turning_point, turning_point=tp
        )
    if action.actor not in state.queue:
        raise RuleError(code="killteam.turning_point_already_ended", turning_point=tp)
    queue = [p for p in state.queue if p != action.actor]
    events: list[Event] = [TurningPointEnded(player=action.actor, turning_point=tp, complete=not queue)]
    if queue:
        return state.model_copy(update={"queue": queue}), events
    if tp == TURNING_POINTS:
        state, ended = finish(state)
        return state, events + ended
    state = state.model_copy(update={"turning_point": tp + 1, "queue": list(state.players)})
    return state, [*events, TurningPointStarted(turning_point=tp + 1)]


def ask_to_end(state: KillTeamState, action: EndGame) -> Step:
    """Ending the game can't be undone, so one player's request waits for a confirmation. The other
    player asking too is their confirmation."""
    pending = state.pending
    if pending is not None and pending.by != action.actor:
        return confirm_end(state, ConfirmPending(actor=action.actor, serial=pending.serial, confirm=True))
    state = state.model_copy(update={"confirmation": request(state.confirmation, action.actor, action)})
    return state, [EndAsked(by=action.actor)]


def confirm_end(state: KillTeamState, action: ConfirmPending) -> Step:
    """Either player answers the request: Confirm ends the game now, Not yet withdraws it and changes
    nothing else."""
    confirmation, answered = answer(state.confirmation, action)
    state = state.model_copy(update={"confirmation": confirmation})
    said = EndAnswered(player=answered.player, by=answered.request.by, confirmed=answered.confirmed)
    if not answered.confirmed:
        return state, [said]
    state, events = finish(state, early=True)
    return state, [said, *events]


def finish(state: KillTeamState, early: bool = False) -> Step:
    """The higher total wins; equal totals are a draw. Ended before the battle began, the game was
    never played: it ends with no outcome (cancelled, not a 0-0 draw to rate)."""
    if not state.turning_point:
        return _over(state, None), [GameAbandoned()]
    totals = {p: state.scores[p].total if p in state.scores else 0 for p in state.players}
    first, second = state.players
    winner = None if totals[first] == totals[second] else max(state.players, key=lambda p: totals[p])
    mission, board = mission_name(state), map_label(state)
    where = f"{mission} on {board}" if mission and board else "Kill Team"
    if early:
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
    return _over(state, outcome), [GameEnded(outcome=outcome, totals=totals)]


def _over(state: KillTeamState, outcome: GameOutcome | None) -> KillTeamState:
    """The game as it ends: nothing more is asked of anyone."""
    return state.model_copy(
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
