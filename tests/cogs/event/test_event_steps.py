"""The event's steps as the bot stores them (bot/events/state.py): entries and the waitlist, sealed
lists and the deadline, results reported by one player and confirmed by the other (or entered by
the organiser), drops and byes. Each refusal is a code and leaves the state as it was."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.events import state as steps
from bot.events.state import EventState, ListMeta, Played, Settings
from rules.errors import RuleError

ORGANISER = 1
NOW = 1_000_000


def event(capacity: int = 4, **changes: object) -> EventState:
    settings = Settings(
        name="GT", system="necromunda", starts_at=NOW + 7200, lists_due=NOW + 3600, capacity=capacity
    )
    return EventState(event_id="abcdefabcdef", organiser=ORGANISER, settings=settings).model_copy(
        update=changes
    )


def refused(code: str, act: object, *args: object) -> None:
    with pytest.raises(RuleError) as caught:
        act(*args)  # type: ignore[operator]
    assert caught.value.code == code


@given(st.lists(st.tuples(st.booleans(), st.integers(10, 19)), max_size=40), st.integers(2, 5))
def test_entries_never_pass_the_capacity_and_a_freed_place_goes_to_the_first_waiting(
    moves: list[tuple[bool, int]], capacity: int
) -> None:
    state = event(capacity)
    for joining, player in moves:
        before = state
        try:
            if joining:
                state, _notes = steps.join(state, player, player, False)
            else:
                state, _notes = steps.leave(state, player, player, False)
        except RuleError:
            assert state == before
            continue
        if not joining and player in before.entrants and before.waitlist:
            assert before.waitlist[0] in state.entrants  # promoted, in order
        everyone = state.entrants + state.waitlist
        assert len(state.entrants) <= capacity and len(everyone) == len(set(everyone))
        assert not state.waitlist or len(state.entrants) == capacity


def test_a_list_after_the_deadline_is_refused_unless_it_was_rejected() -> None:
    state, _notes = steps.join(event(), 10, 10, False)
    meta = ListMeta(faction="Goliath", commitment="c" * 64)
    refused("event.lists_due", steps.submit_list, state, 10, meta, NOW + 3600)
    state, _notes = steps.submit_list(state, 10, meta, NOW)
    state, _notes = steps.reject_list(state, 10, "Too many leaders")
    refused("event.list_rejected_open", steps.close_lists, state)
    state, _notes = steps.submit_list(state, 10, meta, NOW + 5000)  # a rejected list comes back late
    closed, _notes = steps.close_lists(state)
    assert closed.lists_revealed and closed.phase == "lists_closed"
    refused("event.lists_closed", steps.submit_list, closed, 10, meta, NOW)


def round_state() -> EventState:
    games = [Played(round=1, table=1, first=10, second=11), Played(round=1, table=0, first=12, second=None)]
    return event(phase="round", round_number=1, total_rounds=2, entrants=[10, 11, 12], games=games)


def test_a_result_stands_when_both_players_report_the_same_or_the_organiser_enters_it() -> None:
    state = round_state()
    waiting, notes = steps.report(state, 11, False, (11, 10), (4, 9))  # in the reporter's order
    assert notes[0].kind == "reported" and not waiting.round_done()
    refused("event.result_differs", steps.report, waiting, 10, False, (10, 11), (9, 5))
    refused("event.not_your_game", steps.report, waiting, 12, False, (10, 11), (9, 4))
    done, notes = steps.report(waiting, 10, False, (10, 11), (9, 4))
    assert notes[0].kind == "result" and done.round_done()
    assert (done.games[0].first_vp, done.games[0].second_vp) == (9, 4) and not done.reports
    entered, _notes = steps.report(state, ORGANISER, False, (11, 10), (4, 9))
    assert entered.games == done.games


def test_refusals_change_nothing() -> None:
    state = round_state()
    refused("event.not_in_round", steps.report, state, ORGANISER, True, (10, 12), (1, 0))
    refused("event.round_open", steps.start_round, state, [], 2)
    refused("event.has_game", steps.give_bye, state, 10)
    refused("event.started", steps.join, state, 20, 20, False)
    refused("event.vp_range", steps.report, state, ORGANISER, True, (10, 11), (-1, 0))
    assert state == round_state()


def test_a_drop_keeps_the_games_and_a_late_arrival_gets_a_bye() -> None:
    state = round_state().model_copy(update={"entrants": [10, 11, 12, 13]})
    dropped, _notes = steps.leave(state, 11, 11, False)
    assert dropped.dropped == [11] and dropped.games == state.games and 11 not in dropped.active()
    refused("event.dropped_already", steps.drop, dropped, 11)
    bye, _notes = steps.give_bye(dropped, 13)
    assert bye.game_of(13) == Played(round=1, table=2, first=13, second=None)
