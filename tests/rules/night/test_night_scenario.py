"""The issue's club night through the rules alone: 11 sign-ups over Kill Team and Warcry, 5 tables,
an arranged game, a teacher with a learner, a late drop-out whose place goes to the waitlist, and
the state saved and read back (a restart) between every step."""

from __future__ import annotations

from typing import Any

from night_helpers import NOW, ORGANISER, kinds, open_night, signup, table

from rules.night import (
    Close,
    Finish,
    Leave,
    NightState,
    Pair,
    PairingContext,
    Publish,
    SignUp,
    pair_key,
    rating_key,
    step,
)
from rules.session import Event


def restarted(state: NightState, action: Any, now: int = NOW) -> tuple[NightState, list[Event]]:
    """Step, then save and load the state as the store does, so nothing lives only in memory."""
    state = NightState.model_validate_json(state.model_dump_json())
    state, events = step(state, action, now)
    return NightState.model_validate_json(state.model_dump_json()), events


def test_a_club_night_from_sign_ups_to_finish() -> None:
    state = open_night(capacity=10, systems=["Kill Team", "Warcry"])
    entries = [
        signup(1, "killteam", arranged_with=2),
        signup(2, "killteam", "warcry", arranged_with=1),
        signup(3, "killteam", can_teach=True),
        signup(4, "killteam"),
        signup(5, "killteam", wants_to_learn=True),
        signup(6, "killteam"),
        signup(7, "warcry"),
        signup(8, "warcry", points=1000),
        signup(9, "warcry"),
        signup(10, "warcry", "killteam"),
        signup(11, "warcry"),  # the eleventh: waitlisted
    ]
    for entry in entries:
        state, events = restarted(state, SignUp(actor=entry.player, signup=entry))
    assert events[0].model_dump()["waitlisted"] is True
    assert [s.player for s in state.waitlist] == [11]

    state, events = restarted(state, Leave(actor=9, player=9), state.settings.cutoff - 60)  # late drop-out
    assert kinds(events) == ["left", "promoted"] and events[1].model_dump()["player"] == 11
    state, _ = restarted(state, Close(actor=0, as_organiser=True), state.settings.cutoff)

    tables = [
        table("kz-1", "killteam", name="Killzone 1"),
        table("kz-2", "killteam", name="Killzone 2"),
        table("kz-3", "killteam", name="Killzone 3"),
        table("wc-1", "warcry", name="Warcry board"),
        table("big", "killteam", "warcry", name="Big table"),
    ]
    context = PairingContext(
        games_between={pair_key(3, 4): 2, pair_key(7, 8): 1},
        days_since={pair_key(3, 4): 10, pair_key(7, 8): 3},
        ratings={rating_key(p, "warcry"): 1000 + 10 * p for p in (7, 8, 10, 11)},
    )
    state, events = restarted(state, Pair(actor=ORGANISER, tables=tables, context=context, seed=42))
    assert state.status == "review" and state.result is not None
    pairings = state.result.pairings
    assert state.result.sat_out == []  # ten players, five games
    by_players = {frozenset(p.players): p for p in pairings}
    assert by_players[frozenset((1, 2))].reason("night.arranged") is not None
    teach = by_players[frozenset((3, 5))].reason("night.teach")
    assert teach is not None and teach.values == {"teacher": 3, "learner": 5}
    assert frozenset((7, 8)) not in by_players  # they played three days ago
    assert {p.system for p in pairings} == {"killteam", "warcry"}
    assert sorted(p.table_id or "" for p in pairings) == ["big", "kz-1", "kz-2", "kz-3", "wc-1"]

    sessions = {index: f"s{index}" for index in range(len(pairings))}
    state, events = restarted(state, Publish(actor=ORGANISER, session_ids=sessions))
    assert state.status == "published" and kinds(events) == ["published"]
    assert state.result is not None and all(p.session_id for p in state.result.pairings)
    state, events = restarted(state, Finish(actor=ORGANISER))
    assert state.status == "finished"
