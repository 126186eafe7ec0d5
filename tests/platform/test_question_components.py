"""The one encoding of questions as components (bot/play/questions.py, bot/chat/custom_ids.py,
bot/chat/render.py):
every question any game can ask fits Discord's component limits, and its clicks come back as the
answers the rules check."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

import discord
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.chat import custom_ids, render, router, ui
from bot.chat.messages import Embed, Outgoing, Reply
from bot.play import questions
from rules.errors import RuleError
from rules.session import InputField, NumberRange, Option, Question, check_answer
from rules.words import Words
from tests.emulator.validation import validate_message

SID = "0123456789ab"
slugs = st.from_regex(r"[A-Za-z0-9_.\-]{1,40}", fullmatch=True)


@st.composite
def any_embed(draw: st.DrawFn) -> Embed:
    """A plain embed, its texts anywhere from empty to well past Discord's limits."""
    texts = st.text(max_size=30) | st.integers(0, 5000).map(lambda n: "x" * n)
    made = Embed(
        title=draw(st.none() | texts),
        description=draw(st.none() | texts),
        colour=draw(st.none() | st.integers(0, 0xFFFFFF)),
        footer=draw(st.none() | texts),
        timestamp=draw(st.none() | st.just(datetime(2026, 11, 29, 12, 0, tzinfo=UTC))),
    )
    for _ in range(draw(st.integers(0, 27))):
        made.add(draw(texts), draw(texts), draw(st.booleans()))
    return made


@st.composite
def any_question(draw: st.DrawFn) -> Question:
    kind = draw(st.sampled_from(["choose", "number", "done"]))
    values = draw(st.lists(slugs, min_size=1 if kind == "choose" else 0, max_size=30, unique=True))
    options = [
        Option(
            value=v,
            label=draw(st.text(min_size=1, max_size=120).map(Words.verbatim)),
            disabled=draw(st.booleans()),
            description=draw(st.text(max_size=150).map(Words.verbatim)),
            form=[InputField(key="unit", label=Words.verbatim("Unit"))] if draw(st.booleans()) else [],
        )
        for v in values
    ]
    if kind == "done":
        options = options[:1]
    high = len(options) or 1
    return Question(
        step=draw(slugs),
        topic="test.any",
        title=draw(st.text(min_size=1, max_size=200).map(Words.verbatim)),
        players=[1],
        kind=kind,
        options=options,
        min_values=draw(st.integers(1, high)),
        max_values=high if draw(st.booleans()) else 1,
        number=NumberRange(minimum=-5, maximum=draw(st.integers(-5, 10**8))) if kind == "number" else None,
    )


@settings(max_examples=200, deadline=None)
@given(question=any_question())
def test_every_question_draws_within_discords_limits_and_its_ids_parse_back(question: Question) -> None:
    buttons, selects = questions.components(question)
    kwargs = render.to_discord(SID, Reply(content="?", buttons=buttons, selects=selects))
    view = kwargs.get("view")
    payload = {"content": kwargs["content"], "components": view.to_components() if view else []}
    errors = validate_message(payload, file_count=0, editing=False)
    assert not errors, errors.summary()
    for button in buttons:
        custom_id = render._button_id(SID, button)
        match = custom_ids.BUTTON.fullmatch(custom_id)
        assert match and (match["sid"], match["step"], match["value"]) == (SID, question.step, button.value)
        assert bool(match["form"]) == button.form
        click = ui.route(ui.BUTTON, custom_id, [])
        assert click == ui.Click(router.on_question, (SID, question.step, [button.value], button.form))
    for select in selects:
        assert custom_ids.SELECT.fullmatch(custom_ids.select(SID, select.step))
        picked = [o.value for o in select.options[: select.max_values]]
        click = ui.route(ui.SELECT, custom_ids.select(SID, select.step), picked)
        assert click == ui.Click(router.on_question, (SID, question.step, picked, None))
        if question.kind == "number":  # a menu of the range's numbers, each an answer the rules take
            assert question.number is not None
            low, high = question.number.minimum, question.number.maximum
            assert [o.value for o in select.options] == [str(n) for n in range(low, high + 1)]
            assert (select.min_values, select.max_values) == (1, 1)
        else:
            assert {o.value for o in select.options} <= {o.value for o in question.options if not o.disabled}


def test_a_few_options_are_buttons_with_their_tone_and_more_are_one_select() -> None:
    few = Question(
        step="r1.end",
        topic="t",
        title=Words.verbatim("End?"),
        players=[1],
        options=[
            Option(value="yes", label=Words.verbatim("End it"), tone="danger"),
            Option(value="no", label=Words.verbatim("Not yet")),
        ],
    )
    buttons, selects = questions.components(few)
    assert [(b.label, b.style, b.value) for b in buttons] == [
        ("End it", "danger", "yes"),
        ("Not yet", "secondary", "no"),
    ]
    assert not selects
    many = replace(few, options=[Option(value=f"o{i}", label=Words.verbatim(f"O{i}")) for i in range(8)])
    buttons, (select,) = questions.components(many)
    assert not buttons and [o.value for o in select.options] == [f"o{i}" for i in range(8)]


def test_a_number_question_is_buttons_a_menu_or_a_form_and_its_number_is_checked_by_the_rules() -> None:
    pressed = Question(
        step="bid-1",
        topic="t",
        title=Words.verbatim("Your bid"),
        players=[7],
        kind="number",
        number=NumberRange(minimum=0, maximum=4),
    )
    buttons, _ = questions.components(pressed)  # a handful of numbers: a button each
    assert [(b.label, b.value, b.form) for b in buttons] == [(str(n), str(n), False) for n in range(5)]
    assert questions.answer(7, pressed, "bid-1", ["2"]).number == 2
    picked = replace(pressed, number=NumberRange(minimum=0, maximum=24))
    buttons, (menu,) = questions.components(picked)  # up to 25 numbers: one pick from a menu, no form
    assert not buttons and [o.label for o in menu.options] == [str(n) for n in range(25)]
    assert (menu.placeholder, menu.min_values, menu.max_values) == ("Your bid", 1, 1)
    answer = questions.answer(7, picked, "bid-1", ["7"])
    assert answer.number == 7 and check_answer([picked], answer) == picked
    with pytest.raises(RuleError) as forged:  # a value the menu does not offer, sent by a modified client
        check_answer([picked], questions.answer(7, picked, "bid-1", ["25"]))
    assert forged.value.code == "answer.number_range"
    with pytest.raises(RuleError) as not_a_number:
        questions.answer(7, picked, "bid-1", ["seven"])
    assert not_a_number.value.code == "answer.number_missing"
    wide = replace(picked, number=NumberRange(minimum=0, maximum=25))
    (button,), selects = questions.components(wide)  # 26 numbers: more than a menu offers, so typed
    assert button.form and not selects
    bid = Question(
        step="bid-1",
        topic="t",
        title=Words.verbatim("Your bid"),
        players=[7],
        kind="number",
        number=NumberRange(minimum=0, maximum=40),
    )
    (button,), _ = questions.components(bid)
    assert button.form and button.value == custom_ids.NUMBER_VALUE
    form = questions.form(bid, button.value)
    assert form is not None and [f.key for f in form.fields] == [questions.NUMBER_FIELD]
    answer = questions.answer(7, bid, "bid-1", [button.value], {questions.NUMBER_FIELD: " 3 "})
    assert answer.number == 3 and check_answer([bid], answer) == bid
    with pytest.raises(RuleError) as typed_words:
        questions.answer(7, bid, "bid-1", [button.value], {questions.NUMBER_FIELD: "three"})
    assert typed_words.value.code == "answer.number_missing"
    with pytest.raises(RuleError) as too_many:
        check_answer([bid], questions.answer(7, bid, "bid-1", [button.value], {questions.NUMBER_FIELD: "41"}))
    assert too_many.value.code == "answer.number_range"


def test_an_option_with_a_form_opens_it_and_the_fields_come_back_with_the_answer() -> None:
    mark = Question(
        step="r2.mark",
        topic="t",
        title=Words.verbatim("Mark"),
        players=[7],
        options=[
            Option(
                value="mark",
                label=Words.verbatim("Mark a unit"),
                form=[InputField(key="unit", label=Words.verbatim("Unit"), max_length=80)],
            )
        ],
    )
    (button,), _ = questions.components(mark)
    assert button.form
    form = questions.form(mark, "mark")
    assert form is not None and form.title == "Mark a unit" and form.fields[0].max_length == 80
    answer = questions.answer(7, mark, "r2.mark", ["mark"], {"unit": "Squad Alpha"})
    assert check_answer([mark], answer) == mark and answer.fields == {"unit": "Squad Alpha"}
    assert questions.form(mark, "other") is None


def test_a_pick_a_secret_prompt_and_an_old_component_are_routed_and_a_features_own_are_not() -> None:
    """A feature's own components (a result's Confirm) go through discord.py's view store, to the
    feature's DynamicItem."""
    pick = ui.route(ui.SELECT, custom_ids.pick(SID, "r1.tacop"), ["r1.tacop"])
    assert pick == ui.Click(router.on_pick, (SID, ["r1.tacop"]))
    assert ui.route(ui.BUTTON, custom_ids.prompt(SID, 42), []) == ui.Click(router.on_prompt_button, (SID, 42))
    for old in (f"s:{SID}:pick:3", f"sm:{SID}:pick", f"ss:{SID}:pick"):
        assert ui.route(ui.BUTTON, old, []) == ui.Click(router.on_old_component, (SID,))
    for foreign in ("score:12:confirm", f"q:{SID}:step", f"qs:{SID}:a:b", "night:x:join"):
        assert ui.route(ui.BUTTON, foreign, []) is None
    assert ui.route(ui.SELECT, f"q:{SID}:a:b", ["b"]) is None  # a question's button id on a menu


def test_a_routed_clicks_message_is_parsed_without_what_no_handler_reads() -> None:
    message = {"id": "5", "type": 0, "content": "", "flags": 0, "embeds": [{"title": "Bid"}]}
    message["components"] = [{"type": 1, "components": []}]

    def click(custom_id: str, component_type: int = ui.SELECT) -> dict[str, object]:
        inner = {"custom_id": custom_id, "component_type": component_type, "values": ["3"]}
        return {"type": 3, "id": "9", "data": inner, "message": message}

    routed = ui.as_parsed(click(custom_ids.select(SID, "r1.bid")))
    assert routed["message"] == {"id": "5", "type": 0, "content": "", "flags": 0}
    assert routed["data"]["values"] == ["3"]  # what was picked is the interaction's own data
    assert message["embeds"] and message["components"]  # the payload itself is left as it came
    feature = click("score:12:confirm", ui.BUTTON)  # its DynamicItem rebuilds the view from the message
    assert ui.as_parsed(feature) is feature
    command = {"type": 2, "id": "9", "data": {"name": "roll"}}
    assert ui.as_parsed(command) is command


def test_a_modal_custom_id_is_routed_back_and_a_foreign_one_is_not() -> None:
    assert custom_ids.parse_modal(custom_ids.modal(SID, "r2.mark", "mark")) == custom_ids.QuestionId(
        SID, "r2.mark", "mark"
    )
    assert custom_ids.parse_modal("qm:zz:r2.mark:mark") is None
    assert custom_ids.parse_modal(f"qm:{SID}:r2:mark:extra") is None


async def test_components_and_the_prompt_fallback_are_sent_stopped_so_discord_py_keeps_no_copy() -> None:
    """Made inside the running loop, as the bot makes them; a kept copy would answer clicks twice."""
    question = Question(
        step="s",
        topic="t",
        title=Words.verbatim("T"),
        players=[1],
        options=[Option(value="a", label=Words.verbatim("A"))],
    )
    made = render.to_discord(SID, Outgoing(buttons=questions.components(question)[0]))["view"]
    assert made is not None and made.is_finished()
    kwargs = render.prompt_fallback(SID, 42)
    view: discord.ui.View = kwargs["view"]
    assert view.is_finished()
    (item,) = view.children
    assert isinstance(item, discord.ui.Button) and item.custom_id == f"p:{SID}:42"


def _as_discord_sends(kwargs: dict[str, Any]) -> dict[str, Any]:
    """The message JSON discord.py sends for `to_discord`'s arguments, less the keys it adds with
    Discord's own defaults (a select or button not disabled, an option not a default, no flags)
    and a select's `required`, which only a modal reads."""
    view = kwargs.get("view")
    sent = {
        "content": kwargs["content"],
        "embeds": [e.to_dict() for e in kwargs.get("embeds", [])],
        "components": view.to_components() if view is not None else [],
        "allowed_mentions": kwargs["allowed_mentions"].to_dict(),
    }
    return _without_defaults(sent)


def _a_default(key: str, value: Any) -> bool:
    if key == "required":
        return True
    return (key in ("disabled", "default") and value is False) or (key == "flags" and value == 0)


def _without_defaults(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_defaults(v) for k, v in value.items() if not _a_default(k, v)}
    if isinstance(value, list):
        return [_without_defaults(v) for v in value]
    return value


@settings(max_examples=150, deadline=None)
@given(
    question=any_question(),
    content=st.text(max_size=2100),
    embeds=st.lists(any_embed(), max_size=11),
    pings=st.lists(st.integers(1, 2**60), max_size=3),
)
def test_a_message_as_discords_json_is_what_discord_py_sends_for_it_and_discord_accepts(
    question: Question, content: str, embeds: list[Embed], pings: list[int]
) -> None:
    """A click answered in place sends `message_json` itself; the outbox sends the same message
    through discord.py (`to_discord`): both must show the same, within Discord's limits."""
    buttons, selects = questions.components(question)
    message = Outgoing(content=content, embeds=embeds, buttons=buttons, selects=selects, pings=pings, key="k")
    data = render.message_json(SID, message)
    errors = validate_message(data, file_count=0, editing=True)
    assert not errors, errors.summary()
    expected = _as_discord_sends(render.to_discord(SID, message))
    assert _without_defaults(data) == expected
