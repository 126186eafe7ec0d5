"""Warband muster and battle-group checks against hand-worked cases, edges included."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.errors import Refusals, RuleError
from rules.warcry.battlegroups import Split, shield_minimum, split_problems, split_refusal, valid_splits
from rules.warcry.warband import Fighter, RosterError, check_roster, check_warband, parse_roster
from rules.words import Words


def problems(fighters: int, split: Split) -> list[tuple[str, dict[str, str | int | None]]]:
    """Each problem's code and values, a value the rules word (a battle group) by its English."""
    return [
        (p.code, {k: str(v) if isinstance(v, Words) else v for k, v in p.params.items()})
        for p in split_problems(fighters, split)
    ]


def roster(count: int, points: int = 60, leaders: int = 1, faction: str = "Iron Golem") -> str:
    lines = [f"Fighter {i}, {points}, {faction}" + (", leader" if i < leaders else "") for i in range(count)]
    return "\n".join(lines)


def test_forgiving_line_formats() -> None:
    text = """# my warband
Dominar; 135pts; Iron Golem; Leader
- Breacher | 190 points | iron  golem
2x Legionary\t100\tIron Golem\tno

1. Signifier, 95 p, IRON GOLEM,
"""
    fighters = parse_roster(text)
    assert [f.name for f in fighters] == ["Dominar", "Breacher", "Legionary", "Legionary", "Signifier"]
    assert [f.points for f in fighters] == [135, 190, 100, 100, 95]
    assert [f.leader for f in fighters] == [True, False, False, False, False]
    assert fighters[1].line == 3 and fighters[4].line == 6
    report = check_warband(fighters)
    assert report.ok and report.total_points == 620 and report.factions == ["Iron Golem"]


def test_every_unreadable_line_is_named_by_number() -> None:
    text = (
        "Dominar, 135, Iron Golem, leader\nBreacher 190 Iron Golem\nLegionary, lots, Iron Golem\n"
        "Ok, 5, X\nSignifier, 95, Iron Golem, captain\n"
    )
    with pytest.raises(RosterError) as caught:
        parse_roster(text)
    problems = caught.value.problems
    assert [p.split(" ")[1] for p in problems] == ["2", "3", "5"]
    assert "not a points value" in problems[1] and "`leader` or left out" in problems[2]
    assert caught.value.code == "warcry.roster_unreadable"
    assert str(caught.value.params["lines"]).startswith("- line 2 (`Breacher 190 Iron Golem`)")


def test_empty_and_oversized_rosters_are_refused() -> None:
    with pytest.raises(RuleError) as empty:
        parse_roster("# nothing\n\n")
    assert empty.value.code == "warcry.roster_empty"
    with pytest.raises(RuleError) as long:
        parse_roster("x" * 9000)
    assert long.value.code == "warcry.roster_long" and long.value.params == {"limit": 8000, "fighters": 15}
    with pytest.raises(RuleError) as lines:
        parse_roster("\n" * 101)
    assert lines.value.code == "warcry.roster_lines" and lines.value.params["limit"] == 100


def test_an_unreadable_roster_lists_ten_lines_and_counts_the_rest() -> None:
    with pytest.raises(RosterError) as caught:
        parse_roster("\n".join(f"no commas on line {n}" for n in range(1, 13)))
    assert caught.value.code == "warcry.roster_unreadable_more" and caught.value.params["more"] == 2
    assert str(caught.value.params["lines"]).count("\n- line") == 9


@pytest.mark.parametrize(("count", "ok"), [(2, False), (3, True), (15, True), (16, False)])
def test_fighter_count_edges(count: int, ok: bool) -> None:
    report = check_roster(roster(count, points=10))
    assert report.ok is ok
    if not ok:
        assert str(count) in report.violations[0]


def test_exactly_one_thousand_points_is_allowed_and_one_more_is_not() -> None:
    exact = check_roster("A, 400, Cult, leader\nB, 300, Cult\nC, 300, Cult")
    assert exact.ok and exact.total_points == 1000
    over = check_roster("A, 400, Cult, leader\nB, 300, Cult\nC, 301, Cult")
    assert over.violations == ["A warband can cost at most 1000 points; this one costs 1001 (1 over)."]


def test_two_leaders_and_no_leader() -> None:
    two = check_roster(roster(5, leaders=2))
    assert two.violations == ["A warband can have only one leader; 2 are marked: Fighter 0, Fighter 1."]
    none = check_roster(roster(5, leaders=0))
    assert len(none.violations) == 1 and "none is marked" in none.violations[0]


def test_all_violations_are_listed_together() -> None:
    text = "A, 600, Cult, leader\nB, 500, Other, leader\n"
    report = check_roster(text)
    assert len(report.violations) == 4
    assert "at least 3" in report.violations[0]
    assert "1100" in report.violations[1]
    assert "Cult, Other" in report.violations[2]
    assert "only one leader" in report.violations[3]


def test_faction_runemarks_compare_without_case_or_spacing() -> None:
    report = check_roster("A, 100, Untamed  Beasts, leader\nB, 100, untamed beasts\nC, 100, UNTAMED BEASTS")
    assert report.ok


# ---------------------------------------------------------------- battle groups


@pytest.mark.parametrize(("fighters", "minimum"), [(3, 1), (4, 2), (6, 2), (7, 3), (10, 4), (15, 5)])
def test_shield_minimum_is_a_third_rounded_up(fighters: int, minimum: int) -> None:
    assert shield_minimum(fighters) == minimum


def test_hand_worked_splits() -> None:
    assert valid_splits(3) == [Split(dagger=1, shield=1, hammer=1)]
    assert valid_splits(4) == [Split(dagger=1, shield=2, hammer=1)]
    assert problems(10, Split(dagger=3, shield=4, hammer=3)) == []
    assert problems(10, Split(dagger=3, shield=3, hammer=4)) == [
        ("warcry.shield_small", {"minimum": 4, "fighters": 10})
    ]
    assert problems(15, Split(dagger=5, shield=5, hammer=5)) == []
    assert problems(15, Split(dagger=8, shield=5, hammer=2)) == [
        ("warcry.group_large", {"group": "Dagger", "size": 8, "fighters": 15, "half": 7})
    ]
    assert problems(15, Split(dagger=7, shield=4, hammer=4)) == [
        ("warcry.shield_small", {"minimum": 5, "fighters": 15})
    ]
    assert problems(6, Split(dagger=0, shield=3, hammer=3)) == [("warcry.group_empty", {"group": "Dagger"})]


def test_impossible_warband_sizes_have_no_split() -> None:
    assert valid_splits(2) == [] and valid_splits(16) == []
    assert problems(16, Split(dagger=5, shield=6, hammer=5)) == [
        ("warcry.split_size", {"minimum": 3, "maximum": 15, "fighters": 16})
    ]


def test_split_must_add_up_to_the_warband() -> None:
    assert problems(9, Split(dagger=2, shield=3, hammer=3)) == [
        ("warcry.split_total", {"groups": 8, "fighters": 9})
    ]


@settings(max_examples=150, deadline=None)
@given(fighters=st.integers(min_value=3, max_value=15), dagger=st.integers(0, 15), shield=st.integers(0, 15))
def test_valid_splits_are_exactly_those_with_no_violation(fighters: int, dagger: int, shield: int) -> None:
    hammer = fighters - dagger - shield
    split = Split(dagger=dagger, shield=shield, hammer=hammer)
    by_rule = all(1 <= g <= fighters / 2 for g in (dagger, shield, hammer)) and shield >= math.ceil(
        fighters / 3
    )
    assert (split_problems(fighters, split) == []) is by_rule
    assert (split in valid_splits(fighters)) is by_rule


@settings(max_examples=80, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(1, 400), st.sampled_from(["A", "B"]), st.booleans()), min_size=1, max_size=20
    )
)
def test_warband_report_agrees_with_the_four_rules(rows: list[tuple[int, str, bool]]) -> None:
    fighters = [
        Fighter(name=f"F{i}", points=p, faction=f, leader=lead) for i, (p, f, lead) in enumerate(rows)
    ]
    report = check_warband(fighters)
    expected = sum(
        [
            not 3 <= len(rows) <= 15,
            sum(p for p, _, _ in rows) > 1000,
            len({f for _, f, _ in rows}) > 1,
            sum(lead for _, _, lead in rows) != 1,
        ]
    )
    assert len(report.violations) == expected
    text = "\n".join(f"F{i}, {p}, {f}" + (", leader" if lead else "") for i, (p, f, lead) in enumerate(rows))
    assert check_roster(text).violations == report.violations


@settings(max_examples=150, deadline=None)
@given(fighters=st.integers(min_value=3, max_value=15), dagger=st.integers(0, 15), shield=st.integers(0, 15))
def test_a_split_is_refused_with_every_rule_it_breaks(fighters: int, dagger: int, shield: int) -> None:
    """The battle's refusal of a split names each broken rule, as `split_problems` lists them."""
    split = Split(dagger=dagger, shield=shield, hammer=fighters - dagger - shield)
    found = split_problems(fighters, split)
    if not found:
        return
    refused = split_refusal(found)
    reasons = refused.reasons if isinstance(refused, Refusals) else [refused]
    assert [(r.code, r.params) for r in reasons] == [(p.code, p.params) for p in found]
    assert isinstance(refused, Refusals) is (len(found) > 1)
