"""Step 11: victory points within their caps, four turning points, and the result."""

from __future__ import annotations

import random

import pytest
from killteam_helpers import ALICE, BOB, Table

from rules.dice import Roller
from rules.errors import RuleError
from rules.killteam import PROCEDURE, EndGame, EndTurningPoint, RevealTacOp, Score, SetBattleReady, scoreboard
from rules.killteam.events import GameEnded, TurningPointStarted, VictoryPointsScored


def in_battle(tacops: str = "free") -> Table:
    table = Table("organised", tacops, mission="Secure", map="B7")
    table.auto(until="faction")
    table.choose(ALICE, "Alpha")
    table.choose(BOB, "Beta")
    if tacops == "free":
        table.choose(ALICE, "Recon")
        table.choose(ALICE, "alpha-op-1", "recon-op-1", "recon-op-2")
        table.choose(BOB, "Security")
        table.choose(BOB, "security-op-1", "security-op-2", "security-op-3")
    table.auto(until="battle")
    return table


def test_scoring_before_the_battle_is_refused() -> None:
    table = Table("random", "free")
    assert table.refused(Score(actor=ALICE, mission_vp=1)) == (
        "Victory points are recorded once the battle has begun.")
    assert table.refused(EndTurningPoint(actor=ALICE, turning_point=1)) == "The battle hasn't begun yet."


def test_mission_vp_cap_per_turning_point() -> None:
    table = in_battle()
    events = table.act(Score(actor=ALICE, mission_vp=3))
    assert isinstance(events[0], VictoryPointsScored) and events[0].total == 3
    assert table.refused(Score(actor=ALICE, mission_vp=2)) == (
        "That would make 5 mission VP in turning point 1; the cap is 4 mission VP per turning point.")
    table.act(Score(actor=ALICE, mission_vp=1))
    assert table.refused(Score(actor=ALICE, mission_vp=-5)) == (
        "That would take your mission VP for turning point 1 below 0.")
    table.act(Score(actor=ALICE, mission_vp=-1))  # a correction
    assert table.state.scores[ALICE].mission == [3, 0, 0, 0]
    assert table.refused(Score(actor=ALICE, mission_vp=1, turning_point=2)) == (
        "That score is for turning point 2, but this is turning point 1.")
    assert table.refused(Score(actor=ALICE)) == (
        "Give the victory points to record (mission VP, Tac Op VP or both).")


def test_tac_op_vp_needs_a_revealed_tac_op_and_stops_at_two() -> None:
    table = in_battle()
    assert table.refused(Score(actor=ALICE, tac_op="recon-op-1", tac_op_vp=1)) == (
        "Reveal Recon op 1 before you score it.")
    assert table.refused(Score(actor=ALICE, tac_op_vp=1)) == "Say which Tac Op scored those VP."
    assert table.refused(Score(actor=ALICE, tac_op="security-op-1", tac_op_vp=1)) == (
        "You don't hold a Tac Op by that name.")
    table.act(RevealTacOp(actor=ALICE, tac_op="recon-op-1"))
    table.act(Score(actor=ALICE, tac_op="Recon op 1", tac_op_vp=2))
    assert table.refused(Score(actor=ALICE, tac_op="recon-op-1", tac_op_vp=1)) == (
        "That would make 3 VP from Recon op 1; the cap is 2 VP from each Tac Op.")
    line = scoreboard(table.state).sides[0]
    assert [(t.name, t.vp) for t in line.tac_ops] == [("Recon op 1", 2)] and line.total == 2


def test_battle_ready_is_worth_two_once() -> None:
    table = in_battle()
    table.act(SetBattleReady(actor=BOB))
    assert table.state.scores[BOB].total == 2
    assert table.refused(SetBattleReady(actor=BOB)) == "Your Battle Ready painted roster already counts."
    table.act(SetBattleReady(actor=BOB, painted=False))
    assert table.state.scores[BOB].total == 0


def test_the_most_anyone_can_score_is_twenty_four() -> None:
    table = in_battle()
    for card in ("alpha-op-1", "recon-op-1", "recon-op-2"):
        table.act(RevealTacOp(actor=ALICE, tac_op=card))
        table.act(Score(actor=ALICE, tac_op=card, tac_op_vp=2))
    table.act(SetBattleReady(actor=ALICE))
    for tp in range(1, 5):
        table.act(Score(actor=ALICE, mission_vp=4))
        with pytest.raises(RuleError, match="the cap is 4 mission VP per turning point"):
            table.act(Score(actor=ALICE, mission_vp=1))
        table.end_tp(ALICE)
        if tp < 4:
            assert table.refused(Score(actor=ALICE, mission_vp=1)) == (
                f"You have ended turning point {tp}; record further VP in the next one.")
        table.end_tp(BOB)
    assert table.state.finished and table.state.outcome is not None
    totals = table.of(GameEnded)[0].totals
    assert totals == {ALICE: 24, BOB: 0}
    assert table.state.outcome.winner == ALICE and table.state.outcome.mission == "Secure"
    assert table.state.outcome.summary == "Secure on Map B7, after 4 turning points: 24 VP to 0 VP."


def test_turning_points_end_when_both_players_say_so() -> None:
    table = in_battle()
    assert table.refused(EndTurningPoint(actor=ALICE, turning_point=2)) == (
        "Turning point 2 is not the current one (this is turning point 1).")
    table.end_tp(BOB)
    assert table.refused(EndTurningPoint(actor=BOB, turning_point=1)) == (
        "You have already ended turning point 1; waiting for your opponent.")
    assert table.state.turning_point == 1
    table.end_tp(ALICE)
    assert table.state.turning_point == 2 and table.of(TurningPointStarted)[-1].turning_point == 2


def test_equal_totals_are_a_draw() -> None:
    table = in_battle()
    table.act(Score(actor=ALICE, mission_vp=2))
    table.act(Score(actor=BOB, mission_vp=2))
    for _ in range(4):
        table.end_tp(ALICE)
        table.end_tp(BOB)
    assert table.state.outcome is not None and table.state.outcome.winner is None
    assert table.state.outcome.summary.endswith("2 VP to 2 VP, a draw.")
    assert scoreboard(table.state).draw


def test_ending_early_decides_on_the_totals_so_far() -> None:
    table = in_battle("acquired")
    # Acquired Tac Ops are public, so they score without a reveal
    card = table.state.tac.held[BOB][0]
    table.act(Score(actor=BOB, tac_op=card, tac_op_vp=1, mission_vp=2))
    table.end_tp(ALICE)
    table.end_tp(BOB)
    table.act(EndGame(actor=ALICE))
    outcome = table.state.outcome
    assert outcome is not None and outcome.winner == BOB
    assert [(s.player, s.score, s.faction) for s in outcome.sides] == [(ALICE, 0, "Alpha"), (BOB, 3, "Beta")]
    assert "ended early in turning point 2" in outcome.summary
    with pytest.raises(RuleError, match="already finished"):
        PROCEDURE.step(table.state, Score(actor=BOB, mission_vp=1), Roller(random.Random(0)))


def test_ending_before_the_battle_is_a_draw_at_nil() -> None:
    table = Table("random", "free")
    table.act(EndGame(actor=BOB))
    assert table.state.outcome is not None and table.state.outcome.winner is None
    assert "ended before the battle began" in table.state.outcome.summary
