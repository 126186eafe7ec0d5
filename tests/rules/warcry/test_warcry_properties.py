"""Property tests: any sequence of actions either applies cleanly or is refused with nothing changed."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.confirmation import ConfirmPending
from rules.dice import Roller
from rules.errors import RuleError
from rules.warcry import actions as act
from rules.warcry.models import WarcryState
from rules.warcry.pack import core_pack
from rules.warcry.procedure import PROCEDURE
from rules.warcry.setup import start
from rules.warcry.views import legal_actions, prompt, scoreboard
from tests.rules.warcry.warcry_helpers import ALICE, BOB, PLAYERS, roller

BATTLEPLANS = [b.name for b in core_pack().battleplans]
people = st.sampled_from([ALICE, BOB])
maybe_person = st.sampled_from([ALICE, BOB, None])
objectives = st.sampled_from(["Centre", "A", "B", "C", "D", "Z"])
small = st.integers(min_value=0, max_value=8)

ACTIONS = st.one_of(
    st.builds(
        act.SplitBattleGroups,
        actor=people,
        dagger=st.integers(0, 6),
        shield=st.integers(0, 6),
        hammer=st.integers(0, 6),
    ),
    st.builds(act.ChooseColour, actor=people, colour=st.sampled_from(["red", "blue"])),
    st.builds(act.Deploy, actor=people, group=st.sampled_from(["dagger", "shield", "hammer"])),
    st.builds(act.RollBlockedObjective, actor=people),
    st.builds(act.BeginBattle, actor=people),
    st.builds(act.SetInitiative, actor=people, player=people),
    st.builds(act.SetTreasureCarriers, actor=people, player=people, count=small),
    st.builds(act.SetCarrier, actor=people, player=maybe_person),
    st.builds(act.SetFightersNear, actor=people, player=people, count=small),
    st.builds(act.RollCarrierDamage, actor=people),
    st.builds(act.SetQuarters, actor=people, player=people, count=small),
    st.builds(act.SetBloodTally, actor=people, player=people, points=st.integers(0, 400)),
    st.builds(act.AwakenObjective, actor=people, objective=objectives),
    st.builds(act.SetControl, actor=people, objective=objectives, player=maybe_person),
    st.builds(act.RemoveObjective, actor=people, objective=objectives),
    st.builds(act.SetOnAltar, actor=people, player=people, count=small),
    st.builds(act.NominateChampion, actor=people, player=people, name=st.just("Champ")),
    st.builds(act.AddChampionTally, actor=people, player=people, amount=st.integers(1, 9)),
    st.builds(act.ChampionTakenDown, actor=people, player=people),
    st.builds(act.SetConditionMet, actor=people, player=maybe_person),
    st.builds(act.EndRound, actor=people, round=st.integers(1, 7)),
    st.builds(act.DeclareLastWarband, actor=people, player=people),
    st.builds(act.AnswerLastWarband, actor=people, accept=st.booleans()),
    st.builds(ConfirmPending, actor=people, serial=st.integers(0, 3), confirm=st.booleans()),
)
TALLIES = ("treasure", "near", "quarters", "blood", "altar", "champion_tally")


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    plan=st.sampled_from(BATTLEPLANS),
    seed=st.integers(0, 10_000),
    moves=st.lists(ACTIONS, max_size=80),
    answers=st.lists(st.tuples(people, st.booleans()), min_size=80, max_size=80),
)
def test_random_play_never_breaks_the_state(
    plan: str, seed: int, moves: list[act.WarcryAction], answers: list[tuple[int, bool]]
) -> None:
    """Random moves, each step left waiting for a confirmation answered at once by either player."""
    dice = roller(seed)
    state, _ = start("p", PLAYERS, dice, battleplan=plan)
    for move, (answerer, accept) in zip(moves, answers, strict=False):
        if state.finished:
            break
        before = PROCEDURE.dump(state)
        try:
            new_state, _ = PROCEDURE.step(state, move, dice)
        except RuleError as refusal:
            assert refusal.code.startswith(("warcry.", "game.", "confirm.")) or refusal.code == "text", (
                refusal.code
            )
            assert PROCEDURE.dump(state) == before
            continue
        assert PROCEDURE.dump(state) == before
        assert PROCEDURE.load(PROCEDURE.dump(new_state)) == new_state
        if state.pending is not None:
            assert move.kind == "confirm", "a step was taken while another waited for its confirmation"
        if move.kind == "end_round" or (move.kind in TALLIES and move.player != move.actor):  # type: ignore[union-attr]
            # pressed by one player alone: nothing changes but the confirmation it waits for
            assert new_state.pending is not None and new_state.pending.action == move
            kept = {"confirmation"}
            assert new_state.model_dump(exclude=kept) == state.model_dump(exclude=kept)
        if new_state.finished and state.last_warband_decides:
            assert move.kind in ("last_warband", "answer_last_warband"), "judged past the extra round"
        assert act.parse_action(move.model_dump_json()) == move
        if move.kind not in (
            "blocked_objective",
            "carrier_damage",
            "remove",
            "answer_last_warband",
            "end_round",
            "last_warband",
        ):
            assert move.kind in legal_actions(state, move.actor)
        state = new_state
        assert all(v >= 0 for v in state.vp.values())
        assert sum(state.quarters.values()) <= 4
        assert len(state.objectives) <= 5
        assert str(prompt(state, str)) and scoreboard(state, str)
        if state.pending is not None and move.kind != "confirm":
            resolve = ConfirmPending(actor=answerer, serial=state.pending.serial, confirm=accept)
            state, _ = PROCEDURE.step(state, resolve, dice)
            assert state.pending is None
    if state.finished:
        assert state.outcome is not None and state.outcome.mission == plan
        assert {s.player for s in state.outcome.sides} == set(PLAYERS)


def begun(plan: str, seed: int) -> tuple[WarcryState, Roller]:
    """A battle of `plan` set up with the smallest warbands and begun: round 1, nothing recorded."""
    dice = roller(seed)
    state, _ = start("p", PLAYERS, dice, battleplan=plan)
    for player in (state.loser_of_priority, state.winner_of_priority):
        split = act.SplitBattleGroups(actor=player, dagger=1, shield=1, hammer=1)
        state, _ = PROCEDURE.step(state, split, dice)
    state, _ = PROCEDURE.step(state, act.ChooseColour(actor=state.winner_of_priority, colour="red"), dice)
    while state.phase == "deployment":
        current = next(s for s in state.deployment if not s.done)
        state, _ = PROCEDURE.step(state, act.Deploy(actor=current.player, group=current.group), dice)
    state, _ = PROCEDURE.step(state, act.BeginBattle(actor=ALICE), dice)
    return state, dice


def end_rounds(state: WarcryState, dice: Roller, count: int) -> tuple[WarcryState, list[str]]:
    """End `count` rounds with nothing recorded (removing a Hidden Vault objective where asked)."""
    seen: list[str] = []
    for _ in range(count):
        if state.finished:
            break
        if state.removal_by is not None:
            removal = act.RemoveObjective(actor=state.removal_by, objective=state.objectives[0])
            state, _ = PROCEDURE.step(state, removal, dice)
        state, _ = PROCEDURE.step(state, act.EndRound(actor=BOB, round=state.round), dice)
        assert state.pending is not None
        confirm = ConfirmPending(actor=ALICE, serial=state.pending.serial, confirm=True)
        state, events = PROCEDURE.step(state, confirm, dice)
        seen += [getattr(e, "code", "") for e in events]
    return state, seen


@settings(max_examples=40, deadline=None)
@given(plan=st.sampled_from(BATTLEPLANS), seed=st.integers(0, 10_000), extra=st.integers(0, 5))
def test_a_battle_with_no_tallies_ends_by_round_four_or_plays_on_when_tied(
    plan: str, seed: int, extra: int
) -> None:
    state, dice = begun(plan, seed)
    state, seen = end_rounds(state, dice, 4 + extra)
    assert state.battleplan is not None
    if state.battleplan.otherwise_draw:
        assert state.finished and state.outcome is not None and state.outcome.winner is None
        return
    assert not state.finished and state.round == 5 + extra
    # judged after the last round and after the one extra round, never again
    assert seen.count("tied") == 1 and seen.count("last_warband_decides") == (extra >= 1)
    assert state.last_warband_decides == (extra >= 1)
    note = "the last warband standing decides" if extra else "an extra round: the battle is tied"
    assert note in str(prompt(state, str))


TALLY_ACTIONS = ACTIONS.filter(lambda a: a.kind not in ("last_warband", "answer_last_warband", "confirm"))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    plan=st.sampled_from([b.name for b in core_pack().battleplans if not b.otherwise_draw]),
    seed=st.integers(0, 10_000),
    moves=st.lists(TALLY_ACTIONS, max_size=40),
)
def test_past_the_extra_round_only_the_last_warband_ends_the_battle(
    plan: str, seed: int, moves: list[act.WarcryAction]
) -> None:
    state, dice = begun(plan, seed)
    state, _ = end_rounds(state, dice, 5)
    assert state.round == 6 and state.last_warband_decides
    tallies = state.model_dump(include={"vp", "carrying", "carrier", "near", "quarters", "control"})
    for move in moves:
        try:
            new_state, _ = PROCEDURE.step(state, move, dice)
        except RuleError:
            continue
        assert move.kind == "end_round", f"{move.kind} was taken past the extra round"
        assert new_state.pending is not None and new_state.round == state.round
        confirm = ConfirmPending(actor=move.actor, serial=new_state.pending.serial, confirm=True)
        new_state, _ = PROCEDURE.step(new_state, confirm, dice)
        assert not new_state.finished and new_state.round == state.round + 1
        state = new_state
    assert state.model_dump(include=set(tallies)) == tallies
    for player in PLAYERS:
        assert legal_actions(state, player) == ["end_round", "last_warband"]
    state, _ = PROCEDURE.step(state, act.DeclareLastWarband(actor=ALICE, player=BOB), dice)
    assert state.outcome is not None and state.outcome.winner == BOB
