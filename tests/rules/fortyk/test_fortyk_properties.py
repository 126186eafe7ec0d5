"""Properties over random games: every state survives JSON, `step` never changes its input, refusals
change nothing, and scores never exceed what the mission can give."""

from __future__ import annotations

import random

from fortyk_helpers import ALICE, BOB, in_battle, new_game
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.dice import Roller
from rules.errors import RuleError
from rules.fortyk import PROCEDURE, FortyKState, action_for_button, prompt, step
from rules.fortyk.actions import FortyKAction, MarkUnit, RecordDestroyed, ReportEnd
from rules.fortyk.events import UnitMarked
from rules.fortyk.models import Phase
from rules.fortyk.scoring import kill_points, split_share
from rules.fortyk.units import kill_of, marked_survivors, relic_carried_by

NAMES = ["Scouts", "Terminators", "Rhino", "Dreadnought", "Bikers", "Predator"]


def _candidates(state: FortyKState) -> list[FortyKAction]:
    actions: list[FortyKAction] = []
    for button in prompt(state).buttons:
        for actor in (ALICE, BOB):
            if button.needs == "unit":
                actions.extend(action_for_button(state, button.key, actor, name) for name in NAMES)
            elif button.needs == "report":
                actions.extend(ReportEnd(actor=actor, quarters=q) for q in range(5))
                actions.append(ReportEnd(actor=actor, quarters=1, marked_alive=NAMES[:2]))
            else:
                actions.append(action_for_button(state, button.key, actor))
                if actor in button.players and button.key == "end_turn":
                    actions.extend([actions[-1]] * 6)  # lean towards finishing games
    return actions


def _check_invariants(state: FortyKState) -> None:
    assert FortyKState.model_validate_json(state.model_dump_json()) == state
    mission = state.mission
    bonus = mission.marks.bonus_kill_points if mission.marks else 0
    for player in state.players:
        assert kill_points(state, player) == sum(k.kill_points for k in state.kills if k.by == player)
    for kill in state.kills:
        assert kill.kill_points in (0, 1, 1 + bonus)
        assert kill.by == state.opponent(kill.owner)
    turns = [(m.by, m.round, m.turn) for m in state.marks]
    assert len(turns) == len(set(turns)), "two marks in one turn"
    assert len({(m.owner, m.unit.casefold()) for m in state.marks}) == len(state.marks)
    for holder in state.relic_holders:
        unit_owner = state.opponent(holder.relic_owner)
        assert kill_of(state, unit_owner, holder.unit) is None
    assert len({h.relic_owner for h in state.relic_holders}) == len(state.relic_holders)
    assert 0 <= state.round <= mission.battle_length.max_rounds
    assert PROCEDURE.awaiting(state) == []
    if state.finished:
        assert state.phase is Phase.FINISHED and state.outcome is not None
        totals = {p: 0 for p in state.players}
        for result in state.results:
            condition = next(c for c in mission.conditions if c.key == result.key)
            awards = [result.points_for(p) for p in state.players]
            if condition.per_unit:
                for player, points in zip(state.players, awards, strict=True):
                    assert points == condition.points * len(
                        next(r for r in state.reports if r.player == player).marked_alive
                    )
            else:
                assert all(0 <= a <= condition.points for a in awards)
                assert sum(awards) in (condition.points, 2 * split_share(condition.points), 0)
            for player, points in zip(state.players, awards, strict=True):
                totals[player] += points
        for player in state.players:
            own_marked = sum(1 for m in state.marks if m.owner == player)
            assert totals[player] <= 15 + 10 + 5 + own_marked
        assert [(s.player, s.score) for s in state.outcome.sides] == list(totals.items())
        best = max(totals.values())
        leaders = [p for p, t in totals.items() if t == best]
        assert state.outcome.winner == (leaders[0] if len(leaders) == 1 else None)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), data=st.data())
def test_random_games_keep_every_invariant(seed: int, data: st.DataObject) -> None:
    roller = Roller(random.Random(seed))
    state = new_game()
    for _ in range(400):
        candidates = _candidates(state)
        if not candidates:
            break
        action = data.draw(st.sampled_from(candidates))
        before = state.model_dump_json()
        try:
            new, events = step(state, action, roller)
        except RuleError as refusal:
            assert refusal.message
            assert state.model_dump_json() == before
            continue
        assert state.model_dump_json() == before, "step changed its input"
        for event in events:
            if isinstance(event, UnitMarked):
                assert relic_carried_by(state, event.mark.owner, event.mark.unit) is None
        _check_invariants(new)
        state = new
        if state.finished:
            break


@settings(max_examples=60, deadline=None)
@given(kills=st.lists(st.tuples(st.sampled_from(NAMES), st.booleans(), st.integers(0, 3)), max_size=12))
def test_kill_points_follow_the_marks(kills: list[tuple[str, bool, int]]) -> None:
    """Alice marks (or not) one unit a turn and kills some units after some end-turns: each kill is worth 2
    when marked that turn, 0 when marked in an earlier turn, 1 otherwise."""

    state = in_battle()
    roller = Roller(random.Random(0))
    for name, mark, turns_later in kills:
        while state.active_player != ALICE and state.phase is Phase.BATTLE:
            state, _ = step(state, _end_turn(state), roller)
        if state.phase is not Phase.BATTLE:
            break
        if mark:
            try:
                state, _ = step(state, MarkUnit(actor=ALICE, unit=name), roller)
            except RuleError:
                pass
        for _ in range(turns_later):
            if state.phase is Phase.BATTLE:
                state, _ = step(state, _end_turn(state), roller)
        if state.phase is not Phase.BATTLE or kill_of(state, BOB, name) is not None:
            continue
        marks = [m for m in state.marks if m.unit == name]
        expected = 1
        if marks:
            same_turn = marks[0].round == state.round and marks[0].turn == state.turn
            expected = 2 if same_turn else 0
        state, _events = step(state, RecordDestroyed(actor=ALICE, unit=name), roller)
        assert state.kills[-1].kill_points == expected
    assert kill_points(state, ALICE) == sum(k.kill_points for k in state.kills)
    assert set(marked_survivors(state, BOB)) <= {m.unit for m in state.marks}


def _end_turn(state: FortyKState) -> FortyKAction:
    assert state.active_player is not None
    return action_for_button(state, "end_turn", state.active_player)
