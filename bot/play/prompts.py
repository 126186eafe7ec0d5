"""A player's DM prompts at a game's table: one per private question (key
`dm.<player>.<series or step>`), posted when it is first asked, edited as its series moves on and
once answered ("✅ You sealed 3 …"), its components removed so no dead button stays clickable. The
table (`bot.play.table`) calls `player_dms` after every step, in the player's own language."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.chat.limits import EMBED_DESCRIPTION
from bot.chat.messages import Embed, Outgoing
from bot.lang.i18n import Domain, say
from bot.play.questions import components
from rules.session import Event, GameState, Procedure, Question
from rules.text import clip_start

if TYPE_CHECKING:
    from bot.play.games import GameAdapter, SessionInfo

DONE_MARK = "✅"
_ = Domain("muster")


def private_questions(procedure: Procedure[Any], state: GameState | None, player: int) -> dict[str, Question]:
    """A player's private questions now, by their DM prompt's key (their series, else their step)."""
    if state is None or state.finished:
        return {}
    return {q.series or q.step: q for q in procedure.ask(state, player) if q.private}


def player_dms(
    adapter: GameAdapter[Any],
    info: SessionInfo,
    before: GameState | None,
    after: GameState,
    events: list[Event],
    player: int,
) -> list[Outgoing]:
    """A player's DM prompts after a step: each private question closed ("✅" and what they did),
    posted when new, edited as its series moves on; the step's private lines once."""
    procedure = adapter.procedure
    old, new = private_questions(procedure, before, player), private_questions(procedure, after, player)
    mine = adapter.private_lines(info, after, player, events)
    out: list[Outgoing] = []
    for key, asked in old.items():
        if key not in new:
            # The step's private lines go out once, in a new message below (they are not repeated here).
            said = adapter.answered_privately(info, after, player, asked, events) or _("Answered.")
            text = f"{DONE_MARK} **{say(asked.title)}**\n{said}"
            out.append(
                _dm(adapter, info, player, text, key=f"dm.{player}.{key}", edit_only=True, header=False)
            )
    fresh = [(key, q) for key, q in new.items() if key not in old]
    for index, (key, raw) in enumerate(fresh):
        asked = raw
        text = adapter.question_text(after, asked)
        if index == 0 and mine:
            text = "\n".join(mine) + "\n\n" + text
        # One "Open my secret prompt" button per step is enough when DMs are closed: it shows the
        # player's whole prompt.
        out.append(_dm(adapter, info, player, text, asked, key=f"dm.{player}.{key}", secret=index == 0))
    for key, asked in new.items():
        if key in old and asked != old[key]:  # a series moved on, or its options changed
            asked = asked
            text = adapter.question_text(after, asked)
            out.append(_dm(adapter, info, player, text, asked, key=f"dm.{player}.{key}", edit_only=True))
    if mine and not fresh:
        out.append(_dm(adapter, info, player, "\n".join(mine), secret=True))
    return out


def _dm(
    adapter: GameAdapter[Any],
    info: SessionInfo,
    player: int,
    text: str,
    asked: Question | None = None,
    *,
    header: bool = True,
    **fields: Any,
) -> Outgoing:
    """A message to `player`'s DMs: `text` in the game's colour, `asked`'s components, and (with
    `header`) a line naming the game and where it is played."""
    buttons, selects = components(asked) if asked is not None else ([], [])
    return Outgoing(
        to="dm",
        user_id=player,
        content=_("{game} in {table}", game=adapter.title, table=f"<#{info.table_id}>") if header else "",
        embeds=[Embed(description=clip_start(text, EMBED_DESCRIPTION), colour=adapter.colour)],
        buttons=buttons,
        selects=selects,
        **fields,
    )
