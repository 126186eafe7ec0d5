"""Missions are data: the built-in pack matches the published mission, and a bad pack is refused with
every problem named by line and field."""

from __future__ import annotations

import pytest

from rules.fortyk import PackError, builtin_mission, builtin_pack, parse_pack
from rules.fortyk.mission import MAX_PACK_BYTES, ConditionKind

GOOD = """
missions:
  - key: test-mission
    name: Test
    deployment:
      map: Hammer and Anvil
      zones:
        - {name: West, opposite: East}
        - {name: East, opposite: West}
    battle_length:
      max_rounds: 5
    conditions:
      - {key: kp, tier: Primary, name: Kill points, kind: most_kill_points, points: 3}
"""


def test_marked_for_death_matches_the_mission_text() -> None:
    mission = builtin_mission("marked-for-death")
    assert mission.title == "Marked for Death v2.0.0"
    assert mission.deployment.map == "Search and Destroy"
    assert mission.first_turn.setup_first_bonus == 1
    assert mission.first_turn.seize_on == 6
    rolls = [(r.after_round, r.roller, r.needs) for r in mission.battle_length.continue_rolls]
    assert rolls == [(5, "first", 3), (6, "second", 4)]
    assert mission.battle_length.max_rounds == 7
    assert mission.marks is not None and mission.marks.bonus_kill_points == 1
    assert mission.relics is not None
    assert mission.table_quarters == 4
    conditions = [(c.tier, c.name, c.kind, c.points, c.split_ties) for c in mission.conditions]
    assert conditions == [
        ("Primary", "Marked for Death", ConditionKind.MOST_KILL_POINTS, 15, True),
        ("Secondary", "Defiance", ConditionKind.HOLDS_ENEMY_RELIC, 10, True),
        ("Tertiary", "Table Quarters", ConditionKind.MORE_QUARTERS, 5, True),
        ("Quaternary", "Marked and alive", ConditionKind.PER_MARKED_SURVIVOR, 1, False),
    ]
    assert {z.opposite for z in mission.deployment.zones} == {z.name for z in mission.deployment.zones}


def test_the_builtin_pack_is_cached_and_unknown_missions_are_a_key_error() -> None:
    assert builtin_pack() is builtin_pack()
    with pytest.raises(KeyError):
        builtin_mission("no-such-mission")


def test_a_small_pack_loads_with_defaults() -> None:
    pack = parse_pack(GOOD)
    mission = pack.get("test-mission")
    assert mission is not None
    assert mission.marks is None and mission.relics is None and mission.first_turn.seize_on is None
    assert pack.get("nope") is None


def test_every_problem_is_listed_with_its_line() -> None:
    bad = (
        GOOD.replace("points: 3", "points: -1")
        .replace("max_rounds: 5", "max_rounds: lots")
        .replace("opposite: West", "opposite: North")
    )
    with pytest.raises(PackError) as caught:
        parse_pack(bad)
    problems = caught.value.errors
    assert len(problems) == 3, problems
    text = "\n".join(problems)
    assert "line 7: missions[0].deployment.zones" in text and "'North'" in text
    assert "line 11: missions[0].battle_length.max_rounds" in text
    assert "line 13: missions[0].conditions[0].points" in text


def test_missing_fields_and_unknown_fields_are_named() -> None:
    with pytest.raises(PackError) as caught:
        parse_pack("missions:\n  - key: x\n    name: X\n    colour: red\n")
    text = "\n".join(caught.value.errors)
    for field in (
        "missions[0].deployment",
        "missions[0].battle_length",
        "missions[0].conditions",
        "line 4: missions[0].colour",
    ):
        assert field in text


def test_conditions_need_the_rules_they_score() -> None:
    bad = GOOD.replace("kind: most_kill_points", "kind: per_marked_survivor")
    with pytest.raises(PackError, match="needs the mission to have marks"):
        parse_pack(bad)


def test_duplicate_mission_keys() -> None:
    doubled = GOOD + GOOD.split("missions:\n", 1)[1]
    with pytest.raises(PackError, match="repeated: test-mission"):
        parse_pack(doubled)


def test_battle_length_rolls_must_be_in_order_and_before_the_last_round() -> None:
    bad = GOOD.replace(
        "max_rounds: 5", "max_rounds: 5\n      continue_rolls: [{after_round: 5, roller: first, needs: 3}]"
    )
    with pytest.raises(PackError, match="before max_rounds"):
        parse_pack(bad)


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("missions: [\n", "line 2: this is not valid YAML"),
        ("- just a list\n", "line 1: the pack must be a YAML mapping with the key `missions`"),
        ("", "must be a YAML mapping"),
        ("x" * (MAX_PACK_BYTES + 1), "a pack may be at most 65,536 bytes"),
    ],
)
def test_unreadable_packs(text: str, match: str) -> None:
    with pytest.raises(PackError, match=match):
        parse_pack(text)
