"""Shared helpers for the Warcry rules tests: seeded dice, a sample club pack, a checked step, a refusal
expected, and any legal answer to a question."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from hypothesis import strategies as st

from rules.confirmation import ConfirmPending
from rules.dice import Roller
from rules.errors import RuleError
from rules.session import Answer, Event, Question
from rules.warcry.battlegroups import valid_splits
from rules.warcry.models import WarcryState
from rules.warcry.pack import WarcryPack, parse_pack
from rules.warcry.procedure import PROCEDURE
from rules.words import Words

ALICE = 1001
BOB = 2002
PLAYERS = (ALICE, BOB)


# A made-up club pack (clearly not real cards) with cards with and without the Matched Play runemark.
CLUB_PACK = """
name: Test club cards
decks:
  terrain:
    - {name: Test Ruins 1, matched_play: true}
    - {name: Test Ruins 2, matched_play: false}
    - {name: Test Ruins 3, matched_play: true}
  deployment:
    - name: Test Lines
      matched_play: true
    - name: Test Flank
      matched_play: false
      red: {hammer: RND2}
      blue: {hammer: RND3}
  victory:
    - {name: Test Hold Fast, matched_play: true, summary: Hold the middle.}
    - {name: Test Slaughter, matched_play: false, scoring: reaper}
  twist:
    - {name: Test Fog, matched_play: false}
    - {name: Test Storm, matched_play: true}
"""


def roller(seed: int = 0) -> Roller:
    return Roller(random.Random(seed))


def club_pack() -> WarcryPack:
    return parse_pack(CLUB_PACK)


def play(state: WarcryState, action: Any, dice: Roller) -> tuple[WarcryState, list[Event]]:
    """Step through the Procedure, checking the input is untouched and the result survives JSON."""
    before = state.model_dump_json()
    new_state, events = PROCEDURE.step(state, action, dice)
    assert state.model_dump_json() == before, "step mutated its input state"
    assert PROCEDURE.load(PROCEDURE.dump(new_state)) == new_state
    return new_state, events


def confirmed(state: WarcryState, action: Any, dice: Roller) -> tuple[WarcryState, list[Event]]:
    """Play a step that waits for a confirmation (the end of a round, a tally recorded for the other
    player), then have the other player confirm it: the state after, and what the step itself did."""
    state, asked = play(state, action, dice)
    assert state.pending is not None and codes(asked) == ["confirm_asked"], codes(asked)
    confirm = ConfirmPending(actor=state.opponent(action.actor), serial=state.pending.serial, confirm=True)
    state, done = play(state, confirm, dice)
    assert state.pending is None and codes(done)[0] == "confirmed"
    return state, done[1:]


def codes(events: list[Event]) -> list[str]:
    return [getattr(e, "code", "") for e in events]


@contextmanager
def refused(code: str, **params: object) -> Iterator[None]:
    """Expect a refusal with this code and (at least) these values (a value the rules word, `Words`,
    compared by its English)."""
    with pytest.raises(RuleError) as caught:
        yield
    error = caught.value
    assert error.code == code, (error.code, error.params)
    for key, value in params.items():
        found = error.params.get(key)
        assert (str(found) if isinstance(found, Words) else found) == value, (key, error.params)


def legal_answer(data: st.DataObject, question: Question, player: int) -> Answer:
    """Any answer `question` allows, with a valid battle-group split where one is asked."""
    if question.kind == "done":
        return Answer(actor=player, step=question.step)
    if question.kind == "number":
        assert question.number is not None
        number = data.draw(st.integers(question.number.minimum, question.number.maximum))
        return Answer(actor=player, step=question.step, number=number)
    enabled = [o for o in question.options if not o.disabled]
    count = data.draw(st.integers(question.min_values, min(question.max_values, len(enabled))))
    picked = data.draw(st.permutations(enabled))[:count]
    fields: dict[str, str] = {}
    if question.topic == "warcry.split":
        split = data.draw(st.sampled_from(valid_splits(data.draw(st.integers(3, 15)))))
        fields = {"dagger": str(split.dagger), "shield": str(split.shield), "hammer": str(split.hammer)}
    else:
        for option in picked:
            for field in option.form:
                text = data.draw(st.text(st.characters(codec="utf-8"), min_size=1, max_size=field.max_length))
                fields[field.key] = text if text.strip() else "Champion"
    return Answer(actor=player, step=question.step, values=[o.value for o in picked], fields=fields)
