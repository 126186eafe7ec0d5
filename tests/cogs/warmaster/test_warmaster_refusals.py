"""Warmaster's refusals as players read them: every code worded, values in sentences, nothing secret named."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import rules.warmaster
from bot.lang.text import ENGLISH as CATALOGUE
from bot.lang.text import add_words, refusal
from cogs.warmaster.refusals import ENGLISH
from rules.errors import RuleError
from rules.warmaster import (
    builtin_magic_deck,
)
from rules.warmaster.new_targets import (
    decode_new_target,
    typed_target,
)
from tests.rules.warmaster.warmaster_helpers import (
    ALICE,
    BOB,
    give,
    new_game,
    play,
    refused,
    unit,
)

BY_NAME = {c.name: c for c in builtin_magic_deck()}
MALFORMED = "warmaster.new_choice_malformed"
add_words(ENGLISH)
STRANGER = 4242


def test_a_restricted_card_on_the_wrong_target_says_only_once() -> None:
    """ "can go only on the General only" read twice; the carrier's words already say it."""
    state, _ = new_game()
    state = give(state, ALICE, BY_NAME["Crown of Command"])
    with pytest.raises(RuleError) as error:
        play(state, ALICE, "Crown of Command", unit("Spears"))
    add_words(ENGLISH)  # as the cog does when it loads
    words = refusal(error.value)
    assert words.count("only") == 1 and "can go on the General only" in words, words


@pytest.mark.parametrize(
    "value",
    [
        "new|",
        "new|unit|mine",
        "new|dragon|mine|||Smaug",
        "new|player|mine|||Me",
        "new|unit|neutral|||Orcs",
        "new|terrain|mine|||Wood",
        "new|unit|mine|wizard||Orcs",
        "new|character|enemy|cavalry||Grom",
        "new|terrain|neutral|infantry||Wood",
        "new|terrain|neutral||shoots|Wood",
        "new|unit|mine|infantry|yes|Orcs",
        "new|Unit|mine|infantry||Orcs",
    ],
)
def test_a_value_that_looks_like_a_choice_but_does_not_read_back_is_refused_politely(value: str) -> None:
    with refused(MALFORMED):
        decode_new_target(value)
    with pytest.raises(RuleError) as error:
        typed_target(value)
    add_words(ENGLISH)
    words = refusal(error.value)
    assert "could not read that new-target choice" in words and "{" not in words


def test_every_refusal_code_is_worded() -> None:
    source = "\n".join(p.read_text() for p in Path(rules.warmaster.__file__).parent.glob("*.py"))
    codes = set(re.findall(r'(?:code=|return )"(warmaster\.[a-z_]+)"', source))
    assert codes and codes <= ENGLISH.keys(), codes - ENGLISH.keys()
    assert all(CATALOGUE[code] == ENGLISH[code] for code in ENGLISH)


def test_refusals_read_as_sentences_with_mentions_made_by_the_cog() -> None:
    state, _ = new_game()
    try:
        play(state, BOB, state.side(BOB).hand[0].id, unit("Orcs"))
    except RuleError as error:
        assert error.params == {"player": ALICE}
        assert refusal(error) == f"It is <@{ALICE}>'s turn to lay a card."
    else:
        raise AssertionError("out of turn was not refused")
