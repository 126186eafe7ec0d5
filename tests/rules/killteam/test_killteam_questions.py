"""Kill Team through the shared prompt contract: `PROCEDURE.ask` lists exactly what may be answered,
and `PROCEDURE.answer` steps on those answers and refuses everything else with a code, changing nothing.

The property test plays games with random answers taken from `ask` (so every game is driven only by
what the questions offer) mixed with illegal ones: values not offered, disabled options, wrong counts,
numbers out of range, stale step ids from earlier states, and strangers.
"""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from rules.dice import Roller
from rules.errors import RuleError
from rules.killteam import PROCEDURE, KillTeamState, PreviousGame, start
from rules.killteam.actions import EndTurningPoint, SealBid, SealScouting, SetBattleReady
from rules.killteam.models import MISSION_METHODS, TACOPS_METHODS
from rules.killteam.questions import to_action
from rules.sealed import ChoicesRevealed, verify
from rules.session import Answer, Question
from tests.rules.killteam.killteam_helpers import ALICE, BOB, FULL_PACK, Table

STRANGER = 4242
MAX_ANSWERS = 400
PREVIOUS_GAMES = [None, PreviousGame(winner=BOB, mission="loot", map="A4"), PreviousGame(winner=None)]
# Rules an option list can't show: a whole hand breaking the one-archetype or faction rule, and the
# answering player's own Battle Ready and VP cap under the battle's public buttons.
REFUSALS_OPTIONS_CANT_SHOW = re.compile(
    r"killteam\.(hand_\w+|battle_ready_counts|battle_ready_not_counted|vp_cap)$"
)


def legal_answer(rng: random.Random, state: KillTeamState, player: int, asked: Question) -> Answer:
    """A random answer that `check_answer` accepts (a hand that fits the rules, more often than not)."""
    if asked.kind == "number":
        assert asked.number is not None
        return Answer(
            actor=player, step=asked.step, number=rng.randint(asked.number.minimum, asked.number.maximum)
        )
    if asked.kind == "done":
        return Answer(actor=player, step=asked.step)
    enabled = [o.value for o in asked.options if not o.disabled]
    if asked.max_values > 1 and rng.random() < 0.7:
        return Answer(actor=player, step=asked.step, values=fitting_hand(state, enabled, asked.min_values))
    if asked.topic == "killteam.battle" and rng.random() < 0.6:
        return Answer(actor=player, step=asked.step, values=["end"])
    return Answer(actor=player, step=asked.step, values=rng.sample(enabled, asked.min_values))


def fitting_hand(state: KillTeamState, allowed: list[str], count: int) -> list[str]:
    pack = state.pack
    if not all(pack.tac_op(v) for v in allowed):  # missions or maps: any will do
        return allowed[:count]
    faction_ids = [v for v in allowed if (op := pack.tac_op(v)) is not None and op.faction is not None]
    archetype_ids = [v for v in allowed if v not in faction_ids]
    picked = faction_ids[: 3 if count == 6 else 1]
    return picked + archetype_ids[: count - len(picked)]


def illegal_answers(
    rng: random.Random, state: KillTeamState, player: int, asked: Question, retired: list[str]
) -> list[tuple[Answer, re.Pattern[str]]]:
    """Answers the game must refuse, each with the refusal codes it may give."""
    step = asked.step
    found: list[tuple[Answer, re.Pattern[str]]] = [
        (Answer(actor=STRANGER, step=step, values=["x"]), re.compile(r"killteam\.not_a_player$")),
        (Answer(actor=player, step="never.asked", values=["x"]), re.compile(r"answer\.stale$")),
    ]
    if retired:
        found.append(
            (
                Answer(actor=player, step=rng.choice(retired), values=["x"], number=0),
                re.compile(r"answer\.(stale|not_asked)$"),
            )
        )
    if asked.kind == "number":
        assert asked.number is not None
        high = asked.number.maximum
        found += [
            (Answer(actor=player, step=step), re.compile(r"answer\.number_missing$")),
            (
                Answer(actor=player, step=step, number=high + rng.randint(1, 5)),
                re.compile(r"answer\.number_range$"),
            ),
            (
                Answer(actor=player, step=step, number=-rng.randint(1, 5)),
                re.compile(r"answer\.number_range$"),
            ),
        ]
    if asked.kind == "choose":
        enabled = [o.value for o in asked.options if not o.disabled]
        some = enabled[: asked.min_values - 1]
        found += [
            (
                Answer(actor=player, step=step, values=[*some, "not-offered"]),
                re.compile(r"answer\.not_offered$"),
            ),
            (Answer(actor=player, step=step, values=[]), re.compile(r"answer\.count$")),
            (
                Answer(actor=player, step=step, values=enabled[: asked.max_values + 1]),
                re.compile(r"answer\.count$") if len(enabled) > asked.max_values else re.compile(r"^$"),
            ),
        ]
        if asked.min_values > 1:
            found.append(
                (
                    Answer(actor=player, step=step, values=[enabled[0]] * asked.min_values),
                    re.compile(r"answer\.repeated$"),
                )
            )
        disabled = [o.value for o in asked.options if o.disabled]
        if disabled:
            found.append(
                (
                    Answer(actor=player, step=step, values=[*some, rng.choice(disabled)]),
                    re.compile(r"answer\.disabled$"),
                )
            )
    return [(answer, codes) for answer, codes in found if codes.pattern != "^$"]


def assert_refused(state: KillTeamState, roller: Roller, answer: Answer, codes: re.Pattern[str]) -> None:
    before = state.model_dump()
    with pytest.raises(RuleError) as refused:
        PROCEDURE.answer(state, answer, roller)
    assert codes.match(refused.value.code), (refused.value.code, refused.value.params, answer)
    assert state.model_dump() == before


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    moves=st.integers(0, 2**32),
    mission=st.sampled_from(MISSION_METHODS),
    tacops=st.sampled_from(TACOPS_METHODS),
    previous=st.sampled_from(PREVIOUS_GAMES),
)
def test_answers_from_ask_play_the_game_and_nothing_else_is_accepted(
    seed: int, moves: int, mission: str, tacops: str, previous: PreviousGame | None
) -> None:
    roller = Roller(random.Random(seed))
    rng = random.Random(moves)
    state, _ = start(
        "kt-ask",
        [ALICE, BOB],
        mission,
        tacops,
        roller,
        pack=FULL_PACK,
        mission="secure",
        map="B7",
        previous=previous,
    )
    seen: dict[int, set[str]] = {ALICE: set(), BOB: set()}
    retired: dict[int, list[str]] = {ALICE: [], BOB: []}
    for _ in range(MAX_ANSWERS):
        if state.finished:
            assert PROCEDURE.ask(state, ALICE) == [] and PROCEDURE.ask(state, BOB) == []
            break
        asks = {p: PROCEDURE.ask(state, p) for p in (ALICE, BOB)}
        assert PROCEDURE.ask(state, STRANGER) == []
        for player, asked in asks.items():
            steps = {q.step for q in asked}
            assert len(steps) == len(asked), "two questions share a step id"
            assert not steps & set(retired[player]), "a step id came back after the game moved past it"
            retired[player] += sorted(seen[player] - steps - set(retired[player]))
            seen[player] = steps
            for question in asked:
                assert player in question.players and question.topic.startswith("killteam.")
        players = [p for p in (ALICE, BOB) if asks[p]]
        assert players, f"nobody is asked anything at {state.stage}"
        player = rng.choice(players)
        question = rng.choice(asks[player])
        if rng.random() < 0.3:
            for answer, codes in illegal_answers(rng, state, player, question, retired[player]):
                assert_refused(state, roller, answer, codes)
        answer = legal_answer(rng, state, player, question)
        frozen = state.model_dump()
        try:
            new, _ = PROCEDURE.answer(state, answer, roller)
        except RuleError as refusal:
            assert REFUSALS_OPTIONS_CANT_SHOW.match(refusal.code), (
                refusal.code,
                refusal.params,
                question.topic,
            )
            assert question.max_values > 1 or question.topic == "killteam.battle"
            assert state.model_dump() == frozen
            continue
        assert state.model_dump() == frozen, "answering changed the state it was given"
        assert KillTeamState.model_validate_json(new.model_dump_json()) == new
        state = new
    event(f"stopped in {state.macro}")


# ---------------------------------------------------------------------- what each answer becomes


def answer_with(table: Table, player: int, **given: object) -> None:
    asked = PROCEDURE.ask(table.state, player)
    assert len(asked) == 1
    answer = Answer(actor=player, step=asked[0].step, **given)  # type: ignore[arg-type]
    table.state, events = PROCEDURE.answer(table.state, answer, table.roller)
    table.events += events


def test_a_sealed_bid_by_number_draws_its_own_nonce_and_verifies() -> None:
    table = Table("bid", "free")
    (asked,) = PROCEDURE.ask(table.state, ALICE)
    assert (asked.kind, asked.sealed, asked.private, asked.step) == ("number", True, True, "bid.mission.1")
    assert asked.number is not None and (asked.number.minimum, asked.number.maximum) == (0, 10)
    action = to_action(table.state, asked, Answer(actor=ALICE, step=asked.step, number=3))
    assert action == SealBid(actor=ALICE, step="bid.mission.1", amount=3)
    answer_with(table, ALICE, number=3)
    answer_with(table, BOB, number=5)
    (revealed,) = table.of(ChoicesRevealed)
    nonces = {e.nonce for e in revealed.entries}
    assert len(nonces) == 2 and all(len(n) == 32 for n in nonces)
    for entry in revealed.entries:
        assert verify("kt-test", "bid.mission.1", entry.player, entry.choice, entry.nonce, entry.commitment)
    assert table.state.bids is not None and table.state.bids.tokens == {ALICE: 7, BOB: 5}
    # the shuffles and dice in the public audit never hold a nonce
    assert all(entry.nonce not in str(table.roller.rolls) for entry in revealed.entries)


def test_scouting_and_battle_answers_become_their_actions() -> None:
    table = Table("random", "free", seed=4)
    table.auto(until="scouting")
    (asked,) = PROCEDURE.ask(table.state, ALICE)
    assert asked.topic == "killteam.scouting" and asked.sealed and asked.private
    assert to_action(table.state, asked, Answer(actor=ALICE, step="scouting", values=["recon"])) == (
        SealScouting(actor=ALICE, step="scouting", option="recon")
    )
    table.auto(until="battle")
    (battle,) = PROCEDURE.ask(table.state, BOB)
    assert battle.step == "battle.1" and [o.value for o in battle.options] == ["end", "ready", "not_ready"]
    assert PROCEDURE.ask(table.state, ALICE) == [battle]  # one public question, the same for both
    assert to_action(table.state, battle, Answer(actor=BOB, step="battle.1", values=["end"])) == (
        EndTurningPoint(actor=BOB, turning_point=1)
    )
    assert to_action(table.state, battle, Answer(actor=BOB, step="battle.1", values=["not_ready"])) == (
        SetBattleReady(actor=BOB, painted=False)
    )
    answer_with(table, BOB, values=["ready"])
    assert table.state.scores[BOB].battle_ready
    with pytest.raises(RuleError) as refused:
        PROCEDURE.answer(table.state, Answer(actor=BOB, step="battle.1", values=["ready"]), table.roller)
    assert refused.value.code == "killteam.battle_ready_counts"
    answer_with(table, BOB, values=["end"])
    assert PROCEDURE.ask(table.state, BOB) == []
    old = Answer(actor=BOB, step="battle.1", values=["end"])
    with pytest.raises(RuleError) as refused:
        PROCEDURE.answer(table.state, old, table.roller)
    assert refused.value.code == "killteam.waiting_for_opponent"  # the game's own words for "not you now"
    answer_with(table, ALICE, values=["end"])
    with pytest.raises(RuleError) as refused:
        PROCEDURE.answer(table.state, old, table.roller)
    assert refused.value.code == "answer.stale" and str(refused.value.params["now"]) == "Turning point 2"


def test_a_done_question_and_an_opponents_choice() -> None:
    table = Table("random", "free", seed=4)
    winner = table.last_rolloff().winner
    loser = ALICE if winner == BOB else BOB
    assert PROCEDURE.ask(table.state, loser) == []
    with pytest.raises(RuleError) as refused:
        PROCEDURE.answer(
            table.state, Answer(actor=loser, step=table.state.step_id(), values=["attack"]), table.roller
        )
    assert refused.value.code == "killteam.opponents_choice"
    answer_with(table, winner, values=["attack"])
    assert table.state.attacker == winner
    table.auto(until="equipment")
    (asked,) = PROCEDURE.ask(table.state, ALICE)
    assert asked.kind == "done" and [str(o.label) for o in asked.options] == ["Done"]
    answer_with(table, ALICE)
    assert PROCEDURE.ask(table.state, ALICE) == [] and table.state.queue == [BOB]
