"""The targets a game knows, what each holds, and the target a player's reference means (a known
one, or a new one described)."""

from __future__ import annotations

from rules.errors import RuleError
from rules.warmaster.actions import (
    TargetRef,
)
from rules.warmaster.cards import DeckKind
from rules.warmaster.labels import KIND_WHOSE
from rules.warmaster.models import LaidCard, WarmasterState
from rules.warmaster.targets import (
    LOSABLE_KINDS,
    CharacterRole,
    Side,
    Target,
    TargetKind,
    clean_name,
    fixed_targets,
    target_key,
)


def all_targets(state: WarmasterState) -> list[Target]:
    """The fixed targets (players, armies, the table) and everything named so far."""
    return fixed_targets(state.players) + state.targets


def cards_on(state: WarmasterState, key: str) -> list[LaidCard]:
    return [laid for laid in state.laid if laid.target_key == key]


def slot_free(state: WarmasterState, key: str, deck: DeckKind) -> bool:
    return all(laid.held.deck is not deck for laid in cards_on(state, key))


def lays_face_down(state: WarmasterState, player: int, target: Target) -> bool:
    """Face down on the player's own targets and neutral ones, face up on the opponent's.

    A player against whom a Scrying Glass works lays everything face up.
    """
    return target.owner != state.opponent(player) and not state.side(player).exposed


# ------------------------------------------------------------------ targets


def resolve_target(
    state: WarmasterState, actor: int, ref: TargetRef, *, for_play: bool
) -> tuple[Target, bool]:
    """Find the target a player means, or describe a new one; returns (target, is_new)."""
    known = all_targets(state)
    if ref.key is not None:
        for target in known:
            if target.key == ref.key:
                return target, False
        raise RuleError(code="warmaster.target_unknown", key=ref.key[:100])
    opponent = state.opponent(actor)
    owner_of = {Side.MINE: actor, Side.ENEMY: opponent}
    if ref.kind is TargetKind.TABLE or (
        ref.kind is None and ref.name and ref.name.strip().casefold() in ("table", "the table")
    ):
        return known[0], False
    if ref.kind in (TargetKind.PLAYER, TargetKind.ARMY):
        if ref.side not in owner_of:
            raise RuleError(code="warmaster.target_whose", kind=KIND_WHOSE[ref.kind])
        return next(t for t in known if t.key == f"{ref.kind}:{owner_of[ref.side]}"), False
    if not ref.name:
        raise RuleError(code="warmaster.target_unnamed")
    name = clean_name(ref.name)
    matches = [t for t in state.targets if t.name.casefold() == name.casefold()]
    if ref.side is not None:
        wanted_owner = owner_of.get(ref.side)
        matches = [t for t in matches if t.owner == wanted_owner]
    if ref.kind is not None:
        family = {TargetKind.TERRAIN} if ref.kind is TargetKind.TERRAIN else set(LOSABLE_KINDS)
        matches = [t for t in matches if t.kind in family]
    if len(matches) > 1:
        raise RuleError(code="warmaster.target_ambiguous", name=name)
    if matches:
        target = matches[0]
        _check_same(target, ref)
        return target, False
    return _new_target(state, actor, ref, name, for_play=for_play), True


def _check_same(target: Target, ref: TargetRef) -> None:
    conflict = (
        (ref.kind is not None and ref.kind is not target.kind)
        or (
            ref.unit_type is not None
            and target.unit_type is not None
            and ref.unit_type is not target.unit_type
        )
        or (ref.role is not None and target.role is not None and ref.role is not target.role)
    )
    if conflict:
        raise RuleError(
            code="warmaster.target_known_as",
            name=target.name,
            kind=target.kind.value,
            unit_type=target.unit_type.value if target.unit_type else None,
            role=target.role.value if target.role else None,
            owner=target.owner,
        )


def _new_target(state: WarmasterState, actor: int, ref: TargetRef, name: str, *, for_play: bool) -> Target:
    if ref.kind is None:
        raise RuleError(code="warmaster.new_target_kind", name=name)
    if ref.kind is TargetKind.TERRAIN:
        if ref.side not in (None, Side.NEUTRAL):
            raise RuleError(code="warmaster.terrain_side", name=name)
        return Target(key=target_key(TargetKind.TERRAIN, None, name), name=name, kind=TargetKind.TERRAIN)
    if ref.side not in (Side.MINE, Side.ENEMY):
        raise RuleError(code="warmaster.new_target_whose", name=name, kind=KIND_WHOSE[ref.kind])
    owner = actor if ref.side is Side.MINE else state.opponent(actor)
    if ref.kind is TargetKind.UNIT:
        if ref.role is not None:
            raise RuleError(code="warmaster.role_on_unit", name=name)
        if for_play and ref.unit_type is None:
            raise RuleError(code="warmaster.unit_type_missing", name=name)
        return Target(
            key=target_key(TargetKind.UNIT, owner, name),
            name=name,
            kind=TargetKind.UNIT,
            owner=owner,
            unit_type=ref.unit_type,
            shooting=bool(ref.shooting),
        )
    if ref.unit_type is not None:
        raise RuleError(code="warmaster.unit_type_on_character", name=name)
    if for_play and ref.role is None:
        raise RuleError(code="warmaster.role_missing", name=name)
    if ref.role is CharacterRole.GENERAL:
        existing = next(
            (t for t in state.targets if t.owner == owner and t.role is CharacterRole.GENERAL), None
        )
        if existing is not None:
            raise RuleError(code="warmaster.general_taken", name=existing.name, owner=owner)
    return Target(
        key=target_key(TargetKind.CHARACTER, owner, name),
        name=name,
        kind=TargetKind.CHARACTER,
        owner=owner,
        role=ref.role,
        shooting=bool(ref.shooting),
    )
