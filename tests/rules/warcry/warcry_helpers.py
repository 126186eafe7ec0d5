"""Shared helpers for the Warcry rules tests: seeded dice, a sample club pack, and a checked step."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

import cogs.warcry  # noqa: F401  (loading the cog words its refusal codes, as when the bot loads it)
from bot.lang.text import FALLBACK, refusal
from rules.confirmation import ConfirmPending
from rules.dice import Roller
from rules.errors import RuleError
from rules.session import Event
from rules.warcry.battle import WarcryState
from rules.warcry.models import WarcryPack
from rules.warcry.pack import parse_pack
from rules.warcry.procedure import PROCEDURE

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
    """Expect a refusal with this code and (at least) these values, which its words all use."""
    with pytest.raises(RuleError) as caught:
        yield
    error = caught.value
    assert error.code == code, (error.code, error.params)
    assert refusal(error) != FALLBACK, f"{code} has no words, or lacks a value they need"
    for key, value in params.items():
        assert error.params.get(key) == value, (key, error.params)
