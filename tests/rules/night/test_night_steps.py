"""The night's state machine: every action, and every refusal with its code."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from night_helpers import DAY, HOUR, NOW, ORGANISER, kinds, night_settings, open_night, refused, signup, table

from rules.night import (
    Cancel,
    Close,
    Drop,
    Edit,
    Finish,
    Leave,
    MarkReminded,
    MoveTable,
    NightState,
    Pair,
    PairingContext,
    Publish,
    Reason,
    SignUp,
    Swap,
    Table,
    next_occurrence,
    pair_key,
    start,
    step,
)
from rules.night.actions import parse_action
from rules.night.events import Left, Promoted, SignedUp
from rules.night.night import cutoff_due, to_remind
from rules.night.settings import MAX_CAPACITY, MAX_TITLE, check_time_zone
from rules.session import Action

TABLES = [table("kz", "killteam"), table("wc", "warcry"), table("both", "killteam", "warcry")]


def signed(state: NightState, *signups: Any, now: int = NOW) -> NightState:
    for entry in signups:
        state, _ = step(state, SignUp(actor=entry.player, signup=entry), now)
    return state


def paired(
    state: NightState, context: PairingContext | None = None, seed: int = 1, tables: list[Table] = TABLES
) -> NightState:
    action = Pair(actor=ORGANISER, tables=tables, context=context or PairingContext(), seed=seed)
    return step(state, action, NOW)[0]


def review_night(tables: list[Table] = TABLES) -> NightState:
    """Kill Team 1-2, 3-4 and Warcry 5-6; 7 sits out of Warcry (fewest nights sat out)."""
    state = signed(
        open_night(),
        signup(1, "killteam"),
        signup(2, "killteam"),
        signup(3, "killteam"),
        signup(4, "killteam", "warcry"),
        signup(5, "warcry"),
        signup(6, "warcry"),
        signup(7, "warcry"),
    )
    context = PairingContext(
        games_between={pair_key(1, 3): 2, pair_key(1, 4): 2, pair_key(2, 3): 2, pair_key(2, 4): 2},
        byes={5: 1, 6: 1},
    )
    state = paired(state, context, tables=tables)
    assert state.result is not None
    assert [(p.system, p.players) for p in state.result.pairings] == [
        ("killteam", [1, 2]),
        ("killteam", [3, 4]),
        ("warcry", [5, 6]),
    ]
    assert [(s.player, s.reason.code) for s in state.result.sat_out] == [(7, "night.bye_rotation")]
    return state


# ------------------------------------------------------------------------------------------ start


def test_a_night_starts_open_with_its_systems_as_slugs() -> None:
    state, events = start(
        "n1", ORGANISER, night_settings(systems=["Kill Team", "Blood Bowl"], title=" Club "), NOW
    )
    assert state.status == "open" and state.settings.systems == ["killteam", "blood-bowl"]
    assert state.settings.title == "Club"
    assert kinds(events) == ["created"]


@pytest.mark.parametrize(
    ("changes", "code"),
    [
        ({"title": "  "}, "night.title_missing"),
        ({"title": "t" * (MAX_TITLE + 1)}, "night.title_long"),
        ({"starts_at": NOW}, "night.in_past"),
        ({"starts_at": NOW - DAY, "cutoff": NOW - 2 * DAY}, "night.in_past"),
        ({"capacity": 0}, "night.capacity"),
        ({"capacity": 1}, "night.capacity"),
        ({"capacity": MAX_CAPACITY + 1}, "night.capacity"),
        ({"systems": []}, "night.no_systems"),
        ({"systems": [f"game-{i}" for i in range(9)]}, "night.systems_many"),
        ({"systems": ["Kill Team", "killteam"]}, "night.system_twice"),
        ({"systems": ["%%%"]}, "night.system_name"),
        ({"time_zone": "Mars/Olympus_Mons"}, "night.time_zone"),
        ({"time_zone": ""}, "night.time_zone"),
        ({"time_zone": "../etc/passwd"}, "night.time_zone"),
        ({"cutoff": NOW + 5 * DAY}, "night.cutoff_after_start"),
        ({"cutoff": NOW - HOUR}, "night.cutoff_past"),
    ],
)
def test_bad_settings_are_refused(changes: dict[str, Any], code: str) -> None:
    refused(code, start, "n1", ORGANISER, night_settings(**changes), NOW)


def test_time_zones_are_checked_by_name() -> None:
    assert check_time_zone(" America/New_York ") == "America/New_York"
    assert refused("night.time_zone", check_time_zone, "Europe").params == {"name": "Europe"}


# ---------------------------------------------------------------------------------------- sign-up


def test_sign_ups_fill_the_places_then_the_waitlist() -> None:
    state = open_night(capacity=2)
    results = []
    for player in (1, 2, 3, 4):
        state, events = step(state, SignUp(actor=player, signup=signup(player)), NOW)
        results.append(events)
    assert [s.player for s in state.signups] == [1, 2]
    assert [s.player for s in state.waitlist] == [3, 4]
    assert [s.seq for s in [*state.signups, *state.waitlist]] == [1, 2, 3, 4]
    assert results[1] == [SignedUp(player=2, waitlisted=False, position=2)]
    assert results[3] == [SignedUp(player=4, waitlisted=True, position=2)]


def test_a_changed_signup_keeps_its_place() -> None:
    state = signed(open_night(capacity=2), signup(1), signup(2), signup(3))
    state, events = step(state, SignUp(actor=1, signup=signup(1, "warcry", points=500)), NOW)
    assert state.signups[0].systems == ["warcry"] and state.signups[0].seq == 1
    assert events == [SignedUp(player=1, waitlisted=False, position=1, changed=True)]
    state, events = step(state, SignUp(actor=3, signup=signup(3, "warcry")), NOW)
    assert events == [SignedUp(player=3, waitlisted=True, position=1, changed=True)]
    assert state.next_seq == 4


def test_signing_up_twice_the_same_way_is_refused() -> None:
    state = signed(open_night(), signup(1, "killteam", points=1000))
    refused(
        "night.already_signed_up",
        step,
        state,
        SignUp(actor=1, signup=signup(1, "Kill Team", points=1000)),
        NOW,
    )


def test_players_sign_up_only_themselves_and_only_before_the_cutoff() -> None:
    state = open_night()
    refused("night.not_yours", step, state, SignUp(actor=2, signup=signup(1)), NOW)
    cutoff = state.settings.cutoff
    refused("night.after_cutoff", step, state, SignUp(actor=1, signup=signup(1)), cutoff)
    closed, _ = step(state, Close(actor=ORGANISER), NOW)
    refused("night.closed", step, closed, SignUp(actor=1, signup=signup(1)), NOW)
    # closed at the cut-off by the bot: it is the cut-off that players are told about
    refused("night.after_cutoff", step, closed, SignUp(actor=1, signup=signup(1)), cutoff)


def test_the_organiser_may_sign_anyone_up_after_the_cutoff() -> None:
    state = open_night()
    late = state.settings.cutoff + HOUR
    state, _ = step(state, SignUp(actor=ORGANISER, signup=signup(1)), late)
    state, _ = step(state, SignUp(actor=50, signup=signup(2), as_organiser=True), late)
    assert [s.player for s in state.signups] == [1, 2]


def test_a_bad_signup_is_refused_by_the_state_machine_too() -> None:
    state = open_night()
    refused("night.system_not_offered", step, state, SignUp(actor=1, signup=signup(1, "fortyk")), NOW)
    refused("night.arranged_self", step, state, SignUp(actor=1, signup=signup(1, arranged_with=1)), NOW)


def test_no_sign_up_changes_once_paired() -> None:
    state = review_night()
    refused("night.paired_already", step, state, SignUp(actor=9, signup=signup(9)), NOW)
    refused("night.paired_already", step, state, SignUp(actor=ORGANISER, signup=signup(9)), NOW)


# ------------------------------------------------------------------------------------------ leave


def test_leaving_promotes_the_first_on_the_waitlist() -> None:
    state = signed(open_night(capacity=2), signup(1), signup(2), signup(3), signup(4))
    state, events = step(state, Leave(actor=1, player=1), NOW)
    assert kinds(events) == ["left", "promoted"]
    assert events[1] == Promoted(player=3)
    assert [s.player for s in state.signups] == [2, 3]
    assert [s.player for s in state.waitlist] == [4]


def test_leaving_the_waitlist_promotes_nobody() -> None:
    state = signed(open_night(capacity=2), signup(1), signup(2), signup(3), signup(4))
    state, events = step(state, Leave(actor=3, player=3), NOW)
    assert events == [Left(player=3, waitlisted=True)]
    assert [s.player for s in state.waitlist] == [4]


def test_a_player_may_leave_after_the_cutoff_and_the_organiser_may_take_anyone_off() -> None:
    state = signed(open_night(), signup(1), signup(2))
    state, _ = step(state, Leave(actor=1, player=1), state.settings.cutoff + 1)
    state, _ = step(state, Leave(actor=ORGANISER, player=2), NOW)
    assert state.signups == []


def test_leave_refusals() -> None:
    state = signed(open_night(), signup(1))
    refused("night.not_yours", step, state, Leave(actor=2, player=1), NOW)
    assert refused("night.not_signed_up", step, state, Leave(actor=3, player=3), NOW).params == {"player": 3}
    published, _ = step(review_night(), Publish(actor=ORGANISER), NOW)
    refused("night.paired_already", step, published, Leave(actor=1, player=1), NOW)


def test_leaving_during_review_is_a_drop() -> None:
    state, events = step(review_night(), Leave(actor=5, player=5), NOW)
    assert kinds(events) == ["dropped"]
    assert state.result is not None and state.result.pairing_of(7) == 2  # 7 stands in for 5


# ------------------------------------------------------------------------------------- close, pair


def test_closing_and_its_refusals() -> None:
    state = open_night()
    refused("night.not_organiser", step, state, Close(actor=1), NOW)
    closed, events = step(state, Close(actor=1, as_organiser=True), NOW + 5)
    assert closed.status == "closed" and closed.closed_at == NOW + 5 and kinds(events) == ["closed"]
    refused("night.already_closed", step, closed, Close(actor=ORGANISER), NOW)
    refused("night.paired_already", step, review_night(), Close(actor=ORGANISER), NOW)
    assert not cutoff_due(state, NOW) and cutoff_due(state, state.settings.cutoff)
    assert not cutoff_due(closed, state.settings.cutoff)


def test_pairing_puts_the_night_under_review_and_keeps_what_it_knew() -> None:
    state = signed(open_night(), signup(1), signup(2))
    context = PairingContext(games_between={pair_key(1, 2): 1, pair_key(1, 9): 4}, byes={1: 1, 9: 2})
    refused("night.not_organiser", step, state, Pair(actor=1, tables=TABLES, context=context, seed=0), NOW)
    state, events = step(state, Pair(actor=ORGANISER, tables=TABLES, context=context, seed=5), NOW)
    assert state.status == "review" and state.tables == TABLES and state.closed_at == NOW
    assert state.result is not None and state.result.seed == 5
    assert state.context == PairingContext(games_between={"1:2": 1}, byes={1: 1})
    assert kinds(events) == ["paired"] and events[0].model_dump()["pairings"] == 1
    twice = [table("a", "warcry"), table("a", "killteam")]
    refused(
        "night.table_twice", step, state, Pair(actor=ORGANISER, tables=twice, context=context, seed=0), NOW
    )


def test_pairing_again_during_review_leaves_out_the_no_shows() -> None:
    state, _ = step(review_night(), Drop(actor=ORGANISER, player=1), NOW)
    state = paired(state)
    assert state.result is not None
    assert state.result.sat_out_of(1) is None and state.result.pairing_of(1) is None
    published, _ = step(state, Publish(actor=ORGANISER), NOW)
    refused(
        "night.published_already",
        step,
        published,
        Pair(actor=ORGANISER, tables=[], context=PairingContext(), seed=0),
        NOW,
    )


# ------------------------------------------------------------------------------------------- review


def test_swapping_two_players_of_one_system() -> None:
    state, events = step(review_night(), Swap(actor=ORGANISER, first=2, second=3), NOW)
    assert state.result is not None
    assert [p.players for p in state.result.pairings[:2]] == [[1, 3], [2, 4]]
    assert kinds(events) == ["swapped"]
    reasons = state.result.pairings[0].reasons
    assert [r.code for r in reasons] == ["night.played_before", "night.by_organiser", "night.table"]
    assert state.result.pairings[0].table_id == review_night().result.pairings[0].table_id  # type: ignore[union-attr]


def test_swapping_a_player_sitting_out_into_a_pairing() -> None:
    state, _ = step(review_night(), Swap(actor=ORGANISER, first=7, second=6), NOW)
    assert state.result is not None
    assert state.result.pairings[2].players == [5, 7]
    assert state.result.sat_out[0].player == 6
    assert state.result.sat_out[0].reason == Reason(code="night.set_aside")


@pytest.mark.parametrize(
    ("first", "second", "code", "params"),
    [
        (1, 1, "night.same_player", {}),
        (1, 99, "night.not_paired", {"player": 99}),
        (1, 2, "night.same_pairing", {"first": 1, "second": 2}),
        (
            1,
            5,
            "night.swap_system",
            {"first": 1, "second": 5, "first_system": "killteam", "second_system": "warcry"},
        ),
        (7, 1, "night.swap_plays", {"player": 7, "system": "killteam"}),
    ],
)
def test_swap_refusals(first: int, second: int, code: str, params: dict[str, Any]) -> None:
    state = review_night()
    assert refused(code, step, state, Swap(actor=ORGANISER, first=first, second=second), NOW).params == params


def test_two_players_sitting_out_cannot_swap() -> None:
    state, _ = step(review_night(), Drop(actor=ORGANISER, player=1), NOW)
    state, _ = step(state, Drop(actor=ORGANISER, player=2), NOW)
    refused("night.both_sat_out", step, state, Swap(actor=ORGANISER, first=1, second=7), NOW)


def test_review_steps_need_the_organiser_and_a_night_under_review() -> None:
    for action in (
        Swap(actor=1, first=1, second=3),
        MoveTable(actor=1, pairing=0, table_id="both"),
        Drop(actor=1, player=2),
        Publish(actor=1),
    ):
        refused("night.not_organiser", step, review_night(), action, NOW)
    opened = signed(open_night(), signup(1), signup(2))
    for action in (
        Swap(actor=ORGANISER, first=1, second=2),
        MoveTable(actor=ORGANISER, pairing=0, table_id="kz"),
        Drop(actor=ORGANISER, player=2),
        Publish(actor=ORGANISER),
    ):
        refused("night.not_review", step, opened, action, NOW)


def test_moving_a_pairing_to_a_free_table_that_suits_it() -> None:
    state = review_night()
    assert state.result is not None
    tables = [p.table_id for p in state.result.pairings]
    assert tables == ["kz", "both", "wc"]
    moved, events = step(state, Drop(actor=ORGANISER, player=1), NOW)  # frees "kz"
    moved, events = step(moved, MoveTable(actor=ORGANISER, pairing=0, table_id="kz"), NOW)
    assert moved.result is not None and moved.result.pairings[0].players == [3, 4]
    assert moved.result.pairings[0].table_id == "kz"
    assert moved.result.pairings[0].reason("night.table") == Reason(
        code="night.table", values={"table_id": "kz", "name": "KZ"}
    )
    assert kinds(events) == ["table_moved"]


@pytest.mark.parametrize(
    ("pairing", "table_id", "code", "params"),
    [
        (3, "kz", "night.no_pairing", {"number": 4, "count": 3}),
        (-1, "kz", "night.no_pairing", {"number": 0, "count": 3}),
        (0, "nope", "night.no_such_table", {"table_id": "nope"}),
        (0, "wc", "night.table_unsuited", {"table_id": "wc", "name": "WC", "system": "killteam"}),
        (0, "kz", "night.table_already", {"table_id": "kz", "name": "KZ"}),
        (0, "both", "night.table_taken", {"table_id": "both", "name": "BOTH", "number": 2}),
    ],
)
def test_move_table_refusals(pairing: int, table_id: str, code: str, params: dict[str, Any]) -> None:
    action = MoveTable(actor=ORGANISER, pairing=pairing, table_id=table_id)
    assert refused(code, step, review_night(), action, NOW).params == params


def test_dropping_a_no_show_gives_their_opponent_a_stand_in() -> None:
    state, events = step(review_night(), Drop(actor=ORGANISER, player=6), NOW)
    assert state.result is not None
    assert events[0].model_dump() == {
        "private_to": None,
        "kind": "dropped",
        "player": 6,
        "opponent": 5,
        "stand_in": 7,
    }
    pairing = state.result.pairings[2]
    assert pairing.players == [5, 7] and pairing.table_id == "wc"
    assert pairing.reason("night.stands_in") == Reason(code="night.stands_in", values={"player": 6})
    assert [(s.player, s.reason.code) for s in state.result.sat_out] == [(6, "night.dropped")]


def test_dropping_a_no_show_with_no_one_free_sits_their_opponent_out() -> None:
    state, _ = step(review_night(), Drop(actor=ORGANISER, player=1), NOW)
    assert state.result is not None
    assert [p.players for p in state.result.pairings] == [[3, 4], [5, 6]]
    assert [(s.player, s.reason) for s in state.result.sat_out] == [
        (1, Reason(code="night.dropped")),
        (2, Reason(code="night.opponent_dropped", values={"player": 1})),
        (7, Reason(code="night.bye_rotation", values={"system": "warcry", "byes": 0})),
    ]


def test_a_stand_in_may_play_another_system_both_listed() -> None:
    """3 drops out; 4 listed Warcry too, and 7 sits out of Warcry: they play Warcry on a free table."""
    state = review_night()
    tables = [*state.tables, table("wc2", "warcry")]
    state = state.model_copy(update={"tables": tables})
    state, events = step(state, Leave(actor=3, player=3), NOW)
    assert state.result is not None
    assert events[0].model_dump()["stand_in"] == 7
    pairing = state.result.pairings[1]
    assert (pairing.system, pairing.players, pairing.table_id) == ("warcry", [4, 7], "both")
    assert [r.code for r in pairing.reasons] == [
        "night.first_game",
        "night.other_system",
        "night.stands_in",
        "night.table",
    ]
    # with the old table not suiting the new system, a free one that does is found, else none
    state = review_night([table("kz", "killteam"), table("kz2", "killteam"), table("wc", "warcry")])
    assert state.result is not None
    assert [p.table_id for p in state.result.pairings] == ["kz", "kz2", "wc"]
    state = state.model_copy(update={"tables": [*state.tables, table("wc2", "warcry")]})
    dropped, _ = step(state, Drop(actor=ORGANISER, player=3), NOW)
    assert dropped.result is not None and dropped.result.pairings[1].table_id == "wc2"
    crowded, _ = step(
        state.model_copy(update={"tables": state.tables[:3]}), Drop(actor=ORGANISER, player=3), NOW
    )
    assert crowded.result is not None and crowded.result.pairings[1].table_id is None
    assert crowded.result.pairings[1].reason("night.no_table") is not None


def test_dropping_a_player_sitting_out_and_drop_refusals() -> None:
    state, events = step(review_night(), Drop(actor=ORGANISER, player=7), NOW)
    assert state.result is not None and state.result.sat_out[0].reason == Reason(code="night.dropped")
    assert events[0].model_dump()["stand_in"] is None
    assert refused("night.already_dropped", step, state, Drop(actor=ORGANISER, player=7), NOW).params == {
        "player": 7
    }
    refused("night.not_signed_up", step, state, Drop(actor=ORGANISER, player=70), NOW)


# ------------------------------------------------------------------------- publish, finish, cancel


def test_publishing_records_each_game_opened() -> None:
    state, events = step(review_night(), Publish(actor=ORGANISER, session_ids={0: "s-a", 2: "s-c"}), NOW)
    assert state.status == "published" and state.result is not None
    assert [p.session_id for p in state.result.pairings] == ["s-a", None, "s-c"]
    assert kinds(events) == ["published"]
    bad = Publish(actor=ORGANISER, session_ids={3: "s-x"})
    assert refused("night.no_pairing", step, review_night(), bad, NOW).params == {"number": 4, "count": 3}


def test_finishing_a_published_night() -> None:
    refused("night.not_published", step, review_night(), Finish(actor=ORGANISER), NOW)
    published, _ = step(review_night(), Publish(actor=ORGANISER), NOW)
    refused("night.not_organiser", step, published, Finish(actor=1), NOW)
    finished, events = step(published, Finish(actor=ORGANISER), NOW)
    assert finished.status == "finished" and kinds(events) == ["finished"]
    refused("night.finished", step, finished, Cancel(actor=ORGANISER), NOW)
    refused("night.finished", step, finished, SignUp(actor=1, signup=signup(1)), NOW)
    assert to_remind(finished) == []


def test_cancelling_a_night_ends_everything() -> None:
    state = signed(open_night(), signup(1))
    refused("night.not_organiser", step, state, Cancel(actor=1), NOW)
    cancelled, events = step(state, Cancel(actor=ORGANISER), NOW)
    assert cancelled.status == "cancelled" and kinds(events) == ["cancelled"]
    for action in (
        SignUp(actor=2, signup=signup(2)),
        Leave(actor=1, player=1),
        Pair(actor=ORGANISER, tables=[], context=PairingContext(), seed=0),
        Cancel(actor=ORGANISER),
        Edit(actor=ORGANISER, settings=night_settings(title="Other")),
        Finish(actor=ORGANISER),
    ):
        refused("night.cancelled", step, cancelled, action, NOW)
    refused(
        "night.cancelled",
        step,
        cancelled.model_copy(update={"status": "cancelled"}),
        Swap(actor=ORGANISER, first=1, second=2),
        NOW,
    )


# --------------------------------------------------------------------------------------------- edit


def test_editing_says_what_changed() -> None:
    state, events = step(
        open_night(), Edit(actor=ORGANISER, settings=night_settings(title="Friday night")), NOW
    )
    assert state.settings.title == "Friday night"
    assert events[0].model_dump()["changed"] == ["title"]
    refused("night.no_change", step, state, Edit(actor=ORGANISER, settings=state.settings), NOW)
    refused("night.not_organiser", step, state, Edit(actor=1, settings=night_settings()), NOW)


def test_more_places_promote_from_the_waitlist_and_fewer_drop_no_one() -> None:
    state = signed(open_night(capacity=2), signup(1), signup(2), signup(3), signup(4), signup(5))
    state, events = step(state, Edit(actor=ORGANISER, settings=night_settings(capacity=4)), NOW)
    assert kinds(events) == ["edited", "promoted", "promoted"]
    assert [s.player for s in state.signups] == [1, 2, 3, 4]
    state, events = step(state, Edit(actor=ORGANISER, settings=night_settings(capacity=2)), NOW)
    assert kinds(events) == ["edited"] and [s.player for s in state.signups] == [1, 2, 3, 4]
    state, events = step(state, Leave(actor=1, player=1), NOW)
    assert kinds(events) == ["left"]  # still above the new capacity: no one promoted
    assert [s.player for s in state.waitlist] == [5]


def test_a_system_someone_signed_up_for_stays() -> None:
    state = signed(open_night(), signup(1, "warcry"))
    error = refused(
        "night.system_in_use",
        step,
        state,
        Edit(actor=ORGANISER, settings=night_settings(systems=["killteam"])),
        NOW,
    )
    assert error.params == {"system": "warcry", "players": 1}
    state, _ = step(state, Edit(actor=ORGANISER, settings=night_settings(systems=["warcry", "fortyk"])), NOW)
    assert state.settings.systems == ["warcry", "fortyk"]


def test_after_pairing_only_time_and_words_change() -> None:
    state = review_night()
    for changes, field in (
        ({"capacity": 20}, "capacity"),
        ({"systems": ["killteam", "warcry", "fortyk"]}, "systems"),
    ):
        error = refused(
            "night.edit_after_pairing",
            step,
            state,
            Edit(actor=ORGANISER, settings=night_settings(**changes)),
            NOW,
        )
        assert error.params == {"field": field}
    later = night_settings(starts_at=NOW + 5 * DAY)
    state, _ = step(state, Edit(actor=ORGANISER, settings=later), NOW)
    assert state.settings.starts_at == NOW + 5 * DAY and state.status == "review"


def test_times_already_past_are_checked_only_when_they_change() -> None:
    state = open_night()
    late = state.settings.cutoff + HOUR  # the cut-off has passed: the title can still change
    state, _ = step(state, Edit(actor=ORGANISER, settings=night_settings(title="Renamed")), late)
    refused(
        "night.in_past",
        step,
        state,
        Edit(actor=ORGANISER, settings=night_settings(title="Renamed", starts_at=late - 1)),
        late,
    )


def test_a_later_cutoff_reopens_a_closed_night() -> None:
    state, _ = step(open_night(), Close(actor=ORGANISER), NOW)
    state, events = step(
        state, Edit(actor=ORGANISER, settings=night_settings(cutoff=NOW + 3 * DAY + HOUR)), NOW
    )
    assert state.status == "open" and state.closed_at is None
    assert events[0].model_dump()["reopened"] is True


# ------------------------------------------------------------------------------ reminders, recurrence


def test_reminders_are_kept_so_no_one_is_reminded_twice() -> None:
    state = signed(open_night(capacity=2), signup(1), signup(2), signup(3))
    assert to_remind(state) == [1, 2]
    refused("night.not_organiser", step, state, MarkReminded(actor=1, players=[1]), NOW)
    state, events = step(state, MarkReminded(actor=0, players=[1, 1], as_organiser=True), NOW)
    assert state.reminded == [1] and events[0].model_dump()["players"] == [1]
    state, events = step(state, MarkReminded(actor=ORGANISER, players=[1, 2]), NOW)
    assert state.reminded == [1, 2] and events[0].model_dump()["players"] == [2]
    assert to_remind(state) == []


def local(moment: int, zone: str) -> str:
    from zoneinfo import ZoneInfo

    return datetime.fromtimestamp(moment, ZoneInfo(zone)).strftime("%Y-%m-%d %H:%M")


def test_a_weekly_night_keeps_its_wall_clock_time_across_summer_time() -> None:
    starts = int(datetime(2025, 3, 27, 19, 0, tzinfo=UTC).timestamp())  # 19:00 GMT, Thursday
    settings = night_settings(starts_at=starts, cutoff=starts - 2 * HOUR, recurrence="weekly")
    following = next_occurrence(settings)
    assert following is not None
    assert local(following.starts_at, "Europe/London") == "2025-04-03 19:00"  # BST now
    assert following.starts_at - starts == 7 * DAY - HOUR
    assert local(following.cutoff, "Europe/London") == "2025-04-03 17:00"
    fortnight = next_occurrence(settings.model_copy(update={"recurrence": "fortnightly"}))
    assert fortnight is not None and local(fortnight.starts_at, "Europe/London") == "2025-04-10 19:00"
    assert next_occurrence(night_settings()) is None


# ------------------------------------------------------------------------------------------- misc


def test_an_unknown_action_is_refused() -> None:
    refused("night.unknown_action", step, open_night(), Action(actor=1), NOW)


def test_actions_read_back_from_json() -> None:
    actions = [
        SignUp(actor=1, signup=signup(1, "warcry", points=500)),
        Pair(actor=ORGANISER, tables=TABLES, context=PairingContext(byes={1: 2}), seed=3),
        Publish(actor=ORGANISER, session_ids={0: "abc"}),
        Edit(actor=ORGANISER, settings=night_settings()),
    ]
    for action in actions:
        assert parse_action(action.model_dump_json()) == action


def test_steps_never_change_the_state_they_are_given() -> None:
    state = review_night()
    before = state.model_dump_json()
    step(state, Swap(actor=ORGANISER, first=2, second=3), NOW)
    step(state, Drop(actor=ORGANISER, player=6), NOW)
    step(state, Publish(actor=ORGANISER, session_ids={0: "x"}), NOW)
    assert state.model_dump_json() == before
    assert NightState.model_validate_json(before) == state
