"""Pick's rules (rules/pick/): sealed picks revealed together, the higher pick winning, a draw only
on the other player's Confirm, the pack's range, and every answer checked against what is asked."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.confirmation import CONFIRM, NOT_YET
from rules.dice import Roller
from rules.errors import RuleError
from rules.packs import PackError
from rules.pick.actions import CallDraw, Pick
from rules.pick.events import Decided, DrawAnswered, DrawCalled
from rules.pick.models import PickState
from rules.pick.pack import parse_pack, shipped_pack
from rules.pick.procedure import PROCEDURE, start
from rules.pick.questions import CONFIRM_DRAW, PICK
from rules.pick.views import draw_called_by, picked, picks, winner
from rules.sealed import ChoicesRevealed, verify
from rules.session import Answer

ALICE, BOB = 1, 2
ROLLER = Roller(random.Random(1))


def new_game(highest: int | None = None) -> PickState:
    pack = parse_pack(f"name: Wide\nhighest: {highest}\n") if highest else None
    return start("0123456789ab", [ALICE, BOB], ROLLER, pack)[0]


def answer(state: PickState, player: int, step: str, value: str) -> tuple[PickState, list[object]]:
    said = Answer(actor=player, step=step, values=[value], nonce=f"n{player}")
    return PROCEDURE.answer(state, said, ROLLER)  # type: ignore[return-value]


def test_the_higher_pick_wins_once_both_are_revealed() -> None:
    state, events = answer(new_game(), ALICE, "pick", "3")
    assert picked(state) == [ALICE] and picks(state) == {} and not state.finished
    state, events = answer(state, BOB, "pick", "1")
    revealed = next(e for e in events if isinstance(e, ChoicesRevealed))
    assert all(
        verify(state.session_id, "pick", e.player, e.choice, e.nonce, e.commitment) for e in revealed.entries
    )
    assert [e for e in events if isinstance(e, Decided)] == [Decided(winner=ALICE, picks={ALICE: 3, BOB: 1})]
    assert state.finished and picks(state) == {ALICE: 3, BOB: 1} and winner(state) == ALICE
    assert state.outcome is not None and [s.score for s in state.outcome.sides] == [3, 1]


def test_equal_picks_draw() -> None:
    state, _events = answer(new_game(), ALICE, "pick", "2")
    state, _events = answer(state, BOB, "pick", "2")
    assert state.outcome is not None and state.outcome.winner is None


def test_each_player_is_asked_their_own_sealed_pick_in_the_packs_range() -> None:
    state = new_game(highest=5)
    [asked] = PROCEDURE.ask(state, ALICE)
    assert asked.topic == PICK and asked.sealed and asked.private and asked.players == [ALICE]
    assert str(asked.title) == "Pick a number in secret"
    assert [o.value for o in asked.options] == ["1", "2", "3", "4", "5"]
    state, _events = answer(state, ALICE, "pick", "5")
    assert PROCEDURE.ask(state, ALICE) == []


def test_a_pick_out_of_range_is_refused_by_code() -> None:
    with pytest.raises(RuleError) as refused:
        PROCEDURE.step(new_game(), Pick(actor=ALICE, value=4, nonce="n"), ROLLER)
    assert (refused.value.code, refused.value.params) == ("pick.range", {"low": 1, "high": 3})
    with pytest.raises(RuleError) as not_offered:
        answer(new_game(), ALICE, "pick", "4")
    assert not_offered.value.code == "answer.not_offered"


def test_a_draw_takes_the_other_players_confirm() -> None:
    state, events = PROCEDURE.step(new_game(), CallDraw(actor=ALICE), ROLLER)
    assert events == [DrawCalled(by=ALICE)] and draw_called_by(state) == ALICE
    confirm = next(q for q in PROCEDURE.ask(state, BOB) if q.topic == CONFIRM_DRAW)
    assert str(confirm.title) == "Call the game a draw?" and confirm.players == [ALICE, BOB]
    pick = next(q for q in PROCEDURE.ask(state, BOB) if q.topic == PICK)
    assert all(o.disabled for o in pick.options)  # paused while the call waits
    with pytest.raises(RuleError) as pending:
        PROCEDURE.step(state, Pick(actor=BOB, value=1, nonce="n"), ROLLER)
    assert pending.value.code == "confirm.pending"
    drawn, events = answer(state, BOB, confirm.step, CONFIRM)
    assert events == [DrawAnswered(by=ALICE, player=BOB, agreed=True)]
    assert drawn.finished and drawn.drawn and drawn.outcome is not None and drawn.outcome.winner is None


def test_not_yet_withdraws_the_call_and_a_stale_confirm_is_refused() -> None:
    state, _events = PROCEDURE.step(new_game(), CallDraw(actor=ALICE), ROLLER)
    first = next(q for q in PROCEDURE.ask(state, BOB) if q.topic == CONFIRM_DRAW)
    state, events = answer(state, BOB, first.step, NOT_YET)
    assert events == [DrawAnswered(by=ALICE, player=BOB, agreed=False)] and not state.finished
    assert draw_called_by(state) is None and not any(o.disabled for o in PROCEDURE.ask(state, BOB)[0].options)
    state, _events = PROCEDURE.step(state, CallDraw(actor=BOB), ROLLER)
    with pytest.raises(RuleError) as stale:
        answer(state, ALICE, first.step, CONFIRM)  # the button of the first call
    assert stale.value.code == "answer.stale" and not state.finished


def test_the_shipped_pack_and_a_servers_own() -> None:
    assert (shipped_pack().name, shipped_pack().highest) == ("Classic", 3)
    assert parse_pack("name: Wide\nhighest: 9\n").highest == 9
    with pytest.raises(PackError) as bad:
        parse_pack("name: Wide\nhighest: 30\n")
    assert any("line 2" in e for e in bad.value.errors)


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from([ALICE, BOB]),
            st.sampled_from(["pick", "draw.0", "draw.1", "x"]),
            st.sampled_from(["1", "3", "4", CONFIRM, NOT_YET]),
        ),
        max_size=8,
    )
)
def test_a_refused_answer_changes_nothing(moves: list[tuple[int, str, str]]) -> None:
    state = new_game()
    for player, step, value in moves:
        if state.finished:
            break
        before = state.model_dump()
        try:
            state, _events = answer(state, player, step, value)
        except RuleError:
            assert state.model_dump() == before
    assert state.finished == (state.outcome is not None)
