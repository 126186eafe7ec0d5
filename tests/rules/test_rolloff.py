"""Roll-offs: ties are re-rolled, bonuses count, the winner is the higher total."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.dice import Roller
from rules.rolloff import roll_off


class ScriptedRandom(random.Random):
    """A source that returns given dice in order, to force ties."""

    def __init__(self, values: list[int]) -> None:
        super().__init__(0)
        self.values = list(values)

    def randint(self, a: int, b: int) -> int:
        return self.values.pop(0)


def test_ties_are_rerolled() -> None:
    result = roll_off(Roller(ScriptedRandom([3, 3, 5, 5, 2, 6])))
    assert [r.rolls for r in result.rounds] == [(3, 3), (5, 5), (2, 6)]
    assert result.winner == 1 and result.rerolls == 2


def test_bonus_breaks_and_makes_ties() -> None:
    assert roll_off(Roller(ScriptedRandom([4, 4])), (1, 0)).winner == 0
    result = roll_off(Roller(ScriptedRandom([5, 4, 1, 2])), (0, 1))
    assert result.rounds[0].totals == (5, 5) and result.winner == 1


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32), a=st.integers(-3, 3), b=st.integers(-3, 3))
def test_winner_has_higher_total_and_only_last_round_decides(seed: int, a: int, b: int) -> None:
    result = roll_off(Roller(random.Random(seed)), (a, b))
    *ties, last = result.rounds
    assert all(t.totals[0] == t.totals[1] for t in ties)
    assert last.totals[result.winner] > last.totals[1 - result.winner]
