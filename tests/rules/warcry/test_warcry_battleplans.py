"""Battleplan rolls and deals: each result is the table entry for the die shown; matched deals filter."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.errors import RuleError
from rules.warcry.battleplans import (
    NO_TWIST,
    blocked_objective,
    options_for,
    require_victory_cards,
    roll_battleplan,
)
from rules.warcry.pack import DECK_NAMES, Card, Decks, DeploymentCard, VictoryCard, WarcryPack, core_pack
from tests.rules.warcry.test_warcry_data import CHAMPIONS, MATCHED
from tests.rules.warcry.warcry_helpers import PLAYERS, club_pack, roller


def test_matched_roll_is_the_d6_entry_over_many_seeds() -> None:
    seen = set()
    for seed in range(300):
        dice = roller(seed)
        plan = roll_battleplan("matched", core_pack(), dice)
        assert dice.rolls[0].notation == "d6"
        result = dice.rolls[0].results[0]
        assert plan.dice[0].result == result and plan.dice[0].sides == 6
        assert plan.name == MATCHED[result - 1]
        assert plan.twist == NO_TWIST
        seen.add(result)
    assert seen == {1, 2, 3, 4, 5, 6}


def test_champions_roll_is_the_d3_entry_over_many_seeds() -> None:
    seen = set()
    for seed in range(200):
        dice = roller(seed)
        plan = roll_battleplan("champions", core_pack(), dice)
        assert dice.rolls[0].notation == "d3"
        result = dice.rolls[0].results[0]
        assert plan.name == CHAMPIONS[result - 1] and plan.dice[0].sides == 3
        assert plan.abilities
        seen.add(result)
    assert seen == {1, 2, 3}


def test_matched_terrain_step_says_how_when_no_terrain_cards_are_loaded() -> None:
    plan = roll_battleplan("matched", core_pack(), roller(1))
    assert "alternative terrain rules" in plan.terrain
    assert any("terrain deck has no" in n for n in plan.notes)
    assert len(plan.dice) == 1


def test_matched_terrain_step_deals_only_runemarked_terrain() -> None:
    for seed in range(60):
        plan = roll_battleplan("matched", club_pack(), roller(seed))
        if plan.name == "Altar of Ascendancy":
            continue
        assert plan.cards["terrain"] in {"Test Ruins 1", "Test Ruins 3"}
        assert len(plan.dice) == 2


def test_generator_deals_one_card_from_each_deck_showing_each_die() -> None:
    pack = club_pack()
    for seed in range(50):
        dice = roller(seed)
        plan = roll_battleplan("generator", pack, dice)
        assert set(plan.cards) == {"terrain", "deployment", "victory", "twist"}
        assert [d.sides for d in plan.dice] == [3, 2, 2, 2]
        for die, deck in zip(plan.dice, DECK_NAMES, strict=True):
            assert plan.cards[deck] == pack.decks.deck(deck)[die.result - 1].name
        assert plan.name == plan.cards["victory"]


def test_generator_with_empty_decks_says_which_are_empty() -> None:
    plan = roll_battleplan("generator", core_pack(), roller(3))
    assert plan.cards == {} and plan.dice == []
    assert len(plan.notes) == 4 and all("pack load" in n for n in plan.notes)
    with pytest.raises(RuleError) as caught:
        require_victory_cards(options_for("generator", core_pack()))
    assert caught.value.code == "warcry.no_victory_cards"
    with pytest.raises(RuleError) as matched:
        require_victory_cards(options_for("generator-matched", core_pack()))
    assert matched.value.code == "warcry.no_matched_victory_cards"


def _packs() -> st.SearchStrategy[WarcryPack]:
    names = st.integers(min_value=0, max_value=10_000)

    def cards(kind: type[Card]) -> st.SearchStrategy[list[Card]]:
        return st.lists(
            st.builds(lambda n, m: kind(name=f"Card {n}", matched_play=m), names, st.booleans()),
            max_size=8,
            unique_by=lambda c: c.name,
        )

    return st.builds(
        lambda t, d, v, w: WarcryPack(
            name="P",
            battleplans=core_pack().battleplans,
            decks=Decks(terrain=t, deployment=d, victory=v, twist=w),
        ),
        cards(Card),
        cards(DeploymentCard),
        cards(VictoryCard),
        cards(Card),
    )


@settings(max_examples=60, deadline=None)
@given(pack=_packs(), seed=st.integers(min_value=0, max_value=2**32))
def test_generator_matched_never_yields_a_twist_or_an_unmarked_card(pack: WarcryPack, seed: int) -> None:
    plan = roll_battleplan("generator-matched", pack, roller(seed))
    assert "twist" not in plan.cards and plan.twist == NO_TWIST
    marked = {
        deck: {c.name for c in pack.decks.deck(deck) if c.matched_play}
        for deck in ("terrain", "deployment", "victory")
    }
    for deck, name in plan.cards.items():
        assert name in marked[deck]
    for deck in ("terrain", "deployment", "victory"):
        assert (deck in plan.cards) == bool(marked[deck])


def test_blocked_objective_roll_off_rerolls_ties() -> None:
    for seed in range(200):
        roll = blocked_objective(roller(seed), PLAYERS)
        *ties, last = roll.rounds
        assert all(a == b for a, b in ties) and last[0] != last[1]
        assert roll.winner == (PLAYERS[0] if last[0] > last[1] else PLAYERS[1])
        assert roll.loser != roll.winner
