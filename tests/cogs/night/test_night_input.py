"""What organisers and players type for a game night, read (or refused with a code) before anything
is stored: dates, times in a time zone (the clocks' gaps too), systems, and a submitted form."""

from __future__ import annotations

from datetime import UTC, datetime, time

import pytest

from cogs.night.input import (
    form_values,
    parse_date,
    parse_time,
    signup_of,
    starts_at,
    systems_typed,
    time_zone_name,
)
from rules.errors import RuleError


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("19:00", time(19)),
        ("7pm", time(19)),
        ("7:30 pm", time(19, 30)),
        ("12am", time(0)),
        ("9.15", time(9, 15)),
    ],
)
def test_times_of_day(typed: str, expected: time) -> None:
    assert parse_time(typed) == expected


@pytest.mark.parametrize("typed", ["25:00", "13pm", "soon", "19:60", ""])
def test_times_that_are_not(typed: str) -> None:
    with pytest.raises(RuleError) as refused:
        parse_time(typed)
    assert refused.value.code == "night.bad_time"


def test_dates() -> None:
    assert parse_date("2030-07-01") == parse_date("01/07/2030") == parse_date("1.7.2030")
    with pytest.raises(RuleError) as refused:
        parse_date("next thursday")
    assert refused.value.code == "night.bad_date"


def test_a_wall_clock_time_in_a_zone() -> None:
    assert starts_at("2030-01-10", "19:00", "Europe/London") == int(
        datetime(2030, 1, 10, 19, tzinfo=UTC).timestamp()
    )
    assert starts_at("2030-07-10", "19:00", "Europe/London") == int(
        datetime(2030, 7, 10, 18, tzinfo=UTC).timestamp()
    )
    assert starts_at("2030-07-10", "19:00", None) == int(datetime(2030, 7, 10, 19, tzinfo=UTC).timestamp())
    with pytest.raises(RuleError) as gap:  # the clocks go from 01:00 to 02:00 that night
        starts_at("2030-03-31", "01:30", "Europe/London")
    assert gap.value.code == "night.no_such_time"


def test_time_zone_names() -> None:
    assert time_zone_name("america/new york") == "America/New_York"
    with pytest.raises(RuleError) as refused:
        time_zone_name("Mars/Olympus_Mons")
    assert refused.value.code == "night.time_zone" and refused.value.params["name"] == "Mars/Olympus_Mons"


def test_systems_and_a_submitted_form() -> None:
    assert systems_typed("Kill Team, warcry / 40K") == ["killteam", "warcry", "fortyk"]
    labelled = [
        {"type": 1, "components": [{"type": 4, "custom_id": "systems", "value": "Warcry, Kill Team"}]},
        {"type": 1, "components": [{"type": 4, "custom_id": "points", "value": "1,000"}]},
        {"type": 18, "component": {"type": 3, "custom_id": "teaching", "values": ["teach"]}},
        {"type": 18, "component": {"type": 5, "custom_id": "arranged", "values": ["42"]}},
        {"type": 1, "components": [{"type": 4, "custom_id": "note", "value": " late by 20 min "}]},
    ]
    signup = signup_of(7, form_values(labelled))
    assert signup.systems == ["warcry", "killteam"] and signup.points == 1000
    assert signup.can_teach and not signup.wants_to_learn and signup.arranged_with == 42
    assert signup.note == "late by 20 min"
    with pytest.raises(RuleError) as refused:
        signup_of(7, {"systems": "Warcry", "points": "lots"})
    assert refused.value.code == "night.points_typed"
