"""What the table shows of a Warcry battle, in the language in force: the board (battleplan and round,
colours, the battleplan's tallies, priority, what decides the battle now, what it waits for) and the
public line for each event.

The rules word the scoreboard, the prompt and every notice once (rules/warcry: `views.scoreboard`,
`views.prompt`, `Notice.text`); this shows them in the reader's language, naming players by mention.
"""

from __future__ import annotations

from bot.chat.messages import Embed
from bot.lang.i18n import Domain, say
from cogs.warcry.cards import COLOUR, DICE, roll_off_text
from cogs.warcry.questions import prompt
from cogs.warcry.vocabulary import NameOf, mention, roll_off
from rules.session import Event
from rules.warcry.events import Notice
from rules.warcry.models import WarcryState
from rules.warcry.views import scoreboard

_ = Domain("warcry")

# The board's "Victory" line in the rounds after the battleplan's last.
EXTRA_ROUND = _.mark(
    "The battle is tied: this extra round is played and the victory card is checked once more at its end. "
    "If nobody has won then, the last warband standing decides."
)
LAST_WARBAND_DECIDES = _.mark(
    "**The last warband standing decides.** The victory card is no longer checked and nothing scores: "
    "the battle ends when a player records that only one warband is left on the battlefield (or concedes "
    "by naming the opponent's warband)."
)


# ---------------------------------------------------------------- the board


def describe(event: Event) -> str | None:
    """One public line for an event (with the dice of a roll-off); None for an event of another game."""
    if not isinstance(event, Notice):
        return None
    text = notice(event)
    return f"{roll_off_text(event.roll_off)}\n{text}" if event.roll_off is not None else text


def board_embed(state: WarcryState) -> Embed:
    """The battle at a glance: battleplan and round, colours, the battleplan's tallies, priority, and
    what decides the battle now (past the extra round: the last warband standing)."""
    a, b = state.players
    card = Embed(
        title=_.p("title", "Warcry: {first} vs {second}", first=state.label_of(a), second=state.label_of(b)),
        colour=COLOUR,
    )
    lines = [say(line) for line in scoreboard(state, mention)]
    if state.battleplan is not None:
        lines[0] = f"**{lines[0]}**"  # the battleplan and round head the board
    priority = state.priority
    dice = f"{DICE} {roll_off(priority)}"
    lines.append(_("Priority: {player} ({dice})", player=mention(priority.winner), dice=dice))
    card.description = "\n".join(lines)
    if not state.finished and state.last_warband_decides:
        card.add(_.p("field", "Victory"), _(LAST_WARBAND_DECIDES))
    elif not state.finished and state.extra_rounds:
        card.add(_.p("field", "Victory"), _(EXTRA_ROUND))
    card.add(_.p("field", "Now"), prompt(state))
    return card


# ---------------------------------------------------------------- what happened


def notice(event: Notice, name_of: NameOf = mention) -> str:
    """One public line for a notice, players named by `name_of` (mentions)."""
    return say(event.named(name_of))
