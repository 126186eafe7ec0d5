"""Dice notation and the roller: exact parses, limits, and properties over seeded rolls."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.dice import MAX_DICE, MAX_SIDES, Roller, parse, roll_notation
from rules.errors import RuleError


def roller(seed: int = 1) -> Roller:
    return Roller(random.Random(seed))


def test_simple_with_modifier() -> None:
    result = roll_notation("3d6+2", roller())
    assert len(result.terms) == 1 and len(result.terms[0].dice) == 3
    assert result.total == sum(result.terms[0].dice) + 2
    assert 5 <= result.total <= 20


def test_bare_d3() -> None:
    terms, constants = parse("d3")
    assert terms[0].count == 1 and terms[0].sides == 3 and not constants


def test_keep_highest_and_lowest() -> None:
    high = roll_notation("2d6kh1", roller(3))
    assert high.terms[0].kept == (max(high.terms[0].dice),)
    assert high.total == max(high.terms[0].dice)
    low = roll_notation("2d6kl1", roller(3))
    assert low.total == min(low.terms[0].dice)


def test_success_counting() -> None:
    result = roll_notation("20d6>=4", roller(5))
    dice = result.terms[0].dice
    assert len(dice) == 20
    assert result.successes == sum(1 for d in dice if d >= 4)
    assert result.total == result.successes


def test_several_terms() -> None:
    result = roll_notation("2d6+d3", roller(9))
    assert [t.term.sides for t in result.terms] == [6, 3]
    assert result.total == sum(result.terms[0].dice) + sum(result.terms[1].dice)


def test_negative_terms() -> None:
    result = roll_notation("d6-d6-1", roller(2))
    assert result.total == result.terms[0].dice[0] - result.terms[1].dice[0] - 1


def test_every_roll_is_recorded() -> None:
    r = roller()
    roll_notation("2d6+d3", r, reason="why")
    assert [(rec.notation, len(rec.results), rec.reason) for rec in r.rolls] == [
        ("2d6", 2, "why"),
        ("d3", 1, "why"),
    ]


@pytest.mark.parametrize(
    "bad",
    [
        "",
        "abc",
        "3d",
        "d0",
        "0d6",
        "3d6+",
        "3d6x",
        "1001d6",
        "d1001",
        "600d6+600d6",
        "2d6kh3",
        "2d6kh1>=4",
        "6+2",
    ],
)
def test_bad_notation_is_refused_with_examples(bad: str) -> None:
    with pytest.raises(RuleError) as info:
        parse(bad)
    assert info.value.message


def test_limits_are_inclusive() -> None:
    parse(f"{MAX_DICE}d6")
    parse(f"d{MAX_SIDES}")


@settings(max_examples=150, deadline=None)
@given(
    count=st.integers(1, 50), sides=st.integers(1, 100), mod=st.integers(-50, 50), seed=st.integers(0, 2**32)
)
def test_total_always_in_range(count: int, sides: int, mod: int, seed: int) -> None:
    notation = f"{count}d{sides}{mod:+d}"
    result = roll_notation(notation, roller(seed))
    assert count + mod <= result.total <= count * sides + mod
    assert all(1 <= d <= sides for d in result.terms[0].dice)


@settings(max_examples=100, deadline=None)
@given(count=st.integers(1, 30), target=st.integers(1, 7), seed=st.integers(0, 2**32))
def test_successes_never_exceed_dice(count: int, target: int, seed: int) -> None:
    result = roll_notation(f"{count}d6>={target}", roller(seed))
    assert result.successes is not None and 0 <= result.successes <= count


def test_same_seed_same_dice() -> None:
    assert roll_notation("10d6", roller(42)).terms == roll_notation("10d6", roller(42)).terms


@settings(max_examples=50, deadline=None)
@given(seed=st.integers(0, 2**32), sides=st.integers(1, MAX_SIDES), count=st.integers(1, 50))
def test_a_throw_draws_what_randint_draws(seed: int, sides: int, count: int) -> None:
    """The roller skips `randint`'s wrappers (rules/dice.py `_below`): the same dice, from the same
    state, as `randint(1, sides)` would give, so a seed still gives its one sequence."""
    source, twin = random.Random(seed), random.Random(seed)
    assert Roller(source).throw(sides, count) == tuple(twin.randint(1, sides) for _ in range(count))
    assert source.random() == twin.random()


def test_a_source_with_its_own_randint_is_asked_for_every_die() -> None:
    class Scripted(random.Random):
        def randint(self, a: int, b: int) -> int:
            return b

    assert Roller(Scripted(0)).roll(6, 3) == [6, 6, 6]
