"""rules/text.py: the one clip, list fit and echo every game and the bot share."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.text import clip, echo, fit_lines


@settings(max_examples=200, deadline=None)
@given(text=st.text(max_size=300), limit=st.integers(0, 200))
def test_clip_stays_within_the_limit_and_keeps_what_fits(text: str, limit: int) -> None:
    cut = clip(text, limit)
    assert len(cut) <= limit
    if len(text) <= limit:
        assert cut == text
    elif limit > 0:
        assert cut.endswith("…") and text.startswith(cut[:-1])


@settings(max_examples=200, deadline=None)
@given(text=st.text(max_size=5000), limit=st.integers(1, 300))
def test_echo_is_one_short_line_safe_between_backticks(text: str, limit: int) -> None:
    shown = echo(text, limit)
    assert len(shown) <= limit
    assert "`" not in shown
    assert "\n" not in shown and "\r" not in shown
    assert shown == shown.strip()


def test_echo_keeps_ordinary_input_as_typed() -> None:
    assert echo("marked-for-death") == "marked-for-death"
    assert echo("  two\nlines  ") == "two lines"
    assert echo("a" * 500).endswith("…") and len(echo("a" * 500)) == 100


@settings(max_examples=100, deadline=None)
@given(lines=st.lists(st.text(max_size=80), max_size=60), limit=st.integers(20, 1024))
def test_fit_lines_stays_within_the_limit(lines: list[str], limit: int) -> None:
    assert len(fit_lines(lines, limit)) <= limit
