"""The mission's questions: what each player is asked in each phase, under which step id, and what
their answers do through `PROCEDURE.answer` (checked first, then stepped)."""

from __future__ import annotations

import pytest
from fortyk_helpers import ALICE, BOB, dice, end_rounds, in_battle, new_game, no_dice, run

from rules.dice import Roller
from rules.errors import RuleError
from rules.fortyk import PROCEDURE, FortyKState, ask
from rules.fortyk.actions import CaptureRelic, EndTurn, MarkUnit, RecordDestroyed
from rules.fortyk.models import Phase
from rules.session import Answer, Question


def answer(
    state: FortyKState,
    actor: int,
    step: str,
    values: list[str] | None = None,
    roller: Roller | None = None,
    **fields: str,
) -> FortyKState:
    before = state.model_dump()
    new, _ = PROCEDURE.answer(
        state, Answer(actor=actor, step=step, values=values or [], fields=fields), roller or no_dice()
    )
    assert state.model_dump() == before, "answering changed the state it was given"
    return new


def refusal(
    state: FortyKState, actor: int, step: str, values: list[str] | None = None, **fields: str
) -> RuleError:
    before = state.model_dump()
    with pytest.raises(RuleError) as caught:
        PROCEDURE.answer(state, Answer(actor=actor, step=step, values=values or [], fields=fields), no_dice())
    assert state.model_dump() == before
    return caught.value


def steps(state: FortyKState, player: int) -> list[str]:
    return [q.step for q in ask(state, player)]


def question(state: FortyKState, player: int, step: str) -> Question:
    return next(q for q in ask(state, player) if q.step == step)


def test_the_set_up_is_asked_step_by_step() -> None:
    state = new_game()
    assert steps(state, ALICE) == steps(state, BOB) == ["setup.deploy-roll"]
    roll = question(state, ALICE, "setup.deploy-roll")
    assert (roll.kind, roll.topic, roll.players) == ("done", "fortyk.roll_deployment", [ALICE, BOB])
    state = answer(state, BOB, "setup.deploy-roll", roller=dice(2, 5))
    assert steps(state, ALICE) == [] and steps(state, BOB) == ["setup.zone"]
    zone = question(state, BOB, "setup.zone")
    assert [o.value for o in zone.options] == ["0", "1", "2", "3"]
    assert str(zone.options[2].label) == "North-east quarter"
    assert str(zone.options[2].description) == "The opponent deploys in the South-west quarter."
    state = answer(state, BOB, "setup.zone", ["2"])
    assert state.zone is not None and (state.zone.zone, state.zone.opponent_zone) == (
        "North-east quarter",
        "South-west quarter",
    )
    assert steps(state, ALICE) == steps(state, BOB) == ["setup.deployed"]
    state = answer(state, ALICE, "setup.deployed")
    assert steps(state, ALICE) == [] and steps(state, BOB) == ["setup.deployed"]
    state = answer(state, BOB, "setup.deployed")
    first_roll = question(state, ALICE, "setup.first-roll")
    assert first_roll.params == {"bonus_first_player": 1, "bonus_second_player": 0}
    state = answer(state, ALICE, "setup.first-roll", roller=dice(1, 6))
    assert steps(state, ALICE) == [] and steps(state, BOB) == ["setup.order"]
    state = answer(state, BOB, "setup.order", ["first"])
    assert steps(state, ALICE) == ["setup.seize"] and steps(state, BOB) == []
    state = answer(state, ALICE, "setup.seize", ["yes"], roller=dice(6))
    assert state.phase is Phase.BATTLE and state.first_player == ALICE and state.seize is not None


def test_the_turn_offers_marks_relics_and_end_turn_to_the_active_player_only() -> None:
    state = in_battle()
    assert steps(state, ALICE) == ["r1.t1.turn", "r1.t1.kill"]
    assert steps(state, BOB) == ["r1.t1.kill"]
    turn = question(state, ALICE, "r1.t1.turn")
    assert [(o.value, o.disabled) for o in turn.options] == [
        ("mark", False),
        ("take-relic", False),
        ("end-turn", False),
    ]
    assert [f.key for f in turn.options[0].form] == ["unit"] and turn.options[0].form[0].max_length == 80
    state = answer(state, ALICE, "r1.t1.turn", ["mark"], unit="Terminators")
    assert state.marks[-1].unit == "Terminators"
    state = answer(state, ALICE, "r1.t1.turn", ["take-relic"], unit="Bikers")
    turn = question(state, ALICE, "r1.t1.turn")
    mark, take, drop, _end = turn.options
    assert mark.disabled and str(mark.description) == "You marked Terminators this turn: one mark per turn."
    assert take.disabled and str(take.description) == "Your Bikers already carries the enemy relic."
    assert (drop.value, drop.disabled) == ("drop-relic", False)
    refused = refusal(state, ALICE, "r1.t1.turn", ["mark"], unit="Scouts")
    assert (refused.code, str(refused.params["label"])) == ("answer.disabled", "Mark a unit")
    state = answer(state, BOB, "r1.t1.kill", ["kill"], unit="Rhino")
    assert state.kills[-1].unit == "Rhino" and state.kills[-1].by == BOB


def test_the_relic_carrier_may_drop_it_in_the_enemy_turn() -> None:
    state, _ = run(in_battle(), [CaptureRelic(actor=ALICE, unit="Bikers"), EndTurn(actor=ALICE)])
    assert steps(state, ALICE) == ["r1.t2.kill", "r1.t2.drop"]
    state = answer(state, ALICE, "r1.t2.drop", ["drop"])
    assert state.relic_holders == [] and steps(state, ALICE) == ["r1.t2.kill"]


def test_an_end_turn_answered_on_an_earlier_turn_is_refused_as_stale() -> None:
    """An old "End turn" must not end the player's current turn: its step id names the turn it was for."""
    state = in_battle()
    old = Answer(actor=ALICE, step="r1.t1.turn", values=["end-turn"])
    state, _ = PROCEDURE.answer(state, old, no_dice())
    state = answer(state, BOB, "r1.t2.turn", ["end-turn"], roller=dice(6))
    assert (state.round, state.active_player) == (2, ALICE)
    before = state.model_dump()
    with pytest.raises(RuleError) as caught:
        PROCEDURE.answer(state, old, no_dice())
    assert caught.value.code == "answer.stale" and {k: str(v) for k, v in caught.value.params.items()} == {
        "now": "Your turn"
    }
    assert state.model_dump() == before
    assert question(state, ALICE, "r2.t1.turn").options[-1].value == "end-turn"


def test_unit_forms_are_checked_before_anything_steps() -> None:
    state = in_battle()
    assert refusal(state, ALICE, "r1.t1.turn", ["mark"], unit="   ").code == "answer.field_missing"
    long = refusal(state, ALICE, "r1.t1.turn", ["mark"], unit="x" * 81)
    assert (long.code, long.params["limit"]) == ("answer.field_long", 80)
    own = refusal(
        answer(state, BOB, "r1.t1.kill", ["kill"], unit="Scouts"),
        ALICE,
        "r1.t1.kill",
        ["kill"],
        unit="scouts",
    )
    assert (own.code, own.params) == ("fortyk.own_unit.destroyed", {"unit": "Scouts", "enemy": BOB})


def test_choices_must_be_offered_and_counted() -> None:
    state = in_battle()
    assert refusal(state, ALICE, "r1.t1.turn", ["surrender"]).code == "answer.not_offered"
    assert refusal(state, ALICE, "r1.t1.turn", []).code == "answer.count"
    assert refusal(state, ALICE, "r1.t1.turn", ["end-turn", "mark"], unit="A").code == "answer.count"
    assert refusal(state, BOB, "r1.t1.turn", ["end-turn"]).code == "answer.stale"  # not Bob's turn
    assert refusal(state, ALICE, "setup.deploy-roll").code == "answer.stale"


def test_the_end_report_is_a_form_with_quarters_and_marked_units() -> None:
    state, _ = run(in_battle(), [MarkUnit(actor=ALICE, unit="Terminators")])
    state, _ = end_rounds(state, 5, dice(1))
    assert steps(state, ALICE) == steps(state, BOB) == ["end.report"]
    report = question(state, BOB, "end.report").options[0]
    quarters, alive = report.form
    assert (quarters.kind, quarters.minimum, quarters.maximum) == ("number", 0, 4) and not alive.required
    over = refusal(state, BOB, "end.report", ["report"], quarters="5")
    assert (over.code, over.params["maximum"]) == ("answer.field_range", 4)
    assert refusal(state, BOB, "end.report", ["report"], quarters="x").code == "answer.field_number"
    wrong = refusal(state, BOB, "end.report", ["report"], quarters="1", marked_alive="Scouts")
    assert (wrong.code, wrong.params) == (
        "fortyk.not_marked_alive",
        {"unit": "Scouts", "units": "Terminators"},
    )
    state = answer(state, BOB, "end.report", ["report"], quarters="3", marked_alive="none")
    assert (state.reports[0].quarters, state.reports[0].marked_alive) == (3, [])
    taken = refusal(state, ALICE, "end.report", ["report"], quarters="2")
    assert (taken.code, taken.params["left"]) == ("fortyk.quarters_taken", 1)
    state = answer(state, ALICE, "end.report", ["report"], quarters="1", marked_alive="")
    assert state.finished and ask(state, ALICE) == [] and PROCEDURE.ask(state, BOB) == []


def test_strangers_are_asked_nothing_and_refused() -> None:
    state = in_battle()
    assert PROCEDURE.ask(state, 333) == []
    with pytest.raises(RuleError):
        PROCEDURE.answer(
            state, Answer(actor=333, step="r1.t1.kill", values=["kill"], fields={"unit": "X"}), no_dice()
        )


def test_a_mission_without_marks_or_relics_asks_only_for_kills_and_the_end_of_the_turn() -> None:
    state = in_battle()
    mission = state.mission.model_copy(
        update={"marks": None, "relics": None, "conditions": state.mission.conditions[:1]}
    )
    state = state.model_copy(update={"mission": mission})
    assert [o.value for o in question(state, ALICE, "r1.t1.turn").options] == ["end-turn"]
    state, _ = run(state, [RecordDestroyed(actor=ALICE, unit="Scouts")])
    assert steps(state, ALICE) == ["r1.t1.turn", "r1.t1.kill"]


def _everyone(state: FortyKState) -> list[Question]:
    found = {q.step: q for player in state.players for q in ask(state, player)}
    return list(found.values())


def test_the_table_shows_the_battle_as_one_series_and_its_tools_as_optional() -> None:
    """Every turn's question is one run (one message that follows the battle, pinging nobody turn
    after turn); recording a kill and dropping the relic are tools the game doesn't wait for."""
    state, _ = run(in_battle(), [CaptureRelic(actor=ALICE, unit="Bikers"), EndTurn(actor=ALICE)])
    by_step = {q.step: q for q in _everyone(state)}
    assert set(by_step) == {"r1.t2.turn", "r1.t2.kill", "r1.t2.drop"}
    assert by_step["r1.t2.turn"].series == "battle" and not by_step["r1.t2.turn"].optional
    assert by_step["r1.t2.kill"].optional and by_step["r1.t2.drop"].optional
    later, _ = run(state, [EndTurn(actor=BOB)], dice(6))
    assert question(later, ALICE, "r2.t1.turn").series == "battle"


def test_the_set_up_is_a_run_between_the_choices_that_need_a_player() -> None:
    """The zone, deploying and the first-turn roll-off follow one another as one run; the roll-offs'
    winners' other choices and the seize are questions of their own (their player is told)."""
    state = new_game()
    series: list[tuple[str, str | None]] = []
    script = [
        (BOB, "setup.deploy-roll", [], dice(2, 5)),
        (BOB, "setup.zone", ["2"], no_dice()),
        (ALICE, "setup.deployed", [], no_dice()),
        (BOB, "setup.deployed", [], no_dice()),
        (ALICE, "setup.first-roll", [], dice(1, 6)),
        (BOB, "setup.order", ["first"], no_dice()),
        (ALICE, "setup.seize", ["no"], no_dice()),
    ]
    for actor, step, values, roller in script:
        asked = question(state, actor, step)
        assert not asked.optional
        series.append((step, asked.series))
        state = answer(state, actor, step, values, roller=roller)
    assert series == [
        ("setup.deploy-roll", None),
        ("setup.zone", "deployment"),
        ("setup.deployed", "deployment"),
        ("setup.deployed", "deployment"),
        ("setup.first-roll", "deployment"),
        ("setup.order", None),
        ("setup.seize", None),
    ]


def test_a_player_who_reported_is_no_longer_waited_for_but_may_correct() -> None:
    state, _ = end_rounds(in_battle(), 5, dice(1))
    state = answer(state, BOB, "end.report", ["report"], quarters="3", marked_alive="none")
    assert steps(state, ALICE) == ["end.report"] and steps(state, BOB) == ["end.correct"]
    assert question(state, ALICE, "end.report").players == [ALICE]
    correct = question(state, BOB, "end.correct")
    assert correct.optional and [f.key for f in correct.options[0].form] == ["quarters", "marked_alive"]
    state = answer(state, BOB, "end.correct", ["report"], quarters="1", marked_alive="none")
    assert [(r.player, r.quarters) for r in state.reports] == [(BOB, 1)]
    state = answer(state, ALICE, "end.report", ["report"], quarters="3")
    assert state.finished and state.outcome is not None
