"""Random games played only through the questions: every answer `ask` offers either steps or, when the
player typed a unit name or a report the rules refuse, is refused with a `fortyk.*` code; every answer
it doesn't offer (a value not offered, a disabled option, a wrong count, a stale step id, a stranger, a
number out of range) is refused with an `answer.*` or `fortyk.*` code; and nothing ever changes the
state it was given."""

from __future__ import annotations

import random

from fortyk_helpers import ALICE, BOB, new_game
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.dice import Roller
from rules.errors import RuleError
from rules.fortyk import PROCEDURE, FortyKState
from rules.session import Answer, Question

STRANGER = 333_333_333_333
NAMES = ["Scouts", "Terminators", "Rhino", "Bikers", "scouts "]
MARKED_ALIVE = ["", "none", "Terminators", "Rhino, Bikers"]


def legal_answers(state: FortyKState, player: int, draw: st.DataObject) -> list[tuple[Question, Answer]]:
    """One answer per option `ask` offers `player` now, with a drawn unit name or report."""
    found: list[tuple[Question, Answer]] = []
    for question in PROCEDURE.ask(state, player):
        if question.kind == "done":
            found.append((question, Answer(actor=player, step=question.step)))
            continue
        for option in question.options:
            if option.disabled:
                continue
            fields: dict[str, str] = {}
            for field in option.form:
                if field.key == "unit":
                    fields["unit"] = draw.draw(st.sampled_from(NAMES))
                elif field.key == "quarters":
                    assert field.maximum is not None
                    fields["quarters"] = str(draw.draw(st.integers(0, field.maximum)))
                else:
                    fields[field.key] = draw.draw(st.sampled_from(MARKED_ALIVE))
            found.append(
                (question, Answer(actor=player, step=question.step, values=[option.value], fields=fields))
            )
    return found


def illegal_answers(state: FortyKState, history: list[Answer]) -> list[tuple[Answer, set[str]]]:
    """Answers the game doesn't ask for now, each with the codes it may be refused with."""
    wrong: list[tuple[Answer, set[str]]] = []
    for player in state.players:
        asked = PROCEDURE.ask(state, player)
        for question in asked:
            if question.kind != "choose":
                continue
            wrong.append(
                (Answer(actor=player, step=question.step, values=["not-offered"]), {"answer.not_offered"})
            )
            for option in question.options:
                filled = {f.key: "1" for f in option.form}
                if option.disabled:
                    wrong.append(
                        (
                            Answer(actor=player, step=question.step, values=[option.value], fields=filled),
                            {"answer.disabled"},
                        )
                    )
                for field in option.form:
                    missing = {k: v for k, v in filled.items() if k != field.key}
                    if field.required:
                        wrong.append(
                            (
                                Answer(
                                    actor=player, step=question.step, values=[option.value], fields=missing
                                ),
                                {"answer.field_missing", "answer.disabled"},
                            )
                        )
                    if field.kind == "number":
                        for typed in ("9", "-1", "x"):
                            wrong.append(
                                (
                                    Answer(
                                        actor=player,
                                        step=question.step,
                                        values=[option.value],
                                        fields={**filled, field.key: typed},
                                    ),
                                    {"answer.field_range", "answer.field_number", "answer.field_long"},
                                )
                            )
            values = [o.value for o in question.options]
            wrong.append((Answer(actor=player, step=question.step, values=[]), {"answer.count"}))
            if len(values) >= 2:
                wrong.append(
                    (
                        Answer(actor=player, step=question.step, values=values[:2]),
                        {"answer.count", "answer.disabled"},
                    )
                )
        now = {q.step for q in asked}
        for old in history:
            if old.actor == player and old.step not in now:
                wrong.append((old, {"answer.stale", "answer.not_asked"}))
        wrong.append(
            (
                Answer(actor=player, step="r99.t1.turn", values=["end-turn"]),
                {"answer.stale", "answer.not_asked"},
            )
        )
    wrong.append((Answer(actor=STRANGER, step="setup.deploy-roll"), set()))  # any refusal: a stranger
    return wrong


def refuse(state: FortyKState, answer: Answer, codes: set[str], roller: Roller) -> None:
    before = state.model_dump()
    try:
        PROCEDURE.answer(state, answer, roller)
    except RuleError as refusal:
        if codes:
            assert refusal.code in codes, (answer, refusal.code, refusal.params)
    else:
        raise AssertionError(f"{answer} was accepted")
    assert state.model_dump() == before, "a refusal changed the state"


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), data=st.data())
def test_random_answers_step_only_when_asked(seed: int, data: st.DataObject) -> None:
    roller = Roller(random.Random(seed))
    state = new_game()
    history: list[Answer] = []
    for _ in range(300):
        if state.finished:
            break
        offered = [pair for player in (ALICE, BOB) for pair in legal_answers(state, player, data)]
        assert offered, f"nobody is asked anything in {state.phase}"
        if data.draw(st.integers(0, 3)) == 0:
            answer, codes = data.draw(st.sampled_from(illegal_answers(state, history)))
            refuse(state, answer, codes, roller)
        # lean towards ending turns, so that games reach their end
        ends = [pair for pair in offered if pair[1].values == ["end-turn"]]
        question, answer = data.draw(st.sampled_from(ends if ends and data.draw(st.booleans()) else offered))
        before = state.model_dump()
        try:
            new, _events = PROCEDURE.answer(state, answer, roller)
        except RuleError as refusal:
            # only what the player typed (a unit's name, a claim) can make an offered answer refusable
            assert answer.fields, f"{question.title}: {answer} was offered but refused: {refusal.code}"
            assert refusal.code.startswith("fortyk."), (answer, refusal.code)
            assert state.model_dump() == before
            continue
        assert state.model_dump() == before, "answering changed the state it was given"
        assert FortyKState.model_validate_json(new.model_dump_json()) == new
        history.append(answer)
        state = new
    if state.finished:
        assert PROCEDURE.ask(state, ALICE) == PROCEDURE.ask(state, BOB) == []
        for old in history[-3:]:
            refuse(state, old, set(), roller)
