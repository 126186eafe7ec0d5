"""Whose turn it is to lay a card, what they may lay, and when they may say that nothing fits.

A card that can be laid must be: a player passes only with nothing legal to lay, and a player with
nothing left to lay is passed for at once."""

from __future__ import annotations

from rules.errors import RuleError
from rules.session import Event
from rules.warmaster.events import (
    CardPhaseComplete,
    TurnPassed,
    TurnToLay,
)
from rules.warmaster.labels import target_values
from rules.warmaster.models import HeldCard, PassReason, Phase, SideState, WarmasterState
from rules.warmaster.targeting import all_targets, slot_free
from rules.warmaster.targets import (
    CharacterRole,
    Restriction,
    Target,
)


def tradable_lucky_finds(state: WarmasterState, side: SideState) -> list[HeldCard]:
    return [h for h in side.hand if h.card.is_traded] if state.draw_pile else []


def legal_plays(state: WarmasterState, player: int) -> list[tuple[HeldCard, Target]]:
    """Every (card, target) the player could lay now on a target the game already knows."""
    side = state.side(player)
    if state.phase is not Phase.CARDS or state.turn != player or side.laid >= side.limit:
        return []
    targets = all_targets(state)
    return [
        (held, target)
        for held in side.hand
        if not held.card.is_traded
        for target in targets
        if held.card.carrier is not None
        and held.card.carrier.allows(target)
        and slot_free(state, target.key, held.deck)
    ]


def auto_pass_reason(state: WarmasterState, side: SideState) -> PassReason | None:
    if side.laid >= side.limit:
        return PassReason.LIMIT
    if not any(not h.card.is_traded for h in side.hand) and not tradable_lucky_finds(state, side):
        return PassReason.NO_CARDS
    return None


def settle_turn(state: WarmasterState, order: list[int]) -> tuple[WarmasterState, list[Event]]:
    """Give the turn to the first player in `order` who can still lay; pass the others for them."""
    events: list[Event] = []
    sides = list(state.sides)
    for player in order:
        index = state.players.index(player)
        side = sides[index]
        if side.done is not None:
            continue
        reason = auto_pass_reason(state, side)
        if reason is None:
            new_state = state.model_copy(update={"sides": sides, "turn": player})
            return new_state, [*events, TurnToLay(player=player, laid=side.laid, limit=side.limit)]
        sides[index] = side.model_copy(update={"done": reason})
        events.append(TurnPassed(player=player, reason=reason))
    done = state.model_copy(update={"sides": sides, "turn": None})
    return done, [*events, CardPhaseComplete(laid={s.player: s.laid for s in sides})]


def replace_side(state: WarmasterState, side: SideState) -> list[SideState]:
    return [side if s.player == side.player else s for s in state.sides]


def _surely_playable(state: WarmasterState, held: HeldCard) -> str | None:
    """The refusal code when a card surely fits a target the game has not been told about yet.

    Every army has units (more than the cards laid) and exactly one General; anything rarer
    (wizards, machines, terrain ...) depends on the armies, so there the player's word is taken.
    """
    carrier = held.card.carrier
    if carrier in (Restriction.UNIT, Restriction.CHARACTER_OR_UNIT, Restriction.ANY):
        return "warmaster.must_lay_on_a_unit"
    if carrier in (Restriction.GENERAL, Restriction.WIZARD_OR_GENERAL, Restriction.CHARACTER):
        generals = {t.owner for t in state.targets if t.role is CharacterRole.GENERAL}
        if any(player not in generals for player in state.players):
            return "warmaster.must_lay_on_a_general"
    return None


def pass_refusal(state: WarmasterState, player: int) -> RuleError | None:
    """Why the player, whose turn it is, may not say that no card fits (None when they may).

    A card that can be laid must be: a Lucky Find! is traded first, a card that fits a known open
    target is laid there, and one that fits what every army surely has is laid on that.
    """
    side = state.side(player)
    lucky = tradable_lucky_finds(state, side)
    if lucky:
        return RuleError(code="warmaster.trade_first", card=lucky[0].card.name)
    plays = legal_plays(state, player)
    if plays:
        held, target = plays[0]
        return RuleError(code="warmaster.must_lay", card=held.card.name, **target_values(target))
    for held in side.hand:
        code = _surely_playable(state, held)
        if code:
            return RuleError(code=code, card=held.card.name)
    return None
