"""Property tests: random sequences of legal and illegal moves never break a rule of the game.

Each example plays a game with random (often illegal) actions from both players and checks, after
every step: refusals change nothing; the state survives JSON exactly; the input state is never
mutated; tokens stay within 0..10; revealed bids and sealed entries never change; VP stay within
every cap; hands keep the one-faction, one-archetype rule; no public event names a secret Tac Op.
"""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from rules.dice import Roller
from rules.errors import RuleError
from rules.killteam import (
    PROCEDURE,
    Choose,
    ConfirmPending,
    Done,
    EndGame,
    EndTurningPoint,
    KillTeamState,
    PreviousGame,
    RevealTacOp,
    Score,
    SealBid,
    SealScouting,
    SetBattleReady,
    private_prompt,
    prompt_for,
    start,
    step,
)
from rules.killteam.events import EndAnswered, SecretAsked, TacOpRevealed
from rules.killteam.models import (
    BID_TOKENS,
    MISSION_METHODS,
    MISSION_VP_PER_TP,
    MISSION_VP_TOTAL,
    TAC_OP_VP_EACH,
    TAC_OP_VP_TOTAL,
    TACOPS_METHODS,
    TURNING_POINTS,
    VP_TOTAL,
    BidContest,
)
from rules.sealed import ChoicesRevealed
from rules.session import Event
from tests.rules.killteam.killteam_helpers import ALICE, BOB, FULL_PACK

MAX_ACTIONS = 600
PREVIOUS_GAMES = [None, PreviousGame(winner=ALICE, mission="loot", map="A4"), PreviousGame(winner=None)]


def contests(state: KillTeamState) -> list[BidContest]:
    return [c for c in (state.bids, state.tac.bids) if c is not None]


def draw_action(rng: random.Random, state: KillTeamState, revealed_steps: list[str]) -> Any:
    """Mostly sensible moves (so games get far), with junk, stale and repeated ones mixed in."""
    players = [p for p in (ALICE, BOB) if prompt_for(state, p) is not None] or [ALICE, BOB]
    player = rng.choice(players)
    other = BOB if player == ALICE else ALICE
    roll = rng.randrange(1000)
    nonce = f"nonce-{roll:04d}-{len(revealed_steps):04d}"
    if roll < 8:  # ask to end: mostly withdrawn again (below), so games still get far
        return EndGame(actor=player)
    if roll < 40 and revealed_steps:  # try to change an already revealed sealed choice
        return SealBid(actor=player, step=rng.choice(revealed_steps), amount=0, nonce=nonce)
    if roll < 70:  # a stranger or a stale button
        return Done(actor=rng.choice([player, 4242]), step="stale.0")
    asked = prompt_for(state, player)
    if state.pending is not None and rng.random() < 0.7:  # answer the request to end, or a stale one
        serial = max(0, state.pending.serial + rng.choice([0, 0, 0, -1, 1]))
        return ConfirmPending(actor=player, serial=serial, confirm=rng.random() < 0.2)
    if state.stage == "battle" or asked is None:
        held = state.tac.held.get(player, []) + state.tac.held.get(other, [])[:1]
        card = rng.choice([None, *held])
        kind = rng.randrange(7)
        if kind == 0:
            return RevealTacOp(actor=player, tac_op=card or "nothing")
        if kind == 1:
            return SetBattleReady(actor=player, painted=rng.random() < 0.7)
        if kind in (2, 3):
            offset = rng.choice([-1, 0, 0, 0, 1])
            return EndTurningPoint(actor=player, turning_point=state.turning_point + offset)
        return Score(
            actor=player,
            mission_vp=rng.randint(-2, 5),
            tac_op=card,
            tac_op_vp=rng.randint(-1, 3) if card else 0,
        )
    if asked.kind == "number":
        maximum = asked.number.maximum if asked.number else BID_TOKENS
        return SealBid(actor=player, step=asked.step or "", amount=rng.randint(-1, maximum + 1), nonce=nonce)
    if asked.topic == "killteam.scouting":
        option = rng.choice([*(o.value for o in asked.options), "ambush"])
        return SealScouting(actor=player, step="scouting", option=option, nonce=nonce)
    if asked.kind == "done":
        return Done(actor=player, step=asked.step or "")
    values = [o.value for o in asked.options] or ["nothing"]
    allowed = [o.value for o in asked.options if not o.disabled] or values
    size = asked.min_values if roll % 5 else 1
    pool = allowed if roll % 3 else values
    picked = rng.sample(pool, size) if size <= len(pool) else pool
    return Choose(actor=player, step=asked.step or "", values=picked)


def check_invariants(before: KillTeamState, after: KillTeamState, events: list[Event]) -> None:
    assert KillTeamState.model_validate_json(after.model_dump_json()) == after
    # stored with its pack's JSON dumped once for the game (the pack is the same object every step)
    assert json.loads(PROCEDURE.dump(after)) == json.loads(after.model_dump_json())
    assert PROCEDURE.load(PROCEDURE.dump(after)) == after
    # an early end is never one player's step alone; while it waits nothing else changes, and Not yet
    # leaves the game as it was
    if after.finished and not before.finished:
        assert before.pending is not None or before.turning_point == TURNING_POINTS
    if before.pending is not None and not after.finished:
        cleared = before.confirmation.model_copy(update={"pending": None})
        assert after == before.model_copy(update={"confirmation": cleared})
    if before.pending is None and after.pending is not None:
        requested = before.confirmation.model_copy(
            update={"pending": after.pending, "asked": before.confirmation.asked + 1}
        )
        assert after == before.model_copy(update={"confirmation": requested})
        assert after.pending.serial == before.confirmation.asked
    for old, new in zip(contests(before), contests(after), strict=False):
        if old.prefix != new.prefix:
            continue
        assert all(0 <= t <= BID_TOKENS for t in new.tokens.values())
        assert new.history[: len(old.history)] == old.history, "a revealed bid changed"
        if old.sealed and new.sealed and old.sealed.step == new.sealed.step:
            for player, entry in old.sealed.entries.items():
                assert new.sealed.entries[player] == entry, "a sealed bid changed"
    for reveal in (e for e in events if isinstance(e, ChoicesRevealed) and not e.step.startswith("scouting")):
        records = [
            r
            for c in contests(after)
            for r in c.history
            if f"{c.prefix}.{r.category}.{r.round}" == reveal.step
        ]
        assert len(records) == 1
        assert records[0].bids == {e.player: int(e.choice) for e in reveal.entries}
    for score in after.scores.values():
        assert all(0 <= vp <= MISSION_VP_PER_TP for vp in score.mission)
        assert score.mission_total <= MISSION_VP_TOTAL
        assert all(0 <= vp <= TAC_OP_VP_EACH for vp in score.tac_ops.values())
        assert score.tac_op_total <= TAC_OP_VP_TOTAL and score.total <= VP_TOTAL
    for player, held in after.tac.held.items():
        cards = [after.pack.tac_op(i) for i in held]
        assert len(held) <= 3 and len(set(held)) == len(held)
        assert sum(1 for c in cards if c and c.faction) <= 1
        assert all(c.faction == after.faction_of(player) for c in cards if c and c.faction)
        assert len({c.archetype for c in cards if c and c.archetype}) <= 1
    # every new secret question is announced to its player (the bot DMs the prompt on that event)
    announced = {e.private_to: e.step for e in events if isinstance(e, SecretAsked)}
    for player in (ALICE, BOB):
        was, now = private_prompt(before, player), private_prompt(after, player)
        if now is not None and (was is None or was.step != now.step):
            assert announced.get(player) == now.step, f"no SecretAsked for {player}'s new prompt {now.step}"
        if player in announced:
            assert now is not None and now.step == announced[player]
    for shown in (e for e in events if isinstance(e, TacOpRevealed)):
        assert shown.card.id in after.tac.revealed[shown.player]
    if after.tac.secret:  # (a revealed card may share its name with the opponent's secret copy)
        public = "".join(
            e.model_dump_json() for e in events if e.private_to is None and not isinstance(e, TacOpRevealed)
        )
        for player, held in after.tac.held.items():
            for card in held:
                if card not in after.tac.revealed.get(player, []):
                    assert f'"{card}"' not in public, "a secret Tac Op appeared in public"


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    moves=st.integers(0, 2**32),
    mission=st.sampled_from(MISSION_METHODS),
    tacops=st.sampled_from(TACOPS_METHODS),
    previous=st.sampled_from(PREVIOUS_GAMES),
)
def test_random_play_keeps_every_rule(
    seed: int, moves: int, mission: str, tacops: str, previous: PreviousGame | None
) -> None:
    roller = Roller(random.Random(seed))
    rng = random.Random(moves)
    state, _ = start(
        "kt-prop",
        [ALICE, BOB],
        mission,
        tacops,
        roller,
        pack=FULL_PACK,
        mission="secure",
        map="B7",
        previous=previous,
    )
    revealed_steps: list[str] = []
    for _ in range(MAX_ACTIONS):
        if state.finished:
            break
        action = draw_action(rng, state, revealed_steps)
        frozen = state.model_dump_json()
        try:
            new, events = step(state, action, roller)
        except RuleError as refusal:
            assert state.model_dump_json() == frozen
            assert refusal.code.startswith(("killteam.", "answer.", "confirm.")), refusal.params
            continue
        assert state.model_dump_json() == frozen, "step changed its input state"
        check_invariants(state, new, events)
        revealed_steps += [e.step for e in events if isinstance(e, ChoicesRevealed)]
        for answered in (e for e in events if isinstance(e, EndAnswered)):
            event("an end was confirmed" if answered.confirmed else "an end was withdrawn")
        state = new
    event(f"stopped in {state.macro} at turning point {state.turning_point}")
    if state.finished and not state.turning_point:  # ended before its battle: no result at all
        assert state.outcome is None and state.abandoned
    elif state.finished:
        assert state.outcome is not None and len(state.outcome.sides) == 2
        totals = {s.player: s.score for s in state.outcome.sides}
        expected = None if totals[ALICE] == totals[BOB] else max(totals, key=lambda p: totals[p])
        assert state.outcome.winner == expected


@settings(max_examples=40, deadline=None)
@given(
    bids=st.lists(st.tuples(st.integers(0, 10), st.integers(0, 10)), min_size=1, max_size=12),
    seed=st.integers(0, 1000),
)
def test_bid_rounds_spend_only_on_a_decision(bids: list[tuple[int, int]], seed: int) -> None:
    """Whatever is bid: ties cost nothing, a decided round costs both bids, tokens never go below 0."""
    roller = Roller(random.Random(seed))
    state, _ = start("kt-bids", [ALICE, BOB], "bid", "free", roller, pack=FULL_PACK)
    for alice_bid, bob_bid in bids:
        if state.stage != "bid":
            break
        contest = state.bids
        assert contest is not None and contest.sealed is not None
        tokens = dict(contest.tokens)
        amounts = {ALICE: min(alice_bid, tokens[ALICE]), BOB: min(bob_bid, tokens[BOB])}
        for player in (ALICE, BOB):
            state, _ = step(
                state,
                SealBid(
                    actor=player,
                    step=contest.sealed.step,
                    amount=amounts[player],
                    nonce=f"nonce-{player}-{len(contest.history)}",
                ),
                roller,
            )
        after = state.bids
        assert after is not None
        if amounts[ALICE] == amounts[BOB]:
            assert after.tokens == tokens
        else:
            assert after.tokens == {p: tokens[p] - amounts[p] for p in tokens}
        assert all(t >= 0 for t in after.tokens.values())
        if state.stage == "bid_decide":
            state, _ = step(
                state,
                Choose(actor=after.winner or ALICE, step=state.step_id(), values=[_first_option(state)]),
                roller,
            )


def _first_option(state: KillTeamState) -> str:
    from rules.killteam import prompt

    return prompt(state).options[0].value
