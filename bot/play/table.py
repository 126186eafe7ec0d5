"""A game at the table: one living board, its questions, and the players' DM prompts, for every game.

A game's adapter says what its board shows and how its events read (`GameAdapter.board`,
`lines`, `private_lines`); this module alone decides what is posted, edited or left alone after a
step, by comparing what the game asked before it with what it asks now:

- the **board** (key `board`) is edited in place: the state at a glance, what just happened (its
  "Latest" lines: what was answered, in the words a closed question's message used to say it),
  who is awaited, and, as its components, the game's optional tools (a tally, a score) and the
  public questions the game **waits on**, each with its words in an embed of its own, as many as
  fit its five component rows and its embeds' room (`_on_board`). A step edits one message in the
  thread, whose edits Discord allows five per five seconds: one action, at most one thread edit;
- a question on the board is announced, when first asked, by a post with no components that pings
  the players it waits for (a post's mentions notify, an edit's don't) and keeps what was asked in
  the thread's story; it is never edited, and the board loses the question's components once it is
  answered, so no dead button stays clickable;
- a public question that does not fit on the board gets a message of its own that pings its
  players, once; when it is answered (or no longer asked, or moved onto the board) that message is
  edited to say what happened ("✅ …") and its components are removed;
- a **private** question is a DM prompt per player (key `dm.<player>.<series or step>`), edited
  when it changes and once answered ("You sealed 3 …"), its components removed (`bot.play.prompts`);
- a question with **one legal answer** is answered for the player (`only_answer`) and the board
  says so; nobody is asked to choose when there is no choice.

Every message goes through the outbox like any other, so edits and posts survive restarts. What
the table shows speaks the table's language, what one player's DMs show speaks theirs
(`bot.lang.languages.Languages`); a question's words are the rules' own `Words`, shown with `say`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from bot.chat.limits import (
    ACTION_ROWS,
    CONTENT,
    EMBED_DESCRIPTION,
    EMBED_TOTAL,
    EMBEDS,
    FIELD_NAME,
    FIELD_VALUE,
)
from bot.chat.messages import Button, Embed, Outgoing, Select
from bot.lang.i18n import Domain, say, speaking
from bot.lang.languages import ENGLISH, Languages
from bot.play.prompts import DONE_MARK as DONE_MARK
from bot.play.prompts import player_dms
from bot.play.questions import components
from rules.dice import Roller
from rules.sealed import ChoiceSealed
from rules.session import Answer, Event, GameState, Procedure, Question
from rules.text import clip, clip_start

if TYPE_CHECKING:
    from bot.play.games import GameAdapter, SessionInfo

BOARD_KEY = "board"
NONCE_CHARS = 64  # a derived nonce, well within an answer's nonce field (rules/session.py)
LATEST_ROOM = FIELD_NAME + FIELD_VALUE  # what a board's "Latest" lines may take of its embeds' room
_ = Domain("muster")


@dataclass(frozen=True)
class AutoAnswer:
    """A question answered for a player because it had one legal answer (worded when shown)."""

    player: int
    question: Question
    value: str

    def said(self, adapter: GameAdapter[Any], state: GameState) -> str:
        asked = self.question
        option = asked.option(self.value)
        return _(
            "{player} had one choice for **{title}**: {answer} (answered for them).",
            player=who(self.player),
            title=asked.title,
            answer=option.label if option is not None else self.value,
        )


def who(player: int) -> str:
    return f"<@{player}>"


# ---------------------------------------------------------------------- what is asked


def public_questions(procedure: Procedure[Any], state: GameState | None) -> dict[str, Question]:
    """Every public question asked now, by its message's key (its series, else its step), with all
    the players it is asked of."""
    if state is None or state.finished:
        return {}
    found: dict[str, Question] = {}
    for player in state.players:
        for asked in procedure.ask(state, player):
            if asked.private:
                continue
            key = asked.series or asked.step
            known = found.get(key)
            if known is None:
                found[key] = asked
            elif known.step == asked.step:
                players = [*known.players, *(p for p in asked.players if p not in known.players)]
                found[key] = replace(known, players=players)
    return found


def waited_for(procedure: Procedure[Any], state: GameState) -> list[tuple[int, Question]]:
    """Who the game waits on now, and for what (optional tools wait for nobody)."""
    if state.finished:
        return []
    return [
        (player, asked)
        for player in state.players
        for asked in procedure.ask(state, player)
        if not asked.optional
    ]


def only_answer(procedure: Procedure[Any], state: GameState) -> tuple[Answer, AutoAnswer] | None:
    """The first awaited question with exactly one legal answer, answered (with what to say)."""
    for player, asked in waited_for(procedure, state):
        if asked.kind == "number" and asked.number is not None:
            if asked.number.minimum == asked.number.maximum:
                value = asked.number.minimum
                answer = Answer(actor=player, step=asked.step, number=value, nonce=_nonce(state, asked))
                return answer, AutoAnswer(player, asked, str(value))
        elif asked.kind == "choose" and asked.min_values <= 1:
            legal = [o for o in asked.options if not o.disabled]
            if len(legal) == 1 and not legal[0].form and len(asked.options) == 1:
                answer = Answer(
                    actor=player, step=asked.step, values=[legal[0].value], nonce=_nonce(state, asked)
                )
                return answer, AutoAnswer(player, asked, legal[0].value)
    return None


def _nonce(state: GameState, asked: Question) -> str:
    """A sealed answer made for a player needs a nonce like any other; it hides nothing (the only
    legal answer is known to both), so it is derived rather than drawn."""
    return f"only.{state.session_id}.{asked.step}"[:NONCE_CHARS]


# ---------------------------------------------------------------------- the messages of a step


def table_messages(
    adapter: GameAdapter[Any],
    info: SessionInfo,
    before: GameState | None,
    after: GameState,
    events: list[Event],
    auto: list[AutoAnswer] | None = None,
    languages: Languages = ENGLISH,
) -> list[Outgoing]:
    """What to post and edit after a step from `before` (None: the game just started) to `after`:
    the table's messages in its language, each player's DMs in theirs."""
    with speaking(languages.table):
        out, dm_moments = _table_part(adapter, info, before, after, events, auto)
    for player in after.players:
        mine = [m for m in dm_moments if m.user_id == player]
        if mine and languages.of(player) != languages.table:
            with speaking(languages.of(player)):
                again = adapter.moments(info, after, events)
            mine = [m for m in again if m.to == "dm" and m.user_id == player]
        out[1:1] = mine  # a hand in DMs: after the board, before the questions
    for player in after.players:
        with speaking(languages.of(player)):
            out.extend(player_dms(adapter, info, before, after, events, player))
    return out


def _table_part(
    adapter: GameAdapter[Any],
    info: SessionInfo,
    before: GameState | None,
    after: GameState,
    events: list[Event],
    auto: list[AutoAnswer] | None,
) -> tuple[list[Outgoing], list[Outgoing]]:
    """The table's messages after a step, and the step's DM moments (in the table's language)."""
    procedure = adapter.procedure
    lines, new, on_board, board = board_after(adapter, info, after, events, auto)
    moments: list[Outgoing] = []
    # A moment for another channel never rides on a thread's question, nor does a keyed one (a
    # record of its own, such as a reveal: a question's message is redrawn as the question changes).
    apart: list[Outgoing] = []
    # A keyed record at the table (a reveal) may ride only on a post that is never edited: the one
    # announcing a question on the board.
    records: list[Outgoing] = []
    dm_moments: list[Outgoing] = []  # a player's hand: rendered in their language
    for moment in adapter.moments(info, after, events):
        if moment.to == "dm" and moment.user_id in after.players:
            dm_moments.append(moment)
        elif moment.to == "channel" and moment.channel_id is None:
            (moments if moment.key is None else records).append(moment)
        else:
            apart.append(moment)
    old = public_questions(procedure, before)
    old_board = _on_board(adapter, info, before, old)
    out: list[Outgoing] = [board]
    own_old = {step: q for step, q in old.items() if step not in old_board}
    own_new = {step: q for step, q in new.items() if step not in on_board}
    for step, asked in own_old.items():
        if step not in own_new:  # answered, no longer asked, or now on the board: nothing left to click
            out.append(closed_question(adapter, asked, lines))
    for step, asked in own_new.items():
        if step not in own_old:
            # What led to a new question (a reveal) rides on it, so the thread reads in order.
            context = [e for moment in moments for e in moment.embeds]
            ping = not asked.optional and step not in old
            out.append(question_message(adapter, after, asked, ping=ping, context=context))
            moments = []
        elif asked != own_old[step]:
            out.append(question_message(adapter, after, asked, ping=False))
    for step in on_board:
        asked = new[step]
        if step not in old and not asked.optional:
            context = [e for moment in [*records, *moments] for e in moment.embeds]
            out.append(asked_on_board(adapter, after, asked, context))
            moments, records = [], []
    # Not taken by a question: posted on their own, after the board.
    out[1:1] = [*moments, *records, *apart]
    return out, dm_moments


def board_after(
    adapter: GameAdapter[Any],
    info: SessionInfo,
    after: GameState,
    events: list[Event],
    auto: list[AutoAnswer] | None,
) -> tuple[list[str], dict[str, Question], list[str], Outgoing]:
    """The board a step leaves, with what it is made of: the step's lines, the public questions
    (by step) and those of them on the board."""
    lines = adapter.lines(info, after, events) + [a.said(adapter, after) for a in auto or []]
    new = public_questions(adapter.procedure, after)
    on_board = _on_board(adapter, info, after, new)
    return lines, new, on_board, board_message(adapter, info, after, lines, [new[step] for step in on_board])


def _on_board(
    adapter: GameAdapter[Any], info: SessionInfo, state: GameState | None, asked: dict[str, Question]
) -> list[str]:
    """The public questions (by step) shown on the board itself: the optional tools first, then the
    questions the game waits on, as many as fit its five component rows and its embeds' room.

    A question on the board is never a message of its own to edit: a step that changes it, closes
    it or changes the board edits one message, so one action makes at most one edit in its thread
    (whose edits Discord allows five per five seconds). Its players are pinged by a post when it is
    first asked (`asked_on_board`); a question that doesn't fit gets its own message as before.
    The room is counted from the state alone (the board without its "Latest" lines, with room kept
    for them), so the next step, knowing only this state, finds the same questions on the board."""
    if state is None or not asked:
        return []
    board = board_message(adapter, info, state, [], [])
    fitted: list[str] = []
    rows = 0
    room = EMBED_TOTAL - embed_chars(board.embeds) - LATEST_ROOM
    embeds = EMBEDS - len(board.embeds)
    ordered = [s for s, q in asked.items() if q.optional] + [s for s, q in asked.items() if not q.optional]
    for step in ordered:
        question = asked[step]
        buttons, selects = components(question)
        needed = len(selects) + -(-len(buttons) // 5)
        if rows + needed > ACTION_ROWS:
            continue
        if not question.optional:
            size = embed_chars([question_embed(adapter, state, question)])
            if size > room or embeds < 1:
                continue
            room, embeds = room - size, embeds - 1
        fitted.append(step)
        rows += needed
    return fitted


def embed_chars(embeds: list[Embed]) -> int:
    """What Discord counts towards a message's 6,000 characters of embeds."""
    total = 0
    for embed in embeds:
        total += len(embed.title or "") + len(embed.description or "") + len(embed.footer or "")
        total += sum(len(f.name) + len(f.value) for f in embed.fields)
    return total


def board_message(
    adapter: GameAdapter[Any], info: SessionInfo, state: GameState, lines: list[str], tools: list[Question]
) -> Outgoing:
    """The living board: the game's own view, then what just happened and who is awaited."""
    board = adapter.board(info, state)
    if lines:
        board.add(_.p("field", "Latest"), clip_start("\n".join(lines), FIELD_VALUE))
    waiting = _waiting_lines(adapter, state)
    if waiting:
        board.add(_.p("field", "Waiting for"), clip_start("\n".join(waiting), FIELD_VALUE))
    buttons: list[Button] = []
    selects: list[Select] = []
    asking = [question_embed(adapter, state, q) for q in tools if not q.optional]
    for asked in tools:
        more_buttons, more_selects = components(asked)
        buttons += more_buttons
        selects += more_selects
    return Outgoing(
        key=BOARD_KEY, embeds=[board, *asking], buttons=buttons, selects=selects, renew_when_old=True
    )


def _waiting_lines(adapter: GameAdapter[Any], state: GameState) -> list[str]:
    lines: dict[int, list[str]] = {}
    for player, asked in waited_for(adapter.procedure, state):
        title = say(asked.title)
        lines.setdefault(player, []).append(_("{title} (in DMs)", title=title) if asked.private else title)
    return [f"{who(p)}: {'; '.join(titles)}" for p, titles in lines.items()]


def question_message(
    adapter: GameAdapter[Any],
    state: GameState,
    asked: Question,
    *,
    ping: bool,
    context: list[Embed] | None = None,
) -> Outgoing:
    """A public question's own message: posted (pinging the players it waits for) when it is new,
    edited when it changes (an edit pings nobody). `context` (a reveal that led to it) comes first."""
    buttons, selects = components(asked)
    question = question_embed(adapter, state, asked)
    return Outgoing(
        key=f"ask.{asked.series or asked.step}",
        content=" ".join(who(p) for p in asked.players) if ping else "",
        pings=list(asked.players) if ping else [],
        embeds=[*(context or []), question],
        buttons=buttons,
        selects=selects,
    )


def question_embed(adapter: GameAdapter[Any], state: GameState, asked: Question) -> Embed:
    """A question's words, the same on its own message, on the board and on the post announcing it."""
    return Embed(
        description=clip(adapter.question_text(state, asked), EMBED_DESCRIPTION), colour=adapter.colour
    )


def asked_on_board(
    adapter: GameAdapter[Any], state: GameState, asked: Question, context: list[Embed]
) -> Outgoing:
    """The post that tells the players a question on the board waits for them: it pings them (a
    post's mentions notify; an edit's don't) and keeps what was asked, and what led to it, in the
    thread's story. It has nothing to click (the board has) and is never edited, so it costs no
    edit when the question is answered."""
    return Outgoing(
        content=" ".join(who(p) for p in asked.players),
        pings=list(asked.players),
        embeds=[*context, question_embed(adapter, state, asked)],
    )


def closed_question(adapter: GameAdapter[Any], asked: Question, lines: list[str]) -> Outgoing:
    """A question no longer asked: its message keeps what it asked and says what happened, with no
    components left (its pings are replaced; an edit pings nobody)."""
    said = "\n".join(lines) or _("Answered.")
    return Outgoing(
        key=f"ask.{asked.series or asked.step}",
        edit_only=True,
        keep_embeds=True,
        content=clip_start(f"{DONE_MARK} {said}", CONTENT),
    )


def sealed_line(
    events: list[Event], player: int, shown: str | None = None, label: str | None = None
) -> str | None:
    """What a player's DM prompt says once they have sealed: what (`label`, else the seal's own),
    and the commitment to check."""
    sealed = next((e for e in events if isinstance(e, ChoiceSealed) and e.player == player), None)
    if sealed is None:
        return None
    commitment = f"`{sealed.commitment}`"
    label = sealed.label if label is None else label
    if shown:
        return _(
            "You sealed **{choice}** for the {label}. Commitment: {commitment}",
            choice=shown,
            label=label,
            commitment=commitment,
        )
    return _("You sealed for the {label}. Commitment: {commitment}", label=label, commitment=commitment)


MAX_AUTO_ANSWERS = 16


def answer_the_only_choices(
    adapter: GameAdapter[Any], state: Any, events: list[Event], roller: Roller
) -> tuple[Any, list[Event], list[AutoAnswer]]:
    """Answer, for the players, every awaited question that has one legal answer (a bid with no
    tokens to bid is 0): nobody is asked to choose when there is nothing to choose."""
    auto: list[AutoAnswer] = []
    procedure = adapter.procedure
    for _attempt in range(MAX_AUTO_ANSWERS if adapter.answers_only_choices else 0):
        found = only_answer(procedure, state)
        if found is None:
            break
        answer, said = found
        state, more = procedure.answer(state, answer, roller)
        events = [*events, *more]
        auto.append(said)
    return state, events, auto
