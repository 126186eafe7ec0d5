"""Warmaster at the table: the living board (where the game stands, each side's army and laid
cards as the table sees them, losses and victory points) and one short line per event, in the
language in force.

Public lines go to the board (in the game's thread), private ones to the player's DMs. A face-down
card's public line names the target and the deck only; its name appears in text only in what its
owner sees and, once it is turned up, in the reveal.
"""

from __future__ import annotations

from bot.chat.limits import FIELD_VALUE
from bot.chat.messages import Embed
from bot.lang.i18n import Domain, Value
from cogs.warmaster.vocabulary import card_line, cost_text, deck_label, describe_target
from rules.session import Event, GameOutcome
from rules.text import clip
from rules.warmaster import known_targets, vp_summary
from rules.warmaster.events import (
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
    TurnPassed,
    TurnToLay,
    VpSummary,
    YouLaidFaceDown,
)
from rules.warmaster.labels import deck_card
from rules.warmaster.models import PassReason, Phase, RevealReason, SideState, WarmasterState

_ = Domain("warmaster")

COLOUR = 0x2E4A7A
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


# ------------------------------------------------------------------ the board


def add_lines(embed: Embed, name: str, lines: list[str], limit: int = FIELD_VALUE) -> None:
    """Every line in fields of at most `limit` characters (a long hand takes several fields, the
    later ones named "(continued)"), so each card stays visible to its owner."""
    chunk: list[str] = []
    title = name
    for line in (clip(line, limit) for line in lines):
        if chunk and len("\n".join([*chunk, line])) > limit:
            embed.add(title, "\n".join(chunk))
            chunk, title = [], _.p("field", "{name} (continued)", name=name)
        chunk.append(line)
    if chunk:
        embed.add(title, "\n".join(chunk))


def board_embed(state: WarmasterState) -> Embed:
    """The living board: where the game stands, each side's army and laid cards as the table sees
    them (a face-down card by its deck only), what was destroyed, and the victory points."""
    targets = {v.target.key: v.target for v in known_targets(state)}
    embed = Embed(title="Warmaster", description=board_status(state), colour=COLOUR)
    for side in state.sides:
        lines = [side_header(state, side)]
        for laid in state.laid:
            if laid.player != side.player:
                continue
            where = describe_target(targets[laid.target_key])
            if laid.face_up:
                printed = laid.held.card
                lines.append(
                    _(
                        "#{placement} **{card}** ({cost}) on {target}",
                        placement=laid.placement,
                        card=printed.name,
                        cost=cost_text(printed.cost),
                        target=where,
                    )
                )
            else:
                deck = deck_card(laid.held.deck)
                lines.append(
                    _(
                        "#{placement} face-down {card} on {target}",
                        placement=laid.placement,
                        card=deck,
                        target=where,
                    )
                )
        first = side.player == state.first
        add_lines(embed, _.p("field", "First player") if first else _.p("field", "Second player"), lines)
    notes = notes_lines(state)
    if notes:
        add_lines(embed, _.p("field", "Notes"), notes)
    if state.losses:
        lost = [
            _(
                "{target}: {points} {costs:+d} → {vp} VP to {player}",
                target=describe_target(targets[loss.target_key]),
                points=loss.base_points,
                costs=loss.card_costs,
                vp=loss.vp,
                player=f"<@{loss.to_player}>",
            )
            for loss in state.losses
        ]
        add_lines(embed, _.p("field", "Destroyed"), lost)
    if state.phase is not Phase.CARDS:
        over = state.phase is Phase.OVER
        name = _.p("field", "Victory points") if over else _.p("field", "Victory points so far")
        add_lines(embed, name, summary_lines(vp_summary(state)))
    return embed
