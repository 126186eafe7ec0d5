"""Steps 2-4 and 6-10: sides, drop zone, CP, the set-up prompts in order, scouting, first initiative."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from rules.killteam import PROCEDURE, Choose, Done, SealScouting, awaiting, private_view, prompt
from rules.killteam.events import (
    CommandPointsAdded,
    DropZoneChosen,
    FactionChosen,
    InitiativeDecided,
    KillzoneReady,
    PlayerDone,
    RolledOff,
    ScoutingRevealed,
    SideChosen,
)
from rules.killteam.pack import InitiativeRow
from rules.sealed import ChoiceSealed, ChoicesRevealed
from tests.rules.killteam.killteam_helpers import ALICE, BOB, FULL_PACK, Table


def test_steps_two_to_four() -> None:
    table = Table("random", "free", seed=4)
    assert [type(e).__name__ for e in table.events][-2:] == ["KillzoneReady", "RolledOff"]
    killzone = table.of(KillzoneReady)[0]
    assert killzone.map.startswith("Map ") and killzone.group in ("1-3", "4-6", "7-9")
    winner = table.of(RolledOff)[0].winner
    assert table.of(RolledOff)[0].purpose == "attacker and defender"
    table.choose(winner, "attack")
    assert table.of(SideChosen)[0].attacker == winner
    assert prompt(table.state).players == [table.defender]
    assert table.refused(Choose(actor=winner, step=table.state.step_id(), values=["A"])) == (
        "killteam.opponents_choice",
        {},
    )
    table.choose(table.defender, "B")
    assert table.of(DropZoneChosen)[0].zone == "B" and table.state.drop_zone == "B"
    # step 4: both say their faction, in any order; then each gains 3 CP
    assert sorted(prompt(table.state).players) == [ALICE, BOB]
    assert [o.value for o in table.asked(BOB).options] == ["alpha", "beta", "_none"]
    table.choose(BOB, "_none")
    assert table.refused(Choose(actor=BOB, step=table.state.step_id(), values=["beta"])) == (
        "killteam.waiting_for_opponent",
        {},
    )
    assert table.state.cp == {}
    table.choose(ALICE, "beta")
    assert [(e.player, e.faction) for e in table.of(FactionChosen)] == [(BOB, None), (ALICE, "Beta")]
    assert table.of(CommandPointsAdded)[0].totals == {ALICE: 3, BOB: 3}
    assert table.stage == "tac_private"


def test_set_up_prompts_run_in_the_seeds_order() -> None:
    table = Table("random", "free", seed=4)
    table.auto(until="equipment")
    attacker, defender = table.attacker, table.defender
    # equipment: both, any order
    table.done(attacker)
    assert table.refused(Done(actor=attacker, step=table.state.step_id())) == (
        "killteam.waiting_for_opponent",
        {},
    )
    table.done(defender)
    # barricades: both asked at once, to set up two each in turns at the table; one Done each
    assert table.stage == "barricades"
    barricades = prompt(table.state)
    assert barricades.players == [defender, attacker] and barricades.kind == "done"
    assert str(barricades.title) == "Barricades: 2 each"
    assert str(barricades.text).startswith(
        "Set up your 2 barricades, taking turns with your opponent; the defender starts."
    )
    assert table.asked(attacker) == table.asked(defender) == barricades
    table.done(attacker)  # who presses first doesn't matter: each says when all theirs are down
    assert prompt(table.state).players == [defender] and prompt(table.state).step == barricades.step
    assert table.refused(Done(actor=attacker, step=barricades.step)) == ("killteam.waiting_for_opponent", {})
    table.done(defender)
    # operatives: three groups each, the same way
    assert table.stage == "operatives"
    operatives = prompt(table.state)
    assert operatives.players == [defender, attacker] and str(operatives.title) == "Operatives: 3 groups each"
    assert "operatives in 3 groups, taking turns with your opponent; the defender starts" in str(
        operatives.text
    )
    assert table.refused(Done(actor=attacker, step=barricades.step)) == (
        "answer.stale",
        {"now": "Operatives: 3 groups each"},
    )
    table.done(defender)
    table.done(attacker)
    done = [(e.player, e.what) for e in table.of(PlayerDone)]
    assert done == [
        (attacker, "equipment"),
        (defender, "equipment"),
        (attacker, "their barricades"),
        (defender, "their barricades"),
        (defender, "their operatives"),
        (attacker, "their operatives"),
    ]
    assert table.stage == "scouting"


def old_save(table: Table, turns_left: list[int]) -> str:
    """What a game saved mid-way through barricades or operatives held when each item took its own
    Done: the turns left as an ordered queue (its head answering), and no fields added since."""
    data = json.loads(table.state.model_dump_json())
    del data["confirmation"]
    data.update(queue=turns_left, ordered=True)
    return json.dumps(data)


@pytest.mark.parametrize(
    ("stage", "turns_left", "still_asked"),
    [
        ("barricades", "DADA", "DA"),  # nobody had set up a barricade
        ("barricades", "ADA", "AD"),  # the defender had set up one
        ("barricades", "A", "A"),  # the defender had set up both
        ("operatives", "DADADA", "DA"),
        ("operatives", "ADA", "AD"),  # each had set up one group
        ("operatives", "A", "A"),
    ],
)
def test_a_game_saved_with_the_old_turn_order_resumes(stage: str, turns_left: str, still_asked: str) -> None:
    """Whoever still had a turn in the old queue has items left to set up: they are asked for their one
    Done; the question keeps its step id, so the button already posted for it still answers."""
    table = Table("random", "free", seed=4)
    table.auto(until=stage)
    sides = {"A": table.attacker, "D": table.defender}
    saved = old_save(table, [sides[t] for t in turns_left])
    posted_step = "{stage}.{question}".format(**json.loads(saved))  # the old message's Done button
    table.state = PROCEDURE.load(saved)
    asked = prompt(table.state)
    assert (table.state.stage, table.state.ordered) == (stage, False)
    assert asked.players == [sides[t] for t in still_asked] and asked.step == posted_step
    assert table.state.pending is None
    for player in list(asked.players):
        table.done(player)
    assert table.stage == ("operatives" if stage == "barricades" else "scouting")
    table.auto(until="battle")
    assert table.state.turning_point == 1


def test_scouting_is_sealed_revealed_together_and_resolved_attacker_first() -> None:
    table = Table("random", "free", seed=4)
    table.auto(until="scouting")
    attacker, defender = table.attacker, table.defender
    assert sorted(awaiting(table.state)) == [ALICE, BOB]
    public = prompt(table.state)
    assert public.sealed and [o.value for o in public.options] == ["fortify", "infiltrate", "recon"]
    ambush = SealScouting(actor=defender, step="scouting", option="ambush", nonce="nonce-bad-01")
    assert table.refused(ambush) == ("killteam.scouting_option", {"options": "Fortify, Infiltrate, Recon"})
    before = prompt(table.state)
    table.scout(defender, "Recon")
    after = prompt(table.state)  # the public prompt only loses the defender from its list
    assert after.players == [attacker] and replace(after, players=before.players) == before
    sealed = table.of(ChoiceSealed)[-1]
    assert sealed.player == defender and "recon" not in sealed.model_dump_json().lower()
    assert private_view(table.state, defender).sealed_choice == "recon"
    assert private_view(table.state, attacker).sealed_choice is None
    assert awaiting(table.state) == [attacker]
    again = SealScouting(actor=defender, step="scouting", option="fortify", nonce="nonce-again-1")
    assert table.refused(again) == ("killteam.already_sealed", {})
    table.scout(attacker, "infiltrate")
    revealed = table.of(ChoicesRevealed)[-1]
    assert {e.player: e.choice for e in revealed.entries} == {attacker: "infiltrate", defender: "recon"}
    assert table.of(ScoutingRevealed)[0].order == [attacker, defender]
    assert table.stage == "scouting_resolve" and prompt(table.state).players == [attacker]
    assert table.refused(Done(actor=defender, step=table.state.step_id())) == ("killteam.opponents_turn", {})
    table.done(attacker)
    table.done(defender)
    # the shipped rule has no table, so the players roll off and the winner decides
    rolled = table.of(RolledOff)[-1]
    assert rolled.purpose == "the first initiative" and table.stage == "initiative_choice"
    table.choose(rolled.winner, "take")
    assert table.state.first_initiative == rolled.winner
    assert table.of(InitiativeDecided)[-1].how == "roll-off"
    assert table.stage == "battle" and table.state.turning_point == 1


def test_a_servers_initiative_table_decides_without_a_roll_off() -> None:
    rule = FULL_PACK.initiative.model_copy(
        update={"table": [InitiativeRow(attacker="fortify", defender="recon", initiative="defender")]}
    )
    pack = FULL_PACK.model_copy(update={"initiative": rule})
    table = Table("random", "free", seed=4, pack=pack)
    table.auto(until="scouting")
    table.scout(table.attacker, "fortify")
    table.scout(table.defender, "recon")
    rolls_before = len(table.of(RolledOff))
    table.done(table.attacker)
    table.done(table.defender)
    assert table.state.first_initiative == table.defender
    assert table.of(InitiativeDecided)[-1].how == "scouting"
    assert len(table.of(RolledOff)) == rolls_before and table.stage == "battle"
