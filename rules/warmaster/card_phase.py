"""The card phase: laying a card, passing, trading a Lucky Find!, turning a card face up."""

from __future__ import annotations

from rules.errors import RuleError
from rules.session import Event
from rules.warmaster.actions import (
    PassTurn,
    PlayCard,
    RevealCard,
    TradeLuckyFind,
)
from rules.warmaster.cards import LUCKY_FIND_DRAWS
from rules.warmaster.events import (
    CardLaidFaceDown,
    CardLaidFaceUp,
    CardRevealed,
    CardsDrawn,
    CardView,
    LuckyFindTraded,
    TurnPassed,
    YouLaidFaceDown,
)
from rules.warmaster.labels import SLOT_NAMES, target_values
from rules.warmaster.models import (
    HeldCard,
    LaidCard,
    PassReason,
    Phase,
    RevealReason,
    SideState,
    WarmasterState,
)
from rules.warmaster.targeting import all_targets, lays_face_down, resolve_target, slot_free
from rules.warmaster.targets import (
    Target,
    carrier_words,
)
from rules.warmaster.turns import auto_pass_reason, pass_refusal, replace_side, settle_turn


def _find_in_hand(side: SideState, ref: str) -> HeldCard:
    wanted = ref.strip().casefold()
    for held in side.hand:
        if held.id.casefold() == wanted:
            return held
    for held in side.hand:
        if held.card.name.casefold() == wanted:
            return held
    raise RuleError(code="warmaster.not_in_hand", card=ref[:100])


def _require_cards_phase(state: WarmasterState) -> None:
    if state.phase is not Phase.CARDS:
        raise RuleError(code="warmaster.battle_begun")


def _require_turn(state: WarmasterState, side: SideState) -> None:
    if side.done is not None:
        raise RuleError(code="warmaster.done_laying", reason=side.done.value)
    if state.turn is None:
        raise RuleError(code="warmaster.nobody_lays")
    if state.turn != side.player:
        raise RuleError(code="warmaster.not_your_turn", player=state.turn)


def play(state: WarmasterState, action: PlayCard) -> tuple[WarmasterState, list[Event]]:
    _require_cards_phase(state)
    side = state.side(action.actor)
    _require_turn(state, side)
    held = _find_in_hand(side, action.card)
    if held.card.is_traded:
        raise RuleError(code="warmaster.lucky_find_not_laid", card=held.card.name, draws=LUCKY_FIND_DRAWS)
    if side.laid >= side.limit:
        raise RuleError(code="warmaster.limit_reached", limit=side.limit)
    target, is_new = resolve_target(state, action.actor, action.target, for_play=True)
    carrier = held.card.carrier
    if carrier is None or not carrier.allows(target):
        raise RuleError(
            code="warmaster.wrong_carrier",
            card=held.card.name,
            carrier=carrier.value if carrier else None,
            allowed=carrier_words(CardView.of(held).carrier),
            **target_values(target),
        )
    if not slot_free(state, target.key, held.deck):
        raise RuleError(
            code="warmaster.slot_taken", deck=SLOT_NAMES[held.deck.value], **target_values(target)
        )
    face_up = not lays_face_down(state, action.actor, target)
    placement = len(state.laid) + 1
    laid = LaidCard(
        placement=placement, player=action.actor, held=held, target_key=target.key, face_up=face_up
    )
    new_side = side.model_copy(
        update={"hand": [h for h in side.hand if h.id != held.id], "laid": side.laid + 1}
    )
    new_state = state.model_copy(
        update={
            "sides": replace_side(state, new_side),
            "laid": [*state.laid, laid],
            "targets": [*state.targets, target] if is_new else state.targets,
        }
    )
    events: list[Event]
    if face_up:
        events = [
            CardLaidFaceUp(placement=placement, player=action.actor, target=target, card=CardView.of(held))
        ]
        if held.card.reveals_opponent_cards:
            new_state, more = _scrying(new_state, target)
            events += more
    else:
        events = [
            CardLaidFaceDown(placement=placement, player=action.actor, deck=held.deck, target=target),
            YouLaidFaceDown(
                private_to=action.actor,
                placement=placement,
                player=action.actor,
                target=target,
                card=CardView.of(held),
            ),
        ]
    new_state, more = settle_turn(new_state, [new_state.opponent(action.actor), action.actor])
    return new_state, events + more


def pass_turn(state: WarmasterState, action: PassTurn) -> tuple[WarmasterState, list[Event]]:
    _require_cards_phase(state)
    side = state.side(action.actor)
    _require_turn(state, side)
    reason = auto_pass_reason(state, side)
    if reason is None:
        refusal = pass_refusal(state, action.actor)
        if refusal is not None:
            raise refusal
        reason = PassReason.NO_FIT
    new_state = state.model_copy(
        update={"sides": replace_side(state, side.model_copy(update={"done": reason}))}
    )
    events: list[Event] = [TurnPassed(player=action.actor, reason=reason)]
    new_state, more = settle_turn(new_state, [state.opponent(action.actor), action.actor])
    return new_state, events + more


def trade(state: WarmasterState, action: TradeLuckyFind) -> tuple[WarmasterState, list[Event]]:
    """A Lucky Find! may be traded at any moment of the card phase; it does not use a turn."""
    _require_cards_phase(state)
    side = state.side(action.actor)
    lucky = [h for h in side.hand if h.card.is_traded]
    if action.card is not None:
        held = _find_in_hand(side, action.card)
        if not held.card.is_traded:
            raise RuleError(code="warmaster.not_traded", card=held.card.name)
    elif lucky:
        held = lucky[0]
    else:
        raise RuleError(code="warmaster.nothing_to_trade")
    if not state.draw_pile:
        raise RuleError(code="warmaster.deck_empty")
    drawn = state.draw_pile[:LUCKY_FIND_DRAWS]
    hand = [h for h in side.hand if h.id != held.id] + drawn
    new_side = side.model_copy(update={"hand": hand})
    new_state = state.model_copy(
        update={"sides": replace_side(state, new_side), "draw_pile": state.draw_pile[LUCKY_FIND_DRAWS:]}
    )
    events: list[Event] = [
        LuckyFindTraded(player=action.actor, drawn=len(drawn)),
        CardsDrawn(private_to=action.actor, player=action.actor, cards=[CardView.of(h) for h in drawn]),
    ]
    return new_state, events


def turn_up(
    state: WarmasterState, placements: set[int], reason: RevealReason
) -> tuple[WarmasterState, list[Event]]:
    targets = {t.key: t for t in all_targets(state)}
    laid: list[LaidCard] = []
    events: list[Event] = []
    for card in state.laid:
        if card.placement in placements and not card.face_up:
            card = card.model_copy(update={"face_up": True, "revealed": reason})
            events.append(
                CardRevealed(
                    placement=card.placement,
                    player=card.player,
                    target=targets[card.target_key],
                    card=CardView.of(card.held),
                    reason=reason,
                )
            )
        laid.append(card)
    return state.model_copy(update={"laid": laid}), events


def _scrying(state: WarmasterState, carrier: Target) -> tuple[WarmasterState, list[Event]]:
    """A face-up Scrying Glass: the carrier's enemy turns up every laid card and lays the rest face up."""
    if carrier.owner is None:
        return state, []
    exposed = state.side(state.opponent(carrier.owner))
    state = state.model_copy(
        update={"sides": replace_side(state, exposed.model_copy(update={"exposed": True}))}
    )
    hidden = {c.placement for c in state.laid if c.player == exposed.player and not c.face_up}
    return turn_up(state, hidden, RevealReason.SCRYING)


def reveal(state: WarmasterState, action: RevealCard) -> tuple[WarmasterState, list[Event]]:
    laid = next((c for c in state.laid if c.placement == action.placement), None)
    if laid is None:
        raise RuleError(code="warmaster.no_such_card", placement=action.placement)
    if laid.player != action.actor:
        raise RuleError(code="warmaster.not_your_card", placement=action.placement)
    if laid.face_up:
        raise RuleError(code="warmaster.already_face_up", placement=action.placement)
    new_state, events = turn_up(state, {laid.placement}, RevealReason.OWNER)
    if laid.held.card.reveals_opponent_cards:
        carrier = next(t for t in all_targets(state) if t.key == laid.target_key)
        new_state, more = _scrying(new_state, carrier)
        events += more
    return new_state, events
