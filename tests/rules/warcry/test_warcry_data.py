"""The packaged Warcry data: the two preset tables are complete, in die order, with the seed's facts."""

from __future__ import annotations

from rules.warcry.pack import core_pack, empty_decks

MATCHED = ["Treasure Hunters", "The Cursed Relic", "No Quarter", "Reaper", "Ley Lines", "The Hidden Vault"]
CHAMPIONS = ["Cursed Prize", "Altar of Ascendancy", "Brutal Conquest"]


def test_matched_table_is_the_six_in_d6_order() -> None:
    table = core_pack().table("matched")
    assert [b.name for b in table] == MATCHED
    assert [b.roll for b in table] == [1, 2, 3, 4, 5, 6]


def test_champions_table_is_the_three_in_d3_order() -> None:
    table = core_pack().table("champions")
    assert [b.name for b in table] == CHAMPIONS
    assert [b.roll for b in table] == [1, 2, 3]


def test_fixed_objective_and_treasure_counts() -> None:
    pack = core_pack()
    counts = {b.name: (b.objectives, b.treasure) for b in pack.battleplans}
    assert counts["Treasure Hunters"] == (0, 5)
    assert counts["The Cursed Relic"] == (0, 1)
    assert counts["No Quarter"] == (0, 0)
    assert counts["Reaper"] == (0, 0)
    assert counts["Ley Lines"] == (5, 0)
    assert counts["The Hidden Vault"] == (3, 0)
    assert counts["Cursed Prize"] == (0, 1)


def test_every_preset_battleplan_lasts_four_rounds_and_has_its_own_tracker() -> None:
    pack = core_pack()
    assert all(b.rounds == 4 for b in pack.battleplans)
    assert len({b.scoring for b in pack.battleplans}) == 9
    assert "manual" not in {b.scoring for b in pack.battleplans}


def test_only_the_champions_battleplans_make_any_other_result_a_draw() -> None:
    draws = {b.name for b in core_pack().battleplans if b.otherwise_draw}
    assert draws == set(CHAMPIONS)


def test_champions_abilities_are_summarised() -> None:
    pack = core_pack()
    abilities = {b.name: [a.name for a in b.abilities] for b in pack.table("champions")}
    assert "Lifeleech Curse" in abilities["Cursed Prize"]
    assert abilities["Altar of Ascendancy"] == ["Unseat"]
    assert abilities["Brutal Conquest"] == ["Forge a Legend"]
    assert all(a.summary for b in pack.table("champions") for a in b.abilities)


def test_altar_uses_its_own_terrain_rule_and_ley_lines_starts_from_the_centre() -> None:
    pack = core_pack()
    altar = pack.battleplan("Altar of Ascendancy")
    assert altar is not None and not altar.deal_terrain and "altar" in altar.terrain
    ley = pack.battleplan("ley lines")
    assert ley is not None and ley.labels()[0] == "Centre"


def test_generator_decks_ship_empty_and_say_so() -> None:
    pack = core_pack()
    assert pack.decks.counts() == {"terrain": 0, "deployment": 0, "victory": 0, "twist": 0}
    assert empty_decks(pack) == ["terrain", "deployment", "victory", "twist"]
