"""Hypothesis strategies for result lists shared by the score tests."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import strategies as st

from rules.scores import ResultRecord, ResultStatus

T0 = datetime(2025, 1, 1, 18, 0, tzinfo=UTC)
PLAYERS = [101, 102, 103, 104, 105]
SYSTEMS = ["warcry", "killteam", "warmaster"]


@st.composite
def result_lists(
    draw: st.DrawFn, min_size: int = 0, max_size: int = 25, statuses: list[ResultStatus] | None = None
) -> list[ResultRecord]:
    """Results with unique ids, few players (so they meet often) and clashing times (id breaks ties)."""
    count = draw(st.integers(min_value=min_size, max_value=max_size))
    ids = draw(
        st.lists(st.integers(min_value=1, max_value=10_000), min_size=count, max_size=count, unique=True)
    )
    chosen_statuses = statuses or [ResultStatus.CONFIRMED] * 4 + list(ResultStatus)
    results = []
    for result_id in ids:
        a, b = draw(st.lists(st.sampled_from(PLAYERS), min_size=2, max_size=2, unique=True))
        score_a = draw(st.integers(min_value=0, max_value=30))
        score_b = draw(st.integers(min_value=0, max_value=30))
        winner = draw(st.sampled_from([a, b, None]))
        results.append(
            ResultRecord(
                id=result_id,
                system=draw(st.sampled_from(SYSTEMS)),
                player_a=a,
                player_b=b,
                score_a=score_a,
                score_b=score_b,
                winner=winner,
                played_at=T0 + timedelta(hours=draw(st.integers(min_value=0, max_value=12))),
                season_id=draw(st.sampled_from([None, 1, 2])),
                status=draw(st.sampled_from(chosen_statuses)),
            )
        )
    return results
