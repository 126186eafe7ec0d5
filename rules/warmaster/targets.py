"""What a card can be laid on, and which cards each kind of target may take.

A target is named by the players (the bot does not know army lists), so its kind and details are
given the first time it is used and remembered afterwards; later plays name it only, and the
bot offers `known_targets` to pick from.
"""

from __future__ import annotations

import re
from enum import StrEnum

from pydantic import model_validator

from rules.errors import RuleError
from rules.session import Model
from rules.words import Marker, Words

N_ = Marker("warmaster")

MAX_TARGET_NAME = 60


class TargetKind(StrEnum):
    UNIT = "unit"
    CHARACTER = "character"
    PLAYER = "player"
    ARMY = "army"
    TABLE = "table"
    TERRAIN = "terrain"


class UnitType(StrEnum):
    INFANTRY = "infantry"
    CAVALRY = "cavalry"
    CHARIOT = "chariot"
    MONSTER = "monster"
    ARTILLERY = "artillery"
    MACHINE = "machine"


class CharacterRole(StrEnum):
    GENERAL = "general"
    WIZARD = "wizard"
    RUNESMITH = "runesmith"
    HERO = "hero"


class Side(StrEnum):
    """A target's side seen from the player naming it."""

    MINE = "mine"
    ENEMY = "enemy"
    NEUTRAL = "neutral"


# Kinds that belong to one player; the others (table, terrain) are neutral.
OWNED_KINDS = frozenset({TargetKind.UNIT, TargetKind.CHARACTER, TargetKind.PLAYER, TargetKind.ARMY})
# Kinds that can be destroyed in the battle and so give victory points.
LOSABLE_KINDS = frozenset({TargetKind.UNIT, TargetKind.CHARACTER})
# Unit types that always shoot.
SHOOTING_TYPES = frozenset({UnitType.ARTILLERY, UnitType.MACHINE})


class Target(Model):
    """A remembered target. `owner` is a player id, or None for the table and terrain."""

    key: str
    name: str
    kind: TargetKind
    owner: int | None = None
    unit_type: UnitType | None = None
    role: CharacterRole | None = None
    shooting: bool = False

    @model_validator(mode="after")
    def _consistent(self) -> Target:
        if (self.kind in OWNED_KINDS) != (self.owner is not None):
            raise ValueError(
                f"a {self.kind} target {'needs' if self.kind in OWNED_KINDS else 'has no'} owner"
            )
        # A unit or character first named when it is lost may have no type: no card needs one then.
        if self.unit_type is not None and self.kind is not TargetKind.UNIT:
            raise ValueError("only units have a unit type")
        if self.role is not None and self.kind is not TargetKind.CHARACTER:
            raise ValueError("only characters have a role")
        return self

    @property
    def shoots(self) -> bool:
        return self.shooting or self.unit_type in SHOOTING_TYPES


class Restriction(StrEnum):
    """Who may carry a card, as the cards print it."""

    GENERAL = "general"
    WIZARD = "wizard"
    WIZARD_OR_RUNESMITH = "wizard_or_runesmith"
    WIZARD_OR_GENERAL = "wizard_or_general"
    CHARACTER = "character"
    UNIT = "unit"
    CHARACTER_OR_UNIT = "character_or_unit"
    INFANTRY = "infantry"
    INFANTRY_CAVALRY_CHARIOT = "infantry_cavalry_chariot"
    INFANTRY_OR_ARTILLERY = "infantry_or_artillery"
    SHOOTER = "shooter"
    MACHINE = "machine"
    TERRAIN = "terrain"
    PLAYER = "player"
    ARMY = "army"
    TABLE = "table"
    ANY = "any"

    def allows(self, target: Target) -> bool:
        role, unit_type = target.role, target.unit_type
        match self:
            case Restriction.GENERAL:
                return role is CharacterRole.GENERAL
            case Restriction.WIZARD:
                return role is CharacterRole.WIZARD
            case Restriction.WIZARD_OR_RUNESMITH:
                return role in (CharacterRole.WIZARD, CharacterRole.RUNESMITH)
            case Restriction.WIZARD_OR_GENERAL:
                return role in (CharacterRole.WIZARD, CharacterRole.GENERAL)
            case Restriction.CHARACTER:
                return target.kind is TargetKind.CHARACTER
            case Restriction.UNIT:
                return target.kind is TargetKind.UNIT
            case Restriction.CHARACTER_OR_UNIT:
                return target.kind in LOSABLE_KINDS
            case Restriction.INFANTRY:
                return unit_type is UnitType.INFANTRY
            case Restriction.INFANTRY_CAVALRY_CHARIOT:
                return unit_type in (UnitType.INFANTRY, UnitType.CAVALRY, UnitType.CHARIOT)
            case Restriction.INFANTRY_OR_ARTILLERY:
                return unit_type in (UnitType.INFANTRY, UnitType.ARTILLERY)
            case Restriction.SHOOTER:
                # "Any shooting unit or character": read as a unit or character that shoots.
                return target.kind in LOSABLE_KINDS and target.shoots
            case Restriction.MACHINE:
                return unit_type is UnitType.MACHINE
            case Restriction.TERRAIN:
                return target.kind is TargetKind.TERRAIN
            case Restriction.PLAYER:
                return target.kind is TargetKind.PLAYER
            case Restriction.ARMY:
                return target.kind is TargetKind.ARMY
            case Restriction.TABLE:
                return target.kind is TargetKind.TABLE
            case Restriction.ANY:
                return True

    def describe(self) -> str:
        """Who may carry the card, in English (as a card's view keeps it)."""
        return str(RESTRICTION_TEXT[self])

    def words(self) -> Words:
        """Who may carry the card, as players read it."""
        return RESTRICTION_TEXT[self]


RESTRICTION_TEXT: dict[Restriction, Words] = {
    Restriction.GENERAL: N_("the General only"),
    Restriction.WIZARD: N_("a Wizard only"),
    Restriction.WIZARD_OR_RUNESMITH: N_("a Wizard or a Dwarf Runesmith only"),
    Restriction.WIZARD_OR_GENERAL: N_("a Wizard or the General only"),
    Restriction.CHARACTER: N_("a character"),
    Restriction.UNIT: N_("a unit"),
    Restriction.CHARACTER_OR_UNIT: N_("a character or a unit"),
    Restriction.INFANTRY: N_("an infantry unit"),
    Restriction.INFANTRY_CAVALRY_CHARIOT: N_("an infantry, cavalry or chariot unit"),
    Restriction.INFANTRY_OR_ARTILLERY: N_("an infantry or artillery unit"),
    Restriction.SHOOTER: N_("a unit or character that shoots"),
    Restriction.MACHINE: N_("a machine"),
    Restriction.TERRAIN: N_("a terrain feature"),
    Restriction.PLAYER: N_("a player"),
    Restriction.ARMY: N_("an army"),
    Restriction.TABLE: N_("the table"),
    Restriction.ANY: N_("any target"),
}
NOT_LAID = N_("not laid: traded")
"""What a Lucky Find! says in place of who carries it."""


def carrier_words(described: str) -> Words:
    """Who may carry a card as a card's view keeps it (its English), as players read it; a pack's
    own words are shown as they are."""
    known = {str(words): words for words in (*RESTRICTION_TEXT.values(), NOT_LAID)}
    return known.get(described, Words.verbatim(described))


def clean_name(raw: str) -> str:
    """Trim and collapse spaces; refuse empty, overlong or mention-like names."""
    name = re.sub(r"\s+", " ", raw).strip()
    if not name:
        raise RuleError(code="warmaster.name_empty")
    if len(name) > MAX_TARGET_NAME:
        raise RuleError(code="warmaster.name_too_long", limit=MAX_TARGET_NAME)
    if any(ch in name for ch in "<>@`*_|~") or "://" in name:
        raise RuleError(code="warmaster.name_markup")
    return name


def target_key(kind: TargetKind, owner: int | None, name: str) -> str:
    """Stable identity: units and characters share one namespace per side."""
    if kind is TargetKind.TABLE:
        return "table"
    if kind in (TargetKind.PLAYER, TargetKind.ARMY):
        return f"{kind}:{owner}"
    group = "terrain" if kind is TargetKind.TERRAIN else "force"
    return f"{group}:{owner if owner is not None else '-'}:{name.casefold()}"


def fixed_targets(players: list[int]) -> list[Target]:
    """Targets every game has before anything is named: both players, both armies, the table."""
    targets = [Target(key="table", name="the table", kind=TargetKind.TABLE)]
    for player in players:
        targets.append(Target(key=f"player:{player}", name="player", kind=TargetKind.PLAYER, owner=player))
        targets.append(Target(key=f"army:{player}", name="army", kind=TargetKind.ARMY, owner=player))
    return targets
