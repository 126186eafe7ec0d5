"""The steps before round 1: entries and the waitlist, sealed lists, their rejection and reveal."""

from __future__ import annotations

from rules.errors import RuleError
from rules.event.actions import CloseLists, Join, Leave, RejectList, SubmitList
from rules.event.events import (
    Joined,
    Left,
    ListRejected,
    ListsClosed,
    ListSealed,
    ListsRevealed,
    Promoted,
    RevealedList,
)
from rules.event.lists import check_list, check_reason, seal_list
from rules.event.models import Entrant
from rules.event.state import (
    ArmyList,
    EventState,
    Phase,
    is_organiser,
    require_before_round_one,
    require_organiser,
    require_self_or_organiser,
)
from rules.session import Event

Step = tuple[EventState, list[Event]]


def join(state: EventState, action: Join) -> Step:
    require_before_round_one(state)
    require_self_or_organiser(state, action, action.player)
    organising = is_organiser(state, action)
    if state.phase is not Phase.SIGNUP and not organising:
        raise RuleError(code="event.signup_closed")
    if state.entrant(action.player) is not None or any(e.player == action.player for e in state.waitlist):
        raise RuleError(code="event.already_entered")
    entrant = Entrant(player=action.player, rating=action.rating)
    late = state.phase is not Phase.SIGNUP
    if len(state.entrants) < state.settings.capacity:
        entrants = [*state.entrants, entrant]
        joined = Joined(player=action.player, waitlisted=False, position=len(entrants), late=late)
        return state.model_copy(update={"entrants": entrants}), [joined]
    waiting = [*state.waitlist, entrant]
    joined = Joined(player=action.player, waitlisted=True, position=len(waiting), late=late)
    return state.model_copy(update={"waitlist": waiting}), [joined]


def leave(state: EventState, action: Leave) -> Step:
    """Off the waitlist, or out of the event before round 1 (the waitlist's first moves up)."""
    require_before_round_one(state)
    require_self_or_organiser(state, action, action.player)
    lists = {p: entry for p, entry in state.lists.items() if p != action.player}
    if any(e.player == action.player for e in state.waitlist):
        waiting = [e for e in state.waitlist if e.player != action.player]
        update = {"waitlist": waiting, "lists": lists}
        return state.model_copy(update=update), [Left(player=action.player, waitlisted=True)]
    if state.entrant(action.player) is None:
        raise RuleError(code="event.not_entered")
    entrants = [e for e in state.entrants if e.player != action.player]
    events: list[Event] = [Left(player=action.player, waitlisted=False)]
    waiting = list(state.waitlist)
    if waiting and len(entrants) < state.settings.capacity:
        promoted = waiting.pop(0)
        entrants.append(promoted)
        events.append(Promoted(player=promoted.player))
    update = {"entrants": entrants, "waitlist": waiting, "lists": lists}
    return state.model_copy(update=update), events


def submit_list(state: EventState, action: SubmitList) -> Step:
    """Seal a list: before the deadline (and while lists are open), or a rejected list's
    replacement until round 1. Refusals never repeat the list."""
    require_before_round_one(state)
    require_self_or_organiser(state, action, action.player)
    deadline = state.settings.list_deadline
    if deadline is None:
        raise RuleError(code="event.no_lists")
    if state.entrant(action.player) is None and all(e.player != action.player for e in state.waitlist):
        raise RuleError(code="event.not_entered")
    before = state.lists.get(action.player)
    replacing = before is not None and before.status == "rejected"
    if not replacing and (action.now > deadline or state.phase is not Phase.SIGNUP):
        raise RuleError(code="event.list_late", deadline=deadline)
    faction, text = check_list(action.faction, action.text)
    digest = seal_list(state.event_id, action.player, faction, text, action.nonce)
    entry = ArmyList(
        player=action.player,
        faction=faction,
        text=text,
        nonce=action.nonce,
        commitment=digest,
        submitted_at=action.now,
    )
    events: list[Event] = [
        ListSealed(player=action.player, commitment=digest, resubmitted=before is not None)
    ]
    if state.phase is not Phase.SIGNUP and state.settings.reveal == "all":
        entry = entry.model_copy(update={"status": "revealed"})
        events.append(ListsRevealed(lists=[revealed(entry)]))
    return state.model_copy(update={"lists": {**state.lists, action.player: entry}}), events


def reject_list(state: EventState, action: RejectList) -> Step:
    """The organiser refuses a list (before round 1) with a reason the player reads."""
    require_organiser(state, action)
    require_before_round_one(state)
    entry = state.lists.get(action.player)
    if entry is None:
        raise RuleError(code="event.no_list", player=action.player)
    if entry.status == "rejected":
        raise RuleError(code="event.list_rejected_already", player=action.player)
    reason = check_reason(action.reason)
    rejected = entry.model_copy(update={"status": "rejected", "reason": reason})
    event = ListRejected(player=action.player, reason=reason, private_to=action.player)
    return state.model_copy(update={"lists": {**state.lists, action.player: rejected}}), [event]


def close_lists(state: EventState, action: CloseLists) -> Step:
    """Sign-ups and lists close; with `reveal` "all" every sealed list is revealed together."""
    require_organiser(state, action)
    require_before_round_one(state)
    if state.phase is not Phase.SIGNUP:
        raise RuleError(code="event.lists_closed_already")
    lists = dict(state.lists)
    events: list[Event] = []
    standing = {p for p, entry in lists.items() if entry.status != "rejected"}
    with_lists = state.settings.list_deadline is not None
    missing = [e.player for e in state.entrants if with_lists and e.player not in standing]
    events.append(ListsClosed(missing=missing))
    if state.settings.reveal == "all" and state.settings.list_deadline is not None:
        shown = []
        for player, entry in lists.items():
            if entry.status == "sealed":
                lists[player] = entry.model_copy(update={"status": "revealed"})
                shown.append(revealed(lists[player]))
        events.append(ListsRevealed(lists=shown))
    return state.model_copy(update={"phase": Phase.LISTS_CLOSED, "lists": lists}), events


def revealed(entry: ArmyList) -> RevealedList:
    return RevealedList(
        player=entry.player,
        faction=entry.faction,
        text=entry.text,
        nonce=entry.nonce,
        commitment=entry.commitment,
    )
