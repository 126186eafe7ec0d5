"""Step 5 (Tac Ops) by every method: one faction Tac Op at most, the rest from one archetype."""

from __future__ import annotations

import pytest

from rules.errors import RuleError
from rules.killteam import Choose, RevealTacOp, load_default_pack, private_view, prompt, scoreboard
from rules.killteam.events import (
    ArchetypeChosen,
    BidRoundOpened,
    Notice,
    TacOpKept,
    TacOpPairOffered,
    TacOpRevealed,
    TacOpRow,
    TacOpsChosen,
    TacOpsDrawn,
    TacOpsHand,
    TacOpsSetAside,
    TacOpTaken,
)
from rules.killteam.hand import METHOD_LABELS
from rules.killteam.models import TacOpDraft
from rules.killteam.pack import slug
from rules.session import QUESTION
from tests.rules.killteam.killteam_helpers import ALICE, ARCHETYPES, BOB, Table


def at_tac_ops(method: str, factions: tuple[str, str] = ("alpha", "beta"), seed: int = 1) -> Table:
    table = Table("random", method, seed=seed)
    table.auto(until="faction")
    table.choose(ALICE, factions[0])
    table.choose(BOB, factions[1])
    return table


def keep_first_allowed(table: Table, player: int) -> str:
    option = next(o for o in table.asked(player).options if not o.disabled)
    table.choose(player, option.value)
    return option.value


def public_json(table: Table) -> str:
    return "".join(e.model_dump_json() for e in table.events if e.private_to is None)


def test_random_draws_two_keeps_one_three_times_in_private() -> None:
    table = at_tac_ops("random")
    assert table.stage == "tac_private"
    public = prompt(table.state)
    assert public.private and public.options == [] and sorted(public.players) == [ALICE, BOB]
    draft = table.state.tac.drafts[ALICE]
    assert len(draft.deck) + len(draft.pair) == 27  # four archetypes of six plus three faction Tac Ops
    deck_ops = [table.state.pack.tac_op(i) for i in [*draft.deck, *draft.pair]]
    assert {op.faction for op in deck_ops if op and op.faction} == {"Alpha"}
    drawn = [e for e in table.of(TacOpsDrawn) if e.private_to == ALICE]
    assert len(drawn) == 1 and len(drawn[0].cards) == 2
    for player in (ALICE, BOB):
        for _ in range(3):
            keep_first_allowed(table, player)
    assert table.stage == "equipment"
    assert len([e for e in table.of(TacOpKept) if e.private_to == ALICE]) == 3
    hands = {e.private_to: e.cards for e in table.of(TacOpsHand)}
    assert set(hands) == {ALICE, BOB} and all(len(cards) == 3 for cards in hands.values())
    assert [e.player for e in table.of(TacOpsChosen)] == [ALICE, BOB]
    # nothing public names a secret Tac Op
    everything = (
        public_json(table)
        + QUESTION.dump_json(prompt(table.state)).decode()
        + scoreboard(table.state).model_dump_json()
    )
    for cards in hands.values():
        for card in cards:
            assert card.id not in everything and card.name not in everything
    assert [side.hidden_tac_ops for side in scoreboard(table.state).sides] == [3, 3]
    # each player's own view shows their hand
    assert [c.id for c in private_view(table.state, ALICE).tac_ops] == [c.id for c in hands[ALICE]]


def with_draft(table: Table, player: int, held: list[str], draft: TacOpDraft) -> None:
    tac = table.state.tac.model_copy(
        update={
            "held": {**table.state.tac.held, player: held},
            "drafts": {**table.state.tac.drafts, player: draft},
        }
    )
    table.state = table.state.model_copy(update={"tac": tac})


def test_a_second_faction_tac_op_cannot_be_kept() -> None:
    table = at_tac_ops("random")
    with_draft(
        table,
        ALICE,
        ["alpha-op-1"],
        TacOpDraft(
            phase="draw", pair=["alpha-op-2", "recon-op-1"], deck=["recon-op-2", "recon-op-3"], question=5
        ),
    )
    options = {o.value: o for o in table.asked(ALICE).options}
    assert options["alpha-op-2"].disabled and str(options["alpha-op-2"].description) == (
        "You may hold only one faction Tac Op."
    )
    refusal = table.refused(Choose(actor=ALICE, step=f"tac.{ALICE}.5", values=["alpha-op-2"]))
    assert refusal == (
        "answer.disabled",
        {"label": "Alpha op 2", "why": "You may hold only one faction Tac Op."},
    )
    table.choose(ALICE, "recon-op-1")
    assert table.state.tac.held[ALICE] == ["alpha-op-1", "recon-op-1"]


def test_archetype_tac_ops_must_share_one_archetype() -> None:
    table = at_tac_ops("random")
    with_draft(
        table,
        ALICE,
        ["recon-op-1"],
        TacOpDraft(phase="draw", pair=["security-op-1", "recon-op-2"], deck=["recon-op-3"], question=5),
    )
    code, params = table.refused(Choose(actor=ALICE, step=f"tac.{ALICE}.5", values=["security-op-1"]))
    assert code == "answer.disabled" and params["label"] == "Security op 1"
    assert str(params["why"]).startswith("Your Tac Ops so far are Recon; all your archetype Tac Ops")


def test_a_pair_with_nothing_that_fits_is_set_aside_and_reshuffled_later() -> None:
    table = at_tac_ops("random")
    with_draft(
        table,
        ALICE,
        ["alpha-op-1"],
        TacOpDraft(
            phase="draw",
            pair=["recon-op-1", "security-op-1"],
            question=5,
            set_aside=["recon-op-2"],
            deck=["alpha-op-2", "security-op-2", "security-op-3", "seek-destroy-op-1"],
        ),
    )
    table.choose(ALICE, "recon-op-1")
    aside = [e for e in table.of(TacOpsSetAside) if e.private_to == ALICE]
    assert [[c.id for c in e.cards] for e in aside][:2] == [
        ["alpha-op-2", "security-op-2"],
        ["security-op-3", "seek-destroy-op-1"],
    ]
    # the deck ran out: the set-aside and discarded cards are reshuffled, and a fitting pair comes up
    assert any(isinstance(e, Notice) and e.private_to == ALICE for e in table.events)
    pair = table.state.tac.drafts[ALICE].pair
    assert any(table.state.pack.tac_op(card).archetype == "Recon" for card in pair)  # type: ignore[union-attr]
    assert all(e.private_to == ALICE for e in aside)


def test_constructed_random_builds_a_six_card_deck_from_the_faction_archetypes() -> None:
    table = at_tac_ops("constructed")
    assert [str(o.label) for o in table.asked(ALICE).options] == ["Recon", "Security"]
    assert [o.value for o in table.asked(ALICE).options] == ["recon", "security"]
    table.choose(ALICE, "security")
    step_id = table.asked(ALICE).step or ""
    assert {o.value for o in table.asked(ALICE).options} >= {"security-op-1", "alpha-op-1"}
    assert not any(o.value.startswith("beta") for o in table.asked(ALICE).options)
    for values, refusal in [
        (["security-op-1"], ("answer.count", {"minimum": 6, "maximum": 6})),
        (
            ["security-op-1", "security-op-2", "security-op-3", "alpha-op-1", "alpha-op-2", "beta-op-1"],
            ("answer.not_offered", {}),
        ),
    ]:
        assert table.refused(Choose(actor=ALICE, step=step_id, values=values)) == refusal
    deck = ["alpha-op-1", "alpha-op-2", "alpha-op-3", "security-op-1", "security-op-2", "security-op-3"]
    table.choose(ALICE, *deck)
    draft = table.state.tac.drafts[ALICE]
    assert sorted([*draft.deck, *draft.pair]) == sorted(deck) and draft.phase == "draw"
    for _ in range(3):
        keep_first_allowed(table, ALICE)
    held = [table.state.pack.tac_op(i) for i in table.state.tac.held[ALICE]]
    assert sum(1 for op in held if op and op.faction) <= 1
    assert len({op.archetype for op in held if op and op.archetype}) == 1


def test_constructed_deck_allows_at_most_three_faction_tac_ops() -> None:
    table = at_tac_ops("constructed")
    table.choose(ALICE, "security")
    # only three faction Tac Ops exist, so check the cap through the hand rules directly
    from rules.killteam.hand import hand_problem

    pack = table.state.pack
    cards = [
        pack.tac_op(i)
        for i in ["alpha-op-1", "alpha-op-2", "alpha-op-3", "security-op-1", "recon-op-1", "security-op-2"]
    ]
    problem = hand_problem([c for c in cards if c], "Alpha", 6, 3)
    assert problem is not None and problem.code == "killteam.hand_archetypes"
    four = [c for c in cards[:3] if c] * 1
    problem = hand_problem([*four, *four[:1]], "Alpha", 4, 3)
    assert problem is not None and problem.code == "killteam.hand_repeated"
    problem = hand_problem([c for c in cards[:3] if c], "Alpha", 3, 2)
    assert problem is not None
    assert (problem.code, problem.params) == ("killteam.hand_faction_max", {"maximum": 2})


def test_free_selection_picks_three_privately() -> None:
    table = at_tac_ops("free")
    assert [o.value for o in table.asked(ALICE).options] == [slug(name) for name in ARCHETYPES]
    table.choose(ALICE, "recon")
    step_id = table.asked(ALICE).step or ""
    two_faction = Choose(actor=ALICE, step=step_id, values=["alpha-op-1", "alpha-op-2", "recon-op-1"])
    assert table.refused(two_faction) == ("killteam.hand_one_faction_op", {})
    table.choose(ALICE, "alpha-op-2", "recon-op-1", "recon-op-4")
    assert table.state.tac.held[ALICE] == ["alpha-op-2", "recon-op-1", "recon-op-4"]
    assert "recon-op-4" not in public_json(table)
    assert table.stage == "tac_private"  # still waiting for Bob
    assert table.refused(Choose(actor=ALICE, step=step_id, values=["recon-op-1"])) == (
        "killteam.waiting_for_opponent",
        {},
    )


def test_acquired_uses_a_public_row_attacker_first() -> None:
    table = at_tac_ops("acquired")
    assert table.stage == "tac_row"
    row = table.of(TacOpRow)[0]
    assert len(row.row) == 6 and row.private_to is None
    attacker, defender = table.attacker, table.defender
    assert prompt(table.state).players == [attacker]
    assert table.refused(Choose(actor=defender, step=table.state.step_id(), values=[row.row[0].id])) == (
        "killteam.opponents_turn",
        {},
    )
    deck_before = len(table.state.tac.deck)
    taken = keep_first_allowed(table, attacker)
    assert taken not in table.state.tac.row and len(table.state.tac.row) >= 6
    assert len(table.state.tac.deck) < deck_before
    for _ in range(5):
        keep_first_allowed(table, prompt(table.state).players[0])
    assert table.stage == "equipment"
    assert [e.player for e in table.of(TacOpTaken)] == [attacker, defender] * 3
    for player in (ALICE, BOB):
        held = table.state.tac.held[player]
        assert len(held) == 3 and table.state.tac.revealed[player] == held
    assert not table.state.tac.secret
    assert table.refused(RevealTacOp(actor=ALICE, tac_op=table.state.tac.held[ALICE][0])) == (
        "killteam.tac_ops_public",
        {},
    )


def test_acquired_refuses_another_factions_tac_op() -> None:
    table = at_tac_ops("acquired")
    attacker = table.attacker
    foreign = "beta-op-1" if table.state.faction_of(attacker) == "Alpha" else "alpha-op-1"
    tac = table.state.tac.model_copy(update={"row": [foreign, "recon-op-1", *table.state.tac.row[2:]]})
    table.state = table.state.model_copy(update={"tac": tac})
    code, params = table.refused(Choose(actor=attacker, step=table.state.step_id(), values=[foreign]))
    assert code == "answer.disabled" and "not one of your faction's" in str(params["why"])


def test_bid_tac_ops_archetype_then_pairs() -> None:
    table = at_tac_ops("bid")
    opened = table.of(BidRoundOpened)[-1]
    assert opened.step == "tacbid.archetype.1" and opened.tokens == {ALICE: 10, BOB: 10}
    table.bid(ALICE, 2)
    table.bid(BOB, 5)
    assert [str(o.label) for o in table.asked(BOB).options] == list(ARCHETYPES)
    table.choose(BOB, "seek-destroy")
    assert table.of(ArchetypeChosen)[0].archetype == "Seek & Destroy"
    for number, (alice_bid, bob_bid) in enumerate([(3, 1), (2, 2), (0, 0)], start=1):
        pair = [c.id for c in table.of(TacOpPairOffered)[-1].pair]
        assert table.of(TacOpPairOffered)[-1].number == number
        table.bid(ALICE, alice_bid)
        table.bid(BOB, bob_bid)
        if alice_bid == bob_bid != 0:  # cancelled: bid again
            table.bid(ALICE, 1)
            table.bid(BOB, 0)
        winner = prompt(table.state).players[0]
        loser = BOB if winner == ALICE else ALICE
        table.choose(winner, pair[1])
        assert table.state.tac.held[winner][-1] == pair[1] and table.state.tac.held[loser][-1] == pair[0]
    assert table.stage == "equipment"
    held = table.state.tac.held
    assert sorted(held[ALICE] + held[BOB]) == sorted(f"seek-destroy-op-{i}" for i in range(1, 7))
    assert table.state.tac.bids is not None
    assert table.state.tac.bids.tokens == {ALICE: 10 - 2 - 3 - 1, BOB: 5 - 1}


def test_revealing_a_secret_tac_op() -> None:
    table = at_tac_ops("free")
    assert table.refused(RevealTacOp(actor=ALICE, tac_op="recon-op-1")) == ("killteam.no_tac_ops_yet", {})
    table.choose(ALICE, "recon")
    table.choose(ALICE, "recon-op-1", "recon-op-2", "recon-op-3")
    table.choose(BOB, "security")
    table.choose(BOB, "security-op-1", "security-op-2", "beta-op-1")
    assert table.refused(RevealTacOp(actor=ALICE, tac_op="security-op-1")) == ("killteam.tac_op_not_held", {})
    events = table.act(RevealTacOp(actor=ALICE, tac_op="Recon op 2"))
    assert isinstance(events[0], TacOpRevealed) and events[0].private_to is None
    assert events[0].card.name == "Recon op 2"
    assert table.refused(RevealTacOp(actor=ALICE, tac_op="recon-op-2")) == (
        "killteam.tac_op_revealed",
        {"tac_op": "Recon op 2"},
    )
    side = scoreboard(table.state).sides[0]
    assert [line.name for line in side.tac_ops] == ["Recon op 2"] and side.hidden_tac_ops == 2


def test_the_shipped_pack_only_runs_free_selection() -> None:
    with pytest.raises(RuleError) as refused:
        Table("random", "random", pack=load_default_pack())
    pack = load_default_pack().name
    assert refused.value.code == "killteam.method_deck"
    assert refused.value.params == {"pack": pack, "method": METHOD_LABELS["random"], "minimum": 6}
    assert str(METHOD_LABELS["random"]) == "Random"
    with pytest.raises(RuleError) as refused:
        Table("random", "bid", pack=load_default_pack())
    assert refused.value.code == "killteam.method_archetype"
    assert refused.value.params == {"pack": pack, "method": METHOD_LABELS["bid"], "minimum": 6, "largest": 3}
    table = Table("random", "free", pack=load_default_pack())
    table.auto(until="tac_private")
    assert [(o.value, str(o.label)) for o in table.asked(ALICE).options] == [("security", "Security")]


@pytest.mark.parametrize("method", ["random", "constructed", "acquired", "bid"])
def test_tac_ops_deck_orders_stay_out_of_the_roll_audit(method: str) -> None:
    """`/rolls recent` shows the audit in the channel: a deck's order would give away what is drawn."""
    table = at_tac_ops(method)
    table.auto(until="equipment")
    shuffles = [r for r in table.roller.rolls if r.notation.startswith("shuffle")]
    assert shuffles
    assert all(r.results == () and r.notation.endswith("(hidden)") for r in shuffles)
