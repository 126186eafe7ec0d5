"""The CSV export reads back to exactly the same records."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime, timedelta, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scores_strategies import T0, result_lists

from rules.scores import COLUMNS, CsvError, ResultRecord, ResultStatus, parse_csv, to_csv, to_csv_bytes

free_text = st.one_of(st.none(), st.text(min_size=1, max_size=40))


@settings(max_examples=80, deadline=None)
@given(result_lists(max_size=12), st.data())
def test_round_trip(results: list[ResultRecord], data: st.DataObject) -> None:
    # Any text a player could type in the free-text fields, including quotes, commas, new lines and
    # leading = + - @ ' that the export guards against spreadsheets.
    edited = []
    for r in results:
        fields = {
            "mission": data.draw(free_text),
            "faction_a": data.draw(free_text),
            "faction_b": data.draw(free_text),
            "played_at": r.played_at + timedelta(microseconds=data.draw(st.integers(0, 999_999))),
        }
        edited.append(ResultRecord.model_validate({**r.model_dump(), **fields}))
    names = {101: "=cmd|' /C calc'!A0", 102: 'Zoë, "the" Wise'}
    text = to_csv(edited, names)
    assert parse_csv(text) == edited
    assert parse_csv(to_csv_bytes(edited, names)) == edited


def test_header_and_column_order_are_stable() -> None:
    r = ResultRecord(
        id=7,
        system="warcry",
        mission="Dominate",
        player_a=1,
        player_b=2,
        score_a=20,
        score_b=15,
        winner=1,
        played_at=datetime(2025, 5, 4, 20, 30, tzinfo=UTC),
        faction_a="Iron Golems",
        faction_b=None,
        season_id=3,
        status=ResultStatus.CONFIRMED,
    )
    text = to_csv([r], {1: "Ann", 2: "Ben"})
    lines = text.split("\r\n")
    assert lines[0] == ",".join(COLUMNS)
    assert lines[1] == (
        "7,2025-05-04T20:30:00+00:00,warcry,Dominate,1,Ann,Iron Golems,20,2,Ben,,15,1,3,confirmed"
    )
    assert lines[2] == ""
    assert to_csv([]) == ",".join(COLUMNS) + "\r\n"


def test_formula_like_text_is_guarded() -> None:
    r = ResultRecord(
        id=1,
        system="warcry",
        mission='=HYPERLINK("x")',
        player_a=1,
        player_b=2,
        score_a=0,
        score_b=0,
        winner=None,
        played_at=T0,
        faction_a="+1 Orks",
        faction_b="'quoted",
    )
    row = next(iter(csv.DictReader(io.StringIO(to_csv([r], {1: "@everyone"})))))
    assert row["mission"].startswith("'=")
    assert row["faction_a"] == "'+1 Orks"
    assert row["faction_b"] == "''quoted"
    assert row["player_a_name"] == "'@everyone"
    assert parse_csv(to_csv([r])) == [r]


def test_times_are_exported_in_utc() -> None:
    local = datetime(2025, 5, 4, 22, 30, tzinfo=timezone(timedelta(hours=2)))
    r = ResultRecord(
        id=1, system="warcry", player_a=1, player_b=2, score_a=1, score_b=0, winner=1, played_at=local
    )
    assert "2025-05-04T20:30:00+00:00" in to_csv([r])


def test_utf8_with_byte_order_mark_is_read() -> None:
    r = ResultRecord(
        id=1,
        system="warcry",
        player_a=1,
        player_b=2,
        score_a=1,
        score_b=0,
        winner=1,
        played_at=T0,
        faction_a="Spiritualistes d'Ulgu ✦",
    )
    assert parse_csv("\ufeff" + to_csv([r])) == [r]
    assert parse_csv(b"\xef\xbb\xbf" + to_csv_bytes([r])) == [r]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "Line 1: the header"),
        ("id,played_at\r\n", "Line 1: the header"),
        (",".join(COLUMNS) + "\r\n1,2,3\r\n", "Line 2: expected 15 columns, found 3"),
        (
            ",".join(COLUMNS) + "\r\nx,2025-01-01T00:00:00+00:00,warcry,,1,,,0,2,,,0,,,confirmed\r\n",
            "Line 2, id: 'x' is not a whole number",
        ),
        (
            ",".join(COLUMNS) + "\r\n1,yesterday,warcry,,1,,,0,2,,,0,,,confirmed\r\n",
            "Line 2, played_at: 'yesterday' is not an ISO 8601 time",
        ),
        (
            ",".join(COLUMNS) + "\r\n1,2025-01-01T00:00:00+00:00,warcry,,1,,,0,2,,,0,,,lost\r\n",
            "Line 2, status: 'lost' is not one of",
        ),
        (
            ",".join(COLUMNS) + "\r\n1,2025-01-01T00:00:00+00:00,warcry,,1,,,0,2,,,0,3,,confirmed\r\n",
            "Line 2",
        ),
        (
            ",".join(COLUMNS) + "\r\n1,2025-01-01T00:00:00+00:00,warcry,,1,,,-4,2,,,0,,,confirmed\r\n",
            "Line 2, score_a",
        ),
    ],
)
def test_bad_files_name_the_line(text: str, message: str) -> None:
    with pytest.raises(CsvError) as caught:
        parse_csv(text)
    assert message in str(caught.value)


def test_not_utf8() -> None:
    with pytest.raises(CsvError, match="UTF-8"):
        parse_csv(b"\xff\xfe\x00")
