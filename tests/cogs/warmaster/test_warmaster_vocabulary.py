"""Warmaster's names as the cog shows them: a new target offered by autocomplete."""

from __future__ import annotations

from hypothesis import given

from cogs.warmaster.vocabulary import new_target_label
from rules.warmaster.new_targets import (
    NewTarget,
    encode_new_target,
)
from rules.warmaster.targets import MAX_TARGET_NAME, CharacterRole, Side, TargetKind
from tests.rules.warmaster.warmaster_helpers import ORCS, shapes

MALFORMED = "warmaster.new_choice_malformed"


@given(new=shapes())
def test_a_choice_for_the_longest_name_the_rules_accept_fits_discord(new: NewTarget) -> None:
    longest = new.model_copy(update={"name": "x" * MAX_TARGET_NAME})
    assert len(encode_new_target(longest)) <= 100
    assert len(new_target_label(longest)) <= 100


def test_the_longest_value_and_label_fit() -> None:
    new = NewTarget(
        name="x" * MAX_TARGET_NAME,
        kind=TargetKind.CHARACTER,
        side=Side.ENEMY,
        role=CharacterRole.RUNESMITH,
        shooting=True,
    )
    assert len(encode_new_target(new)) == 97
    vague = NewTarget(name="x" * MAX_TARGET_NAME, kind=TargetKind.UNIT, side=Side.ENEMY, shooting=True)
    assert new_target_label(vague) == f"New: {'x' * MAX_TARGET_NAME} (enemy shooting unit) + unit_type"
    assert len(new_target_label(vague)) == 99


def test_labels_say_what_the_choice_is() -> None:
    assert new_target_label(ORCS) == "New: Orcs (my infantry unit)"
    general = NewTarget(name="Grom", kind=TargetKind.CHARACTER, side=Side.ENEMY, role=CharacterRole.GENERAL)
    assert new_target_label(general) == "New: Grom (enemy General)"
    vague = NewTarget(name="Grom", kind=TargetKind.CHARACTER, side=Side.MINE)
    assert new_target_label(vague) == "New: Grom (my character) + role"
    wood = NewTarget(name="Old Wood", kind=TargetKind.TERRAIN, side=Side.NEUTRAL)
    assert new_target_label(wood) == "New: Old Wood (terrain)"
