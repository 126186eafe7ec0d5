"""The 40K mission in words (cogs/fortyk/board.py, questions.py, refusals.py): a channel line for every
event, what the game waits for, the dice and the result with players as mentions, and words for every
refusal the rules raise."""

from __future__ import annotations

import itertools

from bot.lang.text import ENGLISH, FALLBACK, refusal
from cogs.fortyk.board import condition_detail, describe, dice_lines, now_text, result_text
from cogs.fortyk.commands import parse_quarters  # the import adds its refusal words, as loading the cog does
from cogs.fortyk.questions import question_text
from rules.errors import RuleError
from rules.fortyk import FortyKState, action_for_button, ask, parse_unit_list, scoreboard, start, step
from rules.fortyk.actions import (
    CaptureRelic,
    ChooseOrder,
    ChooseZone,
    DropRelic,
    EndTurn,
    FinishDeployment,
    FortyKAction,
    MarkUnit,
    RecordDestroyed,
    ReportEnd,
    RollForDeployment,
    RollForFirstTurn,
    SeizeInitiative,
)
from rules.fortyk.events import EVENT_ADAPTER
from rules.session import Event
from tests.rules.fortyk.fortyk_helpers import (
    ALICE,
    BOB,
    deployed,
    dice,
    end_rounds,
    in_battle,
    new_game,
    no_dice,
    run,
)


def test_every_event_of_a_whole_game_has_a_channel_line() -> None:
    events: list[Event] = []
    state = deployed()
    state, more = run(state, [RollForFirstTurn(actor=ALICE)], dice(3, 3, 6, 1))
    events += more
    state, more = run(
        state,
        [
            action_for_button(state, "order:first", ALICE),
            SeizeInitiative(actor=BOB, attempt=True),
            MarkUnit(actor=ALICE, unit="Terminators"),
            RecordDestroyed(actor=ALICE, unit="Terminators"),
            CaptureRelic(actor=ALICE, unit="Bikers"),
            EndTurn(actor=ALICE),
            MarkUnit(actor=BOB, unit="Rhino"),
            RecordDestroyed(actor=BOB, unit="Bikers"),
            EndTurn(actor=BOB),
        ],
        dice(2),
    )
    events += more
    state, more = end_rounds(state, 6, dice(3, 4))
    events += more
    state, more = run(state, [ReportEnd(actor=ALICE, quarters=2), ReportEnd(actor=BOB, quarters=2)])
    events += more
    kinds = {EVENT_ADAPTER.validate_python(e).kind for e in events}
    assert {
        "first_turn_rolled",
        "order_chosen",
        "seize_rolled",
        "battle_started",
        "turn_started",
        "marked",
        "destroyed",
        "relic_captured",
        "relic_dropped",
        "mark_survived",
        "turn_ended",
        "battle_length_rolled",
        "battle_ended",
        "end_reported",
        "scored",
    } <= kinds
    for event in events:
        line = describe(event, state.players)
        assert line and "None" not in line
    lines = [describe(e, state.players) for e in events]
    assert any("🎲 3 (+1 = 4)" in line for line in lines), lines[:3]
    assert any("rolls 🎲 3 (needs 3+) — the battle goes on" in line for line in lines)
    assert any("the last one" in line for line in lines)
    assert f"<@{ALICE}> marks Terminators (<@{BOB}>) for death." in lines


def test_set_up_events_have_lines_too() -> None:
    _, events = run(
        new_game(),
        [
            RollForDeployment(actor=ALICE),
            ChooseZone(actor=ALICE, zone="North-west quarter"),
            FinishDeployment(actor=BOB),
        ],
        dice(6, 1),
    )
    lines = [describe(e, [ALICE, BOB]) for e in events]
    assert lines[0].startswith("Deployment roll-off") and "wins" in lines[0]
    assert "North-west quarter" in lines[1] and "South-east quarter" in lines[1]
    assert lines[2].endswith("finished deploying first.")


def test_what_the_game_waits_for_names_the_players() -> None:
    state, _ = run(new_game(), [RollForDeployment(actor=ALICE)], dice(1, 6))
    assert now_text(state) == f"<@{BOB}> won the roll-off: choose your deployment zone."
    state, _ = run(state, [ChooseZone(actor=BOB, zone="North-east quarter")])
    assert f"<@{ALICE}> sets up a unit first" in now_text(state)
    state, _ = run(state, [FinishDeployment(actor=BOB)])
    assert f"<@{BOB}> has finished" in now_text(state)
    state, _ = run(state, [FinishDeployment(actor=ALICE)])
    assert f"<@{BOB}> +1" in now_text(state)
    assert "mark one enemy unit" in now_text(in_battle())
    state, _ = end_rounds(in_battle(), 5, dice(2))
    assert "flyers" in now_text(state)


def test_the_dice_and_the_result_in_words() -> None:
    state, _ = run(
        in_battle(),
        [
            MarkUnit(actor=ALICE, unit="Terminators"),
            RecordDestroyed(actor=ALICE, unit="Terminators"),
            CaptureRelic(actor=ALICE, unit="Bikers"),
            EndTurn(actor=ALICE),
            CaptureRelic(actor=BOB, unit="Jetbikes"),
            EndTurn(actor=BOB),
        ],
    )
    lines = dice_lines(scoreboard(state), state.players)
    assert lines[0].startswith("Deployment roll-off") and "Seize" in lines[-1]
    state, _ = end_rounds(state, 4, dice(1))
    assert "the battle ends" in dice_lines(scoreboard(state), state.players)[-1]
    state, _ = run(state, [ReportEnd(actor=ALICE, quarters=2), ReportEnd(actor=BOB, quarters=2)])
    primary, secondary, tertiary, _quaternary = state.results
    assert condition_detail(state, primary) == f"<@{ALICE}> 2 KP, <@{BOB}> 0 KP: <@{ALICE}> has more"
    assert condition_detail(state, secondary) == "both hold the enemy relic"
    assert condition_detail(state, tertiary) == f"<@{ALICE}> 2 quarters, <@{BOB}> 2 quarters: tied"
    text = result_text(state)
    assert "Primary — Marked for Death (15)" in text and f"<@{ALICE}> wins." in text
    assert "marked units alive: " in text


def test_the_battle_message_says_whose_turn_it_is_and_why_an_option_is_closed() -> None:
    """The battle's one message is edited from turn to turn without a ping, so its words name the
    player whose turn it is; every other question names whom it asks."""
    state, _ = run(in_battle(), [MarkUnit(actor=ALICE, unit="Terminators"), EndTurn(actor=ALICE)])
    [turn, _kill] = ask(state, BOB)
    assert question_text(state, turn).startswith(f"**Battle round 1: <@{BOB}>'s turn**")
    state, _ = run(state, [MarkUnit(actor=BOB, unit="Rhino")])
    [turn, _kill] = ask(state, BOB)
    assert "• Mark a unit: You marked Rhino this turn" in question_text(state, turn)
    setup, _ = run(new_game(), [RollForDeployment(actor=ALICE)], dice(1, 6))
    [zone] = ask(setup, BOB)
    assert question_text(setup, zone).startswith(f"**Choose your deployment zone** · <@{BOB}>")
    deploying, _ = run(setup, [ChooseZone(actor=BOB, zone="North-east quarter"), FinishDeployment(actor=BOB)])
    [deployed] = ask(deploying, ALICE)
    text = question_text(deploying, deployed)
    assert f"<@{ALICE}> sets up a unit first" in text and f"<@{BOB}> has finished deploying." in text


# ---------------------------------------------------------------- refusals


def _states() -> list[FortyKState]:
    """A state in every phase, with marks, kills and relics in the battle."""
    setup = new_game()
    zone, _ = run(setup, [RollForDeployment(actor=ALICE)], dice(6, 1))
    deploying, _ = run(
        zone, [ChooseZone(actor=ALICE, zone="North-west quarter"), FinishDeployment(actor=BOB)]
    )
    rolled, _ = run(deployed(), [RollForFirstTurn(actor=ALICE)], dice(6, 1))
    seize, _ = run(rolled, [ChooseOrder(actor=ALICE, go_first=True)])
    battle, _ = run(
        in_battle(),
        [
            MarkUnit(actor=ALICE, unit="Terminators"),
            RecordDestroyed(actor=ALICE, unit="Scouts"),
            CaptureRelic(actor=ALICE, unit="Bikers"),
            EndTurn(actor=ALICE),
        ],
    )
    later, _ = run(battle, [EndTurn(actor=BOB)], dice(6))
    marked, _ = run(in_battle(), [MarkUnit(actor=ALICE, unit="Terminators")])
    killed, _ = run(in_battle(), [RecordDestroyed(actor=ALICE, unit="Scouts")])
    bare = in_battle().mission.model_copy(update={"marks": None, "relics": None, "conditions": []})
    plain = in_battle().model_copy(update={"mission": bare})
    scoring, _ = end_rounds(marked, 5, dice(1))
    claimed, _ = run(scoring, [ReportEnd(actor=ALICE, quarters=3)])
    return [
        setup,
        zone,
        deploying,
        deployed(),
        rolled,
        seize,
        in_battle(),
        marked,
        killed,
        plain,
        battle,
        later,
        scoring,
        claimed,
    ]


def _actions(actor: int) -> list[FortyKAction]:
    units = ["Scouts", "Terminators", "Bikers", "Rhino"]
    return [
        RollForDeployment(actor=actor),
        ChooseZone(actor=actor, zone="the middle"),
        ChooseZone(actor=actor, zone="North-west quarter"),
        FinishDeployment(actor=actor),
        RollForFirstTurn(actor=actor),
        ChooseOrder(actor=actor, go_first=True),
        SeizeInitiative(actor=actor, attempt=False),
        *(cls(actor=actor, unit=u) for cls in (MarkUnit, RecordDestroyed, CaptureRelic) for u in units),
        DropRelic(actor=actor),
        EndTurn(actor=actor),
        ReportEnd(actor=actor, quarters=4),
        ReportEnd(actor=actor, quarters=5),
        ReportEnd(actor=actor, quarters=0, marked_alive=["Terminators"]),
        ReportEnd(actor=actor, quarters=1, marked_alive=["Scouts"]),
    ]


def test_every_refusal_the_rules_raise_has_words_of_its_own() -> None:
    refusals: list[RuleError] = []
    for state, actor in itertools.product(_states(), (ALICE, BOB)):
        for action in _actions(actor):
            try:
                step(state, action, dice(6, 1, 6))
            except RuleError as error:
                refusals.append(error)
    for key, unit in (("zone:9", None), ("mark", " "), ("mark", "x" * 81), ("end_turn:r1.t1.turn", None)):
        try:
            action_for_button(_states()[8], key, ALICE, unit)
        except RuleError as error:
            refusals.append(error)
    for refused in (
        lambda: parse_unit_list("y" * 81),
        lambda: parse_quarters("x", 4),
        lambda: start("s", [ALICE, ALICE]),
    ):
        try:
            refused()
        except RuleError as error:
            refusals.append(error)
    codes = {e.code for e in refusals}
    assert len(codes) >= 35, sorted(codes)
    assert "text" not in codes, [e for e in refusals if e.code == "text"]
    for error in refusals:
        assert error.code.startswith("fortyk."), error.code
        words = refusal(error)
        assert words != FALLBACK and "{" not in words, (error.code, words)
    unused = {code for code in ENGLISH if code.startswith("fortyk.")} - codes
    # the cog's own (tested through the emulator), and a fallback no action reaches
    assert unused == {"fortyk.unknown_mission", "fortyk.unknown_action"}, unused


def test_refusals_name_players_by_mention_made_here() -> None:
    error = RuleError(code="fortyk.not_your_turn.end_turn", player=BOB)
    assert refusal(error) == f"It is <@{BOB}>'s turn; you can end the turn only in your own turn."
    step_refusal = None
    try:
        step(in_battle(), EndTurn(actor=BOB), no_dice())
    except RuleError as caught:
        step_refusal = caught
    assert step_refusal is not None and step_refusal.params == {"player": ALICE}
