"""How the platform plays Warmaster (bot/play/table.py): the game dealt, each question's message,
the board and lines after a step, the acting player's reply, and each
player's secret hand heading their one living DM, edited as the game goes on, with their turn's
cards listed in its menu (each card's targets shown when picked) and their tools.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.chat.limits import ACTION_ROWS, CONTENT, ROW_BUTTONS
from bot.chat.messages import Button, Embed, Outgoing, Reply, Select
from bot.lang.i18n import Domain, Value
from bot.play.games import SUMMARY, GameAdapter, PackSpec, SessionInfo
from bot.play.prompts import DONE_MARK
from bot.play.questions import components
from cogs.warmaster import refusals  # noqa: F401  (the refusal codes' words, registered on import)
from cogs.warmaster.board import (
    COLOUR,
    add_lines,
    board_embed,
    event_text,
    loss_line,
    pending_text,
    public_line,
    revealed_line,
    who,
)
from cogs.warmaster.questions import closed_text, question_words, typed
from cogs.warmaster.vocabulary import card_line, describe_target
from rules.dice import Roller
from rules.session import Event, Question
from rules.text import clip
from rules.warmaster import PROCEDURE, Phase, WarmasterState, builtin_pack, parse_pack, private_view, start
from rules.warmaster.cards import Pack
from rules.warmaster.events import (
    CardRevealed,
    ConfirmAsked,
    HandDealt,
    LossRecorded,
)
from rules.warmaster.models import RevealReason
from rules.warmaster.questions import LAY
from rules.warmaster.views import PrivateView, prompt

_ = Domain("warmaster")

QUICK_POINTS = 2000  # each army in a game opened without options (a night's pairing)
HOW_TO_PLAY = _.mark(
    "On your turn pick a card in the menu below to see its targets (or see them with "
    "`/warmaster hand`); or lay one with `/warmaster play card:<card> target:<name>` (for a "
    "new target, pick what it is from the target's list)."
)
HAND_KEY = "hand"


def hand_embed(view: PrivateView, status: str | None = None) -> Embed:
    """A player's hand and face-down cards; `status` says where they stand (else their turn, if it is)."""
    embed = Embed(title=_.p("title", "Your Warmaster cards"), colour=COLOUR)
    if status is None:
        values = {"laid": view.laid, "limit": view.limit}
        if view.your_turn:
            status = _("Laid {laid} of {limit}. **It is your turn to lay a card.**", **values)
        else:
            status = _("Laid {laid} of {limit}.", **values)
    embed.description = f"{status}\n{_(HOW_TO_PLAY)}"
    add_lines(embed, _.p("field", "In your hand"), [card_line(c) for c in view.hand] or [_("(empty)")])
    if view.face_down:
        lines = [
            _(
                "#{placement} **{card}** on {target}",
                placement=v.placement,
                card=v.card.name,
                target=describe_target(v.target),
            )
            for v in view.face_down
        ]
        name = _.p("field", "Your face-down cards (turn one up with the buttons or /warmaster reveal)")
        add_lines(embed, name, lines)
    if not view.tactics_dealt:
        embed.footer = _("No tactics deck is loaded on this server: only magic item cards were dealt.")
    return embed


def private_questions(state: WarmasterState, player: int) -> tuple[list[Question], list[Question]]:
    """What only `player` answers now: one question per card they may lay, and the rest (pass,
    trade, turn a card up, record a loss)."""
    asked = [q for q in PROCEDURE.ask(state, player) if q.private]
    return [q for q in asked if q.topic == LAY], [q for q in asked if q.topic != LAY]


def packed(questions: list[Question]) -> tuple[list[Button], list[Select]]:
    """The components of as many questions as one message holds, in the order asked.

    Each select takes a row and the buttons fill rows of five; the pass, trade, reveal and loss
    questions label their buttons with what they do, so they can share rows.
    """
    buttons: list[Button] = []
    selects: list[Select] = []
    for question in questions:
        more_buttons, more_selects = components(question)
        rows = len(selects) + len(more_selects) + -(-(len(buttons) + len(more_buttons)) // ROW_BUTTONS)
        if rows > ACTION_ROWS:
            continue
        buttons += more_buttons
        selects += more_selects
    return buttons, selects


def private_reply(state: WarmasterState, player: int) -> Reply:
    """The player's hand, with the components of their questions other than laying a card (for
    `/warmaster hand` and the closed-DM button: answered there and then, never left in a DM)."""
    _lays, others = private_questions(state, player)
    buttons, selects = packed(others)
    return Reply(embeds=[hand_embed(private_view(state, player))], buttons=buttons, selects=selects)


def lay_prompts(state: WarmasterState, player: int) -> list[Reply]:
    """One message per card the player may lay now, with the targets it may go on.

    A card is a message of its own because its buttons name only the targets: shared with another
    card's, they would not say which card they lay.
    """
    lays, _others = private_questions(state, player)
    prompts = []
    for question in lays:
        buttons, selects = components(question)
        prompts.append(
            Reply(content=clip(question_words(state, question), CONTENT), buttons=buttons, selects=selects)
        )
    return prompts


def hand_header(info: SessionInfo, state: WarmasterState, player: int) -> Outgoing:
    """A player's hand, heading their one living DM: posted when dealt, edited whenever it or
    what they are asked changes (bot/play/prompts.py `headed_dm`).

    With DMs closed, the table gets one "Open my secret prompt" button per player at the deal (it
    shows the hand and the player's tools)."""
    return Outgoing(
        to="dm",
        user_id=player,
        key=f"{HAND_KEY}.{player}",
        content=_(
            "Your Warmaster cards for the game in {table} ({id}). Keep them secret!",
            table=f"<#{info.table_id}>",
            id=f"`{info.id}`",
        ),
        embeds=[hand_embed(private_view(state, player), hand_status(state, player))],
    )


def hand_status(state: WarmasterState, player: int) -> str:
    """The first line of a player's hand message: how far they are, and what the phase allows."""
    side = state.side(player)
    values: dict[str, Value] = {"laid": side.laid, "limit": side.limit}
    if state.phase is Phase.OVER:
        return _("Laid {laid} of {limit}. The game is over: every card is face up.", **values)
    if state.phase is Phase.BATTLE:
        return _(
            "Laid {laid} of {limit}. The battle is on: turn a card face up when it is used or contacted.",
            **values,
        )
    if side.done is not None:
        return _("Laid {laid} of {limit}. You have finished laying cards.", **values)
    return _("Laid {laid} of {limit}.", **values)


def prompt_text(state: WarmasterState) -> str:
    """What the game waits for now, in one sentence."""
    now = prompt(state)
    if now.phase is Phase.OVER:
        return _("The game is over.")
    if state.pending is not None:
        return _("Waiting for a confirmation. {pending}", pending=pending_text(state))
    if now.phase is Phase.BATTLE:
        return _(
            "The battle is on. Turn a card face up when it is used or contacted; record each "
            "destroyed unit with its points; finish the game to score it."
        )
    if now.turn is None:
        return _("Every card that can be laid has been laid. Begin the battle when you are ready.")
    return _(
        "{player} lays a card ({laid} of {limit} laid so far).",
        player=who(now.turn),
        laid=now.laid,
        limit=now.limit,
    )


def reply_lines(state: WarmasterState, events: list[Event], actor: int) -> list[str]:
    """The acting player's answer: what they alone may read first (a face-down card's name, the
    cards a Lucky Find! brought), then what the table saw, then who acts next."""
    mine = [event_text(e) for e in events if e.private_to == actor and not isinstance(e, HandDealt)]
    public = [line for e in events if e.private_to is None and (line := public_line(e))]
    lines = [line for line in [*mine, *public] if line]
    if not state.finished and not any(isinstance(e, ConfirmAsked) for e in events):
        lines.append(prompt_text(state))
    return lines


def deal(
    session_id: str,
    players: Sequence[int],
    points: Sequence[int],
    roller: Roller,
    pack: Pack | None,
    first: int | None = None,
) -> tuple[WarmasterState, list[Event]]:
    """A game dealt from the server's decks (`/warmaster game`, and a night's pairing)."""
    pack = pack or builtin_pack()
    return start(session_id, players, points, roller, first=first, magic=pack.magic, tactics=pack.tactics)


class WarmasterAdapter(GameAdapter[WarmasterState]):
    procedure = PROCEDURE
    title = "Warmaster"
    start_command = "/warmaster game"
    domain = "warmaster"
    help = _.mark("`/warmaster game @opponent` deals hidden magic item and tactics hands and runs card play")
    # No pack of its own: the printed magic item deck, and no tactics (none was ever printed).
    pack = PackSpec(parse=parse_pack, shipped=builtin_pack)
    colour = COLOUR

    def quick_start(
        self,
        session_id: str,
        players: Sequence[int],
        roller: Roller,
        pack: Pack | None,
        names: Mapping[int, str] | None = None,
    ) -> tuple[WarmasterState, list[Event]]:
        """A club night's game: 2,000 points a side, the first turn to a roll-off."""
        return deal(session_id, players, [QUICK_POINTS, QUICK_POINTS], roller, pack)

    def typed(self, state: WarmasterState, asked: Question, fields: dict[str, str]) -> dict[str, str]:
        return typed(state, asked, fields)

    def board(self, info: SessionInfo, state: WarmasterState) -> Embed:
        return board_embed(state)

    def lines(self, info: SessionInfo, state: WarmasterState, events: list[Event]) -> list[str]:
        return [line for e in events if e.private_to is None and (line := public_line(e))]

    def dm_header(self, info: SessionInfo, state: WarmasterState, player: int) -> Outgoing | None:
        """Each player's hand heads their one living DM, their turn's cards and tools under it."""
        return hand_header(info, state, player)

    def private_lines(
        self, info: SessionInfo, state: WarmasterState, player: int, events: list[Event]
    ) -> list[str]:
        """What heads the player's hand after a step: a card they turned face up, or a loss they
        recorded, ticked. A lay is said by its own question's ✅ line; turning a card up or
        recording a loss leaves its question asked (for the next one), so without these lines the
        hand would not say what the click did, and it could not be the click's answer
        (bot/play/in_place.py). The hand changes with every such step anyway (a reveal of the
        player's card; the losses as they stand, which its loss tool lists), so the line costs no
        edit of its own."""
        recorded = {loss.target_key for loss in state.losses if loss.recorded_by == player}
        lines: list[str] = []
        for event in events:
            if (
                isinstance(event, CardRevealed)
                and event.reason is RevealReason.OWNER
                and event.player == player
            ):
                lines.append(f"{DONE_MARK} {revealed_line(event)}")
            elif isinstance(event, LossRecorded) and event.target.key in recorded:
                lines.append(f"{DONE_MARK} {loss_line(event)}")
        return lines

    def question_text(self, state: WarmasterState, asked: Question) -> str:
        return question_words(state, asked)

    def answered_privately(
        self, info: SessionInfo, state: WarmasterState, player: int, asked: Question, events: list[Event]
    ) -> str | None:
        return closed_text(state, player, asked, events)

    def reply(self, info: SessionInfo, state: WarmasterState, events: list[Event], actor: int) -> Reply:
        return Reply(content=clip("\n".join(reply_lines(state, events, actor)), CONTENT))

    def private_prompt(self, info: SessionInfo, state: WarmasterState, user_id: int) -> Reply | None:
        if user_id not in state.players:
            return None
        return private_reply(state, user_id)

    def outcome_summary(self, state: WarmasterState) -> str:
        if state.outcome is None:
            return ""
        first, second = (side.score for side in state.outcome.sides)
        if state.outcome.winner is None:
            return _("{first} VP to {second} VP, a draw", first=first, second=second)
        return _("{first} VP to {second} VP", first=first, second=second)

    def summary(self, info: SessionInfo, state: WarmasterState) -> str:
        return clip(prompt_text(state), SUMMARY)
