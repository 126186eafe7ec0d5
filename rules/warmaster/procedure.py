"""Warmaster's procedure, a state machine: deal hidden hands, lay cards in turn, begin, score.

The rules this enforces (from the Players Society text):
- each player is dealt magic item and tactics cards by army size (`hands.hand_size`);
- players lay one card at a time, alternately; the player with the first turn lays the first and
  the last card, up to the limits of `hands.play_limits` (4 and 3 for the base hand);
- a target holds at most one magic item card and one tactics card, and a card goes only on what
  its carrier line allows;
- cards go face down on the player's own units and on neutral targets, face up on the opponent's;
- a card that can be laid must be: a player passes only with nothing legal to lay;
- a Lucky Find! is traded for two magic item cards and is not counted;
- nothing is laid once the battle begins; a card's cost is added to its carrier's points when the
  carrier is destroyed.

Beginning the battle and finishing the game can't be undone, so one player's press only asks for
them (rules/confirmation.py): the other player confirms, or the player who pressed confirms their own; "not
yet" from either withdraws it. Nothing else is taken while one waits.
"""

from __future__ import annotations

from typing import Any

from pydantic import TypeAdapter

from rules.confirmation import ConfirmPending, answer, request, require_none_pending
from rules.dice import Roller
from rules.errors import RuleError
from rules.session import Event, Procedure
from rules.warmaster.actions import (
    BeginBattle,
    FinishGame,
    PassTurn,
    PlayCard,
    RecordLoss,
    RevealCard,
    TradeLuckyFind,
    WarmasterAction,
)
from rules.warmaster.battle import begin, finish, record_loss
from rules.warmaster.card_phase import pass_turn, play, reveal, trade
from rules.warmaster.events import (
    ConfirmAnswered,
    ConfirmAsked,
)
from rules.warmaster.models import SYSTEM, Phase, WarmasterState
from rules.warmaster.questions import ask, to_action

_ACTIONS: TypeAdapter[Any] = TypeAdapter(WarmasterAction)


def step(state: WarmasterState, action: Any, roller: Roller) -> tuple[WarmasterState, list[Event]]:
    """Apply one player action; a refusal raises RuleError and changes nothing."""
    if isinstance(action, dict):
        action = _ACTIONS.validate_python(action)
    state.require_open()
    state.require_player(action.actor)
    if not isinstance(action, ConfirmPending):
        require_none_pending(state.confirmation)
    match action:
        case ConfirmPending():
            return _confirm(state, action)
        case BeginBattle() | FinishGame():
            return _ask_to_confirm(state, action)
        case PlayCard():
            return play(state, action)
        case PassTurn():
            return pass_turn(state, action)
        case TradeLuckyFind():
            return trade(state, action)
        case RevealCard():
            return reveal(state, action)
        case RecordLoss():
            return record_loss(state, action)
    raise RuleError(code="warmaster.unknown_action")


def _take(state: WarmasterState, action: BeginBattle | FinishGame) -> tuple[WarmasterState, list[Event]]:
    return begin(state, action) if isinstance(action, BeginBattle) else finish(state, action)


def _ask_to_confirm(
    state: WarmasterState, action: BeginBattle | FinishGame
) -> tuple[WarmasterState, list[Event]]:
    """Hold a step pressed by one player until it is confirmed. It is checked now, so a step the
    game would refuse is refused at once rather than offered for confirmation."""
    _take(state, action)
    state = state.model_copy(update={"confirmation": request(state.confirmation, action.actor, action)})
    return state, [ConfirmAsked(step=action.kind, by=action.actor, other=state.opponent(action.actor))]


def _confirm(state: WarmasterState, action: ConfirmPending) -> tuple[WarmasterState, list[Event]]:
    """Take the waiting step, or withdraw it; a confirmation meant for an earlier one is refused."""
    confirmation, answered = answer(state.confirmation, action)
    pending = answered.request
    state = state.model_copy(update={"confirmation": confirmation})
    said = ConfirmAnswered(
        step=pending.action.kind, by=pending.by, player=answered.player, confirmed=answered.confirmed
    )
    if not answered.confirmed:
        return state, [said]
    state, events = _take(state, pending.action)
    return state, [said, *events]


def awaiting(state: WarmasterState) -> list[int]:
    """During the card phase the game waits on the player whose turn it is to lay a card."""
    if state.finished or state.phase is not Phase.CARDS or state.turn is None:
        return []
    return [state.turn]


def parse_action(data: dict[str, Any] | str) -> Any:
    """Read a stored or submitted action back into its model."""
    if isinstance(data, str):
        return _ACTIONS.validate_json(data)
    return _ACTIONS.validate_python(data)


PROCEDURE: Procedure[WarmasterState] = Procedure(
    SYSTEM, WarmasterState, step, awaiting, ask=ask, to_action=to_action
)
