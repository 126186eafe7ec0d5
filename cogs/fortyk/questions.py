"""The words on each 40K question's message, beyond the question itself.

The rules (rules/fortyk/questions.py) word every question: its title, text, options and form fields,
shown in the reader's language by `say`. Here is what the rules don't word: who is asked, by mention
(which needs Discord), the battle message's heading that follows the turns, who has deployed, and why
a shown option can't be taken now.
"""

from __future__ import annotations

from bot.lang.i18n import Domain, say
from cogs.fortyk.vocabulary import who
from rules.fortyk.models import FortyKState
from rules.fortyk.questions import DEPLOYED, TURN
from rules.session import Question

_ = Domain("fortyk")


def question_text(state: FortyKState, asked: Question) -> str:
    """A question's message: what is asked and of whom (named, not pinged: the table pings once, when
    the message is posted), and why a shown option can't be taken now. The battle's one message
    follows the turns, so it says whose turn it is first."""
    asking = ", ".join(who(p) for p in asked.players)
    lines = [f"**{say(asked.title)}** · {asking}", say(asked.text)]
    if asked.topic == TURN:
        lines = [
            _(
                "**Battle round {round}: {player}'s turn**",
                round=state.round,
                player=who(state.active_player),
            ),
            _(
                "Mark a unit before moving: a marked unit is worth its bonus only in the turn it was marked. "
                "Record kills with the board's button as they happen; press End turn when your turn is over."
            ),
        ]
    elif asked.topic == DEPLOYED:
        lines.append(
            _("{player} sets up a unit first; then take turns unit by unit.", player=who(state.deploys_first))
        )
        lines += [_("{player} has finished deploying.", player=who(p)) for p in state.setup_done]
    lines += [
        f"• {say(o.label)}: {say(o.description)}" for o in asked.options if o.disabled and o.description
    ]
    return "\n".join(line for line in lines if line)
