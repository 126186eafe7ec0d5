"""Kill Team's names shown to players, in the language in force: its players, its methods, the
sealed rounds and roll-offs, the map cards and the line a finished game is listed under (its
summary).

A sealed round's and a map card's name are worded by the rules (rules/killteam/labels.py); the
others are kept in the state and events as English, and translated here by their English (marked
here, so the catalogue holds it), a name with values by the English template it was made from
(`reword`). The English comes out unchanged.
"""

from __future__ import annotations

import functools
import re
import string
from collections.abc import Callable, Iterable

from bot.lang.i18n import Domain, say
from rules.killteam import labels
from rules.killteam.hand import METHOD_LABELS

_ = Domain("killteam")

COLOUR = 0x3B5B3B
MISSION_METHOD_LABELS = {
    "organised": "Organised",
    "random": "Random",
    "veto": "Veto",
    "control": "Control",
    "bid": "Bid",
}
TACOPS_LABELS: dict[str, str] = {str(key): str(label) for key, label in METHOD_LABELS.items()}


def who(player: int) -> str:
    return f"<@{player}>"


def method(label: str) -> str:
    """A method's name as the start command's choices say it (translated with the command's words)."""
    return _.p("command", label)


ROLL_OFF_PURPOSES = frozenset(
    {_.mark("Veto: attacker and defender"), _.mark("attacker and defender"), _.mark("the first initiative")}
)

SUMMARY = _.mark("{where}, {when}: {first} VP to {second} VP{draw}.")
WHERE = _.mark("{mission} on {map}")
WHEN = (
    _.mark("ended before the battle began"),  # results stored before such games were cancelled
    _.mark("ended early in turning point {number}"),
    _.mark("after {number} turning points"),
)
DRAW = _.mark(", a draw")


@functools.cache
def _pattern(template: str) -> re.Pattern[str]:
    """A regular expression that matches what `template` makes, each value a named group."""
    parts = []
    for literal, name, _spec, _conversion in string.Formatter().parse(template):
        parts.append(re.escape(literal))
        if name:
            parts.append(rf"(?P<{name}>\d+)" if name in ("count", "number") else rf"(?P<{name}>.*?)")
    return re.compile("".join(parts), re.DOTALL)


def reword(text: str, templates: Iterable[str], values: dict[str, Callable[[str], str]] | None = None) -> str:
    """`text`, made by the rules from one of `templates`, in the language in force: its values are
    kept (or said through `values`' functions by name). Text made from none of them is translated
    as a fixed sentence (or shown as it is)."""
    for template in templates:
        found = _pattern(template).fullmatch(text)
        if found is not None:
            said = {k: (values or {}).get(k, str)(v) for k, v in found.groupdict().items()}
            return _(template, **said)
    return _(text)


def sealed_label(label: str) -> str:
    """What a sealed round chooses ("bid to choose the mission"), in the language in force."""
    return say(labels.sealed_label(label))


def purpose(text: str) -> str:
    """What a roll-off decides: a purpose of its own, or a bid's label."""
    return _(text) if text in ROLL_OFF_PURPOSES else sealed_label(text)


def summary(text: str) -> str:
    """A finished game's summary (rules: battle.finish)."""
    return reword(
        text,
        [SUMMARY],
        {
            "where": lambda where: reword(where, [WHERE], {"map": map_label}),
            "when": lambda when: reword(when, WHEN),
            "draw": lambda draw: _(DRAW) if draw else draw,
        },
    )


def map_label(label: str) -> str:
    """A map card's label: an unnamed card is "Map A4"; a named one keeps its name and id."""
    return say(labels.map_words(label))
