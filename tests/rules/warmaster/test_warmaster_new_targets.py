"""A new target carried in one autocomplete value: encoding and reading it back, the choices a card
offers, and laying a card on a choice in one step."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from warmaster_helpers import ALICE, BOB, ORCS, card, character, give, new_game, play, refused, shapes

from rules.errors import RuleError
from rules.warmaster import Restriction, TargetRef
from rules.warmaster.new_targets import (
    MAX_NEW_CHOICES,
    NewTarget,
    decode_new_target,
    encode_new_target,
    new_target_offers,
    typed_target,
)
from rules.warmaster.targets import MAX_TARGET_NAME, CharacterRole, Side, TargetKind, UnitType

MALFORMED = "warmaster.new_choice_malformed"


# ------------------------------------------------------------------ the value


@given(new=shapes())
def test_encoding_then_decoding_gives_back_the_same_target_for_any_name(new: NewTarget) -> None:
    decoded = decode_new_target(encode_new_target(new))
    assert decoded == new
    assert decoded is not None
    assert (decoded.name, decoded.kind, decoded.side) == (new.name, new.kind, new.side)


@pytest.mark.parametrize(
    "value",
    ["Knights", "New: Grom (my unit)", "new unit", "news|paper", "table", "army:1001", "force:1001:knights"],
)
def test_typed_names_and_known_keys_are_not_choices(value: str) -> None:
    assert decode_new_target(value) is None


@given(rest=st.text())
def test_anything_after_the_prefix_reads_back_or_is_refused_never_crashes(rest: str) -> None:
    try:
        decoded = decode_new_target("new|" + rest)
    except RuleError as error:
        assert error.code == MALFORMED
    else:
        assert decoded is not None and encode_new_target(decoded) == "new|" + rest


# ------------------------------------------------------------------ options win over the choice


def test_a_typed_name_keeps_its_options() -> None:
    assert typed_target("Orcs", kind=TargetKind.UNIT, side=Side.ENEMY) == TargetRef(
        name="Orcs", kind=TargetKind.UNIT, side=Side.ENEMY
    )


def test_a_choice_alone_carries_everything() -> None:
    assert typed_target(encode_new_target(ORCS)) == TargetRef(
        name="Orcs", kind=TargetKind.UNIT, side=Side.MINE, unit_type=UnitType.INFANTRY
    )


def test_options_win_over_the_choice() -> None:
    value = encode_new_target(ORCS)
    assert typed_target(value, side=Side.ENEMY, unit_type=UnitType.CAVALRY, shooting=True) == TargetRef(
        name="Orcs",
        kind=TargetKind.UNIT,
        side=Side.ENEMY,
        unit_type=UnitType.CAVALRY,
        shooting=True,
    )
    # Another kind drops the choice's unit type but keeps whose it is while it stays a unit or character.
    assert typed_target(value, kind=TargetKind.CHARACTER, role=CharacterRole.HERO) == TargetRef(
        name="Orcs", kind=TargetKind.CHARACTER, side=Side.MINE, role=CharacterRole.HERO
    )
    assert typed_target(value, kind=TargetKind.TERRAIN) == TargetRef(name="Orcs", kind=TargetKind.TERRAIN)
    shooter = ORCS.model_copy(update={"shooting": True})
    assert typed_target(encode_new_target(shooter), shooting=False).shooting is False


# ------------------------------------------------------------------ what a card offers


def offers(carrier: str, typed: str = "Grom", state_player: int = ALICE) -> list[NewTarget]:
    state, _ = new_game()
    return new_target_offers(state, state_player, Restriction(carrier), typed)


def shape(new: NewTarget) -> tuple[str, str, str | None, bool]:
    return (new.kind.value, new.side.value, (new.unit_type or new.role or None), new.shooting)


def test_a_general_card_offers_each_side_s_general_only() -> None:
    assert [shape(o) for o in offers("general")] == [
        ("character", "mine", "general", False),
        ("character", "enemy", "general", False),
    ]
    assert all(o.name == "Grom" for o in offers("general"))


def test_a_unit_card_offers_every_unit_type_on_both_sides() -> None:
    found = offers("unit")
    assert [shape(o) for o in found] == [
        ("unit", side, unit_type.value, False) for side in ("mine", "enemy") for unit_type in UnitType
    ]
    assert len(found) == MAX_NEW_CHOICES


def test_a_narrow_unit_card_offers_only_the_types_it_allows() -> None:
    assert [shape(o) for o in offers("infantry_or_artillery")] == [
        ("unit", "mine", "infantry", False),
        ("unit", "mine", "artillery", False),
        ("unit", "enemy", "infantry", False),
        ("unit", "enemy", "artillery", False),
    ]
    assert [shape(o) for o in offers("wizard_or_runesmith")] == [
        ("character", side, role, False) for side in ("mine", "enemy") for role in ("wizard", "runesmith")
    ]


def test_too_many_details_are_offered_once_per_kind_and_side() -> None:
    assert [shape(o) for o in offers("any")] == [
        ("unit", "mine", None, False),
        ("unit", "enemy", None, False),
        ("character", "mine", None, False),
        ("character", "enemy", None, False),
        ("terrain", "neutral", None, False),
    ]
    assert [shape(o) for o in offers("shooter")] == [
        ("unit", "mine", None, True),
        ("unit", "enemy", None, True),
        ("character", "mine", None, True),
        ("character", "enemy", None, True),
    ]


def test_cards_for_fixed_targets_offer_no_new_one_and_terrain_offers_terrain() -> None:
    assert offers("player") == offers("army") == offers("table") == []
    assert [shape(o) for o in offers("terrain")] == [("terrain", "neutral", None, False)]


@pytest.mark.parametrize("typed", ["", "   ", "<@123>", "a|b", "x" * (MAX_TARGET_NAME + 1)])
def test_a_name_the_rules_refuse_offers_nothing(typed: str) -> None:
    assert offers("any", typed) == []


def test_the_offered_name_is_the_cleaned_one() -> None:
    assert {o.name for o in offers("unit", "  Grom   the  Fat ")} == {"Grom the Fat"}


def test_a_known_target_or_a_named_general_is_not_offered_again() -> None:
    state, _ = new_game()
    state = give(state, ALICE, card("Crown", "general"), card("Banner", "character_or_unit"))
    state, _ = play(state, ALICE, "H1001-1", character("Grom", "mine", "general"))
    # Alice's General is named, so a new one of hers is not offered, by any name.
    assert [shape(o) for o in new_target_offers(state, ALICE, Restriction.GENERAL, "Thorgrim")] == [
        ("character", "enemy", "general", False)
    ]
    # Grom is Alice's: for her only the enemy can have a new Grom; for Bob, only his own side.
    assert {o.side for o in new_target_offers(state, ALICE, Restriction.CHARACTER_OR_UNIT, "grom")} == {
        Side.ENEMY
    }
    assert {o.side for o in new_target_offers(state, BOB, Restriction.CHARACTER_OR_UNIT, "Grom")} == {
        Side.MINE
    }


# ------------------------------------------------------------------ laying on a choice


@pytest.mark.parametrize("carrier", list(Restriction))
def test_every_complete_choice_lays_the_card_in_one_step_and_a_partial_one_asks_for_its_detail(
    carrier: Restriction,
) -> None:
    start, _ = new_game()
    start = give(start, ALICE, card("Test Item", carrier.value))
    for new in new_target_offers(start, ALICE, carrier, "Grom"):
        value = encode_new_target(new)
        if not new.complete:
            code = "warmaster.unit_type_missing" if new.kind is TargetKind.UNIT else "warmaster.role_missing"
            with refused(code, name="Grom"):
                play(start, ALICE, "H1001-1", typed_target(value))
            continue
        state, _ = play(start, ALICE, "H1001-1", typed_target(value))
        [target] = state.targets
        assert (target.name, target.kind) == ("Grom", new.kind)
        assert target.owner == {Side.MINE: ALICE, Side.ENEMY: BOB, Side.NEUTRAL: None}[new.side]
        assert (target.unit_type, target.role) == (new.unit_type, new.role)
        assert target.shoots or not new.shooting
        assert [c.target_key for c in state.laid] == [target.key]
