"""The shared prompt contract: an answer is checked against what the game asks before it steps."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.errors import RuleError
from rules.session import Answer, InputField, NumberRange, Option, Question, check_answer
from rules.words import Words

ALICE = 101
CONTRACT_CODES = frozenset(
    {
        "answer.stale",
        "answer.not_asked",
        "answer.number_missing",
        "answer.number_range",
        "answer.repeated",
        "answer.count",
        "answer.not_offered",
        "answer.disabled",
        "answer.field_missing",
        "answer.field_long",
        "answer.field_number",
        "answer.field_range",
    }
)
"""Every refusal code the contract raises (tests/platform/test_refusal_words.py: each has words)."""

PICK_TWO = Question(
    step="veto.3",
    topic="test.pick_two",
    title=Words.verbatim("Put forward two missions"),
    players=[ALICE],
    options=[
        Option(value="a", label=Words.verbatim("A")),
        Option(value="b", label=Words.verbatim("B")),
        Option(
            value="c", label=Words.verbatim("C"), disabled=True, description=Words.verbatim("Used last game.")
        ),
    ],
    min_values=2,
    max_values=2,
)
BID = Question(
    step="bid.1",
    topic="test.bid",
    title=Words.verbatim("Sealed bid"),
    players=[ALICE],
    kind="number",
    number=NumberRange(minimum=0, maximum=4),
    sealed=True,
)
MARK = Question(
    step="battle.r2.p101",
    topic="test.turn",
    title=Words.verbatim("Your turn"),
    players=[ALICE],
    options=[
        Option(
            value="mark",
            label=Words.verbatim("Mark a unit"),
            form=[InputField(key="unit", label=Words.verbatim("Unit"), max_length=80)],
        ),
        Option(value="end_turn", label=Words.verbatim("End turn")),
    ],
)


def code_of(asked: list[Question], answer: Answer) -> str:
    with pytest.raises(RuleError) as caught:
        check_answer(asked, answer)
    return caught.value.code


def test_a_legal_answer_names_its_question() -> None:
    assert check_answer([PICK_TWO], Answer(actor=ALICE, step="veto.3", values=["b", "a"])) is PICK_TWO
    assert check_answer([BID], Answer(actor=ALICE, step="bid.1", number=4)) is BID
    answer = Answer(actor=ALICE, step=MARK.step, values=["mark"], fields={"unit": "Intercessors"})
    assert check_answer([MARK], answer) is MARK


def test_an_answer_to_an_earlier_step_is_refused_and_says_where_the_game_is() -> None:
    with pytest.raises(RuleError) as caught:
        check_answer([PICK_TWO], Answer(actor=ALICE, step="veto.2", values=["a", "b"]))
    assert caught.value.code == "answer.stale"
    assert str(caught.value.params["now"]) == "Put forward two missions"
    assert code_of([], Answer(actor=ALICE, step="veto.3", values=["a", "b"])) == "answer.not_asked"


def test_each_kind_of_illegal_answer_has_its_own_code() -> None:
    def pick(*values: str) -> Answer:
        return Answer(actor=ALICE, step="veto.3", values=list(values))

    assert code_of([PICK_TWO], pick("a")) == "answer.count"
    assert code_of([PICK_TWO], pick("a", "a")) == "answer.repeated"
    assert code_of([PICK_TWO], pick("a", "zz")) == "answer.not_offered"
    assert code_of([PICK_TWO], pick("a", "c")) == "answer.disabled"
    assert code_of([BID], Answer(actor=ALICE, step="bid.1")) == "answer.number_missing"
    assert code_of([BID], Answer(actor=ALICE, step="bid.1", number=5)) == "answer.number_range"
    no_unit = Answer(actor=ALICE, step=MARK.step, values=["mark"], fields={"unit": "  "})
    assert code_of([MARK], no_unit) == "answer.field_missing"
    long_unit = Answer(actor=ALICE, step=MARK.step, values=["mark"], fields={"unit": "x" * 81})
    assert code_of([MARK], long_unit) == "answer.field_long"


@given(
    step=st.sampled_from(["veto.3", "veto.2", "bid.1", MARK.step, "x"]),
    values=st.lists(st.sampled_from(["a", "b", "c", "mark", "end_turn", "zz"]), max_size=4),
    number=st.none() | st.integers(-3, 9),
    unit=st.text(max_size=120),
)
def test_an_answer_is_either_legal_for_exactly_its_question_or_refused_with_a_code(
    step: str, values: list[str], number: int | None, unit: str
) -> None:
    asked = [PICK_TWO, BID, MARK]
    answer = Answer(actor=ALICE, step=step, values=values, number=number, fields={"unit": unit})
    try:
        question = check_answer(asked, answer)
    except RuleError as error:
        assert error.code in CONTRACT_CODES
        return
    assert question.step == step
    if question.kind == "choose":
        assert question.min_values <= len(values) <= question.max_values
        assert all((o := question.option(v)) is not None and not o.disabled for v in values)
    elif question.kind == "number":
        assert question.number is not None and number is not None
        assert question.number.minimum <= number <= question.number.maximum


@pytest.mark.parametrize("typed", ["--3", "+3", "3.0", "٣", "1234567890", "- 3"])
def test_a_form_number_that_is_not_one_plain_whole_number_is_refused_with_a_code(typed: str) -> None:
    asked = Question(
        step="s",
        topic="t",
        title=Words.verbatim("T"),
        players=[1],
        options=[
            Option(
                value="v",
                label=Words.verbatim("V"),
                form=[InputField(key="n", label=Words.verbatim("How many"), kind="number")],
            )
        ],
    )
    with pytest.raises(RuleError) as refused:
        check_answer([asked], Answer(actor=1, step="s", values=["v"], fields={"n": typed}))
    assert refused.value.code == "answer.field_number"


@given(st.text(max_size=50))
def test_a_step_or_value_a_custom_id_could_not_carry_is_refused_where_it_is_made(text: str) -> None:
    """A step id or option value goes into a component's custom_id: one with any other character,
    empty or over 40 characters is a procedure's bug, refused as the question is made (not only
    somewhere in it, as a pattern searched for would be)."""
    allowed = 1 <= len(text) <= 40 and all(c.isascii() and (c.isalnum() or c in "_.-") for c in text)
    title = Words.verbatim("T")
    made = [
        lambda: Question(step=text, topic="t", title=title, players=[ALICE]),
        lambda: Question(step="s", series=text, topic="t", title=title, players=[ALICE]),
        lambda: Option(value=text, label=title),
    ]
    for make in made:
        if allowed:
            make()
        else:
            with pytest.raises(ValueError):
                make()


def test_an_answer_carries_no_more_than_an_answer_can() -> None:
    Answer(actor=ALICE, step="s" * 60, values=["v"] * 25, nonce="n" * 128)
    for too_much in ({"step": "s" * 61}, {"values": ["v"] * 26}, {"nonce": "n" * 129}):
        with pytest.raises(ValueError):
            Answer(**{"actor": ALICE, "step": "s", **too_much})  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        InputField(key="Unit", label=Words.verbatim("Unit"))
    with pytest.raises(ValueError):
        InputField(key="unit", label=Words.verbatim("Unit"), max_length=0)
