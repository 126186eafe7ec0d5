"""Warmaster in words: refusals by code, one short line per event, and where the game stands (the
board's status, a side at a glance, a hand's first line, the acting player's reply), in the
language in force.

Refusals are worded in English in `ENGLISH` (the catalogue translates each by its code, and
`refusal_values` words the values that are ids); every other line is marked where it is made.
Public lines go to the board (in the game's thread), private ones to the player's DMs. A face-down
card's public line names the target and the deck only; its name appears in text only in what its
owner sees and, once it is turned up, in the reveal.
"""

from __future__ import annotations

from bot.lang.i18n import Domain, Value
from bot.lang.text import add_words
from cogs.warmaster_words import (
    card_line,
    carrier_text,
    deck_card,
    deck_label,
    deck_name,
    describe_target,
    fixed_name,
    kind_whose,
    new_target_label,
    type_list,
)
from rules.errors import ParamValue
from rules.session import Event, GameOutcome
from rules.warmaster.models import (
    BattleBegun,
    CardLaidFaceDown,
    CardLaidFaceUp,
    CardPhaseComplete,
    CardRevealed,
    CardsDrawn,
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
from rules.warmaster.views import prompt

__all__ = ["card_line", "describe_target", "new_target_label"]  # shown by the cog and its tests

_ = Domain("warmaster")

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
}


def refusal_values(code: str, params: dict[str, ParamValue]) -> dict[str, ParamValue]:
    """A refusal's values that are ids or the rules' English (a kind of target, a deck, who may
    carry a card, the unit types allowed), in the language in force."""
    values = dict(params)
    kind, deck, allowed = params.get("kind"), params.get("deck"), params.get("allowed")
    if code in ("warmaster.target_whose", "warmaster.new_target_whose") and isinstance(kind, str):
        values["kind"] = kind_whose(kind)
    if code == "warmaster.slot_taken" and isinstance(deck, str):
        values["deck"] = deck_name(deck)
    if code == "warmaster.wrong_carrier" and isinstance(allowed, str):
        values["allowed"] = carrier_text(allowed)
    if code == "warmaster.type_unknown" and isinstance(allowed, str):
        values["allowed"] = type_list(allowed.split(", "))
    target, target_kind = params.get("target"), params.get("target_kind")
    if isinstance(target, str) and isinstance(target_kind, str):
        values["target"] = fixed_name(target_kind, target)
    return values


add_words(ENGLISH, values=refusal_values)  # here, so whatever imports the words has them

LIMITS_NOTE = _.mark(
    "Limits: the first player lays up to 4 cards and the second up to 3; both limits grow by one "
    "for each extra card of each deck the smaller army was dealt."
)
NO_TACTICS_NOTE = _.mark(
    "No tactics deck is loaded on this server, so only magic item cards are dealt "
    "(an organiser can load one with a pack)."
)


def who(player: int) -> str:
    return f"<@{player}>"


def pass_text(reason: PassReason) -> str:
    """Why a player passes, after their name: '@Alice passes: has no cards left to lay.'"""
    words = {
        PassReason.LIMIT: _("has laid all the cards allowed"),
        PassReason.NO_CARDS: _("has no cards left to lay"),
        PassReason.NO_FIT: _("says no card in hand fits an open target"),
    }
    return words[reason]


def revealed_line(event: CardRevealed) -> str:
    """A card turned up, and why."""
    values: dict[str, Value] = {
        "placement": event.placement,
        "card": event.card.name,
        "target": describe_target(event.target),
        "cost": event.card.cost or 0,
    }
    match event.reason:
        case RevealReason.OWNER:
            return _("#{placement}: **{card}** on {target} turned face up ({cost:+d} pts).", **values)
        case RevealReason.LOST:
            return _(
                "#{placement}: **{card}** on {target} turned face up as its carrier was destroyed "
                "({cost:+d} pts).",
                **values,
            )
        case RevealReason.SCRYING:
            return _(
                "#{placement}: **{card}** on {target} turned face up by a Scrying Glass ({cost:+d} pts).",
                **values,
            )
    return _(
        "#{placement}: **{card}** on {target} turned face up at the end of the game ({cost:+d} pts).",
        **values,
    )


def pending_text(state: WarmasterState) -> str:
    """Who asked for the step waiting for a confirmation, and who may answer it ('' when none waits)."""
    pending = state.pending
    if pending is None:
        return ""
    by, other = who(pending.by), who(state.opponent(pending.by))
    if pending.action.kind == "begin":
        return _(
            "{by} asks to begin the battle: {other} confirms (or {by} confirms their own), and Not yet "
            "from either takes it back.",
            by=by,
            other=other,
        )
    return _(
        "{by} asks to finish and score the game: {other} confirms (or {by} confirms their own), and "
        "Not yet from either takes it back.",
        by=by,
        other=other,
    )


def asked_line(event: ConfirmAsked) -> str:
    """A step pressed by one player, waiting for a confirmation."""
    by, other = who(event.by), who(event.other)
    if event.step == "begin":
        return _(
            "{by} asks to begin the battle. It waits for {other} to confirm (or {by} confirms their own).",
            by=by,
            other=other,
        )
    return _(
        "{by} asks to finish and score the game. It waits for {other} to confirm (or {by} confirms "
        "their own).",
        by=by,
        other=other,
    )


def answered_line(event: ConfirmAnswered) -> str:
    """A confirmation answered: by the other player, or by the player who asked."""
    values: dict[str, Value] = {"player": who(event.player), "by": who(event.by)}
    begin: bool = event.step == "begin"
    own = event.player == event.by
    if event.confirmed and own:
        if begin:
            return _("{player} confirms their own request to begin the battle.", **values)
        return _("{player} confirms their own request to finish and score the game.", **values)
    if event.confirmed:
        if begin:
            return _("{player} confirms {by}'s request to begin the battle.", **values)
        return _("{player} confirms {by}'s request to finish and score the game.", **values)
    if own:
        if begin:
            return _("{player} takes back the request to begin the battle. Nothing changes.", **values)
        return _("{player} takes back the request to finish and score the game. Nothing changes.", **values)
    if begin:
        return _("{player} says not yet to {by}'s request to begin the battle. Nothing changes.", **values)
    return _(
        "{player} says not yet to {by}'s request to finish and score the game. Nothing changes.", **values
    )


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


def board_status(state: WarmasterState) -> str:
    """The board's first words: the phase and who acts in it."""
    if state.phase is Phase.OVER:
        return _("**Game over.** {result}", result=result_text(state.outcome) if state.outcome else "")
    if state.pending is not None:
        return _("**Waiting for a confirmation.** {pending}", pending=pending_text(state))
    if state.phase is Phase.BATTLE:
        return _(
            "**The battle is on.** Turn a card face up when it is used or contacted; record each "
            "destroyed unit or character with its points (in your DMs, or `/warmaster lost`); "
            "finish the game to score it."
        )
    if state.turn is None:
        return _(
            "**Card phase over.** Every card that can be laid has been laid: begin the battle when ready."
        )
    side = state.side(state.turn)
    return _(
        "**Card phase.** {player} lays a card ({laid} of {limit} laid so far).",
        player=who(state.turn),
        laid=side.laid,
        limit=side.limit,
    )


def side_header(state: WarmasterState, side: SideState) -> str:
    """One side at a glance: the army, the cards dealt and held, the cards laid."""
    values: dict[str, Value] = {
        "player": who(side.player),
        "points": side.hand_size.points,
        "magic": side.hand_size.magic,
        "tactics": side.hand_size.tactics,
        "held": len(side.hand),
        "laid": side.laid,
        "limit": side.limit,
    }
    if state.tactics_dealt:
        line = _(
            "{player}: {points:,} pts, {magic} magic item + {tactics} tactics cards dealt, {held} in hand; "
            "laid {laid} of {limit}",
            **values,
        )
    else:
        line = _(
            "{player}: {points:,} pts, {magic} magic item cards dealt, {held} in hand; "
            "laid {laid} of {limit}",
            **values,
        )
    if side.done is not None and state.phase is Phase.CARDS:
        line += f" ({pass_text(side.done)})"
    return line


def small_army_note(player: int, points: int) -> str:
    return _(
        "{player}'s army is {points:,} points: the card rules are written for 1,500 points and up, so "
        "the base hand is dealt.",
        player=who(player),
        points=points,
    )


def notes_lines(state: WarmasterState) -> list[str]:
    """What the board keeps saying about the deal: the limits, small armies, a missing deck."""
    notes = [_(LIMITS_NOTE)] if state.phase is Phase.CARDS else []
    for side in state.sides:
        if side.hand_size.below_written_size:
            notes.append(small_army_note(side.player, side.hand_size.points))
    if not state.tactics_dealt:
        notes.append(_(NO_TACTICS_NOTE))
    return notes


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


def started_line(event: GameStarted) -> str:
    """Who was dealt what, and who lays first."""
    hands = []
    for hand in event.hands:
        values: dict[str, Value] = {
            "player": who(hand.player),
            "points": hand.points,
            "magic": hand.magic,
            "tactics": hand.tactics,
            "limit": hand.limit,
        }
        if event.tactics_dealt:
            hands.append(
                _(
                    "{player} {points:,} pts: {magic} magic item + {tactics} tactics cards, "
                    "lays up to {limit}",
                    **values,
                )
            )
        else:
            hands.append(_("{player} {points:,} pts: {magic} magic item cards, lays up to {limit}", **values))
    if event.rolloff:
        dice = ", ".join(f"{a}–{b}" for a, b in event.rolloff)
        first = _("{player} has the first turn (roll-off {dice})", player=who(event.first), dice=dice)
    else:
        first = _("{player} has the first turn", player=who(event.first))
    return _(
        "Warmaster cards dealt. {hands}.\n{first} and lays the first and last card.",
        hands="; ".join(hands),
        first=first,
    )


def started_notes(event: GameStarted) -> list[str]:
    """The notes a new game's announcement carries: the limits, small armies, a missing deck."""
    notes = [_(LIMITS_NOTE)]
    for hand in event.hands:
        if hand.below_written_size:
            notes.append(small_army_note(hand.player, hand.points))
    if not event.tactics_dealt:
        notes.append(_(NO_TACTICS_NOTE))
    return notes


def result_text(outcome: GameOutcome) -> str:
    """The result line with both players: '@Alice 210 VP, @Bob 355 VP'."""
    line = ", ".join(
        _("{player} {score} VP", player=who(side.player), score=side.score) for side in outcome.sides
    )
    return line if outcome.winner is not None else _("{result} (a draw)", result=line)


def summary_lines(summary: VpSummary) -> list[str]:
    lines = []
    for side in summary.sides:
        values: dict[str, Value] = {
            "player": who(side.player),
            "vp": side.from_losses,
            "destroyed": side.destroyed,
            "bonus": side.survival_bonus,
            "total": side.total,
        }
        if side.survival_bonus:
            lines.append(
                _(
                    "{player}: {vp} VP from {destroyed} destroyed + {bonus} survival bonus = **{total} VP**",
                    **values,
                )
            )
        else:
            lines.append(_("{player}: {vp} VP from {destroyed} destroyed = **{total} VP**", **values))
    return lines


def loss_line(event: LossRecorded) -> str:
    values: dict[str, Value] = {
        "target": describe_target(event.target),
        "points": event.base_points,
        "costs": event.card_costs,
        "adjusted": event.adjusted,
        "player": who(event.to_player),
        "vp": event.vp,
    }
    if event.card_costs:
        return _(
            "{target} destroyed: {points} pts {costs:+d} from cards = {adjusted}; {player} scores {vp} VP.",
            **values,
        )
    return _("{target} destroyed: {points} pts; {player} scores {vp} VP.", **values)


def event_text(event: Event) -> str:
    match event:
        case GameStarted():
            return "\n".join([started_line(event), *started_notes(event)])
        case HandDealt():
            return "\n".join([_("Your hand:"), *(card_line(c) for c in event.cards)])
        case TurnToLay():
            return _(
                "{player}, lay a card ({laid} of {limit} laid).",
                player=who(event.player),
                laid=event.laid,
                limit=event.limit,
            )
        case CardLaidFaceUp():
            return _(
                "#{placement}: {player} laid **{card}** ({deck}) face up on {target}.",
                placement=event.placement,
                player=who(event.player),
                card=event.card.name,
                deck=deck_label(event.card.deck),
                target=describe_target(event.target),
            )
        case CardLaidFaceDown():
            return _(
                "#{placement}: {player} laid a face-down {card} on {target}.",
                placement=event.placement,
                player=who(event.player),
                card=deck_card(event.deck),
                target=describe_target(event.target),
            )
        case YouLaidFaceDown():
            return _(
                "#{placement}: you laid **{card}** face down on {target}.",
                placement=event.placement,
                card=event.card.name,
                target=describe_target(event.target),
            )
        case TurnPassed():
            return _("{player} passes: {why}.", player=who(event.player), why=pass_text(event.reason))
        case LuckyFindTraded():
            return _(
                "{player} traded a Lucky Find! for {drawn} magic item cards (not counted as laid).",
                player=who(event.player),
                drawn=event.drawn,
            )
        case CardsDrawn():
            return "\n".join([_("Your Lucky Find! brought:"), *(card_line(c) for c in event.cards)])
        case CardRevealed():
            return revealed_line(event)
        case CardPhaseComplete():
            return _("All cards are laid. Either player may now ask to begin the battle.")
        case ConfirmAsked():
            return asked_line(event)
        case ConfirmAnswered():
            return answered_line(event)
        case BattleBegun():
            return _("The battle has begun: no more cards can be laid.")
        case LossRecorded():
            return loss_line(event)
        case GameFinished():
            over = _("Game over. {result}", result=result_text(event.outcome))
            return "\n".join([over, *summary_lines(event.summary)])
    return ""


def public_line(event: Event) -> str:
    """An event's line on the board: what the table saw (the board itself says whose turn it is and
    keeps the notes of the deal)."""
    match event:
        case TurnToLay():
            return ""
        case GameStarted():
            return started_line(event)
    return event_text(event)


def reply_lines(state: WarmasterState, events: list[Event], actor: int) -> list[str]:
    """The acting player's answer: what they alone may read first (a face-down card's name, the
    cards a Lucky Find! brought), then what the table saw, then who acts next."""
    mine = [event_text(e) for e in events if e.private_to == actor and not isinstance(e, HandDealt)]
    public = [line for e in events if e.private_to is None and (line := public_line(e))]
    lines = [line for line in [*mine, *public] if line]
    if not state.finished and not any(isinstance(e, ConfirmAsked) for e in events):
        lines.append(prompt_text(state))
    return lines
