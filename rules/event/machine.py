"""An event's state machine (not a game's `procedure`: an event is no game session, so it stays out
of the games' layout): `start` makes one, `apply(state, action)` takes one step (a new state and
what happened) or refuses with an `event.*` RuleError and changes nothing; `allowed` asks first.

Phases and what each allows (rules/event/state.py has the phases; every step also refuses a
finished or cancelled event):
- signup: join, leave, submit_list (until the deadline), reject_list, close_lists, cancel;
- lists_closed: join (organiser: late entry), leave, submit_list (a rejected list only),
  reject_list, publish_round (round 1), cancel;
- round: report_result, drop, give_bye, publish_round (when the round is complete and rounds are
  left), start_top_cut (after the last round), finish, cancel;
- top_cut: report_result (no draws), drop, publish_round (the next bracket round), finish (after
  the final), cancel.
Who acts: a player for themselves; the organiser (the event's, or anyone the bot says may organise:
`as_organiser`) for anyone, and alone for reject_list, close_lists, publish_round, give_bye,
start_top_cut, finish and cancel. Pure and deterministic: times and seeds come on the actions.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.errors import RuleError
from rules.event import entries, rounds
from rules.event.actions import (
    Cancel,
    CloseLists,
    Drop,
    Finish,
    GiveBye,
    Join,
    Leave,
    PublishRound,
    RejectList,
    ReportResult,
    StartTopCut,
    SubmitList,
)
from rules.event.events import Created
from rules.event.state import EventAction, EventSettings, EventState, Phase, check_settings
from rules.session import Event

Step = tuple[EventState, list[Event]]


def _leave_or_drop(state: EventState, action: Leave) -> Step:
    if state.round_number > 0:
        return rounds.drop(
            state, Drop(actor=action.actor, as_organiser=action.as_organiser, player=action.player)
        )
    return entries.leave(state, action)


HANDLERS: dict[type[EventAction], Callable[[EventState, Any], Step]] = {
    Join: entries.join,
    Leave: _leave_or_drop,
    SubmitList: entries.submit_list,
    RejectList: entries.reject_list,
    CloseLists: entries.close_lists,
    PublishRound: rounds.publish_round,
    ReportResult: rounds.report_result,
    Drop: rounds.drop,
    GiveBye: rounds.give_bye,
    StartTopCut: rounds.start_top_cut,
    Finish: rounds.finish,
    Cancel: rounds.cancel,
}


def start(event_id: str, organiser: int, settings: EventSettings) -> Step:
    """A new event open for entries, or a refusal (`event.capacity`, `event.name_missing`, ...)."""
    state = EventState(event_id=event_id, organiser=organiser, settings=check_settings(settings))
    return state, [Created(event_id=event_id)]


def apply(state: EventState, action: EventAction) -> Step:
    """One step; never mutates `state`."""
    handler = HANDLERS.get(type(action))
    if handler is None:
        raise RuleError(code="event.unknown_action")
    return handler(state, action)


def allowed(state: EventState, action: EventAction) -> RuleError | None:
    """The refusal `apply` would give, or None when the action is legal now."""
    try:
        apply(state, action)
    except RuleError as refusal:
        return refusal
    return None


__all__ = ["Phase", "allowed", "apply", "start"]
