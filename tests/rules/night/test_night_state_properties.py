"""Properties of the night's state machine over random runs: the waitlist keeps its order and the
capacity, and the organiser's review keeps every pairing property."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from night_helpers import NOW, ORGANISER, open_night, pairing_inputs, placement

from rules.errors import RuleError
from rules.night import (
    Drop,
    Edit,
    Leave,
    MoveTable,
    NightState,
    Pair,
    PairingContext,
    PairingResult,
    SignUp,
    Signup,
    Swap,
    Table,
    step,
)
from rules.night.events import Promoted

RUNS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
PLAYERS = st.integers(min_value=1, max_value=12)
SIGN_UP = st.tuples(st.just("sign_up"), PLAYERS, st.sampled_from(["killteam", "warcry"]))
LEAVE = st.tuples(st.just("leave"), PLAYERS, st.just(""))
CAPACITY = st.tuples(st.just("capacity"), st.integers(min_value=2, max_value=8), st.just(""))


def apply(state: NightState, op: tuple[str, int, str]) -> tuple[NightState, list[Any]]:
    """One random step; a refusal (leaving twice, the same sign-up twice) leaves the state as it was."""
    kind, value, system = op
    if kind == "sign_up":
        action: Any = SignUp(actor=value, signup=Signup(player=value, systems=[system]))
    elif kind == "leave":
        action = Leave(actor=value, player=value)
    else:
        action = Edit(actor=ORGANISER, settings=state.settings.model_copy(update={"capacity": value}))
    before = state.model_dump_json()
    try:
        return step(state, action, NOW)
    except RuleError:
        assert state.model_dump_json() == before
        return state, []


@RUNS
@given(st.integers(min_value=2, max_value=6), st.lists(SIGN_UP | LEAVE, max_size=40))
def test_the_first_to_sign_up_hold_the_places_and_the_rest_wait_in_order(
    capacity: int, ops: list[tuple[str, int, str]]
) -> None:
    """With a fixed capacity the confirmed players are always the earliest `capacity` sign-ups of
    those still signed up, and the waitlist the rest, in sign-up order."""
    state = open_night(capacity=capacity)
    order: list[int] = []  # players still signed up, in the order they first signed up
    for op in ops:
        state, events = apply(state, op)
        kind, player, _ = op
        if kind == "sign_up" and player not in order:
            order.append(player)
        if kind == "leave" and player in order:
            order.remove(player)
        assert [s.player for s in state.signups] == order[:capacity]
        assert [s.player for s in state.waitlist] == order[capacity:]
        seqs = [s.seq for s in [*state.signups, *state.waitlist]]
        assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)
        promoted = [e.player for e in events if isinstance(e, Promoted)]
        assert len(promoted) <= 1 and all(p in order[:capacity] for p in promoted)


@RUNS
@given(st.lists(SIGN_UP | LEAVE | CAPACITY, max_size=50))
def test_changing_the_capacity_never_drops_anyone_and_promotes_in_order(
    ops: list[tuple[str, int, str]],
) -> None:
    state = open_night(capacity=4)
    for op in ops:
        before = state
        state, events = apply(state, op)
        confirmed_before = [s.player for s in before.signups]
        waiting_before = [s.player for s in before.waitlist]
        confirmed = [s.player for s in state.signups]
        promoted = [e.player for e in events if isinstance(e, Promoted)]
        leaving = op[1] if op[0] == "leave" else None
        # no one confirmed is moved back to the waitlist or dropped, except by leaving
        kept = [p for p in confirmed_before if p != leaving]
        assert confirmed[: len(kept)] == kept
        # promotions take the head of the waitlist, in its order
        assert promoted == [p for p in waiting_before if p != leaving][: len(promoted)]
        # a place free with someone waiting never lasts past a step; promotions fill places only
        if state.waitlist:
            assert len(state.signups) >= state.settings.capacity
        if promoted:
            assert len(state.signups) <= state.settings.capacity


@st.composite
def reviews(draw: st.DrawFn) -> tuple[NightState, list[Any]]:
    """A night under review and a run of the organiser's changes (valid or not)."""
    signups, tables, context, seed = draw(pairing_inputs(max_players=16))
    offered = ["killteam", "warcry", "warmaster", "fortyk"]
    state = open_night(systems=offered, capacity=200)
    for signup in sorted(signups, key=lambda s: s.seq):
        state, _ = step(state, SignUp(actor=signup.player, signup=signup.model_copy(update={"seq": 0})), NOW)
    state, _ = step(state, Pair(actor=ORGANISER, tables=tables, context=context, seed=seed), NOW)
    players = [s.player for s in signups] or [1]
    table_ids = [t.table_id for t in tables] or ["t0"]
    changes = st.one_of(
        st.builds(
            Swap, actor=st.just(ORGANISER), first=st.sampled_from(players), second=st.sampled_from(players)
        ),
        st.builds(Drop, actor=st.just(ORGANISER), player=st.sampled_from(players)),
        st.builds(
            MoveTable,
            actor=st.just(ORGANISER),
            pairing=st.integers(min_value=0, max_value=10),
            table_id=st.sampled_from(table_ids),
        ),
    )
    return state, draw(st.lists(changes, max_size=12))


def check_result(result: PairingResult, signups: list[Signup], tables: list[Table]) -> None:
    where = placement(result)
    assert set(where) == {s.player for s in signups}
    paired = [p for pairing in result.pairings for p in pairing.players]
    assert len(paired) == len(set(paired)) and len(paired) + len(result.sat_out) == len(signups)
    by_id = {t.table_id: t for t in tables}
    used = [p.table_id for p in result.pairings if p.table_id is not None]
    assert len(used) == len(set(used))
    by_player = {s.player: s for s in signups}
    for pairing in result.pairings:
        assert all(pairing.system in by_player[p].systems for p in pairing.players)
        if pairing.table_id is None:
            assert pairing.reason("night.no_table") is not None
        else:
            assert by_id[pairing.table_id].suits(pairing.system)


@RUNS
@given(reviews())
def test_the_organisers_changes_keep_everyone_placed_once_on_suitable_tables(
    review: tuple[NightState, list[Any]],
) -> None:
    state, changes = review
    assert state.result is not None
    check_result(state.result, state.signups, state.tables)
    for change in changes:
        before = state.model_dump_json()
        try:
            state, _ = step(state, change, NOW)
        except RuleError:
            assert state.model_dump_json() == before
            continue
        assert state.result is not None
        check_result(state.result, state.signups, state.tables)
    assert NightState.model_validate_json(state.model_dump_json()) == state


def test_a_night_with_no_one_signed_up_pairs_no_one() -> None:
    state, _ = step(open_night(), Pair(actor=ORGANISER, tables=[], context=PairingContext(), seed=0), NOW)
    assert state.result is not None and state.result.pairings == [] and state.result.sat_out == []
    assert state.status == "review"
