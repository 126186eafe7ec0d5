"""Dealing: both hands by army size from the shuffled decks, and the first turn (given, or rolled off)."""

from __future__ import annotations

from collections.abc import Sequence

from rules.dice import Roller
from rules.errors import RuleError
from rules.rolloff import roll_off
from rules.session import Event
from rules.warmaster.cards import CardDef, DeckKind, builtin_magic_deck, deck_size
from rules.warmaster.events import (
    CardView,
    GameStarted,
    HandDealt,
    HandInfo,
)
from rules.warmaster.hands import HandSize, hand_size, play_limits
from rules.warmaster.models import HeldCard, SideState, WarmasterState
from rules.warmaster.turns import settle_turn


def _expand(cards: Sequence[CardDef], deck: DeckKind) -> list[HeldCard]:
    prefix = "M" if deck is DeckKind.MAGIC else "T"
    physical = [card for card in cards for _ in range(card.copies)]
    return [HeldCard(id=f"{prefix}?", deck=deck, card=card) for card in physical]


def _number(cards: list[HeldCard]) -> list[HeldCard]:
    prefix = "M" if cards and cards[0].deck is DeckKind.MAGIC else "T"
    return [held.model_copy(update={"id": f"{prefix}{i}"}) for i, held in enumerate(cards, start=1)]


def _check(
    players: list[int], points: Sequence[int], first: int | None, magic: list[CardDef], tactics: list[CardDef]
) -> list[HandSize]:
    """Each army's hand size, once the players, points and decks are known to serve the deal."""
    if len(players) != 2 or players[0] == players[1]:
        raise RuleError(code="warmaster.same_player")
    if len(points) != 2:
        raise RuleError(code="warmaster.points_missing")
    sizes = [hand_size(p) for p in points]
    if first is not None and first not in players:
        raise RuleError(code="warmaster.first_not_player", player=first)
    need_magic = sum(s.magic for s in sizes)
    if deck_size(magic) < need_magic:
        raise RuleError(code="warmaster.magic_deck_small", holds=deck_size(magic), needed=need_magic)
    need_tactics = sum(s.tactics for s in sizes)
    if tactics and deck_size(tactics) < need_tactics:
        raise RuleError(code="warmaster.tactics_deck_small", holds=deck_size(tactics), needed=need_tactics)
    return sizes


def _shuffled(roller: Roller, cards: list[CardDef], deck: DeckKind) -> list[HeldCard]:
    reason = "Warmaster: deal magic" if deck is DeckKind.MAGIC else "Warmaster: deal tactics"
    return _number(roller.shuffled(_expand(cards, deck), reason))


def _deal(
    players: list[int],
    sizes: list[HandSize],
    first: int,
    magic_pile: list[HeldCard],
    tactics_pile: list[HeldCard] | None,
) -> tuple[list[SideState], list[HeldCard]]:
    """Each side's hand off the top of the piles, and the magic item cards left to draw."""
    first_index = players.index(first)
    limit_first, limit_second = play_limits(sizes[first_index], sizes[1 - first_index])
    sides: list[SideState] = []
    for player, size in zip(players, sizes, strict=True):
        hand = magic_pile[: size.magic]
        magic_pile = magic_pile[size.magic :]
        if tactics_pile is not None:
            hand = hand + tactics_pile[: size.tactics]
            tactics_pile = tactics_pile[size.tactics :]
        limit = limit_first if player == first else limit_second
        sides.append(SideState(player=player, hand_size=size, limit=limit, hand=hand))
    return sides, magic_pile


def _dealt(state: WarmasterState, rolloff: list[tuple[int, int]]) -> list[Event]:
    """The deal as the table learns it, then each hand told to its player alone."""
    hands = [
        HandInfo(
            player=s.player,
            points=s.hand_size.points,
            magic=s.hand_size.magic,
            tactics=s.hand_size.tactics if state.tactics_dealt else 0,
            limit=s.limit,
            below_written_size=s.hand_size.below_written_size,
        )
        for s in state.sides
    ]
    started = GameStarted(first=state.first, rolloff=rolloff, tactics_dealt=state.tactics_dealt, hands=hands)
    return [
        started,
        *(
            HandDealt(private_to=s.player, player=s.player, cards=[CardView.of(h) for h in s.hand])
            for s in state.sides
        ),
    ]


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
    magic_cards = list(magic) if magic is not None else list(builtin_magic_deck())
    tactics_cards = list(tactics or [])
    sizes = _check(players, points, first, magic_cards, tactics_cards)
    rolloff: list[tuple[int, int]] = []
    if first is None:
        result = roll_off(roller, reason="Warmaster: who has the first turn")
        first = players[result.winner]
        rolloff = [r.rolls for r in result.rounds]
    magic_pile = _shuffled(roller, magic_cards, DeckKind.MAGIC)
    tactics_pile = _shuffled(roller, tactics_cards, DeckKind.TACTICS) if tactics_cards else None
    sides, draw_pile = _deal(players, sizes, first, magic_pile, tactics_pile)
    state = WarmasterState(
        session_id=session_id,
        players=players,
        first=first,
        sides=sides,
        draw_pile=draw_pile,
        tactics_dealt=bool(tactics_cards),
    )
    events = _dealt(state, rolloff)
    state, more = settle_turn(state, [first, state.opponent(first)])
    return state, events + more
