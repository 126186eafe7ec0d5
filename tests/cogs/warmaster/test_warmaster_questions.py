"""Warmaster's questions on their messages: the confirmation's words, the reply and
the board while one waits."""

from __future__ import annotations

import pytest

from bot.lang.text import add_words, refusal
from cogs.warmaster.adapter import reply_lines
from cogs.warmaster.board import board_status
from cogs.warmaster.questions import question_words
from cogs.warmaster.refusals import ENGLISH
from rules.errors import RuleError
from rules.session import Answer
from rules.warmaster import PROCEDURE, builtin_magic_deck
from rules.warmaster.actions import RevealCard
from rules.warmaster.questions import (
    CONFIRM,
)
from tests.rules.warmaster.warmaster_helpers import (
    ALICE,
    BOB,
    cards_laid,
    only,
    roller,
)

add_words(ENGLISH)
BY_NAME = {c.name: c for c in builtin_magic_deck()}
STRANGER = 4242


def test_confirmations_read_as_sentences() -> None:
    state = cards_laid()
    state, events = PROCEDURE.answer(state, Answer(actor=BOB, step="begin"), roller(1))
    lines = reply_lines(state, events, BOB)
    assert lines == [
        f"<@{BOB}> asks to begin the battle. It waits for <@{ALICE}> to confirm (or <@{BOB}> confirms "
        "their own)."
    ]
    assert board_status(state).startswith("**Waiting for a confirmation.**")
    text = question_words(state, only(state, ALICE, CONFIRM))
    assert text.startswith("**Begin the battle?**") and f"<@{ALICE}> confirms" in text
    with pytest.raises(RuleError) as caught:
        PROCEDURE.step(state, RevealCard(actor=ALICE, placement=1), roller(1))
    assert refusal(caught.value) == (
        f"A request by <@{BOB}> waits for a confirmation: answer it first, with Confirm or Not yet."
    )
    said_no, events = PROCEDURE.answer(
        state, Answer(actor=ALICE, step="confirm.0", values=["not_yet"]), roller(1)
    )
    assert reply_lines(said_no, events, ALICE)[0] == (
        f"<@{ALICE}> says not yet to <@{BOB}>'s request to begin the battle. Nothing changes."
    )
    begun, events = PROCEDURE.answer(
        state, Answer(actor=ALICE, step="confirm.0", values=["confirm"]), roller(1)
    )
    assert reply_lines(begun, events, ALICE)[:2] == [
        f"<@{ALICE}> confirms <@{BOB}>'s request to begin the battle.",
        "The battle has begun: no more cards can be laid.",
    ]
    own, events = PROCEDURE.answer(state, Answer(actor=BOB, step="confirm.0", values=["not_yet"]), roller(1))
    assert (
        reply_lines(own, events, BOB)[0]
        == f"<@{BOB}> takes back the request to begin the battle. Nothing changes."
    )
