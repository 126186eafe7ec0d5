"""What a Warcry battle reports: one event shape with a code, its words and the dice behind it.

A notice's `text` is worded once, here in the rules, as `Words` of the warcry catalogue, so the bot
says it in each reader's language. Players are placeholders (`{winner}`, `{player}` …) whose ids
`who` holds, so the rules never format a mention: `named` fills them with whatever names the caller
supplies (the bot: Discord mentions).
"""

from __future__ import annotations

from collections.abc import Callable

from rules.session import Event, Model
from rules.warcry.battleplans import BattleplanInPlay, RollOffShown
from rules.words import Words


class Verdict(Model):
    """Why the victory card is met or not, as a code and the values its words need (`reason`
    in rules/warcry/wording.py words it); `draw_rule`: the battleplan calls any other result a draw."""

    code: str
    values: dict[str, str | int] = {}
    draw_rule: bool = False


class Notice(Event):
    """`code` names what happened, `text` says it (players as placeholders `who` maps to ids)."""

    code: str
    text: Words
    who: dict[str, int] = {}
    dice: list[int] = []
    roll_off: RollOffShown | None = None
    battleplan: BattleplanInPlay | None = None

    def named(self, name_of: Callable[[int], str]) -> Words:
        """The text with each player's name in its place."""
        text = self.text
        names = {key: name_of(player) for key, player in self.who.items()}
        return Words(
            text.english,
            text.domain,
            context=text.context,
            plural=text.plural,
            count=text.count,
            values={**text.values, **names},
        )
