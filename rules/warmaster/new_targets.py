"""A new target carried whole in one autocomplete value: its name with its kind, side and details.

Naming a new target in `/warmaster play` otherwise takes up to five more options (kind, side, unit
type, role, shoots). The target autocomplete instead offers each new target the chosen card may go
on as one choice whose value carries it:

    new|<kind>|<side>|<unit type or role, or empty>|<"shoots" or empty>|<name>

A target name cannot hold `|` (`clean_name` refuses it) and no known target's key starts with
`new|`, so such a value is never mistaken for a typed name or a known target. The name comes last
and is split off whole, so any name reads back unchanged.
"""

from __future__ import annotations

from pydantic import ValidationError, model_validator

from rules.errors import RuleError
from rules.session import Model
from rules.warmaster.actions import TargetRef
from rules.warmaster.models import WarmasterState
from rules.warmaster.targets import (
    LOSABLE_KINDS,
    CharacterRole,
    Restriction,
    Side,
    Target,
    TargetKind,
    UnitType,
    clean_name,
)

PREFIX = "new"
SEPARATOR = "|"
SHOOTS = "shoots"
FIELDS = 6  # the prefix, kind, side, detail, shoots and the name
# More new-target choices than this would crowd out the known targets in Discord's 25: a unit or
# character with many allowed types is then offered once per side, its type given by its option.
MAX_NEW_CHOICES = 12
NEW_KINDS = (TargetKind.UNIT, TargetKind.CHARACTER, TargetKind.TERRAIN)
UNIT_TYPES = frozenset(t.value for t in UnitType)
ROLES = frozenset(r.value for r in CharacterRole)


class NewTarget(Model):
    """A target not named before, with what laying a card on it needs to know about it."""

    name: str
    kind: TargetKind
    side: Side
    unit_type: UnitType | None = None
    role: CharacterRole | None = None
    shooting: bool = False

    @model_validator(mode="after")
    def _consistent(self) -> NewTarget:
        if self.kind not in NEW_KINDS:
            raise ValueError(f"a {self.kind} is never new")
        if (self.kind is TargetKind.TERRAIN) != (self.side is Side.NEUTRAL):
            raise ValueError("terrain and only terrain is neutral")
        if self.unit_type is not None and self.kind is not TargetKind.UNIT:
            raise ValueError("only units have a unit type")
        if self.role is not None and self.kind is not TargetKind.CHARACTER:
            raise ValueError("only characters have a role")
        if self.shooting and self.kind is TargetKind.TERRAIN:
            raise ValueError("terrain does not shoot")
        return self

    @property
    def complete(self) -> bool:
        """Whether a card can be laid on it as it stands (a unit needs its type, a character its role)."""
        if self.kind is TargetKind.UNIT:
            return self.unit_type is not None
        if self.kind is TargetKind.CHARACTER:
            return self.role is not None
        return True


def encode_new_target(new: NewTarget) -> str:
    """The choice value that carries `new` (at most 97 characters for a name `clean_name` accepts)."""
    detail = new.unit_type or new.role or ""
    fields = [PREFIX, new.kind, new.side, detail, SHOOTS if new.shooting else "", new.name]
    return SEPARATOR.join(str(field) for field in fields)


def decode_new_target(value: str) -> NewTarget | None:
    """The new target a choice value carries; None for any other value (a typed name, a known key).

    A value that starts like one but does not read back is refused, not taken for a name.
    """
    if not value.startswith(PREFIX + SEPARATOR):
        return None
    fields = value.split(SEPARATOR, FIELDS - 1)
    try:
        if len(fields) != FIELDS:
            raise ValueError("too few fields")
        _prefix, kind_text, side_text, detail, shoots, name = fields
        kind = TargetKind(kind_text)
        unit_type = UnitType(detail) if detail and kind is TargetKind.UNIT else None
        role = CharacterRole(detail) if detail and kind is TargetKind.CHARACTER else None
        if detail and unit_type is None and role is None:
            raise ValueError("a detail on a target that has none")
        if shoots not in ("", SHOOTS):
            raise ValueError("shoots or nothing")
        return NewTarget(
            name=name,
            kind=kind,
            side=Side(side_text),
            unit_type=unit_type,
            role=role,
            shooting=shoots == SHOOTS,
        )
    except (ValueError, ValidationError):
        raise RuleError(code="warmaster.new_choice_malformed", value=value[:100]) from None


def typed_target(
    value: str,
    *,
    kind: TargetKind | None = None,
    side: Side | None = None,
    unit_type: UnitType | None = None,
    role: CharacterRole | None = None,
    shooting: bool | None = None,
) -> TargetRef:
    """A target named by a typed name or a new-target choice, with the details given as options.

    The options win over what the choice carries. A choice's type or role is kept only while the
    kind stays the same, and its side and shooting only while it stays a unit or a character.
    """
    new = decode_new_target(value)
    if new is None:
        return TargetRef(name=value, kind=kind, side=side, unit_type=unit_type, role=role, shooting=shooting)
    final_kind = kind or new.kind
    same_kind = final_kind is new.kind
    same_family = same_kind or (final_kind in LOSABLE_KINDS and new.kind in LOSABLE_KINDS)
    return TargetRef(
        name=new.name,
        kind=final_kind,
        side=side or (new.side if same_family else None),
        unit_type=unit_type or (new.unit_type if same_kind else None),
        role=role or (new.role if same_kind else None),
        shooting=shooting if shooting is not None else (True if new.shooting and same_family else None),
    )


# ------------------------------------------------------------------ what a card's new target may be


def _allowed_unit_types(carrier: Restriction, shooting: bool) -> list[UnitType]:
    return [
        unit_type
        for unit_type in UnitType
        if carrier.allows(
            Target(key="?", name="?", kind=TargetKind.UNIT, owner=0, unit_type=unit_type, shooting=shooting)
        )
    ]


def _allowed_roles(carrier: Restriction, shooting: bool) -> list[CharacterRole]:
    return [
        role
        for role in CharacterRole
        if carrier.allows(
            Target(key="?", name="?", kind=TargetKind.CHARACTER, owner=0, role=role, shooting=shooting)
        )
    ]


def new_target_offers(
    state: WarmasterState, player: int, carrier: Restriction, typed: str
) -> list[NewTarget]:
    """The new targets called `typed` that a card with this carrier may go on, as `player` names them.

    Each unit type or role the carrier allows is a choice of its own, on the player's side and the
    enemy's, unless that makes more than MAX_NEW_CHOICES: a kind with several then comes once per
    side and its type is given with the command's option. A combination that would be a target the
    game already knows (same name and owner) or a second General is left out, as is any name the
    rules would refuse.
    """
    try:
        name = clean_name(typed)
    except RuleError:
        return []
    shooting = carrier is Restriction.SHOOTER  # a card for shooters says its new carrier shoots
    unit_types = _allowed_unit_types(carrier, shooting)
    roles = _allowed_roles(carrier, shooting)
    takes_terrain = carrier.allows(Target(key="?", name="?", kind=TargetKind.TERRAIN))
    expanded = 2 * (len(unit_types) + len(roles)) + takes_terrain
    crowded = expanded > MAX_NEW_CHOICES
    units: list[UnitType | None] = [None] if crowded and len(unit_types) > 1 else list(unit_types)
    characters: list[CharacterRole | None] = [None] if crowded and len(roles) > 1 else list(roles)

    owners = {Side.MINE: player, Side.ENEMY: state.opponent(player)}
    folded = name.casefold()
    named = [t for t in state.targets if t.name.casefold() == folded]
    generals = {t.owner for t in state.targets if t.role is CharacterRole.GENERAL}
    offers: list[NewTarget] = []
    for side, owner in owners.items():
        if any(t.owner == owner and t.kind in LOSABLE_KINDS for t in named):
            continue
        offers += [
            NewTarget(name=name, kind=TargetKind.UNIT, side=side, unit_type=unit_type, shooting=shooting)
            for unit_type in units
        ]
    for side, owner in owners.items():
        if any(t.owner == owner and t.kind in LOSABLE_KINDS for t in named):
            continue
        offers += [
            NewTarget(name=name, kind=TargetKind.CHARACTER, side=side, role=role, shooting=shooting)
            for role in characters
            if not (role is CharacterRole.GENERAL and owner in generals)
        ]
    if takes_terrain and not any(t.kind is TargetKind.TERRAIN for t in named):
        offers.append(NewTarget(name=name, kind=TargetKind.TERRAIN, side=Side.NEUTRAL))
    return offers


# ------------------------------------------------------------------ what a new target may be


def shoots_by_card(carrier: Restriction) -> bool:
    """A card for shooters, laid on a target named for it, says that target shoots."""
    return carrier is Restriction.SHOOTER


def new_target_words(carrier: Restriction) -> list[str]:
    """The unit types and character roles a new unit or character must have to take the card."""
    shooting = shoots_by_card(carrier)
    words = [
        str(t)
        for t in UnitType
        if carrier.allows(
            Target(key="?", name="?", kind=TargetKind.UNIT, owner=0, unit_type=t, shooting=shooting)
        )
    ]
    words += [
        str(r)
        for r in CharacterRole
        if carrier.allows(
            Target(key="?", name="?", kind=TargetKind.CHARACTER, owner=0, role=r, shooting=shooting)
        )
    ]
    return words


def takes_terrain(carrier: Restriction) -> bool:
    return carrier.allows(Target(key="?", name="?", kind=TargetKind.TERRAIN))
