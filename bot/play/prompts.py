"""A player's DM prompts at a game's table: one per private series (key `dm.<player>.<series or
step>`), posted when it is first asked, edited as its questions change and once they are all
answered ("✅ You sealed 3 …"), its components removed so no dead button stays clickable. The
table (`bot.play.table`) calls `player_dms` after every step, in the player's own language.

The questions of one series asked at once share that series' one message (a player's turn: each
card they may lay, and passing), so a step edits one message rather than one per question. When
several questions are alike (each card one may lay), they are listed in one menu (`picker`)
instead of showing their components: picking one shows that question, with its own components,
on the prompt itself where they fit (`picked_dm`, for `bot.play.in_place.pick_in_place`), else to
the player alone (`bot.chat.router.on_pick`): one call, only when it is wanted.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from bot.chat.limits import ACTION_ROWS, EMBED_DESCRIPTION, ROW_BUTTONS, SELECT_OPTION_TEXT, SELECT_OPTIONS
from bot.chat.messages import Button, Embed, Outgoing, Select, SelectOption
from bot.lang.i18n import Domain, say
from bot.play.questions import components
from rules.session import Event, GameState, Procedure, Question
from rules.text import clip, clip_start

if TYPE_CHECKING:
    from bot.play.games import GameAdapter, SessionInfo

DONE_MARK = "✅"
_ = Domain("muster")
Group = list[Question]


def private_questions(procedure: Procedure[Any], state: GameState | None, player: int) -> dict[str, Group]:
    """A player's private questions now, by their DM prompt's key (their series, else their step),
    in the order asked."""
    if state is None or state.finished:
        return {}
    found: dict[str, Group] = {}
    for asked in procedure.ask(state, player):
        if asked.private:
            found.setdefault(asked.series or asked.step, []).append(asked)
    return found


def shown_and_listed(group: Group) -> tuple[Group, Group]:
    """Which questions of a message show their own components, and which are listed in its picker:
    questions alike (of one topic, such as each card a player may lay) are listed when there are
    several, as their components alone would not say which one they answer."""
    topics = Counter(q.topic for q in group)
    listed = [q for q in group if topics[q.topic] > 1][:SELECT_OPTIONS]
    return [q for q in group if topics[q.topic] == 1], listed


def picker(listed: Group) -> Select:
    """The menu that lists questions by their title and words; a pick shows the one picked."""
    return Select(
        step=listed[0].step,
        pick=True,
        placeholder=_.p("placeholder", "Pick one to see its choices…"),
        options=[
            SelectOption(
                label=say(q.title),
                value=q.step,
                description=clip(say(q.text), SELECT_OPTION_TEXT) or None,
            )
            for q in listed
        ],
    )


def player_dms(
    adapter: GameAdapter[Any],
    info: SessionInfo,
    before: GameState | None,
    after: GameState,
    events: list[Event],
    player: int,
) -> list[Outgoing]:
    """A player's DM prompts after a step: each series' message closed once nothing of it is asked
    ("✅" and what they did), posted when new, edited when what it asks changed (saying first what
    the player just did there); the step's private lines once."""
    procedure = adapter.procedure
    mine = adapter.private_lines(info, after, player, events)
    header = adapter.dm_header(info, after, player)
    if header is not None:
        return headed_dm(adapter, info, before, after, events, player, header, mine)
    old, new = private_questions(procedure, before, player), private_questions(procedure, after, player)
    out: list[Outgoing] = []
    for key, group in old.items():
        if key not in new:
            # The step's private lines go out once, in a new message below (they are not repeated here).
            text = "\n".join(_answered(adapter, info, after, player, group, events, [])) or DONE_MARK
            out.append(
                _dm(adapter, info, player, text, key=f"dm.{player}.{key}", edit_only=True, header=False)
            )
    fresh = [key for key in new if key not in old]
    for index, key in enumerate(fresh):
        text = _group_text(adapter, after, new[key])
        if index == 0 and mine:
            text = "\n".join(mine) + "\n\n" + text
        # One "Open my secret prompt" button per step is enough when DMs are closed: it shows the
        # player's whole prompt.
        out.append(_dm(adapter, info, player, text, new[key], key=f"dm.{player}.{key}", secret=index == 0))
    for key, group in new.items():
        if key in old and group != old[key]:  # a series moved on, or its options changed
            done = _answered(adapter, info, after, player, old[key], events, group)
            text = "\n\n".join([*done, _group_text(adapter, after, group)])
            out.append(_dm(adapter, info, player, text, group, key=f"dm.{player}.{key}", edit_only=True))
    if mine and not fresh:
        out.append(_dm(adapter, info, player, "\n".join(mine), secret=True))
    return out


def picked_dm(
    adapter: GameAdapter[Any], info: SessionInfo, state: GameState, player: int, key: str, picked: Question
) -> Outgoing | None:
    """`player`'s DM prompt `key` as the game stands, with a question picked from its menu shown in
    it (its words, and its components under the menu): the pick answered on the message itself
    rather than by an ephemeral message (bot/play/in_place.py `pick_in_place`). None when `picked`
    isn't listed there, or its components don't fit beside the message's own."""
    header = adapter.dm_header(info, state, player)
    if header is not None:
        group = _everything(adapter.procedure, state, player) if header.key == key else []
    else:
        groups = private_questions(adapter.procedure, state, player)
        group = next((g for k, g in groups.items() if f"dm.{player}.{k}" == key), [])
    if picked not in shown_and_listed(group)[1]:
        return None
    text = "\n\n".join([_group_text(adapter, state, group), adapter.question_text(state, picked)])
    look = _dm(adapter, info, player, text, group, picked=picked, key=key)
    rows = len(look.selects) + -(-len(look.buttons) // ROW_BUTTONS)
    # as `bot.chat.render.components_json` lays them out
    if rows > ACTION_ROWS or len(look.selects) >= ACTION_ROWS:
        return None
    return look if header is None else _under_header(header, player, look)


def _everything(procedure: Procedure[Any], state: GameState | None, player: int) -> Group:
    return [q for group in private_questions(procedure, state, player).values() for q in group]


def headed_dm(
    adapter: GameAdapter[Any],
    info: SessionInfo,
    before: GameState | None,
    after: GameState,
    events: list[Event],
    player: int,
    header: Outgoing,
    mine: list[str],
) -> list[Outgoing]:
    """A player's one living DM (`GameAdapter.dm_header`): their header (a hand), then what they
    just did and every private question asked of them, posted at the deal and edited only when
    what it shows changed; at the end, the header and what they did, with nothing left to click."""
    old, new = _everything(adapter.procedure, before, player), _everything(adapter.procedure, after, player)
    done = _answered(adapter, info, after, player, old, events, new) if old else []
    if before is not None and not done and not mine and new == old:
        was = adapter.dm_header(info, before, player)
        if was is not None and was.embeds == header.embeds and was.content == header.content:
            return []  # nothing it shows changed
    text = "\n\n".join([*mine, *done, *([_group_text(adapter, after, new)] if new else [])])
    asked = _dm(adapter, info, player, text, new) if text else None
    # A question the game now waits on (their turn) may post it: with the player's DMs closed, that
    # puts an "Open my secret prompt" button at the table, as a fresh prompt would; else it edits.
    waits = before is None or any(not q.optional and q.step not in {o.step for o in old} for q in new)
    return [_under_header(header, player, asked, secret=waits, edit_only=not waits)]


def _under_header(header: Outgoing, player: int, asked: Outgoing | None, **fields: Any) -> Outgoing:
    """The player's one living DM: their header (a hand), with `asked`'s words and components under
    it. Edited all game long, it would outlive the few edits Discord allows a message over an hour
    old, so it is posted afresh at the bottom of the DM instead (`renew_when_old`)."""
    changes: dict[str, Any] = {
        "to": "dm",
        "user_id": player,
        "embeds": [*header.embeds, *(asked.embeds if asked else [])],
        "buttons": asked.buttons if asked else [],
        "selects": asked.selects if asked else [],
        "renew_when_old": True,
    }
    return replace(header, **(changes | fields))


def says_done(message: Outgoing) -> bool:
    """Whether a DM's embeds hold a "✅" line (what the player did there). Read from the embeds'
    text itself: it is asked on a click's path, where serialising the message would cost more."""
    for embed in message.embeds:
        fields = (text for field in embed.fields for text in (field.name, field.value))
        if any(
            text and DONE_MARK in text for text in (embed.title, embed.description, embed.footer, *fields)
        ):
            return True
    return False


def _answered(
    adapter: GameAdapter[Any],
    info: SessionInfo,
    state: GameState,
    player: int,
    old: Group,
    events: list[Event],
    still: Group,
) -> list[str]:
    """What the player did with the questions of a message that are no longer asked (a listed one
    is said by the question it was one choice of, such as their turn)."""
    asked_now = {q.topic for q in still}  # a question that moved on is still asked
    _shown, listed = shown_and_listed(old)
    said = []
    for asked in old:
        if asked.topic in asked_now or (asked in listed and len(old) > 1):
            continue
        answer = adapter.answered_privately(info, state, player, asked, events) or _("Answered.")
        said.append(f"{DONE_MARK} **{say(asked.title)}**\n{answer}")
    if not said and not still and old:
        answer = adapter.answered_privately(info, state, player, old[0], events) or _("Answered.")
        said.append(f"{DONE_MARK} **{say(old[0].title)}**\n{answer}")
    return said


def _group_text(adapter: GameAdapter[Any], state: GameState, group: Group) -> str:
    shown, _listed = shown_and_listed(group)
    return "\n\n".join(adapter.question_text(state, q) for q in shown or group[:1])


def _dm(
    adapter: GameAdapter[Any],
    info: SessionInfo,
    player: int,
    text: str,
    asked: Group | None = None,
    *,
    header: bool = True,
    picked: Question | None = None,
    **fields: Any,
) -> Outgoing:
    """A message to `player`'s DMs: `text` in the game's colour, `asked`'s components (with those of
    `picked`, one of its listed questions, under their menu), and (with `header`) a line naming the
    game and where it is played."""
    buttons: list[Button] = []
    selects: list[Select] = []
    if asked:
        shown, listed = shown_and_listed(asked)
        for question in [*([picked] if picked in listed else []), *shown]:
            more_buttons, more_selects = components(question)
            buttons += more_buttons
            selects += more_selects
        if listed:
            selects.insert(0, picker(listed))
    return Outgoing(
        to="dm",
        user_id=player,
        content=_("{game} in {table}", game=adapter.title, table=f"<#{info.table_id}>") if header else "",
        embeds=[Embed(description=clip_start(text, EMBED_DESCRIPTION), colour=adapter.colour)],
        buttons=buttons,
        selects=selects,
        **fields,
    )
