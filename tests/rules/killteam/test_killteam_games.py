"""Whole games from start to result with seeded dice: a Bid game and a Veto game."""

from __future__ import annotations

from rules.killteam import RevealTacOp, Score, SetBattleReady, awaiting, prompt, scoreboard
from rules.killteam.events import (
    BidTied,
    BidWon,
    GameEnded,
    InitiativeDecided,
    RolledOff,
    TacOpRevealed,
    TacOpsHand,
)
from rules.killteam.models import BidRecord
from rules.sealed import ChoiceSealed, ChoicesRevealed, verify
from tests.rules.killteam.killteam_helpers import ALICE, BOB, Table


def other(player: int) -> int:
    return BOB if player == ALICE else ALICE


def play_bid_game(seed: int) -> Table:
    table = Table("bid", "bid", seed=seed)
    # mission: Alice outbids Bob and picks Loot
    table.bid(ALICE, 4)
    table.bid(BOB, 2)
    table.choose(ALICE, "loot")
    # map: 1-1 is cancelled, 0-0 goes to a roll-off
    table.bid(ALICE, 1)
    table.bid(BOB, 1)
    table.bid(ALICE, 0)
    table.bid(BOB, 0)
    map_winner = table.last_rolloff().winner
    table.choose(map_winner, "A4")
    # attacker and defender: Bob wins and attacks
    table.bid(ALICE, 3)
    table.bid(BOB, 5)
    table.choose(BOB, "attack")
    # first initiative: a tie, then Bob wins and hands it to Alice
    table.bid(ALICE, 2)
    table.bid(BOB, 2)
    table.bid(ALICE, 2)
    table.bid(BOB, 3)
    table.choose(BOB, "give")
    # steps 2-4: the defender (Alice) picks a drop zone; factions; CP
    table.choose(ALICE, "A")
    table.choose(ALICE, "alpha")
    table.choose(BOB, "beta")
    # step 5 by bid, with fresh tokens
    table.bid(ALICE, 6)
    table.bid(BOB, 3)
    table.choose(ALICE, "recon")
    for alice_bid, bob_bid in ((1, 2), (3, 0), (0, 0)):
        table.bid(ALICE, alice_bid)
        table.bid(BOB, bob_bid)
        winner = prompt(table.state).players[0]
        table.choose(winner, table.asked(winner).options[0].value)
    # steps 6-9: equipment, barricades and operatives ask both players at once, one Done each
    table.done(BOB)
    table.done(ALICE)
    for _ in ("barricades", "operatives"):
        table.done(ALICE)
        table.done(BOB)
    table.scout(BOB, "fortify")
    table.scout(ALICE, "recon")
    table.done(BOB)
    table.done(ALICE)
    # the battle
    for tp, (alice_vp, bob_vp) in enumerate([(1, 2), (3, 2), (4, 1), (2, 4)], start=1):
        table.act(Score(actor=ALICE, mission_vp=alice_vp, turning_point=tp))
        table.act(Score(actor=BOB, mission_vp=bob_vp))
        if tp == 3:
            card = table.state.tac.held[ALICE][0]
            table.act(Score(actor=ALICE, tac_op=card, tac_op_vp=2))
        table.end_tp(ALICE)
        table.end_tp(BOB)
    return table


def test_a_whole_bid_game() -> None:
    table = play_bid_game(seed=2024)
    state = table.state
    assert state.finished and state.mission == "loot" and state.map == "A4"
    assert state.attacker == BOB and state.drop_zone == "A" and state.first_initiative == ALICE
    assert state.bids is not None and state.bids.tokens == {ALICE: 1, BOB: 0}
    assert [(r.category, r.bids, r.winner) for r in state.bids.history] == [
        ("mission", {ALICE: 4, BOB: 2}, ALICE),
        ("map", {ALICE: 1, BOB: 1}, None),
        ("map", {ALICE: 0, BOB: 0}, table.of(RolledOff)[0].winner),
        ("sides", {ALICE: 3, BOB: 5}, BOB),
        ("initiative", {ALICE: 2, BOB: 2}, None),
        ("initiative", {ALICE: 2, BOB: 3}, BOB),
    ]
    assert len(table.of(BidTied)) == 2
    # Tac Ops by bid: three Recon pairs split between the players, all public
    assert state.tac.archetype == "Recon" and not state.tac.secret
    assert sorted(state.tac.held[ALICE] + state.tac.held[BOB]) == [f"recon-op-{i}" for i in range(1, 7)]
    assert state.tac.bids is not None and state.tac.bids.tokens == {ALICE: 10 - 6 - 1 - 3, BOB: 10 - 3 - 2}
    # the bid's first initiative overrode scouting: no roll-off for it
    assert [d.how for d in table.of(InitiativeDecided)] == ["bid", "bid"]
    assert state.outcome is not None and state.outcome.winner == ALICE and state.outcome.mission == "Loot"
    assert table.of(GameEnded)[0].totals == {ALICE: 12, BOB: 9}
    assert scoreboard(state).sides[0].mission_vp == [1, 3, 4, 2]
    # every commitment checks out, and each sealed step was revealed exactly once
    reveals = table.of(ChoicesRevealed)
    # six mission-bid rounds, four Tac Op bid rounds, scouting
    assert len({r.step for r in reveals}) == len(reveals) == 6 + 4 + 1
    for reveal in reveals:
        for entry in reveal.entries:
            assert verify("kt-test", reveal.step, entry.player, entry.choice, entry.nonce, entry.commitment)
    assert len(table.of(ChoiceSealed)) == 2 * len(reveals)


def test_the_same_seed_plays_the_same_game() -> None:
    first, second = play_bid_game(seed=9), play_bid_game(seed=9)
    assert [e.model_dump_json() for e in first.events] == [e.model_dump_json() for e in second.events]
    assert first.state == second.state


def test_a_whole_veto_game_with_secret_random_tac_ops() -> None:
    table = Table("veto", "random", seed=77)
    side_winner = table.last_rolloff().winner
    table.choose(side_winner, "attack")
    attacker, defender = side_winner, other(side_winner)
    table.choose(attacker, "secure", "capture")
    table.choose(defender, "secure")
    table.choose(defender, "A2", "A6", "B8")
    table.choose(attacker, "B8")
    table.choose(defender, "A6")
    table.choose(defender, "B")
    table.choose(ALICE, "alpha")
    table.choose(BOB, "_none")
    # Random Tac Ops: each keeps one of two, three times, in private
    assert sorted(awaiting(table.state)) == [ALICE, BOB]
    while table.stage == "tac_private":
        for player in awaiting(table.state):
            allowed = [o.value for o in table.asked(player).options if not o.disabled]
            table.choose(player, allowed[-1])
    hands = {e.private_to: [c.id for c in e.cards] for e in table.of(TacOpsHand)}
    assert set(hands) == {ALICE, BOB}
    for hand in hands.values():
        ops = [table.state.pack.tac_op(i) for i in hand]
        assert sum(1 for op in ops if op and op.faction) <= 1
        assert len({op.archetype for op in ops if op and op.archetype}) == 1
        assert not any(op and op.faction == "Beta" for op in ops)
    table.auto(until="scouting")
    table.scout(attacker, "infiltrate")
    table.scout(defender, "fortify")
    table.done(attacker)
    table.done(defender)
    initiative_roll = table.last_rolloff()
    assert initiative_roll.purpose == "the first initiative"
    table.choose(initiative_roll.winner, "take")
    # the battle: Alice reveals a Tac Op and scores it; Bob is Battle Ready
    card = hands[ALICE][0]
    table.act(RevealTacOp(actor=ALICE, tac_op=card))
    assert table.of(TacOpRevealed)[0].card.id == card
    table.act(SetBattleReady(actor=BOB))
    for tp in range(1, 5):
        scored = tp == 2
        table.act(
            Score(actor=ALICE, mission_vp=2, tac_op=card if scored else None, tac_op_vp=1 if scored else 0)
        )
        table.act(Score(actor=BOB, mission_vp=2))
        table.end_tp(defender)
        table.end_tp(attacker)
    outcome = table.state.outcome
    assert outcome is not None and outcome.winner == BOB  # 8 + 1 against 8 + 2 for Battle Ready
    assert [s.score for s in outcome.sides] == [9, 10]
    assert outcome.mission == "Secure" and outcome.summary.startswith("Secure on Map A6")
    # the hand never appeared publicly except the one card Alice revealed
    public = "".join(e.model_dump_json() for e in table.events if e.private_to is None)
    for hand in hands.values():
        for op_id in hand:
            assert (op_id in public) == (op_id == card)


def test_history_records_are_never_rewritten() -> None:
    table = play_bid_game(seed=5)
    won = next(e for e in table.of(BidWon) if e.category == "mission")
    assert won.bids == {ALICE: 4, BOB: 2}
    assert table.state.bids is not None
    assert table.state.bids.history[0] == BidRecord(
        category="mission", round=1, bids={ALICE: 4, BOB: 2}, winner=ALICE
    )
