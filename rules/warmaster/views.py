"""Read-only views for the bot: where the game stands, a player's secret view, the known targets."""

from __future__ import annotations

from rules.session import Model
from rules.warmaster.events import CardView
from rules.warmaster.models import PassReason, Phase, WarmasterState
from rules.warmaster.targeting import all_targets, cards_on, slot_free
from rules.warmaster.targets import Target
from rules.warmaster.turns import legal_plays, tradable_lucky_finds


class Prompt(Model):
    """Where the game stands: the phase, and in the card phase who lays next and how far they are."""

    phase: Phase
    turn: int | None  # who lays the next card
    laid: int = 0  # cards the player whose turn it is has laid
    limit: int = 0  # cards that player may lay


class LaidView(Model):
    placement: int
    target: Target
    card: CardView
    face_up: bool


class PrivateView(Model):
    """What one player may see: their hand and their own face-down cards."""

    player: int
    hand: list[CardView]
    face_down: list[LaidView]
    laid: int
    limit: int
    done: PassReason | None
    your_turn: bool
    can_trade: bool
    tactics_dealt: bool


class TargetView(Model):
    """A target with what it already holds, as anyone at the table can see it."""

    target: Target
    holds_magic: bool
    holds_tactics: bool
    lost: bool


def prompt(state: WarmasterState) -> Prompt:
    if state.phase is not Phase.CARDS or state.turn is None:
        return Prompt(phase=state.phase, turn=None)
    side = state.side(state.turn)
    return Prompt(phase=state.phase, turn=state.turn, laid=side.laid, limit=side.limit)


def private_view(state: WarmasterState, player: int) -> PrivateView:
    state.require_player(player)
    side = state.side(player)
    targets = {t.key: t for t in all_targets(state)}
    face_down = [
        LaidView(
            placement=c.placement, target=targets[c.target_key], card=CardView.of(c.held), face_up=c.face_up
        )
        for c in state.laid
        if c.player == player and not c.face_up
    ]
    return PrivateView(
        player=player,
        hand=[CardView.of(h) for h in side.hand],
        face_down=face_down,
        laid=side.laid,
        limit=side.limit,
        done=side.done,
        your_turn=state.phase is Phase.CARDS and state.turn == player,
        can_trade=state.phase is Phase.CARDS and bool(tradable_lucky_finds(state, side)),
        tactics_dealt=state.tactics_dealt,
    )


def known_targets(state: WarmasterState) -> list[TargetView]:
    """Every target the game knows (both players, both armies, the table, and all named so far)."""
    lost = {loss.target_key for loss in state.losses}
    views: list[TargetView] = []
    for target in all_targets(state):
        decks = {c.held.deck.value for c in cards_on(state, target.key)}
        views.append(
            TargetView(
                target=target,
                holds_magic="magic" in decks,
                holds_tactics="tactics" in decks,
                lost=target.key in lost,
            )
        )
    return views


def playable_targets(state: WarmasterState, player: int, card_id: str) -> list[Target]:
    """Known targets on which the player could lay that card now (for autocomplete)."""
    return [
        target
        for held, target in legal_plays(state, player)
        if held.id == card_id and slot_free(state, target.key, held.deck)
    ]
