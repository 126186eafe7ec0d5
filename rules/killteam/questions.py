"""Kill Team's side of the prompt contract: what a player is asked (`ask`), which checked answer is
which action (`to_action`), and the one check every Choose or Done goes through, from a click or from
`Procedure.answer`.
"""

from __future__ import annotations

from rules import confirmation
from rules.errors import RuleError
from rules.killteam.actions import (
    Choose,
    Done,
    EndTurningPoint,
    SealBid,
    SealScouting,
    SetBattleReady,
)
from rules.killteam.state import KillTeamState
from rules.killteam.views import BATTLE_END, BATTLE_READY, prompt, questions
from rules.session import Action, Answer, Question, check_answer


def ask(state: KillTeamState, player: int) -> list[Question]:
    """The questions `player` can answer now (none on a finished game)."""
    return questions(state, player)


def to_action(state: KillTeamState, question: Question, answer: Answer) -> Action:
    """The Kill Team action a checked answer stands for.

    A sealed bid or scouting pick is given no nonce here: the step draws one from the game's roller,
    so the commitment hides the choice without the bot having to make randomness.
    """
    actor = answer.actor
    if question.topic == "killteam.bid":
        assert answer.number is not None  # check_answer refuses a number question without one
        return SealBid(actor=actor, step=question.step, amount=answer.number)
    if question.topic == "killteam.scouting":
        return SealScouting(actor=actor, step=question.step, option=answer.values[0])
    if question.topic == "killteam.battle":
        value = answer.values[0]
        if value == BATTLE_END:
            return EndTurningPoint(actor=actor, turning_point=state.turning_point)
        return SetBattleReady(actor=actor, painted=value == BATTLE_READY)
    if question.topic == "killteam.end":
        return confirmation.to_action(question, actor, answer.values)
    if question.kind == "done":
        return Done(actor=actor, step=question.step)
    return Choose(actor=actor, step=question.step, values=list(answer.values))


def checked(state: KillTeamState, action: Choose | Done) -> Question:
    """Refuse a Choose or Done from a player not asked now, to an old question, or with options not
    offered; else the question it answers."""
    asked = questions(state, action.actor)
    if not asked:
        raise RuleError(code=why_not_asked(state, action.actor))
    values = action.values if isinstance(action, Choose) else []
    return check_answer(asked, Answer(actor=action.actor, step=action.step, values=values))


def why_not_asked(state: KillTeamState, actor: int) -> str:
    """The refusal code for a player the game is asking nothing now."""
    public = prompt(state)
    if state.finished:
        return "killteam.finished"
    if public.private or public.sealed:
        return "killteam.waiting_for_opponent"
    if state.decider is not None:
        return "killteam.opponents_choice"
    if state.ordered and actor in state.queue:
        return "killteam.opponents_turn"
    return "killteam.waiting_for_opponent"
