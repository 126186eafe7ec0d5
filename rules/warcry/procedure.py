"""How a Warcry battle steps (`step`, each action to its handler) and its `PROCEDURE`: the steps
with the questions asked about them (rules/warcry/questions.py).

A step one player can't take alone (the end of a battle round, a tally recorded for the other
player) is checked, then held until it is confirmed (rules/confirmation.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.confirmation import ConfirmPending, answer, request, require_none_pending
from rules.dice import Roller
from rules.errors import RuleError
from rules.session import Event, Procedure
from rules.warcry import actions as act
from rules.warcry import rounds, setup, tallies
from rules.warcry.events import Notice
from rules.warcry.models import SYSTEM, Result, WarcryState
from rules.warcry.questions import ask, to_action
from rules.warcry.rounds import check_end_round
from rules.warcry.wording import pending_what
from rules.words import Marker

N_ = Marker("warcry")


def step(state: WarcryState, action: Any, roller: Roller) -> Result:
    state.require_open()
    state.require_player(action.actor)
    handler = _HANDLERS.get(type(action))
    if handler is None:
        raise RuleError(code="warcry.unknown_action")
    if not isinstance(action, ConfirmPending):
        require_none_pending(state.confirmation)
    if isinstance(action, act.EndRound):
        return _ask_to_confirm(state, action, roller)
    if isinstance(action, TALLY_ACTIONS) and action.player != action.actor:
        return _ask_to_confirm(state, action, roller)
    return handler(state, action, roller)


def awaiting(state: WarcryState) -> list[int]:
    """Warcry has no sealed choices, so no one is ever awaited in private."""
    return []


# Tallies that count for a player: recorded by the other player, they wait for a confirmation.
TALLY_ACTIONS = (
    act.SetTreasureCarriers,
    act.SetFightersNear,
    act.SetQuarters,
    act.SetBloodTally,
    act.SetOnAltar,
    act.AddChampionTally,
)


def _ask_to_confirm(state: WarcryState, action: act.Confirmable, roller: Roller) -> Result:
    """Hold a step pressed by one player until it is confirmed. It is checked now, so a step the
    battle would refuse is refused at once rather than offered for confirmation."""
    if isinstance(action, act.EndRound):
        check_end_round(state, action)
    else:
        _HANDLERS[type(action)](state, action, roller)
    state = state.model_copy(update={"confirmation": request(state.confirmation, action.actor, action)})
    assert state.pending is not None
    asked = N_(
        "{player} pressed: **{what}**. It waits for {other} to confirm (or {player} confirms their own).",
        what=pending_what(state, state.pending.action),
    )
    who = {"player": action.actor, "other": state.opponent(action.actor)}
    return state, [Notice(code="confirm_asked", who=who, text=asked)]


def _confirm(state: WarcryState, action: ConfirmPending, roller: Roller) -> Result:
    """Take the waiting step as it was pressed, or leave everything as it was."""
    confirmation, answered = answer(state.confirmation, action)
    pending = answered.request
    what = pending_what(state, pending.action)
    state = state.model_copy(update={"confirmation": confirmation})
    who = {"player": action.actor}
    if not answered.confirmed:
        declined = N_("{player} says not yet to: {what}. Nothing changes.", what=what)
        return state, [Notice(code="confirm_declined", who=who, text=declined)]
    confirmed = Notice(code="confirmed", who=who, text=N_("{player} confirms: {what}.", what=what))
    state, events = _HANDLERS[type(pending.action)](state, pending.action, roller)
    return state, [confirmed, *events]


Handler = Callable[[WarcryState, Any, Roller], tuple[WarcryState, list[Event]]]

_HANDLERS: dict[type, Handler] = {
    act.SplitBattleGroups: setup.split,
    act.ChooseColour: setup.colour,
    act.Deploy: setup.deploy,
    act.RollBlockedObjective: setup.blocked_objective,
    act.BeginBattle: setup.begin,
    act.SetInitiative: tallies.initiative,
    act.SetTreasureCarriers: tallies.treasure,
    act.SetCarrier: tallies.carrier,
    act.SetFightersNear: tallies.near,
    act.RollCarrierDamage: tallies.carrier_damage,
    act.SetQuarters: tallies.quarters,
    act.SetBloodTally: tallies.blood,
    act.AwakenObjective: tallies.awaken,
    act.SetControl: tallies.control,
    act.RemoveObjective: tallies.remove,
    act.SetOnAltar: tallies.altar,
    act.NominateChampion: tallies.nominate,
    act.AddChampionTally: tallies.champion_tally,
    act.ChampionTakenDown: tallies.champion_down,
    act.SetConditionMet: tallies.condition,
    act.EndRound: rounds.end_round,
    act.DeclareLastWarband: rounds.last_warband,
    act.AnswerLastWarband: rounds.answer_last_warband,
    ConfirmPending: _confirm,
}


PROCEDURE: Procedure[WarcryState] = Procedure(
    SYSTEM, WarcryState, step, awaiting, ask=ask, to_action=to_action
)
