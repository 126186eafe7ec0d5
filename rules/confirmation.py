"""One confirmation protocol for every game: a step one player can't take alone waits for Confirm.

Some steps can't be undone (ending a battle round or the game, beginning the battle) or count for
the other player (a tally recorded for them), so one player's press only *asks* for them. The
request waits in the game's `Confirmation`; either player answers it:

- Confirm, from the other player or from the player who asked (confirming their own), takes the
  step: the game applies the action the request holds;
- Not yet, from either, withdraws it and changes nothing else;
- each request has a serial (the count of requests asked before it) that its question's step id and
  its answer carry, so a Confirm meant for an earlier request never confirms a newer one;
- while a request waits, the game takes nothing else: `require_none_pending` refuses.

Refusals are the same codes in every game: `confirm.pending` (a request waits; `by` asked it),
`confirm.stale` (an answer to an earlier request) and `confirm.nothing_pending`. The module is pure:
it knows nothing of what the held action does, only who asked, what, and which request it is.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, Literal, TypeVar

from pydantic import Field

from rules.errors import RuleError
from rules.session import Action, Model, Option, Question
from rules.words import Marker, Words

A = TypeVar("A")

CONFIRM = "confirm"
NOT_YET = "not_yet"
N_ = Marker("muster")
HOW = N_(
    "The other player confirms, or the player who asked may confirm their own. Not yet withdraws "
    "the request and changes nothing."
)

PENDING = "confirm.pending"
STALE = "confirm.stale"
NOTHING_PENDING = "confirm.nothing_pending"
CODES = (PENDING, STALE, NOTHING_PENDING)
"""Every refusal the protocol makes, worded once for all games."""


class Request(Model, Generic[A]):
    """A step one player asked for, held until it is answered."""

    serial: int = Field(ge=0)  # how many requests the game asked before this one: names it in step ids
    by: int  # who asked
    action: A  # the step itself, taken as it was asked once confirmed


class Confirmation(Model, Generic[A]):
    """A game's confirmations: the request waiting now (if any) and how many were ever asked."""

    pending: Request[A] | None = None
    asked: int = Field(default=0, ge=0)  # the next request's serial


class ConfirmPending(Action):
    """Confirms (or, with `confirm` false, says not yet to) the waiting request. `serial` names
    which request, so a click meant for an earlier one never confirms a later one."""

    kind: Literal["confirm"] = "confirm"
    serial: int = Field(ge=0)
    confirm: bool


@dataclass(frozen=True)
class Answered(Generic[A]):
    """How a request was answered: by `player`, confirmed (take `request.action` now) or not yet."""

    request: Request[A]
    player: int
    confirmed: bool


def require_none_pending(confirmation: Confirmation[Any]) -> None:
    """Refuse anything but an answer while a request waits: the table settles it first."""
    if confirmation.pending is not None:
        raise RuleError(code=PENDING, by=confirmation.pending.by)


def request(confirmation: Confirmation[A], by: int, action: A) -> Confirmation[A]:
    """Hold `action`, asked by `by`, until it is answered. The game checks the action first, so a
    step it would refuse is refused at once rather than offered for confirmation."""
    require_none_pending(confirmation)
    pending = Request[Any](serial=confirmation.asked, by=by, action=action)
    return confirmation.model_copy(update={"pending": pending, "asked": confirmation.asked + 1})


def answer(confirmation: Confirmation[A], action: ConfirmPending) -> tuple[Confirmation[A], Answered[A]]:
    """Answer the waiting request: either player may, so its player can confirm their own. An
    answer naming an earlier request is refused rather than taken as an answer to this one."""
    pending = confirmation.pending
    if pending is None:
        raise RuleError(code=NOTHING_PENDING)
    if action.serial != pending.serial:
        raise RuleError(code=STALE)
    cleared = confirmation.model_copy(update={"pending": None})
    return cleared, Answered(request=pending, player=action.actor, confirmed=action.confirm)


def question(
    pending: Request[Any],
    players: list[int],
    *,
    prefix: str,
    topic: str,
    title: Words,
    text: Words = HOW,
    series: str | None = None,
    **params: str | int | None,
) -> Question:
    """The request asked of both players: Confirm or Not yet. Its step id names the request after
    the game's `prefix` (where the game is), so the button of an earlier request is refused as stale."""
    return Question(
        step=f"{prefix}{pending.serial}",
        topic=topic,
        title=title,
        text=text,
        players=list(players),
        options=[
            Option(value=CONFIRM, label=N_.p("button", "Confirm"), tone="go"),
            Option(value=NOT_YET, label=N_.p("button", "Not yet")),
        ],
        series=series,
        params={**params, "by": pending.by, "serial": pending.serial},
    )


def to_action(question: Question, actor: int, values: list[str]) -> ConfirmPending:
    """The answer to a checked confirmation question: the serial its question named."""
    serial = question.params.get("serial")
    return ConfirmPending(
        actor=actor, serial=serial if isinstance(serial, int) else 0, confirm=values == [CONFIRM]
    )


def from_old_shape(
    data: Any, pending: str, asked: str, action: Callable[[dict[str, Any]], Any] | None = None
) -> Any:
    """A saved state of the time each game kept its own confirmation (`pending` and `asked` were its
    own field names), in today's shape; `action` rebuilds a request's held step when the old shape
    didn't keep one. Anything else is left as it is."""
    if not isinstance(data, dict) or (pending not in data and asked not in data):
        return data
    data = dict(data)
    old = data.pop(pending, None)
    count = data.pop(asked, 0)
    if isinstance(old, dict) and action is not None and "action" not in old:
        old = {**old, "action": action(old)}
    data.setdefault("confirmation", {"pending": old, "asked": count})
    return data
