"""Which Tac Ops a player may hold: at most one faction Tac Op, the rest from one archetype.

Also which archetypes can complete a hand under each selection method, so no method can leave a
player stuck with no legal card: an archetype is only dealt from when it holds enough cards.
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.errors import RuleError
from rules.killteam.models import TAC_OPS_HELD, TacOpsMethod
from rules.killteam.pack import KillTeamPack, TacOp
from rules.words import Marker, Words

N_ = Marker("killteam")

METHOD_LABELS: dict[TacOpsMethod, Words] = {
    "random": N_.p("command", "Random"),
    "constructed": N_.p("command", "Constructed Random"),
    "free": N_.p("command", "Free Selection"),
    "acquired": N_.p("command", "Acquired"),
    "bid": N_.p("command", "Bid"),
}
"""The Tac Ops methods as the start command's choices name them."""
CONSTRUCTED_DECK = 6
CONSTRUCTED_FACTION_MAX = 3
# The smallest archetype each method deals from. Random and Free need a full hand from one archetype;
# Acquired shares one deck, so an archetype must hold both players' hands; Bid pairs six cards.
ARCHETYPE_MINIMUM: dict[TacOpsMethod, int] = {
    "random": 3,
    "free": 3,
    "constructed": 6,
    "acquired": 6,
    "bid": 6,
}
RANDOM_DECK_MINIMUM = 6


def fits(held: Sequence[TacOp], candidate: TacOp, faction: str | None) -> Words | None:
    """Why `candidate` cannot join `held`, or None when it can. Speaks only of the owner's cards."""
    if any(card.id == candidate.id for card in held):
        return N_("You already hold {name}.", name=candidate.name)
    if len(held) >= TAC_OPS_HELD:
        return N_("You already hold {count} Tac Ops.", count=TAC_OPS_HELD)
    if candidate.faction is not None:
        if candidate.faction != faction:
            return N_(
                "{name} is a {faction} Tac Op, not one of your faction's.",
                name=candidate.name,
                faction=candidate.faction,
            )
        if any(card.faction is not None for card in held):
            return N_("You may hold only one faction Tac Op.")
        return None
    archetypes = {card.archetype for card in held if card.archetype is not None}
    if archetypes and candidate.archetype not in archetypes:
        (mine,) = archetypes
        return N_(
            "Your Tac Ops so far are {mine}; all your archetype Tac Ops must come from one archetype, and "
            "{name} is {archetype}.",
            mine=mine,
            name=candidate.name,
            archetype=candidate.archetype,
        )
    return None


def hand_problem(
    cards: Sequence[TacOp], faction: str | None, size: int, faction_max: int
) -> RuleError | None:
    """The refusal for a whole selection (a hand or a constructed deck) that breaks the rules, or None."""
    if len({card.id for card in cards}) != len(cards):
        return RuleError(code="killteam.hand_repeated")
    if len(cards) != size:
        return RuleError(code="killteam.hand_size", size=size)
    foreign = [card for card in cards if card.faction is not None and card.faction != faction]
    if foreign:
        return RuleError(code="killteam.hand_foreign", tac_op=foreign[0].name)
    if sum(1 for card in cards if card.faction is not None) > faction_max:
        if faction_max == 1:
            return RuleError(code="killteam.hand_one_faction_op")
        return RuleError(code="killteam.hand_faction_max", maximum=faction_max)
    archetypes = {card.archetype for card in cards if card.archetype is not None}
    if len(archetypes) > 1:
        return RuleError(code="killteam.hand_archetypes")
    return None


def random_pool(pack: KillTeamPack, faction: str | None) -> list[str]:
    """Random and the 'deck of 27': every dealable archetype's Tac Ops plus the player's faction ones."""
    ops = [
        op.id for name in pack.archetypes_with(ARCHETYPE_MINIMUM["random"]) for op in pack.archetype_ops(name)
    ]
    return ops + [op.id for op in pack.faction_ops(faction)]


def acquired_pool(pack: KillTeamPack, factions: Sequence[str | None]) -> list[str]:
    ops = [
        op.id
        for name in pack.archetypes_with(ARCHETYPE_MINIMUM["acquired"])
        for op in pack.archetype_ops(name)
    ]
    for faction in dict.fromkeys(factions):
        ops += [op.id for op in pack.faction_ops(faction)]
    return ops


def free_archetypes(pack: KillTeamPack, faction: str | None) -> list[str]:
    """Archetypes that can complete a hand of three (with one faction Tac Op if the player has any)."""
    needed = TAC_OPS_HELD - (1 if pack.faction_ops(faction) else 0)
    return pack.archetypes_with(needed)


def constructed_archetypes(pack: KillTeamPack, faction: str | None) -> list[str]:
    """The player's faction archetypes that fill a six-card deck with up to three faction Tac Ops."""
    needed = CONSTRUCTED_DECK - min(CONSTRUCTED_FACTION_MAX, len(pack.faction_ops(faction)))
    usable = pack.archetypes_with(needed)
    entry = pack.faction(faction)
    if entry and entry.archetypes:
        own = [name for name in usable if name in entry.archetypes]
        if own:
            return own
    return usable


def method_problem(pack: KillTeamPack, method: TacOpsMethod) -> RuleError | None:
    """The refusal when this pack cannot run a Tac Ops method at all, or None. Checked before a game
    starts."""
    minimum = ARCHETYPE_MINIMUM[method]
    largest = max((len(a.tac_ops) for a in pack.archetypes), default=0)
    if largest < minimum:
        return RuleError(
            code="killteam.method_archetype",
            pack=pack.name,
            method=METHOD_LABELS[method],
            minimum=minimum,
            largest=largest,
        )
    if method == "random" and len(random_pool(pack, None)) < RANDOM_DECK_MINIMUM:
        return RuleError(
            code="killteam.method_deck",
            pack=pack.name,
            method=METHOD_LABELS[method],
            minimum=RANDOM_DECK_MINIMUM,
        )
    return None


def supported_methods(pack: KillTeamPack) -> list[TacOpsMethod]:
    return [method for method in METHOD_LABELS if method_problem(pack, method) is None]
