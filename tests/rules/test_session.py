"""rules/session.py's memo by identity: what it remembers, and for how long."""

from __future__ import annotations

from rules.session import ByIdentity


class Made:
    """A value the memo makes."""


class Held:
    """An object the memo remembers a value for."""


def test_a_value_is_made_once_per_object_and_key() -> None:
    memo: ByIdentity[Made] = ByIdentity(4)
    held = Held()
    made: list[Made] = []

    def make() -> Made:
        made.append(Made())
        return made[-1]

    first = memo.get(held, make, 1)
    assert memo.get(held, make, 1) is first
    assert memo.get(held, make, 2) is not first
    assert len(made) == 2


def test_the_oldest_entry_goes_first_past_the_bound() -> None:
    memo: ByIdentity[Made] = ByIdentity(2)
    objects = [Held() for _ in range(3)]
    first = [memo.get(held, Made) for held in objects]
    assert memo.get(objects[2], Made) is first[2] and memo.get(objects[1], Made) is first[1]
    assert memo.get(objects[0], Made) is not first[0]  # it went: made again
