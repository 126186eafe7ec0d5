"""What a Warcry battle reports: one event shape with a code, a short text and the dice behind it.

Texts name players by placeholders (`{winner}`, `{player}` …) that hold Discord user ids, so the
rules never format a mention; `render` fills them with whatever names the caller supplies. Each
notice's `code` names what happened and its `values` (and `who`, `action`, `verdict`) carry what its
words need, so the bot can say it in any language; `text` is the rules' own English.
"""

from __future__ import annotations

from collections.abc import Callable

from rules.session import Event, Model
from rules.warcry.actions import Confirmable
from rules.warcry.battleplans import BattleplanInPlay, RollOffShown


class Verdict(Model):
    """Why the victory card is met or not, as a code and the values its words need (`reason`
    in rules/warcry/wording.py words it); `draw_rule`: the battleplan calls any other result a draw."""

    code: str
    values: dict[str, str | int] = {}
    draw_rule: bool = False


class Notice(Event):
    """`text` is the rules' own sentence (empty for a notice only the cog words, cogs/warcry/board.py);
    `values` are the numbers and ids its words need, `action` the step a confirmation is about,
    `verdict` why the battle is won, drawn or goes on."""

    code: str
    text: str = ""
    who: dict[str, int] = {}
    values: dict[str, str | int] = {}
    dice: list[int] = []
    roll_off: RollOffShown | None = None
    battleplan: BattleplanInPlay | None = None
    action: Confirmable | None = None
    verdict: Verdict | None = None

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
