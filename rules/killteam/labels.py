"""The names Kill Team gives what players read about: a sealed round (what it chooses), a map card
and a map type, and the scoring caps. Worded once here for the catalogue, as `Words`.

A sealed round's label and a map card's label are kept in the state and the events as their
English (a save stays plain data); `sealed_label` and `map_words` give that English back as the
`Words` it was made from, so every place that shows one says it in the reader's language.
"""

from __future__ import annotations

import re

from rules.killteam.models import (
    BATTLE_READY_VP,
    MISSION_VP_PER_TP,
    MISSION_VP_TOTAL,
    TAC_OP_VP_EACH,
    TAC_OP_VP_TOTAL,
    VP_TOTAL,
    KillTeamState,
)
from rules.killteam.pack import MapCard, TacOp
from rules.words import Marker, Words

N_ = Marker("killteam")

# What a sealed round chooses, a noun phrase without its article: the sentences around it say "the".
MISSION_BID = N_("bid to choose the mission")
MAP_BID = N_("bid to choose the map")
SIDES_BID = N_("bid to choose attacker and defender")
INITIATIVE_BID = N_("bid to choose who has the first initiative")
ARCHETYPE_BID = N_("bid to choose the Tac Ops archetype")
SCOUTING_PICK = N_("scouting pick")
SEALED = {
    str(words): words
    for words in (MISSION_BID, MAP_BID, SIDES_BID, INITIATIVE_BID, ARCHETYPE_BID, SCOUTING_PICK)
}
PAIR = re.compile(r"bid for Tac Op pair (?P<number>\d+) \((?P<cards>.*)\)", re.DOTALL)
MAP = "Map "

CAPS = N_(
    "Caps: mission {per_turning_point} VP per turning point and {mission} in all; each Tac Op "
    "{each} VP ({tac_ops} in all); {painted} VP for a Battle Ready painted roster; {total} at most.",
    per_turning_point=MISSION_VP_PER_TP,
    mission=MISSION_VP_TOTAL,
    each=TAC_OP_VP_EACH,
    tac_ops=TAC_OP_VP_TOTAL,
    painted=BATTLE_READY_VP,
    total=VP_TOTAL,
)
"""The scoring caps, as the board's footer says them."""


def pair_label(number: int, cards: list[TacOp]) -> Words:
    """The bid for the `number`th pair of Tac Ops in the Bid method."""
    names = " / ".join(card.name for card in cards)
    return N_("bid for Tac Op pair {number} ({cards})", number=number, cards=names)


def sealed_label(label: str) -> Words:
    """A sealed round's label (kept as its English) as the Words it was made from; a label made
    otherwise is shown as it is."""
    known = SEALED.get(label)
    if known is not None:
        return known
    pair = PAIR.fullmatch(label)
    if pair is not None:
        return N_("bid for Tac Op pair {number} ({cards})", number=int(pair["number"]), cards=pair["cards"])
    return Words.verbatim(label)


def map_words(label: str) -> Words:
    """A map card's label (`MapCard.label`): an unnamed card is "Map A4"; a named one keeps the
    name and id its pack gives it."""
    if label.startswith(MAP):
        return N_("Map {id}", id=label.removeprefix(MAP))
    return Words.verbatim(label)


def card_label(card: MapCard) -> Words:
    return map_words(card.label)


def map_group(group: str) -> Words:
    """A map type ("1-3"), as its options and lines name it."""
    return N_("Maps {group}", group=group)


def mission_name(state: KillTeamState, mission_id: str | None = None) -> str | None:
    """The chosen (or named) mission's name from the pack; its id if the pack has no such card."""
    key = mission_id or state.mission
    mission = state.pack.mission(key) if key else None
    return mission.name if mission else key


def map_label(state: KillTeamState, map_id: str | None = None) -> str | None:
    """The chosen (or named) map card's label (its English, as kept in events)."""
    key = map_id or state.map
    card = state.pack.map(key) if key else None
    return card.label if card else key
