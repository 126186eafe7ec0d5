"""Every scores refusal code has its English, and the sentences read as they did before codes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import cogs.scores  # noqa: F401  registers the scores words, as loading the bot does
from bot.lang.text import FALLBACK, refusal
from cogs.scores.text import ENGLISH
from rules.errors import RuleError
from rules.scores import MAX_SCORE, check_manual_entry

ROOT = Path(__file__).resolve().parents[3]
SOURCES = [*ROOT.glob("bot/scores/*.py"), *ROOT.glob("rules/scores/*.py"), *ROOT.glob("cogs/scores/*.py")]


def raised_codes() -> set[str]:
    """The codes the scores code raises: literal ones, and `{side}` ones for both sides."""
    codes: set[str] = set()
    for source in SOURCES:
        text = source.read_text(encoding="utf-8")
        codes.update(re.findall(r'code="(scores\.[a-z_]+)"', text))
        for pattern in re.findall(r'code=f"(scores\.\{side\}[a-z_]+)"', text):
            codes.update(pattern.replace("{side}", side) for side in ("my", "their"))
    return codes


def test_every_raised_code_is_worded_and_every_word_is_used() -> None:
    codes = raised_codes()
    assert len(codes) > 30
    assert codes == set(ENGLISH)


def entry(**changes: object) -> None:
    values: dict[str, object] = {
        "reporter": 1,
        "opponent": 2,
        "opponent_is_bot": False,
        "system": "warcry",
        "my_score": 3,
        "their_score": 1,
    }
    values.update(changes)
    check_manual_entry(**values)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("changes", "sentence"),
    [
        ({"opponent": 1}, "You can't record a game against yourself. Pick your opponent."),
        ({"system": "x" * 40}, "The game system name is too long (at most 32 characters)."),
        ({"their_score": -5}, "Their score can't be negative."),
        (
            {"my_score": MAX_SCORE + 1},
            f"Your score of {MAX_SCORE + 1} looks like a typo (the most allowed is {MAX_SCORE}).",
        ),
        ({"my_faction": "f" * 101}, "Your faction name is too long (at most 100 characters)."),
    ],
)
def test_manual_entry_refusals_read_as_sentences(changes: dict[str, object], sentence: str) -> None:
    with pytest.raises(RuleError) as caught:
        entry(**changes)
    assert refusal(caught.value) == sentence


def test_a_refusal_with_values_fills_them_in() -> None:
    error = RuleError(code="scores.only_opponent", opponent=42, action="dispute")
    assert refusal(error) == "Only <@42>, the opponent in this game, can dispute this result."
    assert refusal(RuleError(code="scores.no_such_season", name="Winter", known="Spring, Summer")) == (
        "There is no season called **Winter** in this server. Seasons here: Spring, Summer, or `all`."
    )
    assert refusal(RuleError(code="scores.no_result")) == FALLBACK  # a missing value is never shown raw
