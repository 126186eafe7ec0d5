"""A game night's state machine: open for sign-ups, closed, paired and under review, published, then
finished (or cancelled on the way). `step(state, action, now)` is pure: it returns a new state and
what happened, or refuses with a `night.*` code and changes nothing.

Who may act is the bot's to know (Manage Server or the organiser role): it says so with
`as_organiser` on the action; the night's own organiser may always act. A player may change only
their own sign-up, and only while sign-ups are open; after the cut-off, changes go to the organiser.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from rules.errors import RuleError
from rules.night import review, waitlist
from rules.night.actions import (
    Cancel,
    Close,
    Drop,
    Edit,
    Finish,
    Leave,
    MarkReminded,
    MoveTable,
    OrganiserAction,
    Pair,
    Publish,
    SignUp,
    Swap,
)
from rules.night.events import (
    Cancelled,
    Closed,
    Created,
    Dropped,
    Edited,
    Finished,
    Left,
    Paired,
    Promoted,
    Published,
    Reminded,
    SignedUp,
    Swapped,
    TableMoved,
)
from rules.night.models import (
    PairingContext,
    PairingResult,
    Signup,
    Table,
    check_signup,
)
from rules.night.pairing import pair_players
from rules.night.settings import NightSettings, check_settings
from rules.night.tables import check_table_ids
from rules.session import Event, Model

Status = Literal["open", "closed", "review", "published", "finished", "cancelled"]


class NightState(Model):
    night_id: str
    organiser: int
    settings: NightSettings
    status: Status = "open"
    signups: list[Signup] = []  # confirmed, in sign-up order
    waitlist: list[Signup] = []
    next_seq: int = 1
    tables: list[Table] = []  # the club's tables when paired
    result: PairingResult | None = None
    context: PairingContext = PairingContext()  # what pairing knew, to explain the organiser's changes
    reminded: list[int] = []
    closed_at: int | None = None

    def signup_of(self, player: int) -> Signup | None:
        return next((s for s in [*self.signups, *self.waitlist] if s.player == player), None)

    def waitlisted(self, player: int) -> bool:
        return any(s.player == player for s in self.waitlist)


# -------------------------------------------------------------------------------------------- steps


def start(night_id: str, organiser: int, settings: NightSettings, now: int) -> tuple[NightState, list[Event]]:
    """A new night open for sign-ups, or a refusal (`night.in_past`, `night.capacity`, ...)."""
    checked = check_settings(settings, now)
    return NightState(night_id=night_id, organiser=organiser, settings=checked), [Created(night_id=night_id)]


def is_organiser(state: NightState, action: OrganiserAction) -> bool:
    return action.actor == state.organiser or action.as_organiser


def require_organiser(state: NightState, action: OrganiserAction) -> None:
    if not is_organiser(state, action):
        raise RuleError(code="night.not_organiser")


def require_live(state: NightState) -> None:
    if state.status == "cancelled":
        raise RuleError(code="night.cancelled")
    if state.status == "finished":
        raise RuleError(code="night.finished")


def require_before_pairing(state: NightState) -> None:
    require_live(state)
    if state.status not in ("open", "closed"):
        raise RuleError(code="night.paired_already")


def require_review(state: NightState) -> None:
    require_live(state)
    if state.status != "review":
        raise RuleError(code="night.not_review")


def step(state: NightState, action: Any, now: int) -> tuple[NightState, list[Event]]:
    """Apply one action; never mutates `state`."""
    handler = HANDLERS.get(type(action))
    if handler is None:
        raise RuleError(code="night.unknown_action")
    return handler(state, action, now)


def _sign_up(state: NightState, action: SignUp, now: int) -> tuple[NightState, list[Event]]:
    require_before_pairing(state)
    organising = is_organiser(state, action)
    if action.signup.player != action.actor and not organising:
        raise RuleError(code="night.not_yours")
    if not organising:
        if now >= state.settings.cutoff:
            raise RuleError(code="night.after_cutoff")
        if state.status == "closed":
            raise RuleError(code="night.closed")
    signup = check_signup(action.signup, state.settings.systems)
    existing = state.signup_of(signup.player)
    if existing is not None:
        if signup.same_wishes(existing):
            raise RuleError(code="night.already_signed_up")
        signup = signup.model_copy(update={"seq": existing.seq})
        listed = "waitlist" if state.waitlisted(signup.player) else "signups"
        entries, position = waitlist.replace(getattr(state, listed), signup)
        event = SignedUp(
            player=signup.player, waitlisted=listed == "waitlist", position=position, changed=True
        )
        return state.model_copy(update={listed: entries}), [event]
    signup = signup.model_copy(update={"seq": state.next_seq})
    confirmed, waiting, waitlisted, position = waitlist.join(
        state.signups, state.waitlist, state.settings.capacity, signup
    )
    update = {"signups": confirmed, "waitlist": waiting, "next_seq": state.next_seq + 1}
    return state.model_copy(update=update), [
        SignedUp(player=signup.player, waitlisted=waitlisted, position=position)
    ]


def _leave(state: NightState, action: Leave, now: int) -> tuple[NightState, list[Event]]:
    require_live(state)
    if action.player != action.actor and not is_organiser(state, action):
        raise RuleError(code="night.not_yours")
    if state.waitlisted(action.player):
        waiting = waitlist.remove(state.waitlist, action.player)
        return state.model_copy(update={"waitlist": waiting}), [Left(player=action.player, waitlisted=True)]
    if state.status == "review":
        return _dropped(state, action.player)
    require_before_pairing(state)
    if state.signup_of(action.player) is None:
        raise RuleError(code="night.not_signed_up", player=action.player)
    confirmed, waiting, promoted = waitlist.promote(
        waitlist.remove(state.signups, action.player),
        state.waitlist,
        state.settings.capacity,
        state.settings.systems,
    )
    events: list[Event] = [Left(player=action.player, waitlisted=False)]
    events.extend(Promoted(player=p) for p in promoted)
    return state.model_copy(update={"signups": confirmed, "waitlist": waiting}), events


def _close(state: NightState, action: Close, now: int) -> tuple[NightState, list[Event]]:
    require_organiser(state, action)
    require_before_pairing(state)
    if state.status == "closed":
        raise RuleError(code="night.already_closed")
    closed_at = action.now if action.now is not None else now
    return state.model_copy(update={"status": "closed", "closed_at": closed_at}), [Closed()]


def _pair(state: NightState, action: Pair, now: int) -> tuple[NightState, list[Event]]:
    require_organiser(state, action)
    require_live(state)
    if state.status == "published":
        raise RuleError(code="night.published_already")
    check_table_ids(action.tables)
    result = pair_players(playing(state), action.tables, action.context, action.seed)
    context = action.context.about({s.player for s in state.signups})
    update = {
        "status": "review",
        "tables": action.tables,
        "result": result,
        "context": context,
        "closed_at": state.closed_at if state.closed_at is not None else now,
    }
    event = Paired(pairings=len(result.pairings), sat_out=len(result.sat_out))
    return state.model_copy(update=update), [event]


def playing(state: NightState) -> list[Signup]:
    """The confirmed sign-ups a pairing is made for: a player dropped as a no-show stays out of a
    fresh pairing made during review."""
    dropped = (
        {s.player for s in state.result.sat_out if s.reason.code == "night.dropped"}
        if state.result
        else set()
    )
    return [s for s in state.signups if s.player not in dropped]


def _signups(state: NightState) -> dict[int, Signup]:
    return {s.player: s for s in state.signups}


def _result(state: NightState) -> PairingResult:
    assert state.result is not None  # review always has a result
    return state.result


def _swap(state: NightState, action: Swap, now: int) -> tuple[NightState, list[Event]]:
    require_organiser(state, action)
    require_review(state)
    result = review.swap(_result(state), action.first, action.second, _signups(state), state.context)
    return state.model_copy(update={"result": result}), [Swapped(first=action.first, second=action.second)]


def _move_table(state: NightState, action: MoveTable, now: int) -> tuple[NightState, list[Event]]:
    require_organiser(state, action)
    require_review(state)
    result = review.move_table(_result(state), action.pairing, action.table_id, state.tables)
    event = TableMoved(pairing=action.pairing, table_id=action.table_id)
    return state.model_copy(update={"result": result}), [event]


def _drop(state: NightState, action: Drop, now: int) -> tuple[NightState, list[Event]]:
    require_organiser(state, action)
    require_review(state)
    return _dropped(state, action.player)


def _dropped(state: NightState, player: int) -> tuple[NightState, list[Event]]:
    result, opponent, stand_in = review.drop(
        _result(state), player, _signups(state), state.context, state.tables
    )
    event = Dropped(player=player, opponent=opponent, stand_in=stand_in)
    return state.model_copy(update={"result": result}), [event]


def _publish(state: NightState, action: Publish, now: int) -> tuple[NightState, list[Event]]:
    require_organiser(state, action)
    require_review(state)
    result = _result(state)
    pairings = list(result.pairings)
    for index, session_id in sorted(action.session_ids.items()):
        if not 0 <= index < len(pairings):
            raise RuleError(code="night.no_pairing", number=index + 1, count=len(pairings))
        pairings[index] = pairings[index].model_copy(update={"session_id": session_id})
    update = {"status": "published", "result": result.model_copy(update={"pairings": pairings})}
    return state.model_copy(update=update), [Published(pairings=len(pairings))]


def _cancel(state: NightState, action: Cancel, now: int) -> tuple[NightState, list[Event]]:
    require_organiser(state, action)
    require_live(state)
    return state.model_copy(update={"status": "cancelled"}), [Cancelled()]


def _edit(state: NightState, action: Edit, now: int) -> tuple[NightState, list[Event]]:
    require_organiser(state, action)
    require_live(state)
    before = state.settings
    settings = check_settings(action.settings, now, before)
    changed = [
        name for name in NightSettings.model_fields if getattr(settings, name) != getattr(before, name)
    ]
    if not changed:
        raise RuleError(code="night.no_change")
    if state.status not in ("open", "closed"):
        for name in ("capacity", "systems"):
            if name in changed:
                raise RuleError(code="night.edit_after_pairing", field=name)
    for system in before.systems:
        if system not in settings.systems:
            players = [s.player for s in [*state.signups, *state.waitlist] if system in s.systems]
            if players:
                raise RuleError(code="night.system_in_use", system=system, players=len(players))
    reopen = state.status == "closed" and "cutoff" in changed and settings.cutoff > now
    confirmed, waiting, promoted = waitlist.promote(
        state.signups, state.waitlist, settings.capacity, settings.systems
    )
    update: dict[str, Any] = {"settings": settings, "signups": confirmed, "waitlist": waiting}
    if reopen:
        update.update(status="open", closed_at=None)
    events: list[Event] = [Edited(changed=changed, reopened=reopen)]
    events.extend(Promoted(player=p) for p in promoted)
    return state.model_copy(update=update), events


def _finish(state: NightState, action: Finish, now: int) -> tuple[NightState, list[Event]]:
    require_organiser(state, action)
    require_live(state)
    if state.status != "published":
        raise RuleError(code="night.not_published")
    return state.model_copy(update={"status": "finished"}), [Finished()]


def _mark_reminded(state: NightState, action: MarkReminded, now: int) -> tuple[NightState, list[Event]]:
    require_organiser(state, action)
    fresh = [p for p in dict.fromkeys(action.players) if p not in state.reminded]
    return state.model_copy(update={"reminded": [*state.reminded, *fresh]}), [Reminded(players=fresh)]


Handler = Callable[[NightState, Any, int], tuple[NightState, list[Event]]]
HANDLERS: dict[type, Handler] = {
    SignUp: _sign_up,
    Leave: _leave,
    Close: _close,
    Pair: _pair,
    Swap: _swap,
    MoveTable: _move_table,
    Drop: _drop,
    Publish: _publish,
    Cancel: _cancel,
    Edit: _edit,
    Finish: _finish,
    MarkReminded: _mark_reminded,
}


# ---------------------------------------------------------------------------------- for the bot


def cutoff_due(state: NightState, now: int) -> bool:
    """Whether sign-ups should close now (the bot then steps `Close`, and `Pair`)."""
    return state.status == "open" and now >= state.settings.cutoff


def to_remind(state: NightState) -> list[int]:
    """Confirmed players not reminded yet (the bot leaves out those who opted out)."""
    if state.status in ("cancelled", "finished"):
        return []
    return [s.player for s in state.signups if s.player not in state.reminded]
