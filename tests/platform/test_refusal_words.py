"""Every refusal the shared prompt contract (rules/session.py `check_answer`) raises has English
words, and a refusal naming a question shows its title (tests/rules/test_questions.py holds the
codes themselves)."""

from __future__ import annotations

import pytest

from bot.lang.text import ENGLISH, add_words, refusal
from rules.errors import RuleError
from rules.session import Answer, check_answer
from tests.rules.test_questions import ALICE, CONTRACT_CODES, PICK_TWO


def test_every_code_the_contract_raises_has_english_words() -> None:
    assert CONTRACT_CODES <= ENGLISH.keys()
    assert refusal(RuleError(code="answer.count", minimum=2, maximum=2)) == "Pick 2 options here."


def test_a_stale_answer_is_told_where_the_game_is() -> None:
    with pytest.raises(RuleError) as caught:
        check_answer([PICK_TWO], Answer(actor=ALICE, step="veto.2", values=["a", "b"]))
    assert "Put forward two missions" in refusal(caught.value)


def test_a_game_adds_its_words_once_and_a_second_wording_is_refused() -> None:
    add_words({"toy.too_many": "At most {limit} toys."})
    add_words({"toy.too_many": "At most {limit} toys."})  # the same words again: harmless
    assert refusal(RuleError(code="toy.too_many", limit=3)) == "At most 3 toys."
    with pytest.raises(ValueError):
        add_words({"toy.too_many": "No more than {limit}."})
    del ENGLISH["toy.too_many"]
