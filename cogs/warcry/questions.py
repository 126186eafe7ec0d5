"""What a Warcry question's message says under its title (`QUESTION_TEXT`, by topic), and the
battle's one line of what it waits for (`prompt`, the board's "Now"), in the language in force.

The rules word every question and the prompt themselves (rules/warcry/questions.py, views.py) as
`Words`; the bot shows them in each reader's language.
"""

from __future__ import annotations

from bot.lang.i18n import Domain, say
from cogs.warcry.vocabulary import NameOf, mention
from rules.warcry import views
from rules.warcry.models import WarcryState

_ = Domain("warcry")


# What a question's message says under its title, by topic (the title is the battle's own).
QUESTION_TEXT: dict[str, str] = {
    "warcry.split": _.mark(
        "Type how many fighters go in each battle group. The player who lost the priority roll splits first."
    ),
    "warcry.colour": _.mark("The winner of the priority roll picks the deployment points."),
    "warcry.deploy": _.mark(
        "Set up each battle group at its deployment point, taking turns; press the button once it is set up."
    ),
    "warcry.begin": _.mark(
        "Place the objectives and treasure the battleplan shows, then either player begins the battle."
    ),
    "warcry.end_round": _.mark(
        "Record the round on the board as you play; press this when the round is over. The other player "
        "confirms (or you confirm your own)."
    ),
    "warcry.confirm": _.mark(
        "Either player answers: the other player confirms, or the player who pressed it confirms their "
        "own. Not yet leaves everything as it was."
    ),
    "warcry.remove": _.mark("The battle waits for this before the next battle round."),
    "warcry.claim": _.mark("Confirm if only their fighters are left on the battlefield; they then win."),
}


def prompt(state: WarcryState, name_of: NameOf = mention) -> str:
    """One line: what the battle waits for now."""
    return say(views.prompt(state, name_of))
