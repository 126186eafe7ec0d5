"""Pick's living board and the lines its events read as, in the language in force."""

from __future__ import annotations

from bot.chat.messages import Embed
from bot.lang.i18n import Domain
from cogs.pick.vocabulary import TITLE, mention
from rules.pick.events import Decided, DrawAnswered, DrawCalled
from rules.pick.models import PickState
from rules.pick.views import draw_called_by, picked
from rules.sealed import ChoiceSealed, ChoicesRevealed
from rules.session import Event

_ = Domain("pick")
COLOUR = 0x9B59B6


def board_embed(state: PickState) -> Embed:
    """Who has picked (never what), and a draw call that waits."""
    a, b = state.players
    lines = [_("{player} has picked", player=mention(p)) for p in picked(state)]
    if not lines and not state.finished:
        lines = [_("Nobody has picked yet.")]
    caller = draw_called_by(state)
    if caller is not None:
        lines.append(_("{player} calls the game a draw.", player=mention(caller)))
    if state.drawn:
        lines.append(_("The game is a draw, agreed by both players."))
    title = _.p("title", "{game}: {first} vs {second}", game=TITLE, first=mention(a), second=mention(b))
    return Embed(title=title, description="\n".join(lines), colour=COLOUR)


def _revealed(event: ChoicesRevealed) -> str:
    picks = [
        _(
            "{player} picked {choice} (nonce {nonce})",
            player=mention(e.player),
            choice=e.choice,
            nonce=f"`{e.nonce}`",
        )
        for e in event.entries
    ]
    return _("Revealed:") + "\n" + "\n".join(picks)


def _decided(event: Decided) -> str:
    if event.winner is None:
        return _("Equal picks: the game is a draw.")
    return _("{player} wins with {pick}.", player=mention(event.winner), pick=event.picks[event.winner])


def _answered(event: DrawAnswered) -> str:
    if event.agreed:
        return _("{player} confirmed: the game is a draw.", player=mention(event.player))
    return _("{player} said not yet: the game goes on.", player=mention(event.player))


def describe(event: Event) -> str | None:
    """One event's line for the board's "Latest" (None: nothing worth saying)."""
    if isinstance(event, ChoiceSealed):
        return _(
            "{player} has sealed their pick {commitment}",
            player=mention(event.player),
            commitment=f"`{event.commitment}`",
        )
    if isinstance(event, ChoicesRevealed):
        return _revealed(event)
    if isinstance(event, Decided):
        return _decided(event)
    if isinstance(event, DrawCalled):
        return _("{player} calls the game a draw: it waits for a Confirm.", player=mention(event.by))
    if isinstance(event, DrawAnswered):
        return _answered(event)
    return None
