"""Step 11: victory points within their caps, four turning points, and the result."""

from __future__ import annotations

import random

import pytest

from rules.dice import Roller
from rules.errors import RuleError
from rules.killteam import (
    PROCEDURE,
    ConfirmPending,
    EndGame,
    EndTurningPoint,
    RevealTacOp,
    Score,
    SetBattleReady,
    scoreboard,
)
from rules.killteam.events import GameAbandoned, GameEnded, TurningPointStarted, VictoryPointsScored
from tests.rules.killteam.killteam_helpers import ALICE, BOB, Table


def in_battle(tacops: str = "free") -> Table:
    table = Table("organised", tacops, mission="Secure", map="B7")
    table.auto(until="faction")
    table.choose(ALICE, "alpha")
    table.choose(BOB, "beta")
    if tacops == "free":
        table.choose(ALICE, "recon")
        table.choose(ALICE, "alpha-op-1", "recon-op-1", "recon-op-2")
        table.choose(BOB, "security")
        table.choose(BOB, "security-op-1", "security-op-2", "security-op-3")
    table.auto(until="battle")
    return table


def test_scoring_before_the_battle_is_refused() -> None:
    table = Table("random", "free")
    assert table.refused(Score(actor=ALICE, mission_vp=1)) == ("killteam.battle_not_begun", {})
    assert table.refused(EndTurningPoint(actor=ALICE, turning_point=1)) == (
        "killteam.battle_not_begun_yet",
        {},
    )


def test_mission_vp_cap_per_turning_point() -> None:
    table = in_battle()
    events = table.act(Score(actor=ALICE, mission_vp=3))
    assert isinstance(events[0], VictoryPointsScored) and events[0].total == 3
    assert table.refused(Score(actor=ALICE, mission_vp=2)) == (
        "killteam.mission_vp_turning_point_cap",
        {"vp": 5, "turning_point": 1, "cap": 4},
    )
    table.act(Score(actor=ALICE, mission_vp=1))
    assert table.refused(Score(actor=ALICE, mission_vp=-5)) == (
        "killteam.mission_vp_negative",
        {"turning_point": 1},
    )
    table.act(Score(actor=ALICE, mission_vp=-1))  # a correction
    assert table.state.scores[ALICE].mission == [3, 0, 0, 0]
    assert table.refused(Score(actor=ALICE, mission_vp=1, turning_point=2)) == (
        "killteam.score_turning_point",
        {"given": 2, "turning_point": 1},
    )
    assert table.refused(Score(actor=ALICE)) == ("killteam.score_nothing", {})


def test_tac_op_vp_needs_a_revealed_tac_op_and_stops_at_two() -> None:
    table = in_battle()
    assert table.refused(Score(actor=ALICE, tac_op="recon-op-1", tac_op_vp=1)) == (
        "killteam.tac_op_unrevealed",
        {"tac_op": "Recon op 1"},
    )
    assert table.refused(Score(actor=ALICE, tac_op_vp=1)) == ("killteam.score_which_tac_op", {})
    assert table.refused(Score(actor=ALICE, tac_op="security-op-1", tac_op_vp=1)) == (
        "killteam.tac_op_not_held",
        {},
    )
    table.act(RevealTacOp(actor=ALICE, tac_op="recon-op-1"))
    table.act(Score(actor=ALICE, tac_op="Recon op 1", tac_op_vp=2))
    assert table.refused(Score(actor=ALICE, tac_op="recon-op-1", tac_op_vp=1)) == (
        "killteam.tac_op_vp_each_cap",
        {"vp": 3, "tac_op": "Recon op 1", "cap": 2},
    )
    line = scoreboard(table.state).sides[0]
    assert [(t.name, t.vp) for t in line.tac_ops] == [("Recon op 1", 2)] and line.total == 2


def test_battle_ready_is_worth_two_once() -> None:
    table = in_battle()
    table.act(SetBattleReady(actor=BOB))
    assert table.state.scores[BOB].total == 2
    assert table.refused(SetBattleReady(actor=BOB)) == ("killteam.battle_ready_counts", {})
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
        with pytest.raises(RuleError) as refused:
            table.act(Score(actor=ALICE, mission_vp=1))
        assert refused.value.code == "killteam.mission_vp_turning_point_cap"
        table.end_tp(ALICE)
        if tp < 4:
            assert table.refused(Score(actor=ALICE, mission_vp=1)) == (
                "killteam.turning_point_ended",
                {"turning_point": tp},
            )
        table.end_tp(BOB)
    assert table.state.finished and table.state.outcome is not None
    totals = table.of(GameEnded)[0].totals
    assert totals == {ALICE: 24, BOB: 0}
    assert table.state.outcome.winner == ALICE and table.state.outcome.mission == "Secure"
    assert table.state.outcome.summary == "Secure on Map B7, after 4 turning points: 24 VP to 0 VP."


def test_turning_points_end_when_both_players_say_so() -> None:
    table = in_battle()
    assert table.refused(EndTurningPoint(actor=ALICE, turning_point=2)) == (
        "killteam.turning_point_not_current",
        {"given": 2, "turning_point": 1},
    )
    table.end_tp(BOB)
    assert table.refused(EndTurningPoint(actor=BOB, turning_point=1)) == (
        "killteam.turning_point_already_ended",
        {"turning_point": 1},
    )
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
    table.act(ConfirmPending(actor=BOB, serial=0, confirm=True))
    outcome = table.state.outcome
    assert outcome is not None and outcome.winner == BOB
    assert [(s.player, s.score, s.faction) for s in outcome.sides] == [(ALICE, 0, "Alpha"), (BOB, 3, "Beta")]
    assert "ended early in turning point 2" in outcome.summary
    with pytest.raises(RuleError) as refused:
        PROCEDURE.step(table.state, Score(actor=BOB, mission_vp=1), Roller(random.Random(0)))
    assert refused.value.code == "killteam.finished"


def test_ending_before_the_battle_leaves_no_result_not_a_draw_at_nil() -> None:
    """A game never played is no 0-0 draw to rate: it ends with no outcome (the session is
    cancelled), and says so, instead of a result."""
    table = Table("random", "free")
    table.act(EndGame(actor=BOB))
    events = table.act(ConfirmPending(actor=BOB, serial=0, confirm=True))
    assert table.state.finished and table.state.abandoned and table.state.outcome is None
    assert table.of(GameAbandoned) and not table.of(GameEnded) and events[-1] == GameAbandoned()
    assert PROCEDURE.ask(table.state, ALICE) == PROCEDURE.ask(table.state, BOB) == []
