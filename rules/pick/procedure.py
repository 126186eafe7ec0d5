"""Pick's procedure: the state machine the platform runs (`PROCEDURE`).

`step` never mutates its input. A pick is sealed (rules/sealed.py); the second pick reveals both
and ends the game, the higher pick winning. A draw call is held by the shared confirmation
(rules/confirmation.py): the other player's Confirm ends the game drawn, Not yet withdraws it.
The finished state's `outcome` is the result the platform records in the scores.
"""

from __future__ import annotations

from rules import confirmation
from rules.confirmation import ConfirmPending
from rules.dice import Roller
from rules.errors import RuleError
from rules.pick.actions import CallDraw, Pick, PickAction
from rules.pick.events import Decided, DrawAnswered, DrawCalled
from rules.pick.models import LOWEST, PickPack, PickState
from rules.pick.pack import shipped_pack
from rules.pick.questions import PICK_STEP, ask, to_action
from rules.sealed import SealedRound, seal
from rules.session import Event, GameOutcome, Procedure, SideResult

SYSTEM = "pick"


def start(
    session_id: str, players: list[int], roller: Roller, pack: PickPack | None = None
) -> tuple[PickState, list[Event]]:
    """A new game: nobody has picked; numbers from 1 to the pack's highest (the shipped pack's)."""
    pack = pack or shipped_pack()
    round_ = SealedRound(step=PICK_STEP, label="pick", players=players)
    state = PickState(
        session_id=session_id, players=players, round=round_, highest=pack.highest, pack=pack.name
    )
    return state, []


def step(state: PickState, action: PickAction, roller: Roller) -> tuple[PickState, list[Event]]:
    """Apply one action (the platform has checked it comes from a player of an open game)."""
    if isinstance(action, ConfirmPending):
        return _answer_draw(state, action)
    confirmation.require_none_pending(state.confirmation)
    if isinstance(action, CallDraw):
        asked = confirmation.request(state.confirmation, action.actor, action)
        return state.model_copy(update={"confirmation": asked}), [DrawCalled(by=action.actor)]
    return _pick(state, action)


def _pick(state: PickState, action: Pick) -> tuple[PickState, list[Event]]:
    if not LOWEST <= action.value <= state.highest:
        raise RuleError(code="pick.range", low=LOWEST, high=state.highest)
    round_, events = seal(state.round, state.session_id, action.actor, str(action.value), action.nonce)
    state = state.model_copy(update={"round": round_})
    if not round_.revealed:
        return state, events
    picks = {p: int(c) for p, c in round_.choices().items()}
    a, b = state.players
    winner = None if picks[a] == picks[b] else (a if picks[a] > picks[b] else b)
    outcome = GameOutcome(
        sides=[SideResult(player=p, score=picks[p]) for p in state.players], winner=winner, mission="Pick"
    )
    finished = state.model_copy(update={"finished": True, "outcome": outcome})
    return finished, [*events, Decided(winner=winner, picks=picks)]


def _answer_draw(state: PickState, action: ConfirmPending) -> tuple[PickState, list[Event]]:
    cleared, answered = confirmation.answer(state.confirmation, action)
    said = DrawAnswered(by=answered.request.by, player=answered.player, agreed=answered.confirmed)
    update: dict[str, object] = {"confirmation": cleared}
    if answered.confirmed:
        sides = [SideResult(player=p, score=0) for p in state.players]
        update.update(
            finished=True, drawn=True, outcome=GameOutcome(sides=sides, winner=None, mission="Pick")
        )
    return state.model_copy(update=update), [said]


def awaiting(state: PickState) -> list[int]:
    """Who the game waits on for a secret pick (reminders)."""
    return state.round.waiting_for()


PROCEDURE = Procedure(SYSTEM, PickState, step, awaiting, ask=ask, to_action=to_action)
