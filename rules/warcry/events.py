"""What a Warcry battle reports: one event shape with a code, a short text and the dice behind it.

Texts name players by placeholders (`{winner}`, `{player}` …) that hold Discord user ids, so the
rules never format a mention; `render` fills them with whatever names the caller supplies.
"""

from __future__ import annotations

from collections.abc import Callable

from rules.session import Event
from rules.warcry.battleplans import BattleplanInPlay, RollOffShown


class Notice(Event):
    """`text` is the rules' own sentence; a notice worded by the cog from its `code` (cogs/warcry_text.py)
    leaves it empty and carries the values its words need in `values`."""

    code: str
    text: str = ""
    who: dict[str, int] = {}
    values: dict[str, str | int] = {}
    dice: list[int] = []
    roll_off: RollOffShown | None = None
    battleplan: BattleplanInPlay | None = None

    def render(self, name_of: Callable[[int], str]) -> str:
        return fill(self.text, self.who, name_of)


def fill(text: str, who: dict[str, int], name_of: Callable[[int], str]) -> str:
    for key, player in who.items():
        text = text.replace("{" + key + "}", name_of(player))
    return text


def describe_roll_off(roll: RollOffShown, name_of: Callable[[int], str]) -> str:
    """`Alice 3 – Bob 3, re-rolled; Alice 5 – Bob 2`: every die of a roll-off, ties included."""
    first, second = (name_of(p) for p in roll.players)
    throws = [f"{first} {a} – {second} {b}" for a, b in roll.rounds]
    return ", re-rolled; ".join(throws)
