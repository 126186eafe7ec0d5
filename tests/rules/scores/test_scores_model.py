"""The result record refuses nonsense, and hand-entered results are checked politely."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
from pydantic import ValidationError

from rules.errors import RuleError
from rules.scores import (
    MAX_SCORE,
    ResultRecord,
    ResultStatus,
    check_manual_entry,
    confirmed_in_order,
    record_from_outcome,
    winner_from_scores,
)
from rules.session import GameOutcome, SideResult

T0 = datetime(2025, 1, 1, 18, 0, tzinfo=UTC)


def record(**changes: object) -> ResultRecord:
    fields: dict[str, object] = {
        "id": 1,
        "system": "warcry",
        "player_a": 1,
        "player_b": 2,
        "score_a": 3,
        "score_b": 2,
        "winner": 1,
        "played_at": T0,
    }
    fields.update(changes)
    return ResultRecord.model_validate(fields)


def test_a_valid_record() -> None:
    r = record(mission="  Dominate ", faction_a="", faction_b=" Orks ")
    assert r.mission == "Dominate" and r.faction_a is None and r.faction_b == "Orks"
    assert r.status is ResultStatus.CONFIRMED and r.counts
    assert r.side(2) == (2, 3, "Orks") and r.opponent_of(2) == 1 and r.involves(1) and not r.involves(3)


@pytest.mark.parametrize(
    "changes",
    [
        {"player_b": 1},
        {"winner": 3},
        {"score_a": -1},
        {"score_b": MAX_SCORE + 1},
        {"system": "  "},
        {"system": "x" * 33},
        {"faction_a": "x" * 101},
        {"status": "lost"},
        {"extra": 1},
    ],
)
def test_nonsense_is_refused(changes: dict[str, object]) -> None:
    with pytest.raises(ValidationError):
        record(**changes)


def test_times_are_kept_in_utc() -> None:
    naive = record(played_at=datetime(2025, 1, 1, 18, 0))
    local = record(played_at=datetime(2025, 1, 1, 20, 0, tzinfo=timezone(timedelta(hours=2))))
    assert naive.played_at == local.played_at == T0
    assert naive.played_at.tzinfo is UTC and local.played_at.tzinfo is UTC


def test_records_are_frozen() -> None:
    with pytest.raises(ValidationError):
        record().score_a = 5  # type: ignore[misc]


def test_winner_from_scores() -> None:
    assert winner_from_scores(1, 2, 5, 3) == 1
    assert winner_from_scores(1, 2, 3, 5) == 2
    assert winner_from_scores(1, 2, 4, 4) is None


def test_confirmed_in_order() -> None:
    later = record(id=1, played_at=T0 + timedelta(hours=1))
    same_time_low_id = record(id=2)
    same_time_high_id = record(id=3)
    pending = record(id=4, status=ResultStatus.PENDING)
    assert confirmed_in_order([later, same_time_high_id, pending, same_time_low_id]) == [
        same_time_low_id,
        same_time_high_id,
        later,
    ]


def test_record_from_a_session_outcome() -> None:
    outcome = GameOutcome(
        sides=[
            SideResult(player=10, score=12, faction="Iron Golems"),
            SideResult(player=20, score=15, faction=None),
        ],
        winner=10,
        mission="Marked for Death",
    )
    r = record_from_outcome(outcome, result_id=5, system="40k", played_at=T0, season_id=2)
    assert (r.player_a, r.player_b, r.score_a, r.score_b, r.winner) == (10, 20, 12, 15, 10)
    assert r.faction_a == "Iron Golems" and r.faction_b is None and r.mission == "Marked for Death"
    assert r.status is ResultStatus.PENDING and r.season_id == 2
    negative = GameOutcome(
        sides=[SideResult(player=10, score=-3), SideResult(player=20, score=0)], winner=None
    )
    assert record_from_outcome(negative, result_id=6, system="40k", played_at=T0).score_a == 0
    with pytest.raises(ValueError):
        record_from_outcome(
            GameOutcome(sides=[SideResult(player=1, score=0)], winner=None),
            result_id=7,
            system="40k",
            played_at=T0,
        )


def entry(**changes: object) -> None:
    fields: dict[str, object] = {
        "reporter": 1,
        "opponent": 2,
        "opponent_is_bot": False,
        "system": "warcry",
        "my_score": 10,
        "their_score": 8,
    }
    fields.update(changes)
    check_manual_entry(**fields)  # type: ignore[arg-type]


def test_a_good_entry_passes() -> None:
    entry()
    entry(my_score=0, their_score=MAX_SCORE, mission="Dominate", my_faction="Orks", their_faction="Tau")


@pytest.mark.parametrize(
    ("changes", "code", "params"),
    [
        ({"opponent": 1}, "scores.against_self", {}),
        ({"opponent_is_bot": True}, "scores.opponent_bot", {}),
        ({"system": " "}, "scores.system_missing", {}),
        ({"system": "x" * 40}, "scores.system_long", {"limit": 32}),
        ({"my_score": -1}, "scores.my_score_negative", {}),
        ({"their_score": -5}, "scores.their_score_negative", {}),
        ({"my_score": MAX_SCORE + 1}, "scores.my_score_typo", {"score": MAX_SCORE + 1, "maximum": MAX_SCORE}),
        ({"mission": "m" * 201}, "scores.mission_long", {"limit": 200}),
        ({"their_faction": "f" * 101}, "scores.their_faction_long", {"limit": 100}),
    ],
)
def test_bad_entries_are_refused_specifically(
    changes: dict[str, object], code: str, params: dict[str, object]
) -> None:
    with pytest.raises(RuleError) as caught:
        entry(**changes)
    assert (caught.value.code, caught.value.params) == (code, params)
