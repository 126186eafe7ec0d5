"""The Warcry prompt contract: what `ask` offers is exactly what the battle takes, checked before it steps.

Random battles are driven only through `PROCEDURE.answer` with answers picked from `ask`; at every
state a random illegal answer (a value not offered, a disabled option, a wrong count, a number out of
range, an old step id, a stranger) is refused with a code and changes nothing.
"""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.confirmation import ConfirmPending
from rules.dice import Roller
from rules.errors import RuleError
from rules.session import Answer, Question
from rules.warcry import actions as act
from rules.warcry.models import WarcryState
from rules.warcry.pack import core_pack
from rules.warcry.procedure import PROCEDURE
from rules.warcry.setup import start
from tests.rules.warcry.warcry_helpers import ALICE, BOB, PLAYERS, legal_answer, refused, roller

BATTLEPLANS = [b.name for b in core_pack().battleplans]
STRANGER = 999


def asked(state: WarcryState, player: int) -> dict[str, Question]:
    return {q.step: q for q in PROCEDURE.ask(state, player)}


def illegal_answers(state: WarcryState, earlier: set[tuple[int, str]]) -> list[tuple[Answer, str]]:
    """Answers the battle must refuse now, each with the family of code it must be refused with."""
    wrong: list[tuple[Answer, str]] = [(Answer(actor=STRANGER, step="r1.end"), "stranger")]
    for player in state.players:
        now = asked(state, player)
        wrong += [
            (Answer(actor=player, step=step), "stale")
            for who, step in earlier
            if who == player and step not in now
        ]
        wrong.append((Answer(actor=player, step="r99.end"), "stale"))
        for question in now.values():
            step = question.step
            if question.kind == "number":
                assert question.number is not None
                wrong.append((Answer(actor=player, step=step, number=question.number.maximum + 1), "answer"))
                wrong.append((Answer(actor=player, step=step, number=question.number.minimum - 1), "answer"))
                wrong.append((Answer(actor=player, step=step), "answer"))
            if question.kind != "choose":
                continue
            wrong.append((Answer(actor=player, step=step, values=["not-offered"]), "answer"))
            wrong.append((Answer(actor=player, step=step, values=[]), "answer"))
            if len(question.options) > question.max_values:
                values = [o.value for o in question.options[: question.max_values + 1]]
                wrong.append((Answer(actor=player, step=step, values=values), "answer"))
            wrong += [
                (Answer(actor=player, step=step, values=[o.value]), "answer")
                for o in question.options
                if o.disabled
            ]
            if question.topic == "warcry.split":
                for sizes in (("0", "0", "0"), ("8", "4", "3"), ("x", "3", "3"), ("1", "1", "99")):
                    fields = dict(zip(("dagger", "shield", "hammer"), sizes, strict=True))
                    wrong.append((Answer(actor=player, step=step, values=["split"], fields=fields), "any"))
            if question.topic == "warcry.champion":
                wrong.append(
                    (Answer(actor=player, step=step, values=["name"], fields={"name": "  "}), "answer")
                )
    return wrong


def assert_refused(state: WarcryState, answer: Answer, family: str, dice: Roller) -> None:
    before = state.model_dump()
    with pytest.raises(RuleError) as caught:
        PROCEDURE.answer(state, answer, dice)
    code = caught.value.code
    assert state.model_dump() == before, "a refused answer changed the state"
    if family == "stranger":
        return  # refused by the shared game-state guard, before anything is asked
    if family == "stale":
        assert code in ("answer.stale", "answer.not_asked"), code
    elif family == "answer":
        assert code.startswith("answer."), code
    else:
        assert code.startswith(("answer.", "warcry.")), code


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(plan=st.sampled_from(BATTLEPLANS), seed=st.integers(0, 10_000), data=st.data())
def test_random_answers_from_ask_step_and_everything_else_is_refused(
    plan: str, seed: int, data: st.DataObject
) -> None:
    dice = roller(seed)
    state, _ = start("q", PLAYERS, dice, battleplan=plan, names={ALICE: "Alice", BOB: "Bob"})
    earlier: set[tuple[int, str]] = set()
    for _ in range(70):
        if state.finished:
            break
        offers = [(p, q) for p in state.players for q in PROCEDURE.ask(state, p)]
        assert offers, "an open battle always asks somebody something"
        for player in state.players:
            steps = [q.step for q in PROCEDURE.ask(state, player)]
            assert len(steps) == len(set(steps)), "one step id names one question"
        assert PROCEDURE.ask(state, STRANGER) == []
        assert_the_table_can_show(state)

        illegal = illegal_answers(state, earlier)
        family = data.draw(st.sampled_from(sorted({f for _, f in illegal})))
        wrong, _ = data.draw(st.sampled_from([(a, f) for a, f in illegal if f == family]))
        assert_refused(state, wrong, family, dice)

        player, question = data.draw(st.sampled_from(offers))
        answer = legal_answer(data, question, player)
        before = state.model_dump()
        new_state, _ = PROCEDURE.answer(state, answer, dice)
        assert state.model_dump() == before, "answering mutated the state it was given"
        assert PROCEDURE.load(PROCEDURE.dump(new_state)) == new_state
        earlier |= {(p, q.step) for p, q in offers}
        state = new_state
    if state.finished:
        assert PROCEDURE.ask(state, ALICE) == [] and PROCEDURE.ask(state, BOB) == []
        assert state.outcome is not None and state.outcome.mission == plan


# What the battle waits on (every other question is a tool on the board that it goes on without).
AWAITED = {
    "warcry.split",
    "warcry.colour",
    "warcry.deploy",
    "warcry.begin",
    "warcry.end_round",
    "warcry.confirm",
    "warcry.remove",
    "warcry.claim",
}


def assert_the_table_can_show(state: WarcryState) -> None:
    """The battle always waits on somebody; tools are optional; one question a series at a time; while
    a step waits for its confirmation, the confirmation is all that is asked, of both players."""
    every = [q for p in state.players for q in PROCEDURE.ask(state, p)]
    assert any(not q.optional for q in every), "nothing to press but tools"
    for question in every:
        assert question.optional == (question.topic not in AWAITED), question.topic
    for player in state.players:
        series = [q.series for q in PROCEDURE.ask(state, player) if q.series]
        assert len(series) == len(set(series)), "two questions of one series asked at once"
    if state.pending is not None:
        for player in state.players:
            (only,) = PROCEDURE.ask(state, player)
            assert only.topic == "warcry.confirm" and only.series == "battle"
            assert [o.value for o in only.options] == ["confirm", "not_yet"]


# ---------------------------------------------------------------- hand-worked cases


def answer(state: WarcryState, player: int, step: str, dice: Roller, **given: object) -> WarcryState:
    new_state, _ = PROCEDURE.answer(state, Answer(actor=player, step=step, **given), dice)  # type: ignore[arg-type]
    return new_state


def end(state: WarcryState, by: int, dice: Roller, confirm_by: int | None = None) -> WarcryState:
    """`by` presses "End battle round N" and `confirm_by` (the other player unless named) confirms."""
    number = state.round
    state = answer(state, by, f"r{number}.end", dice)
    assert state.pending is not None and state.round == number
    (confirm,) = PROCEDURE.ask(state, by)
    assert str(confirm.title) == f"Confirm: end battle round {number}?"
    confirmer = state.opponent(by) if confirm_by is None else confirm_by
    return answer(state, confirmer, confirm.step, dice, values=["confirm"])


def set_up(plan: str, seed: int = 0) -> tuple[WarcryState, Roller]:
    dice = roller(seed)
    state, _ = start("q", PLAYERS, dice, battleplan=plan, names={ALICE: "Alice", BOB: "Bob"})
    sizes = {"dagger": "3", "shield": "4", "hammer": "3"}
    for player in (state.loser_of_priority, state.winner_of_priority):
        (question,) = PROCEDURE.ask(state, player)
        assert question.topic == "warcry.split" and [f.key for f in question.options[0].form] == list(sizes)
        state = answer(state, player, question.step, dice, values=["split"], fields=sizes)
    state = answer(state, state.winner_of_priority, "colours", dice, values=["red"])
    assert state.red == state.winner_of_priority
    while state.phase == "deployment":
        current = next(s for s in state.deployment if not s.done)
        (question,) = [q for q in PROCEDURE.ask(state, current.player) if q.topic == "warcry.deploy"]
        state = answer(state, current.player, question.step, dice)
    state = answer(state, BOB, "objectives.begin", dice)
    assert state.phase == "battle" and state.round == 1
    return state, dice


def test_an_old_end_of_round_button_is_stale_in_the_next_round() -> None:
    state, dice = set_up("Reaper")
    state = end(state, ALICE, dice)
    state = end(state, BOB, dice)
    assert state.round == 3
    with refused("answer.stale", now="Blood tally this round: Alice"):
        PROCEDURE.answer(state, Answer(actor=ALICE, step="r2.end"), dice)
    with refused("answer.stale"):
        PROCEDURE.answer(state, Answer(actor=BOB, step="deploy.0"), dice)


def test_set_up_asks_one_player_at_a_time_and_the_other_is_not_asked() -> None:
    dice = roller(3)
    state, _ = start("q", PLAYERS, dice, battleplan="Reaper")
    loser, winner = state.loser_of_priority, state.winner_of_priority
    assert PROCEDURE.ask(state, winner) == []
    with refused("answer.not_asked"):
        PROCEDURE.answer(state, Answer(actor=winner, step=f"split.p{PLAYERS.index(winner) + 1}"), dice)
    step = f"split.p{PLAYERS.index(loser) + 1}"
    with refused("warcry.shield_small", minimum=4, fighters=10):
        fields = {"dagger": "3", "shield": "3", "hammer": "4"}
        PROCEDURE.answer(state, Answer(actor=loser, step=step, values=["split"], fields=fields), dice)
    with refused("answer.field_range", minimum=0, maximum=15):
        fields = {"dagger": "3", "shield": "30", "hammer": "4"}
        PROCEDURE.answer(state, Answer(actor=loser, step=step, values=["split"], fields=fields), dice)


def test_tallies_offer_exactly_the_numbers_the_battleplan_allows() -> None:
    state, dice = set_up("Treasure Hunters")
    state = answer(state, ALICE, "r1.treasure.p1", dice, values=["3"])
    (bob_tally,) = [q for q in PROCEDURE.ask(state, ALICE) if q.step == "r1.treasure.p2"]
    # 5 tokens, Alice's fighters hold 3: Bob's count is picked from 0 to 2, each naming whose count it is
    assert bob_tally.kind == "choose" and bob_tally.optional
    assert [str(o.label) for o in bob_tally.options] == [
        "Bob: 0 carrying",
        "Bob: 1 carrying",
        "Bob: 2 carrying",
    ]
    with refused("answer.not_offered"):
        PROCEDURE.answer(state, Answer(actor=BOB, step="r1.treasure.p2", values=["3"]), dice)
    state = answer(state, BOB, "r1.treasure.p2", dice, values=["2"])
    assert state.carrying == {ALICE: 3, BOB: 2}


def test_ley_lines_initiative_awakening_and_control() -> None:
    state, dice = set_up("Ley Lines")
    (initiative,) = [q for q in PROCEDURE.ask(state, ALICE) if q.topic == "warcry.initiative"]
    assert [o.value for o in initiative.options] == [str(ALICE), str(BOB)]
    state = answer(state, BOB, "r1.initiative", dice, values=[str(ALICE)])
    (again,) = [q for q in PROCEDURE.ask(state, ALICE) if q.topic == "warcry.initiative"]
    assert [o.disabled for o in again.options] == [True, False]
    with refused("answer.disabled"):
        PROCEDURE.answer(state, Answer(actor=BOB, step="r1.initiative", values=[str(ALICE)]), dice)
    assert "r1.awaken" not in asked(state, ALICE) and "r1.awaken" in asked(state, BOB)
    with refused("answer.stale"):
        PROCEDURE.answer(state, Answer(actor=ALICE, step="r1.awaken", values=["o1"]), dice)
    awaken = asked(state, BOB)["r1.awaken"]
    assert [str(o.label) for o in awaken.options] == [
        "Objective A",
        "Objective B",
        "Objective C",
        "Objective D",
    ]
    state = answer(state, BOB, "r1.awaken", dice, values=["o1"])
    assert state.awakened == ["Centre", "A"] and "r1.awaken" not in asked(state, BOB)
    # once awakened, the initiative is fixed: no initiative question is left to answer
    assert "r1.initiative" not in asked(state, ALICE)
    control = asked(state, ALICE)["r1.control.1"]
    assert {o.value for o in control.options} == {
        f"o{i}.{who}" for i in (0, 1) for who in (ALICE, BOB, "none")
    }
    state = answer(state, ALICE, "r1.control.1", dice, values=[f"o1.{BOB}"])
    assert state.control == {"A": BOB}


def test_a_champion_tally_step_changes_with_the_tally_so_a_repeat_is_stale() -> None:
    state, dice = set_up("Brutal Conquest")
    state = answer(state, ALICE, "r1.champion.p1", dice, values=["name"], fields={"name": " Skullgrinder "})
    assert state.champions[ALICE].name == "Skullgrinder"
    assert {"r1.tally.p1.t0", "r1.down.p1", "r1.champion.p2"} <= set(asked(state, BOB))
    state = answer(state, BOB, "r1.tally.p1.t0", dice, number=4)  # Bob adds to Alice's champion's tally
    assert state.champions[ALICE].tally == 0 and state.pending is not None
    (confirm,) = asked(state, ALICE).values()
    assert str(confirm.title) == "Confirm: add 4 to Skullgrinder's tally?"
    state = answer(state, ALICE, confirm.step, dice, values=["confirm"])
    with refused("answer.stale"):
        PROCEDURE.answer(state, Answer(actor=BOB, step="r1.tally.p1.t0", number=4), dice)
    assert state.champions[ALICE].tally == 4
    with refused("answer.field_missing"):
        PROCEDURE.answer(state, Answer(actor=BOB, step="r1.champion.p2", values=["name"]), dice)


def test_hidden_vault_removal_is_asked_of_the_remover_only() -> None:
    state, dice = set_up("The Hidden Vault")
    state = end(state, ALICE, dice)
    remover = state.removal_by
    assert remover is not None
    other = state.opponent(remover)
    assert PROCEDURE.ask(state, other) == []
    with refused("answer.not_asked"):
        PROCEDURE.answer(state, Answer(actor=other, step="r1.remove", values=["o0"]), dice)
    with refused("answer.not_offered"):
        PROCEDURE.answer(state, Answer(actor=remover, step="r1.remove", values=["o9"]), dice)
    state = answer(state, remover, "r1.remove", dice, values=["o1"])
    assert state.objectives == ["A", "C"] and state.round == 2


def test_the_last_warband_claim_is_answered_by_the_opponent() -> None:
    state, dice = set_up("Reaper")
    for number in range(1, 5):
        assert f"r{number}.last_warband" not in asked(state, ALICE)
        state = end(state, ALICE, dice)
    assert state.round == 5 and "r5.last_warband" in asked(state, ALICE)
    state = answer(state, ALICE, "r5.last_warband", dice, values=[str(ALICE)])
    assert PROCEDURE.ask(state, ALICE) == [] and list(asked(state, BOB)) == ["r5.claim"]
    state = answer(state, BOB, "r5.claim", dice, values=["yes"])
    assert state.finished and state.outcome is not None and state.outcome.winner == ALICE


@pytest.mark.parametrize("plan", ["Reaper", "Ley Lines", "Treasure Hunters", "The Cursed Relic"])
def test_past_the_extra_round_only_the_last_warband_and_the_round_end_are_asked(plan: str) -> None:
    state, dice = set_up(plan)
    for number in range(1, 6):
        steps = asked(state, ALICE)
        assert f"r{number}.end" in steps and (f"r{number}.last_warband" in steps) == (number == 5)
        assert len(steps) > 2, "the battleplan's own tallies are asked up to the extra round"
        state = end(state, BOB, dice)
    assert not state.finished and state.round == 6
    for player in PLAYERS:
        assert list(asked(state, player)) == ["r6.last_warband", "r6.end"]
    state = end(state, ALICE, dice)
    assert list(asked(state, BOB)) == ["r7.last_warband", "r7.end"]
    state = answer(state, BOB, "r7.last_warband", dice, values=[str(ALICE)])
    assert state.finished and state.outcome is not None and state.outcome.winner == ALICE


def test_steps_and_values_fit_the_contract_patterns() -> None:
    state, _ = set_up("Ley Lines")
    pattern = re.compile(r"[A-Za-z0-9_.\-]{1,40}")
    for question in PROCEDURE.ask(state, ALICE) + PROCEDURE.ask(state, BOB):
        assert pattern.fullmatch(question.step)
        assert all(pattern.fullmatch(o.value) for o in question.options)
        assert len(question.options) <= 25


def test_ending_a_round_waits_for_a_confirmation_from_either_player() -> None:
    state, dice = set_up("Reaper")
    state = answer(state, ALICE, "r1.blood.p1", dice, number=50)
    state = answer(state, ALICE, "r1.end", dice)
    assert state.round == 1 and state.vp == {}, "the round waits for its confirmation"
    for player in PLAYERS:
        assert list(asked(state, player)) == ["r1.confirm.0"]
    (confirm,) = PROCEDURE.ask(state, BOB)
    assert str(confirm.title) == "Confirm: end battle round 1?" and confirm.series == "battle"
    assert [str(o.label) for o in confirm.options] == ["Confirm", "Not yet"]
    # nothing else is taken meanwhile: an old button is stale, a direct action is refused with a reason
    with refused("answer.stale", now="Confirm: end battle round 1?"):
        PROCEDURE.answer(state, Answer(actor=BOB, step="r1.blood.p2", number=10), dice)
    with refused("confirm.pending", by=ALICE):
        PROCEDURE.step(state, act.SetBloodTally(actor=BOB, player=BOB, points=10), dice)

    # Not yet: the round goes on as if nothing was pressed
    state = answer(state, BOB, "r1.confirm.0", dice, values=["not_yet"])
    assert state.pending is None and state.round == 1 and "r1.end" in asked(state, ALICE)
    # the player who pressed may confirm their own; the earlier confirmation's button is stale
    state = answer(state, ALICE, "r1.end", dice)
    assert list(asked(state, ALICE)) == ["r1.confirm.1"]
    with refused("answer.stale"):
        PROCEDURE.answer(state, Answer(actor=BOB, step="r1.confirm.0", values=["confirm"]), dice)
    state = answer(state, ALICE, "r1.confirm.1", dice, values=["confirm"])
    assert state.round == 2 and state.vp == {ALICE: 1, BOB: 0} and state.pending is None
    with refused("confirm.nothing_pending"):
        PROCEDURE.step(state, ConfirmPending(actor=BOB, serial=1, confirm=True), dice)


def test_a_tally_recorded_for_the_other_player_waits_for_a_confirmation() -> None:
    state, dice = set_up("Reaper")
    state = answer(state, ALICE, "r1.blood.p1", dice, number=50)  # her own: taken at once
    assert state.blood == {ALICE: 50} and state.pending is None
    state = answer(state, ALICE, "r1.blood.p2", dice, number=80)  # Bob's: Bob confirms, or Alice
    assert state.blood == {ALICE: 50} and state.pending is not None
    (confirm,) = PROCEDURE.ask(state, BOB)
    assert str(confirm.title) == "Confirm: Bob's blood tally for battle round 1 is 80?"
    with refused("confirm.stale"):
        PROCEDURE.step(state, ConfirmPending(actor=BOB, serial=7, confirm=True), dice)
    declined = answer(state, BOB, confirm.step, dice, values=["not_yet"])
    assert declined.blood == {ALICE: 50} and declined.pending is None
    state = answer(state, BOB, confirm.step, dice, values=["confirm"])
    assert state.blood == {ALICE: 50, BOB: 80} and state.pending is None
    # a tally the battle would refuse is refused at once, not offered for confirmation
    with refused("warcry.not_a_player"):
        PROCEDURE.step(state, act.SetBloodTally(actor=ALICE, player=77, points=10), dice)


TALLY_FIELDS = {
    "warcry.treasure": "carrying",
    "warcry.near": "near",
    "warcry.quarters": "quarters",
    "warcry.blood": "blood",
    "warcry.altar": "on_altar",
}


def highest(question: Question, player: int) -> Answer:
    """`player`'s answer to `question` with its highest count (or its one button)."""
    if question.kind == "done":
        return Answer(actor=player, step=question.step)
    if question.kind == "number":
        assert question.number is not None
        return Answer(actor=player, step=question.step, number=question.number.maximum)
    return Answer(actor=player, step=question.step, values=[question.options[-1].value])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    plan=st.sampled_from(BATTLEPLANS),
    seed=st.integers(0, 10_000),
    confirmer=st.sampled_from(PLAYERS),
    accept=st.booleans(),
)
def test_a_step_waiting_for_confirmation_changes_nothing_until_confirmed(
    plan: str, seed: int, confirmer: int, accept: bool
) -> None:
    """Whatever one player presses alone (the end of the round, a tally for the other player), only the
    question changes until either player confirms; Not yet leaves the battle as it was."""
    state, dice = set_up(plan, seed)
    presses = [
        q
        for q in PROCEDURE.ask(state, ALICE)
        if q.topic == "warcry.end_round" or (q.topic in TALLY_FIELDS and q.params.get("player") == BOB)
    ]
    assert presses
    kept = {"confirmation"}
    for question in presses:
        waiting, _ = PROCEDURE.answer(state, highest(question, ALICE), dice)
        assert waiting.pending is not None and waiting.pending.by == ALICE
        assert waiting.model_dump(exclude=kept) == state.model_dump(exclude=kept)
        (confirm,) = PROCEDURE.ask(waiting, confirmer)
        value = "confirm" if accept else "not_yet"
        after, _ = PROCEDURE.answer(waiting, Answer(actor=confirmer, step=confirm.step, values=[value]), dice)
        assert after.pending is None and after.confirmation.asked == state.confirmation.asked + 1
        if not accept:
            assert after.model_dump(exclude=kept) == state.model_dump(exclude=kept)
        elif question.topic == "warcry.end_round":
            assert after.round == state.round + 1 or after.finished or after.removal_by is not None
        else:
            recorded = getattr(after, TALLY_FIELDS[question.topic])
            wanted = highest(question, ALICE)
            assert recorded[BOB] == (wanted.number if wanted.number is not None else int(wanted.values[0]))


def test_a_battle_saved_with_its_own_confirmation_loads_and_confirms() -> None:
    """Saved when Warcry kept its own confirmation (`pending`, `confirmations` on the state): it loads
    as the shared one, the button already posted still answers it, and Confirm takes the step."""
    state, dice = set_up("Reaper")
    state = answer(state, ALICE, "r1.blood.p2", dice, number=80)
    (posted,) = PROCEDURE.ask(state, BOB)
    saved = json.loads(PROCEDURE.dump(state))
    shared = saved.pop("confirmation")
    saved.update(pending=shared["pending"], confirmations=shared["asked"])
    loaded = PROCEDURE.load(json.dumps(saved))
    assert loaded == state and loaded.pending is not None and loaded.pending.by == ALICE
    assert PROCEDURE.ask(loaded, BOB) == [posted]
    confirmed = answer(loaded, BOB, posted.step, dice, values=["confirm"])
    assert confirmed.blood == {BOB: 80} and confirmed.pending is None and confirmed.confirmation.asked == 1
