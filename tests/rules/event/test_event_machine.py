"""The event's state machine step by step: a whole event (13 players, so byes; a list rejected and
sealed again; a drop; a late result; a top cut), and every refusal with its code, changing nothing."""

from __future__ import annotations

import pytest

from rules.errors import RuleError
from rules.event import events as ev
from rules.event.actions import (
    Cancel,
    CloseLists,
    Drop,
    Finish,
    GiveBye,
    Join,
    Leave,
    PublishRound,
    RejectList,
    ReportResult,
    StartTopCut,
    SubmitList,
    parse_action,
)
from rules.event.lists import verify_list
from rules.event.machine import allowed, apply, start
from rules.event.models import Game, Scoring
from rules.event.standings import standings
from rules.event.state import EventAction, EventSettings, EventState, Phase
from rules.session import Event

ORG = 1
PLAYERS = list(range(100, 113))  # 13
DEADLINE = 1_000


def settings(**changes: object) -> EventSettings:
    base = EventSettings(
        name="Kill Team GT", system="killteam", starts_at=5_000, list_deadline=DEADLINE, capacity=13
    )
    return base.model_copy(update=changes)


def step(state: EventState, action: EventAction) -> tuple[EventState, list[Event]]:
    before = state.model_dump()
    new, happened = apply(state, action)
    assert state.model_dump() == before, "apply changed its input"
    assert EventState.model_validate_json(new.model_dump_json()) == new, (
        "the state does not survive a restart"
    )
    assert parse_action(action.model_dump()) == action
    return new, happened


def refused(state: EventState, action: EventAction, code: str) -> None:
    before = state.model_dump()
    refusal = allowed(state, action)
    assert refusal is not None and refusal.code == code, refusal
    with pytest.raises(RuleError):
        apply(state, action)
    assert state.model_dump() == before


def signed_up(count: int = 13, **changes: object) -> EventState:
    state, _ = start("ev1", ORG, settings(**changes))
    for player in PLAYERS[:count]:
        state, _ = step(state, Join(actor=player, player=player))
    return state


def with_lists(state: EventState) -> EventState:
    for player in [e.player for e in state.entrants]:
        action = SubmitList(
            actor=player, player=player, faction="Orks", text=f"list of {player}", nonce=f"n{player}", now=900
        )
        state, _ = step(state, action)
    return state


def report_all(state: EventState, score: tuple[int, int] = (10, 5)) -> EventState:
    for game in state.open_games():
        assert game.second is not None
        action = ReportResult(
            actor=game.first,
            round=game.round,
            first=game.first,
            second=game.second,
            first_vp=score[0],
            second_vp=score[1],
        )
        state, _ = step(state, action)
    return state


def test_a_whole_event_with_byes_a_rejected_list_a_drop_and_a_late_result() -> None:
    state = with_lists(signed_up())
    state, happened = step(state, RejectList(actor=ORG, player=100, reason="Over the points limit"))
    assert happened == [ev.ListRejected(player=100, reason="Over the points limit", private_to=100)]
    state, happened = step(state, CloseLists(actor=ORG, now=DEADLINE))
    closed, revealed = happened
    assert isinstance(closed, ev.ListsClosed) and closed.missing == [100]
    assert isinstance(revealed, ev.ListsRevealed) and len(revealed.lists) == 12
    for shown in revealed.lists:
        assert verify_list("ev1", shown.player, shown.faction, shown.text, shown.nonce, shown.commitment)
    late = SubmitList(actor=100, player=100, faction="Orks", text="a legal list", nonce="again", now=2_000)
    state, happened = step(state, late)
    assert [type(e) for e in happened] == [ev.ListSealed, ev.ListsRevealed]  # lists are out: at once
    assert state.lists[100].status == "revealed"

    state, happened = step(state, PublishRound(actor=ORG, seed=1))
    published = happened[0]
    assert isinstance(published, ev.RoundPublished) and published.total_rounds == 4
    assert state.phase is Phase.ROUND and state.round_number == 1
    assert sum(1 for g in state.round_games() if g.is_bye) == 1
    state = report_all(state)
    state, _ = step(state, Drop(actor=105, player=105))
    state, _ = step(state, PublishRound(actor=ORG, seed=2))
    assert all(105 not in g.players for g in state.round_games())
    assert len(state.round_games()) == 6  # 12 still in: no bye
    open_game = state.open_games()[0]
    for game in state.open_games()[1:]:
        assert game.second is not None
        state, _ = step(
            state,
            ReportResult(
                actor=game.second, round=2, first=game.second, second=game.first, first_vp=3, second_vp=8
            ),
        )
    refused(state, PublishRound(actor=ORG, seed=3), "event.round_unfinished")
    assert open_game.second is not None
    late_result = ReportResult(
        actor=ORG, round=2, first=open_game.first, second=open_game.second, first_vp=7, second_vp=7
    )
    state, happened = step(state, late_result)
    assert isinstance(happened[0], ev.ResultReported) and happened[0].round_complete
    for number in (3, 4):
        state, _ = step(state, PublishRound(actor=ORG, seed=number))
        state = report_all(state)
    refused(state, PublishRound(actor=ORG, seed=5), "event.rounds_done")
    state, happened = step(state, Finish(actor=ORG))
    finished = happened[0]
    assert isinstance(finished, ev.Finished)
    assert finished.standings == standings(state.entrants, state.games, Scoring())
    assert finished.champion == finished.standings[0].player
    assert state.phase is Phase.FINISHED
    refused(state, Cancel(actor=ORG), "event.finished")


def test_the_swiss_rounds_meet_nobody_twice_and_give_nobody_two_byes() -> None:
    state, _ = step(signed_up(), CloseLists(actor=ORG, now=DEADLINE))
    for number in range(1, 5):
        state, _ = step(state, PublishRound(actor=ORG, seed=number))
        state = report_all(state, (number, 0))
    met = [frozenset(g.players) for g in state.games if not g.is_bye]
    assert len(met) == len(set(met))
    byes = [g.first for g in state.games if g.is_bye]
    assert len(byes) == len(set(byes)) == 4


def test_top_cut_follows_the_swiss_rounds_and_its_final_crowns_the_champion() -> None:
    state, _ = step(signed_up(13, rounds=2, top_cut=4), CloseLists(actor=ORG, now=DEADLINE))
    for number in (1, 2):
        state, _ = step(state, PublishRound(actor=ORG, seed=number))
        state = report_all(state)
    seeds = [s.player for s in standings(state.entrants, state.games, Scoring())][:4]
    state, happened = step(state, StartTopCut(actor=ORG))
    assert state.phase is Phase.TOP_CUT and state.cut_from == 3
    assert [(p.first, p.second) for p in happened[0].pairings] == [(seeds[0], seeds[3]), (seeds[1], seeds[2])]  # type: ignore[attr-defined]
    game = state.open_games()[0]
    assert game.second is not None
    refused(
        state,
        ReportResult(
            actor=game.first, round=3, first=game.first, second=game.second, first_vp=5, second_vp=5
        ),
        "event.cut_draw",
    )
    refused(state, Finish(actor=ORG), "event.round_unfinished")
    state = report_all(state)
    state, happened = step(state, PublishRound(actor=ORG, seed=9))
    assert [(p.first, p.second) for p in happened[0].pairings] == [(seeds[0], seeds[1])]  # type: ignore[attr-defined]
    state = report_all(state)
    refused(state, PublishRound(actor=ORG, seed=10), "event.cut_over")
    state, happened = step(state, Finish(actor=ORG))
    assert isinstance(happened[0], ev.Finished) and happened[0].champion == seeds[0]
    assert happened[0].standings == standings(state.entrants, state.swiss_games(), Scoring())


def test_a_player_still_in_the_top_cut_leaves_by_losing_so_the_bracket_stays_whole() -> None:
    """A semi-final's winner who drops would leave the final a player short: refused with how to do
    it instead (their game entered as a loss); once beaten in the cut, dropping changes nothing."""
    state, _ = step(signed_up(13, rounds=2, top_cut=4), CloseLists(actor=ORG, now=DEADLINE))
    for number in (1, 2):
        state, _ = step(state, PublishRound(actor=ORG, seed=number))
        state = report_all(state)
    state, _ = step(state, StartTopCut(actor=ORG))
    first_semi = state.open_games()[0]
    assert first_semi.second is not None
    refused(state, Drop(actor=ORG, player=first_semi.first), "event.cut_drop")
    state = report_all(state)  # the first player of each game wins
    refused(state, Drop(actor=ORG, player=first_semi.first), "event.cut_drop")
    state, _ = step(state, Drop(actor=ORG, player=first_semi.second))  # beaten: free to go
    state, _ = step(state, Drop(actor=ORG, player=state.round_games()[1].second))
    state, _ = step(  # a dropped player made the winner by a correction: the final waits for a fix
        state,
        ReportResult(
            actor=ORG,
            round=first_semi.round,
            first=first_semi.first,
            second=first_semi.second,
            first_vp=0,
            second_vp=1,
        ),
    )
    refused(state, PublishRound(actor=ORG, seed=3), "event.cut_dropped_winner")
    state, _ = step(
        state,
        ReportResult(
            actor=ORG,
            round=first_semi.round,
            first=first_semi.first,
            second=first_semi.second,
            first_vp=1,
            second_vp=0,
        ),
    )
    state, happened = step(state, PublishRound(actor=ORG, seed=3))
    final = happened[0].pairings[0]  # type: ignore[attr-defined]
    assert first_semi.first in (final.first, final.second)
    assert not {e.player for e in state.entrants if e.dropped} & {final.first, final.second}


def test_lists_shown_to_each_rounds_opponent_only() -> None:
    state = with_lists(signed_up(4, reveal="opponent"))
    state, happened = step(state, CloseLists(actor=ORG, now=DEADLINE))
    assert not any(isinstance(e, ev.ListsRevealed) for e in happened)
    state, happened = step(state, PublishRound(actor=ORG, seed=1))
    shown = [e for e in happened if isinstance(e, ev.ListShown)]
    assert len(shown) == 4
    for event in shown:
        game = next(g for g in state.round_games() if event.private_to in g.players)
        assert event.list.player == game.opponent_of(event.private_to or 0)
        assert verify_list(
            "ev1",
            event.list.player,
            event.list.faction,
            event.list.text,
            event.list.nonce,
            event.list.commitment,
        )
    assert all(len(entry.shown_to) == 1 for entry in state.lists.values())


def test_the_waitlist_moves_up_when_an_entrant_leaves_and_late_entries_are_the_organisers() -> None:
    state = signed_up(13, capacity=12)
    assert [e.player for e in state.waitlist] == [112]
    state, happened = step(state, Leave(actor=100, player=100))
    assert happened == [ev.Left(player=100, waitlisted=False), ev.Promoted(player=112)]
    state, _ = step(state, CloseLists(actor=ORG, now=DEADLINE))
    refused(state, Join(actor=200, player=200), "event.signup_closed")
    state, happened = step(state, Join(actor=ORG, player=200))
    assert happened == [ev.Joined(player=200, waitlisted=True, position=1, late=True)]
    state, _ = step(state, Leave(actor=101, player=101))
    assert state.entrant(200) is not None


def test_a_bye_given_to_a_player_whose_opponent_dropped() -> None:
    state, _ = step(signed_up(4), CloseLists(actor=ORG, now=DEADLINE))
    state, _ = step(state, PublishRound(actor=ORG, seed=1))
    game = state.round_games()[0]
    assert game.second is not None
    refused(state, GiveBye(actor=ORG, player=game.first), "event.bye_paired")
    state, _ = step(state, Drop(actor=ORG, player=game.second))
    state, happened = step(state, GiveBye(actor=ORG, player=game.first))
    assert happened == [ev.ByeGiven(round=1, player=game.first)]
    assert [g for g in state.round_games() if game.first in g.players] == [
        Game(round=1, table=0, first=game.first)
    ]


def test_refusals_before_round_one() -> None:
    state = signed_up(4)
    submit = SubmitList(actor=100, player=100, faction="Orks", text="x", nonce="n", now=900)
    refused(state, RejectList(actor=100, player=101, reason="no"), "event.not_organiser")
    refused(state, CloseLists(actor=100, now=DEADLINE), "event.not_organiser")
    refused(state, PublishRound(actor=100, seed=1), "event.not_organiser")
    refused(state, PublishRound(actor=ORG, seed=1), "event.close_lists_first")
    refused(state, Join(actor=100, player=100), "event.already_entered")
    refused(state, Join(actor=100, player=150), "event.not_yours")
    refused(state, submit.model_copy(update={"text": "x" * 10_001}), "event.list_too_long")
    refused(state, submit.model_copy(update={"now": DEADLINE + 1}), "event.list_late")
    refused(state, submit.model_copy(update={"actor": 101}), "event.not_yours")
    refused(state, submit.model_copy(update={"actor": 150, "player": 150}), "event.not_entered")
    refused(state, RejectList(actor=ORG, player=100, reason="no"), "event.no_list")
    refused(
        state,
        ReportResult(actor=100, round=1, first=100, second=101, first_vp=1, second_vp=0),
        "event.no_round",
    )
    refused(state, Drop(actor=100, player=100), "event.not_started")
    state, _ = step(state, submit)
    state, _ = step(state, RejectList(actor=ORG, player=100, reason="no"))
    refused(state, RejectList(actor=ORG, player=100, reason="again"), "event.list_rejected_already")
    state, _ = step(state, CloseLists(actor=ORG, now=DEADLINE))
    refused(state, CloseLists(actor=ORG, now=DEADLINE), "event.lists_closed_already")
    refused(state, submit.model_copy(update={"actor": 101, "player": 101}), "event.list_late")
    refused(signed_up(2, list_deadline=None), submit, "event.no_lists")


def test_refusals_during_the_rounds() -> None:
    state, _ = step(signed_up(5), CloseLists(actor=ORG, now=DEADLINE))
    state, _ = step(state, PublishRound(actor=ORG, seed=1))
    game = next(g for g in state.round_games() if not g.is_bye)
    bye = next(g for g in state.round_games() if g.is_bye)
    other = next(p for p in PLAYERS[:5] if p not in game.players)
    assert game.second is not None
    result = ReportResult(
        actor=game.first, round=1, first=game.first, second=game.second, first_vp=5, second_vp=3
    )
    refused(state, result.model_copy(update={"second": other}), "event.game_not_in_round")
    refused(state, result.model_copy(update={"round": 2}), "event.game_not_in_round")
    refused(state, result.model_copy(update={"actor": other}), "event.not_yours")
    refused(state, result.model_copy(update={"first_vp": -1}), "event.vp_range")
    refused(
        state,
        ReportResult(actor=ORG, round=1, first=bye.first, second=bye.first, first_vp=1, second_vp=0),
        "event.bye_result",
    )
    refused(state, Join(actor=ORG, player=300), "event.started")
    refused(
        state,
        SubmitList(actor=game.first, player=game.first, faction="Orks", text="x", nonce="n", now=1),
        "event.started",
    )
    refused(state, StartTopCut(actor=ORG), "event.no_top_cut")
    refused(state, Drop(actor=game.first, player=game.second), "event.not_yours")
    refused(state, GiveBye(actor=game.first, player=game.first), "event.not_organiser")
    state, _ = step(state, result)
    refused(state, result.model_copy(update={"actor": game.second}), "event.result_in")
    state, happened = step(state, result.model_copy(update={"actor": ORG, "first_vp": 1}))
    assert isinstance(happened[0], ev.ResultReported) and happened[0].corrected
    state = report_all(state)
    state, _ = step(state, PublishRound(actor=ORG, seed=2))
    refused(state, result.model_copy(update={"actor": game.second}), "event.round_over")
    state, _ = step(
        state, result.model_copy(update={"actor": ORG, "first_vp": 0, "second_vp": 9})
    )  # a correction
    state, _ = step(state, Drop(actor=other, player=other))
    refused(state, Drop(actor=other, player=other), "event.dropped_already")
    state, _ = step(state, Cancel(actor=ORG))
    refused(state, PublishRound(actor=ORG, seed=3), "event.cancelled")


def test_as_organiser_lets_the_bot_say_who_may_organise() -> None:
    state = signed_up(2)
    state, _ = step(state, CloseLists(actor=999, as_organiser=True, now=DEADLINE))
    assert state.phase is Phase.LISTS_CLOSED


def test_settings_are_checked_when_the_event_is_made() -> None:
    for changes, code in [
        ({"name": "  "}, "event.name_missing"),
        ({"capacity": 1}, "event.capacity"),
        ({"rounds": 0}, "event.rounds"),
        ({"round_minutes": 5}, "event.round_minutes"),
        ({"list_deadline": 6_000}, "event.deadline_after_start"),
        ({"scoring": Scoring(win=0, draw=1)}, "event.scoring_order"),
        ({"scoring": Scoring(tiebreakers=("sos", "sos"))}, "event.tiebreaker_twice"),
    ]:
        with pytest.raises(RuleError) as refusal:
            start("ev", ORG, settings(**changes))
        assert refusal.value.code == code
