"""The rules' questions as Discord components, and clicks back as answers: the one encoding.

A game says what it asks (`Procedure.ask` → `rules.session.Question`); this module alone decides
how that looks: a few options become buttons, more (or a multi-pick) a select menu; a number is
buttons or a menu of its values, and a form only when its range is too wide for a menu (as an
option's typed fields are). A click becomes a `rules.session.Answer` carrying the question's step
id, which the rules check before anything steps, so every game refuses a stale click the same way.
"""

from __future__ import annotations

import re

from bot.chat import custom_ids
from bot.chat.limits import ROW_BUTTONS, SELECT_OPTIONS, SELECT_PLACEHOLDER, TEXT_INPUT_LABEL
from bot.chat.messages import Button, ButtonStyle, Modal, ModalField, Select, SelectOption
from bot.lang.i18n import Domain, say
from rules.errors import RuleError
from rules.session import NO_WORDS, Answer, InputField, Question, Tone
from rules.text import clip
from rules.words import Words

_ = Domain("muster")
MAX_BUTTONS = ROW_BUTTONS  # one row: more options than this are a select menu
NUMBER_FIELD = "number"
WHOLE_NUMBER = re.compile(r"-?[0-9]{1,9}")

STYLES: dict[Tone, ButtonStyle] = {
    "plain": "secondary",
    "main": "primary",
    "go": "success",
    "danger": "danger",
}


def components(question: Question) -> tuple[list[Button], list[Select]]:
    """The buttons or select menu that answer `question`."""
    if question.kind == "number":
        return _number_components(question)
    if question.kind == "done":
        option = question.options[0] if question.options else None
        return [
            Button(
                label=say(option.label if option else question.title),
                step=question.step,
                value=option.value if option else custom_ids.DONE_VALUE,
                form=bool(option and option.form),
                style=STYLES[option.tone] if option else "primary",
            )
        ], []
    if question.max_values == 1 and len(question.options) <= MAX_BUTTONS:
        return [
            Button(
                label=say(option.label),
                step=question.step,
                value=option.value,
                form=bool(option.form),
                style=STYLES[option.tone],
                disabled=option.disabled,
            )
            for option in question.options
        ], []
    allowed = [o for o in question.options if not o.disabled][:SELECT_OPTIONS]
    if not allowed:
        return [], []
    select = Select(
        step=question.step,
        placeholder=clip(say(question.title), SELECT_PLACEHOLDER),
        min_values=min(question.min_values, len(allowed)),
        max_values=min(question.max_values, len(allowed)),
        options=[
            SelectOption(
                label=say(o.label),
                value=o.value,
                description=say(o.description or o.group or NO_WORDS) or None,
            )
            for o in allowed
        ],
    )
    return [], [select]


def _number_components(question: Question) -> tuple[list[Button], list[Select]]:
    """A number's range as buttons, a menu of its numbers, or a button opening a form to type it.

    A pick from a menu answers in one Discord call; a form costs two (opening it, then its submit's
    answer), so a number is typed only when its range has more values than a menu can offer."""
    low, high = _range(question)
    count = high - low + 1
    if count <= MAX_BUTTONS:  # a handful of numbers: one button each
        return [Button(label=str(n), step=question.step, value=str(n)) for n in range(low, high + 1)], []
    if count <= SELECT_OPTIONS:  # a menu of every number: one pick answers
        numbers = [SelectOption(label=str(n), value=str(n)) for n in range(low, high + 1)]
        placeholder = clip(say(question.title), SELECT_PLACEHOLDER)
        return [], [Select(step=question.step, placeholder=placeholder, options=numbers)]
    button = question.params.get("button")
    label = say(button) if isinstance(button, str | Words) and button else ""
    label = label or _.p("button", "Enter a number ({low}–{high})", low=low, high=high)
    return [
        Button(label=label, step=question.step, value=custom_ids.NUMBER_VALUE, form=True, style="primary")
    ], []


def form(question: Question, value: str) -> Modal | None:
    """The form a `qf` button (or a select's pick) opens: the number field, or the option's fields."""
    if question.kind == "number":
        low, high = _range(question)
        field = ModalField(
            key=NUMBER_FIELD,
            label=clip(
                _.p("label", "A whole number from {low} to {high}", low=low, high=high), TEXT_INPUT_LABEL
            ),
            placeholder=str(question.params.get("placeholder") or low),
            max_length=max(len(str(low)), len(str(high))),
        )
        return Modal(title=say(question.title), fields=[field])
    option = question.option(value)
    if option is None or not option.form:
        return None
    return Modal(title=say(option.label), fields=[_modal_field(f) for f in option.form])


def _modal_field(field: InputField) -> ModalField:
    length = field.max_length
    if field.kind == "number":
        bounds = [b for b in (field.minimum, field.maximum) if b is not None]
        length = max([len(str(b)) for b in bounds] or [9])
    return ModalField(
        key=field.key,
        label=say(field.label),
        placeholder=say(field.placeholder) if field.placeholder is not None else None,
        required=field.required,
        max_length=length,
    )


def answer(
    actor: int,
    question: Question | None,
    step: str,
    values: list[str],
    fields: dict[str, str] | None = None,
    nonce: str = "",
) -> Answer:
    """The answer a click or a submitted form gives. `question` is what the click's step names in
    the state the bot has at hand (None if it is no longer asked: the rules then refuse it as stale)."""
    fields = dict(fields or {})
    if question is not None and question.kind == "number":
        # the form's typed field, else the number a button carries or a menu's pick (a forged one
        # too: the rules refuse a number outside the range, this only that it is a number)
        typed = fields.pop(NUMBER_FIELD, values[0] if values else "").strip()
        if not WHOLE_NUMBER.fullmatch(typed):
            low, high = _range(question)
            raise RuleError(code="answer.number_missing", minimum=low, maximum=high)
        return Answer(actor=actor, step=step, number=int(typed), nonce=nonce)
    if question is not None and question.kind == "done":
        values = []
    return Answer(actor=actor, step=step, values=values, fields=fields, nonce=nonce)


def _range(question: Question) -> tuple[int, int]:
    if question.number is None:
        raise ValueError(f"number question {question.step} has no range")
    return question.number.minimum, question.number.maximum


def asked(questions: list[Question], step: str) -> Question | None:
    return next((q for q in questions if q.step == step), None)
