"""A click answered by redrawing the message it came from: one Discord call where there were two.

A click on a kept message that its step redraws (the board a question rides on, the player's own
DM prompt when it then says, with its "✅", what the player did there) is answered with that
message's new look (the interaction's UPDATE_MESSAGE), not with an ephemeral answer followed by the
outbox's edit of the same message. Only that message is rendered before the answer (pure work from
memory: `redrawn`); the step's other messages are rendered after it, as every step's are, and its
digest is recorded with them, so the outbox finds the message already showing its edit and sends
nothing for it (`bot.chat.sending.shown_digest`). The answer carries the message as Discord's
JSON (`render.message_json`, the layout the outbox's sends are made from too), sent as discord.py's
`edit_message` would send it (`answers.update_clicked`) without its embed and view objects.

A question picked from a DM prompt's menu is shown on that prompt too (`pick_in_place`), so the
click answering it is answered in place in turn.

The ephemeral answer stays where a redraw would lose something or could go wrong: a click on an
ephemeral message (a closed DM's stand-in, a question picked from a menu), a message the step
leaves as it was, a step that tells the player something privately while the message is seen by
all, a living board old enough to be renewed, and any redraw that fails (the step's messages are
then rendered after the answer as before; a failure there holds back only that game's).

Where storing a step waits on the database's answer (PostgreSQL's round trip), the clicked message is
drawn meanwhile (`redraw_clicked`, handed to the step as `while_storing`), so the answer waits on the
longer of the two, not on both: about 0.4 ms off a sealed bid. The drawing is sent only for the step
that was stored; one drawn beside a write that lost a race is dropped and the retry draws again.

What the answer made the message show is recorded only if the message still shows what it showed
before (as this process knew it): if an earlier step's edit reached it meanwhile, the step's own
edit is sent after all. A race costs at most a call, never a stale board.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from bot.chat.answers import update_clicked
from bot.chat.kept import age_of
from bot.chat.limits import RENEW_AGE
from bot.chat.messages import Outgoing
from bot.chat.outbox import Shown
from bot.chat.render import message_json
from bot.chat.sending import shown_digest
from bot.lang.i18n import speaking
from bot.lang.languages import Languages
from bot.play import table
from bot.play.games import GameAdapter, SessionInfo
from bot.play.prompts import picked_dm, player_dms, says_done
from bot.play.table import AutoAnswer
from rules.session import Event, GameState, Question

if TYPE_CHECKING:
    from bot.app import MusterBot
    from bot.play.sessions import StepResult

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Redraw:
    """The clicked message as a step leaves it, rendered while the step is being stored: `key` is
    the kept message's, `message` its new look (None: the answer goes apart)."""

    result: StepResult
    key: str | None = None
    message: Outgoing | None = None
    data: dict[str, Any] | None = None  # the message as Discord's JSON (`render.message_json`)


async def redraw_clicked(interaction: discord.Interaction[Any], result: StepResult) -> Redraw:
    """Render the clicked message's new look for a step not yet known to be stored (pure work, but
    for reading what this process caches): it runs while the step's write is in flight, so the
    answer waits on the longer of the two, not on both (`SessionService.act`'s `while_storing`)."""
    bot: MusterBot = interaction.client  # type: ignore[assignment]
    clicked = interaction.message
    if clicked is None or clicked.flags.ephemeral or interaction.response.is_done():
        return Redraw(result)
    sid = result.info.id
    try:
        key = await bot.delivery.sender.kept_key(sid, clicked.id)
        message = await _redrawn(bot, interaction, result, key) if key is not None else None
        if message is None:
            return Redraw(result, key)
        with speaking(message.language):
            data = message_json(sid, message)
    except Exception:
        log.exception("game %s: the message clicked could not be redrawn; answering apart", sid)
        return Redraw(result)
    return Redraw(result, key, message, data)


async def answer_in_place(
    interaction: discord.Interaction[Any], result: StepResult, redraw: Redraw | None = None
) -> Shown | None:
    """Answer a click by redrawing the kept message it came from, if its step redraws it; returns
    what the message shows now (None: not answered here, the caller answers). `redraw`: that
    message as rendered while the step was stored, if it was rendered for this very step."""
    bot: MusterBot = interaction.client  # type: ignore[assignment]
    if redraw is None or redraw.result is not result:
        redraw = await redraw_clicked(interaction, result)
    sid, key, message, clicked = result.info.id, redraw.key, redraw.message, interaction.message
    kept = bot.delivery.sender.kept.get(sid, key) if message is not None and key is not None else None
    if message is None or key is None or kept is None or clicked is None or kept.message_id != clicked.id:
        return None
    if interaction.response.is_done() or redraw.data is None:
        return None
    try:
        await update_clicked(interaction, redraw.data)
    except discord.HTTPException as exc:
        log.info("game %s: answering in place failed (%s); answering apart", sid, exc)
        return None
    shown = Shown(sid, key, kept.message_id, shown_digest(message), kept.shown)
    bot.delivery.sender.kept.showing(sid, key, shown.shown)  # so the next click's answer knows it
    return shown


async def pick_in_place(
    interaction: discord.Interaction[Any], info: SessionInfo, state: GameState, picked: Question
) -> bool:
    """Show a question picked from a kept DM prompt's menu on that prompt itself (its
    UPDATE_MESSAGE): its choices then answer in place too, and no ephemeral message is left
    stacking up in the DM. False: the caller answers apart (an ephemeral message clicked, a prompt
    not kept here or near its hour, whose few edits an old message gets are left to the outbox,
    choices that don't fit beside the prompt's own, or the update refused).

    A pick changes no state, so the digest kept for the prompt stays the one its last step drew:
    the step that answers the picked question is drawn against it as ever, and any step that
    changes what the prompt shows differs from it and is sent, replacing the pick."""
    bot: MusterBot = interaction.client  # type: ignore[assignment]
    clicked, player = interaction.message, interaction.user.id
    if clicked is None or clicked.flags.ephemeral or interaction.guild_id is not None:
        return False
    if age_of(clicked.id) >= RENEW_AGE:
        return False
    key = await bot.delivery.sender.kept_key(info.id, clicked.id)
    if key is None:
        return False
    languages = await bot.sessions.renderer.languages_of(info)
    with speaking(languages.of(player)):
        look = picked_dm(bot.games.get(info.system), info, state, player, key, picked)
        if look is None:
            return False
        data = message_json(info.id, look)
    try:
        await update_clicked(interaction, data)
    except discord.HTTPException as exc:
        log.info("game %s: showing a pick in place failed (%s); showing it apart", info.id, exc)
        return False
    return True


async def _redrawn(
    bot: MusterBot, interaction: discord.Interaction[Any], result: StepResult, key: str
) -> Outgoing | None:
    """The clicked message `key` as the step leaves it, if the answer may show it."""
    info, actor = result.info, interaction.user.id
    adapter = bot.games.get(info.system)
    if type(adapter).render_step is not GameAdapter.render_step:
        return None  # a game that renders its own way: its messages are only what it renders
    in_dm = interaction.guild_id is None
    if not in_dm and adapter.tells_privately(info, result.state, result.events, actor):
        return None  # the ephemeral answer tells the player what the message can't show everyone
    languages = await bot.sessions.renderer.languages_of(info)
    step = (result.before, result.state, result.events, result.auto)
    message = redrawn(adapter, info, step, languages, key, actor if in_dm else None)
    if message is None or message.upload is not None or message.thread is not None:
        return None
    clicked = interaction.message
    if message.renew_when_old and clicked is not None and age_of(clicked.id) >= RENEW_AGE:
        return None  # the outbox posts it afresh at the bottom instead
    return message


def redrawn(
    adapter: GameAdapter[Any],
    info: SessionInfo,
    step: tuple[GameState | None, GameState, list[Event], list[AutoAnswer] | None],
    languages: Languages,
    key: str,
    player: int | None,
) -> Outgoing | None:
    """The kept message `key` as `table_messages` leaves it after the step (`before, after, events,
    auto`), rendered alone: the board, or one of `player`'s DMs (None: the step leaves it as it
    was, or it is neither). An answer shows it at once, before the step's other messages are
    rendered (`answer_in_place`)."""
    before, after, events, auto = step
    if player is None:
        if key != table.BOARD_KEY:
            return None
        with speaking(languages.table):
            return table.board_after(adapter, info, after, events, auto)[3]
    with speaking(languages.of(player)):
        found = [m for m in player_dms(adapter, info, before, after, events, player) if m.key == key]
    # A DM answers in place only when it then says what the player did there (its "✅" lines); else
    # the answer apart says it (a tool whose question stays asked, if its game ticks nothing for it:
    # `GameAdapter.private_lines`).
    said = found[-1] if found else None
    return said if said is not None and says_done(said) else None
