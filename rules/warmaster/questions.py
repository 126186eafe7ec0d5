"""What the Warmaster card phase and battle ask each player, and the action each answer stands for.

Every choice a player makes by command can also be made by answering a question from `ask`:
- on their turn in the card phase, one private question per card in hand ("lay it on which
  target?"), offering the known targets the card may go on (a full one shown but disabled) and a
  new target named in a form, of the kinds its carrier allows; and "pass", disabled while a card
  can still be laid;
- at any moment of the card phase, trading a Lucky Find! while the deck holds cards;
- at any moment, turning one of their own face-down cards up;
- once nobody can lay, beginning the battle; in the battle, recording a destroyed unit or character
  with its points, and finishing the game;
- once one player pressed begin or finish, its confirmation in their place, of both players:
  Confirm (the other player's, or the presser's own) takes the step, Not yet withdraws it; the
  player's tools stay asked meanwhile, every option disabled (the rules take nothing else).

Step ids carry the counters the question depends on (cards laid, cards left in the deck, the
player's own cards laid and turned up, losses, the confirmation's serial), so a button from before
the game moved on is refused as stale. Option values are `t<index>` for a known target (its place
in `all_targets`, which only grows), `p<placement>` for a laid card, a card's id, or `new.<side>`
for a target named in the form.

At the table: the turn (lay a card or pass) is what the game waits for; each card's own question,
trading, turning up and recording losses are the player's tools for it (`optional`). All of a
player's private questions are one series, `PROMPT`: one living DM message per player, edited when
what it asks changes (a step edits it once, not once per card); the cards are listed in its menu,
each card's targets shown when it is picked.
Beginning the battle, finishing the game and their confirmations are one public message, series
`battle`.
"""

from __future__ import annotations

from dataclasses import replace

from rules import confirmation
from rules.confirmation import Request
from rules.errors import RuleError
from rules.session import NO_WORDS, Answer, InputField, Option, Question
from rules.warmaster.actions import (
    BeginBattle,
    Confirmable,
    FinishGame,
    PassTurn,
    PlayCard,
    RecordLoss,
    RevealCard,
    TargetRef,
    TradeLuckyFind,
    WarmasterAction,
)
from rules.warmaster.battle import MAX_UNIT_POINTS
from rules.warmaster.cards import LUCKY_FIND_DRAWS
from rules.warmaster.labels import deck_card, target_label, type_example, type_list
from rules.warmaster.models import HeldCard, Phase, WarmasterState
from rules.warmaster.new_targets import (
    ROLES,
    UNIT_TYPES,
    new_target_words,
    shoots_by_card,
    takes_terrain,
)
from rules.warmaster.targeting import all_targets, slot_free
from rules.warmaster.targets import (
    LOSABLE_KINDS,
    MAX_TARGET_NAME,
    CharacterRole,
    Side,
    TargetKind,
    UnitType,
)
from rules.warmaster.turns import pass_refusal, tradable_lucky_finds
from rules.words import Marker, Words

N_ = Marker("warmaster")

LAY = "warmaster.lay"
PASS = "warmaster.pass"
TRADE = "warmaster.trade"
REVEAL = "warmaster.reveal"
BEGIN = "warmaster.begin"
LOST = "warmaster.lost"
FINISH = "warmaster.finish"
CONFIRM = "warmaster.confirm"
PROMPT = "prompt"  # the series of every private question: one DM message per player

NEW = "new."
KNOWN, NEW_ONES = Words.verbatim("known"), Words.verbatim("new")  # the groups of a target list
NAME_FIELD = InputField(
    key="name",
    label=N_.p("label", "Its name"),
    max_length=MAX_TARGET_NAME,
    placeholder=N_.p("example", "Knights"),
)
POINTS_FIELD = InputField(
    key="points",
    label=N_.p("label", "Its points, before cards"),
    kind="number",
    minimum=1,
    maximum=MAX_UNIT_POINTS,
    placeholder=Words.verbatim("110"),
)
TYPE_KEY = "type"
ANOTHER: dict[str, Words] = {
    f"{NEW}{Side.MINE}.unit": N_.p("label", "Another unit of yours"),
    f"{NEW}{Side.MINE}.character": N_.p("label", "Another character of yours"),
    f"{NEW}{Side.ENEMY}.unit": N_.p("label", "Another unit of the enemy's"),
    f"{NEW}{Side.ENEMY}.character": N_.p("label", "Another character of the enemy's"),
}
"""A destroyed unit or character not named before, by its option's value."""


# ------------------------------------------------------------------ what a new target may be


def _new_label(words: list[str], side: Side) -> Words:
    """A new unit or character a card may go on, of one side."""
    mine = side is Side.MINE
    if words == [str(CharacterRole.GENERAL)]:
        return N_.p("label", "Your General") if mine else N_.p("label", "The enemy General")
    units = any(w in UNIT_TYPES for w in words)
    characters = any(w in ROLES for w in words)
    if units and characters:
        if mine:
            return N_.p("label", "A new unit or character of yours")
        return N_.p("label", "A new unit or character of the enemy's")
    if units:
        return N_.p("label", "A new unit of yours") if mine else N_.p("label", "A new unit of the enemy's")
    if mine:
        return N_.p("label", "A new character of yours")
    return N_.p("label", "A new character of the enemy's")


def _new_form(words: list[str]) -> list[InputField]:
    if len(words) == 1:
        return [NAME_FIELD]
    return [
        NAME_FIELD,
        InputField(
            key=TYPE_KEY, label=N_.p("label", "What it is"), max_length=20, placeholder=type_example(words)
        ),
    ]


def _general_named(state: WarmasterState, owner: int) -> bool:
    return any(t.owner == owner and t.role is CharacterRole.GENERAL for t in state.targets)


# ------------------------------------------------------------------ the questions


def _cards_mark(state: WarmasterState) -> str:
    return f"c{len(state.laid)}"


def _lay_question(state: WarmasterState, player: int, held: HeldCard) -> Question | None:
    """Where this card may go: known targets its carrier allows, or a new one named in a form."""
    carrier = held.card.carrier
    if carrier is None:
        return None
    options: list[Option] = []
    for index, target in enumerate(all_targets(state)):
        if not carrier.allows(target):
            continue
        free = slot_free(state, target.key, held.deck)
        options.append(
            Option(
                value=f"t{index}",
                label=target_label(target, player),
                group=KNOWN,
                disabled=not free,
                description=NO_WORDS
                if free
                else N_.p("option", "It already holds a {card}.", card=deck_card(held.deck)),
            )
        )
    words = new_target_words(carrier)
    if words:
        for side in (Side.MINE, Side.ENEMY):
            owner = player if side is Side.MINE else state.opponent(player)
            taken = words == [str(CharacterRole.GENERAL)] and _general_named(state, owner)
            options.append(
                Option(
                    value=f"{NEW}{side}",
                    label=_new_label(words, side),
                    group=NEW_ONES,
                    form=_new_form(words),
                    disabled=taken,
                    description=N_.p("option", "That General is already named: pick them from the list.")
                    if taken
                    else NO_WORDS,
                )
            )
    if takes_terrain(carrier):
        options.append(
            Option(
                value=f"{NEW}{Side.NEUTRAL}",
                label=N_.p("label", "A new terrain feature"),
                group=NEW_ONES,
                form=[NAME_FIELD],
            )
        )
    if not any(not o.disabled for o in options):
        return None
    mine = state.side(player)
    return Question(
        step=f"{_cards_mark(state)}.lay.{held.id}",
        topic=LAY,
        title=N_.p("title", "Lay {card}", card=held.card.name),
        text=N_(
            "Goes on {carrier}. You have laid {laid} of {limit}.",
            carrier=carrier.words(),
            laid=mine.laid,
            limit=mine.limit,
        ),
        players=[player],
        options=options,
        private=True,
        # One of the turn's choices, not a wait of its own: the turn (pass) is what is awaited.
        optional=True,
        series=PROMPT,
        params={"card": held.id, "name": held.card.name, "laid": mine.laid, "limit": mine.limit},
    )


def _pass_question(state: WarmasterState, player: int, can_lay: bool) -> Question:
    """The turn itself: lay a card (each card's own question) or say that nothing fits.

    While a card may still go on a target the player names, passing is one choice among those: it is
    asked as an acknowledgement (`done`), never answered for the player. With nothing left to lay
    it is the one legal answer, and the table answers it for them."""
    refusal = pass_refusal(state, player)
    why = NO_WORDS
    if refusal is not None:
        why = (
            N_.p("option", "Trade your Lucky Find! first.")
            if refusal.code == "warmaster.trade_first"
            else N_.p("option", "A card you hold can still be laid, so it must be.")
        )
    mine = state.side(player)
    return Question(
        step=f"{_cards_mark(state)}.pass",
        topic=PASS,
        title=N_.p("title", "Lay a card"),
        text=N_("Say that no card you hold fits an open target."),
        players=[player],
        kind="done" if refusal is None and can_lay else "choose",
        options=[
            Option(
                value="pass",
                label=N_.p("button", "Nothing I hold fits: pass"),
                tone="danger",
                disabled=refusal is not None,
                description=why,
            )
        ],
        private=True,
        series=PROMPT,
        params={"refusal": refusal.code if refusal else None, "laid": mine.laid, "limit": mine.limit},
    )


def _trade_question(state: WarmasterState, player: int, lucky: list[HeldCard]) -> Question:
    return Question(
        step=f"d{len(state.draw_pile)}.trade",
        topic=TRADE,
        title=N_.p("title", "Trade a Lucky Find!"),
        text=N_("Trade it for {draws} magic item cards; it is not counted as laid.", draws=LUCKY_FIND_DRAWS),
        players=[player],
        options=[
            Option(value=held.id, label=N_.p("button", "Trade {card}", card=held.card.name), tone="main")
            for held in lucky
        ],
        private=True,
        optional=True,
        series=PROMPT,
        params={"draws": LUCKY_FIND_DRAWS},
    )


def _reveal_question(state: WarmasterState, player: int) -> Question | None:
    hidden = [c for c in state.laid if c.player == player and not c.face_up]
    if not hidden:
        return None
    targets = all_targets(state)
    by_key = {t.key: t for t in targets}
    mine = [c for c in state.laid if c.player == player]
    face_up = sum(1 for c in mine if c.face_up)
    return Question(
        # The player's own counters: the question changes only when their own cards do.
        step=f"r{len(mine)}.{face_up}.reveal",
        topic=REVEAL,
        title=N_.p("title", "Turn a card face up"),
        text=N_("When it is used, or an enemy contacts its carrier."),
        players=[player],
        options=[
            Option(
                value=f"p{card.placement}",
                label=N_.p(
                    "option",
                    "#{placement} {card} on {target}",
                    placement=card.placement,
                    card=card.held.card.name,
                    target=target_label(by_key[card.target_key], player),
                ),
            )
            for card in hidden
        ],
        private=True,
        optional=True,
        series=PROMPT,
    )


def _begin_question(state: WarmasterState) -> Question:
    return Question(
        step="begin",
        topic=BEGIN,
        title=N_.p("title", "Begin the battle"),
        text=N_("Every card that can be laid has been laid."),
        players=list(state.players),
        kind="done",
        options=[Option(value="begin", label=N_.p("button", "Begin the battle"), tone="go")],
        series="battle",
    )


def _lost_question(state: WarmasterState, player: int) -> Question:
    """Which unit or character was destroyed, with its points typed in a form."""
    lost = {loss.target_key for loss in state.losses}
    options = [
        Option(value=f"t{index}", label=target_label(target, player), group=KNOWN, form=[POINTS_FIELD])
        for index, target in enumerate(all_targets(state))
        if target.kind in LOSABLE_KINDS and target.key not in lost
    ]
    options += [
        Option(value=value, label=label, group=NEW_ONES, form=[NAME_FIELD, POINTS_FIELD])
        for value, label in ANOTHER.items()
    ]
    return Question(
        step=f"b{len(state.losses)}.lost",
        topic=LOST,
        title=N_.p("title", "Record a destroyed unit or character"),
        text=N_("Its points are those of the army list; the cards on it are added."),
        players=[player],
        options=options,
        private=True,
        optional=True,
        series=PROMPT,
    )


def _finish_question(state: WarmasterState) -> Question:
    return Question(
        step="finish",
        topic=FINISH,
        title=N_.p("title", "Finish the game"),
        text=N_("Score it from the destroyed units and the surviving cards."),
        players=list(state.players),
        kind="done",
        options=[Option(value="finish", label=N_.p("button", "Finish and score the game"), tone="danger")],
        series="battle",
    )


def _confirm_question(state: WarmasterState, pending: Request[Confirmable]) -> Question:
    """A step one player pressed, asked of both in its place: the other confirms, or its presser
    confirms their own; either may say not yet."""
    begin = isinstance(pending.action, BeginBattle)
    return confirmation.question(
        pending,
        state.players,
        prefix="confirm.",
        topic=CONFIRM,
        title=N_.p("title", "Begin the battle?") if begin else N_.p("title", "Finish and score?"),
        text=N_("No card can be laid after that.")
        if begin
        else N_("Every card is turned up and the game is scored."),
        series="battle",
        step=pending.action.kind,
    )


PAUSED = N_("Paused: a request in the game's thread waits for a confirmation.")


def _paused(question: Question) -> Question:
    """A player's tool while a step waits for its confirmation: still asked, so its prompt stays where
    it is, but with every option disabled, as the rules take nothing else meanwhile."""
    options = [replace(o, disabled=True, description=PAUSED) for o in question.options]
    return replace(question, text=PAUSED, options=options)


def ask(state: WarmasterState, player: int) -> list[Question]:
    """Every question the game puts to `player` now."""
    if state.finished or player not in state.players:
        return []
    questions: list[Question] = []
    if state.phase is Phase.CARDS:
        side = state.side(player)
        if state.turn == player:
            lays = [q for q in (_lay_question(state, player, held) for held in side.hand) if q is not None]
            questions += lays
            questions.append(_pass_question(state, player, can_lay=bool(lays)))
        lucky = tradable_lucky_finds(state, side)
        if lucky:
            questions.append(_trade_question(state, player, lucky))
    reveal = _reveal_question(state, player)
    if reveal is not None:
        questions.append(reveal)
    if state.phase is Phase.BATTLE:
        questions.append(_lost_question(state, player))
    if state.pending is not None:
        questions = [_paused(q) for q in questions]
        questions.append(_confirm_question(state, state.pending))
    elif state.phase is Phase.CARDS and state.turn is None:
        questions.append(_begin_question(state))
    elif state.phase is Phase.BATTLE:
        questions.append(_finish_question(state))
    return questions


# ------------------------------------------------------------------ answers to actions


def _known(state: WarmasterState, value: str) -> TargetRef:
    return TargetRef(key=all_targets(state)[int(value.removeprefix("t"))].key)


def _new_for_card(state: WarmasterState, held: HeldCard, value: str, answer: Answer) -> TargetRef:
    """The new target named in the form, with the type the player typed (or the only one allowed)."""
    carrier = held.card.carrier
    assert carrier is not None  # a card without a carrier is never asked about
    side = Side(value.removeprefix(NEW))
    name = answer.fields.get(NAME_FIELD.key, "")
    if side is Side.NEUTRAL:
        return TargetRef(name=name, kind=TargetKind.TERRAIN)
    words = new_target_words(carrier)
    typed = answer.fields.get(TYPE_KEY, "").strip().casefold()
    word = words[0] if len(words) == 1 else typed
    if word not in words:
        raise RuleError(code="warmaster.type_unknown", typed=typed, allowed=type_list(words))
    shooting = True if shoots_by_card(carrier) else None
    if word in UNIT_TYPES:
        return TargetRef(
            name=name, kind=TargetKind.UNIT, side=side, unit_type=UnitType(word), shooting=shooting
        )
    return TargetRef(
        name=name, kind=TargetKind.CHARACTER, side=side, role=CharacterRole(word), shooting=shooting
    )


def to_action(state: WarmasterState, question: Question, answer: Answer) -> WarmasterAction:
    """The action a checked answer stands for; a typed detail the rules can't use is refused here."""
    actor = answer.actor
    value = answer.values[0] if answer.values else ""
    match question.topic:
        case "warmaster.lay":
            card = str(question.params["card"])
            held = next(h for h in state.side(actor).hand if h.id == card)
            target = (
                _new_for_card(state, held, value, answer) if value.startswith(NEW) else _known(state, value)
            )
            return PlayCard(actor=actor, card=card, target=target)
        case "warmaster.pass":
            return PassTurn(actor=actor)
        case "warmaster.trade":
            return TradeLuckyFind(actor=actor, card=value)
        case "warmaster.reveal":
            return RevealCard(actor=actor, placement=int(value.removeprefix("p")))
        case "warmaster.begin":
            return BeginBattle(actor=actor)
        case "warmaster.lost":
            points = int(answer.fields[POINTS_FIELD.key].strip())
            if value.startswith(NEW):
                side, kind = value.removeprefix(NEW).split(".")
                ref = TargetRef(
                    name=answer.fields.get(NAME_FIELD.key, ""), kind=TargetKind(kind), side=Side(side)
                )
            else:
                ref = _known(state, value)
            return RecordLoss(actor=actor, target=ref, base_points=points)
        case "warmaster.finish":
            return FinishGame(actor=actor)
        case "warmaster.confirm":
            return confirmation.to_action(question, actor, answer.values)
    raise RuleError(code="answer.not_asked")
