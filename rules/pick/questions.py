"""What Pick asks, worded once in English for the `pick` catalogue, and an answer as an action.

Each player is asked for their pick in their DMs, sealed (rules/sealed.py), until they have picked.
A draw either player calls is asked of both players in the game's thread as a confirmation
(rules/confirmation.py); while it waits, the picks are paused.
"""

from __future__ import annotations

from rules import confirmation
from rules.pick.actions import Pick, PickAction
from rules.pick.models import LOWEST, PickState
from rules.session import NO_WORDS, Answer, Option, Question
from rules.words import Marker, Words

N_ = Marker("pick")

PICK = "pick.pick"
CONFIRM_DRAW = "pick.confirm_draw"
PICK_STEP = "pick"
DRAW_PREFIX = "draw."

PAUSED = N_("Paused: a draw call waits for an answer in the game's thread.")


def pick_question(state: PickState, player: int) -> Question:
    """The sealed pick, in the player's DMs: one button per number (paused while a draw call waits)."""
    paused = state.confirmation.pending is not None
    return Question(
        step=PICK_STEP,
        topic=PICK,
        title=N_("Pick a number in secret"),
        players=[player],
        options=[
            Option(
                value=str(n),
                label=Words.verbatim(str(n)),
                disabled=paused,
                description=PAUSED if paused else NO_WORDS,
            )
            for n in range(LOWEST, state.highest + 1)
        ],
        sealed=True,
        private=True,
        params={"highest": state.highest},
    )


def ask(state: PickState, player: int) -> list[Question]:
    """What `player` is asked now: their pick until made, and a draw call waiting for its answer."""
    asked = [pick_question(state, player)] if player in state.round.waiting_for() else []
    pending = state.confirmation.pending
    if pending is not None:
        title = N_("Call the game a draw?")
        asked.append(
            confirmation.question(pending, state.players, prefix=DRAW_PREFIX, topic=CONFIRM_DRAW, title=title)
        )
    return asked


def to_action(state: PickState, question: Question, answer: Answer) -> PickAction:
    """A checked answer as Pick's own action."""
    if question.topic == CONFIRM_DRAW:
        return confirmation.to_action(question, answer.actor, answer.values)
    return Pick(actor=answer.actor, value=int(answer.values[0]), nonce=answer.nonce)
