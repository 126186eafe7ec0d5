"""Warmaster in English: refusals by code, one short line per event, where the game stands, and
what each question and each closed DM prompt says.

Public lines go to the board (in the game's thread), private ones to the player's DMs. A face-down
card's public line names the target and the deck only; its name appears in text only in what its
owner sees and, once it is turned up, in the reveal.
"""

from __future__ import annotations

from rules.session import Event, GameOutcome, Question
from rules.warmaster.game import all_targets
from rules.warmaster.models import (
    BattleBegun,
    CardLaidFaceDown,
    CardLaidFaceUp,
    CardPhaseComplete,
    CardRevealed,
    CardsDrawn,
    CardView,
    ConfirmableKind,
    ConfirmAnswered,
    ConfirmAsked,
    GameFinished,
    GameStarted,
    HandDealt,
    LossRecorded,
    LuckyFindTraded,
    PassReason,
    Phase,
    RevealReason,
    SideState,
    TurnPassed,
    TurnToLay,
    VpSummary,
    WarmasterState,
    YouLaidFaceDown,
)
from rules.warmaster.new_targets import NewTarget
from rules.warmaster.questions import BEGIN, CONFIRM, FINISH, LAY, LOST, PASS, REVEAL, TRADE
from rules.warmaster.targets import SHOOTING_TYPES, Side, Target, TargetKind
from rules.warmaster.views import prompt

ENGLISH: dict[str, str] = {
    # starting
    "warmaster.same_player": "A Warmaster game needs two different players.",
    "warmaster.points_missing": "Give both armies' points.",
    "warmaster.first_not_player": "The player with the first turn must be one of the two players.",
    "warmaster.army_points": "An army's points must be a positive whole number, like 2000.",
    "warmaster.army_too_big": "An army of more than {maximum:,} points is beyond what the decks can serve.",
    "warmaster.magic_deck_small": "The magic item deck holds {holds} cards, but these armies need "
    "{needed}. Use smaller armies or load a bigger deck.",
    "warmaster.tactics_deck_small": "The tactics deck holds {holds} cards, but these armies need "
    "{needed}. Use smaller armies or load a bigger deck.",
    # naming targets
    "warmaster.name_empty": "Give the target a name, for example `Knights` or `Old Forest`.",
    "warmaster.name_too_long": "Target names can be at most {limit} characters long.",
    "warmaster.name_markup": "Target names may not contain mentions, links or formatting characters.",
    "warmaster.target_unknown": "I don't know that target. Pick one from the list, or type a new name "
    "with its kind.",
    "warmaster.target_whose": "Say whose {kind} you mean: yours or your opponent's.",
    "warmaster.target_unnamed": "Name the target, for example `Knights`, or choose one from the list.",
    "warmaster.target_ambiguous": "More than one target is called **{name}**; say whose it is "
    "(mine, enemy or neutral).",
    "warmaster.target_known_as": "**{name}** is already known with other details; name it alone to "
    "use it, or give a new target another name.",
    "warmaster.new_target_kind": "**{name}** is a new target: pick what it is from the target's list, "
    "or give its kind (unit, character or terrain) and whose it is.",
    "warmaster.terrain_side": "Terrain features belong to no one; leave the side out or choose neutral.",
    "warmaster.new_target_whose": "Say whose {kind} **{name}** is: yours or your opponent's.",
    "warmaster.role_on_unit": "A role (General, Wizard ...) belongs to characters, not units.",
    "warmaster.unit_type_missing": "Say what kind of unit **{name}** is (infantry, cavalry, chariot, "
    "monster, artillery or machine), so the cards' restrictions can be checked.",
    "warmaster.unit_type_on_character": "A unit type belongs to units, not characters.",
    "warmaster.role_missing": "Say what **{name}** is (General, Wizard, Runesmith or Hero), so the "
    "cards' restrictions can be checked.",
    "warmaster.general_taken": "An army has one General, and **{name}** is already <@{owner}>'s.",
    "warmaster.type_unknown": "Please type one of these: {allowed}.",
    "warmaster.new_choice_malformed": "I could not read that new-target choice. Pick one from the list "
    "again, or type the target's name and give its kind and side.",
    # the card phase
    "warmaster.unknown_action": "Muster does not know that Warmaster action.",
    "warmaster.not_in_hand": "That card is not in your hand. `/warmaster hand` shows what you hold.",
    "warmaster.battle_begun": "The battle has begun: no more cards can be laid or traded.",
    "warmaster.done_laying": "You have finished laying cards.",
    "warmaster.nobody_lays": "Both players have finished laying cards.",
    "warmaster.not_your_turn": "It is <@{player}>'s turn to lay a card.",
    "warmaster.lucky_find_not_laid": "**{card}** is not laid: trade it for {draws} magic item cards instead.",
    "warmaster.limit_reached": "You have laid your limit of {limit} cards.",
    "warmaster.wrong_carrier": "**{card}** can go on {allowed}; **{target}** is not one.",
    "warmaster.slot_taken": "**{target}** already holds a card from the {deck} deck; a target takes at "
    "most one magic item card and one tactics card.",
    "warmaster.trade_first": "You still hold **{card}**: trade it first; the new cards may fit.",
    "warmaster.must_lay": "You can still lay **{card}** on **{target}**, and a card that can be laid "
    "must be.",
    "warmaster.must_lay_on_a_unit": "**{card}** can still be laid: every army has units, so name one of "
    "yours or of the enemy's. A card that can be laid must be.",
    "warmaster.must_lay_on_a_general": "**{card}** can still be laid: every army has a General; name "
    "yours or the enemy's. A card that can be laid must be.",
    "warmaster.not_traded": "**{card}** is laid on a target, not traded.",
    "warmaster.nothing_to_trade": "You hold no card that can be traded.",
    "warmaster.deck_empty": "The magic item deck is empty, so there is nothing to trade for.",
    "warmaster.no_such_card": "No card was laid as number {placement}.",
    "warmaster.not_your_card": "Only the player who laid a card can turn it face up.",
    "warmaster.already_face_up": "Card #{placement} is already face up.",
    "warmaster.already_begun": "The battle has already begun.",
    "warmaster.cards_still_laid": "Cards are still being laid: it is <@{player}>'s turn. Every card "
    "that can be laid must be before the battle begins.",
    # the battle
    "warmaster.losses_before_battle": "Losses are recorded once the battle has begun (`/warmaster begin`).",
    "warmaster.unit_points": "A unit's points must be a positive whole number up to {maximum:,}.",
    "warmaster.not_losable": "Only units and characters are destroyed; players, armies, the table and "
    "terrain are not.",
    "warmaster.already_lost": "**{target}** is already recorded as lost.",
    "warmaster.battle_not_begun": "The battle has not begun yet; finish the card phase with "
    "`/warmaster begin` first.",
    # confirmations
    "warmaster.begin_waits": "<@{by}> asked to begin the battle, and that waits for a confirmation. "
    "Answer it in the game's thread first: Confirm, or Not yet to take it back.",
    "warmaster.finish_waits": "<@{by}> asked to finish and score the game, and that waits for a "
    "confirmation. Answer it in the game's thread first: Confirm, or Not yet to take it back.",
    "warmaster.confirm_stale": "That confirmation was already answered; the game's thread shows what "
    "it asks now.",
    "warmaster.nothing_to_confirm": "Nothing is waiting for a confirmation.",
}

LIMITS_NOTE = (
    "Limits: the first player lays up to 4 cards and the second up to 3; both limits grow by one "
    "for each extra card of each deck the smaller army was dealt."
)
NO_TACTICS_NOTE = (
    "No tactics deck is loaded on this server, so only magic item cards are dealt "
    "(an organiser can load one with a pack)."
)

PASS_TEXT = {
    PassReason.LIMIT: "has laid all the cards allowed",
    PassReason.NO_CARDS: "has no cards left to lay",
    PassReason.NO_FIT: "says no card in hand fits an open target",
}
REVEAL_TEXT = {
    RevealReason.OWNER: "turned face up",
    RevealReason.LOST: "turned face up as its carrier was destroyed",
    RevealReason.SCRYING: "turned face up by a Scrying Glass",
    RevealReason.GAME_END: "turned face up at the end of the game",
}


STEP_WORDS: dict[ConfirmableKind, str] = {
    "begin": "begin the battle",
    "finish": "finish and score the game",
}


def pending_text(state: WarmasterState) -> str:
    """Who asked for the step waiting for a confirmation, and who may answer it ('' when none waits)."""
    pending = state.pending
    if pending is None:
        return ""
    by, other = pending.by, state.opponent(pending.by)
    return (
        f"<@{by}> asks to {STEP_WORDS[pending.action.kind]}: <@{other}> confirms (or <@{by}> confirms "
        "their own), and Not yet from either takes it back."
    )


def describe_target(target: Target) -> str:
    """A target as the table sees it: 'Knights (cavalry unit of @Alice)'."""
    if target.kind is TargetKind.TABLE:
        return "the table"
    if target.kind is TargetKind.PLAYER:
        return f"<@{target.owner}>"
    if target.kind is TargetKind.ARMY:
        return f"<@{target.owner}>'s army"
    if target.kind is TargetKind.TERRAIN:
        return f"{target.name} (terrain)"
    if target.kind is TargetKind.UNIT:
        detail = f"{target.unit_type} unit" if target.unit_type else "unit"
    else:
        detail = str(target.role) if target.role else "character"
    if target.shooting and target.unit_type not in SHOOTING_TYPES:
        detail = f"shooting {detail}"
    return f"{target.name} ({detail} of <@{target.owner}>)"


def new_target_label(new: NewTarget) -> str:
    """A new-target choice as the player reads it: 'New: Grom (my cavalry unit)'.

    A unit or character offered without its type or role names the option that still gives it
    ('New: Grom (my unit) + unit_type'); the longest label, for a 60-character name, is 99 characters.
    """
    if new.kind is TargetKind.TERRAIN:
        return f"New: {new.name} (terrain)"
    whose = "my" if new.side is Side.MINE else "enemy"
    shooting = "shooting " if new.shooting and new.unit_type not in SHOOTING_TYPES else ""
    if new.kind is TargetKind.UNIT:
        what, still = (f"{new.unit_type} unit", "") if new.unit_type else ("unit", " + unit_type")
    else:
        what, still = (new.role.value.capitalize(), "") if new.role else ("character", " + role")
    return f"New: {new.name} ({whose} {shooting}{what}){still}"


def prompt_text(state: WarmasterState) -> str:
    """What the game waits for now, in one sentence."""
    now = prompt(state)
    if now.phase is Phase.OVER:
        return "The game is over."
    if state.pending is not None:
        return f"Waiting for a confirmation. {pending_text(state)}"
    if now.phase is Phase.BATTLE:
        return (
            "The battle is on. Turn a card face up when it is used or contacted; record each "
            "destroyed unit with its points; finish the game to score it."
        )
    if now.turn is None:
        return "Every card that can be laid has been laid. Begin the battle when you are ready."
    return f"<@{now.turn}> lays a card ({now.laid} of {now.limit} laid so far)."


def board_status(state: WarmasterState) -> str:
    """The board's first words: the phase and who acts in it."""
    if state.phase is Phase.OVER:
        return "**Game over.** " + (result_text(state.outcome) if state.outcome else "")
    if state.pending is not None:
        return f"**Waiting for a confirmation.** {pending_text(state)}"
    if state.phase is Phase.BATTLE:
        return (
            "**The battle is on.** Turn a card face up when it is used or contacted; record each "
            "destroyed unit or character with its points (in your DMs, or `/warmaster lost`); "
            "finish the game to score it."
        )
    if state.turn is None:
        return "**Card phase over.** Every card that can be laid has been laid: begin the battle when ready."
    side = state.side(state.turn)
    return f"**Card phase.** <@{state.turn}> lays a card ({side.laid} of {side.limit} laid so far)."


def side_header(state: WarmasterState, side: SideState) -> str:
    """One side at a glance: the army, the cards dealt and held, the cards laid."""
    dealt = f"{side.hand_size.magic} magic item"
    if state.tactics_dealt:
        dealt += f" + {side.hand_size.tactics} tactics"
    line = (
        f"<@{side.player}>: {side.hand_size.points:,} pts, {dealt} cards dealt, {len(side.hand)} in hand; "
        f"laid {side.laid} of {side.limit}"
    )
    if side.done is not None and state.phase is Phase.CARDS:
        line += f" ({PASS_TEXT[side.done]})"
    return line


def notes_lines(state: WarmasterState) -> list[str]:
    """What the board keeps saying about the deal: the limits, small armies, a missing deck."""
    notes = [LIMITS_NOTE] if state.phase is Phase.CARDS else []
    for side in state.sides:
        if side.hand_size.below_written_size:
            notes.append(
                f"<@{side.player}>'s army is {side.hand_size.points:,} points: the card rules are "
                "written for 1,500 points and up, so the base hand is dealt."
            )
    if not state.tactics_dealt:
        notes.append(NO_TACTICS_NOTE)
    return notes


def hand_status(state: WarmasterState, player: int) -> str:
    """The first line of a player's hand message: how far they are, and what the phase allows."""
    side = state.side(player)
    status = f"Laid {side.laid} of {side.limit}."
    if state.phase is Phase.OVER:
        return status + " The game is over: every card is face up."
    if state.phase is Phase.BATTLE:
        return status + " The battle is on: turn a card face up when it is used or contacted."
    if side.done is not None:
        return status + " You have finished laying cards."
    return status


def started_line(event: GameStarted) -> str:
    """Who was dealt what, and who lays first."""
    hands = "; ".join(
        f"<@{h.player}> {h.points:,} pts: {h.magic} magic item"
        + (f" + {h.tactics} tactics" if event.tactics_dealt else "")
        + f" cards, lays up to {h.limit}"
        for h in event.hands
    )
    first = f"<@{event.first}> has the first turn"
    if event.rolloff:
        first += " (roll-off " + ", ".join(f"{a}–{b}" for a, b in event.rolloff) + ")"
    return f"Warmaster cards dealt. {hands}.\n{first} and lays the first and last card."


def started_notes(event: GameStarted) -> list[str]:
    """The notes a new game's announcement carries: the limits, small armies, a missing deck."""
    notes = [LIMITS_NOTE]
    for hand in event.hands:
        if hand.below_written_size:
            notes.append(
                f"<@{hand.player}>'s army is {hand.points:,} points: the card rules are "
                "written for 1,500 points and up, so the base hand is dealt."
            )
    if not event.tactics_dealt:
        notes.append(NO_TACTICS_NOTE)
    return notes


def result_text(outcome: GameOutcome) -> str:
    """The result line with both players: '@Alice 210 VP, @Bob 355 VP'."""
    line = ", ".join(f"<@{side.player}> {side.score} VP" for side in outcome.sides)
    return line + (" (a draw)" if outcome.winner is None else "")


def card_line(card: CardView) -> str:
    cost = "no cost" if card.cost is None else f"{card.cost:+d} pts" if card.cost else "0 pts"
    return f"`{card.id}` **{card.name}** ({card.deck.label}, {cost}; {card.carrier}): {card.effect}"


def summary_lines(summary: VpSummary) -> list[str]:
    lines = []
    for side in summary.sides:
        bonus = f" + {side.survival_bonus} survival bonus" if side.survival_bonus else ""
        lines.append(
            f"<@{side.player}>: {side.from_losses} VP from {side.destroyed} destroyed{bonus} "
            f"= **{side.total} VP**"
        )
    return lines


def event_text(event: Event) -> str:
    match event:
        case GameStarted():
            return "\n".join([started_line(event), *started_notes(event)])
        case HandDealt():
            return "Your hand:\n" + "\n".join(card_line(c) for c in event.cards)
        case TurnToLay():
            return f"<@{event.player}>, lay a card ({event.laid} of {event.limit} laid)."
        case CardLaidFaceUp():
            return (
                f"#{event.placement}: <@{event.player}> laid **{event.card.name}** ({event.card.deck.label}) "
                f"face up on {describe_target(event.target)}."
            )
        case CardLaidFaceDown():
            return (
                f"#{event.placement}: <@{event.player}> laid a face-down {event.deck.label} card on "
                f"{describe_target(event.target)}."
            )
        case YouLaidFaceDown():
            where = describe_target(event.target)
            return f"#{event.placement}: you laid **{event.card.name}** face down on {where}."
        case TurnPassed():
            return f"<@{event.player}> passes: {PASS_TEXT[event.reason]}."
        case LuckyFindTraded():
            return (
                f"<@{event.player}> traded a Lucky Find! for {event.drawn} magic item cards "
                "(not counted as laid)."
            )
        case CardsDrawn():
            return "Your Lucky Find! brought:\n" + "\n".join(card_line(c) for c in event.cards)
        case CardRevealed():
            return (
                f"#{event.placement}: **{event.card.name}** on {describe_target(event.target)} "
                f"{REVEAL_TEXT[event.reason]} ({event.card.cost or 0:+d} pts)."
            )
        case CardPhaseComplete():
            return "All cards are laid. Either player may now ask to begin the battle."
        case ConfirmAsked():
            return (
                f"<@{event.by}> asks to {STEP_WORDS[event.step]}. It waits for <@{event.other}> to "
                f"confirm (or <@{event.by}> confirms their own)."
            )
        case ConfirmAnswered():
            return answered_line(event)
        case BattleBegun():
            return "The battle has begun: no more cards can be laid."
        case LossRecorded():
            costs = f" {event.card_costs:+d} from cards = {event.adjusted}" if event.card_costs else ""
            return (
                f"{describe_target(event.target)} destroyed: {event.base_points} pts{costs}; "
                f"<@{event.to_player}> scores {event.vp} VP."
            )
        case GameFinished():
            return "\n".join(["Game over. " + result_text(event.outcome), *summary_lines(event.summary)])
    return ""


def answered_line(event: ConfirmAnswered) -> str:
    """A confirmation answered: by the other player, or by the player who asked."""
    what = STEP_WORDS[event.step]
    own = event.player == event.by
    if event.confirmed:
        whose = "their own request" if own else f"<@{event.by}>'s request"
        return f"<@{event.player}> confirms {whose} to {what}."
    if own:
        return f"<@{event.player}> takes back the request to {what}. Nothing changes."
    return f"<@{event.player}> says not yet to <@{event.by}>'s request to {what}. Nothing changes."


def public_line(event: Event) -> str:
    """An event's line on the board: what the table saw (the board itself says whose turn it is and
    keeps the notes of the deal)."""
    match event:
        case TurnToLay():
            return ""
        case GameStarted():
            return started_line(event)
    return event_text(event)


# ------------------------------------------------------------------ questions and their prompts


def _laid(state: WarmasterState, card_id: str) -> tuple[int, bool, Target] | None:
    """Where a card went, if it was laid: its number, whether face up, and its target."""
    targets = {t.key: t for t in all_targets(state)}
    for laid in state.laid:
        if laid.held.id == card_id:
            return laid.placement, laid.face_up, targets[laid.target_key]
    return None


def question_words(state: WarmasterState, asked: Question) -> str:
    """A question's words on its message (a DM prompt, or the battle's message in the thread)."""
    if asked.topic == LAY and asked.players:
        hand = state.side(asked.players[0]).hand
        held = next((h for h in hand if h.id == asked.params.get("card")), None)
        if held is not None:
            return f"{card_line(CardView.of(held))}\n{asked.text}"
    if asked.topic == PASS:
        lines = [
            f"**Your turn to lay a card** ({asked.params.get('laid')} of {asked.params.get('limit')} "
            "laid so far).",
            "Each card you can lay has its own message here with its targets; or use `/warmaster play`.",
        ]
        option = asked.options[0] if asked.options else None
        if option is not None and option.disabled:
            lines.append(f"You can't pass: {option.description}")
        else:
            lines.append("Pass only when nothing you hold fits an open target.")
        return "\n".join(lines)
    if asked.topic == BEGIN:
        return (
            "**Begin the battle**\nEvery card that can be laid has been laid. Either of you may ask to "
            "begin the battle, and the other confirms: no card can be laid after that."
        )
    if asked.topic == FINISH:
        return (
            "**The battle is on**\nTurn your cards face up when they are used, and record each destroyed "
            "unit or character in your DMs (or with `/warmaster lost`). When the battle is over, either "
            "of you may ask to finish the game, and the other confirms; then it is scored."
        )
    if asked.topic == CONFIRM:
        return f"**{asked.title}**\n{pending_text(state)}\n{asked.text}"
    return f"**{asked.title}**\n{asked.text}".strip()


YOU_PASS = {
    PassReason.LIMIT: "you have laid all the cards allowed",
    PassReason.NO_CARDS: "you have no cards left to lay",
    PassReason.NO_FIT: "no card you hold fits an open target",
}


def what_you_did(player: int, events: list[Event]) -> list[str]:
    """The player's own doings in a step, as they may read them (a face-down card by its name)."""
    said = []
    for event in events:
        match event:
            case YouLaidFaceDown() | CardLaidFaceUp() if event.player == player:
                how = "face up" if isinstance(event, CardLaidFaceUp) else "face down"
                said.append(
                    f"You laid **{event.card.name}** {how} on {describe_target(event.target)} "
                    f"(#{event.placement})."
                )
            case TurnPassed() if event.player == player:
                said.append(f"You pass: {YOU_PASS[event.reason]}.")
    return said


def closed_text(state: WarmasterState, player: int, asked: Question, events: list[Event]) -> str | None:
    """What a private prompt says once it is no longer asked (its components are gone)."""
    if asked.topic == LAY:
        card = str(asked.params.get("card"))
        laid = _laid(state, card)
        if laid is not None:
            placement, face_up, target = laid
            return (
                f"Laid {'face up' if face_up else 'face down'} on {describe_target(target)} (#{placement})."
            )
        if any(h.id == card for h in state.side(player).hand):
            return "Not laid this turn: still in your hand."
        return "No longer in your hand."
    if asked.topic == PASS:
        return " ".join(what_you_did(player, events)) or "Your turn is over."
    if asked.topic == TRADE:
        drawn = [c.name for e in events if isinstance(e, CardsDrawn) and e.player == player for c in e.cards]
        if drawn:
            return "Traded: your Lucky Find! brought " + ", ".join(f"**{name}**" for name in drawn) + "."
        if state.phase is not Phase.CARDS:
            return "The card phase is over: nothing more to trade."
        return "Nothing to trade now."
    if asked.topic == REVEAL:
        return (
            "The game is over: every card is face up."
            if state.finished
            else "Every card you laid is face up."
        )
    if asked.topic == LOST:
        return "The game is over. " + (result_text(state.outcome) if state.outcome else "")
    return None


def reply_lines(state: WarmasterState, events: list[Event], actor: int) -> list[str]:
    """The acting player's answer: what they alone may read first (a face-down card's name, the
    cards a Lucky Find! brought), then what the table saw, then who acts next."""
    mine = [event_text(e) for e in events if e.private_to == actor and not isinstance(e, HandDealt)]
    public = [line for e in events if e.private_to is None and (line := public_line(e))]
    lines = [line for line in [*mine, *public] if line]
    if not state.finished and not any(isinstance(e, ConfirmAsked) for e in events):
        lines.append(prompt_text(state))
    return lines
