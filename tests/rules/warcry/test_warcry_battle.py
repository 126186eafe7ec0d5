"""A tracked Warcry battle: set-up order, each battleplan's tallies, ties, refusals, and JSON round trips."""

from __future__ import annotations

import pytest

from rules.dice import Roller
from rules.errors import RuleError
from rules.session import Event
from rules.warcry import actions as act
from rules.warcry.events import Notice
from rules.warcry.models import WarcryState
from rules.warcry.pack import WarcryPack, parse_pack
from rules.warcry.procedure import PROCEDURE
from rules.warcry.rounds import evaluate
from rules.warcry.setup import start
from rules.warcry.views import legal_actions, prompt, scoreboard
from tests.rules.warcry.warcry_helpers import (
    ALICE,
    BOB,
    PLAYERS,
    club_pack,
    codes,
    confirmed,
    play,
    refused,
    roller,
)


def name_of(player: int) -> str:
    return {ALICE: "Alice", BOB: "Bob"}.get(player, "?")


def open_battle(
    battleplan: str | None = "Reaper", seed: int = 0, pack: WarcryPack | None = None, kind: str = "matched"
) -> tuple[WarcryState, Roller]:
    dice = roller(seed)
    state, events = start("s1", PLAYERS, dice, kind=kind, pack=pack, battleplan=battleplan)  # type: ignore[arg-type]
    assert PROCEDURE.load(PROCEDURE.dump(state)) == state
    assert codes(events)[0] == "priority"
    return state, dice


def set_up(state: WarcryState, dice: Roller, colour: str = "red") -> WarcryState:
    """Split both warbands, choose colours, deploy everything and begin the battle."""
    for player in (state.loser_of_priority, state.winner_of_priority):
        state, _ = play(state, act.SplitBattleGroups(actor=player, dagger=3, shield=4, hammer=3), dice)
    state, _ = play(state, act.ChooseColour(actor=state.winner_of_priority, colour=colour), dice)  # type: ignore[arg-type]
    while state.phase == "deployment":
        current = next(s for s in state.deployment if not s.done)
        state, _ = play(state, act.Deploy(actor=current.player, group=current.group), dice)
    state, _ = play(state, act.BeginBattle(actor=ALICE), dice)
    assert state.phase == "battle" and state.round == 1
    return state


def end_round(state: WarcryState, dice: Roller) -> tuple[WarcryState, list[Event]]:
    """Bob ends the round and Alice confirms: what ending it did."""
    return confirmed(state, act.EndRound(actor=BOB, round=state.round), dice)


# ---------------------------------------------------------------- set-up


def test_setup_follows_the_core_order() -> None:
    state, dice = open_battle(battleplan=None)
    assert state.battleplan is None and state.options is not None
    winner, loser = state.winner_of_priority, state.loser_of_priority
    assert dice.rolls[0].reason == "priority roll"
    with refused("warcry.split_first", player=loser):
        PROCEDURE.step(state, act.SplitBattleGroups(actor=winner, dagger=3, shield=4, hammer=3), dice)
    assert legal_actions(state, loser) == ["split"] and legal_actions(state, winner) == []
    state, _ = play(state, act.SplitBattleGroups(actor=loser, dagger=1, shield=1, hammer=1), dice)
    with refused("warcry.already_split"):
        PROCEDURE.step(state, act.SplitBattleGroups(actor=loser, dagger=1, shield=1, hammer=1), dice)
    assert state.battleplan is None
    with refused("warcry.shield_small", minimum=4, fighters=10):
        PROCEDURE.step(state, act.SplitBattleGroups(actor=winner, dagger=4, shield=2, hammer=4), dice)
    state, events = play(state, act.SplitBattleGroups(actor=winner, dagger=5, shield=5, hammer=5), dice)
    assert state.battleplan is not None and state.options is None and "battleplan" in codes(events)
    assert dice.rolls[-1].notation == "d6"  # the battleplan is rolled only now, after both splits
    with refused("warcry.colour_by_winner", player=winner):
        PROCEDURE.step(state, act.ChooseColour(actor=loser, colour="red"), dice)
    state, _ = play(state, act.ChooseColour(actor=winner, colour="blue"), dice)
    assert state.colour_of(winner) == "blue" and state.colour_of(loser) == "red"
    order = [(s.player, s.group) for s in state.deployment]
    assert order == [
        (winner, "dagger"),
        (loser, "dagger"),
        (winner, "shield"),
        (loser, "shield"),
        (winner, "hammer"),
        (loser, "hammer"),
    ]
    with refused("warcry.deploy_turn", player=winner, group="Dagger"):
        PROCEDURE.step(state, act.Deploy(actor=loser, group="dagger"), dice)
    with refused("warcry.deploy_order", group="Dagger"):
        PROCEDURE.step(state, act.Deploy(actor=winner, group="shield"), dice)
    assert str(prompt(state, name_of)).endswith("set up your Dagger.")


def test_reserves_are_held_back_and_arrive_in_their_round() -> None:
    pack = parse_pack("name: Maps\ndeployments:\n  Reaper: {red: {hammer: RND2}, blue: {shield: RND3}}\n")
    state, dice = open_battle("Reaper", pack=pack)
    for player in (state.loser_of_priority, state.winner_of_priority):
        state, _ = play(state, act.SplitBattleGroups(actor=player, dagger=3, shield=4, hammer=3), dice)
    state, events = play(state, act.ChooseColour(actor=state.winner_of_priority, colour="red"), dice)
    assert codes(events).count("reserve") == 2
    red, blue = state.winner_of_priority, state.loser_of_priority
    waiting = [(s.player, s.group, s.arrival) for s in state.deployment if s.arrival != "start"]
    assert waiting == [(blue, "shield", "RND3"), (red, "hammer", "RND2")]
    deployed = 0
    while state.phase == "deployment":
        current = next(s for s in state.deployment if not s.done)
        state, _ = play(state, act.Deploy(actor=current.player, group=current.group), dice)
        deployed += 1
    assert deployed == 4
    state, _ = play(state, act.BeginBattle(actor=BOB), dice)
    state, events = end_round(state, dice)
    arrivals = [e for e in events if isinstance(e, Notice) and e.code == "reserve_arrives"]
    assert len(arrivals) == 1 and "Hammer" in str(arrivals[0].named(name_of))
    state, events = end_round(state, dice)
    assert "Shield arrives from reserve this round (RND3)" in " ".join(
        str(e.named(name_of)) for e in events if isinstance(e, Notice) and e.code == "reserve_arrives"
    )


def test_blocked_objective_roll_off_only_where_something_is_placed() -> None:
    state, dice = open_battle("Ley Lines")
    for player in (state.loser_of_priority, state.winner_of_priority):
        state, _ = play(state, act.SplitBattleGroups(actor=player, dagger=1, shield=1, hammer=1), dice)
    state, events = play(state, act.RollBlockedObjective(actor=BOB), dice)
    assert events[0].roll_off is not None  # type: ignore[attr-defined]
    reaper, dice = open_battle("Reaper")
    for player in (reaper.loser_of_priority, reaper.winner_of_priority):
        reaper, _ = play(reaper, act.SplitBattleGroups(actor=player, dagger=1, shield=1, hammer=1), dice)
    with refused("warcry.nothing_to_place", battleplan="Reaper"):
        PROCEDURE.step(reaper, act.RollBlockedObjective(actor=BOB), dice)


def test_strangers_and_finished_battles_are_refused() -> None:
    state, dice = open_battle()
    with pytest.raises(RuleError, match=r"game\.not_player"):
        PROCEDURE.step(state, act.SplitBattleGroups(actor=999, dagger=1, shield=1, hammer=1), dice)
    with refused("warcry.two_players"):
        start("s2", (ALICE, ALICE), dice)
    with refused("warcry.unknown_battleplan"):
        start("s2", PLAYERS, dice, battleplan="Nowhere")


# ---------------------------------------------------------------- Reaper


def test_a_reaper_battle_runs_to_an_outcome() -> None:
    state, dice = open_battle("Reaper")
    state = set_up(state, dice)
    rounds = [(120, 80), (0, 0), (50, 200), (300, 10)]
    for alice, bob in rounds:
        state, _ = play(state, act.SetBloodTally(actor=ALICE, player=ALICE, points=alice), dice)
        state, _ = confirmed(state, act.SetBloodTally(actor=ALICE, player=BOB, points=bob), dice)
        state, events = end_round(state, dice)
    assert state.finished and state.outcome is not None
    assert state.vp == {ALICE: 2, BOB: 1}
    assert state.outcome.winner == ALICE and state.outcome.mission == "Reaper"
    assert {s.player: s.score for s in state.outcome.sides} == {ALICE: 2, BOB: 1}
    assert [r.scored for r in state.history] == [{ALICE: 1}, {}, {BOB: 1}, {ALICE: 1}]
    assert codes(events)[-1] == "finished"
    with pytest.raises(RuleError, match=r"game\.finished"):
        PROCEDURE.step(state, act.EndRound(actor=ALICE, round=5), dice)


def test_reaper_refuses_entries_its_victory_condition_does_not_use() -> None:
    state, dice = open_battle("Reaper")
    state = set_up(state, dice)
    for action in (
        act.SetQuarters(actor=ALICE, player=ALICE, count=2),
        act.SetCarrier(actor=ALICE, player=ALICE),
        act.AwakenObjective(actor=ALICE, objective="A"),
        act.SetControl(actor=ALICE, objective="A", player=ALICE),
    ):
        with refused("warcry.decided_by.reaper", battleplan="Reaper"):
            PROCEDURE.step(state, action, dice)
    state, _ = play(state, act.SetBloodTally(actor=ALICE, player=ALICE, points=900), dice)
    state, _ = end_round(state, dice)
    with refused("warcry.blood_too_much", limit=1000, before=900, points=101):
        PROCEDURE.step(state, act.SetBloodTally(actor=ALICE, player=ALICE, points=101), dice)
    with refused("warcry.not_a_player"):
        PROCEDURE.step(state, act.SetBloodTally(actor=ALICE, player=77, points=1), dice)


def test_a_repeated_end_round_click_does_not_end_the_next_round() -> None:
    state, dice = open_battle("Reaper")
    state = set_up(state, dice)
    state, _ = end_round(state, dice)
    with refused("warcry.round_over", round=1, now=2):
        PROCEDURE.step(state, act.EndRound(actor=ALICE, round=1), dice)
    assert state.round == 2


def test_a_tie_after_the_last_round_plays_one_extra_round_judged_at_its_end() -> None:
    state, dice = open_battle("Reaper")
    state = set_up(state, dice)
    for _ in range(4):
        state, events = end_round(state, dice)
    assert not state.finished and state.round == 5 and "tied" in codes(events)
    assert "Battle round 5 begins (an extra round: the battle is tied)." in [str(e.text) for e in events]  # type: ignore[attr-defined]
    assert "last_warband" in legal_actions(state, ALICE) and "blood" in legal_actions(state, ALICE)
    state, _ = play(state, act.SetBloodTally(actor=BOB, player=BOB, points=40), dice)
    state, _ = end_round(state, dice)
    assert state.finished and state.outcome is not None and state.outcome.winner == BOB
    assert "after 5 battle rounds: won because most victory points" in state.outcome.summary


def tied_past_the_extra_round(battleplan: str = "Reaper") -> tuple[WarcryState, Roller, list[Event]]:
    """A battle level after its last round and again after the extra round: now in round 6."""
    state, dice = open_battle(battleplan)
    state = set_up(state, dice)
    for _ in range(5):
        while state.removal_by is not None:
            removal = act.RemoveObjective(actor=state.removal_by, objective=state.objectives[0])
            state, _ = play(state, removal, dice)
        state, events = end_round(state, dice)
    assert not state.finished and state.round == 6 and state.last_warband_decides
    return state, dice, events


def test_a_tie_after_the_extra_round_goes_on_with_no_more_judging() -> None:
    state, dice, events = tied_past_the_extra_round()
    assert codes(events) == ["round_end", "blood_level", "last_warband_decides", "round_start"]
    assert "until only one player's fighters are left" in str(events[2].text)  # type: ignore[attr-defined]
    assert str(events[3].text) == "Battle round 6 begins (the last warband standing decides)."  # type: ignore[attr-defined]
    # Even victory points that differ (say from an earlier round's correction) decide nothing any more.
    state = state.model_copy(update={"vp": {ALICE: 3, BOB: 1}})
    assert evaluate(state)[0] == ALICE
    for number in (6, 7, 8):
        assert state.round == number
        state, events = end_round(state, dice)
        assert not state.finished and state.round == number + 1
        assert codes(events) == ["round_end", "round_start"]
    assert state.vp == {ALICE: 3, BOB: 1} and [r.scored for r in state.history[5:]] == [{}, {}, {}]


def test_past_the_extra_round_no_tally_is_taken_and_only_the_last_warband_is_offered() -> None:
    state, dice, _ = tied_past_the_extra_round()
    for player in PLAYERS:
        assert legal_actions(state, player) == ["end_round", "last_warband"]
    with refused("warcry.last_warband_decides", round=6):
        PROCEDURE.step(state, act.SetBloodTally(actor=ALICE, player=ALICE, points=40), dice)
    with refused("warcry.decided_by.reaper"):
        PROCEDURE.step(state, act.SetQuarters(actor=ALICE, player=ALICE, count=1), dice)
    ley, dice, _ = tied_past_the_extra_round("Ley Lines")
    for action in (
        act.SetInitiative(actor=ALICE, player=ALICE),
        act.SetControl(actor=ALICE, objective="Centre", player=ALICE),
    ):
        with refused("warcry.last_warband_decides", round=6):
            PROCEDURE.step(ley, action, dice)
    assert legal_actions(ley, BOB) == ["end_round", "last_warband"]


def test_past_the_extra_round_the_battle_ends_on_the_last_warband_standing() -> None:
    state, dice, _ = tied_past_the_extra_round("The Hidden Vault")
    state, _ = end_round(state, dice)
    state, _ = play(state, act.DeclareLastWarband(actor=BOB, player=BOB), dice)
    with refused("warcry.claim_pending", player=BOB):
        PROCEDURE.step(state, act.EndRound(actor=ALICE, round=7), dice)
    state, events = play(state, act.AnswerLastWarband(actor=ALICE, accept=True), dice)
    assert state.finished and state.outcome is not None and state.outcome.winner == BOB
    assert codes(events) == ["last_warband_confirmed", "finished"]
    assert state.outcome.summary == (
        "The Hidden Vault after 7 battle rounds: won because only their warband is left on the battlefield."
    )


def test_last_warband_standing_needs_the_opponent_to_confirm_a_claim() -> None:
    state, dice = open_battle("Reaper")
    state = set_up(state, dice)
    with refused("warcry.last_warband_extra_only"):
        PROCEDURE.step(state, act.DeclareLastWarband(actor=ALICE, player=ALICE), dice)
    for _ in range(4):
        state, _ = end_round(state, dice)
    state, _ = play(state, act.DeclareLastWarband(actor=ALICE, player=ALICE), dice)
    assert legal_actions(state, BOB) == ["answer_last_warband"] and legal_actions(state, ALICE) == []
    with refused("warcry.own_claim", player=BOB):
        PROCEDURE.step(state, act.AnswerLastWarband(actor=ALICE, accept=True), dice)
    state, _ = play(state, act.AnswerLastWarband(actor=BOB, accept=False), dice)
    assert not state.finished
    state, _ = play(state, act.DeclareLastWarband(actor=ALICE, player=ALICE), dice)
    state, _ = play(state, act.AnswerLastWarband(actor=BOB, accept=True), dice)
    assert state.outcome is not None and state.outcome.winner == ALICE


def test_conceding_the_last_warband_ends_at_once() -> None:
    state, dice = open_battle("Reaper")
    state = set_up(state, dice)
    for _ in range(4):
        state, _ = end_round(state, dice)
    state, _ = play(state, act.DeclareLastWarband(actor=BOB, player=ALICE), dice)
    assert state.outcome is not None and state.outcome.winner == ALICE


# ---------------------------------------------------------------- The Hidden Vault


def test_a_hidden_vault_battle_runs_to_an_outcome() -> None:
    state, dice = open_battle("The Hidden Vault", seed=5)
    state = set_up(state, dice)
    assert state.objectives == ["A", "B", "C"]
    state, events = end_round(state, dice)
    assert "vault_roll" in codes(events) and state.round == 1 and state.round_ended
    first = state.removal_by
    assert first is not None and events[-1].roll_off.winner == first  # type: ignore[attr-defined]
    other = state.opponent(first)
    assert legal_actions(state, first) == ["remove"] and legal_actions(state, other) == []
    with refused("warcry.remove_turn", player=first):
        PROCEDURE.step(state, act.RemoveObjective(actor=other, objective="A"), dice)
    with refused("warcry.round_over", round=1, now=1):
        PROCEDURE.step(state, act.EndRound(actor=first, round=1), dice)
    with refused("warcry.no_objective", name="Z", in_play="A, B, C"):
        PROCEDURE.step(state, act.RemoveObjective(actor=first, objective="Z"), dice)
    state, _ = play(state, act.RemoveObjective(actor=first, objective="b"), dice)
    assert state.objectives == ["A", "C"] and state.round == 2
    state, events = end_round(state, dice)
    assert state.removal_by == other and "vault_roll" not in codes(events)
    state, _ = play(state, act.RemoveObjective(actor=other, objective="A"), dice)
    assert state.objectives == ["C"] and state.round == 3
    with refused("warcry.no_objective", name="A", in_play="C"):
        PROCEDURE.step(state, act.SetControl(actor=ALICE, objective="A", player=ALICE), dice)
    with refused("warcry.remove_closed"):
        PROCEDURE.step(state, act.RemoveObjective(actor=first, objective="C"), dice)
    state, _ = play(state, act.SetControl(actor=ALICE, objective="C", player=BOB), dice)
    state, _ = end_round(state, dice)
    state, events = end_round(state, dice)
    assert state.outcome is not None and state.outcome.winner == BOB
    assert state.outcome.mission == "The Hidden Vault"
    assert "control the last objective" in state.outcome.summary


def test_hidden_vault_with_nobody_on_the_last_objective_plays_on() -> None:
    state, dice = open_battle("The Hidden Vault")
    state = set_up(state, dice)
    for _ in range(2):
        state, _ = end_round(state, dice)
        assert state.removal_by is not None
        removal = act.RemoveObjective(actor=state.removal_by, objective=state.objectives[0])
        state, _ = play(state, removal, dice)
    state, _ = end_round(state, dice)
    state, events = end_round(state, dice)
    assert state.round == 5 and "tied" in codes(events)
    state, _ = play(state, act.SetControl(actor=BOB, objective=state.objectives[0], player=ALICE), dice)
    state, _ = end_round(state, dice)
    assert state.outcome is not None and state.outcome.winner == ALICE


# ---------------------------------------------------------------- other matched battleplans


def test_ley_lines_awakening_and_scoring() -> None:
    state, dice = open_battle("Ley Lines")
    state = set_up(state, dice)
    assert state.awakened == ["Centre"]
    with refused("warcry.initiative_first"):
        PROCEDURE.step(state, act.AwakenObjective(actor=ALICE, objective="A"), dice)
    state, _ = play(state, act.SetInitiative(actor=ALICE, player=ALICE), dice)
    with refused("warcry.awaken_by_other", player=BOB):
        PROCEDURE.step(state, act.AwakenObjective(actor=ALICE, objective="A"), dice)
    assert "awaken" in legal_actions(state, BOB) and "awaken" not in legal_actions(state, ALICE)
    with refused("warcry.already_awake", objective="Centre"):
        PROCEDURE.step(state, act.AwakenObjective(actor=BOB, objective="centre"), dice)
    state, _ = play(state, act.AwakenObjective(actor=BOB, objective="a"), dice)
    with refused("warcry.awaken_once", objective="A"):
        PROCEDURE.step(state, act.AwakenObjective(actor=BOB, objective="B"), dice)
    with refused("warcry.dormant", objective="B"):
        PROCEDURE.step(state, act.SetControl(actor=BOB, objective="B", player=BOB), dice)
    with refused("warcry.initiative_fixed", objective="A"):
        PROCEDURE.step(state, act.SetInitiative(actor=BOB, player=BOB), dice)
    state, _ = play(state, act.SetControl(actor=BOB, objective="Centre", player=ALICE), dice)
    state, _ = play(state, act.SetControl(actor=BOB, objective="A", player=BOB), dice)
    state, _ = end_round(state, dice)
    assert state.vp == {ALICE: 1, BOB: 1} and state.initiative is None
    state, _ = play(state, act.SetInitiative(actor=ALICE, player=BOB), dice)
    state, _ = play(state, act.AwakenObjective(actor=ALICE, objective="B"), dice)
    state, _ = play(state, act.SetControl(actor=ALICE, objective="B", player=ALICE), dice)
    for _ in range(3):
        state, _ = end_round(state, dice)
    assert state.vp == {ALICE: 7, BOB: 4}
    assert state.outcome is not None and state.outcome.winner == ALICE
    assert any(
        "Awakened: Centre, A, B" in str(line)
        for line in scoreboard(state.model_copy(update={"finished": False}), name_of)
    )


def test_treasure_hunters_caps_carriers_at_the_five_tokens() -> None:
    state, dice = open_battle("Treasure Hunters")
    state = set_up(state, dice)
    state, _ = play(state, act.SetTreasureCarriers(actor=ALICE, player=ALICE, count=3), dice)
    with refused("warcry.treasure_too_many", tokens=5):
        PROCEDURE.step(state, act.SetTreasureCarriers(actor=BOB, player=BOB, count=3), dice)
    state, _ = play(state, act.SetTreasureCarriers(actor=BOB, player=BOB, count=2), dice)
    for _ in range(4):
        state, _ = end_round(state, dice)
    assert state.outcome is not None and state.outcome.winner == ALICE
    assert {s.player: s.score for s in state.outcome.sides} == {ALICE: 3, BOB: 2}


def test_cursed_relic_carrier_damage_and_the_within_3_inches_fallback() -> None:
    state, dice = open_battle("The Cursed Relic")
    state = set_up(state, dice)
    with refused("warcry.no_carrier"):
        PROCEDURE.step(state, act.RollCarrierDamage(actor=ALICE), dice)
    state, _ = play(state, act.SetCarrier(actor=ALICE, player=BOB), dice)
    state, events = play(state, act.RollCarrierDamage(actor=ALICE), dice)
    damage = events[0].dice  # type: ignore[attr-defined]
    assert len(damage) == 1 and 1 <= damage[0] <= 6 and dice.rolls[-1].reason == "Cursed Relic damage"
    state, _ = play(state, act.SetCarrier(actor=ALICE, player=None), dice)
    state, _ = play(state, act.SetFightersNear(actor=ALICE, player=ALICE, count=2), dice)
    state, _ = confirmed(state, act.SetFightersNear(actor=ALICE, player=BOB, count=3), dice)
    with refused("warcry.too_many_fighters", limit=15, count=16):
        PROCEDURE.step(state, act.SetFightersNear(actor=ALICE, player=BOB, count=16), dice)
    assert evaluate(state)[0] == BOB
    state, _ = play(state, act.SetCarrier(actor=ALICE, player=ALICE), dice)
    assert evaluate(state)[0] == ALICE


def test_no_quarter_has_four_quarters() -> None:
    state, dice = open_battle("No Quarter")
    state = set_up(state, dice)
    state, _ = play(state, act.SetQuarters(actor=ALICE, player=ALICE, count=2), dice)
    with refused("warcry.quarters_too_many", quarters=4):
        PROCEDURE.step(state, act.SetQuarters(actor=ALICE, player=BOB, count=3), dice)
    state, _ = confirmed(state, act.SetQuarters(actor=ALICE, player=BOB, count=2), dice)
    for _ in range(4):
        state, _ = end_round(state, dice)
    assert not state.finished and state.round == 5  # level: another round


# ---------------------------------------------------------------- Test of Champions


def test_cursed_prize_without_a_carrier_is_a_draw_not_an_extra_round() -> None:
    state, dice = open_battle("Cursed Prize")
    state = set_up(state, dice)
    for _ in range(4):
        state, _ = end_round(state, dice)
    assert state.finished and state.outcome is not None and state.outcome.winner is None
    assert "any other result is a draw" in state.outcome.summary and state.round == 4


def test_altar_of_ascendancy_needs_one_player_alone_on_the_altar() -> None:
    state, dice = open_battle("Altar of Ascendancy")
    state = set_up(state, dice)
    state, _ = play(state, act.SetOnAltar(actor=ALICE, player=ALICE, count=2), dice)
    state, _ = confirmed(state, act.SetOnAltar(actor=ALICE, player=BOB, count=1), dice)
    assert evaluate(state)[0] is None
    state, _ = play(state, act.SetOnAltar(actor=BOB, player=BOB, count=0), dice)
    for _ in range(4):
        state, _ = end_round(state, dice)
    assert state.outcome is not None and state.outcome.winner == ALICE


def test_brutal_conquest_champions_and_tallies() -> None:
    state, dice = open_battle("Brutal Conquest")
    state = set_up(state, dice)
    with refused("warcry.no_champion", player=ALICE):
        PROCEDURE.step(state, act.AddChampionTally(actor=ALICE, player=ALICE, amount=3), dice)
    state, _ = play(state, act.NominateChampion(actor=ALICE, player=ALICE, name="Skullgrinder"), dice)
    with refused("warcry.champion_standing", champion="Skullgrinder"):
        PROCEDURE.step(state, act.NominateChampion(actor=ALICE, player=ALICE, name="Other"), dice)
    state, _ = play(state, act.AddChampionTally(actor=ALICE, player=ALICE, amount=12), dice)
    state, _ = play(state, act.NominateChampion(actor=BOB, player=BOB, name="Beastlord"), dice)
    state, _ = play(state, act.AddChampionTally(actor=BOB, player=BOB, amount=20), dice)
    state, _ = play(state, act.ChampionTakenDown(actor=ALICE, player=BOB), dice)
    assert evaluate(state)[0] == ALICE  # Bob's champion has the higher tally but is off the battlefield
    state, _ = play(state, act.NominateChampion(actor=BOB, player=BOB, name="Second"), dice)
    state, _ = play(state, act.AddChampionTally(actor=BOB, player=BOB, amount=12), dice)
    for _ in range(4):
        state, _ = end_round(state, dice)
    assert state.outcome is not None and state.outcome.winner is None
    assert "level" in state.outcome.summary


# ---------------------------------------------------------------- generated battleplans


def test_a_generated_battle_with_a_card_the_bot_cannot_score_is_reported_by_the_players() -> None:
    state, dice = open_battle(battleplan=None, pack=club_pack(), kind="generator-matched")
    state = set_up(state, dice)
    assert state.battleplan is not None and state.battleplan.name == "Test Hold Fast"
    assert state.battleplan.scoring == "manual" and "twist" not in state.battleplan.cards
    with refused("warcry.decided_by.manual", battleplan="Test Hold Fast"):
        PROCEDURE.step(state, act.SetBloodTally(actor=ALICE, player=ALICE, points=5), dice)
    for _ in range(4):
        state, _ = end_round(state, dice)
    assert state.round == 5
    state, _ = play(state, act.SetConditionMet(actor=ALICE, player=BOB), dice)
    state, _ = end_round(state, dice)
    assert state.outcome is not None and state.outcome.winner == BOB


def test_a_generated_battle_needs_victory_cards() -> None:
    with refused("warcry.no_victory_cards"):
        start("s", PLAYERS, roller(), kind="generator")


def test_a_generated_deployment_card_sets_the_reserves() -> None:
    for seed in range(40):
        state, dice = open_battle(battleplan=None, pack=club_pack(), kind="generator", seed=seed)
        for player in (state.loser_of_priority, state.winner_of_priority):
            state, _ = play(state, act.SplitBattleGroups(actor=player, dagger=1, shield=1, hammer=1), dice)
        assert state.battleplan is not None
        state, _ = play(state, act.ChooseColour(actor=state.winner_of_priority, colour="red"), dice)
        reserves = {s.arrival for s in state.deployment if s.group == "hammer"}
        assert state.battleplan is not None
        expected = {"RND2", "RND3"} if state.battleplan.cards.get("deployment") == "Test Flank" else {"start"}
        assert reserves == expected


def test_each_round_prompt_says_what_the_battleplan_needs() -> None:
    state, dice = open_battle("Ley Lines")
    state = set_up(state, dice)
    assert "record who has the initiative" in str(prompt(state, name_of))
    state, _ = play(state, act.SetInitiative(actor=ALICE, player=ALICE), dice)
    assert "Bob may awaken a dormant objective" in str(prompt(state, name_of))
    reaper, dice = open_battle("Reaper")
    reaper = set_up(reaper, dice)
    assert "blood tally" in str(prompt(reaper, name_of)) and "initiative" not in legal_actions(reaper, ALICE)
    with refused("warcry.decided_by.reaper", battleplan="Reaper", asked="a record of who has the initiative"):
        PROCEDURE.step(reaper, act.SetInitiative(actor=ALICE, player=ALICE), dice)
    for _ in range(4):
        reaper, _ = end_round(reaper, dice)
    assert "extra round: the battle is tied" in str(prompt(reaper, name_of))
    assert (
        str(scoreboard(reaper, name_of)[0]) == "Reaper — battle round 5 (an extra round: the battle is tied)"
    )
    reaper, _ = end_round(reaper, dice)
    now = str(prompt(reaper, name_of))
    assert now.startswith("Battle round 6 (the last warband standing decides): ")
    assert "extra round" not in now and "blood tally" not in now
    board = [str(line) for line in scoreboard(reaper, name_of)]
    assert board[0] == "Reaper — battle round 6 (the last warband standing decides)"
    assert not any(line.startswith("Blood tally") for line in board)
