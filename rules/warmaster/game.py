"""The Warmaster card phase as a state machine: deal hidden hands, lay cards in turn, begin, score.

The rules this enforces (from the Players Society text):
- each player is dealt magic item and tactics cards by army size (`hands.hand_size`);
- players lay one card at a time, alternately; the player with the first turn lays the first and
  the last card, up to the limits of `hands.play_limits` (4 and 3 for the base hand);
- a target holds at most one magic item card and one tactics card, and a card goes only on what
  its carrier line allows;
- cards go face down on the player's own units and on neutral targets, face up on the opponent's;
- a card that can be laid must be: a player passes only with nothing legal to lay;
- a Lucky Find! is traded for two magic item cards and is not counted;
- nothing is laid once the battle begins; a card's cost is added to its carrier's points when the
  carrier is destroyed.

Beginning the battle and finishing the game can't be undone, so one player's press only asks for
them (rules/confirmation.py): the other player confirms, or the player who pressed confirms their own; "not
yet" from either withdraws it. Nothing else is taken while one waits.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import TypeAdapter

from rules.confirmation import ConfirmPending, answer, request, require_none_pending
from rules.dice import Roller
from rules.errors import RuleError
from rules.rolloff import roll_off
from rules.session import Event, GameOutcome, SideResult
from rules.warmaster.cards import LUCKY_FIND_DRAWS, CardDef, DeckKind, builtin_magic_deck, deck_size
from rules.warmaster.hands import hand_size, play_limits
from rules.warmaster.models import (
    BattleBegun,
    BeginBattle,
    CardLaidFaceDown,
    CardLaidFaceUp,
    CardPhaseComplete,
    CardRevealed,
    CardsDrawn,
    CardView,
    ConfirmAnswered,
    ConfirmAsked,
    FinishGame,
    GameFinished,
    GameStarted,
    HandDealt,
    HandInfo,
    HeldCard,
    LaidCard,
    LossRecord,
    LossRecorded,
    LuckyFindTraded,
    PassReason,
    PassTurn,
    Phase,
    PlayCard,
    RecordLoss,
    RevealCard,
    RevealReason,
    SideState,
    SideVp,
    TargetRef,
    TradeLuckyFind,
    TurnPassed,
    TurnToLay,
    VpSummary,
    WarmasterAction,
    WarmasterState,
    YouLaidFaceDown,
)
from rules.warmaster.targets import (
    LOSABLE_KINDS,
    CharacterRole,
    Restriction,
    Side,
    Target,
    TargetKind,
    clean_name,
    fixed_targets,
    target_key,
)

MAX_UNIT_POINTS = 10_000

_ACTIONS: TypeAdapter[Any] = TypeAdapter(WarmasterAction)


# ------------------------------------------------------------------ dealing


def _expand(cards: Sequence[CardDef], deck: DeckKind) -> list[HeldCard]:
    prefix = "M" if deck is DeckKind.MAGIC else "T"
    physical = [card for card in cards for _ in range(card.copies)]
    return [HeldCard(id=f"{prefix}?", deck=deck, card=card) for card in physical]


def _number(cards: list[HeldCard]) -> list[HeldCard]:
    prefix = "M" if cards and cards[0].deck is DeckKind.MAGIC else "T"
    return [held.model_copy(update={"id": f"{prefix}{i}"}) for i, held in enumerate(cards, start=1)]


def start(
    session_id: str,
    players: Sequence[int],
    points: Sequence[int],
    roller: Roller,
    first: int | None = None,
    magic: Sequence[CardDef] | None = None,
    tactics: Sequence[CardDef] | None = None,
) -> tuple[WarmasterState, list[Event]]:
    """Deal both hands; `first` is the player with the first turn (a roll-off decides when None)."""
    players = list(players)
    if len(players) != 2 or players[0] == players[1]:
        raise RuleError(code="warmaster.same_player")
    if len(points) != 2:
        raise RuleError(code="warmaster.points_missing")
    sizes = [hand_size(p) for p in points]
    if first is not None and first not in players:
        raise RuleError(code="warmaster.first_not_player", player=first)
    magic_cards = list(magic) if magic is not None else list(builtin_magic_deck())
    tactics_cards = list(tactics or [])
    need_magic = sum(s.magic for s in sizes)
    if deck_size(magic_cards) < need_magic:
        raise RuleError(code="warmaster.magic_deck_small", holds=deck_size(magic_cards), needed=need_magic)
    deal_tactics = bool(tactics_cards)
    need_tactics = sum(s.tactics for s in sizes)
    if deal_tactics and deck_size(tactics_cards) < need_tactics:
        raise RuleError(
            code="warmaster.tactics_deck_small", holds=deck_size(tactics_cards), needed=need_tactics
        )

    rolloff_dice: list[tuple[int, int]] = []
    if first is None:
        result = roll_off(roller, reason="Warmaster: who has the first turn")
        first = players[result.winner]
        rolloff_dice = [r.rolls for r in result.rounds]

    magic_pile = _number(roller.shuffled(_expand(magic_cards, DeckKind.MAGIC), "Warmaster: deal magic"))
    tactics_pile: list[HeldCard] = []
    if deal_tactics:
        tactics_pile = _number(
            roller.shuffled(_expand(tactics_cards, DeckKind.TACTICS), "Warmaster: deal tactics")
        )
    first_index = players.index(first)
    limit_first, limit_second = play_limits(sizes[first_index], sizes[1 - first_index])
    sides: list[SideState] = []
    for index, player in enumerate(players):
        size = sizes[index]
        hand = magic_pile[: size.magic]
        magic_pile = magic_pile[size.magic :]
        if deal_tactics:
            hand = hand + tactics_pile[: size.tactics]
            tactics_pile = tactics_pile[size.tactics :]
        limit = limit_first if player == first else limit_second
        sides.append(SideState(player=player, hand_size=size, limit=limit, hand=hand))

    state = WarmasterState(
        session_id=session_id,
        players=players,
        first=first,
        sides=sides,
        draw_pile=magic_pile,
        tactics_dealt=deal_tactics,
    )
    events: list[Event] = [
        GameStarted(
            first=first,
            rolloff=rolloff_dice,
            tactics_dealt=deal_tactics,
            hands=[
                HandInfo(
                    player=s.player,
                    points=s.hand_size.points,
                    magic=s.hand_size.magic,
                    tactics=s.hand_size.tactics if deal_tactics else 0,
                    limit=s.limit,
                    below_written_size=s.hand_size.below_written_size,
                )
                for s in sides
            ],
        )
    ]
    events += [
        HandDealt(private_to=s.player, player=s.player, cards=[CardView.of(h) for h in s.hand]) for s in sides
    ]
    state, more = _settle_turn(state, [first, state.opponent(first)])
    return state, events + more


# ------------------------------------------------------------------ queries used by the rules and views


def all_targets(state: WarmasterState) -> list[Target]:
    """The fixed targets (players, armies, the table) and everything named so far."""
    return fixed_targets(state.players) + state.targets


def cards_on(state: WarmasterState, key: str) -> list[LaidCard]:
    return [laid for laid in state.laid if laid.target_key == key]


def slot_free(state: WarmasterState, key: str, deck: DeckKind) -> bool:
    return all(laid.held.deck is not deck for laid in cards_on(state, key))


def lays_face_down(state: WarmasterState, player: int, target: Target) -> bool:
    """Face down on the player's own targets and neutral ones, face up on the opponent's.

    A player against whom a Scrying Glass works lays everything face up.
    """
    return target.owner != state.opponent(player) and not state.side(player).exposed


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


def _auto_pass_reason(state: WarmasterState, side: SideState) -> PassReason | None:
    if side.laid >= side.limit:
        return PassReason.LIMIT
    if not any(not h.card.is_traded for h in side.hand) and not tradable_lucky_finds(state, side):
        return PassReason.NO_CARDS
    return None


def _settle_turn(state: WarmasterState, order: list[int]) -> tuple[WarmasterState, list[Event]]:
    """Give the turn to the first player in `order` who can still lay; pass the others for them."""
    events: list[Event] = []
    sides = list(state.sides)
    for player in order:
        index = state.players.index(player)
        side = sides[index]
        if side.done is not None:
            continue
        reason = _auto_pass_reason(state, side)
        if reason is None:
            new_state = state.model_copy(update={"sides": sides, "turn": player})
            return new_state, [*events, TurnToLay(player=player, laid=side.laid, limit=side.limit)]
        sides[index] = side.model_copy(update={"done": reason})
        events.append(TurnPassed(player=player, reason=reason))
    done = state.model_copy(update={"sides": sides, "turn": None})
    return done, [*events, CardPhaseComplete(laid={s.player: s.laid for s in sides})]


def _replace_side(state: WarmasterState, side: SideState) -> list[SideState]:
    return [side if s.player == side.player else s for s in state.sides]


def target_values(target: Target) -> dict[str, str | int | None]:
    """A target as refusal values: its name, kind and owner (a player id, None when neutral)."""
    return {"target": target.name, "target_kind": target.kind.value, "owner": target.owner}


# ------------------------------------------------------------------ targets


def resolve_target(
    state: WarmasterState, actor: int, ref: TargetRef, *, for_play: bool
) -> tuple[Target, bool]:
    """Find the target a player means, or describe a new one; returns (target, is_new)."""
    known = all_targets(state)
    if ref.key is not None:
        for target in known:
            if target.key == ref.key:
                return target, False
        raise RuleError(code="warmaster.target_unknown", key=ref.key[:100])
    opponent = state.opponent(actor)
    owner_of = {Side.MINE: actor, Side.ENEMY: opponent}
    if ref.kind is TargetKind.TABLE or (
        ref.kind is None and ref.name and ref.name.strip().casefold() in ("table", "the table")
    ):
        return known[0], False
    if ref.kind in (TargetKind.PLAYER, TargetKind.ARMY):
        if ref.side not in owner_of:
            raise RuleError(code="warmaster.target_whose", kind=ref.kind.value)
        return next(t for t in known if t.key == f"{ref.kind}:{owner_of[ref.side]}"), False
    if not ref.name:
        raise RuleError(code="warmaster.target_unnamed")
    name = clean_name(ref.name)
    matches = [t for t in state.targets if t.name.casefold() == name.casefold()]
    if ref.side is not None:
        wanted_owner = owner_of.get(ref.side)
        matches = [t for t in matches if t.owner == wanted_owner]
    if ref.kind is not None:
        family = {TargetKind.TERRAIN} if ref.kind is TargetKind.TERRAIN else set(LOSABLE_KINDS)
        matches = [t for t in matches if t.kind in family]
    if len(matches) > 1:
        raise RuleError(code="warmaster.target_ambiguous", name=name)
    if matches:
        target = matches[0]
        _check_same(target, ref)
        return target, False
    return _new_target(state, actor, ref, name, for_play=for_play), True


def _check_same(target: Target, ref: TargetRef) -> None:
    conflict = (
        (ref.kind is not None and ref.kind is not target.kind)
        or (
            ref.unit_type is not None
            and target.unit_type is not None
            and ref.unit_type is not target.unit_type
        )
        or (ref.role is not None and target.role is not None and ref.role is not target.role)
    )
    if conflict:
        raise RuleError(
            code="warmaster.target_known_as",
            name=target.name,
            kind=target.kind.value,
            unit_type=target.unit_type.value if target.unit_type else None,
            role=target.role.value if target.role else None,
            owner=target.owner,
        )


def _new_target(state: WarmasterState, actor: int, ref: TargetRef, name: str, *, for_play: bool) -> Target:
    if ref.kind is None:
        raise RuleError(code="warmaster.new_target_kind", name=name)
    if ref.kind is TargetKind.TERRAIN:
        if ref.side not in (None, Side.NEUTRAL):
            raise RuleError(code="warmaster.terrain_side", name=name)
        return Target(key=target_key(TargetKind.TERRAIN, None, name), name=name, kind=TargetKind.TERRAIN)
    if ref.side not in (Side.MINE, Side.ENEMY):
        raise RuleError(code="warmaster.new_target_whose", name=name, kind=ref.kind.value)
    owner = actor if ref.side is Side.MINE else state.opponent(actor)
    if ref.kind is TargetKind.UNIT:
        if ref.role is not None:
            raise RuleError(code="warmaster.role_on_unit", name=name)
        if for_play and ref.unit_type is None:
            raise RuleError(code="warmaster.unit_type_missing", name=name)
        return Target(
            key=target_key(TargetKind.UNIT, owner, name),
            name=name,
            kind=TargetKind.UNIT,
            owner=owner,
            unit_type=ref.unit_type,
            shooting=bool(ref.shooting),
        )
    if ref.unit_type is not None:
        raise RuleError(code="warmaster.unit_type_on_character", name=name)
    if for_play and ref.role is None:
        raise RuleError(code="warmaster.role_missing", name=name)
    if ref.role is CharacterRole.GENERAL:
        existing = next(
            (t for t in state.targets if t.owner == owner and t.role is CharacterRole.GENERAL), None
        )
        if existing is not None:
            raise RuleError(code="warmaster.general_taken", name=existing.name, owner=owner)
    return Target(
        key=target_key(TargetKind.CHARACTER, owner, name),
        name=name,
        kind=TargetKind.CHARACTER,
        owner=owner,
        role=ref.role,
        shooting=bool(ref.shooting),
    )


def _find_in_hand(side: SideState, ref: str) -> HeldCard:
    wanted = ref.strip().casefold()
    for held in side.hand:
        if held.id.casefold() == wanted:
            return held
    for held in side.hand:
        if held.card.name.casefold() == wanted:
            return held
    raise RuleError(code="warmaster.not_in_hand", card=ref[:100])


# ------------------------------------------------------------------ step


def step(state: WarmasterState, action: Any, roller: Roller) -> tuple[WarmasterState, list[Event]]:
    """Apply one player action; a refusal raises RuleError and changes nothing."""
    if isinstance(action, dict):
        action = _ACTIONS.validate_python(action)
    state.require_open()
    state.require_player(action.actor)
    if not isinstance(action, ConfirmPending):
        require_none_pending(state.confirmation)
    match action:
        case ConfirmPending():
            return _confirm(state, action)
        case BeginBattle() | FinishGame():
            return _ask_to_confirm(state, action)
        case PlayCard():
            return _play(state, action)
        case PassTurn():
            return _pass(state, action)
        case TradeLuckyFind():
            return _trade(state, action)
        case RevealCard():
            return _reveal(state, action)
        case RecordLoss():
            return _lost(state, action)
    raise RuleError(code="warmaster.unknown_action")


def _take(state: WarmasterState, action: BeginBattle | FinishGame) -> tuple[WarmasterState, list[Event]]:
    return _begin(state, action) if isinstance(action, BeginBattle) else _finish(state, action)


def _ask_to_confirm(
    state: WarmasterState, action: BeginBattle | FinishGame
) -> tuple[WarmasterState, list[Event]]:
    """Hold a step pressed by one player until it is confirmed. It is checked now, so a step the
    game would refuse is refused at once rather than offered for confirmation."""
    _take(state, action)
    state = state.model_copy(update={"confirmation": request(state.confirmation, action.actor, action)})
    return state, [ConfirmAsked(step=action.kind, by=action.actor, other=state.opponent(action.actor))]


def _confirm(state: WarmasterState, action: ConfirmPending) -> tuple[WarmasterState, list[Event]]:
    """Take the waiting step, or withdraw it; a confirmation meant for an earlier one is refused."""
    confirmation, answered = answer(state.confirmation, action)
    pending = answered.request
    state = state.model_copy(update={"confirmation": confirmation})
    said = ConfirmAnswered(
        step=pending.action.kind, by=pending.by, player=answered.player, confirmed=answered.confirmed
    )
    if not answered.confirmed:
        return state, [said]
    state, events = _take(state, pending.action)
    return state, [said, *events]


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


def _play(state: WarmasterState, action: PlayCard) -> tuple[WarmasterState, list[Event]]:
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
            allowed=CardView.of(held).carrier,
            **target_values(target),
        )
    if not slot_free(state, target.key, held.deck):
        raise RuleError(code="warmaster.slot_taken", deck=held.deck.value, **target_values(target))
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
            "sides": _replace_side(state, new_side),
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
    new_state, more = _settle_turn(new_state, [new_state.opponent(action.actor), action.actor])
    return new_state, events + more


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


def _pass(state: WarmasterState, action: PassTurn) -> tuple[WarmasterState, list[Event]]:
    _require_cards_phase(state)
    side = state.side(action.actor)
    _require_turn(state, side)
    reason = _auto_pass_reason(state, side)
    if reason is None:
        refusal = pass_refusal(state, action.actor)
        if refusal is not None:
            raise refusal
        reason = PassReason.NO_FIT
    new_state = state.model_copy(
        update={"sides": _replace_side(state, side.model_copy(update={"done": reason}))}
    )
    events: list[Event] = [TurnPassed(player=action.actor, reason=reason)]
    new_state, more = _settle_turn(new_state, [state.opponent(action.actor), action.actor])
    return new_state, events + more


def _trade(state: WarmasterState, action: TradeLuckyFind) -> tuple[WarmasterState, list[Event]]:
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
        update={"sides": _replace_side(state, new_side), "draw_pile": state.draw_pile[LUCKY_FIND_DRAWS:]}
    )
    events: list[Event] = [
        LuckyFindTraded(player=action.actor, drawn=len(drawn)),
        CardsDrawn(private_to=action.actor, player=action.actor, cards=[CardView.of(h) for h in drawn]),
    ]
    return new_state, events


def _turn_up(
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
        update={"sides": _replace_side(state, exposed.model_copy(update={"exposed": True}))}
    )
    hidden = {c.placement for c in state.laid if c.player == exposed.player and not c.face_up}
    return _turn_up(state, hidden, RevealReason.SCRYING)


def _reveal(state: WarmasterState, action: RevealCard) -> tuple[WarmasterState, list[Event]]:
    laid = next((c for c in state.laid if c.placement == action.placement), None)
    if laid is None:
        raise RuleError(code="warmaster.no_such_card", placement=action.placement)
    if laid.player != action.actor:
        raise RuleError(code="warmaster.not_your_card", placement=action.placement)
    if laid.face_up:
        raise RuleError(code="warmaster.already_face_up", placement=action.placement)
    new_state, events = _turn_up(state, {laid.placement}, RevealReason.OWNER)
    if laid.held.card.reveals_opponent_cards:
        carrier = next(t for t in all_targets(state) if t.key == laid.target_key)
        new_state, more = _scrying(new_state, carrier)
        events += more
    return new_state, events


def _begin(state: WarmasterState, action: BeginBattle) -> tuple[WarmasterState, list[Event]]:
    if state.phase is not Phase.CARDS:
        raise RuleError(code="warmaster.already_begun")
    if state.turn is not None:
        raise RuleError(code="warmaster.cards_still_laid", player=state.turn)
    return state.model_copy(update={"phase": Phase.BATTLE}), [BattleBegun()]


def _lost(state: WarmasterState, action: RecordLoss) -> tuple[WarmasterState, list[Event]]:
    if state.phase is not Phase.BATTLE:
        raise RuleError(code="warmaster.losses_before_battle")
    if not 1 <= action.base_points <= MAX_UNIT_POINTS:
        raise RuleError(code="warmaster.unit_points", points=action.base_points, maximum=MAX_UNIT_POINTS)
    target, is_new = resolve_target(state, action.actor, action.target, for_play=False)
    if target.kind not in LOSABLE_KINDS or target.owner is None:
        raise RuleError(code="warmaster.not_losable", **target_values(target))
    if any(loss.target_key == target.key for loss in state.losses):
        raise RuleError(code="warmaster.already_lost", **target_values(target))
    if is_new:
        state = state.model_copy(update={"targets": [*state.targets, target]})
    on_it = cards_on(state, target.key)
    state, events = _turn_up(state, {c.placement for c in on_it}, RevealReason.LOST)
    costs = sum(c.held.card.value for c in on_it)
    adjusted = action.base_points + costs
    vp = max(0, adjusted) + sum(c.held.card.vp_if_lost for c in on_it)
    to_player = state.opponent(target.owner)
    record = LossRecord(
        target_key=target.key,
        owner=target.owner,
        base_points=action.base_points,
        card_costs=costs,
        adjusted=adjusted,
        vp=vp,
        to_player=to_player,
        recorded_by=action.actor,
    )
    state = state.model_copy(update={"losses": [*state.losses, record]})
    events.append(
        LossRecorded(
            target=target,
            base_points=action.base_points,
            card_costs=costs,
            adjusted=adjusted,
            vp=vp,
            to_player=to_player,
        )
    )
    return state, events


def vp_summary(state: WarmasterState) -> VpSummary:
    """Each side's VP from the adjusted values of what it destroyed; survival bonuses once the game ends."""
    final = state.phase is Phase.OVER
    lost_keys = {loss.target_key for loss in state.losses}
    owners = {t.key: t.owner for t in all_targets(state)}
    sides: list[SideVp] = []
    for player in state.players:
        earned = [loss for loss in state.losses if loss.to_player == player]
        bonus = 0
        if final:
            bonus = sum(
                c.held.card.vp_if_survives
                for c in state.laid
                if c.target_key not in lost_keys and owners.get(c.target_key) == player
            )
        from_losses = sum(loss.vp for loss in earned)
        sides.append(
            SideVp(
                player=player,
                from_losses=from_losses,
                survival_bonus=bonus,
                total=from_losses + bonus,
                destroyed=len(earned),
            )
        )
    return VpSummary(sides=sides, final=final)


def _finish(state: WarmasterState, action: FinishGame) -> tuple[WarmasterState, list[Event]]:
    if state.phase is not Phase.BATTLE:
        raise RuleError(code="warmaster.battle_not_begun")
    hidden = {c.placement for c in state.laid if not c.face_up}
    state, events = _turn_up(state, hidden, RevealReason.GAME_END)
    state = state.model_copy(update={"phase": Phase.OVER})
    summary = vp_summary(state)
    a, b = summary.sides
    winner = None if a.total == b.total else (a.player if a.total > b.total else b.player)
    outcome = GameOutcome(
        sides=[SideResult(player=s.player, score=s.total) for s in summary.sides],
        winner=winner,
        summary=f"{a.total} VP to {b.total} VP" + (", a draw" if winner is None else ""),
    )
    state = state.model_copy(update={"finished": True, "outcome": outcome})
    events.append(GameFinished(summary=summary, outcome=outcome))
    return state, events


def awaiting(state: WarmasterState) -> list[int]:
    """During the card phase the game waits on the player whose turn it is to lay a card."""
    if state.finished or state.phase is not Phase.CARDS or state.turn is None:
        return []
    return [state.turn]


def parse_action(data: dict[str, Any] | str) -> Any:
    """Read a stored or submitted action back into its model."""
    if isinstance(data, str):
        return _ACTIONS.validate_json(data)
    return _ACTIONS.validate_python(data)
