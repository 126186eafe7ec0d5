"""Server packs: merged into the core pack, every problem listed with its line, size and alias limits."""

from __future__ import annotations

import pytest

from rules.errors import RuleError
from rules.warcry.pack import MAX_PACK_BYTES, PackError, core_pack, empty_decks, parse_pack
from tests.rules.warcry.warcry_helpers import CLUB_PACK, club_pack


def test_a_club_pack_adds_its_cards_to_the_core_pack() -> None:
    pack = club_pack()
    assert pack.decks.counts() == {"terrain": 3, "deployment": 2, "victory": 2, "twist": 2}
    assert empty_decks(pack) == []
    assert [b.name for b in pack.table("matched")] == [b.name for b in core_pack().table("matched")]
    flank = next(c for c in pack.decks.deployment if c.name == "Test Flank")
    assert flank.red.hammer == "RND2" and flank.blue.hammer == "RND3" and flank.red.dagger == "start"
    assert pack.decks.victory[1].scoring == "reaper"


def test_replace_mode_swaps_only_the_decks_it_names() -> None:
    base = club_pack()
    pack = parse_pack("name: Swap\nmode: replace\ndecks:\n  twist:\n    - {name: Only Twist}\n", base)
    assert [c.name for c in pack.decks.twist] == ["Only Twist"]
    assert len(pack.decks.terrain) == 3


def test_add_mode_refuses_a_card_already_in_the_deck() -> None:
    with pytest.raises(PackError) as caught:
        parse_pack("name: Again\ndecks:\n  terrain:\n    - {name: test ruins 1}\n", club_pack())
    assert caught.value.errors == [
        "line 4: decks.terrain[0].name: the card `test ruins 1` is already in the terrain deck"
    ]


def test_every_error_is_listed_with_its_line() -> None:
    text = """name: Broken
decks:
  terrain:
    - {name: Fine}
    - {matched_play: yes}
  deployment:
    - name: Bad Points
      red: {hammer: RND4}
  victory:
    - {name: V, scoring: dance}
  twist:
    - {name: T, colour: green}
"""
    with pytest.raises(PackError) as caught:
        parse_pack(text)
    errors = caught.value.errors
    assert len(errors) == 4
    assert errors[0].startswith("line 5:") and "name" in errors[0]
    assert errors[1].startswith("line 8:") and "RND4" not in errors[1] and "hammer" in errors[1]
    assert errors[2].startswith("line 10:") and "scoring" in errors[2]
    assert errors[3].startswith("line 12:") and "unknown field" in errors[3]
    assert isinstance(caught.value, RuleError) and "line 10" in caught.value.message


def test_duplicates_within_a_pack_and_unknown_battleplans_are_reported() -> None:
    text = """name: Dupes
decks:
  twist:
    - {name: Storm}
    - {name: storm}
"""
    with pytest.raises(PackError) as caught:
        parse_pack(text)
    assert caught.value.errors == ["line 5: decks.twist[1].name: card `storm` appears more than once"]
    with pytest.raises(PackError) as caught:
        parse_pack("name: Maps\ndeployments:\n  Nowhere: {red: {dagger: RND2}}\n")
    assert caught.value.errors[0].startswith("line 3: deployments.Nowhere: no battleplan is called `Nowhere`")


def test_a_pack_can_give_the_reserves_of_a_preset_battleplan() -> None:
    pack = parse_pack("name: Maps\ndeployments:\n  Reaper: {red: {hammer: RND2}, blue: {hammer: RND2}}\n")
    reaper = pack.battleplan("Reaper")
    assert reaper is not None and reaper.deployment is not None
    assert reaper.deployment.red.hammer == "RND2"


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("", "empty"),
        ("name: [unclosed\n", "line 2: this is not valid YAML"),
        ("- just\n- a list\n", "must be a YAML mapping"),
        ("name: A\ndecks:\n  terrain: &x [{name: T}]\n  twist: *x\n", "anchors and aliases"),
        (
            "name: A\n" + "# padding\n" * (MAX_PACK_BYTES // 10 + 1),
            "a pack may be at most 65,536 bytes (64 KiB)",
        ),
    ],
)
def test_unusable_files_are_refused_with_a_reason(text: str, fragment: str) -> None:
    with pytest.raises(PackError) as caught:
        parse_pack(text)
    assert any(fragment in e for e in caught.value.errors)


def test_the_sample_pack_is_well_under_the_limit() -> None:
    assert len(CLUB_PACK.encode()) < MAX_PACK_BYTES
