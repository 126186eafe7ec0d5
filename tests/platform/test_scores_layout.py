"""Leaderboard pages always fit Discord's embed limits; the PNG is a real image of the whole table."""

from __future__ import annotations

import io
import re
from datetime import UTC, datetime

from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from bot.chat.limits import EMBED_DESCRIPTION, EMBED_FOOTER, EMBED_TITLE, EMBED_TOTAL, FIELD_VALUE
from bot.scores.image import MAX_IMAGE_ROWS, leaderboard_png, render_table
from bot.scores.layout import (
    EmbedField,
    EmbedPage,
    fit_lines,
    format_change,
    history_line,
    leaderboard_header,
    leaderboard_pages,
    needs_image,
    paginate,
    plain_name,
    score_line,
    signed,
)
from rules.scores import INITIAL, Rating, RatingChange, ResultRecord, Standing


def table(count: int, big_ids: bool = False) -> list[Standing]:
    base = 10**19 if big_ids else 1000  # real snowflakes are up to 20 digits
    return [
        Standing(
            rank=i,
            player=base + i,
            games=99_999,
            wins=33_333,
            draws=33_333,
            losses=33_333,
            points_for=123_456,
            points_against=654_321,
            rating=Rating(mu=50.0 - i * 0.01, sigma=1.0),
        )
        for i in range(1, count + 1)
    ]


@settings(max_examples=60, deadline=None)
@given(
    count=st.integers(min_value=0, max_value=120),
    title=st.text(max_size=400),
    subtitle=st.text(max_size=400),
    per_page=st.integers(min_value=1, max_value=200),
    big=st.booleans(),
)
def test_pages_never_exceed_embed_limits(
    count: int, title: str, subtitle: str, per_page: int, big: bool
) -> None:
    rows = table(count, big_ids=big)
    pages = leaderboard_pages(rows, title=title, subtitle=subtitle, per_page=per_page)
    assert pages
    for page in pages:
        assert page.within_limits()
        assert len(page.description) <= EMBED_DESCRIPTION and len(page.title) <= EMBED_TITLE
        assert len(page.footer) <= EMBED_FOOTER and page.total_chars() <= EMBED_TOTAL
    # Every player appears exactly once, in rank order.
    shown = re.findall(r"<@(\d+)>", "\n".join(p.description for p in pages))
    assert [int(p) for p in shown] == [s.player for s in rows]


def test_past_one_embed_it_pages() -> None:
    pages = leaderboard_pages(table(40), title="Warcry — Season 1")
    assert len(pages) == 3
    assert [p.footer for p in pages] == [
        "Page 1 of 3 · 40 players",
        "Page 2 of 3 · 40 players",
        "Page 3 of 3 · 40 players",
    ]
    assert pages[0].description.startswith(leaderboard_header())
    assert pages[0].description.splitlines()[1] == (
        "`  1` <@1001> — 99999 · 33333-33333-33333 · 123456–654321 · **1940**"
    )
    assert not needs_image(pages)
    assert needs_image(leaderboard_pages(table(250), title="Big"))


def test_empty_table_is_one_friendly_page() -> None:
    pages = leaderboard_pages([], title="Warcry", subtitle="Season 2")
    assert len(pages) == 1 and "No confirmed games yet" in pages[0].description


def test_plain_names() -> None:
    assert plain_name("a`b```c\nd") == "aˋbˋˋˋc d"
    assert plain_name("x" * 40) == "x" * 31 + "…"
    assert plain_name("   ") == "?"


def test_paginate_clips_a_line_longer_than_the_budget() -> None:
    assert paginate(["a" * 50, "b"], per_page=5, budget=10) == [["a" * 9 + "…"], ["b"]]
    assert paginate([], budget=10) == [[]]


@given(st.lists(st.text(max_size=2000), max_size=60), st.integers(min_value=20, max_value=FIELD_VALUE))
def test_fit_lines_stays_within_the_limit(lines: list[str], limit: int) -> None:
    text = fit_lines(lines, limit)
    assert 0 < len(text) <= limit and text.strip()


def test_fit_lines_says_how_many_were_left_out() -> None:
    lines = [f"line {i:02}" for i in range(10)]  # 7 characters each
    assert fit_lines(lines, 40) == "line 00\nline 01\nline 02\n…and 7 more"
    assert fit_lines(lines[:2], 40) == "line 00\nline 01"
    assert fit_lines([], 40) == "—"


def test_embed_page_limit_check() -> None:
    assert not EmbedPage(title="t", description="x" * 4097).within_limits()
    assert not EmbedPage(title="t", description="", fields=(EmbedField("n", "v" * 1025),)).within_limits()
    assert not EmbedPage(
        title="t", description="x" * 4000, fields=(EmbedField("n", "v" * 1000), EmbedField("n", "v" * 1000))
    ).within_limits()
    assert EmbedPage(title="t", description="x" * 4000, fields=(EmbedField("n", "v" * 1000),)).within_limits()


def test_result_lines() -> None:
    r = ResultRecord(
        id=1,
        system="warcry",
        mission="Dominate",
        player_a=1,
        player_b=2,
        score_a=20,
        score_b=15,
        winner=1,
        played_at=datetime(2025, 5, 4, 20, 30, tzinfo=UTC),
    )
    assert score_line(r) == "**<@1>** 20 – 15 <@2>"
    assert score_line(r, {1: "Ann"}) == "**Ann** 20 – 15 user 2"
    assert history_line(r) == "<t:1746390600:d> warcry · Dominate: **<@1>** 20 – 15 <@2>"
    draw = r.model_copy(update={"winner": None})
    assert history_line(draw).endswith("(draw)")
    assert [signed(n) for n in (5, 0, -3)] == ["+5", "±0", "−3"]
    gain = RatingChange(result_id=1, player=1, before=INITIAL, after=Rating(mu=30.0, sigma=7.0))
    assert format_change(gain) == f"1000 → {gain.after.display} (+{gain.after.display - 1000})"


def test_png_of_the_whole_table() -> None:
    rows = table(30)
    data = leaderboard_png(rows, {1001: "Ann ✦ Überwald", 1002: "x" * 80}, title="Warcry — all time")
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG"
    assert image.height > 30 * 20 and image.width > 300
    # The same input draws the same picture.
    assert data == leaderboard_png(rows, {1001: "Ann ✦ Überwald", 1002: "x" * 80}, title="Warcry — all time")


def test_png_of_an_empty_table_and_a_very_long_one() -> None:
    empty = Image.open(io.BytesIO(leaderboard_png([], {}, title="Nothing yet")))
    assert empty.format == "PNG"
    rows = [[str(i), "name"] for i in range(MAX_IMAGE_ROWS + 5)]
    tall = Image.open(io.BytesIO(render_table("Long", [("#", "right"), ("Name", "left")], rows)))
    short = Image.open(io.BytesIO(render_table("Long", [("#", "right"), ("Name", "left")], rows[:10])))
    assert tall.height < (MAX_IMAGE_ROWS + 10) * 24 + 200
    assert tall.height > short.height


def test_initial_rating_shows_1000() -> None:
    assert INITIAL.display == 1000
