"""Typed system names, sign-ups and tables: what is accepted, tidied, or refused with which code."""

from __future__ import annotations

import pytest
from night_helpers import refused, signup, table

from rules.night import (
    PairingContext,
    Signup,
    Table,
    check_signup,
    check_table,
    pair_key,
    rating_key,
    system_slug,
)
from rules.night.models import MAX_NOTE, MAX_POINTS


@pytest.mark.parametrize(
    ("typed", "slug"),
    [
        ("Kill Team", "killteam"),
        ("killteam", "killteam"),
        ("KT", "killteam"),
        ("Warhammer 40,000", "fortyk"),
        ("40K", "fortyk"),
        ("  Warcry ", "warcry"),
        ("Warmaster", "warmaster"),
        ("Blood Bowl!", "blood-bowl"),
        ("Necromunda: Underhive", "necromunda-underhive"),
    ],
)
def test_typed_systems_become_slugs_and_muster_games_their_own_names(typed: str, slug: str) -> None:
    assert system_slug(typed) == slug


@pytest.mark.parametrize("typed", ["", "   ", "!!!", "x" * 41])
def test_a_system_without_letters_or_too_long_is_refused(typed: str) -> None:
    error = refused("night.system_name", system_slug, typed)
    assert error.params["limit"] == 40


OFFERED = ["killteam", "warcry"]


def test_a_signup_is_tidied() -> None:
    checked = check_signup(signup(1, "Kill Team", "warcry", note="  bringing terrain  "), OFFERED)
    assert checked.systems == ["killteam", "warcry"]
    assert checked.note == "bringing terrain"


@pytest.mark.parametrize(
    ("fields", "code", "params"),
    [
        ({"systems": []}, "night.signup_systems", {"limit": 4}),
        (
            {"systems": ["killteam", "warcry", "fortyk", "warmaster", "x"]},
            "night.signup_systems",
            {"limit": 4},
        ),
        ({"systems": ["killteam", "KT"]}, "night.system_twice", {"system": "killteam"}),
        (
            {"systems": ["Blood Bowl"]},
            "night.system_not_offered",
            {"system": "blood-bowl", "offered": "killteam, warcry"},
        ),
        ({"points": 0}, "night.points", {"minimum": 1, "maximum": MAX_POINTS}),
        ({"points": MAX_POINTS + 1}, "night.points", {"minimum": 1, "maximum": MAX_POINTS}),
        ({"note": "n" * (MAX_NOTE + 1)}, "night.note_long", {"limit": MAX_NOTE}),
        ({"arranged_with": 1}, "night.arranged_self", {}),
        ({"systems": ["???"]}, "night.system_name", {"name": "???", "limit": 40}),
    ],
)
def test_a_bad_signup_is_refused_with_its_code(
    fields: dict[str, object], code: str, params: dict[str, object]
) -> None:
    values: dict[str, object] = {"player": 1, "systems": ["killteam"], **fields}
    error = refused(code, check_signup, Signup.model_validate(values), OFFERED)
    assert error.params == params


def test_a_table_is_tidied() -> None:
    checked = check_table(
        Table(table_id="kz-1", name=" Killzone ", systems=["Kill Team", "kt"], terrain=" ruins ")
    )
    assert (checked.name, checked.systems, checked.terrain) == ("Killzone", ["killteam"], "ruins")
    assert checked.suits("killteam") and not checked.suits("warcry")


@pytest.mark.parametrize(
    ("changes", "code"),
    [
        ({"table_id": "Big Table"}, "night.table_id"),
        ({"table_id": ""}, "night.table_id"),
        ({"table_id": "-a"}, "night.table_id"),
        ({"name": "  "}, "night.table_name"),
        ({"name": "n" * 61}, "night.table_name"),
        ({"systems": []}, "night.table_systems"),
        ({"terrain": "t" * 101}, "night.terrain_long"),
    ],
)
def test_a_bad_table_is_refused_with_its_code(changes: dict[str, object], code: str) -> None:
    refused(code, check_table, table("kz-1", "killteam").model_copy(update=changes))


def test_context_keys_are_order_free_and_the_night_keeps_only_its_players() -> None:
    assert pair_key(9, 2) == pair_key(2, 9) == "2:9"
    context = PairingContext(
        games_between={pair_key(1, 2): 2, pair_key(1, 3): 1},
        days_since={pair_key(1, 2): 5, pair_key(2, 3): 9},
        ratings={rating_key(1, "warcry"): 1010.0, rating_key(3, "warcry"): 990.0},
        byes={1: 1, 3: 2},
    )
    assert context.games(2, 1) == 2 and context.games(2, 3) == 0
    assert context.days(1, 2) == 5 and context.days(1, 3) is None
    assert context.rating(1, "warcry") == 1010.0 and context.rating(1, "killteam") is None
    assert context.about({1, 2}) == PairingContext(
        games_between={"1:2": 2}, days_since={"1:2": 5}, ratings={"1:warcry": 1010.0}, byes={1: 1}
    )
