"""Ending the game early: one player's request waits for a confirmation, asked of both players."""

from __future__ import annotations

import json

import pytest

from rules.confirmation import Confirmation
from rules.errors import RuleError
from rules.killteam import PROCEDURE, ConfirmPending, Done, EndGame, EndTurningPoint, RevealTacOp, Score
from rules.killteam.events import EndAnswered, EndAsked, GameEnded
from rules.killteam.models import KillTeamState
from rules.killteam.questions import to_action
from rules.session import Answer, Question
from tests.rules.killteam.killteam_helpers import ALICE, BOB, Table


def in_battle() -> Table:
    table = Table("organised", "acquired", mission="Secure", map="B7")
    table.auto(until="battle")
    table.act(Score(actor=BOB, mission_vp=2))
    return table


def answer(table: Table, player: int, step: str, value: str) -> None:
    table.state, events = PROCEDURE.answer(
        table.state, Answer(actor=player, step=step, values=[value]), table.roller
    )
    table.events += events


def refused_answer(state: KillTeamState, player: int, step: str, value: str) -> str:
    before = state.model_dump_json()
    with pytest.raises(RuleError) as refused:
        PROCEDURE.answer(
            state, Answer(actor=player, step=step, values=[value]), Table("random", "free").roller
        )
    assert state.model_dump_json() == before
    return refused.value.code


def end_question(state: KillTeamState, player: int) -> Question:
    asked = PROCEDURE.ask(state, player)
    assert asked and asked[0].topic == "killteam.end"
    return asked[0]


def test_a_request_to_end_waits_and_the_other_players_confirm_ends_the_game() -> None:
    table = in_battle()
    battle = PROCEDURE.ask(table.state, ALICE)
    assert [q.topic for q in battle] == ["killteam.battle"]
    events = table.act(EndGame(actor=ALICE))
    assert events == [EndAsked(by=ALICE)]
    assert not table.state.finished and table.state.outcome is None
    # both are asked, the confirmation first; the game's own question stays asked meanwhile
    for player in (ALICE, BOB):
        asked = PROCEDURE.ask(table.state, player)
        assert asked[1:] == battle
        question = asked[0]
        assert (question.step, str(question.title), question.players) == (
            "end.0",
            "End the game now?",
            [ALICE, BOB],
        )
        assert [(o.value, str(o.label)) for o in question.options] == [
            ("confirm", "Confirm"),
            ("not_yet", "Not yet"),
        ]
        assert question.params["by"] == ALICE
    # nothing else is taken while it waits
    for action in (
        Score(actor=BOB, mission_vp=1),
        EndTurningPoint(actor=ALICE, turning_point=1),
        RevealTacOp(actor=ALICE, tac_op="x"),
        Done(actor=BOB, step="battle.1"),
    ):
        assert table.refused(action) == ("confirm.pending", {"by": ALICE})
    assert refused_answer(table.state, BOB, "battle.1", "end") == "confirm.pending"
    assert table.refused(EndGame(actor=ALICE)) == ("confirm.pending", {"by": ALICE})
    question = end_question(table.state, BOB)
    assert to_action(
        table.state, question, Answer(actor=BOB, step="end.0", values=["confirm"])
    ) == ConfirmPending(actor=BOB, serial=0, confirm=True)
    answer(table, BOB, "end.0", "confirm")
    assert table.state.finished and table.state.pending is None
    assert table.of(EndAnswered) == [EndAnswered(player=BOB, by=ALICE, confirmed=True)]
    (ended,) = table.of(GameEnded)
    assert ended.outcome.winner == BOB and "ended early in turning point 1" in ended.outcome.summary
    assert PROCEDURE.ask(table.state, ALICE) == PROCEDURE.ask(table.state, BOB) == []


def test_not_yet_from_either_player_withdraws_the_request_and_changes_nothing_else() -> None:
    for answering in (BOB, ALICE):
        table = in_battle()
        before = table.state
        table.act(EndGame(actor=ALICE))
        answer(table, answering, "end.0", "not_yet")
        assert table.of(EndAnswered) == [EndAnswered(player=answering, by=ALICE, confirmed=False)]
        assert table.state == before.model_copy(update={"confirmation": Confirmation[EndGame](asked=1)})
        assert [q.topic for q in PROCEDURE.ask(table.state, ALICE)] == ["killteam.battle"]
        table.act(Score(actor=ALICE, mission_vp=1))  # play goes on
        assert table.state.scores[ALICE].total == 1 and not table.state.finished


def test_the_player_who_asked_may_confirm_their_own() -> None:
    table = in_battle()
    table.act(EndGame(actor=BOB))
    answer(table, BOB, "end.0", "confirm")
    assert table.state.finished and table.of(EndAnswered) == [EndAnswered(player=BOB, by=BOB, confirmed=True)]


def test_the_other_player_asking_too_is_their_confirmation() -> None:
    table = in_battle()
    table.act(EndGame(actor=ALICE))
    events = table.act(EndGame(actor=BOB))
    assert events[0] == EndAnswered(player=BOB, by=ALICE, confirmed=True)
    assert table.state.finished


def test_a_stale_confirmation_never_confirms_a_newer_request() -> None:
    table = in_battle()
    assert table.refused(ConfirmPending(actor=BOB, serial=0, confirm=True)) == ("confirm.nothing_pending", {})
    assert refused_answer(table.state, BOB, "end.0", "confirm") == "answer.stale"
    table.act(EndGame(actor=ALICE))
    answer(table, BOB, "end.0", "not_yet")
    table.act(EndGame(actor=ALICE))
    assert end_question(table.state, BOB).step == "end.1"
    # a click on the first request's Confirm, or its action, is refused and changes nothing
    assert refused_answer(table.state, BOB, "end.0", "confirm") == "answer.stale"
    assert table.refused(ConfirmPending(actor=BOB, serial=0, confirm=True)) == ("confirm.stale", {})
    assert not table.state.finished
    answer(table, BOB, "end.1", "confirm")
    assert table.state.finished


def test_a_request_during_a_sealed_bid_keeps_the_private_question_and_waits() -> None:
    table = Table("bid", "free")
    (bid,) = PROCEDURE.ask(table.state, ALICE)
    assert bid.private and bid.sealed
    table.act(EndGame(actor=ALICE))
    asked = PROCEDURE.ask(table.state, ALICE)
    assert [q.topic for q in asked] == ["killteam.end", "killteam.bid"] and asked[1] == bid
    assert table.refused(Done(actor=ALICE, step=bid.step)) == ("confirm.pending", {"by": ALICE})
    answer(table, BOB, "end.0", "not_yet")
    assert PROCEDURE.ask(table.state, ALICE) == [bid]
    table.bid(ALICE, 3)
    table.act(EndGame(actor=BOB))
    answer(table, ALICE, "end.1", "confirm")
    assert table.state.finished and table.state.outcome is None  # ended before its battle: no result


def test_a_game_saved_with_its_own_request_to_end_loads_and_confirms() -> None:
    """Saved when Kill Team kept its own request (`pending_end`, `ends_asked`): it loads as the
    shared confirmation, its posted buttons still answer it, and a Confirm ends the game."""
    table = in_battle()
    table.act(EndGame(actor=ALICE))
    posted = end_question(table.state, BOB)
    data = json.loads(table.state.model_dump_json())
    del data["confirmation"]
    data.update(pending_end={"serial": 0, "by": ALICE}, ends_asked=1)
    table.state = PROCEDURE.load(json.dumps(data))
    assert table.state.confirmation.asked == 1 and table.state.pending is not None
    assert table.state.pending.by == ALICE and table.state.pending.action == EndGame(actor=ALICE)
    assert end_question(table.state, BOB) == posted
    answer(table, BOB, posted.step, "confirm")
    assert table.state.finished and table.of(EndAnswered) == [
        EndAnswered(player=BOB, by=ALICE, confirmed=True)
    ]
