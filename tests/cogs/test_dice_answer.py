"""The `/roll` answer: its fast form (one `str.format` kept per language and notation) says exactly
what the answer worded sentence by sentence says, in every language, for every roll."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.chat.limits import CONTENT
from bot.lang.i18n import LANGUAGES, speaking
from cogs.dice import _, describe_roll, roll_answer
from rules.dice import Roller, RollResult, roll_notation

PLAYER = 123456789012345678


def worded(result: RollResult, player: int) -> tuple[str, str | None]:
    """The answer as it was first written: every sentence looked up and filled in per roll."""
    head = "🎲 " + _("{player} rolled {dice}", player=f"<@{player}>", dice=f"`{result.notation}`") + "\n"
    text, every_die = describe_roll(result, CONTENT - len(head))
    return head + text, every_die


@st.composite
def notations(draw: st.DrawFn) -> str:
    """Plain terms mostly (the fast form's), some keeping or counting dice, signs, modifiers, spaces,
    and now and then a roll too long for one message."""
    terms = []
    for index in range(draw(st.integers(1, 4))):
        count = draw(st.sampled_from(["", "1", "2", "3", "10", "250"]))
        text = f"{count}d{draw(st.sampled_from([3, 6, 20, 999]))}"
        extra = draw(st.sampled_from(["", "", "", "kh1", "kl1", ">=4"]))
        sign = "" if index == 0 else draw(st.sampled_from(["+", "-", " + "]))
        terms.append(sign + text + extra)
    modifier = draw(st.sampled_from(["", "+2", "-1", "+0", "+1000000"]))
    return "".join(terms) + modifier


@settings(max_examples=200, deadline=None)
@given(
    notation=notations(),
    seed=st.integers(0, 2**32),
    lang=st.sampled_from(LANGUAGES),
    player=st.sampled_from([PLAYER, 1]),
)
def test_the_fast_answer_says_what_the_worded_answer_says(
    notation: str, seed: int, lang: str, player: int
) -> None:
    result = roll_notation(notation, Roller(random.Random(seed)))
    with speaking(lang):
        fast = roll_answer(result, player)
        again = roll_answer(result, player)  # the second from the kept form
        assert fast == again == worded(result, player)
        assert len(fast[0]) <= CONTENT


def test_a_plain_roll_reads_as_before() -> None:
    result = roll_notation("3d6+2", Roller(random.Random(1)))
    dice = ", ".join(map(str, result.terms[0].dice))
    with speaking("en"):
        content, every_die = roll_answer(result, PLAYER)
    assert content == f"🎲 <@{PLAYER}> rolled `3d6+2`\n3d6: [{dice}]\n+2\nTotal: **{result.total}**"
    assert every_die is None
