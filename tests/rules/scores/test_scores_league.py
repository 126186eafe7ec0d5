"""A hand-worked league of a dozen results, ranked by the documented order."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from rules.scores import (
    INITIAL,
    RatingBook,
    ResultRecord,
    ResultStatus,
    history,
    player_summary,
    replay,
    standings,
)

ALICE, BOB, CARA, DAN, EVE, GUS, HAL, IVY, JO = 1, 2, 3, 4, 5, 7, 8, 9, 10
T0 = datetime(2025, 3, 1, 19, 0, tzinfo=UTC)

# (player_a, player_b, score_a, score_b, winner); one game a day, in this order.
LEAGUE = [
    (ALICE, BOB, 20, 10, ALICE),
    (ALICE, CARA, 18, 12, ALICE),
    (BOB, DAN, 15, 5, BOB),
    (CARA, DAN, 14, 13, CARA),
    (ALICE, DAN, 10, 10, None),
    (BOB, CARA, 16, 15, BOB),
    (CARA, BOB, 11, 9, CARA),
    (ALICE, EVE, 21, 3, ALICE),
    (EVE, BOB, 14, 12, EVE),
    (GUS, HAL, 10, 12, None),  # a draw the game called despite the scores: same ratings, Hal +2
    (JO, IVY, 11, 11, None),  # identical in every way but the id
    (EVE, CARA, 10, 10, None),
]


def league(system: str = "warcry", season_id: int | None = 1) -> list[ResultRecord]:
    return [
        ResultRecord(
            id=i + 1,
            system=system,
            player_a=a,
            player_b=b,
            score_a=sa,
            score_b=sb,
            winner=w,
            played_at=T0 + timedelta(days=i),
            season_id=season_id,
            faction_a=f"F{a}",
            faction_b=f"F{b}",
        )
        for i, (a, b, sa, sb, w) in enumerate(LEAGUE)
    ]


def not_counted() -> list[ResultRecord]:
    """Results that must change nothing: pending, disputed and void games."""
    return [
        ResultRecord(
            id=100 + i,
            system="warcry",
            player_a=DAN,
            player_b=ALICE,
            score_a=30,
            score_b=0,
            winner=DAN,
            played_at=T0 + timedelta(days=20 + i),
            season_id=1,
            status=status,
        )
        for i, status in enumerate([ResultStatus.PENDING, ResultStatus.DISPUTED, ResultStatus.VOID])
    ]


def test_hand_worked_table() -> None:
    results = league() + not_counted()
    table = standings(results, replay(results, "warcry"), system="warcry")
    rows = [
        (
            s.rank,
            s.player,
            s.games,
            s.wins,
            s.draws,
            s.losses,
            s.points_for,
            s.points_against,
            s.league_points,
        )
        for s in table
    ]
    assert rows == [
        (1, ALICE, 4, 3, 1, 0, 69, 35, 10),
        (2, CARA, 5, 2, 1, 2, 62, 66, 7),
        (3, BOB, 5, 2, 0, 3, 62, 65, 6),
        (4, EVE, 3, 1, 1, 1, 27, 43, 4),
        # Five players on one point: the four with a single draw against a newcomer share a rating,
        # higher than Dan's after two defeats; among them points difference (+2, 0, 0, -2), then id.
        (5, HAL, 1, 0, 1, 0, 12, 10, 1),
        (6, IVY, 1, 0, 1, 0, 11, 11, 1),
        (7, JO, 1, 0, 1, 0, 11, 11, 1),
        (8, GUS, 1, 0, 1, 0, 10, 12, 1),
        (9, DAN, 3, 0, 1, 2, 28, 39, 1),
    ]
    by_player = {s.player: s.rating for s in table}
    assert by_player[HAL] == by_player[IVY] == by_player[JO] == by_player[GUS]
    assert by_player[DAN].ordinal < by_player[GUS].ordinal
    # Unbeaten Alice is rated highest; Cara and Bob split their games but Cara also beat Dan and drew.
    assert max(by_player.values(), key=lambda r: r.ordinal) == by_player[ALICE]
    assert by_player[CARA].ordinal > by_player[BOB].ordinal


def test_order_of_input_does_not_matter() -> None:
    results = league() + not_counted()
    expected = standings(results, replay(results, "warcry"))
    shuffled = list(reversed(results))
    assert standings(shuffled, replay(shuffled, "warcry")) == expected


def test_rating_breaks_a_tie_on_league_points_before_points_difference() -> None:
    # Equal league points: the better rating ranks higher even with a much worse points difference.
    results = [
        ResultRecord(
            id=1, system="warcry", player_a=1, player_b=2, score_a=5, score_b=4, winner=1, played_at=T0
        ),
        ResultRecord(
            id=2,
            system="warcry",
            player_a=3,
            player_b=4,
            score_a=30,
            score_b=0,
            winner=3,
            played_at=T0 + timedelta(hours=1),
        ),
        ResultRecord(
            id=3,
            system="warcry",
            player_a=1,
            player_b=3,
            score_a=1,
            score_b=0,
            winner=1,
            played_at=T0 + timedelta(hours=2),
        ),
        ResultRecord(
            id=4,
            system="warcry",
            player_a=3,
            player_b=2,
            score_a=9,
            score_b=8,
            winner=3,
            played_at=T0 + timedelta(hours=3),
        ),
    ]
    ledger = replay(results, "warcry")
    table = standings(results, ledger)
    # Player 1: 2 wins. Player 3: 2 wins, 1 loss. Both 6 points; 1 beat 3 and is rated higher,
    # although 3's points difference (+30) dwarfs 1's (+2).
    assert [s.player for s in table[:2]] == [1, 3]
    assert table[0].league_points == table[1].league_points == 6
    assert table[0].points_difference < table[1].points_difference


def test_filters_by_system_and_season() -> None:
    warcry = league("warcry", season_id=1)
    kill_team = [
        r.model_copy(update={"id": r.id + 1000, "system": "killteam", "season_id": 2}) for r in league()[:3]
    ]
    results = warcry + kill_team
    book = RatingBook().sync(results)
    kt = standings(results, book.ledger("killteam"), system="killteam")
    assert {s.player for s in kt} == {ALICE, BOB, CARA, DAN}
    assert sum(s.games for s in kt) == 6
    season_two = standings(results, book.ledger(None), season_id=2)
    assert [s.games for s in season_two] == [s.games for s in kt]
    everything = standings(results, book.ledger(None))
    assert sum(s.games for s in everything) == 2 * (len(LEAGUE) + 3)
    assert standings(results, book.ledger(None), season_id=3) == []
    # The overall rating uses both systems, so it differs from the Warcry-only one.
    assert book.ledger(None).rating(ALICE) != book.ledger("warcry").rating(ALICE)


def test_player_summary() -> None:
    results = league() + not_counted()
    book = RatingBook().sync(results)
    summary = player_summary(
        results, CARA, overall=book.ledger(None), by_system={"warcry": book.ledger("warcry")}
    )
    assert (summary.games, summary.wins, summary.draws, summary.losses) == (5, 2, 1, 2)
    assert (summary.points_for, summary.points_against) == (62, 66)
    assert summary.favourite_factions == [("F3", 5)]
    assert summary.systems == [("warcry", 5)]
    assert summary.system_ratings == {"warcry": book.ledger("warcry").rating(CARA)}
    heads = {
        h.opponent: (h.games, h.wins, h.draws, h.losses, h.points_for, h.points_against)
        for h in summary.opponents
    }
    assert heads == {
        BOB: (2, 1, 0, 1, 26, 25),
        ALICE: (1, 0, 0, 1, 12, 18),
        DAN: (1, 1, 0, 0, 14, 13),
        EVE: (1, 0, 1, 0, 10, 10),
    }
    assert summary.opponents[0].opponent == BOB  # most games first
    assert summary.last_played == T0 + timedelta(days=11)


def test_summary_of_a_stranger_is_empty() -> None:
    summary = player_summary(league(), 999, overall=replay(league()))
    assert summary.games == 0 and summary.opponents == [] and summary.rating == INITIAL
    assert summary.last_played is None


def test_favourite_factions_most_played_then_name() -> None:
    base = league()[0]
    results = [
        base.model_copy(update={"id": i, "faction_a": f, "played_at": T0 + timedelta(hours=i)})
        for i, f in enumerate(["Orks", "Aeldari", "Orks", "Aeldari", "Necrons", None, "Tau"])
    ]
    summary = player_summary(results, ALICE, top_factions=3)
    assert summary.favourite_factions == [("Aeldari", 2), ("Orks", 2), ("Necrons", 1)]


@pytest.mark.parametrize(
    ("user", "vs", "system", "expected"),
    [
        (None, None, None, list(range(12, 0, -1))),
        (CARA, None, None, [12, 7, 6, 4, 2]),
        (CARA, BOB, None, [7, 6]),
        (None, DAN, None, [5, 4, 3]),
        (CARA, None, "killteam", []),
    ],
)
def test_history_newest_first(
    user: int | None, vs: int | None, system: str | None, expected: list[int]
) -> None:
    results = league() + not_counted()
    assert [r.id for r in history(results, user=user, vs=vs, system=system)] == expected


def test_history_limit_and_statuses() -> None:
    results = league() + not_counted()
    assert [r.id for r in history(results, limit=3)] == [12, 11, 10]
    pending = history(results, statuses=frozenset({ResultStatus.PENDING, ResultStatus.DISPUTED}))
    assert [r.id for r in pending] == [101, 100]
