"""Hand sizes by army size, play limits, and what is dealt."""

from __future__ import annotations

import pytest
from warmaster_helpers import ALICE, BOB, SWORD, TACTIC, new_game, public, refused, roller

from rules.errors import RuleError
from rules.warmaster import builtin_magic_deck, hand_size, play_limits, start
from rules.warmaster.cards import DeckKind
from rules.warmaster.events import GameStarted, HandDealt, TurnToLay


@pytest.mark.parametrize(
    ("points", "magic", "tactics", "below"),
    [
        (1500, 4, 3, False),
        (3000, 4, 3, False),
        (3999, 4, 3, False),
        (4000, 5, 4, False),
        (4999, 5, 4, False),
        (6500, 7, 6, False),
        (1499, 4, 3, True),
        (500, 4, 3, True),
    ],
)
def test_hand_size(points: int, magic: int, tactics: int, below: bool) -> None:
    size = hand_size(points)
    assert (size.magic, size.tactics, size.below_written_size) == (magic, tactics, below)


@pytest.mark.parametrize("points", [0, -100, 100_001])
def test_points_must_be_a_sensible_positive_number(points: int) -> None:
    with pytest.raises(RuleError):
        hand_size(points)


@pytest.mark.parametrize(
    ("first", "second", "limits"),
    [
        (2000, 2000, (4, 3)),
        (3999, 3999, (4, 3)),
        (4000, 4000, (5, 4)),
        (6500, 6500, (7, 6)),
        (6500, 3000, (4, 3)),
        (3000, 6500, (4, 3)),
        (5000, 4000, (5, 4)),
    ],
)
def test_play_limits_scale_with_the_smaller_hand(first: int, second: int, limits: tuple[int, int]) -> None:
    assert play_limits(hand_size(first), hand_size(second)) == limits


def test_deal_with_tactics_pack() -> None:
    state, events = new_game(tactics=[TACTIC], points=(4000, 6500))
    alice, bob = state.side(ALICE), state.side(BOB)
    assert [h.deck for h in alice.hand].count(DeckKind.MAGIC) == 5
    assert [h.deck for h in alice.hand].count(DeckKind.TACTICS) == 4
    assert [h.deck for h in bob.hand].count(DeckKind.MAGIC) == 7
    assert [h.deck for h in bob.hand].count(DeckKind.TACTICS) == 6
    assert (alice.limit, bob.limit) == (5, 4)
    started = events[0]
    assert isinstance(started, GameStarted) and started.tactics_dealt
    hands = [e for e in events if isinstance(e, HandDealt)]
    assert {(e.private_to, len(e.cards)) for e in hands} == {(ALICE, 9), (BOB, 13)}
    assert isinstance(events[-1], TurnToLay) and events[-1].player == ALICE


def test_builtin_deck_deals_50_distinct_physical_cards() -> None:
    state, _ = start("g", [ALICE, BOB], [2000, 2000], roller(3), first=BOB)
    dealt = [h for s in state.sides for h in s.hand] + state.draw_pile
    assert len(dealt) == 50 and len({h.id for h in dealt}) == 50
    names = sorted(h.card.name for h in dealt)
    expected = sorted(c.name for c in builtin_magic_deck() for _ in range(c.copies))
    assert names == expected


def test_the_deal_is_hidden_from_the_roll_audit() -> None:
    dice = roller(5)
    start("g", [ALICE, BOB], [2000, 2000], dice, first=ALICE)
    assert [r.results for r in dice.rolls] == [()]
    assert "hidden" in dice.rolls[0].notation


def test_a_roll_off_decides_the_first_turn_when_none_is_given() -> None:
    state, events = new_game(first=None, seed=4)
    started = events[0]
    assert isinstance(started, GameStarted) and started.rolloff
    a, b = started.rolloff[-1]
    assert a != b and state.first == (ALICE if a > b else BOB)


def test_decks_too_small_for_the_armies_are_refused() -> None:
    with refused("warmaster.magic_deck_small", holds=30, needed=42):
        new_game(points=(20000, 20000))
    with refused("warmaster.tactics_deck_small", holds=2):
        new_game(tactics=[TACTIC.model_copy(update={"copies": 2})])


@pytest.mark.parametrize(("players", "first"), [([ALICE, ALICE], None), ([ALICE, BOB], 999)])
def test_bad_start_is_refused(players: list[int], first: int | None) -> None:
    with pytest.raises(RuleError):
        start("g", players, [2000, 2000], roller(), first=first, magic=[SWORD])


def test_hands_are_private_events() -> None:
    _, events = new_game(tactics=[TACTIC])
    for event in public(events):
        assert "Test Sword" not in event.model_dump_json()
        assert "Test Drill" not in event.model_dump_json()
