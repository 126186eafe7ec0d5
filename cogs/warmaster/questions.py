"""How Warmaster's questions read on their messages, in the language in force: a question's
message's words (`question_words`), what a private prompt says once it is answered
(`closed_text`), and a typed word read back for the rules (`typed`).

The rules word each question (its title, text, options and form) in `rules/warmaster/questions.py`;
what is here is what only a message shows: a card's line above its question, the text under the
turn's, the battle's and the confirmation's titles, and a prompt's words once it is answered.
"""

from __future__ import annotations

from bot.lang.i18n import Domain, Value, say
from cogs.warmaster.board import pending_text, result_text
from cogs.warmaster.vocabulary import card_line, describe_target, read_type
from rules.session import Event, Question
from rules.warmaster.events import CardLaidFaceUp, CardsDrawn, CardView, TurnPassed, YouLaidFaceDown
from rules.warmaster.models import HeldCard, PassReason, Phase, WarmasterState
from rules.warmaster.new_targets import new_target_words
from rules.warmaster.questions import BEGIN, CONFIRM, FINISH, LAY, LOST, PASS, REVEAL, TRADE, TYPE_KEY
from rules.warmaster.targeting import all_targets
from rules.warmaster.targets import Target

_ = Domain("warmaster")


def _held(state: WarmasterState, player: int, card_id: object) -> HeldCard | None:
    if player not in state.players:
        return None
    return next((h for h in state.side(player).hand if h.id == card_id), None)


def typed(state: WarmasterState, asked: Question, fields: dict[str, str]) -> dict[str, str]:
    """A unit type or role typed in the player's language, as the rules' English word."""
    held = _held(state, asked.players[0], asked.params.get("card")) if asked.players else None
    if asked.topic != LAY or TYPE_KEY not in fields or held is None or held.card.carrier is None:
        return fields
    return {**fields, TYPE_KEY: read_type(fields[TYPE_KEY], new_target_words(held.card.carrier))}


# ------------------------------------------------------------------ a question's message


def question_words(state: WarmasterState, asked: Question) -> str:
    """A question's words on its message (a DM prompt, or the battle's message in the thread)."""
    if asked.topic == LAY and asked.players:
        held = _held(state, asked.players[0], asked.params.get("card"))
        if held is not None:
            return f"{card_line(CardView.of(held))}\n{say(asked.text)}"
    if asked.topic == PASS:
        lines = [
            _(
                "**Your turn to lay a card** ({laid} of {limit} laid so far).",
                laid=asked.params.get("laid"),
                limit=asked.params.get("limit"),
            ),
            _("Pick a card in the menu below to see where it may go; or use `/warmaster play`."),
        ]
        option = asked.options[0] if asked.options else None
        if option is not None and option.disabled:
            lines.append(_("You can't pass: {why}", why=option.description))
        else:
            lines.append(_("Pass only when nothing you hold fits an open target."))
        return "\n".join(lines)
    if asked.topic == BEGIN:
        return _(
            "**Begin the battle**\nEvery card that can be laid has been laid. Either of you may ask to "
            "begin the battle, and the other confirms: no card can be laid after that."
        )
    if asked.topic == FINISH:
        return _(
            "**The battle is on**\nTurn your cards face up when they are used, and record each destroyed "
            "unit or character in your DMs (or with `/warmaster lost`). When the battle is over, either "
            "of you may ask to finish the game, and the other confirms; then it is scored."
        )
    if asked.topic == CONFIRM:
        return f"**{say(asked.title)}**\n{pending_text(state)}\n{say(asked.text)}"
    return f"**{say(asked.title)}**\n{say(asked.text)}".strip()


# ------------------------------------------------------------------ a private prompt once answered


def _laid(state: WarmasterState, card_id: str) -> tuple[int, bool, Target] | None:
    """Where a card went, if it was laid: its number, whether face up, and its target."""
    targets = {t.key: t for t in all_targets(state)}
    for laid in state.laid:
        if laid.held.id == card_id:
            return laid.placement, laid.face_up, targets[laid.target_key]
    return None


def you_pass(reason: PassReason) -> str:
    words = {
        PassReason.LIMIT: _("You pass: you have laid all the cards allowed."),
        PassReason.NO_CARDS: _("You pass: you have no cards left to lay."),
        PassReason.NO_FIT: _("You pass: no card you hold fits an open target."),
    }
    return words[reason]


def what_you_did(player: int, events: list[Event]) -> list[str]:
    """The player's own doings in a step, as they may read them (a face-down card by its name)."""
    said = []
    for event in events:
        match event:
            case CardLaidFaceUp() if event.player == player:
                said.append(
                    _(
                        "You laid **{card}** face up on {target} (#{placement}).",
                        card=event.card.name,
                        target=describe_target(event.target),
                        placement=event.placement,
                    )
                )
            case YouLaidFaceDown() if event.player == player:
                said.append(
                    _(
                        "You laid **{card}** face down on {target} (#{placement}).",
                        card=event.card.name,
                        target=describe_target(event.target),
                        placement=event.placement,
                    )
                )
            case TurnPassed() if event.player == player:
                said.append(you_pass(event.reason))
    return said


def closed_text(state: WarmasterState, player: int, asked: Question, events: list[Event]) -> str | None:
    """What a private prompt says once it is no longer asked (its components are gone)."""
    if asked.topic == LAY:
        card = str(asked.params.get("card"))
        laid = _laid(state, card)
        if laid is not None:
            placement, face_up, target = laid
            values: dict[str, Value] = {"target": describe_target(target), "placement": placement}
            if face_up:
                return _("Laid face up on {target} (#{placement}).", **values)
            return _("Laid face down on {target} (#{placement}).", **values)
        if any(h.id == card for h in state.side(player).hand):
            return _("Not laid this turn: still in your hand.")
        return _("No longer in your hand.")
    if asked.topic == PASS:
        return " ".join(what_you_did(player, events)) or _("Your turn is over.")
    if asked.topic == TRADE:
        drawn = [c.name for e in events if isinstance(e, CardsDrawn) and e.player == player for c in e.cards]
        if drawn:
            names = ", ".join(f"**{name}**" for name in drawn)
            return _("Traded: your Lucky Find! brought {cards}.", cards=names)
        if state.phase is not Phase.CARDS:
            return _("The card phase is over: nothing more to trade.")
        return _("Nothing to trade now.")
    if asked.topic == REVEAL:
        if state.finished:
            return _("The game is over: every card is face up.")
        return _("Every card you laid is face up.")
    if asked.topic == LOST:
        return _("The game is over. {result}", result=result_text(state.outcome) if state.outcome else "")
    return None
