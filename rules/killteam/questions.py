"""Kill Team's side of the prompt contract: what a player is asked (`ask`: their private question,
else the table's, after a request to end the game), which checked answer is which action
(`to_action`), and the one check every Choose or Done goes through, from a click or from
`Procedure.answer`.
"""

from __future__ import annotations

from rules import confirmation
from rules.confirmation import Request
from rules.errors import RuleError
from rules.killteam.actions import (
    Choose,
    Done,
    EndGame,
    EndTurningPoint,
    SealBid,
    SealScouting,
    SetBattleReady,
)
from rules.killteam.models import KillTeamState, bid_contest
from rules.killteam.options import BATTLE_END, BATTLE_READY
from rules.killteam.private import private_prompt
from rules.killteam.prompts import prompt
from rules.session import Action, Answer, Question, check_answer
from rules.words import Marker

N_ = Marker("killteam")


def end_question(state: KillTeamState, pending: Request[EndGame]) -> Question:
    """A request to end the game, asked of both: the other player confirms, or its player confirms
    their own; Not yet from either withdraws it."""
    return confirmation.question(
        pending,
        state.players,
        prefix="end.",
        topic="killteam.end",
        title=N_("End the game now?"),
        text=N_(
            "Ending the game can't be undone; the higher total wins. The other player confirms, or the "
            "player who asked may confirm their own. Not yet withdraws the request and play goes on."
        ),
    )


def questions(state: KillTeamState, player: int) -> list[Question]:
    """Every question `player` can answer now: their private one, else the public one if it is
    theirs (a public question answered in private is never answered in the channel).

    While a request to end the game waits, its confirmation comes first; the other questions stay
    asked (their messages and DM prompts stay up) but answers to them are refused until it is
    answered, which changes nothing else.
    """
    if state.finished or player not in state.players:
        return []
    end = [end_question(state, state.pending)] if state.pending is not None else []
    private = private_prompt(state, player)
    if private is not None:
        return [*end, private]
    public = prompt(state)
    return [*end, public] if player in public.players and not public.private else end


def prompt_for(state: KillTeamState, player: int) -> Question | None:
    """The question `player` can answer now, if any."""
    asked = questions(state, player)
    return asked[0] if asked else None


def awaiting(state: KillTeamState) -> list[int]:
    """Players whose sealed or private answer the game waits for (for reminders)."""
    if state.finished:
        return []
    if state.stage in ("bid", "tac_bid"):
        contest = bid_contest(state)
        return contest.sealed.waiting_for() if contest and contest.sealed else []
    if state.stage == "scouting" and state.scouting:
        return state.scouting.waiting_for()
    if state.stage == "tac_private":
        return [p for p in state.players if state.tac.drafts.get(p) and state.tac.drafts[p].phase != "done"]
    return []


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
