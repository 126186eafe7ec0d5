"""The one length guard (bot/chat/limits.py): whatever is built, what it returns Discord accepts.

The oracle is the emulator's validator (tests/emulator/validation.py), written from Discord's
documented limits independently of the guard.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import discord
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.chat.limits import CONTENT, EMBED_TOTAL, _cut_json, _fit_embed, fit, fit_embeds, fit_embeds_json
from cogs.dice import describe_roll
from rules.dice import MAX_DICE, Roller, roll_notation
from tests.emulator.validation import validate_message

texts = st.one_of(
    st.text(max_size=40),
    st.integers(0, 9000).map(lambda n: "x" * n),
    st.text(min_size=1, max_size=5).map(lambda s: s * 900),
)


@st.composite
def embeds(draw: st.DrawFn, texts: st.SearchStrategy[str] = texts, most_fields: int = 40) -> discord.Embed:
    embed = discord.Embed(title=draw(st.none() | texts), description=draw(st.none() | texts), colour=0x123456)
    for _ in range(draw(st.integers(0, most_fields))):
        embed.add_field(name=draw(texts), value=draw(texts), inline=draw(st.booleans()))
    if draw(st.booleans()):
        embed.set_footer(text=draw(texts))
    if draw(st.booleans()):
        embed.set_author(name=draw(texts))
    return embed


def payload(kwargs: dict[str, Any]) -> dict[str, Any]:
    """The JSON discord.py would send for these keyword arguments."""
    items = kwargs.get("embeds") or ([kwargs["embed"]] if kwargs.get("embed") else [])
    body: dict[str, Any] = {"embeds": [e.to_dict() for e in items]}
    if kwargs.get("content") is not None:
        body["content"] = kwargs["content"]
    if kwargs.get("view") is not None:
        body["components"] = kwargs["view"].to_components()
    return body


@settings(max_examples=150, deadline=None)
@given(content=st.none() | texts, many=st.lists(embeds(), max_size=12))
def test_whatever_is_built_discord_accepts(content: str | None, many: list[discord.Embed]) -> None:
    fitted = fit(content=content, embeds=many, ephemeral=True)
    errors = validate_message(payload(fitted), file_count=0, editing=True)
    assert not errors, errors.summary()
    assert fitted["ephemeral"] is True  # everything else passes through


@settings(max_examples=100, deadline=None)
@given(many=st.lists(embeds(), max_size=12))
def test_embeds_as_discords_json_are_cut_as_discord_py_embeds_are(many: list[discord.Embed]) -> None:
    """A click's answer fits its embeds as JSON (bot/chat/render.py `message_json`), the outbox as
    discord.py's: the same message either way, and the JSON given is never changed."""
    given_json = [e.to_dict() for e in many]
    before = copy.deepcopy(given_json)
    assert fit_embeds_json(given_json) == [e.to_dict() for e in fit_embeds(many)]
    assert given_json == before


@settings(max_examples=60, deadline=None)
@given(one=embeds())
def test_a_single_embed_fits_too(one: discord.Embed) -> None:
    fitted = fit(embed=one)
    errors = validate_message(payload(fitted), file_count=0, editing=True)
    assert not errors, errors.summary()


@settings(max_examples=200, deadline=None)
@given(one=embeds(st.text(max_size=30), 27) | embeds(), room=st.integers(0, EMBED_TOTAL))
def test_an_embed_kept_as_it_is_is_what_cutting_it_would_give(one: discord.Embed, room: int) -> None:
    """Short texts and up to 27 fields: embeds that `_fit_embed` keeps as they are, and near misses."""
    given = copy.deepcopy(one.to_dict())
    kept, left = _fit_embed(one, room)
    assert one.to_dict() == given  # the caller's embed is never cut in place
    cut, cut_left = _cut_json(one.to_dict(), room)
    assert left == cut_left
    assert (kept and kept.to_dict()) == (cut and discord.Embed.from_dict(cut).to_dict())


def test_cutting_an_embed_leaves_the_callers_own_as_it_was() -> None:
    embed = discord.Embed(title="Long").set_author(name="a" * 300).set_footer(text="f" * 3000)
    (fitted,) = fit_embeds([embed])
    assert fitted.author.name is not None and fitted.author.name.endswith("…")
    assert (embed.author.name, embed.footer.text) == ("a" * 300, "f" * 3000)


def test_long_content_is_cut_with_an_ellipsis_and_short_content_is_untouched() -> None:
    assert fit(content="short")["content"] == "short"
    cut = fit(content="y" * 5000)["content"]
    assert len(cut) == CONTENT and cut.endswith("…")
    assert cut[:-1] == "y" * (CONTENT - 1)


def test_fields_beyond_25_leave_a_note_of_how_many() -> None:
    embed = discord.Embed(title="Many")
    for n in range(40):
        embed.add_field(name=f"f{n}", value=str(n))
    (fitted,) = fit_embeds([embed])
    assert len(fitted.fields) == 25
    assert [f.name for f in fitted.fields[:24]] == [f"f{n}" for n in range(24)]
    assert fitted.fields[-1].value == "16 more not shown"


def test_later_embeds_are_cut_before_earlier_ones() -> None:
    first = discord.Embed(title="First", description="a" * 4000)
    second = discord.Embed(title="Second", description="b" * 4000)
    kept = fit_embeds([first, second])
    assert kept[0].description == "a" * 4000
    assert kept[1].description is not None and kept[1].description.endswith("…")
    assert sum(len(e) for e in kept) <= 6000


def test_select_options_and_button_labels_are_cut() -> None:
    view = discord.ui.View()
    select: discord.ui.Select[Any] = discord.ui.Select(
        custom_id="pick",
        placeholder="p" * 300,
        max_values=30,
        options=[
            discord.SelectOption(label="l" * 150 + str(n), value=f"{n}", description="d" * 200)
            for n in range(30)
        ],
    )
    view.add_item(select)
    view.add_item(discord.ui.Button(label="b" * 120, custom_id="button"))
    fitted = fit(content="x", view=view)
    errors = validate_message(payload(fitted), file_count=0, editing=True)
    assert not errors, errors.summary()
    assert len(select.options) == 25 and select.max_values == 25


@st.composite
def notations(draw: st.DrawFn) -> str:
    """Any notation /roll accepts: up to 20 terms, 1,000 dice, keep and success counting."""
    terms: list[str] = []
    dice_left = MAX_DICE
    for index in range(draw(st.integers(1, 12))):
        count = draw(st.integers(1, max(1, min(dice_left, 400))))
        dice_left -= count
        text = f"{count}d{draw(st.integers(1, 1000))}"
        extra = draw(st.sampled_from(["", "keep", "target"]))
        if extra == "keep":
            text += f"k{draw(st.sampled_from('hl'))}{draw(st.integers(1, count))}"
        elif extra == "target":
            text += f">={draw(st.integers(1, 1000))}"
        terms.append(("" if index == 0 else draw(st.sampled_from("+-"))) + text)
        if dice_left <= 0:
            break
    if draw(st.booleans()):
        terms.append(f"+{draw(st.integers(0, 1_000_000))}")
    return "".join(terms)


@settings(max_examples=150, deadline=None)
@given(notation=notations(), seed=st.integers(0, 2**32), room=st.integers(1400, CONTENT))
def test_every_roll_is_described_within_the_room_and_nothing_is_lost(
    notation: str, seed: int, room: int
) -> None:
    result = roll_notation(notation, Roller(random.Random(seed)))
    text, every_die = describe_roll(result, room)
    assert len(text) <= room
    assert f": **{result.total}**" in text
    if every_die is not None:  # summarised: each term keeps its line, every die is in the listing
        assert text.endswith("(every die is in roll.txt)")
        assert len(text.splitlines()) >= len(result.terms) + 2
        for term in result.terms:
            assert f"[{', '.join(map(str, term.dice))}]" in every_die
