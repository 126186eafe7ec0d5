"""The words a Warmaster question or refusal names things with: a target as one player sees it,
a kind of unit or character, a deck, the unit types and roles a player may type.

Each is `Words` of the warmaster catalogue, so it is written once in English here and shown in
the reader's language. A name the players gave (a unit, a terrain feature) is theirs: it is never
translated.
"""

from __future__ import annotations

from rules.warmaster.cards import DeckKind
from rules.warmaster.targets import SHOOTING_TYPES, CharacterRole, Target, TargetKind, UnitType
from rules.words import Marker, Words

N_ = Marker("warmaster")

TYPE_WORDS: dict[str, Words] = {
    UnitType.INFANTRY: N_.p("type", "infantry"),
    UnitType.CAVALRY: N_.p("type", "cavalry"),
    UnitType.CHARIOT: N_.p("type", "chariot"),
    UnitType.MONSTER: N_.p("type", "monster"),
    UnitType.ARTILLERY: N_.p("type", "artillery"),
    UnitType.MACHINE: N_.p("type", "machine"),
    CharacterRole.GENERAL: N_.p("type", "general"),
    CharacterRole.WIZARD: N_.p("type", "wizard"),
    CharacterRole.RUNESMITH: N_.p("type", "runesmith"),
    CharacterRole.HERO: N_.p("type", "hero"),
}
"""A unit type or a character role by its id, as a player types it in a form."""

UNIT_DETAILS: dict[UnitType, Words] = {
    UnitType.INFANTRY: N_("infantry unit"),
    UnitType.CAVALRY: N_("cavalry unit"),
    UnitType.CHARIOT: N_("chariot unit"),
    UnitType.MONSTER: N_("monster unit"),
    UnitType.ARTILLERY: N_("artillery unit"),
    UnitType.MACHINE: N_("machine unit"),
}
ROLE_DETAILS: dict[CharacterRole, Words] = {
    CharacterRole.GENERAL: N_.p("role", "general"),
    CharacterRole.WIZARD: N_.p("role", "wizard"),
    CharacterRole.RUNESMITH: N_.p("role", "runesmith"),
    CharacterRole.HERO: N_.p("role", "hero"),
}
KIND_WHOSE: dict[str, Words] = {
    TargetKind.UNIT: N_.p("whose", "unit"),
    TargetKind.CHARACTER: N_.p("whose", "character"),
    TargetKind.PLAYER: N_.p("whose", "player"),
    TargetKind.ARMY: N_.p("whose", "army"),
}
"""A kind of target in 'Say whose {kind} you mean'."""

FIXED_NAMES: dict[str, Words] = {
    TargetKind.TABLE: N_.p("name", "the table"),
    TargetKind.PLAYER: N_.p("name", "player"),
    TargetKind.ARMY: N_.p("name", "army"),
}
"""The name of a target every game has, as a refusal names it."""

SLOT_NAMES: dict[str, Words] = {"magic": N_.p("slot", "magic"), "tactics": N_.p("slot", "tactics")}
"""A deck by its id, as in 'already holds a card from the magic deck'."""


def type_word(word: str) -> Words:
    """A unit type or role by its id, as a player types it (anything else as it is)."""
    return TYPE_WORDS.get(word, Words.verbatim(word))


def type_list(words: list[str]) -> Words:
    """Unit types and roles as a list: 'infantry, cavalry'."""
    template = ", ".join(f"{{w{i}}}" for i in range(len(words)))
    return Words(template, None, values={f"w{i}": type_word(w) for i, w in enumerate(words)})


EVERY_TYPE = N_.p(
    "example", "infantry, cavalry, chariot, monster, artillery, machine, general, wizard, runesmith, hero"
)
"""Every unit type and role as a form's example: one sentence, so each language shortens its own
list to fit a form's placeholder (100 characters)."""


def type_example(words: list[str]) -> Words:
    """The unit types and roles a form offers, as its example of what to type."""
    return EVERY_TYPE if words == list(TYPE_WORDS) else type_list(words)


def deck_card(deck: DeckKind) -> Words:
    """'magic item card' or 'tactics card', in a sentence."""
    return N_("magic item card") if deck is DeckKind.MAGIC else N_("tactics card")


def unit_detail(unit_type: UnitType | None) -> Words:
    """'cavalry unit', or 'unit' when its type was never given."""
    return UNIT_DETAILS[unit_type] if unit_type is not None else N_("unit")


def role_detail(role: CharacterRole | None) -> Words:
    """'general', or 'character' when the role was never given."""
    return ROLE_DETAILS[role] if role is not None else N_("character")


def shooting(detail: Words) -> Words:
    """A unit or character that shoots though its kind does not: 'shooting wizard'."""
    return N_("shooting {detail}", detail=detail)


def detail(
    kind: TargetKind, unit_type: UnitType | None, role: CharacterRole | None, shoots: bool = False
) -> Words:
    """A unit's or character's kind in a few words: 'cavalry unit', 'shooting wizard'."""
    words = unit_detail(unit_type) if kind is TargetKind.UNIT else role_detail(role)
    return shooting(words) if shoots and unit_type not in SHOOTING_TYPES else words


def target_label(target: Target, viewer: int) -> Words:
    """A target seen from one player: 'Knights — your cavalry unit' (an option, a choice)."""
    own = target.owner == viewer
    if target.kind is TargetKind.TABLE:
        return N_.p("option", "the table")
    if target.kind is TargetKind.PLAYER:
        return N_.p("option", "you (player)") if own else N_.p("option", "your opponent (player)")
    if target.kind is TargetKind.ARMY:
        return N_.p("option", "your army") if own else N_.p("option", "the enemy army")
    if target.kind is TargetKind.TERRAIN:
        return N_.p("option", "{name} — terrain", name=target.name)
    what = detail(target.kind, target.unit_type, target.role)
    if own:
        return N_.p("option", "{name} — your {detail}", name=target.name, detail=what)
    return N_.p("option", "{name} — enemy {detail}", name=target.name, detail=what)


def target_values(target: Target) -> dict[str, str | int | Words | None]:
    """A target as refusal values: its name (a fixed target's in the reader's words), kind and
    owner (a player id, None when neutral)."""
    name = FIXED_NAMES.get(target.kind, target.name)
    return {"target": name, "target_kind": target.kind.value, "owner": target.owner}
