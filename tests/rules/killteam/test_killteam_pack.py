"""The Kill Team card pack: the shipped facts, and a server's pack checked line by line."""

from __future__ import annotations

import pytest

from rules.killteam import PackError, load_default_pack, parse_pack, supported_methods
from rules.killteam.pack import MAX_PACK_BYTES
from tests.rules.killteam.killteam_helpers import FULL_PACK, full_pack_text


def errors_of(text: str) -> list[str]:
    with pytest.raises(PackError) as raised:
        parse_pack(text)
    assert raised.value.errors, "a PackError must list its problems"
    listed = raised.value.errors[:25]
    assert str(raised.value).startswith("This pack has problems:\n" + "\n".join(f"- {e}" for e in listed))
    return raised.value.errors


def test_shipped_pack_holds_the_public_names() -> None:
    pack = load_default_pack()
    assert [m.name for m in pack.missions] == ["Loot", "Secure", "Capture"]
    assert [m.id for m in pack.maps] == [f"{s}{n}" for s in "AB" for n in range(1, 10)]
    assert pack.map("A4") is not None and pack.map("A4").label == "Strait (A4)"  # type: ignore[union-attr]
    assert pack.map("junction").id == "B7"  # type: ignore[union-attr]
    assert [a.name for a in pack.archetypes] == ["Infiltration", "Recon", "Security", "Seek & Destroy"]
    assert [op.name for op in pack.archetype_ops("Security")] == [
        "Seize Ground",
        "Secure Vantage",
        "Secure Centre Line",
    ]
    assert [s.name for s in pack.scouting] == ["Fortify", "Infiltrate", "Recon"]
    assert pack.initiative.default == "roll-off" and pack.initiative.table == []


def test_map_types_follow_the_number_in_the_id() -> None:
    pack = load_default_pack()
    groups = {card.id: card.group for card in pack.maps}
    assert groups["A1"] == groups["B3"] == "1-3"
    assert groups["A4"] == groups["B6"] == "4-6"
    assert groups["A7"] == groups["B9"] == "7-9"


def test_shipped_pack_supports_only_what_its_cards_allow() -> None:
    assert supported_methods(load_default_pack()) == ["free"]
    assert supported_methods(FULL_PACK) == ["random", "constructed", "free", "acquired", "bid"]


def test_a_server_pack_parses_and_keeps_the_default_scouting_when_left_out() -> None:
    pack = parse_pack(full_pack_text())
    assert len(pack.all_tac_ops()) == 4 * 6 + 2 * 3
    assert pack.tac_op("recon-op-1") is not None and pack.tac_op("recon-op-1").archetype == "Recon"  # type: ignore[union-attr]
    assert pack.tac_op("alpha-op-2").faction == "Alpha"  # type: ignore[union-attr]
    assert [s.id for s in pack.scouting] == ["fortify", "infiltrate", "recon"]


def test_every_problem_is_listed_with_its_line() -> None:
    text = """name: Broken
missions:
  - name: Loot
  - name: loot
maps:
  - id: Q
  - {id: A1, group: 2-4}
  - id: A2
    colour: red
archetypes:
  - name: Recon
    tac_ops: [{name: 12}]
"""
    errors = errors_of(text)
    assert (
        "line 6: maps[0]: its id does not end in a number 1-9, so give its type: `group: 1-3`, `4-6` or `7-9`"
    ) in errors
    assert any(e.startswith("line 7: maps[1].group:") for e in errors)
    assert any(e.startswith("line 9: maps[2].colour:") for e in errors)
    assert any(e.startswith("line 12: archetypes[0].tac_ops[0].name:") for e in errors)
    assert len(errors) == 4


def test_cross_references_are_checked_after_the_shapes() -> None:
    text = """name: Dupes
missions:
  - name: Loot
  - name: loot
maps:
  - id: A1
  - id: A1
archetypes:
  - name: Recon
    tac_ops:
      - name: Scout
      - name: scout
factions:
  - name: Alpha
    archetypes: [Recon, Nowhere]
initiative:
  table:
    - {attacker: fortify, defender: bogus, initiative: attacker}
    - {attacker: fortify, defender: bogus, initiative: defender}
"""
    errors = errors_of(text)
    assert "line 4: missions[1].id: mission id `loot` appears more than once" in errors
    assert "line 4: missions[1].name: mission name `loot` appears more than once" in errors
    assert "line 7: maps[1].id: map id `A1` appears more than once" in errors
    assert any(e.startswith("line 12: archetypes[0].tac_ops[1].name: Tac Op id `scout`") for e in errors)
    assert "line 15: factions[0].archetypes[1]: `Nowhere` is not one of the pack's archetypes" in errors
    assert any(
        e.startswith("line 18: initiative.table[0].defender: `bogus` is not a scouting id") for e in errors
    )
    assert "line 19: initiative.table[1]: this pair of picks is listed twice" in errors


def test_syntax_errors_name_their_line() -> None:
    errors = errors_of("name: x\nmissions: [Loot\nmaps: []\n")
    assert errors[0].startswith("line 3: this is not valid YAML")


def test_anchors_and_aliases_are_refused() -> None:
    errors = errors_of("name: x\nmissions: &m [{name: Loot}]\nmaps: *m\n")
    assert errors == [
        "line 2: anchors and aliases (& and *) are not allowed in a pack; write each entry out",
        "line 3: anchors and aliases (& and *) are not allowed in a pack; write each entry out",
    ]


def test_size_limit() -> None:
    text = full_pack_text() + "#" * MAX_PACK_BYTES
    errors = errors_of(text)
    assert len(errors) == 1 and "a pack may be at most 65,536 bytes (64 KiB)" in errors[0]


@pytest.mark.parametrize("text", ["", "- a\n- b\n", "just words"])
def test_a_pack_must_be_a_mapping(text: str) -> None:
    assert "must be a YAML mapping" in errors_of(text)[0]


def test_missing_sections_are_reported() -> None:
    errors = errors_of("name: Empty\n")
    assert "line 1: missions: Field required" in errors
    assert "line 1: maps: Field required" in errors


def test_limits_keep_every_question_answerable_in_one_menu() -> None:
    maps = "\n".join(f"  - id: M{n}\n    group: 1-3" for n in range(26))
    errors = errors_of(f"name: Big\nmissions: [{{name: Loot}}]\nmaps:\n{maps}\n")
    assert any(e.startswith("line 3: maps: List should have at most 25 items") for e in errors)
