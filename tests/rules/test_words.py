"""`Words` (rules/words.py): English written once, with its values, shown as the msgid filled in."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from rules.session import QUESTION, Option, Question
from rules.words import Marker, Words

N_ = Marker("warcry")


def test_english_is_the_msgid_filled_in() -> None:
    assert str(N_("End battle round {round}", round=3)) == "End battle round 3"
    assert str(N_.p("button", "Take red")) == "Take red"


def test_plural_forms_pick_by_count() -> None:
    assert str(N_.n("{count} fighter", "{count} fighters", 1)) == "1 fighter"
    assert str(N_.n("{count} fighter", "{count} fighters", 4)) == "4 fighters"


def test_a_value_may_be_words_itself() -> None:
    group = N_.p("group", "Dagger")
    assert str(N_("Set up your {group}", group=group)) == "Set up your Dagger"


def test_values_that_do_not_fit_leave_the_english_as_written() -> None:
    assert str(N_("Hello {name}")) == "Hello {name}"


def test_a_plain_string_in_a_stored_question_is_verbatim() -> None:
    asked = QUESTION.validate_python(
        {
            "step": "s",
            "topic": "t",
            "title": "Alice",
            "players": [1],
            "options": [{"value": "a", "label": "Bob"}],
        }
    )
    assert asked.title == Words.verbatim("Alice")
    assert asked.title.domain is None
    assert asked.options[0].label == Words.verbatim("Bob")


def test_words_compare_by_what_they_say_and_mean() -> None:
    assert N_("Go {n}", n=1) == N_("Go {n}", n=1)
    assert N_("Go {n}", n=1) != N_("Go {n}", n=2)
    assert N_.p("button", "Go") != N_("Go")
    assert Marker("muster")("Go") != N_("Go")


@given(st.text(), st.integers())
def test_verbatim_text_is_shown_as_it_is(text: str, n: int) -> None:
    assert str(Words.verbatim(text)) == text
    assert str(N_("{a}", a=text)) == text
    assert str(N_("{n}", n=n)) == str(n)


def test_words_in_a_stored_model_load_back_as_they_were() -> None:
    """A question (or an event) stored as JSON and shown later is still said in its reader's
    language: its words keep their msgid, domain, context, plural and values."""
    group = N_.p("group", "Dagger")
    asked = Question(
        step="s",
        topic="t",
        title=N_("Set up your {group}, {name}", group=group, name="Alice"),
        text=N_.n("{count} fighter", "{count} fighters", 3),
        players=[1],
        options=[Option(value="a", label=Words.verbatim("Bob"), description=N_.p("button", "Take red"))],
    )
    again = QUESTION.validate_json(QUESTION.dump_json(asked))
    assert again == asked
    assert again.title.values["group"] == group and str(again.text) == "3 fighters"
    assert again.options[0].label == Words.verbatim("Bob")


@given(st.text(), st.text(), st.integers(0, 5))
def test_any_words_round_trip(english: str, value: str, count: int) -> None:
    made = Marker("killteam").np("ctx", english, english + "s", count, v=value)
    asked = Question(step="s", topic="t", title=made, players=[1])
    assert QUESTION.validate_json(QUESTION.dump_json(asked)).title == made
