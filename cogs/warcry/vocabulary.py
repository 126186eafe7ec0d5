"""Warcry's names as players read them, in the language in force: a battle group, an objective, a deck,
an ability's cost, a player, the dice of a roll-off, a finished battle.

The rules word battle groups, objectives and results once (rules/warcry/wording.py); this shows them
in the language in force. Battleplan, card and ability names are the game's proper names
and stay as written.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.lang.i18n import Domain, say
from rules.warcry import wording
from rules.warcry.battlegroups import GROUP_TITLES
from rules.warcry.battleplans import RollOffShown
from rules.warcry.models import WarcryState

_ = Domain("warcry")

NameOf = Callable[[int], str]


def mention(player: int) -> str:
    return f"<@{player}>"


def group(name: object) -> str:
    """A battle group's name, from its id (`dagger`) or its English title (`Dagger`)."""
    key = str(name).lower()
    return say(GROUP_TITLES[key]) if key in GROUP_TITLES else str(name)  # type: ignore[index]


def objective(label: object) -> str:
    """An objective's label as shown: a word of the shipped battleplans translated, a letter as it is."""
    return say(wording.objective(str(label)))


def roll_off(roll: RollOffShown, name_of: NameOf = mention) -> str:
    """`Alice 3 – Bob 3, re-rolled; Alice 5 – Bob 2`: every die of a roll-off, ties included."""
    first, second = (name_of(p) for p in roll.players)
    throws = [f"{first} {a} – {second} {b}" for a, b in roll.rounds]
    return _.p("roll-off", ", re-rolled; ").join(throws)


# ---------------------------------------------------------------- a pack's decks and costs

DECKS: dict[str, str] = {
    "terrain": _.mark("terrain"),
    "deployment": _.mark("deployment"),
    "victory": _.mark("victory"),
    "twist": _.mark("twist"),
}
COSTS: dict[str, str] = {"double": _.mark("double"), "triple": _.mark("triple"), "quad": _.mark("quad")}


def deck(name: str) -> str:
    return _(DECKS[name]) if name in DECKS else name


# ---------------------------------------------------------------- a finished battle


def summary(state: WarcryState) -> str:
    """A finished battle in one line: `Reaper after 4 battle rounds: won because most victory points
    (2 to 1).`"""
    return say(wording.summary(state))
