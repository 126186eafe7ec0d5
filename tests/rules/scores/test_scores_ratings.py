"""Ratings are a pure function of the confirmed results, and the memo always agrees with a full replay."""

from __future__ import annotations

from datetime import timedelta

from hypothesis import given, settings
from hypothesis import strategies as st
from scores_strategies import SYSTEMS, T0, result_lists

from rules.scores import INITIAL, Rating, RatingBook, RatingLedger, ResultRecord, ResultStatus, replay


def game(
    result_id: int,
    a: int,
    b: int,
    winner: int | None,
    hours: int = 0,
    system: str = "warcry",
    status: ResultStatus = ResultStatus.CONFIRMED,
) -> ResultRecord:
    return ResultRecord(
        id=result_id,
        system=system,
        player_a=a,
        player_b=b,
        score_a=1,
        score_b=0,
        winner=winner,
        played_at=T0 + timedelta(hours=hours),
        status=status,
    )


def test_newcomer_rating_and_display() -> None:
    assert INITIAL.display == 1000
    assert replay([]).rating(42) == INITIAL
    strong = Rating(mu=35.0, sigma=2.0)
    assert strong.display == round(1000 + 20 * (35.0 - 6.0))


def test_a_win_moves_ratings_apart_and_a_draw_between_equals_keeps_them_equal() -> None:
    ledger = replay([game(1, 1, 2, 1)])
    assert ledger.rating(1).mu > 25 > ledger.rating(2).mu
    assert ledger.rating(1).display > 1000 > ledger.rating(2).display
    drawn = replay([game(1, 1, 2, None)])
    assert drawn.rating(1) == drawn.rating(2)
    assert drawn.rating(1).mu == 25
    assert drawn.rating(1).sigma < INITIAL.sigma


def test_side_does_not_matter() -> None:
    one = replay([game(1, 1, 2, 1)])
    other = replay([game(1, 2, 1, 1)])
    assert one.ratings() == other.ratings()


def test_only_confirmed_results_in_scope_count() -> None:
    confirmed = [game(1, 1, 2, 1)]
    noise = [
        game(2, 2, 1, 2, 1, status=s)
        for s in (ResultStatus.PENDING, ResultStatus.DISPUTED, ResultStatus.VOID)
    ]
    other_system = [game(3, 2, 1, 2, 2, system="killteam")]
    assert replay(confirmed + noise + other_system, "warcry").ratings() == replay(confirmed).ratings()
    assert replay(confirmed + other_system).ratings() != replay(confirmed).ratings()


def test_equal_times_replay_in_id_order() -> None:
    a = [game(2, 1, 2, 2), game(1, 1, 2, 1)]
    b = [game(1, 1, 2, 1), game(2, 1, 2, 2)]
    assert replay(a).ratings() == replay(b).ratings()
    # ...and the order matters: swapping which game came first changes the numbers.
    swapped = [game(1, 1, 2, 2), game(2, 1, 2, 1)]
    assert replay(swapped).ratings() != replay(a).ratings()


def test_rating_changes_chain_from_result_to_result() -> None:
    results = [game(1, 1, 2, 1, 0), game(2, 1, 3, None, 1), game(3, 2, 1, 2, 2)]
    ledger = replay(results)
    first = ledger.change(1)
    second = ledger.change(2)
    third = ledger.change(3)
    assert first and second and third
    assert first[0].before == INITIAL and first[1].before == INITIAL
    assert second[0].before == first[0].after  # player 1 carries the rating from game 1
    assert third[1].before == second[0].after and third[0].before == first[1].after
    assert third[0].after == ledger.rating(2) and third[1].after == ledger.rating(1)
    assert first[0].delta > 0 > first[1].delta
    assert first[0].before.display == 1000 < first[0].after.display
    assert ledger.change(99) is None


def test_change_of_a_voided_result_is_gone() -> None:
    results = [game(1, 1, 2, 1), game(2, 1, 2, 2, 1)]
    ledger = replay(results)
    assert ledger.change(1) is not None
    ledger.sync([results[0].model_copy(update={"status": ResultStatus.VOID}), results[1]])
    assert ledger.change(1) is None
    change = ledger.change(2)
    assert change is not None and change[0].before == INITIAL


@settings(max_examples=60, deadline=None)
@given(result_lists(min_size=1), st.data())
def test_voiding_replays_to_the_ratings_without_the_result(
    results: list[ResultRecord], data: st.DataObject
) -> None:
    victim = data.draw(st.integers(min_value=0, max_value=len(results) - 1))
    voided = [
        r.model_copy(update={"status": ResultStatus.VOID}) if i == victim else r
        for i, r in enumerate(results)
    ]
    without = [r for i, r in enumerate(results) if i != victim]
    for system in [None, *SYSTEMS]:
        expected = replay(without, system).ratings()
        assert replay(voided, system).ratings() == expected
        # The memo, first fed the list with the result and then without it, agrees exactly.
        memo = RatingLedger(system, checkpoint_every=3).sync(results)
        assert memo.sync(voided).ratings() == expected


@settings(max_examples=60, deadline=None)
@given(st.lists(result_lists(max_size=15), min_size=1, max_size=5), st.integers(min_value=1, max_value=6))
def test_memo_always_equals_a_fresh_replay(versions: list[list[ResultRecord]], every: int) -> None:
    """Whatever edits come (corrections, voids, results in the past), sync == replay, changes too."""
    memo = RatingLedger(None, checkpoint_every=every)
    book = RatingBook(checkpoint_every=every)
    for results in versions:
        fresh = replay(results)
        memo.sync(results)
        assert memo.ratings() == fresh.ratings()
        assert len(memo) == len(fresh)
        for r in results:
            assert memo.change(r.id) == fresh.change(r.id)
        book.sync(results)
        for system in SYSTEMS:
            assert book.ledger(system).ratings() == replay(results, system).ratings()


def test_appending_replays_only_the_new_result() -> None:
    results = [
        game(i, 1 + i % 3, 1 + (i + 1) % 3, None if i % 4 == 0 else 1 + i % 3, i) for i in range(1, 40)
    ]
    memo = RatingLedger(checkpoint_every=8).sync(results[:-1])
    assert memo.replayed == 38
    memo.sync(results)
    assert memo.replayed == 1
    # A correction to game 21 (position 20) replays from the snapshot at 16 (positions 16..38 are 23 results).
    corrected = [r.model_copy(update={"winner": None}) if r.id == 21 else r for r in results]
    memo.sync(corrected)
    assert memo.replayed == 23
    assert memo.ratings() == replay(corrected).ratings()
    memo.sync(corrected)
    assert memo.replayed == 0


def test_book_changes_in_system_and_overall() -> None:
    results = [game(1, 1, 2, 1, 0, "warcry"), game(2, 1, 2, 1, 1, "killteam")]
    book = RatingBook().sync(results)
    changes = book.changes(results[1])
    own, overall = changes["killteam"], changes[None]
    assert own is not None and overall is not None
    assert own[0].before == INITIAL  # first Kill Team game
    assert overall[0].before != INITIAL  # but the second game overall
    assert book.systems() == ["killteam", "warcry"]


@settings(max_examples=60, deadline=None)
@given(
    result_lists(max_size=30),
    result_lists(max_size=30),
    st.integers(min_value=1, max_value=7),
    st.integers(min_value=-1, max_value=8),
    st.integers(min_value=-1, max_value=8),
    st.sampled_from([None, *SYSTEMS]),
)
def test_warming_step_by_step_equals_a_replay_whatever_happens_in_between(
    first: list[ResultRecord],
    second: list[ResultRecord],
    step: int,
    ask_at: int,
    change_at: int,
    system: str | None,
) -> None:
    book = RatingBook(checkpoint_every=3).sync(first)
    latest = first
    for done, _ in enumerate(book.warm(system, step=step)):
        if done == change_at:
            book.sync(second)  # the results change mid-warm
            latest = second
        if done == ask_at:
            book.ledger(system)  # a command wants the ratings now
    assert book.ledger(system).ratings() == replay(latest, system).ratings()
    assert list(book.warm(system)) == []  # nothing left to do


def test_warming_a_large_scope_climbs_in_steps() -> None:
    results = [game(i, 1 + i % 4, 1 + (i + 1) % 4, 1 + i % 4, i) for i in range(1, 1201)]
    book = RatingBook().sync(results)
    assert list(book.warm(None, step=500)) == [500, 1000, 1200]
    assert book.ledger(None).ratings() == replay(results).ratings()
    book.sync([*results, game(2000, 1, 2, 2, 5000)])
    assert list(book.warm(None, step=500)) == [1201]  # an existing ledger takes the difference at once
