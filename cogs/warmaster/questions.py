"""What Warmaster asks, in the language in force: each question as it is shown (`localise`), its
message's words (`question_words`), what a private prompt says once it is answered
(`closed_text`), and a typed word read back for the rules (`typed`).

The rules word their questions in English; a question is shown as a copy with its words
translated by its topic and params, keeping every step, value and key (answers are checked against
the rules' own questions). Its targets are named again from the state by the option's value.
"""

from __future__ import annotations

from bot.chat.limits import TEXT_INPUT_PLACEHOLDER
from bot.lang.i18n import Domain, Value
from cogs.warmaster.board import pending_text, result_text
from cogs.warmaster.vocabulary import (
    card_line,
    carrier_text,
    deck_card,
    describe_target,
    read_type,
    target_label,
    type_list,
)
from rules.session import Event, InputField, Option, Question
from rules.warmaster.events import CardLaidFaceUp, CardsDrawn, CardView, TurnPassed, YouLaidFaceDown
from rules.warmaster.models import HeldCard, PassReason, Phase, WarmasterState
from rules.warmaster.questions import (
    BEGIN,
    CONFIRM,
    FINISH,
    LAY,
    LOST,
    NEW,
    PASS,
    REVEAL,
    TRADE,
    TYPE_KEY,
    UNIT_TYPES,
    new_target_words,
)
from rules.warmaster.targeting import all_targets
from rules.warmaster.targets import CharacterRole, Side, Target

_ = Domain("warmaster")

PAUSED = _.mark("Paused: a request in the game's thread waits for a confirmation.")
"""The rules' words for a tool paused while a step waits (rules/warmaster/questions.py PAUSED)."""


# ------------------------------------------------------------------ questions as shown


def _held(state: WarmasterState, player: int, card_id: object) -> HeldCard | None:
    if player not in state.players:
        return None
    return next((h for h in state.side(player).hand if h.id == card_id), None)


def _target(state: WarmasterState, value: str) -> Target | None:
    """The known target an option's value `t<index>` names."""
    targets = all_targets(state)
    index = value.removeprefix("t")
    return targets[int(index)] if index.isdigit() and int(index) < len(targets) else None


def _field(field: InputField, words: list[str]) -> InputField:
    """A form field in the language in force: its label, and an example or the words to type."""
    if field.key == "name":
        update = {"label": _.p("label", "Its name"), "placeholder": _.p("example", "Knights")}
    elif field.key == "points":
        update = {"label": _.p("label", "Its points, before cards")}
    elif field.key == TYPE_KEY:
        update = {
            "label": _.p("label", "What it is"),
            "placeholder": type_list(words, TEXT_INPUT_PLACEHOLDER),
        }
    else:
        return field
    return field.model_copy(update=update)


def _new_label(words: list[str], side: Side) -> str:
    """A new unit or character a card may go on, of one side (the rules' `_new_label`)."""
    mine = side is Side.MINE
    if words == [str(CharacterRole.GENERAL)]:
        return _.p("label", "Your General") if mine else _.p("label", "The enemy General")
    units = any(w in UNIT_TYPES for w in words)
    characters = any(w not in UNIT_TYPES for w in words)
    if units and characters:
        if mine:
            return _.p("label", "A new unit or character of yours")
        return _.p("label", "A new unit or character of the enemy's")
    if units:
        return _.p("label", "A new unit of yours") if mine else _.p("label", "A new unit of the enemy's")
    return (
        _.p("label", "A new character of yours") if mine else _.p("label", "A new character of the enemy's")
    )


def _lay_option(state: WarmasterState, player: int, held: HeldCard, option: Option) -> Option:
    carrier = held.card.carrier
    words = new_target_words(carrier) if carrier is not None else []
    label, why = option.label, option.description
    if option.value.startswith(NEW):
        side = Side(option.value.removeprefix(NEW))
        if side is Side.NEUTRAL:
            label = _.p("label", "A new terrain feature")
        else:
            label = _new_label(words, side)
            if why:
                why = _.p("option", "That General is already named: pick them from the list.")
    elif (target := _target(state, option.value)) is not None:
        label = target_label(target, player)
        if why:
            why = _.p("option", "It already holds a {card}.", card=deck_card(held.deck))
    form = [_field(f, words) for f in option.form]
    return option.model_copy(update={"label": label, "description": why, "form": form})


def _lost_option(state: WarmasterState, player: int, option: Option) -> Option:
    labels = {
        f"{NEW}{Side.MINE}.unit": _.p("label", "Another unit of yours"),
        f"{NEW}{Side.MINE}.character": _.p("label", "Another character of yours"),
        f"{NEW}{Side.ENEMY}.unit": _.p("label", "Another unit of the enemy's"),
        f"{NEW}{Side.ENEMY}.character": _.p("label", "Another character of the enemy's"),
    }
    target = _target(state, option.value)
    label = target_label(target, player) if target is not None else labels.get(option.value, option.label)
    return option.model_copy(update={"label": label, "form": [_field(f, []) for f in option.form]})


def _reveal_label(state: WarmasterState, player: int, option: Option) -> str:
    targets = {t.key: t for t in all_targets(state)}
    placement = option.value.removeprefix("p")
    laid = next((c for c in state.laid if str(c.placement) == placement), None)
    if laid is None:
        return option.label
    return _.p(
        "option",
        "#{placement} {card} on {target}",
        placement=laid.placement,
        card=laid.held.card.name,
        target=target_label(targets[laid.target_key], player),
    )


def _options(state: WarmasterState, asked: Question, player: int) -> list[Option]:
    """The question's options in the language in force, in the rules' order."""
    held = _held(state, player, asked.params.get("card")) if asked.topic == LAY else None
    labels = {
        "pass": _.p("button", "Nothing I hold fits: pass"),
        "begin": _.p("button", "Begin the battle"),
        "finish": _.p("button", "Finish and score the game"),
        "confirm": _.p("button", "Confirm"),
        "not_yet": _.p("button", "Not yet"),
    }
    shown = []
    for option in asked.options:
        paused = option.description == PAUSED
        if held is not None:
            option = _lay_option(state, player, held, option)
        elif asked.topic == LOST:
            option = _lost_option(state, player, option)
        elif asked.topic == REVEAL:
            option = option.model_copy(update={"label": _reveal_label(state, player, option)})
        elif asked.topic == TRADE:
            traded = _held(state, player, option.value)
            if traded is not None:
                label = _.p("button", "Trade {card}", card=traded.card.name)
                option = option.model_copy(update={"label": label})
        elif option.value in labels:
            option = option.model_copy(update={"label": labels[option.value]})
        if asked.topic == PASS and option.description and not paused:
            why = (
                _.p("option", "Trade your Lucky Find! first.")
                if asked.params.get("refusal") == "warmaster.trade_first"
                else _.p("option", "A card you hold can still be laid, so it must be.")
            )
            option = option.model_copy(update={"description": why})
        if paused:
            option = option.model_copy(update={"description": _(PAUSED)})
        shown.append(option)
    return shown


def _words(state: WarmasterState, asked: Question, player: int) -> tuple[str, str]:
    """The question's title and text in the language in force."""
    params = asked.params
    match asked.topic:
        case "warmaster.lay":
            held = _held(state, player, params.get("card"))
            carrier = carrier_text(held.card.carrier.describe()) if held and held.card.carrier else ""
            return _.p("title", "Lay {card}", card=params.get("name")), _(
                "Goes on {carrier}. You have laid {laid} of {limit}.",
                carrier=carrier,
                laid=params.get("laid"),
                limit=params.get("limit"),
            )
        case "warmaster.pass":
            return _.p("title", "Lay a card"), _("Say that no card you hold fits an open target.")
        case "warmaster.trade":
            return _.p("title", "Trade a Lucky Find!"), _(
                "Trade it for {draws} magic item cards; it is not counted as laid.", draws=params.get("draws")
            )
        case "warmaster.reveal":
            return _.p("title", "Turn a card face up"), _(
                "When it is used, or an enemy contacts its carrier."
            )
        case "warmaster.begin":
            return _.p("title", "Begin the battle"), _("Every card that can be laid has been laid.")
        case "warmaster.lost":
            return _.p("title", "Record a destroyed unit or character"), _(
                "Its points are those of the army list; the cards on it are added."
            )
        case "warmaster.finish":
            return _.p("title", "Finish the game"), _(
                "Score it from the destroyed units and the surviving cards."
            )
        case "warmaster.confirm":
            if params.get("step") == "begin":
                return _.p("title", "Begin the battle?"), _("No card can be laid after that.")
            return _.p("title", "Finish and score?"), _("Every card is turned up and the game is scored.")
    return asked.title, asked.text


def localise(state: WarmasterState, asked: Question) -> Question:
    """A question as shown in the language in force (a paused tool says so)."""
    player = asked.players[0] if asked.players else 0
    title, text = _words(state, asked, player)
    if asked.text == PAUSED:
        text = _(PAUSED)
    return asked.model_copy(update={"title": title, "text": text, "options": _options(state, asked, player)})


def typed(state: WarmasterState, asked: Question, fields: dict[str, str]) -> dict[str, str]:
    """A unit type or role typed in the player's language, as the rules' English word."""
    held = _held(state, asked.players[0], asked.params.get("card")) if asked.players else None
    if asked.topic != LAY or TYPE_KEY not in fields or held is None or held.card.carrier is None:
        return fields
    return {**fields, TYPE_KEY: read_type(fields[TYPE_KEY], new_target_words(held.card.carrier))}


# ------------------------------------------------------------------ a question's message


def question_words(state: WarmasterState, asked: Question) -> str:
    """A question's words on its message (a DM prompt, or the battle's message in the thread);
    `asked` is the question as shown."""
    if asked.topic == LAY and asked.players:
        held = _held(state, asked.players[0], asked.params.get("card"))
        if held is not None:
            return f"{card_line(CardView.of(held))}\n{asked.text}"
    if asked.topic == PASS:
        lines = [
            _(
                "**Your turn to lay a card** ({laid} of {limit} laid so far).",
                laid=asked.params.get("laid"),
                limit=asked.params.get("limit"),
            ),
            _("Each card you can lay has its own message here with its targets; or use `/warmaster play`."),
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
        return f"**{asked.title}**\n{pending_text(state)}\n{asked.text}"
    return f"**{asked.title}**\n{asked.text}".strip()


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
