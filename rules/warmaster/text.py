"""One short line per event, for the channel (public events) or the player's DM (private ones).

A face-down card's public line names the target and the deck only; its name appears in text only
in the owner's private lines and, once it is turned up, in the reveal.
"""

from __future__ import annotations

from rules.session import Event
from rules.warmaster.models import (
    BattleBegun,
    CardLaidFaceDown,
    CardLaidFaceUp,
    CardPhaseComplete,
    CardRevealed,
    CardsDrawn,
    CardView,
    GameFinished,
    GameStarted,
    HandDealt,
    LossRecorded,
    LuckyFindTraded,
    PassReason,
    RevealReason,
    TurnPassed,
    TurnToLay,
    VpSummary,
    YouLaidFaceDown,
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
            hands = "; ".join(
                f"<@{h.player}> {h.points:,} pts: {h.magic} magic item"
                + (f" + {h.tactics} tactics" if event.tactics_dealt else "")
                + f" cards, lays up to {h.limit}"
                for h in event.hands
            )
            first = f"<@{event.first}> has the first turn"
            if event.rolloff:
                first += " (roll-off " + ", ".join(f"{a}–{b}" for a, b in event.rolloff) + ")"
            return "\n".join(
                [
                    f"Warmaster cards dealt. {hands}.",
                    f"{first} and lays the first and last card.",
                    *event.notes,
                ]
            )
        case HandDealt():
            return "Your hand:\n" + "\n".join(card_line(c) for c in event.cards)
        case TurnToLay():
            return f"<@{event.player}>, lay a card ({event.laid} of {event.limit} laid)."
        case CardLaidFaceUp():
            return (
                f"#{event.placement}: <@{event.player}> laid **{event.card.name}** ({event.card.deck.label}) "
                f"face up on {event.target.describe()}."
            )
        case CardLaidFaceDown():
            return (
                f"#{event.placement}: <@{event.player}> laid a face-down {event.deck.label} card on "
                f"{event.target.describe()}."
            )
        case YouLaidFaceDown():
            return (
                f"#{event.placement}: you laid **{event.card.name}** face down on {event.target.describe()}."
            )
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
                f"#{event.placement}: **{event.card.name}** on {event.target.describe()} "
                f"{REVEAL_TEXT[event.reason]} ({event.card.cost or 0:+d} pts)."
            )
        case CardPhaseComplete():
            return "All cards are laid. Either player may now begin the battle."
        case BattleBegun():
            return "The battle has begun: no more cards can be laid."
        case LossRecorded():
            costs = f" {event.card_costs:+d} from cards = {event.adjusted}" if event.card_costs else ""
            return (
                f"{event.target.describe()} destroyed: {event.base_points} pts{costs}; "
                f"<@{event.to_player}> scores {event.vp} VP."
            )
        case GameFinished():
            return "\n".join(["Game over. " + event.outcome.summary, *summary_lines(event.summary)])
    return ""
