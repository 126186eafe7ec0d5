"""What Pick's questions need beyond the rules' own words (rules/pick/questions.py words each
question as `Words`, shown in the reader's language by `say`): the words of a question's message,
what a DM prompt shows on demand, and what it says once answered."""

from __future__ import annotations

from bot.chat.messages import Reply
from bot.lang.i18n import Domain, say
from bot.play.questions import components
from cogs.pick.vocabulary import mention
from rules.pick.models import PickState
from rules.pick.procedure import PROCEDURE
from rules.pick.questions import CONFIRM_DRAW, PICK
from rules.sealed import ChoiceSealed
from rules.session import Event, Question

_ = Domain("pick")


def question_text(state: PickState, asked: Question) -> str:
    """A question's message: its title, who called a draw (on its confirmation), and its text."""
    lines = [f"**{say(asked.title)}**"]
    if asked.topic == CONFIRM_DRAW and state.confirmation.pending is not None:
        lines.append(_("{player} asked for it.", player=mention(state.confirmation.pending.by)))
    if asked.text:
        lines.append(say(asked.text))
    return "\n".join(lines)


def sealed_text(events: list[Event], player: int, choice: str | None) -> str | None:
    """A DM prompt once its pick is sealed: what was sealed, and the commitment to check it by."""
    sealed = next((e for e in events if isinstance(e, ChoiceSealed) and e.player == player), None)
    if sealed is None or choice is None:
        return None
    return _(
        "You sealed **{choice}** for your pick. Commitment: {commitment}",
        choice=choice,
        commitment=f"`{sealed.commitment}`",
    )


def private_prompt(state: PickState, player: int) -> Reply | None:
    """The player's pick on demand (a closed DM's stand-in): asked, or what they picked."""
    entry = state.round.entries.get(player)
    if entry is not None:
        return Reply(content=_("You picked {choice}; waiting for the reveal.", choice=entry.choice))
    asked = [q for q in PROCEDURE.ask(state, player) if q.topic == PICK]
    if not asked:
        return None
    buttons, selects = components(asked[0])
    return Reply(content=f"{say(asked[0].title)}:", buttons=buttons, selects=selects)
