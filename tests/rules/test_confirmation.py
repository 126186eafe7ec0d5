"""The shared confirmation protocol (rules/confirmation.py), played by a toy game of two players.

The toy game takes three kinds of move: asking for an irreversible step (`Ask`), answering the
waiting request (`ConfirmPending`, with any serial), and any other move (`Other`), which only
counts while nothing waits. Whatever the order, from either player: a step is taken only on a
Confirm naming the waiting request, Not yet changes nothing, and nothing else is taken meanwhile.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import confirmation
from rules.confirmation import CONFIRM, NOT_YET, Confirmation, ConfirmPending, Request
from rules.errors import RuleError
from rules.session import Action, Answer, check_answer
from rules.words import Words

ALICE, BOB = 1, 2
PLAYERS = [ALICE, BOB]


class Ask(Action):
    kind: Literal["ask"] = "ask"
    what: int


class Other(Action):
    kind: Literal["other"] = "other"


Move = Ask | ConfirmPending | Other


@dataclass(frozen=True)
class Toy:
    """A game that keeps the steps it took and the moves it counted, and asks for confirmations."""

    confirmation: Confirmation[Ask] = field(default_factory=Confirmation[Ask])
    taken: tuple[int, ...] = ()
    others: int = 0


def step(game: Toy, move: Move) -> Toy:
    if isinstance(move, ConfirmPending):
        cleared, answered = confirmation.answer(game.confirmation, move)
        taken = (*game.taken, answered.request.action.what) if answered.confirmed else game.taken
        return Toy(cleared, taken, game.others)
    if isinstance(move, Ask):
        return Toy(confirmation.request(game.confirmation, move.actor, move), game.taken, game.others)
    confirmation.require_none_pending(game.confirmation)
    return Toy(game.confirmation, game.taken, game.others + 1)


players = st.sampled_from(PLAYERS)
moves: st.SearchStrategy[Move] = st.one_of(
    st.builds(Ask, actor=players, what=st.integers(0, 9)),
    st.builds(ConfirmPending, actor=players, serial=st.integers(0, 6), confirm=st.booleans()),
    st.builds(Other, actor=players),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(moves, max_size=30))
def test_a_step_is_taken_only_on_a_confirm_of_the_waiting_request(sequence: list[Move]) -> None:
    game = Toy()
    for move in sequence:
        before = game
        pending = before.confirmation.pending
        try:
            game = step(game, move)
        except RuleError as refused:
            assert refused.code in confirmation.CODES
            expected = _refusal(before, move)
            assert (refused.code, refused.params) == expected, move
            continue
        assert _refusal(before, move) is None, move
        if isinstance(move, ConfirmPending):
            assert pending is not None and move.serial == pending.serial
            assert game.confirmation == Confirmation[Ask](asked=before.confirmation.asked)
            if move.confirm:  # either player: the other's confirm, or the asker's own
                assert game.taken == (*before.taken, pending.action.what)
            else:  # not yet: nothing but the request changes
                assert (game.taken, game.others) == (before.taken, before.others)
        elif isinstance(move, Ask):
            assert game.confirmation.pending == Request[Ask](
                serial=before.confirmation.asked, by=move.actor, action=move
            )
            assert game.confirmation.asked == before.confirmation.asked + 1
            assert (game.taken, game.others) == (before.taken, before.others)
        else:
            assert pending is None and game.others == before.others + 1
    # every request ever asked has its own serial, so there are never more steps than requests
    assert len(game.taken) <= game.confirmation.asked


def _refusal(game: Toy, move: Move) -> tuple[str, dict[str, int]] | None:
    """The refusal the protocol owes `move`, worked out apart from its code."""
    pending = game.confirmation.pending
    if isinstance(move, ConfirmPending):
        if pending is None:
            return confirmation.NOTHING_PENDING, {}
        return None if move.serial == pending.serial else (confirmation.STALE, {})
    return None if pending is None else (confirmation.PENDING, {"by": pending.by})


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(players, st.booleans()), min_size=1, max_size=6), players, st.booleans())
def test_a_stale_confirm_never_confirms_a_newer_request(
    earlier: list[tuple[int, bool]], clicker: int, yes: bool
) -> None:
    """Requests answered before, then a new one: a click naming any earlier one is refused and
    changes nothing; a click naming the new one is taken."""
    game = Toy()
    for asker, answer in earlier:
        game = step(game, Ask(actor=asker, what=0))
        serial = game.confirmation.asked - 1
        game = step(game, ConfirmPending(actor=asker, serial=serial, confirm=answer))
    game = step(game, Ask(actor=ALICE, what=7))
    for serial in range(game.confirmation.asked - 1):
        with pytest.raises(RuleError) as refused:
            step(game, ConfirmPending(actor=clicker, serial=serial, confirm=yes))
        assert refused.value.code == "confirm.stale"
    after = step(game, ConfirmPending(actor=clicker, serial=game.confirmation.asked - 1, confirm=yes))
    assert after.taken == ((*game.taken, 7) if yes else game.taken)


@given(players, st.integers(0, 50), st.sampled_from([CONFIRM, NOT_YET]))
def test_the_question_names_its_request_and_its_answer_is_the_action(
    by: int, serial: int, value: str
) -> None:
    pending = Request[Ask](serial=serial, by=by, action=Ask(actor=by, what=1))
    question = confirmation.question(
        pending, PLAYERS, prefix="end.", topic="toy.end", title=Words.verbatim("End?")
    )
    assert question.step == f"end.{serial}" and question.players == PLAYERS
    assert [(o.value, str(o.label)) for o in question.options] == [(CONFIRM, "Confirm"), (NOT_YET, "Not yet")]
    assert (question.params["by"], question.params["serial"]) == (by, serial)
    assert question.text == confirmation.HOW
    for player in PLAYERS:  # both are asked, so the asker may confirm their own
        answer = Answer(actor=player, step=question.step, values=[value])
        assert check_answer([question], answer) is question
        assert confirmation.to_action(question, player, [value]) == ConfirmPending(
            actor=player, serial=serial, confirm=value == CONFIRM
        )


def test_the_old_shape_is_read_as_the_shared_one() -> None:
    old = {"session_id": "s", "pending": {"serial": 2, "by": BOB}, "ends": 3}
    shaped = confirmation.from_old_shape(old, "pending", "ends", lambda o: {"kind": "ask", "actor": o["by"]})
    assert shaped == {
        "session_id": "s",
        "confirmation": {
            "pending": {"serial": 2, "by": BOB, "action": {"kind": "ask", "actor": BOB}},
            "asked": 3,
        },
    }
    assert confirmation.from_old_shape({"session_id": "s"}, "pending", "ends") == {"session_id": "s"}
    assert confirmation.from_old_shape("raw", "pending", "ends") == "raw"
